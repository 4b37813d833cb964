//! DeLong's k-model test on the fixed test set (`delong_k`), configured as a config names it:
//! on the three models of experiments/tests/data/roc_eval its chi-square of equal AUCs is
//! expected.json's (numpy, and R from pROC's `var`/`cov` matrix, both written by generate.py); on the
//! stats crate's delong_k_reference cases (numpy O(n^2) placements, pairs against pROC) the
//! custom contrast, five tied models and the rank-deficient case give the reference's
//! chi-square, df and p-value. The scores enter as probabilities through a logistic map, which
//! keeps their order and ties (DeLong's statistics depend on the ranks only).

use engine::measures::test_set::{builtin, Measured, TestSetFn, TestSetInput, TestSetTest};
use learners::Probabilities;
use serde_json::Value;

const ROC_EVAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../experiments/tests/data/roc_eval"
);
const DELONG_K: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../stats/tests/data/delong_k_reference.json"
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

/// Two-class probabilities whose positive column is `scores`.
fn probabilities(scores: &[f64]) -> Probabilities {
    Probabilities::from_flat(2, scores.iter().flat_map(|&p| [1.0 - p, p]).collect())
}

fn run(item: &str, truth: &[usize], models: &[Probabilities]) -> Measured {
    let input = TestSetInput {
        truth,
        positive: Some(1),
        alpha: 0.05,
    };
    let test = test(item).unwrap();
    let TestSetFn::All { run, .. } = test.run() else {
        panic!("{item}: not a test over all learners");
    };
    let models: Vec<&Probabilities> = models.iter().collect();
    run(&input, &models).unwrap()
}

fn number(value: &Value) -> f64 {
    value.as_f64().unwrap()
}

fn near(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{what}: got {got}, expected {want}"
    );
}

#[test]
fn equality_of_three_models_aucs_is_the_peers_chi_square() {
    let text = std::fs::read_to_string(format!("{ROC_EVAL}/models.csv")).unwrap();
    let (mut truth, mut scores) = (Vec::new(), vec![Vec::new(); 3]);
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        truth.push(fields[0].parse().unwrap());
        for (model, field) in fields[1..].iter().enumerate() {
            scores[model].push(field.parse::<f64>().unwrap());
        }
    }
    let models: Vec<Probabilities> = scores.iter().map(|s| probabilities(s)).collect();
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{ROC_EVAL}/expected.json")).unwrap(),
    )
    .unwrap();
    let delong = &expected["delong"];
    let measured = run("\"delong_k\"", &truth, &models);
    near(
        "chi-square",
        measured.statistic,
        number(&delong["chi_square"]),
    );
    let proc = number(&delong["proc_chi_square"]);
    near(
        "chi-square from pROC's var and cov",
        measured.statistic,
        proc,
    );
    near("p-value", measured.pvalue, number(&delong["pvalue"]));
    assert_eq!(measured.df, Some(delong["df"].as_u64().unwrap() as usize));
    assert!(measured.reject);
    assert_eq!(measured.n, truth.len());
}

#[test]
fn contrasts_ties_and_rank_deficiency_match_the_reference() {
    let root: Value = serde_json::from_str(&std::fs::read_to_string(DELONG_K).unwrap()).unwrap();
    let logistic = |x: &Value| 1.0 / (1.0 + (-number(x)).exp());
    for name in [
        "three_models_custom_contrast",
        "five_models_ties",
        "duplicate_model_rank_deficient",
    ] {
        let case = root["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|case| case["name"] == name)
            .unwrap();
        let input = &case["input"];
        let truth: Vec<usize> = input["labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let models: Vec<Probabilities> = input["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let p: Vec<f64> = s.as_array().unwrap().iter().map(logistic).collect();
                probabilities(&p)
            })
            .collect();
        let item = format!(
            "{{ name = \"delong_k\", contrast = {} }}",
            input["contrast"]
        );
        let measured = run(&item, &truth, &models);
        let expected = &case["expected"];
        near(name, measured.statistic, number(&expected["chi_square"]));
        near(name, measured.pvalue, number(&expected["pvalue"]));
        assert_eq!(
            measured.df,
            Some(expected["df"].as_u64().unwrap() as usize),
            "{name}"
        );
    }
}

#[test]
fn a_ragged_contrast_is_refused_naming_the_option() {
    let error = test("{ name = \"delong_k\", contrast = [[1.0, -1.0], [1.0]] }").unwrap_err();
    assert!(error.contains("contrast"), "{error}");
    let error = test("{ name = \"delong_k\", contrast = [[]] }").unwrap_err();
    assert!(error.contains("contrast"), "{error}");
    let error = test("{ name = \"delong_k\", contrast = [[1e300, 0.0]] }").unwrap_err();
    assert!(error.contains("contrast"), "{error}");
}

#[test]
fn one_class_or_a_multi_class_task_says_why() {
    let models = [
        probabilities(&[0.2, 0.4, 0.7]),
        probabilities(&[0.1, 0.5, 0.9]),
    ];
    let input = TestSetInput {
        truth: &[1, 1, 1],
        positive: Some(1),
        alpha: 0.05,
    };
    let test = test("\"delong_k\"").unwrap();
    let TestSetFn::All { run, .. } = test.run() else {
        panic!("not a test over all learners");
    };
    let refs: Vec<&Probabilities> = models.iter().collect();
    assert!(run(&input, &refs).is_err());
    let input = TestSetInput {
        positive: None,
        ..input
    };
    assert_eq!(run(&input, &refs).unwrap_err(), "needs a two-class task");
}
