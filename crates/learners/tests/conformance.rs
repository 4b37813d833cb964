//! The conformance suite ([`learners::conformance`]) on every built-in learner kind with its
//! default parameters (with its spec checked too), on the non-default configurations listed in
//! [`EXTRA_CONFIGS`], and on the documented external learner written in Python.
//!
//! Adding a learner to the registry adds it here.

use learners::{build_learner, conformance, Registry};

/// Non-default configurations also put through every check (one TOML table per entry).
const EXTRA_CONFIGS: &[&str] = &[
    "kind = \"naive_bayes\"\ndiscretize = true",
    "kind = \"kstar\"\nblend = 0\nmissing_mode = \"delete\"",
    "kind = \"kstar\"\nblend = 100\nmissing_mode = \"maxdiff\"",
    "kind = \"vfi\"\nweight_by_confidence = false",
    "kind = \"knn\"\nweka_smoothing = true",
    "kind = \"logistic\"\nsolver = \"weka_bfgs\"",
];

/// Runs `check` on every item in parallel threads and fails with every failure listed.
fn run_all<T: Sync>(
    items: &[T],
    label: impl Fn(&T) -> String + Sync,
    check: impl Fn(&T) -> Result<(), Vec<String>> + Sync,
) {
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .iter()
            .map(|item| scope.spawn(|| (label(item), check(item))))
            .collect();
        handles
            .into_iter()
            .filter_map(|handle| match handle.join().expect("the check returns") {
                (_, Ok(())) => None,
                (label, Err(problems)) => Some(format!("{label}:\n  {}", problems.join("\n  "))),
            })
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_built_in_kind_conforms_with_its_default_parameters() {
    let registry = Registry::builtin();
    run_all(
        registry.specs(),
        |spec| spec.kind.to_string(),
        conformance::check_spec,
    );
}

#[test]
fn extra_configurations_conform() {
    run_all(
        EXTRA_CONFIGS,
        |text| text.replace('\n', " "),
        |text| {
            let table: toml::Table = text.parse().expect("valid TOML in EXTRA_CONFIGS");
            let learner = build_learner(&table).map_err(|error| vec![error.to_string()])?;
            conformance::check(&*learner)
        },
    );
}

#[test]
fn the_documented_external_learner_conforms() {
    // The documented example of a learner written outside Rust (Python, standard library).
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/external_learner.py"
    );
    let text = format!("kind = \"external\"\ncommand = [\"python3\", {script:?}]");
    let learner = build_learner(&text.parse().expect("valid TOML")).expect("builds");
    if let Err(problems) = conformance::check(&*learner) {
        panic!("{text}:\n  {}", problems.join("\n  "));
    }
}

/// A learner that breaks the rules: it always predicts the first class with probability 1 and
/// every other class with 0.5, and cannot handle a test row with missing values.
struct Broken;

struct BrokenModel(usize);

impl learners::Learner for Broken {
    fn name(&self) -> &str {
        "broken"
    }
    fn describe(&self) -> String {
        "broken".into()
    }
    fn revision(&self) -> String {
        "broken r1".into()
    }
    fn fit(
        &self,
        train: &data::View,
        _seed: u64,
    ) -> Result<Box<dyn learners::Model>, learners::LearnerError> {
        Ok(Box::new(BrokenModel(train.num_classes())))
    }
}

impl learners::Model for BrokenModel {
    fn predict_proba(
        &self,
        test: &data::Features,
    ) -> Result<learners::Probabilities, learners::LearnerError> {
        assert!(
            (0..test.num_attributes()).all(|a| !test.value(0, a).is_nan()),
            "a missing value"
        );
        let mut probabilities = learners::Probabilities::zeros(test.len(), self.0);
        for row in 0..test.len() {
            probabilities.row_mut(row).fill(0.5);
            probabilities.row_mut(row)[0] = 1.0;
        }
        Ok(probabilities)
    }
}

#[test]
fn a_broken_learner_is_reported_case_by_case() {
    let problems = conformance::check(&Broken).unwrap_err();
    assert_eq!(problems.len(), 8, "{problems:#?}");
    assert!(
        problems[0].starts_with("nominal, numeric and mixed data: Nominal: row 0 sums to 1.5"),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|problem| problem == "rows predicted independently: panicked: a missing value"),
        "{problems:#?}"
    );
}
