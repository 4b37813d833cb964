//! One concrete train/(validation)/test split of a dataset's instance indices.

use serde::{Deserialize, Serialize};

/// One split of instance indices (row numbers of the dataset), made once and shared by every
/// learner. Index lists are sorted ascending and pairwise disjoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    /// Repetition number, from 0.
    pub repetition: usize,
    /// Fold (round) number within the repetition, from 0.
    pub fold: usize,
    /// Indices to train on.
    pub train: Vec<usize>,
    /// Indices to tune on (e.g. to pick k of k-NN), for protocols that have them.
    pub validation: Option<Vec<usize>>,
    /// Indices to test on.
    pub test: Vec<usize>,
}

impl Split {
    /// Number of indices in train, validation and test together.
    pub fn len(&self) -> usize {
        self.train.len() + self.validation.as_ref().map_or(0, Vec::len) + self.test.len()
    }

    /// True if the split holds no index at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True if no index appears in two of the parts (or twice in one part).
    pub fn is_disjoint(&self) -> bool {
        let mut seen = std::collections::HashSet::with_capacity(self.len());
        let validation = self.validation.as_deref().unwrap_or(&[]);
        self.train
            .iter()
            .chain(validation)
            .chain(&self.test)
            .all(|&index| seen.insert(index))
    }
}
