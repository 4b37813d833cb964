//! papers::aslan_normality's Shapiro-Wilk counts against scipy's `shapiro` on the samples of the
//! committed Aslan reproduction (vectors written by tests/data/aslan_normality_reference.py).

use papers::aslan_normality::{shapiro_counts, NormalityCounts};
use serde_json::Value;

fn expected(value: &Value) -> NormalityCounts {
    let field = |name: &str| value[name].as_u64().expect("a count") as usize;
    NormalityCounts {
        samples: field("samples"),
        constant: field("constant"),
        tested: field("tested"),
        rejected: field("rejected"),
        rejected_bonferroni: field("rejected_bonferroni"),
    }
}

#[test]
fn counts_match_scipy_shapiro() {
    let text = include_str!("data/aslan_normality_reference.json");
    let reference: Value = serde_json::from_str(text).expect("the reference vectors are JSON");
    let alpha = reference["alpha"].as_f64().unwrap();
    for measure in ["error", "auc"] {
        // values[dataset][learner] = the 30 test values in fold order.
        let values: Vec<Vec<Vec<f64>>> =
            serde_json::from_value(reference["values"][measure].clone()).unwrap();
        let singles: Vec<Vec<f64>> = values.iter().flatten().cloned().collect();
        let mut differences = Vec::new();
        for dataset in &values {
            for a in 0..dataset.len() {
                for b in a + 1..dataset.len() {
                    let pairs = dataset[a].iter().zip(&dataset[b]);
                    differences.push(pairs.map(|(x, y)| x - y).collect::<Vec<f64>>());
                }
            }
        }
        let want = &reference["expected"][measure];
        assert_eq!(
            shapiro_counts(&singles, alpha).unwrap(),
            expected(&want["values"]),
            "{measure}: each learner's values"
        );
        assert_eq!(
            shapiro_counts(&differences, alpha).unwrap(),
            expected(&want["differences"]),
            "{measure}: paired differences"
        );
    }
}
