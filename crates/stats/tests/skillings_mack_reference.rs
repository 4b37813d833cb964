//! The Skillings-Mack test against R's Skillings.Mack values (frozen by autorank PR #49) and an
//! independent numpy implementation (`reference/skillings_mack_reference.py` ->
//! `tests/data/skillings_mack.json`), and the missing-results policy.

mod common;
use common::{assert_pvalue, cases, float, floats};
use stats::skillings_mack::{apply_missing_policy, skillings_mack, MissingPolicy};

fn table(value: &serde_json::Value) -> Vec<Vec<Option<f64>>> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|v| v.as_f64()).collect())
        .collect()
}

#[test]
fn skillings_mack_matches_r_and_numpy() {
    for case in cases("skillings_mack") {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        let result = skillings_mack(&table(&case["input"]["table"]), 0.05).unwrap();
        let statistic = float(&expected["statistic"]);
        assert!(
            (result.statistic - statistic).abs() <= 1e-9 * statistic.max(1.0),
            "{name}: SM {} vs {statistic}",
            result.statistic
        );
        assert_eq!(
            result.df as u64,
            expected["df"].as_u64().unwrap(),
            "{name} df"
        );
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["pvalue"]),
        );
        let skipped: Vec<usize> = expected["skipped_datasets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(result.skipped_datasets, skipped, "{name}");
        for (j, want) in floats(&expected["adjusted_rank_sums"])
            .into_iter()
            .enumerate()
        {
            assert!(
                (result.adjusted_rank_sums[j] - want).abs() < 1e-9,
                "{name} w[{j}]"
            );
        }
    }
}

#[test]
fn the_r_help_page_example() {
    // R's Skillings.Mack help example: SM = 15.493, df = 3, p = 0.00144.
    let case = &cases("skillings_mack")[0];
    let result = skillings_mack(&table(&case["input"]["table"]), 0.05).unwrap();
    assert!((result.statistic - 15.493).abs() < 5e-4);
    assert!((result.pvalue - 0.00144).abs() < 5e-6);
}

#[test]
fn policies_drop_what_they_say() {
    let t = vec![
        vec![Some(1.0), Some(2.0), None],
        vec![Some(3.0), Some(1.0), Some(2.0)],
        vec![Some(2.0), None, Some(1.0)],
    ];
    let by_dataset = apply_missing_policy(&t, MissingPolicy::DropDatasets).unwrap();
    assert_eq!(by_dataset.kept_datasets, vec![1]);
    assert_eq!(
        by_dataset.dropped_datasets,
        vec![(0, vec![2]), (2, vec![1])]
    );
    assert_eq!(by_dataset.complete, vec![vec![3.0, 1.0, 2.0]]);
    let by_learner = apply_missing_policy(&t, MissingPolicy::DropLearners).unwrap();
    assert_eq!(by_learner.kept_learners, vec![0]);
    assert_eq!(
        by_learner.dropped_learners,
        vec![(1, vec![2]), (2, vec![0])]
    );
    assert_eq!(by_learner.complete, vec![vec![1.0], vec![3.0], vec![2.0]]);
}

#[test]
fn bad_tables_are_errors() {
    assert!(skillings_mack(&[vec![Some(1.0)]], 0.05).is_err());
    assert!(skillings_mack(&vec![vec![Some(1.0), Some(f64::NAN)]; 3], 0.05).is_err());
    assert!(skillings_mack(&[vec![Some(1.0), None], vec![None, Some(2.0)]], 0.05).is_err());
    let ragged = vec![vec![Some(1.0), Some(2.0)], vec![Some(1.0)]];
    assert!(skillings_mack(&ragged, 0.05).is_err());
}
