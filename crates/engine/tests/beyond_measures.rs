//! The measures beyond ROC, named as a config names them (with options), against the peers'
//! values for the three models of experiments/tests/data/roc_eval (written by generate.py
//! there: scikit-learn's average precision and roc_auc_score(max_fpr=0.2), netcal's ECE and
//! MCE over 10 equal-width bins, hmeasure's H, pyprg's PR-Gain area); and the options checked.

use engine::measures::measure::builtin;
use engine::Measure;
use learners::Probabilities;
use serde_json::Value;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../experiments/tests/data/roc_eval"
);

/// The measure a config item names (a TOML inline table or a bare name).
fn measure(item: &str) -> Result<Measure, String> {
    let value: toml::Value = toml::from_str::<toml::Table>(&format!("m = {item}"))
        .unwrap()
        .remove("m")
        .unwrap();
    let registry = builtin();
    let learners = learners::Registry::builtin();
    let (entry, options) = registry.lookup(&value)?;
    Measure::build(entry, &entry.check(&options, &learners)?)
}

/// The truth (1 = positive) and each model's probabilities of the positive class.
fn models() -> (Vec<usize>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(format!("{DATA}/models.csv")).unwrap();
    let mut lines = text.lines().skip(1);
    let (mut truth, mut scores) = (Vec::new(), vec![Vec::new(); 3]);
    for line in lines.by_ref() {
        let fields: Vec<&str> = line.split(',').collect();
        truth.push(fields[0].parse().unwrap());
        for (model, field) in fields[1..].iter().enumerate() {
            scores[model].push(field.parse().unwrap());
        }
    }
    (truth, scores)
}

#[test]
fn measures_beyond_roc_match_the_peers() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{DATA}/expected.json")).unwrap())
            .unwrap();
    let (truth, scores) = models();
    let items = [
        ("\"average_precision\"", "average_precision"),
        (
            "{ name = \"partial_auc\", max_fpr = 0.2 }",
            "partial_auc_standardized",
        ),
        ("\"partial_auc\"", "partial_auc_standardized"),
        ("\"ece\"", "ece"),
        ("{ name = \"mce\", bins = 10 }", "mce"),
        ("\"h_measure\"", "h_measure"),
        ("\"prg_auc\"", "prg_area"),
    ];
    for (model, reference) in expected["models"].as_array().unwrap().iter().enumerate() {
        let flat: Vec<f64> = scores[model].iter().flat_map(|&p| [1.0 - p, p]).collect();
        let probabilities = Probabilities::from_flat(2, flat);
        for (item, key) in items {
            let got = measure(item)
                .unwrap()
                .compute(&probabilities, &truth, Some(1));
            let want = reference[key].as_f64().unwrap();
            assert!(
                (got - want).abs() <= 1e-9,
                "{} {item}: {got} != {want}",
                reference["name"]
            );
        }
    }
}

#[test]
fn bad_options_are_refused_naming_the_option() {
    for (item, option) in [
        ("{ name = \"partial_auc\", max_fpr = 0.0 }", "max_fpr"),
        ("{ name = \"partial_auc\", max_fpr = 2 }", "max_fpr"),
        ("{ name = \"ece\", bins = 0 }", "bins"),
        ("{ name = \"ece\", binning = \"quantile\" }", "binning"),
        (
            "{ name = \"h_measure\", prior = \"beta\", alpha = -1.0 }",
            "alpha",
        ),
        ("{ name = \"average_precision\", bins = 3 }", "bins"),
    ] {
        let error = measure(item).expect_err(item);
        assert!(error.contains(option), "{item}: {error}");
    }
}

#[test]
fn two_class_measures_are_nan_on_a_part_with_one_class() {
    let probabilities = Probabilities::from_flat(2, vec![0.2, 0.8, 0.6, 0.4]);
    for name in [
        "average_precision",
        "pr_auc",
        "prg_auc",
        "partial_auc",
        "h_measure",
    ] {
        let value =
            measure(&format!("\"{name}\""))
                .unwrap()
                .compute(&probabilities, &[1, 1], Some(1));
        assert!(value.is_nan(), "{name}: {value}");
    }
}
