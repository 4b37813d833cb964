//! The bootstrap tests on the fixed test set, configured as a config names them, on the three
//! models of experiments/tests/data/roc_eval: each estimate is the peer's value from
//! expected.json (scikit-learn's AUC and average precision, netcal's ECE), the paired statistic
//! the difference of the peer's values; the intervals are seeded (same seed, same interval;
//! another seed, another one) and hold their estimate.

use engine::measures::test_set::{builtin, Measured, TestSetFn, TestSetInput, TestSetTest};
use learners::Probabilities;
use serde_json::Value;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../experiments/tests/data/roc_eval"
);

fn test(item: &str) -> Result<TestSetTest, String> {
    let value = toml::from_str::<toml::Table>(&format!("t = {item}"))
        .unwrap()
        .remove("t")
        .unwrap();
    let registry = builtin();
    let learners = learners::Registry::builtin();
    let (entry, options) = registry.lookup(&value)?;
    TestSetTest::build(entry, &entry.check(&options, &learners)?)
}

fn models() -> (Vec<usize>, Vec<Probabilities>) {
    let text = std::fs::read_to_string(format!("{DATA}/models.csv")).unwrap();
    let (mut truth, mut scores) = (Vec::new(), vec![Vec::new(); 3]);
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        truth.push(fields[0].parse().unwrap());
        for (model, field) in fields[1..].iter().enumerate() {
            let p: f64 = field.parse().unwrap();
            scores[model].extend([1.0 - p, p]);
        }
    }
    let models = scores
        .into_iter()
        .map(|flat| Probabilities::from_flat(2, flat))
        .collect();
    (truth, models)
}

fn run(item: &str, truth: &[usize], a: &Probabilities, b: Option<&Probabilities>) -> Measured {
    let input = TestSetInput {
        truth,
        positive: Some(1),
        alpha: 0.05,
    };
    match (test(item).unwrap().run(), b) {
        (TestSetFn::Single(f), None) => f(&input, a).unwrap(),
        (TestSetFn::Pairwise(f), Some(b)) => f(&input, a, b).unwrap(),
        _ => panic!("{item}: wrong kind"),
    }
}

#[test]
fn bootstrap_estimates_are_the_peers_values() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{DATA}/expected.json")).unwrap())
            .unwrap();
    let reference = expected["models"].as_array().unwrap();
    let (truth, models) = models();
    for (item, key) in [
        ("{ name = \"bootstrap_auc\", resamples = 300 }", "auc"),
        (
            "{ name = \"bootstrap_average_precision\", resamples = 100, method = \"percentile\" }",
            "average_precision",
        ),
        ("{ name = \"bootstrap_ece\", resamples = 100 }", "ece"),
    ] {
        for (model, want) in models.iter().zip(reference) {
            let measured = run(item, &truth, model, None);
            let want = want[key].as_f64().unwrap();
            assert!(
                (measured.values.0 - want).abs() < 1e-9,
                "{item}: {measured:?} vs {want}"
            );
            let (low, high) = measured.interval.unwrap();
            assert!(
                low <= want && want <= high,
                "{item}: [{low}, {high}] misses {want}"
            );
            let again = run(item, &truth, model, None);
            assert_eq!(
                (measured.interval, measured.statistic),
                (again.interval, again.statistic)
            );
        }
    }
    let item = "{ name = \"paired_bootstrap_average_precision\", resamples = 200 }";
    let measured = run(item, &truth, &models[0], Some(&models[2]));
    let want = reference[0]["average_precision"].as_f64().unwrap()
        - reference[2]["average_precision"].as_f64().unwrap();
    assert!((measured.statistic - want).abs() < 1e-9);
    let (low, high) = measured.interval.unwrap();
    assert!(
        low > 0.0 && measured.reject,
        "good vs weak: [{low}, {high}]"
    );
    let other = run(
        "{ name = \"paired_bootstrap_average_precision\", resamples = 200, seed = 9 }",
        &truth,
        &models[0],
        Some(&models[2]),
    );
    assert_ne!(measured.interval, other.interval);
}

#[test]
fn bad_bootstrap_options_are_refused_naming_the_option() {
    for (item, option) in [
        ("{ name = \"bootstrap_auc\", resamples = 1 }", "resamples"),
        ("{ name = \"bootstrap_auc\", method = \"basic\" }", "method"),
        (
            "{ name = \"paired_bootstrap_partial_auc\", max_fpr = 0.0 }",
            "max_fpr",
        ),
    ] {
        let error = test(item).map(|_| ()).expect_err(item);
        assert!(error.contains(option), "{item}: {error}");
    }
}
