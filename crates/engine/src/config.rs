//! The experiment config: one TOML file naming datasets, transforms, learners, a protocol,
//! measures, tests and analyses. Every key is checked; unknown keys are errors naming the key.

use serde::{Deserialize, Serialize};

use crate::bail;
use crate::error::{Error, Result};
use crate::measures::Measure;
use crate::paired::PairedTest;

/// One experiment as written in its TOML file.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentConfig {
    /// Names the results folder `results/<name>/`.
    pub name: String,
    /// The experiment seed from which every random choice is derived.
    #[serde(default = "default_seed")]
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
    /// Measures computed per fold.
    #[serde(default = "default_measures")]
    pub measures: Vec<Measure>,
    /// Paired tests run between every pair of learners on every dataset.
    #[serde(default = "default_tests")]
    pub tests: Vec<PairedTest>,
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
    /// The control learner (its display name) of the analyses that compare learners with one
    /// (`across_datasets`); default: the first learner.
    #[serde(default)]
    pub control: Option<String>,
    /// Half-width of the region of practical equivalence of the Bayesian tests, in the units
    /// of the measure; default [`DEFAULT_ROPE`].
    #[serde(default)]
    pub rope: Option<f64>,
    /// The comparisons drawn by the `aslan_intervals` analysis (Aslan et al. Figures 6-7).
    #[serde(default)]
    pub interval_figures: Vec<IntervalFigure>,
}

/// The rope of the Bayesian tests when a config does not set `rope`.
pub const DEFAULT_ROPE: f64 = 0.01;

impl ExperimentConfig {
    /// The analyses the config names (none without the key).
    pub fn named_analyses(&self) -> &[String] {
        self.analyses.as_deref().unwrap_or_default()
    }

    /// The rope of the Bayesian tests (the key `rope`, or [`DEFAULT_ROPE`]).
    pub fn rope(&self) -> f64 {
        self.rope.unwrap_or(DEFAULT_ROPE)
    }

    /// The options of the paired tests this config asks for.
    pub fn test_options(&self, sizes: Option<(f64, f64)>) -> crate::paired::TestOptions {
        crate::paired::TestOptions {
            alpha: self.alpha,
            sizes,
            wilcoxon_correction: self.wilcoxon_correction,
        }
    }
}

/// One comparison figure with AUC confidence intervals: a dataset and two learners.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct IntervalFigure {
    /// The dataset's name as in the results.
    pub dataset: String,
    /// The two learners' display names.
    pub learners: [String; 2],
}

/// A dataset reference, with optional per-dataset transform overrides.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum DatasetEntry {
    /// A shipped name, a collection, or a path.
    Name(String),
    /// A name with transform overrides.
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
    /// A shipped name, a collection, or a path.
    pub name: String,
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
}

impl DetailedDataset {
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

fn default_alpha() -> f64 {
    0.05
}

fn default_measures() -> Vec<Measure> {
    vec![Measure::Error, Measure::Auc]
}

fn default_tests() -> Vec<PairedTest> {
    vec![PairedTest::PairedT]
}

/// An analysis a config may name, as the config check sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownAnalysis {
    /// Its name in `analyses`.
    pub name: &'static str,
    /// False for an analysis that runs without datasets or learners.
    pub needs_data: bool,
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

/// Parses and checks config text against the known analyses.
pub fn parse(text: &str, analyses: &[KnownAnalysis]) -> Result<ExperimentConfig> {
    let config: ExperimentConfig =
        toml::from_str(text).map_err(|error| Error::config(error.to_string().trim_end()))?;
    for name in config.named_analyses() {
        if !analyses.iter().any(|known| known.name == name) {
            let names: Vec<&str> = analyses.iter().map(|known| known.name).collect();
            bail!(
                "key 'analyses': unknown analysis '{name}' (allowed: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            );
        }
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if config.name.is_empty() || !config.name.chars().all(allowed) || config.name.starts_with('.') {
        bail!(
            "key 'name' = {:?}: must name a results folder: letters, digits, '-', '_' and '.' \
             only (no space, '/' or '\\'), not starting with '.'",
            config.name
        );
    }
    if !(config.alpha > 0.0 && config.alpha < 1.0) {
        bail!(
            "key 'alpha' = {}: allowed range is 0 < alpha < 1",
            config.alpha
        );
    }
    if let Some(rope) = config.rope {
        if !(rope.is_finite() && rope >= 0.0) {
            bail!(
                "key 'rope' = {rope}: allowed: a finite number >= 0 (in the units of the measure)"
            );
        }
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
            "key 'protocol' is missing: give a table with kind = one of stratified_kfold, \
             five_by_two, holdout, leave_one_out, aslan, wu_flach"
        );
    }
    if config.measures.is_empty() {
        bail!(
            "key 'measures' is empty: allowed values are {}",
            Measure::ALL.map(Measure::name).join(", ")
        );
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

    #[test]
    fn minimal_config_gets_defaults() {
        let config = parse(MINIMAL).unwrap();
        assert_eq!(config.seed, 1);
        assert_eq!(config.alpha, 0.05);
        assert_eq!(config.measures, vec![Measure::Error, Measure::Auc]);
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
        let message = parse(&text).unwrap_err().to_string();
        assert!(
            message.contains("eror") && message.contains("auc"),
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
    fn a_negative_rope_names_the_key_and_the_range() {
        let text = "name = \"x\"\nrope = -0.1\ndatasets = [\"pima\"]\n";
        let message = parse(text, &[]).unwrap_err().to_string();
        assert!(
            message.contains("key 'rope' = -0.1") && message.contains(">= 0"),
            "{message}"
        );
    }

    #[test]
    fn without_the_analyses_key_none_is_named_and_the_rope_has_its_default() {
        let text = "name = \"x\"\ndatasets = [\"pima\"]\nprotocol = { kind = \"holdout\", test_fraction = 0.3 }\n[[learners]]\nkind = \"c45\"\n";
        let config = parse(text, &[]).unwrap();
        assert_eq!(config.analyses, None);
        assert_eq!(config.rope(), DEFAULT_ROPE);
        let explicit = parse(&format!("analyses = []\nrope = 0\n{text}"), &[]).unwrap();
        assert_eq!(explicit.analyses, Some(Vec::new()));
        assert_eq!(explicit.rope(), 0.0);
    }

    #[test]
    fn an_unknown_analysis_lists_the_known_ones() {
        let text = "name = \"x\"\nanalyses = [\"aslan\"]\n";
        let message = parse(text, &[]).unwrap_err().to_string();
        assert!(message.contains("unknown analysis 'aslan'"), "{message}");
    }
}
