//! Golden digests: a regression lock on every built-in learner's outputs.
//!
//! For each learner kind (its default parameters and the non-default configurations listed in
//! [`CONFIGURATIONS`], among them those the shipped experiment configs use), the test fits on
//! fixed splits of three shipped datasets and hashes the bits of the predicted probabilities
//! (sha256) into one hex digest per kind and dataset. The expected digests are in
//! `tests/data/golden_digests.toml`, one section per kind with the revision they were recorded
//! at (the `revision` of its spec; for a wrapper also the revision texts of the configurations,
//! which name the learners wrapped). A digest that differs means the learner's outputs changed:
//! then its revision must be bumped (so that cached results keyed on it are not reused) and the
//! file re-recorded with `GOLDEN_UPDATE=1 cargo test -p learners --test golden`. A recorded
//! revision that differs from the current one also fails, so that a bump forces re-recording.
//!
//! The splits use no random generator: row `i` is a test row when `i % 3 == 0`, a training
//! row otherwise. Configurations marked `validation` train on the rows with `i % 3 == 1` and get
//! those with `i % 3 == 2` as the protocol's validation set. Every configuration is also fitted
//! on the training rows with whole-number instance weights `i % 4` (some 0) and with fractional
//! ones `0.5 + 0.25 * (i % 5)`; a fit that fails (e.g. an adapter that takes only whole-number
//! weights) contributes the words "fit failed" to the digest instead of probabilities.
//!
//! The digests are not correctness claims (those are the Weka comparisons in the other tests):
//! they only say that the outputs have not changed since they were recorded.
//! Kinds that need an outside program (`external`, `worker`, `python`) are not covered.

use std::collections::BTreeMap;
use std::path::PathBuf;

use data::{Catalog, Dataset, Features, View};
use learners::{build_learner, Probabilities, Registry};
use sha2::{Digest, Sha256};

/// The shipped datasets: numeric two-class; nominal two-class with missing values; mixed
/// numeric and nominal, seven classes, with missing values.
const DATASETS: &[&str] = &["pima", "breast-cancer", "bridges"];

/// The seed every fit gets.
const SEED: u64 = 20_260_401;

/// Every configuration put through the digests, as (kind, TOML table without `kind`, whether the
/// protocol supplies a validation set). Each kind's first entry is its default parameters.
const CONFIGURATIONS: &[(&str, &str, bool)] = &[
    ("c45", "", false),
    // Provost et al.'s MC4.
    ("c45", "laplace = true", false),
    ("c45", "pruned = false", false),
    ("c45", "subtree_raising = false", false),
    ("c45", "confidence = 0.1\nmin_leaf = 5", false),
    ("bagging", "", false),
    // provost.toml's Bagged-MC4.
    (
        "bagging",
        "iterations = 10\nbase = { kind = \"c45\", laplace = true }",
        false,
    ),
    ("ripper", "", false),
    ("ripper", "prune = false", false),
    ("naive_bayes", "", false),
    ("naive_bayes", "discretize = true", false),
    ("cost_sensitive", "", false),
    ("cost_sensitive", "method = \"resample\"", false),
    ("cost_sensitive", "method = \"threshold\"", false),
    (
        "cost_sensitive",
        "method = \"threshold\"\ncosts = [[0, 1], [5, 0]]\nbase = { kind = \"c45\" }",
        false,
    ),
    ("logistic", "", false),
    ("linfa_logistic", "", false),
    ("linfa_gaussian_nb", "", false),
    ("linfa_tree", "", false),
    ("smartcore_knn", "", false),
    ("smartcore_forest", "", false),
    ("knn", "", false),
    // aslan.toml's k-NN: k chosen on the protocol's validation set.
    ("knn", "candidates = [1, 3, 5, 7, 11, 21]", true),
    // provost.toml's IB3 and IB5.
    (
        "knn",
        "k = 3\nselect_k = false\nweighting = \"inverse_distance\"",
        false,
    ),
    (
        "knn",
        "k = 5\nselect_k = false\nweighting = \"inverse_distance\"",
        false,
    ),
    ("knn", "weka_smoothing = true", false),
    ("perceptron", "", false),
    ("kstar", "", false),
    ("kstar", "blend = 0\nmissing_mode = \"delete\"", false),
    ("kstar", "blend = 100\nmissing_mode = \"maxdiff\"", false),
    ("vfi", "", false),
    ("vfi", "weight_by_confidence = false", false),
];

/// The kinds whose outputs come from an outside program, which these digests do not cover.
const OUTSIDE_PROGRAMS: &[&str] = &["external", "worker", "python", "weka"];

/// The revision in a kind's spec.
fn revision(kind: &str) -> u32 {
    Registry::builtin()
        .spec(kind)
        .unwrap_or_else(|| panic!("no built-in learner kind {kind}"))
        .revision
}

/// For a wrapper, the revision texts of its configurations (which name the learners they
/// wrap, whose own revisions they then depend on); empty otherwise.
fn wrapped_revisions(kind: &str) -> Vec<String> {
    let registry = Registry::builtin();
    if !registry
        .spec(kind)
        .is_some_and(|spec| spec.wraps_a_learner())
    {
        return Vec::new();
    }
    let mut texts: Vec<String> = CONFIGURATIONS
        .iter()
        .filter(|c| c.0 == kind)
        .map(|&(_, parameters, _)| {
            let table: toml::Table = format!("kind = \"{kind}\"\n{parameters}")
                .parse()
                .expect("valid TOML");
            registry.build(&table).expect("builds").revision()
        })
        .collect();
    texts.sort();
    texts.dedup();
    texts
}

fn digests_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden_digests.toml")
}

/// The training, validation and test row indices of the fixed split.
fn split(rows: usize, validation: bool) -> (Vec<usize>, Option<Vec<usize>>, Vec<usize>) {
    let test = (0..rows).filter(|i| i % 3 == 0).collect();
    if validation {
        let train = (0..rows).filter(|i| i % 3 == 1).collect();
        let held_out = (0..rows).filter(|i| i % 3 == 2).collect();
        (train, Some(held_out), test)
    } else {
        ((0..rows).filter(|i| i % 3 != 0).collect(), None, test)
    }
}

/// Adds one fit's outcome to the hash: the probability bits, or "fit failed".
fn hash_outcome(hasher: &mut Sha256, outcome: Option<Probabilities>) {
    match outcome {
        Some(probabilities) => {
            hasher.update((probabilities.len() as u64).to_le_bytes());
            hasher.update((probabilities.num_classes() as u64).to_le_bytes());
            for value in probabilities.as_flat() {
                hasher.update(value.to_bits().to_le_bytes());
            }
        }
        None => hasher.update(b"fit failed"),
    }
}

/// Fits `config` on the fixed split of `dataset` (unweighted and weighted) and hashes the
/// predictions into `hasher`.
fn hash_configuration(hasher: &mut Sha256, dataset: &Dataset, config: &str, validation: bool) {
    let table: toml::Table = config.parse().expect("valid TOML");
    let learner = build_learner(&table).unwrap_or_else(|error| panic!("{config}: {error}"));
    let (train_rows, validation_rows, test_rows) = split(dataset.len(), validation);
    let test = Features::of(dataset, test_rows);
    let held_out = validation_rows.map(|rows| dataset.subset(rows));
    let whole: Vec<f64> = train_rows.iter().map(|&row| (row % 4) as f64).collect();
    let fractional: Vec<f64> = train_rows
        .iter()
        .map(|&row| 0.5 + 0.25 * (row % 5) as f64)
        .collect();
    let unweighted = dataset.subset(train_rows);
    let whole = unweighted.clone().with_weights(whole);
    let fractional = unweighted.clone().with_weights(fractional);
    hasher.update(config.as_bytes());
    hasher.update(b"\n");
    for train in [&unweighted, &whole, &fractional] {
        let outcome = fit_predict(&*learner, train, held_out.as_ref(), &test);
        hash_outcome(hasher, outcome);
    }
}

fn fit_predict(
    learner: &dyn learners::Learner,
    train: &View,
    validation: Option<&View>,
    test: &Features,
) -> Option<Probabilities> {
    let model = learner.fit_with_validation(train, validation, SEED).ok()?;
    Some(model.predict_proba(test).expect("built-in models predict"))
}

/// The digest of every configuration of `kind` on `dataset`.
fn digest(kind: &str, dataset: &Dataset) -> String {
    let mut hasher = Sha256::new();
    for &(_, parameters, validation) in CONFIGURATIONS.iter().filter(|c| c.0 == kind) {
        let config = format!("kind = \"{kind}\"\n{parameters}");
        hash_configuration(&mut hasher, dataset, &config, validation);
    }
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The kinds covered, in the order of [`CONFIGURATIONS`].
fn kinds() -> Vec<&'static str> {
    let mut kinds: Vec<&str> = Vec::new();
    for &(kind, _, _) in CONFIGURATIONS {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

/// A kind's recorded section: revision, the revisions of what a wrapper wraps, and one digest
/// per dataset.
#[derive(Debug, PartialEq)]
struct Record {
    revision: u32,
    wrapped: Vec<String>,
    digests: BTreeMap<String, String>,
}

fn read_records() -> BTreeMap<String, Record> {
    let path = digests_path();
    let Ok(text) = std::fs::read_to_string(&path) else {
        return BTreeMap::new();
    };
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    table
        .into_iter()
        .map(|(kind, section)| {
            let toml::Value::Table(section) = section else {
                panic!("{}: [{kind}] is not a table", path.display());
            };
            let revision = section
                .get("revision")
                .and_then(toml::Value::as_integer)
                .unwrap_or_else(|| panic!("{}: [{kind}] has no revision", path.display()));
            let wrapped = match section.get("wrapped") {
                None => Vec::new(),
                Some(toml::Value::Array(items)) => items
                    .iter()
                    .map(|item| item.as_str().expect("a revision text").to_string())
                    .collect(),
                Some(_) => panic!("{}: [{kind}] wrapped is not a list", path.display()),
            };
            let digests = section
                .iter()
                .filter(|(key, _)| key.as_str() != "revision" && key.as_str() != "wrapped")
                .map(|(key, value)| {
                    let digest = value.as_str().unwrap_or_else(|| {
                        panic!("{}: [{kind}] {key} is not a string", path.display())
                    });
                    (key.clone(), digest.to_string())
                })
                .collect();
            (
                kind,
                Record {
                    revision: revision as u32,
                    wrapped,
                    digests,
                },
            )
        })
        .collect()
}

fn write_records(records: &[(&str, Record)]) {
    let mut text = String::from(
        "# Golden digests of the built-in learners' probabilities (tests/golden.rs).\n\
         # Rewrite with: GOLDEN_UPDATE=1 cargo test -p learners --test golden\n",
    );
    for (kind, record) in records {
        text.push_str(&format!("\n[{kind}]\nrevision = {}\n", record.revision));
        if !record.wrapped.is_empty() {
            text.push_str(&format!("wrapped = {:?}\n", record.wrapped));
        }
        for (dataset, digest) in &record.digests {
            text.push_str(&format!("\"{dataset}\" = \"{digest}\"\n"));
        }
    }
    std::fs::write(digests_path(), text).expect("write the golden digests");
}

#[test]
fn outputs_match_the_golden_digests() {
    let catalog = Catalog::locate().expect("the shipped datasets");
    let datasets: Vec<Dataset> = DATASETS
        .iter()
        .map(|name| catalog.load(name).expect("a shipped dataset"))
        .collect();
    let computed: Vec<(&str, Record)> = kinds()
        .into_iter()
        .map(|kind| {
            let digests = DATASETS
                .iter()
                .zip(&datasets)
                .map(|(name, dataset)| (name.to_string(), digest(kind, dataset)))
                .collect();
            let record = Record {
                revision: revision(kind),
                wrapped: wrapped_revisions(kind),
                digests,
            };
            (kind, record)
        })
        .collect();
    if std::env::var_os("GOLDEN_UPDATE").is_some_and(|value| value == "1") {
        write_records(&computed);
        return;
    }
    let recorded = read_records();
    let mut problems = Vec::new();
    for (kind, record) in &computed {
        let Some(old) = recorded.get(*kind) else {
            problems.push(format!(
                "learner {kind} has no golden digests: record them (set GOLDEN_UPDATE=1 to rewrite tests/data/golden_digests.toml)"
            ));
            continue;
        };
        if old.revision != record.revision {
            problems.push(format!(
                "learner {kind}'s digests were recorded at revision {} but its spec says {}: re-record tests/data/golden_digests.toml (set GOLDEN_UPDATE=1 to rewrite)",
                old.revision, record.revision
            ));
            continue;
        }
        if old.wrapped != record.wrapped {
            problems.push(format!(
                "learner {kind}'s digests were recorded wrapping {:?} but it now wraps {:?} (a base learner's revision changed): re-record tests/data/golden_digests.toml (set GOLDEN_UPDATE=1 to rewrite)",
                old.wrapped, record.wrapped
            ));
            continue;
        }
        for (dataset, digest) in &record.digests {
            if old.digests.get(dataset) != Some(digest) {
                let whose = if record.wrapped.is_empty() {
                    ""
                } else {
                    " (or that of the learner it wraps, if that changed)"
                };
                problems.push(format!(
                    "learner {kind}'s outputs changed (on {dataset}): bump its revision (now {}){whose} in its spec and update tests/data/golden_digests.toml (set GOLDEN_UPDATE=1 to rewrite)",
                    record.revision
                ));
            }
        }
    }
    for kind in recorded.keys() {
        if !computed.iter().any(|(computed, _)| computed == kind) {
            problems.push(format!(
                "tests/data/golden_digests.toml has digests for {kind}, which the test no longer covers (set GOLDEN_UPDATE=1 to rewrite)"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_built_in_kind_is_covered() {
    let covered = kinds();
    for spec in Registry::builtin().specs() {
        assert!(
            OUTSIDE_PROGRAMS.contains(&spec.kind) || covered.contains(&spec.kind),
            "learner {} has no configuration in tests/golden.rs",
            spec.kind
        );
    }
}
