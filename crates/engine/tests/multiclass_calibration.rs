//! The `ece` and `mce` measures on multi-class tasks, as a config names them: by default the
//! top-label calibration, with `per_class = true` each class one-vs-rest (ECE: the mean over the
//! classes, MCE: the largest), against netcal 1.4 (values written by
//! `tests/data/multiclass_calibration.py`, which also checks netcal's per-class ECE against
//! scikit-learn's `calibration_curve` one-vs-rest).

use engine::measures::measure::builtin;
use engine::Measure;
use learners::Probabilities;
use serde_json::Value;

/// The measure a config item names (a TOML inline table).
fn measure(item: &str) -> Measure {
    let value: toml::Value = toml::from_str::<toml::Table>(&format!("m = {item}"))
        .unwrap()
        .remove("m")
        .unwrap();
    let registry = builtin();
    let learners = learners::Registry::builtin();
    let (entry, options) = registry.lookup(&value).unwrap();
    Measure::build(entry, &entry.check(&options, &learners).unwrap()).unwrap()
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/multiclass_calibration.json"
    ))
    .unwrap();
    let reference: Value = serde_json::from_str(&text).unwrap();
    reference["cases"].as_array().unwrap().clone()
}

#[test]
fn per_class_and_top_label_calibration_errors_equal_netcal() {
    for case in cases() {
        let classes = case["classes"].as_u64().unwrap() as usize;
        let truth: Vec<usize> = case["truth"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let flat: Vec<f64> = case["probabilities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let probabilities = Probabilities::from_flat(classes, flat);
        let (bins, binning) = (&case["bins"], case["binning"].as_str().unwrap());
        for (name, per_class, key) in [
            ("ece", true, "class_wise_ece"),
            ("mce", true, "class_wise_mce"),
            ("ece", false, "top_label_ece"),
            ("mce", false, "top_label_mce"),
        ] {
            let item = format!(
                "{{ name = \"{name}\", bins = {bins}, binning = \"{binning}\", per_class = \
                 {per_class} }}"
            );
            let got = measure(&item).compute(&probabilities, &truth, None);
            let want = case[key].as_f64().unwrap();
            assert!(
                (got - want).abs() <= 1e-9,
                "{classes} classes, {item}: {got} != netcal's {want}"
            );
        }
    }
}

#[test]
fn per_class_is_the_positive_class_on_a_two_class_task() {
    let probabilities = Probabilities::from_flat(2, vec![0.9, 0.1, 0.3, 0.7, 0.4, 0.6, 0.8, 0.2]);
    let truth = [0, 1, 0, 1];
    for name in ["ece", "mce"] {
        let plain = measure(&format!("{{ name = \"{name}\" }}"));
        let per_class = measure(&format!("{{ name = \"{name}\", per_class = true }}"));
        assert_eq!(
            plain.compute(&probabilities, &truth, Some(1)),
            per_class.compute(&probabilities, &truth, Some(1))
        );
    }
}
