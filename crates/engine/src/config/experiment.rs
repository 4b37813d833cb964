//! The experiment config: one TOML file naming datasets, transforms, learners, a protocol,
//! measures, tests and analyses, and the options the analyses declare. Every key is checked;
//! unknown keys are errors naming the key and its line. Measures, tests and the protocol are
//! kept as written here and checked against their registries with the plan
//! ([`crate::plan::units::check_names`]).

use serde::{Deserialize, Serialize};

use crate::error::bail;
use crate::error::{Error, Result};

/// The keys of the engine's own config (the fields of [`ExperimentConfig`] but `options`);
/// every other top-level key must be an option an analysis declares.
pub const KEYS: [&str; 15] = [
    "name",
    "seed",
    "datasets",
    "transforms",
    "learners",
    "protocol",
    "measures",
    "tests",
    "alpha",
    "wilcoxon_correction",
    "analyses",
    "worker_timeout_seconds",
    "tuning",
    "report",
    "stopping",
];

/// One experiment as written in its TOML file.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ExperimentConfig {
    /// Names the results folder `results/<name>/`.
    pub name: String,
    /// The experiment seed from which every random choice is derived.
    #[serde(default = "default_seed", deserialize_with = "seed")]
    pub seed: u64,
    /// Shipped dataset names, collections (e.g. "aslan") or file paths, each a string or a table
    /// `{ name = ..., <transform overrides> }`.
    #[serde(default)]
    pub datasets: Vec<DatasetEntry>,
    /// Transforms applied to every dataset unless an entry overrides them.
    #[serde(default)]
    pub transforms: Transforms,
    /// Learners: tables with `kind`, an optional display `name`, and the kind's parameters.
    #[serde(default)]
    pub learners: Vec<toml::Table>,
    /// The resampling protocol: a table with `kind` and its parameters.
    #[serde(default)]
    pub protocol: Option<toml::Table>,
    /// Measures computed per fold: names, or tables `{ name = ..., <options> }` (see
    /// `experiments analyses`).
    #[serde(default = "default_measures")]
    pub measures: Vec<toml::Value>,
    /// Tests between every two learners on every dataset: over the folds, or on the fixed test
    /// set; names, or tables `{ name = ..., <options> }` (see `experiments analyses`).
    #[serde(default = "default_tests")]
    pub tests: Vec<toml::Value>,
    /// Significance level of the tests.
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// Whether the Wilcoxon test's normal approximation uses the continuity correction
    /// (default false, as scipy's `wilcoxon`).
    #[serde(default)]
    pub wilcoxon_correction: bool,
    /// Analyses to add to the report, by name (see `experiments analyses`); without the key,
    /// the analyses that are on by default for the plan run (see [`crate::Analysis::on_by_default`]).
    #[serde(default)]
    pub analyses: Option<Vec<String>>,
    /// The time limit in seconds of one unit of every worker learner (`python`, `worker`) that
    /// sets no `timeout_seconds` of its own; none: their default (600).
    #[serde(default, deserialize_with = "worker_timeout")]
    pub worker_timeout_seconds: Option<f64>,
    /// Fair tuning: one budget, search method, measure and inner protocol for every learner
    /// with a `tune` key (see [`crate::plan::tuning`]).
    #[serde(default)]
    pub tuning: Option<toml::Table>,
    /// `[report]`: the measure and the anchor learners of the summary screen atop the report.
    #[serde(default)]
    pub report: Option<ReportOptions>,
    /// Sequential stopping: decide every pair of learners after each repetition and stop
    /// repeating a dataset once all its pairs are decided (see [`crate::config::stopping`]).
    #[serde(default)]
    pub stopping: Option<crate::config::stopping::StoppingConfig>,
    /// The options of the analyses, as given at the top level of the config (each a key some
    /// known analysis declares; see [`crate::Analysis::options`]).
    #[serde(skip)]
    pub options: toml::Table,
}

impl ExperimentConfig {
    /// The analyses the config names (none without the key).
    pub fn named_analyses(&self) -> &[String] {
        self.analyses.as_deref().unwrap_or_default()
    }

    /// The options of the paired tests this config asks for.
    pub fn test_options(&self, sizes: Option<(f64, f64)>) -> crate::measures::paired::TestOptions {
        crate::measures::paired::TestOptions {
            alpha: self.alpha,
            sizes,
            wilcoxon_correction: self.wilcoxon_correction,
        }
    }
}

/// `[report]`: what the summary screen at the top of `index.html` shows (checked against the
/// plan's measures and learners by [`crate::plan::summary_check`]).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReportOptions {
    /// The measure of the leaderboard, the heat map and the verdict (default: the first).
    pub measure: Option<String>,
    /// Two learners' display names: AMLB's normalised score puts the first at 0 and the second
    /// at 1 on every dataset (e.g. a constant predictor and a tuned forest).
    pub anchors: Option<Vec<String>>,
}

/// A dataset reference, with optional per-dataset transform overrides.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
// A config holds a few entries, read once: the size of a table entry costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum DatasetEntry {
    /// A shipped name, a collection, or a path.
    Name(String),
    /// A name with transform overrides, or OpenML tasks.
    Detailed(DetailedDataset),
}

impl<'de> Deserialize<'de> for DatasetEntry {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        // Decide by shape first, so that a typo inside a table is reported as such rather than
        // as "matches no variant".
        match toml::Value::deserialize(deserializer)? {
            toml::Value::String(name) => Ok(DatasetEntry::Name(name)),
            toml::Value::Table(table) => DetailedDataset::deserialize(toml::Value::Table(table))
                .map(DatasetEntry::Detailed)
                .map_err(|error| {
                    D::Error::custom(format!("in a datasets entry: {}", error.message()))
                }),
            other => Err(D::Error::custom(format!(
                "a datasets entry must be a name or a table {{ name = ..., <transforms> }}, got {}",
                other.type_str()
            ))),
        }
    }
}

/// A dataset with its own transforms, and how to read a file of one's own.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DetailedDataset {
    /// A shipped name, a collection, or a path (empty in an entry naming OpenML tasks).
    #[serde(default)]
    pub name: String,
    /// An OpenML task's folder in openml-python's cache layout (`<cache>/org/openml/www/
    /// tasks/<id>`): its dataset, read with the task's target, and with `protocol = { kind =
    /// "openml" }` its splits (see docs/openml.md).
    pub openml_task: Option<String>,
    /// The ARFF of `openml_task`'s dataset, when it is not in the cache layout beside the task.
    pub openml_dataset: Option<String>,
    /// openml-python's cache folder (`~/.openml/cache`) holding the tasks of `tasks` or
    /// `openml_suite`.
    pub openml_cache: Option<String>,
    /// Ids of tasks in `openml_cache`.
    pub tasks: Option<Vec<i64>>,
    /// A suite file: ids of tasks in `openml_cache`, separated by spaces, commas or lines.
    pub openml_suite: Option<String>,
    /// The name shown in tables and file names instead of the shipped name or file stem (to
    /// list one file twice with different settings).
    pub label: Option<String>,
    /// See [`Transforms::two_most_confused`].
    pub two_most_confused: Option<bool>,
    /// See [`Transforms::positive_class`].
    pub positive_class: Option<String>,
    /// See [`Transforms::one_vs_rest`].
    pub one_vs_rest: Option<bool>,
    /// See [`Transforms::subsample`].
    pub subsample: Option<usize>,
    /// A CSV file's columns to read as nominal (the others are typed by their values).
    #[serde(default)]
    pub nominal_columns: Vec<String>,
    /// A CSV file's columns that must hold numbers (or missing markers).
    #[serde(default)]
    pub numeric_columns: Vec<String>,
    /// A CSV file's missing-value markers besides the empty field and `?` (e.g. `"NA"`).
    #[serde(default)]
    pub missing_markers: Vec<String>,
    /// Accept a class column of numbers with many distinct values (refused by default as a
    /// likely regression target).
    #[serde(default)]
    pub allow_numeric_class: bool,
    /// A CSV file's class column, by name (default: the last column).
    pub class_column: Option<String>,
}

impl DetailedDataset {
    /// Whether the entry names OpenML tasks (any `openml_*` key or `tasks`).
    pub fn names_openml_tasks(&self) -> bool {
        self.openml_task.is_some()
            || self.openml_dataset.is_some()
            || self.openml_cache.is_some()
            || self.tasks.is_some()
            || self.openml_suite.is_some()
    }

    /// The transform overrides of this entry.
    pub fn transforms(&self) -> TransformOverrides {
        TransformOverrides {
            two_most_confused: self.two_most_confused,
            positive_class: self.positive_class.clone(),
            one_vs_rest: self.one_vs_rest,
            subsample: self.subsample,
        }
    }

    /// How to read the entry's file (shipped datasets are read as the catalog says).
    pub fn load_options(&self) -> data::LoadOptions {
        let mut options = data::LoadOptions {
            allow_numeric_class: self.allow_numeric_class,
            class_column: self.class_column.clone().map(data::ClassColumn::Name),
            ..data::LoadOptions::default()
        };
        for column in &self.nominal_columns {
            options = options.declare(column.clone(), data::ColumnType::Nominal);
        }
        for column in &self.numeric_columns {
            options = options.declare(column.clone(), data::ColumnType::Numeric);
        }
        for marker in &self.missing_markers {
            options = options.with_missing_marker(marker.clone());
        }
        options
    }
}

/// The transforms applied to a dataset before splitting.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Transforms {
    /// Reduce a multi-class dataset to the two classes 1-NN confuses most (Aslan et al.).
    #[serde(default)]
    pub two_most_confused: bool,
    /// Which class is positive: "minority" (default), "majority", or a class name.
    #[serde(default)]
    pub positive_class: Option<String>,
    /// Relabel a multi-class dataset as the positive class vs the rest.
    #[serde(default)]
    pub one_vs_rest: bool,
    /// Stratified random subsample of this many instances (none = all).
    #[serde(default)]
    pub subsample: Option<usize>,
}

/// Per-dataset overrides: any transform key, or none.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TransformOverrides {
    /// See [`Transforms::two_most_confused`].
    pub two_most_confused: Option<bool>,
    /// See [`Transforms::positive_class`].
    pub positive_class: Option<String>,
    /// See [`Transforms::one_vs_rest`].
    pub one_vs_rest: Option<bool>,
    /// See [`Transforms::subsample`].
    pub subsample: Option<usize>,
}

impl Transforms {
    /// These transforms with a dataset's overrides applied.
    pub fn with(&self, overrides: &TransformOverrides) -> Transforms {
        Transforms {
            two_most_confused: overrides
                .two_most_confused
                .unwrap_or(self.two_most_confused),
            positive_class: overrides
                .positive_class
                .clone()
                .or_else(|| self.positive_class.clone()),
            one_vs_rest: overrides.one_vs_rest.unwrap_or(self.one_vs_rest),
            subsample: overrides.subsample.or(self.subsample),
        }
    }
}

fn default_seed() -> u64 {
    1
}

/// The largest seed a config can give: TOML's largest integer.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Reads the `seed` key: a whole number from 0 to [`MAX_SEED`]; anything else is refused
/// naming the key and that range (TOML's own message named a Rust type).
fn seed<'de, D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<u64, D::Error> {
    struct Seed;
    impl serde::de::Visitor<'_> for Seed {
        type Value = u64;
        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(
                formatter,
                "key 'seed' to be a whole number from 0 to {MAX_SEED}"
            )
        }
        fn visit_i64<E: serde::de::Error>(self, value: i64) -> std::result::Result<u64, E> {
            self.visit_i128(i128::from(value))
        }
        fn visit_u64<E: serde::de::Error>(self, value: u64) -> std::result::Result<u64, E> {
            self.visit_i128(i128::from(value))
        }
        fn visit_i128<E: serde::de::Error>(self, value: i128) -> std::result::Result<u64, E> {
            u64::try_from(value)
                .ok()
                .filter(|&seed| seed <= MAX_SEED)
                .ok_or_else(|| E::custom(seed_range(value)))
        }
        fn visit_u128<E: serde::de::Error>(self, value: u128) -> std::result::Result<u64, E> {
            self.visit_i128(i128::try_from(value).unwrap_or(i128::MAX))
        }
    }
    deserializer.deserialize_any(Seed)
}

/// Reads the `worker_timeout_seconds` key: a number in the range of the worker learners' time
/// limits; anything else is refused naming the key and that range.
fn worker_timeout<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> std::result::Result<Option<f64>, D::Error> {
    let value = toml::Value::deserialize(deserializer)?;
    let seconds = match value {
        toml::Value::Integer(number) => number as f64,
        toml::Value::Float(number) => number,
        _ => f64::NAN,
    };
    let (low, high) = learners::worker::kinds::TIMEOUT_RANGE;
    if (low..=high).contains(&seconds) {
        return Ok(Some(seconds));
    }
    Err(serde::de::Error::custom(format!(
        "key 'worker_timeout_seconds' = {value}: allowed: a number of seconds from {low} to \
         {high} (the time limit of one unit of every python or worker learner that sets no \
         timeout_seconds of its own)"
    )))
}

/// The message for a seed out of range.
fn seed_range(value: i128) -> String {
    format!("key 'seed' = {value} is out of range; allowed: a whole number from 0 to {MAX_SEED}")
}

fn default_alpha() -> f64 {
    0.05
}

fn default_measures() -> Vec<toml::Value> {
    ["error", "auc"]
        .map(|name| toml::Value::String(name.to_string()))
        .to_vec()
}

fn default_tests() -> Vec<toml::Value> {
    vec![toml::Value::String("paired_t".to_string())]
}

/// An analysis a config may name, as the config check sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnownAnalysis {
    /// Its name in `analyses`.
    pub name: &'static str,
    /// False for an analysis that runs without datasets or learners.
    pub needs_data: bool,
    /// The options it reads from the top level of the config.
    pub options: &'static [learners::ParameterSpec],
}

impl ExperimentConfig {
    /// True when the config names analyses and none of them needs data.
    pub fn is_standalone(&self, known: &[KnownAnalysis]) -> bool {
        !self.named_analyses().is_empty()
            && self.named_analyses().iter().all(|name| {
                known
                    .iter()
                    .any(|analysis| analysis.name == name && !analysis.needs_data)
            })
    }
}

/// The line (from 1) of a byte offset of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&byte| byte == b'\n')
        .count()
        + 1
}

/// The top-level keys of config `text` that are not the engine's ([`KEYS`]), with their
/// values: each must be an option a known analysis declares, of its declared type and range.
/// Every problem names the key and its line.
fn analysis_options(text: &str, analyses: &[KnownAnalysis]) -> Result<toml::Table> {
    let document = toml::de::DeTable::parse(text)
        .map_err(|error| Error::config(error.to_string().trim_end()))?;
    let values: toml::Table =
        toml::from_str(text).map_err(|error| Error::config(error.to_string().trim_end()))?;
    let mut lines = std::collections::BTreeMap::new();
    for key in document.get_ref().keys() {
        lines.insert(key.get_ref().to_string(), line_of(text, key.span().start));
    }
    let declared: Vec<&str> = analyses
        .iter()
        .flat_map(|analysis| analysis.options.iter().map(|option| option.name()))
        .collect();
    let mut options = toml::Table::new();
    let mut problems = Vec::new();
    for (key, value) in values {
        if KEYS.contains(&key.as_str()) {
            continue;
        }
        if declared.contains(&key.as_str()) {
            options.insert(key, value);
            continue;
        }
        let mut allowed = KEYS.to_vec();
        allowed.extend(declared.iter().copied());
        problems.push(format!(
            "line {}: unknown key '{}' (allowed: {})",
            lines.get(&key).copied().unwrap_or(1),
            data::shown(&key),
            allowed.join(", ")
        ));
    }
    for analysis in analyses {
        let given: toml::Table = options
            .iter()
            .filter(|(key, _)| analysis.options.iter().any(|o| o.name() == key.as_str()))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        if let Err((key, problem)) = crate::measures::registry::check_options(
            "analysis",
            analysis.name,
            analysis.options,
            &given,
        ) {
            problems.push(format!(
                "line {}: key '{key}': {problem}",
                lines.get(&key).copied().unwrap_or(1)
            ));
        }
    }
    if problems.is_empty() {
        Ok(options)
    } else {
        Err(Error::config_problems(problems))
    }
}

/// The longest `name` (in bytes, all ASCII): the longest folder name common file systems allow.
pub const MAX_NAME_BYTES: usize = 255;

/// Parses and checks config text against the known analyses (whose options the config may
/// set at its top level).
pub fn parse(text: &str, analyses: &[KnownAnalysis]) -> Result<ExperimentConfig> {
    let mut config: ExperimentConfig =
        toml::from_str(text).map_err(|error| Error::config(error.to_string().trim_end()))?;
    config.options = analysis_options(text, analyses)?;
    for name in config.named_analyses() {
        if !analyses.iter().any(|known| known.name == name) {
            let names: Vec<&str> = analyses.iter().map(|known| known.name).collect();
            bail!(
                "key 'analyses': unknown analysis '{}' (allowed: {})",
                data::shown(name),
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            );
        }
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if config.name.len() > MAX_NAME_BYTES {
        bail!(
            "key 'name' = \"{}\": at most {MAX_NAME_BYTES} characters (it names the results \
             folder, and no longer folder name is allowed by common file systems)",
            data::shown(&config.name)
        );
    }
    if config.name.is_empty() || !config.name.chars().all(allowed) || config.name.starts_with('.') {
        bail!(
            "key 'name' = \"{}\": must name a results folder: letters, digits, '-', '_' and \
             '.' only (no space, '/' or '\\'), not starting with '.'",
            data::shown(&config.name)
        );
    }
    if !(config.alpha > 0.0 && config.alpha < 1.0) {
        bail!(
            "key 'alpha' = {}: allowed range is 0 < alpha < 1",
            config.alpha
        );
    }
    if config.is_standalone(analyses) {
        if !config.datasets.is_empty() || !config.learners.is_empty() {
            bail!(
                "key 'analyses' = {:?} needs no datasets or learners: remove the keys \
                 'datasets' and 'learners', or add analyses that use them",
                config.named_analyses()
            );
        }
        return Ok(config);
    }
    if config.datasets.is_empty() {
        bail!("key 'datasets' is missing or empty: name at least one dataset, collection or file");
    }
    if config.learners.is_empty() {
        bail!("key 'learners' is missing or empty: name at least one learner");
    }
    if config.protocol.is_none() {
        bail!(
            "key 'protocol' is missing: give a table with `kind` and its options (see \
             `experiments analyses`)"
        );
    }
    if config.measures.is_empty() {
        bail!("key 'measures' is empty: name at least one (see `experiments analyses`)");
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An analysis computed from nothing, as Huang & Ling's is.
    const DATA_FREE: KnownAnalysis = KnownAnalysis {
        name: "huang_ling",
        needs_data: false,
        options: &[],
    };

    fn parse(text: &str) -> Result<ExperimentConfig> {
        super::parse(text, &[DATA_FREE])
    }

    const MINIMAL: &str = r#"
name = "demo"
datasets = ["pima"]
protocol = { kind = "stratified_kfold", folds = 10 }
[[learners]]
kind = "c45"
"#;

    /// A seed beyond TOML's integers (the TOML 1.0 spec: 64-bit signed, at most 2^63 - 1),
    /// negative or fractional is refused naming the key, its line and the range.
    #[test]
    fn a_seed_out_of_range_is_refused_naming_the_key_and_the_range() {
        let largest = "9223372036854775807";
        let config = parse(&format!("seed = {largest}\n{MINIMAL}")).unwrap();
        assert_eq!(config.seed.to_string(), largest);
        for seed in [
            "9223372036854775808",
            "18446744073709551616",
            "-1",
            "1.5",
            "\"x\"",
        ] {
            let message = parse(&format!("seed = {seed}\n{MINIMAL}"))
                .unwrap_err()
                .to_string();
            assert!(message.contains("line 1"), "{message}");
            assert!(message.contains("key 'seed'"), "{message}");
            assert!(
                message.contains(&format!("from 0 to {largest}")),
                "{message}"
            );
        }
    }

    #[test]
    fn minimal_config_gets_defaults() {
        let config = parse(MINIMAL).unwrap();
        assert_eq!(config.seed, 1);
        assert_eq!(config.alpha, 0.05);
        assert_eq!(config.measures, default_measures());
        assert_eq!(config.measures[1], toml::Value::String("auc".into()));
        assert_eq!(config.transforms, Transforms::default());
    }

    #[test]
    fn misspelt_top_level_key_is_named() {
        let text = MINIMAL.replace("name = \"demo\"", "name = \"demo\"\nsed = 3");
        let message = parse(&text).unwrap_err().to_string();
        assert!(message.contains("sed"), "{message}");
        assert!(message.contains("line 3"), "{message}");
    }

    #[test]
    fn misspelt_transform_key_is_named() {
        let text = format!("{MINIMAL}\n[transforms]\ntwo_most_confusd = true\n");
        let message = parse(&text).unwrap_err().to_string();
        assert!(message.contains("two_most_confusd"), "{message}");
    }

    #[test]
    fn unknown_measure_lists_the_allowed_ones() {
        let text = format!("measures = [\"eror\"]\n{MINIMAL}");
        let config = parse(&text).unwrap();
        let mut problems = Vec::new();
        let registries = crate::plan::registries::Registries::builtin();
        let evaluation = registries.evaluation(
            &config.measures,
            &config.tests,
            config.protocol.as_ref().unwrap(),
            &learners::Registry::builtin(),
            &mut problems,
        );
        assert!(evaluation.is_none());
        let message = problems.join("\n");
        assert!(
            message.contains("key 'measures' entry 1: unknown measure 'eror'")
                && message.contains("auc"),
            "{message}"
        );
    }

    #[test]
    fn alpha_out_of_range_names_the_key() {
        let text = format!("alpha = 1.5\n{MINIMAL}");
        let message = parse(&text).unwrap_err().to_string();
        assert!(
            message.contains("alpha") && message.contains("0 < alpha < 1"),
            "{message}"
        );
    }

    #[test]
    fn misspelt_key_in_a_dataset_entry_is_named() {
        let text = MINIMAL.replace(
            "datasets = [\"pima\"]",
            "datasets = [{ name = \"glass\", subsampel = 50 }]",
        );
        let message = parse(&text).unwrap_err().to_string();
        assert!(message.contains("subsampel"), "{message}");
    }

    #[test]
    fn dataset_overrides_replace_defaults() {
        let text = MINIMAL.replace(
            "datasets = [\"pima\"]",
            "datasets = [\"pima\", { name = \"glass\", subsample = 50 }]",
        );
        let config = parse(&text).unwrap();
        let DatasetEntry::Detailed(detailed) = &config.datasets[1] else {
            panic!("a table entry")
        };
        assert_eq!(
            config.transforms.with(&detailed.transforms()).subsample,
            Some(50)
        );
    }

    #[test]
    fn a_data_free_analysis_needs_no_datasets_but_rejects_them() {
        let config = parse("name = \"hl\"\nanalyses = [\"huang_ling\"]\n").unwrap();
        assert_eq!(config.named_analyses(), ["huang_ling"]);
        let message = parse(&format!("analyses = [\"huang_ling\"]\n{MINIMAL}"))
            .unwrap_err()
            .to_string();
        assert!(message.contains("needs no datasets"), "{message}");
    }

    #[test]
    fn a_missing_protocol_is_named() {
        let text = MINIMAL.replace(
            "protocol = { kind = \"stratified_kfold\", folds = 10 }\n",
            "",
        );
        let message = parse(&text).unwrap_err().to_string();
        assert!(message.contains("'protocol' is missing"), "{message}");
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;
    use learners::ParameterSpec;

    /// An analysis that declares a rope, as `across_datasets` does.
    const WITH_ROPE: KnownAnalysis = KnownAnalysis {
        name: "comparing",
        needs_data: true,
        options: &[ParameterSpec::real("rope", 0.01, 0.0, f64::MAX, "a rope")],
    };

    #[test]
    fn the_engine_keys_are_the_fields_of_the_config() {
        let text = "name = \"x\"\ndatasets = [\"pima\"]\nprotocol = { kind = \"holdout\" }\n\
                    analyses = []\nworker_timeout_seconds = 60\ntuning = { budget = 3 }\n\
                    report = { anchors = [] }\n\
                    stopping = { delta_min = 1 }\n[[learners]]\nkind = \"c45\"\n";
        let config = parse(text, &[]).unwrap();
        let written: toml::Table = toml::from_str(&toml::to_string(&config).unwrap()).unwrap();
        let mut keys: Vec<&str> = written.keys().map(String::as_str).collect();
        let mut expected = KEYS.to_vec();
        keys.sort_unstable();
        expected.sort_unstable();
        assert_eq!(keys, expected);
    }

    #[test]
    fn a_key_no_analysis_declares_is_refused_with_its_line() {
        let text = "name = \"x\"\nrope = 0.1\ndatasets = [\"pima\"]\n";
        let message = parse(text, &[]).unwrap_err().to_string();
        assert!(
            message.contains("line 2: unknown key 'rope'") && message.contains("analyses"),
            "{message}"
        );
    }

    #[test]
    fn a_name_that_is_not_a_plain_folder_name_says_what_is_allowed() {
        for bad in ["my run", "a/b", "a\\\\b", ".hidden", ""] {
            let text = format!("name = \"{bad}\"\ndatasets = [\"pima\"]\n");
            let message = parse(&text, &[]).unwrap_err().to_string();
            assert!(
                message.contains("key 'name'") && message.contains("no space, '/' or '\\'"),
                "{bad}: {message}"
            );
        }
    }

    #[test]
    fn a_negative_rope_names_the_key_its_line_and_the_range() {
        let text = "name = \"x\"\nrope = -0.1\ndatasets = [\"pima\"]\n";
        let message = parse(text, &[WITH_ROPE]).unwrap_err().to_string();
        assert!(
            message.contains("line 2: key 'rope'")
                && message.contains("'rope' = -0.1")
                && message.contains("at least 0"),
            "{message}"
        );
    }

    #[test]
    fn without_the_analyses_key_none_is_named_and_the_rope_has_its_default() {
        let text = "name = \"x\"\ndatasets = [\"pima\"]\nprotocol = { kind = \"holdout\", test_fraction = 0.3 }\n[[learners]]\nkind = \"c45\"\n";
        let rope = |config: &ExperimentConfig| {
            crate::measures::registry::with_options(
                "comparing",
                WITH_ROPE.options,
                &config.options,
                |o| o.real("rope"),
            )
            .unwrap()
            .unwrap()
        };
        let config = parse(text, &[WITH_ROPE]).unwrap();
        assert_eq!(config.analyses, None);
        assert_eq!(rope(&config), 0.01);
        let explicit = parse(&format!("analyses = []\nrope = 0\n{text}"), &[WITH_ROPE]).unwrap();
        assert_eq!(explicit.analyses, Some(Vec::new()));
        assert_eq!(rope(&explicit), 0.0);
    }

    #[test]
    fn an_unknown_analysis_lists_the_known_ones() {
        let text = "name = \"x\"\nanalyses = [\"aslan\"]\n";
        let message = parse(text, &[]).unwrap_err().to_string();
        assert!(message.contains("unknown analysis 'aslan'"), "{message}");
    }
}
