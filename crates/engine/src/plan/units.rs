//! The plan of an experiment: the prepared datasets (transforms applied, splits made), the
//! configured learners, and the table of units (dataset, learner, split) to run.

use data::catalog::Catalog;
use data::transform::{self, PositiveClass};
use data::Dataset;
use std::sync::Arc;

use crate::config::experiment::Transforms;
use crate::error::bail;
use crate::error::{Error, Result};
use crate::measures::measure::Measure;
use crate::measures::paired::FoldTest;
use crate::measures::test_set::TestSetTest;
use crate::plan::openml_tasks;
pub use crate::plan::parts::{ConfiguredLearner, Training, Unit};
use crate::plan::protocols::Protocol;
pub use crate::plan::requests::{DatasetRequest, OpenmlSource};
use crate::plan::tuning::Tuning;

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
    /// What each transform chose (and how the dataset was named, when that was chosen), in
    /// words.
    pub notes: Vec<String>,
    /// What the reader decided on its own about a user's file that the user may not expect
    /// (possible category codes read as numbers, ...), each with how to declare otherwise
    /// ([`data::LoadNotice`]); none for a shipped dataset.
    pub load_notices: Vec<String>,
    /// The positive class index when the task is binary (scores for AUC are its column).
    pub positive: Option<usize>,
    /// The splits every learner shares.
    pub plan: cv::SplitPlan,
    /// The split that trains on the whole training part when the protocol has one fixed test
    /// set (see [`whole_training_split`]): the split of the [`Training::Whole`] units that the
    /// tests on the test set and some analyses ask for.
    pub whole_training: Option<cv::Split>,
    /// The inner splits of each outer split, for tuning with inner folds (empty otherwise);
    /// when a tuned learner has a whole-training unit, one more entry, at index
    /// `plan.splits.len()`, for the whole training part (see [`PreparedDataset::outer_split`]).
    pub inner_splits: Vec<Vec<cv::Split>>,
    /// The OpenML task the dataset was read from, if any (its splits are the plan's under
    /// protocol kind 'openml').
    pub openml_task: Option<Arc<openml::Task>>,
}

/// When every split of `plan` tests on the same non-empty rows (Aslan's protocol, a single
/// hold-out), the split that trains on every other row of the dataset and tests on those rows
/// (its repetition and fold are 0: a unit names it by [`Training::Whole`]); otherwise `None`.
pub fn whole_training_split(plan: &cv::SplitPlan) -> Option<cv::Split> {
    let first = plan.splits.first()?;
    if first.test.is_empty() || plan.splits.iter().any(|split| split.test != first.test) {
        return None;
    }
    Some(cv::Split {
        repetition: 0,
        fold: 0,
        train: cv::Train::Rest {
            instances: plan.instances,
        },
        validation: None,
        test: first.test.clone(),
    })
}

impl PreparedDataset {
    /// The outer split a tuning's inner units belong to: one of the protocol's splits, or at
    /// index `plan.splits.len()` the whole training part.
    pub fn outer_split(&self, index: usize) -> &cv::Split {
        match self.plan.splits.get(index) {
            Some(split) => split,
            None => self
                .whole_training
                .as_ref()
                .expect("inner units past the splits are the whole training part's"),
        }
    }

    /// Whether an inner unit's outer index names the whole training part.
    pub fn is_whole(&self, index: usize) -> bool {
        index == self.plan.splits.len()
    }

    /// The number of inner splits of outer split `split` (none without tuning by inner folds).
    pub fn inner_split_count(&self, split: usize) -> usize {
        self.inner_splits.get(split).map_or(0, Vec::len)
    }

    /// The split a unit trains on: one of the protocol's splits, or the whole-training-set
    /// split (which exists for every [`Training::Whole`] unit of a plan: see
    /// [`Plan::add_whole_training`]).
    pub fn split(&self, training: Training) -> &cv::Split {
        match training {
            Training::Split(index)
            | Training::Inner {
                split: index,
                inner: None,
                ..
            } => &self.plan.splits[index],
            Training::Inner {
                split,
                inner: Some(inner),
                ..
            } => &self.inner_splits[split][inner],
            Training::Whole => self.whole_training.as_ref().expect(
                "a whole-training unit is only planned for a protocol with a fixed test set",
            ),
        }
    }
}

/// The repetition and fold a whole-training unit's seed is derived from (as the seeds of the
/// splits are from theirs); the values of earlier versions, so their cache entries stay valid.
const WHOLE_TRAINING_IDENTITY: [u64; 2] = [0, u64::MAX];

/// Everything an experiment will run and compute.
pub struct Plan {
    /// The prepared datasets, in config order.
    pub datasets: Vec<PreparedDataset>,
    /// The learners, in config order.
    pub learners: Vec<ConfiguredLearner>,
    /// The units: every learner on every split, ordered by dataset, learner, split; then the
    /// whole-training units, ordered by dataset and learner.
    pub units: Vec<Unit>,
    /// The measures computed on every unit's predictions, in config order.
    pub measures: Vec<Measure>,
    /// The tests over folds between every two learners, in config order.
    pub fold_tests: Vec<FoldTest>,
    /// The tests on the fixed test set, in config order.
    pub test_set_tests: Vec<TestSetTest>,
    /// Each unit's cache key, once computed (see [`UnitKeys`]).
    pub unit_keys: UnitKeys,
    /// The tuning of the plan's tuned learners, if any learner has a `tune` key.
    pub tuning: Option<Tuning>,
    /// The bytes the states a dataset's units share (k-NN's neighbour lists, sorted columns)
    /// may take at once; 0 builds none (every unit computes alone, with the same outputs).
    pub shared_memory: usize,
}

/// The memory the shared states of a run may take at once unless the engine is told otherwise
/// (`Engine::with_shared_memory`).
pub const DEFAULT_SHARED_MEMORY: usize = 1 << 30;

/// The cache keys of a plan's units, each computed once: a key hashes the unit's row numbers
/// (8 MB at a million rows, about 10 ms), and a run needs a unit's key when it looks up, writes
/// and reads back the unit's entry, up to eight times.
#[derive(Default)]
pub struct UnitKeys(std::sync::Mutex<std::collections::HashMap<Unit, [u8; 32]>>);

impl UnitKeys {
    /// The key of `unit`, computed by `compute` the first time it is asked for.
    pub fn get_or(&self, unit: Unit, compute: impl FnOnce() -> [u8; 32]) -> [u8; 32] {
        let known = self.0.lock().map(|keys| keys.get(&unit).copied());
        if let Ok(Some(key)) = known {
            return key;
        }
        let key = compute();
        if let Ok(mut keys) = self.0.lock() {
            keys.insert(unit, key);
        }
        key
    }
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

/// Loads one dataset, applies its transforms and makes its splits; the slow transform's result
/// is kept in, and read from, the `cache` folder when one is given
/// ([`crate::plan::transform_cache`]).
pub fn prepare_dataset(
    request: &DatasetRequest,
    catalog: Option<&Catalog>,
    (protocol, measures): (&dyn Protocol, &[Measure]),
    experiment_seed: u64,
    limits: &crate::plan::bounds::Limits,
    cache: Option<&std::path::Path>,
) -> Result<PreparedDataset> {
    let name = request.name.clone();
    let (loaded, report, task) = load_request(request, catalog)?;
    let transforms = &request.transforms;
    if task.is_some() && protocol.takes_given_splits() {
        openml_tasks::check_transforms(&name, transforms)?;
    }
    let mut notes = request.notes.clone();
    let mut dataset = loaded.with_name(name.clone());
    if transforms.two_most_confused && dataset.num_classes() > 2 {
        let (reduced, record) =
            crate::plan::transform_cache::reduce_to_most_confused(&dataset, cache)
                .map_err(|source| transform_failed(&name, "two_most_confused", source))?;
        notes.push(format!("two most confused classes: {}", record.reason));
        dataset = reduced;
    }
    let (mut dataset, positive) = binary_task((&name, dataset), transforms, &mut notes)?;
    if let Some(binary) = measures.iter().find(|m| m.needs_binary_task()) {
        if positive.is_none() {
            bail!(
                "dataset '{name}' has {} classes, but the measure '{}' needs a binary task: set \
                 two_most_confused, or positive_class with one_vs_rest",
                dataset.num_classes(),
                binary.name()
            );
        }
    }
    if let Some(size) = transforms.subsample {
        dataset = subsample((&name, &dataset), size, experiment_seed, &mut notes)?;
    }
    crate::plan::bounds::check_splits(&name, dataset.len(), protocol, limits)?;
    let plan = match (&task, protocol.takes_given_splits()) {
        (Some(task), true) => openml_tasks::task_plan(&name, task, dataset.len(), experiment_seed)?,
        (None, true) => return Err(openml_tasks::not_a_task(&name)),
        (_, false) => protocol
            .plan(&dataset, experiment_seed)
            .map_err(|source| Error::Splits {
                dataset: name.clone(),
                source: Box::new(source),
            })?,
    };
    let content_hash = dataset.content_hash();
    let whole_training = whole_training_split(&plan);
    Ok(PreparedDataset {
        name,
        load_notices: report
            .notices
            .iter()
            .map(|notice| notice.sentence(Some(&request.source)))
            .collect(),
        transforms: transforms.clone(),
        dataset,
        content_hash,
        notes,
        positive,
        plan,
        whole_training,
        inner_splits: Vec::new(),
        openml_task: task,
    })
}

/// Reads the dataset of `request`: a shipped name, a file of one's own, or an OpenML task's
/// dataset (with the task).
fn load_request(
    request: &DatasetRequest,
    catalog: Option<&Catalog>,
) -> Result<(Dataset, data::LoadReport, Option<Arc<openml::Task>>)> {
    if let Some(source) = &request.openml {
        let (dataset, task) = openml_tasks::load_task(request, source)?;
        return Ok((dataset, data::LoadReport::default(), Some(task)));
    }
    let (loaded, report) = match catalog {
        Some(catalog) => catalog.resolve_with_report(&request.source, &request.options),
        None if std::path::Path::new(&request.source).is_file() => {
            data::load_with_report(&request.source, &request.options)
        }
        None => data::catalog::resolve(&request.source).map(|d| (d, data::LoadReport::default())),
    }
    .map_err(|source| Error::LoadDataset {
        dataset: request.source.clone(),
        source: Box::new(source),
    })?;
    Ok((loaded, report, None))
}

/// A transform of the config that could not be applied to dataset `name`.
fn transform_failed(name: &str, transform: &'static str, source: data::DataError) -> Error {
    Error::Transform {
        dataset: name.to_string(),
        transform,
        source: Box::new(source),
    }
}

/// The dataset `name` as a two-class task with its positive class (the second), when it has two
/// classes or the transforms ask for one (`positive_class`, `one_vs_rest`); otherwise as it is,
/// without a positive class. What was chosen is added to `notes`.
fn binary_task(
    (name, dataset): (&str, Dataset),
    transforms: &Transforms,
    notes: &mut Vec<String>,
) -> Result<(Dataset, Option<usize>)> {
    let classes = dataset.num_classes();
    let wants_binary = transforms.positive_class.is_some() || transforms.one_vs_rest;
    if classes != 2 && !wants_binary {
        return Ok((dataset, None));
    }
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
    let (binary, record) = transform::into_positive(dataset, &choice)
        .map_err(|source| transform_failed(name, "positive_class", source))?;
    notes.push(format!(
        "positive class '{}' against '{}' ({})",
        record.positive, record.negative, record.reason
    ));
    Ok((binary, Some(1)))
}

/// A stratified subsample of `size` rows of the dataset `name`, seeded from the experiment seed
/// and that name; what was taken of each class is added to `notes`.
fn subsample(
    (name, dataset): (&str, &Dataset),
    size: usize,
    experiment_seed: u64,
    notes: &mut Vec<String>,
) -> Result<Dataset> {
    let seed = seeds::derive_seed_from_label(experiment_seed, &format!("subsample/{name}"));
    let (sample, record) = transform::stratified_subsample(dataset, size, seed)
        .map_err(|source| transform_failed(name, "subsample", source))?;
    let per_class: Vec<String> = record
        .per_class
        .iter()
        .map(|(class, available, taken)| format!("{class} {taken} of {available}"))
        .collect();
    notes.push(format!(
        "stratified subsample of {size} rows ({})",
        per_class.join(", ")
    ));
    Ok(sample)
}

impl Plan {
    /// The plan of prepared datasets and learners: every learner on every split.
    pub fn new(datasets: Vec<PreparedDataset>, learners: Vec<ConfiguredLearner>) -> Plan {
        let mut units = Vec::new();
        for (dataset_index, dataset) in datasets.iter().enumerate() {
            for learner in 0..learners.len() {
                for split in 0..dataset.plan.splits.len() {
                    units.push(Unit::on_split(dataset_index, learner, split));
                }
            }
        }
        Plan {
            datasets,
            learners,
            units,
            measures: Vec::new(),
            fold_tests: Vec::new(),
            test_set_tests: Vec::new(),
            unit_keys: UnitKeys::default(),
            tuning: None,
            shared_memory: DEFAULT_SHARED_MEMORY,
        }
    }

    /// Adds the whole-training units of these (dataset, learner) pairs (once each, after the
    /// split units, ordered by dataset and learner), leaving out datasets whose protocol has no
    /// fixed test set.
    pub fn add_whole_training(&mut self, pairs: impl IntoIterator<Item = (usize, usize)>) {
        let first = self.units.len() - self.whole_training_units().count();
        let mut wanted: Vec<Unit> = pairs
            .into_iter()
            .filter(|&(dataset, _)| self.datasets[dataset].whole_training.is_some())
            .map(|(dataset, learner)| Unit::on_whole_training(dataset, learner))
            .chain(self.units.drain(first..))
            .collect();
        wanted.sort_by_key(|unit| (unit.dataset, unit.learner));
        wanted.dedup();
        self.units.extend(wanted);
    }

    /// The whole-training units, with their positions in `units` (they come last).
    pub fn whole_training_units(&self) -> impl Iterator<Item = (usize, Unit)> + '_ {
        let first = self
            .units
            .iter()
            .rposition(|unit| unit.training != Training::Whole)
            .map_or(0, |last| last + 1);
        (first..self.units.len()).map(move |position| (position, self.units[position]))
    }

    /// The position in `units` of the whole-training unit of (`dataset`, `learner`), if planned.
    pub fn whole_training_unit(&self, dataset: usize, learner: usize) -> Option<usize> {
        let wanted = Unit::on_whole_training(dataset, learner);
        self.whole_training_units()
            .find(|&(_, unit)| unit == wanted)
            .map(|(position, _)| position)
    }

    /// The seed a unit's learner gets: from the dataset's plan seed, the learner's kind and
    /// parameters and the split's identity, so it depends neither on the order of the config,
    /// nor on display names, nor on threads.
    pub fn unit_seed(&self, unit: Unit) -> u64 {
        let dataset = &self.datasets[unit.dataset];
        let learner_seed = seeds::derive_seed_from_label(
            dataset.plan.seed,
            &self.learner_of(unit).learner.describe(),
        );
        let outer = |index: usize| {
            if dataset.is_whole(index) {
                return WHOLE_TRAINING_IDENTITY;
            }
            let split = &dataset.plan.splits[index];
            [split.repetition as u64, split.fold as u64]
        };
        match unit.training {
            Training::Split(index)
            | Training::Inner {
                split: index,
                inner: None,
                ..
            } => seeds::derive_seed(learner_seed, &outer(index)),
            Training::Inner {
                split,
                inner: Some(inner),
                ..
            } => {
                let [repetition, fold] = outer(split);
                seeds::derive_seed(learner_seed, &[repetition, fold, inner as u64 + 1])
            }
            Training::Whole => seeds::derive_seed(learner_seed, &WHOLE_TRAINING_IDENTITY),
        }
    }

    /// The learner a unit fits: the configured learner, or for a tuned learner the candidate
    /// of an inner unit, or the chosen candidate of an outer unit once the inner units have run.
    pub fn learner_of(&self, unit: Unit) -> &ConfiguredLearner {
        let configured = &self.learners[unit.learner];
        let Some(tuning) = &self.tuning else {
            return configured;
        };
        let Some(tuned) = &tuning.learners[unit.learner] else {
            return configured;
        };
        let candidate = match unit.training {
            Training::Inner { candidate, .. } => Some(candidate),
            Training::Split(split) => tuning
                .choices
                .get(&(unit.dataset, unit.learner, split))
                .copied(),
            Training::Whole => {
                let whole = self.datasets[unit.dataset].plan.splits.len();
                tuning
                    .choices
                    .get(&(unit.dataset, unit.learner, whole))
                    .copied()
            }
        };
        candidate.map_or(configured, |candidate| &tuned.candidates[candidate].learner)
    }

    /// A unit in words: "dataset / learner / repetition R fold F" (or "/ whole training part").
    pub fn unit_words(&self, unit: Unit) -> String {
        let dataset = &self.datasets[unit.dataset];
        let which = match unit.training {
            Training::Split(index) => {
                let split = &dataset.plan.splits[index];
                format!("repetition {} fold {}", split.repetition, split.fold)
            }
            Training::Whole => "whole training part".to_string(),
            Training::Inner {
                split,
                inner,
                candidate,
            } => {
                let fold = inner.map_or("validation".to_string(), |inner| {
                    format!("inner fold {inner}")
                });
                let outer = if dataset.is_whole(split) {
                    "whole training part".to_string()
                } else {
                    let outer = &dataset.plan.splits[split];
                    format!("repetition {} fold {}", outer.repetition, outer.fold)
                };
                format!("{outer} {fold} configuration {candidate}")
            }
        };
        format!(
            "{} / {} / {which}",
            dataset.name, self.learners[unit.learner].name
        )
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
                    Error::config(format!(
                        "learner '{}' cannot take dataset '{}': {problem}",
                        learner.name, dataset.name
                    ))
                })?;
        }
    }
    Ok(())
}
