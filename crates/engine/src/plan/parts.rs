//! The atoms of a plan: a configured learner, what a unit trains on, and a unit (dataset x
//! learner x training), which the plan's units, its tuning and every later stage name.

use learners::Learner;

/// One configured learner.
pub struct ConfiguredLearner {
    /// Display name (the config's `name`, or the kind).
    pub name: String,
    /// The kind and parameters as configured (without `name`).
    pub table: toml::Table,
    /// The learner itself.
    pub learner: Box<dyn Learner>,
    /// The learner's `tune` key as written (a table of spaces, or "declared"), if tuned.
    pub tune: Option<toml::Value>,
}

/// What a unit trains on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Training {
    /// One of the protocol's splits (an index into the dataset's splits): its training rows,
    /// scored on its test (and validation) rows.
    Split(usize),
    /// The whole training part of a protocol with one fixed test set, scored on that test set
    /// (the models of the tests on the test set, and of Aslan et al.'s Figures 6-7).
    Whole,
    /// A tuned learner's candidate on an inner fold of one of the protocol's splits (trained on
    /// the other inner folds, scored on its own), or with `inner` none on the split itself
    /// (scored on its validation rows): see [`crate::plan::tuning`].
    Inner {
        /// The outer split (an index into the dataset's splits).
        split: usize,
        /// The inner fold, or none for the outer split's own validation rows.
        inner: Option<usize>,
        /// The candidate (an index into the tuned learner's candidates).
        candidate: usize,
    },
}

/// One unit of work: fit one learner on one split (or the whole training part) of one dataset
/// and predict its held-out rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Index into the plan's datasets.
    pub dataset: usize,
    /// Index into the plan's learners.
    pub learner: usize,
    /// What it trains on.
    pub training: Training,
}

impl Unit {
    /// The unit of `learner` on split `split` of `dataset`.
    pub fn on_split(dataset: usize, learner: usize, split: usize) -> Unit {
        Unit {
            dataset,
            learner,
            training: Training::Split(split),
        }
    }

    /// The unit of `learner` on the whole training part of `dataset`.
    pub fn on_whole_training(dataset: usize, learner: usize) -> Unit {
        Unit {
            dataset,
            learner,
            training: Training::Whole,
        }
    }

    /// The index of its split, for a unit on one of the protocol's splits (not for a tuning's
    /// inner unit: its predictions are no fold's result).
    pub fn split(&self) -> Option<usize> {
        match self.training {
            Training::Split(split) => Some(split),
            Training::Whole | Training::Inner { .. } => None,
        }
    }

    /// The outer unit a tuning's inner unit scores a candidate for (none for any other unit);
    /// `splits` is the number of the dataset's splits (an inner unit's outer index past them
    /// names the whole training part).
    pub fn outer(&self, splits: usize) -> Option<Unit> {
        match self.training {
            Training::Inner { split, .. } if split == splits => {
                Some(Unit::on_whole_training(self.dataset, self.learner))
            }
            Training::Inner { split, .. } => {
                Some(Unit::on_split(self.dataset, self.learner, split))
            }
            Training::Split(_) | Training::Whole => None,
        }
    }
}
