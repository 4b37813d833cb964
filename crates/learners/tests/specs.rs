//! Learner specs, the registry and parameter checking.

use data::{Features, View};
use learners::spec::revision_text;
use learners::{
    build_learner, Capabilities, Learner, LearnerError, LearnerSpec, Model, ParamError,
    ParameterSpec, Params, Probabilities, Registry, RegistryError,
};

fn table(text: &str) -> toml::Table {
    text.parse().expect("valid TOML")
}

fn error(text: &str) -> String {
    match build_learner(&table(text)) {
        Ok(learner) => panic!("{text}: accepted as {}", learner.describe()),
        Err(error) => error.to_string(),
    }
}

#[test]
fn every_built_in_spec_is_consistent_and_builds_with_its_defaults() {
    let registry = Registry::builtin();
    assert_eq!(registry.specs().len(), 19);
    for spec in registry.specs() {
        spec.validate().unwrap();
        assert!(!spec.description.is_empty(), "{}", spec.kind);
        assert!(spec.revision >= 1, "{}", spec.kind);
        for parameter in &spec.parameters {
            assert!(
                !parameter.doc().is_empty(),
                "{}.{}",
                spec.kind,
                parameter.name()
            );
        }
        if ["external", "worker", "python", "weka"].contains(&spec.kind) {
            continue; // their command or estimator is required
        }
        let learner = registry
            .build(&table(&format!("kind = \"{}\"", spec.kind)))
            .unwrap_or_else(|error| panic!("{}: {error}", spec.kind));
        assert!(
            learner.revision().starts_with(&spec.revision_text()),
            "{}: revision {}",
            spec.kind,
            learner.revision()
        );
        assert!(
            spec.capabilities.covers(&learner.capabilities()),
            "{}",
            spec.kind
        );
    }
}

#[test]
fn unknown_keys_name_the_learner_the_key_and_the_allowed_keys() {
    let message = error("kind = \"c45\"\nconfidance = 0.1");
    assert_eq!(
        message,
        "learner 'c45': unknown parameter 'confidance' (allowed: confidence, min_leaf, laplace, pruned, subtree_raising)"
    );
    let message = error("kind = \"linfa_gaussian_nb\"\nk = 1");
    assert!(message.contains("(allowed: none)"), "{message}");
    // The display name a config gives its learner is not a parameter.
    build_learner(&table("kind = \"c45\"\nname = \"J48\"")).unwrap();
}

#[test]
fn values_out_of_range_or_of_the_wrong_type_say_what_is_allowed() {
    let message = error("kind = \"c45\"\nconfidence = 0.9");
    assert_eq!(
        message,
        "learner 'c45': parameter 'confidence' = 0.9 is out of range; allowed: 1e-6 to 0.5"
    );
    let message = error("kind = \"c45\"\nmin_leaf = 0");
    assert!(message.contains("allowed: 1 to 1000000"), "{message}");
    let message = error("kind = \"c45\"\nlaplace = \"yes\"");
    assert!(
        message.contains("'laplace' must be true or false, got \"yes\" (string)"),
        "{message}"
    );
    let message = error("kind = \"knn\"\nweighting = \"gaussian\"");
    assert!(
        message.contains("\"gaussian\" is out of range; allowed: uniform, inverse_distance"),
        "{message}"
    );
    let message = error("kind = \"knn\"\ncandidates = []");
    assert!(message.contains("non-empty list"), "{message}");
    let message = error("kind = \"knn\"\ncandidates = [1, 0]");
    assert!(message.contains("= 0 is out of range"), "{message}");
    let message = error("kind = \"cost_sensitive\"\ncosts = [[0, -1], [1, 0]]");
    assert!(message.contains("allowed: at least 0"), "{message}");
    let message = error("kind = \"external\"");
    assert!(
        message.contains("learner 'external': parameter 'command' is required"),
        "{message}"
    );
    let message = error("kind = \"cost_sensitive\"\nbase = \"c45\"");
    assert!(message.contains("must be a learner table"), "{message}");
}

#[test]
fn nested_learners_are_checked_too() {
    let message = error("kind = \"bagging\"\nbase = { kind = \"c45\", pruning = false }");
    assert!(
        message.starts_with("learner 'c45': unknown parameter 'pruning'"),
        "{message}"
    );
    let message = error("kind = \"bagging\"\nbase = { kind = \"c46\" }");
    assert!(message.contains("unknown learner kind 'c46'"), "{message}");
}

#[test]
fn unknown_kinds_list_the_registered_ones() {
    let message = error("kind = \"svm\"");
    assert!(
        message.starts_with("unknown learner kind 'svm' (known kinds: c45, bagging, ripper,"),
        "{message}"
    );
    let message = error("confidence = 0.1");
    assert!(message.contains("'(missing)'"), "{message}");
}

/// A learner of a user's crate: predicts the training class shares.
struct Shares {
    smoothing: f64,
}

struct SharesModel(Vec<f64>);

impl Learner for Shares {
    fn name(&self) -> &str {
        "shares"
    }
    fn describe(&self) -> String {
        format!("shares(smoothing={})", self.smoothing)
    }
    fn revision(&self) -> String {
        revision_text("shares", 3)
    }
    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        let counts = train.class_counts();
        let total: f64 = counts.iter().sum::<f64>() + self.smoothing * counts.len() as f64;
        Ok(Box::new(SharesModel(
            counts
                .iter()
                .map(|count| (count + self.smoothing) / total)
                .collect(),
        )))
    }
}

impl Model for SharesModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let values = (0..test.len()).flat_map(|_| self.0.clone()).collect();
        Ok(Probabilities::from_flat(self.0.len(), values))
    }
}

fn shares_spec() -> LearnerSpec {
    LearnerSpec {
        kind: "shares",
        description: "the training class shares, whatever the attributes",
        revision: 3,
        parameters: vec![ParameterSpec::real(
            "smoothing",
            1.0,
            0.0,
            100.0,
            "added to every class count",
        )],
        capabilities: Capabilities::ALL,
        build: |params: Params| {
            Ok(Box::new(Shares {
                smoothing: params.real("smoothing")?,
            }))
        },
    }
}

#[test]
fn a_registered_learner_is_built_checked_listed_and_wrapped() {
    let mut registry = Registry::builtin();
    registry.register(shares_spec()).unwrap();
    assert_eq!(
        registry.register(shares_spec()),
        Err(RegistryError::Duplicate {
            kind: "shares".into()
        })
    );
    let learner = registry
        .build(&table("kind = \"shares\"\nsmoothing = 0.5"))
        .unwrap();
    assert_eq!(learner.describe(), "shares(smoothing=0.5)");
    let error = registry
        .build(&table("kind = \"shares\"\nsmoothing = 500"))
        .err()
        .unwrap();
    assert!(matches!(error, ParamError::Range { .. }), "{error}");
    let bagged = registry
        .build(&table(
            "kind = \"bagging\"\niterations = 2\nbase = { kind = \"shares\" }",
        ))
        .unwrap();
    assert_eq!(bagged.revision(), "bagging r2 (shares r3)");
    assert!(registry.describe_all().contains("shares (revision 3)"));
    // The built-in registry itself is unchanged.
    assert!(build_learner(&table("kind = \"shares\"")).is_err());
}

#[test]
fn inconsistent_specs_are_refused() {
    let mut registry = Registry::empty();
    let mut spec = shares_spec();
    spec.parameters
        .push(ParameterSpec::integer("bins", 0, 1, 10, "bins"));
    let error = registry.register(spec).unwrap_err().to_string();
    assert!(error.contains("'bins': default 0 does not fit"), "{error}");
    let mut spec = shares_spec();
    spec.parameters.push(spec.parameters[0]);
    let error = registry.register(spec).unwrap_err().to_string();
    assert!(error.contains("declared twice"), "{error}");
    let mut spec = shares_spec();
    spec.parameters
        .push(ParameterSpec::choice("kind", "a", &["a"], "clashes"));
    assert!(registry.register(spec).is_err());
}

#[test]
fn reading_an_undeclared_parameter_is_reported_as_a_bug_of_the_learner() {
    let mut registry = Registry::empty();
    let mut spec = shares_spec();
    spec.build = |params: Params| {
        params.integer("smoothing")?;
        unreachable!()
    };
    registry.register(spec).unwrap();
    let message = registry
        .build(&table("kind = \"shares\""))
        .err()
        .unwrap()
        .to_string();
    assert!(
        message.contains("reads parameter 'smoothing' as integer, but the spec declares real"),
        "{message}"
    );
}

#[test]
fn the_listing_shows_every_kind_with_its_parameters_and_capabilities() {
    let text = Registry::builtin().describe_all();
    for spec in Registry::builtin().specs() {
        assert!(
            text.contains(&format!("{} (revision {})", spec.kind, spec.revision)),
            "{}",
            spec.kind
        );
    }
    assert!(
        text.contains("    confidence (real, 1e-6 to 0.5; default 0.25): pruning confidence"),
        "{text}"
    );
    assert!(
        text.contains("    candidates (list of whole numbers, each 1 to 100000; default [1, 3, 5, 7, 11, 21])"),
        "{text}"
    );
    assert!(text.contains("    base (learner table; default { kind = \"c45\" })"));
    assert!(text.contains(
        "  handles: nominal attributes, missing values, multi-class, no instance weights\n"
    ));
}

#[test]
fn capabilities_explain_what_a_learner_lacks() {
    let schema = data::Schema {
        attributes: vec![
            data::Attribute::numeric("x"),
            data::Attribute::nominal("colour", vec!["red".into(), "blue".into()]),
        ],
        class_name: "class".into(),
        class_values: vec!["a".into(), "b".into(), "c".into()],
    };
    assert_eq!(Capabilities::ALL.accepts(&schema, true), Ok(()));
    let numeric_only = Capabilities {
        nominal_attributes: false,
        missing_values: false,
        multi_class: false,
        instance_weights: false,
    };
    assert_eq!(
        numeric_only.accepts(&schema, true).unwrap_err(),
        "cannot handle nominal attributes (the data has colour); missing values (the data has some); more than two classes (the data has 3)"
    );
}

#[test]
fn an_adapter_kind_missing_from_a_registry_says_which_feature_builds_it() {
    let table = table("kind = \"smartcore_knn\"");
    let message = match Registry::empty().build(&table) {
        Ok(_) => panic!("an empty registry built smartcore_knn"),
        Err(error) => error.to_string(),
    };
    assert!(
        message.starts_with("unknown learner kind 'smartcore_knn'"),
        "{message}"
    );
    assert!(
        message.contains("cargo run -p experiments --features adapters"),
        "{message}"
    );
    // Other unknown kinds get no such sentence.
    let message = error("kind = \"c46\"");
    assert!(!message.contains("adapters"), "{message}");
}
