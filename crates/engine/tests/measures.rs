//! The Brier score and log-loss against scikit-learn's (tests/data/measures_reference.py).

use engine::Measure;
use learners::Probabilities;

#[test]
fn brier_and_log_loss_match_scikit_learn() {
    let text = include_str!("data/measures_reference.json");
    let reference: serde_json::Value = serde_json::from_str(text).unwrap();
    for case in reference["cases"].as_array().unwrap() {
        let truth: Vec<usize> = case["truth"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let values: Vec<f64> = case["probabilities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let classes = case["classes"].as_u64().unwrap() as usize;
        let positive = case["positive"].as_u64().map(|p| p as usize);
        let probabilities = Probabilities::from_flat(classes, values);
        for key in ["brier", "log_loss"] {
            let measure = Measure::from_name(&engine::measures::measure::builtin(), key).unwrap();
            let got = measure.compute(&probabilities, &truth, positive);
            let want = case[key].as_f64().unwrap();
            assert!(
                (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                "{} {key}: {got} against scikit-learn's {want}",
                case["name"]
            );
        }
    }
}

#[test]
fn every_built_in_measure_has_a_name_that_finds_it() {
    for entry in engine::measures::measure::builtin().entries() {
        let measure =
            Measure::from_name(&engine::measures::measure::builtin(), entry.spec.name).unwrap();
        assert_eq!(measure.name(), entry.spec.name);
    }
}
