//! One concrete train/(validation)/test split of a dataset's instance indices.

use serde::ser::{SerializeSeq, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::strategy::check_instances;
use crate::train::{Train, TrainRows};
use crate::{CvError, Strategy};

/// One split of instance indices (row numbers of the dataset), made once and shared by every
/// learner. Index lists are sorted ascending and pairwise disjoint. Serialised with every part
/// listed (the training rows too), and equal to another split with the same rows in each part.
#[derive(Clone, Debug, Deserialize)]
#[serde(from = "ListedSplit")]
pub struct Split {
    /// Repetition number, from 0.
    pub repetition: usize,
    /// Fold (round) number within the repetition, from 0.
    pub fold: usize,
    /// The rows to train on: read them with [`Split::train_rows`] and [`Split::train_len`].
    pub train: Train,
    /// Indices to tune on (e.g. to pick k of k-NN), for protocols that have them.
    pub validation: Option<Vec<u32>>,
    /// Indices to test on.
    pub test: Vec<u32>,
}

impl Split {
    /// The rows to train on, ascending.
    pub fn train_rows(&self) -> TrainRows<'_> {
        let validation = self.validation.as_deref().unwrap_or(&[]);
        TrainRows::new(&self.train, [validation, &self.test])
    }

    /// The number of rows to train on.
    pub fn train_len(&self) -> usize {
        self.train_rows().len()
    }

    /// Number of indices in train, validation and test together.
    pub fn len(&self) -> usize {
        self.train_len() + self.validation.as_ref().map_or(0, Vec::len) + self.test.len()
    }

    /// True if the split holds no index at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True if no index appears in two of the parts (or twice in one part).
    pub fn is_disjoint(&self) -> bool {
        let mut seen = std::collections::HashSet::with_capacity(self.len());
        let validation = self.validation.as_deref().unwrap_or(&[]);
        self.train_rows()
            .chain(validation.iter().copied())
            .chain(self.test.iter().copied())
            .all(|index| seen.insert(index))
    }
}

impl PartialEq for Split {
    /// The same repetition, fold and rows in each part, however the training rows are held.
    fn eq(&self, other: &Split) -> bool {
        self.repetition == other.repetition
            && self.fold == other.fold
            && self.validation == other.validation
            && self.test == other.test
            && self.train_rows().eq(other.train_rows())
    }
}

impl Eq for Split {}

/// Serialised as `{ repetition, fold, train, validation, test }`, every part a list.
impl Serialize for Split {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut split = serializer.serialize_struct("Split", 5)?;
        split.serialize_field("repetition", &self.repetition)?;
        split.serialize_field("fold", &self.fold)?;
        split.serialize_field("train", &ListedTrain(self))?;
        split.serialize_field("validation", &self.validation)?;
        split.serialize_field("test", &self.test)?;
        split.end()
    }
}

/// A split's training rows, serialised as a list.
struct ListedTrain<'a>(&'a Split);

impl Serialize for ListedTrain<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut rows = serializer.serialize_seq(Some(self.0.train_len()))?;
        for row in self.0.train_rows() {
            rows.serialize_element(&row)?;
        }
        rows.end()
    }
}

/// A split as serialised, every part listed.
#[derive(Deserialize)]
struct ListedSplit {
    repetition: usize,
    fold: usize,
    train: Vec<u32>,
    validation: Option<Vec<u32>>,
    test: Vec<u32>,
}

impl From<ListedSplit> for Split {
    fn from(split: ListedSplit) -> Split {
        Split {
            repetition: split.repetition,
            fold: split.fold,
            train: Train::Listed(split.train),
            validation: split.validation,
            test: split.test,
        }
    }
}

/// A split part's row numbers as `usize`, the type `data::Dataset::subset` and
/// `data::Features` take: widen one part at a time, when a unit needs it.
pub fn row_numbers(indices: &[u32]) -> Vec<usize> {
    indices.iter().map(|&index| index as usize).collect()
}

/// The seed of a dataset's resampling plan: derived from the experiment seed and the dataset's
/// name (`seeds::derive_seed_from_label`), so each dataset gets its own stream and adding a
/// dataset does not change the splits of the others.
pub fn dataset_seed(experiment_seed: u64, dataset_name: &str) -> u64 {
    seeds::derive_seed_from_label(experiment_seed, dataset_name)
}

/// All splits of one dataset under one strategy, with what made them: made once, saved (serde)
/// and handed to every learner, so that every comparison is paired.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SplitPlan {
    /// The dataset's name.
    pub dataset: String,
    /// Number of instances of the dataset.
    pub instances: usize,
    /// The strategy that made the splits.
    pub strategy: Strategy,
    /// The seed handed to [`Strategy::splits`] (see [`dataset_seed`]).
    pub seed: u64,
    /// The splits, ordered by repetition then fold.
    pub splits: Vec<Split>,
}

impl SplitPlan {
    /// Makes the plan of a dataset (given by name and class column) with the seed
    /// `dataset_seed(experiment_seed, dataset_name)`.
    pub fn new(
        dataset_name: &str,
        classes: &[u32],
        strategy: &Strategy,
        experiment_seed: u64,
    ) -> Result<SplitPlan, CvError> {
        let seed = dataset_seed(experiment_seed, dataset_name);
        Ok(SplitPlan {
            dataset: dataset_name.to_string(),
            instances: classes.len(),
            strategy: strategy.clone(),
            seed,
            splits: strategy.splits(classes, seed)?,
        })
    }

    /// Makes the plan of a [`data::Dataset`] (its name and class column).
    pub fn for_dataset(
        dataset: &data::Dataset,
        strategy: &Strategy,
        experiment_seed: u64,
    ) -> Result<SplitPlan, CvError> {
        SplitPlan::new(dataset.name(), dataset.classes(), strategy, experiment_seed)
    }

    /// The plan of splits that come with the data ([`Strategy::Given`], an OpenML task's),
    /// checked as [`SplitPlan::check`] checks a saved plan; the seed (which the units' seeds
    /// derive from) is `dataset_seed(experiment_seed, dataset_name)` as for a made plan.
    pub fn given(
        dataset_name: &str,
        instances: usize,
        splits: Vec<Split>,
        experiment_seed: u64,
    ) -> Result<SplitPlan, CvError> {
        check_instances(instances)?;
        let plan = SplitPlan {
            dataset: dataset_name.to_string(),
            instances,
            strategy: Strategy::Given,
            seed: dataset_seed(experiment_seed, dataset_name),
            splits,
        };
        plan.check()?;
        Ok(plan)
    }

    /// Checks a plan read back from a file: every index below `instances`, the parts of each
    /// split disjoint, every test (and validation) part non-empty.
    pub fn check(&self) -> Result<(), CvError> {
        let invalid = |split: &Split, problem: &str| CvError::InvalidPlan {
            dataset: self.dataset.clone(),
            repetition: split.repetition,
            fold: split.fold,
            problem: problem.to_string(),
        };
        for split in &self.splits {
            let validation = split.validation.as_deref().unwrap_or(&[]);
            let mut all = split
                .train_rows()
                .chain(validation.iter().copied())
                .chain(split.test.iter().copied());
            if all.any(|index| index as usize >= self.instances) {
                return Err(invalid(
                    split,
                    &format!("an index is not below the {} instances", self.instances),
                ));
            }
            if !split.is_disjoint() {
                return Err(invalid(split, "train, validation and test overlap"));
            }
            if split.test.is_empty() || split.validation.as_ref().is_some_and(Vec::is_empty) {
                return Err(invalid(split, "an empty test or validation part"));
            }
        }
        Ok(())
    }
}
