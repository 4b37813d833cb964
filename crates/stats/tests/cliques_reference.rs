//! CD-diagram cliques from any pairwise decisions, against the numpy rule of
//! `reference/cliques_reference.py`, which checked every case against aeon 1.6.0's own clique
//! builder when it wrote `tests/data/cliques.json`.

mod common;
use common::{cases, floats};
use stats::cliques::cliques;

#[test]
fn cliques_match_aeons_rule() {
    for case in cases("cliques") {
        let name = case["name"].as_str().unwrap();
        let ranks = floats(&case["input"]["average_ranks"]);
        let significant: Vec<Vec<bool>> = case["input"]["significant"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                row.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_bool().unwrap())
                    .collect()
            })
            .collect();
        let expected: Vec<Vec<usize>> = case["expected"]["cliques"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                c.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap() as usize)
                    .collect()
            })
            .collect();
        let got: Vec<Vec<usize>> = cliques(&ranks, &significant)
            .unwrap()
            .into_iter()
            .map(|c| c.members)
            .collect();
        assert_eq!(got, expected, "{name}");
    }
}
