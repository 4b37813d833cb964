//! The plan of an experiment: the prepared datasets (transforms applied, splits made), the
//! configured learners, and the table of units (dataset, learner, split) to run.

use data::catalog::Catalog;
use data::transform::{self, PositiveClass};
use data::Dataset;
use learners::Learner;

use crate::bail;
use crate::config::{DatasetEntry, ExperimentConfig, Transforms};
use crate::error::{Context, Error, Result};
use crate::measures::Measure;

/// One dataset after its transforms, with its splits.
pub struct PreparedDataset {
    /// The name used in tables and file names (shipped name or file stem).
    pub name: String,
    /// The transforms applied.
    pub transforms: Transforms,
    /// The data after the transforms.
    pub dataset: Dataset,
    /// Content hash of the transformed data (part of every cache key).
    pub content_hash: String,
    /// What each transform chose, in words.
    pub notes: Vec<String>,
    /// The positive class index when the task is binary (scores for AUC are its column).
    pub positive: Option<usize>,
    /// The splits every learner shares.
    pub plan: cv::SplitPlan,
    /// The whole-training-set split when the protocol has one fixed test set (see
    /// [`whole_training_split`]); the tests on the test set fit one model per learner on it.
    pub whole_training: Option<cv::Split>,
}

/// `Unit::split` of the unit that fits a learner on the whole training part of a dataset whose
/// protocol has one fixed test set (such units are not in `Plan::units`: they run only when a
/// test on the test set or an analysis asks for them).
pub const WHOLE_TRAINING_SPLIT: usize = usize::MAX;

/// `Split::fold` of the whole-training-set split (its repetition is 0).
pub const WHOLE_TRAINING_FOLD: usize = usize::MAX;

/// When every split of `plan` tests on the same non-empty rows (Aslan's protocol, a single
/// hold-out), the split that trains on every other row of the dataset and tests on those rows;
/// otherwise `None`.
pub fn whole_training_split(plan: &cv::SplitPlan) -> Option<cv::Split> {
    let first = plan.splits.first()?;
    if first.test.is_empty() || plan.splits.iter().any(|split| split.test != first.test) {
        return None;
    }
    let mut in_test = vec![false; plan.instances];
    for &row in &first.test {
        in_test[row] = true;
    }
    Some(cv::Split {
        repetition: 0,
        fold: WHOLE_TRAINING_FOLD,
        train: (0..plan.instances).filter(|&row| !in_test[row]).collect(),
        validation: None,
        test: first.test.clone(),
    })
}

impl PreparedDataset {
    /// The split a unit's `split` index names: one of the plan's splits, or the
    /// whole-training-set split for [`WHOLE_TRAINING_SPLIT`] (which must exist).
    pub fn split(&self, index: usize) -> &cv::Split {
        if index == WHOLE_TRAINING_SPLIT {
            self.whole_training
                .as_ref()
                .expect("a whole-training unit is only made for a protocol with a fixed test set")
        } else {
            &self.plan.splits[index]
        }
    }
}

/// One configured learner.
pub struct ConfiguredLearner {
    /// Display name (the config's `name`, or the kind).
    pub name: String,
    /// The kind and parameters as configured (without `name`).
    pub table: toml::Table,
    /// The learner itself.
    pub learner: Box<dyn Learner>,
}

/// One unit of work: fit one learner on one split of one dataset and predict its test part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Index into the plan's datasets.
    pub dataset: usize,
    /// Index into the plan's learners.
    pub learner: usize,
    /// Index into the dataset's splits.
    pub split: usize,
}

/// Everything an experiment will run.
pub struct Plan {
    /// The prepared datasets, in config order.
    pub datasets: Vec<PreparedDataset>,
    /// The learners, in config order.
    pub learners: Vec<ConfiguredLearner>,
    /// The units, ordered by dataset, learner, split.
    pub units: Vec<Unit>,
}

/// A dataset reference with its transforms, before loading.
#[derive(Clone, Debug)]
pub struct DatasetRequest {
    /// Shipped name or path.
    pub source: String,
    /// Transforms to apply.
    pub transforms: Transforms,
    /// How to read the source if it is a file of one's own (column types, missing markers).
    pub options: data::LoadOptions,
}

/// Checks every name of the config without loading data: datasets exist, learners are known
/// and their parameters valid, the protocol is valid. Fast, so a typo fails at once; every
/// problem found is reported, one per line, not just the first. A dataset given as a relative
/// path is looked for in `base` (the config file's folder) first, then as given.
pub fn check_names(
    config: &ExperimentConfig,
    catalog: Option<&Catalog>,
    registry: &learners::Registry,
    base: Option<&std::path::Path>,
) -> Result<(Vec<DatasetRequest>, Vec<ConfiguredLearner>, cv::Strategy)> {
    let mut problems: Vec<String> = Vec::new();
    let protocol = config.protocol.clone().unwrap_or_default();
    let strategy = cv::Strategy::from_table(&protocol)
        .map_err(|error| problems.push(format!("key 'protocol': {error}")))
        .ok();
    let mut requests = Vec::new();
    for (position, entry) in config.datasets.iter().enumerate() {
        let (word, transforms, options) = match entry {
            DatasetEntry::Name(name) => (
                name.clone(),
                config.transforms.clone(),
                data::LoadOptions::default(),
            ),
            DatasetEntry::Detailed(detailed) => (
                detailed.name.clone(),
                config.transforms.with(&detailed.transforms()),
                detailed.load_options(),
            ),
        };
        let word = relative_to(base, &word);
        let members = match catalog {
            Some(catalog) => catalog.expand(&word).map_err(|error| {
                format!("key 'datasets' entry {} ('{word}'): {error}", position + 1)
            }),
            None if std::path::Path::new(&word).is_file() => Ok(vec![word.clone()]),
            None => Err(format!(
                "key 'datasets' entry {} ('{word}'): not a file, and no shipped catalog \
                 (datasets/catalog.toml) was found to look the name up",
                position + 1
            )),
        };
        match members {
            Ok(members) => requests.extend(members.into_iter().map(|source| DatasetRequest {
                source,
                transforms: transforms.clone(),
                options: options.clone(),
            })),
            Err(problem) => problems.push(problem),
        }
    }
    let mut names: Vec<String> = Vec::new();
    for request in &requests {
        let name = display_name(&request.source);
        if names.contains(&name) {
            problems.push(format!(
                "key 'datasets': '{name}' appears twice; each dataset may be named once \
                 (give a file a different name to run it twice)"
            ));
        }
        names.push(name);
    }
    // Learners that name files (a worker's program, a user's module) read them from the
    // config's folder first, as datasets do.
    let registry = registry.clone().with_base_dir(base);
    let learners = configure_learners(&config.learners, &registry, &mut problems);
    for (position, figure) in config.interval_figures.iter().enumerate() {
        if !names.contains(&figure.dataset) {
            problems.push(format!(
                "key 'interval_figures' entry {}: dataset '{}' is not among the datasets ({})",
                position + 1,
                figure.dataset,
                names.join(", ")
            ));
        }
        for learner in &figure.learners {
            if !learners.iter().any(|l| &l.name == learner) {
                problems.push(format!(
                    "key 'interval_figures' entry {}: learner '{learner}' is not among the \
                     learners ({})",
                    position + 1,
                    learners
                        .iter()
                        .map(|l| l.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    if let Some(control) = &config.control {
        if !learners.iter().any(|learner| &learner.name == control) {
            let names: Vec<&str> = learners.iter().map(|l| l.name.as_str()).collect();
            problems.push(format!(
                "key 'control' = '{control}' names no learner; allowed: {}",
                names.join(", ")
            ));
        }
    }
    match strategy {
        Some(strategy) if problems.is_empty() => Ok((requests, learners, strategy)),
        _ => Err(Error::message(problems.join("\n"))),
    }
}

/// A dataset entry's text: a relative path that names a file in `base` becomes that file's
/// path; anything else (a shipped name, an absolute path, a path from the current folder) is
/// kept.
fn relative_to(base: Option<&std::path::Path>, word: &str) -> String {
    let path = std::path::Path::new(word);
    match base {
        Some(base) if path.is_relative() && base.join(path).is_file() => {
            base.join(path).to_string_lossy().into_owned()
        }
        _ => word.to_string(),
    }
}

/// Builds the learners of the config, checking kinds, parameters and display names; each
/// problem is added to `problems` and that learner left out.
pub fn configure_learners(
    tables: &[toml::Table],
    registry: &learners::Registry,
    problems: &mut Vec<String>,
) -> Vec<ConfiguredLearner> {
    let mut learners: Vec<ConfiguredLearner> = Vec::new();
    for (position, table) in tables.iter().enumerate() {
        let mut table = table.clone();
        let name = match table.remove("name") {
            None => None,
            Some(toml::Value::String(name)) if !name.trim().is_empty() => Some(name),
            Some(other) => {
                problems.push(format!(
                    "key 'learners' entry {}: 'name' must be a non-empty string, got {other}",
                    position + 1
                ));
                continue;
            }
        };
        let learner = match registry.build(&table) {
            Ok(learner) => learner,
            Err(error) => {
                problems.push(format!("key 'learners' entry {}: {error}", position + 1));
                continue;
            }
        };
        let name = name.unwrap_or_else(|| learner.name().to_string());
        if learners.iter().any(|other| other.name == name) {
            problems.push(format!(
                "key 'learners' entry {}: the name '{name}' is already used; give each learner \
                 a distinct `name = \"...\"`",
                position + 1
            ));
            continue;
        }
        learners.push(ConfiguredLearner {
            name,
            table,
            learner,
        });
    }
    learners
}

/// The display name of a dataset source: the shipped name, or a file's stem.
pub fn display_name(source: &str) -> String {
    let path = std::path::Path::new(source);
    if path.is_file() {
        path.file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_else(|| source.to_string())
    } else {
        source.to_string()
    }
}

/// Loads one dataset, applies its transforms and makes its splits.
pub fn prepare_dataset(
    request: &DatasetRequest,
    catalog: Option<&Catalog>,
    strategy: &cv::Strategy,
    measures: &[Measure],
    experiment_seed: u64,
    limits: &crate::bounds::Limits,
) -> Result<PreparedDataset> {
    let name = display_name(&request.source);
    let loaded = match catalog {
        Some(catalog) => catalog.resolve_with(&request.source, &request.options),
        None if std::path::Path::new(&request.source).is_file() => {
            data::load(&request.source, &request.options)
        }
        None => data::catalog::resolve(&request.source),
    }
    .with_context(|| format!("cannot load dataset '{}'", request.source))?;
    let mut dataset = loaded.with_name(name.clone());
    let transforms = &request.transforms;
    let mut notes = Vec::new();
    if transforms.two_most_confused && dataset.num_classes() > 2 {
        let (reduced, record) = transform::reduce_to_most_confused(&dataset)
            .with_context(|| format!("dataset '{name}': two_most_confused"))?;
        notes.push(format!("two most confused classes: {}", record.reason));
        dataset = reduced;
    }
    let classes = dataset.num_classes();
    let wants_binary = transforms.positive_class.is_some() || transforms.one_vs_rest;
    let mut positive = None;
    if classes == 2 || wants_binary {
        if classes > 2 && !transforms.one_vs_rest {
            bail!(
                "dataset '{name}' has {classes} classes: with positive_class set, also set \
                 one_vs_rest = true (or two_most_confused = true)"
            );
        }
        let choice = match transforms.positive_class.as_deref() {
            None | Some("minority") => PositiveClass::Minority,
            Some("majority") => {
                let counts = dataset.class_counts();
                let mut best = 0;
                for (index, &count) in counts.iter().enumerate() {
                    if count > counts[best] {
                        best = index;
                    }
                }
                PositiveClass::Named(dataset.schema().class_values[best].clone())
            }
            Some(named) => PositiveClass::Named(named.to_string()),
        };
        let (binary, record) = transform::choose_positive(&dataset, &choice)
            .with_context(|| format!("dataset '{name}': positive_class"))?;
        notes.push(format!(
            "positive class '{}' against '{}' ({})",
            record.positive, record.negative, record.reason
        ));
        dataset = binary;
        positive = Some(1);
    }
    if positive.is_none() && measures.contains(&Measure::Sauc) {
        bail!(
            "dataset '{name}' has {} classes, but the measure 'sauc' needs a binary task: set \
             two_most_confused, or positive_class with one_vs_rest",
            dataset.num_classes()
        );
    }
    if let Some(size) = transforms.subsample {
        let seed = seeds::derive_seed_from_label(experiment_seed, &format!("subsample/{name}"));
        let (sample, record) = transform::stratified_subsample(&dataset, size, seed)
            .with_context(|| format!("dataset '{name}': subsample"))?;
        let per_class: Vec<String> = record
            .per_class
            .iter()
            .map(|(class, available, taken)| format!("{class} {taken} of {available}"))
            .collect();
        notes.push(format!(
            "stratified subsample of {size} rows ({})",
            per_class.join(", ")
        ));
        dataset = sample;
    }
    crate::bounds::check_splits(&name, dataset.len(), strategy, limits)?;
    let plan = cv::SplitPlan::for_dataset(&dataset, strategy, experiment_seed)
        .with_context(|| format!("dataset '{name}': cannot make the splits"))?;
    let content_hash = dataset.content_hash();
    let whole_training = whole_training_split(&plan);
    Ok(PreparedDataset {
        name,
        transforms: transforms.clone(),
        dataset,
        content_hash,
        notes,
        positive,
        plan,
        whole_training,
    })
}

impl Plan {
    /// The plan of prepared datasets and learners: every learner on every split.
    pub fn new(datasets: Vec<PreparedDataset>, learners: Vec<ConfiguredLearner>) -> Plan {
        let mut units = Vec::new();
        for (dataset_index, dataset) in datasets.iter().enumerate() {
            for learner in 0..learners.len() {
                for split in 0..dataset.plan.splits.len() {
                    units.push(Unit {
                        dataset: dataset_index,
                        learner,
                        split,
                    });
                }
            }
        }
        Plan {
            datasets,
            learners,
            units,
        }
    }

    /// The seed a unit's learner gets: from the dataset's plan seed, the learner's kind and
    /// parameters and the split's identity, so it depends neither on the order of the config,
    /// nor on display names, nor on threads.
    pub fn unit_seed(&self, unit: Unit) -> u64 {
        let dataset = &self.datasets[unit.dataset];
        let split = dataset.split(unit.split);
        let learner_seed = seeds::derive_seed_from_label(
            dataset.plan.seed,
            &self.learners[unit.learner].learner.describe(),
        );
        seeds::derive_seed(learner_seed, &[split.repetition as u64, split.fold as u64])
    }
}

/// Checks that every learner can take every dataset: nominal attributes, missing values and
/// the number of classes against what the learner declares it handles.
pub fn check_capabilities(plan: &Plan) -> Result<()> {
    for dataset in &plan.datasets {
        let has_missing = dataset.dataset.missing_count() > 0;
        for learner in &plan.learners {
            learner
                .learner
                .capabilities()
                .accepts(dataset.dataset.schema(), has_missing)
                .map_err(|problem| {
                    Error::message(format!(
                        "learner '{}' cannot take dataset '{}': {problem}",
                        learner.name, dataset.name
                    ))
                })?;
        }
    }
    Ok(())
}
