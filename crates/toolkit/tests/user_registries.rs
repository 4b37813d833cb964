//! A user's crate, written against the public API only, adds a measure and a test over folds
//! of its own (one call each), names them in a config with options, and runs it: the measure's
//! values are in the per-fold table, the test's verdicts in the tests table, the options are
//! checked and listed like a learner's parameters, and a bad option names the key and what it
//! allows. The values asserted are computed here, by this file's own arithmetic from the
//! run's predictions and per-fold values, independently of the engine.

use std::sync::Arc;

use toolkit::learners::Probabilities;
use toolkit::{FoldTestSpec, MeasureSpec, ParamError, ParameterSpec, Params, Training, Verdict};

/// The share of the positive rows whose positive-class probability reaches `threshold`.
fn true_positive_rate(
    probabilities: &Probabilities,
    truth: &[usize],
    positive: Option<usize>,
    threshold: f64,
) -> f64 {
    let Some(positive) = positive else {
        return f64::NAN;
    };
    let positives: Vec<usize> = (0..truth.len()).filter(|&r| truth[r] == positive).collect();
    let caught = positives
        .iter()
        .filter(|&&row| probabilities.row(row)[positive] >= threshold)
        .count();
    caught as f64 / positives.len() as f64
}

/// The measure `tpr`, with its option `threshold`.
fn tpr_spec() -> MeasureSpec {
    MeasureSpec {
        name: "tpr",
        description: "true positive rate at a threshold on the positive class's probability",
        lower_is_better: false,
        needs_binary_task: true,
        multi_class_note: None,
        options: vec![ParameterSpec::real(
            "threshold",
            0.5,
            0.0,
            1.0,
            "the probability from which a row is called positive",
        )],
        build: |params: &Params<'_>| {
            let threshold = params.real("threshold")?;
            Ok(Arc::new(move |probabilities, truth, positive| {
                true_positive_rate(probabilities, truth, positive, threshold)
            }))
        },
    }
}

/// The folds on which `a` beats `b` by more than `margin`.
fn wins(a: &[f64], b: &[f64], margin: f64) -> f64 {
    a.iter().zip(b).filter(|(x, y)| *x - *y > margin).count() as f64
}

/// The test over folds `wins`, with its option `margin`: a count, which never rejects.
fn wins_spec() -> FoldTestSpec {
    FoldTestSpec {
        name: "wins",
        description: "the folds on which the first learner beats the second by more than a margin",
        options: vec![ParameterSpec::real(
            "margin",
            0.0,
            0.0,
            1.0,
            "how much better a fold must be",
        )],
        build: |params: &Params<'_>| -> Result<_, ParamError> {
            let margin = params.real("margin")?;
            Ok(Arc::new(move |a: &[f64], b: &[f64], _: &_| {
                Ok(Verdict {
                    statistic: wins(a, b, margin),
                    pvalue: f64::NAN,
                    reject: false,
                })
            }))
        },
    }
}

const CONFIG: &str = r#"
name = "user_registries"
datasets = ["sonar"]
measures = ["auc", { name = "tpr", threshold = 0.3 }]
tests = ["paired_t", { name = "wins", margin = 0.01 }]
protocol = { kind = "stratified_kfold", folds = 4 }
learners = [{ kind = "naive_bayes" }, { kind = "c45" }]
"#;

fn user_engine() -> toolkit::Engine {
    let mut engine = toolkit::engine().with_threads(2);
    engine.registries.measures.register(tpr_spec()).unwrap();
    engine.registries.fold_tests.register(wins_spec()).unwrap();
    engine
}

#[test]
fn a_measure_and_a_test_of_ones_own_run_from_a_config() {
    let folder = std::env::temp_dir().join(format!("user-registries-{}", std::process::id()));
    let engine = user_engine();
    let output = engine
        .run(engine.check_text(CONFIG, "user.toml").unwrap(), &folder)
        .unwrap();
    let record = &output.record;
    let folds = &record.results.folds;
    assert_eq!(folds.measures[1].name(), "tpr");
    // Every unit's tpr is this file's true positive rate of its test predictions at 0.3.
    let mut tpr = [Vec::new(), Vec::new()];
    for &unit in &record.plan.units {
        let Training::Split(split) = unit.training else {
            panic!("a stratified k-fold plan has no whole-training unit");
        };
        let predictions = record.predictions(unit).unwrap();
        let (truth, probabilities) = predictions.part(toolkit::Part::Test);
        let positive = record.plan.datasets[unit.dataset].positive;
        let expected = true_positive_rate(&probabilities, &truth, positive, 0.3);
        let got = folds.values(unit.dataset, unit.learner, 1)[split].unwrap();
        assert_eq!(got.to_bits(), expected.to_bits(), "{unit:?}");
        tpr[unit.learner].push(got);
    }
    // The test's verdicts, one per measure, in the tests table.
    let records: Vec<_> = record.tests.iter().filter(|t| t.test == "wins").collect();
    assert_eq!(records.len(), 2);
    let on_tpr = records.iter().find(|t| t.measure == 1).unwrap();
    assert_eq!(on_tpr.statistic, wins(&tpr[0], &tpr[1], 0.01));
    let table = output.table("tests").unwrap().to_csv().unwrap();
    assert!(table.contains(",tpr,naive_bayes,c45,wins,4,"), "{table}");
    // Both are listed with their options.
    let registries = &engine.registries;
    assert!(registries
        .describe_measures()
        .contains("threshold (real, 0 to 1; default 0.5)"));
    assert!(registries.describe_tests().contains("margin"));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_bad_option_of_ones_own_measure_names_the_key_and_what_it_allows() {
    let engine = user_engine();
    let text = CONFIG.replace("threshold = 0.3", "threshold = 2");
    let message = engine
        .check_text(&text, "user.toml")
        .err()
        .unwrap()
        .sentence();
    assert!(
        message
            .contains("user.toml: key 'measures' entry 2: measure 'tpr': option 'threshold' = 2")
            && message.contains("allowed: 0 to 1"),
        "{message}"
    );
    let text = CONFIG.replace("margin = 0.01", "margn = 0.01");
    let message = engine
        .check_text(&text, "user.toml")
        .err()
        .unwrap()
        .sentence();
    assert!(
        message.contains("test 'wins': unknown option 'margn' (allowed: margin)"),
        "{message}"
    );
}

/// A measure of one's own is found by name wherever a built-in one is: its direction decides
/// which way a results table naming it is ranked (the false negative rate: lower is better).
#[test]
fn a_measure_of_ones_own_is_found_by_name_with_its_direction() {
    let mut engine = user_engine();
    let fnr = MeasureSpec {
        name: "fnr",
        description: "false negative rate at 0.5",
        lower_is_better: true,
        options: Vec::new(),
        build: |_: &Params<'_>| {
            Ok(Arc::new(|probabilities, truth, positive| {
                1.0 - true_positive_rate(probabilities, truth, positive, 0.5)
            }))
        },
        ..tpr_spec()
    };
    engine.registries.measures.register(fnr).unwrap();
    let measures = &engine.registries.measures;
    let found = toolkit::Measure::from_name(measures, "fnr").unwrap();
    assert!(found.lower_is_better());
    assert!(toolkit::Measure::from_name(&toolkit::measures::measure::builtin(), "fnr").is_none());
    let text =
        "dataset,learner,measure,value\na,x,fnr,0.1\na,y,fnr,0.2\nb,x,fnr,0.3\nb,y,fnr,0.4\n";
    let table = toolkit::data::TextTable::parse(std::path::Path::new("t.csv"), text).unwrap();
    let layout = toolkit::comparison::layout(&table).unwrap();
    let choice = toolkit::comparison::Choice {
        measure: None,
        part: None,
        lower_is_better: false,
        measures,
    };
    let results = toolkit::comparison::read_results(&table, layout, choice).unwrap();
    assert_eq!(results.measure.as_deref(), Some("fnr"));
    assert!(results.lower_is_better);
}
