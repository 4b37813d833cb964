//! Numeric columns sorted once per dataset, shared by C4.5's and naive Bayes' units of that
//! dataset (`Learner::build_shared`): a unit's known values in sorted order are the dataset's
//! order filtered to its training rows, one pass instead of a sort. Values come as the integer
//! keys of [`crate::total_order`], ordered as `f64::total_cmp` orders the values; equal keys
//! in dataset-row order. The learners read the keys exactly as their own sort would give them
//! (equal keys are equal values to the bit), so their outputs do not change.

use std::sync::Arc;

use data::{AttributeKind, ColumnOf, Dataset, View};

use crate::model::{ShareHint, SharedState};
use crate::total_order;

/// The key every learner reading sorted columns shares its state under.
pub(crate) const SHARED_KEY: &str = "sorted numeric columns r1";

/// Bytes an entry takes (a key and a row number).
const ENTRY_BYTES: usize = 12;

/// Datasets of this many rows or more sort alone: filtering a shared order reads each unit's
/// column at random, which no longer pays once a column outgrows the caches (one pair each,
/// sharing on against off: `big-100k.toml` no difference; `big-1m.toml` 240 MB more memory and
/// 17% more CPU).
const MAX_SHARED_ROWS: usize = 100_000;

/// One numeric attribute's known values, sorted: their keys and their dataset rows.
struct SortedColumn {
    keys: Vec<u64>,
    rows: Vec<u32>,
}

/// Every numeric attribute of a dataset sorted (`None` for nominal attributes).
pub struct SortedColumns {
    rows: usize,
    columns: Vec<Option<SortedColumn>>,
}

/// Where each dataset row sits in a unit's training view (`u32::MAX`: not a training row).
pub(crate) struct Positions(Vec<u32>);

impl SortedColumns {
    /// The shared state for `dataset`'s units, when at least two units would read it, an
    /// attribute is numeric, the dataset has fewer than [`MAX_SHARED_ROWS`] rows and the entries
    /// fit in `budget` bytes.
    pub(crate) fn shared(dataset: &Dataset, hint: ShareHint, budget: usize) -> Option<SharedState> {
        let schema = dataset.schema();
        let numeric = schema
            .attributes
            .iter()
            .filter(|attribute| matches!(attribute.kind, AttributeKind::Numeric))
            .count();
        let bytes = numeric
            .saturating_mul(dataset.len())
            .saturating_mul(ENTRY_BYTES);
        let usable = hint.units >= 2
            && numeric > 0
            && dataset.len() >= 2
            && dataset.len() < MAX_SHARED_ROWS
            && bytes <= budget;
        if !usable {
            return None;
        }
        let columns = SortedColumns::build(dataset);
        Some(SharedState {
            state: Arc::new(columns),
            bytes,
        })
    }

    /// Sorts every numeric attribute of `dataset`.
    pub fn build(dataset: &Dataset) -> SortedColumns {
        let columns = dataset
            .schema()
            .attributes
            .iter()
            .enumerate()
            .map(|(attribute, description)| {
                matches!(description.kind, AttributeKind::Numeric)
                    .then(|| sort_column(dataset.column(attribute)))
            })
            .collect();
        SortedColumns {
            rows: dataset.len(),
            columns,
        }
    }

    /// The state as sorted columns, when it is one.
    pub(crate) fn of(shared: &SharedState) -> Option<Arc<SortedColumns>> {
        Arc::clone(&shared.state).downcast::<SortedColumns>().ok()
    }

    /// The position of each dataset row in `train`; none when `train` is not a view of a
    /// dataset of this size, or holds a row twice (then a sort is needed to place both).
    pub(crate) fn positions(&self, train: &View) -> Option<Positions> {
        if train.dataset_len() != self.rows || train.num_attributes() != self.columns.len() {
            return None;
        }
        let mut positions = vec![u32::MAX; self.rows];
        for (position, &row) in train.rows().iter().enumerate() {
            if positions[row] != u32::MAX {
                return None;
            }
            positions[row] = position as u32;
        }
        Some(Positions(positions))
    }

    /// The known values of numeric attribute `attribute` at the training positions, as
    /// `(key, position)` pairs in key order, each checked against `column` (the training
    /// view's column); none for a nominal attribute or a column that is not this one.
    pub(crate) fn known(
        &self,
        attribute: usize,
        positions: &Positions,
        column: &ColumnOf,
    ) -> Option<Vec<(u64, u32)>> {
        let sorted = self.columns.get(attribute)?.as_ref()?;
        let mut known = Vec::with_capacity(column.len());
        // Each entry is checked against the view's value as it is taken (one pass), and the
        // view's known values counted: together, the view's known values are exactly these.
        let mut checked = true;
        for (&key, &row) in sorted.keys.iter().zip(&sorted.rows) {
            let position = positions.0[row as usize];
            if position != u32::MAX {
                checked &= total_order::key(column.get(position as usize)) == key;
                known.push((key, position));
            }
        }
        (checked && column.iter().filter(|value| !value.is_nan()).count() == known.len())
            .then_some(known)
    }
}

/// The known values of a column as keys in key order, equal keys by row.
fn sort_column(values: &[f64]) -> SortedColumn {
    let mut pairs: Vec<(u64, u32)> = values
        .iter()
        .enumerate()
        .filter(|(_, value)| !value.is_nan())
        .map(|(row, &value)| (total_order::key(value), row as u32))
        .collect();
    pairs.sort_unstable();
    SortedColumn {
        keys: pairs.iter().map(|pair| pair.0).collect(),
        rows: pairs.iter().map(|pair| pair.1).collect(),
    }
}

#[cfg(test)]
mod tests {
    use data::{Attribute, Dataset, Schema};

    use super::SortedColumns;
    use crate::total_order;

    /// Six rows: a numeric column with ties, a missing value and -0 beside 0, and a nominal one.
    fn dataset() -> Dataset {
        let schema = Schema {
            attributes: vec![
                Attribute::numeric("a"),
                Attribute::nominal("b", vec!["x".into(), "y".into()]),
            ],
            class_name: "class".into(),
            class_values: vec!["no".into(), "yes".into()],
        };
        let numeric = vec![3.0, f64::NAN, -0.0, 3.0, 0.0, -2.5];
        let nominal = vec![0.0, 1.0, 1.0, 0.0, 0.0, 1.0];
        Dataset::new(
            "t",
            schema,
            vec![numeric, nominal],
            vec![0, 1, 0, 1, 0, 1],
            None,
        )
        .unwrap()
    }

    #[test]
    fn a_views_known_values_come_in_key_order_with_their_positions() {
        let data = dataset();
        let sorted = SortedColumns::build(&data);
        let train = data.subset(vec![3, 1, 5, 4]);
        let positions = sorted.positions(&train).expect("no row twice");
        let known = sorted
            .known(0, &positions, &train.column_of(0))
            .expect("a numeric attribute");
        let expected: Vec<(u64, u32)> = [(-2.5, 2), (0.0, 3), (3.0, 0)]
            .iter()
            .map(|&(value, position)| (total_order::key(value), position))
            .collect();
        assert_eq!(known, expected);
        assert!(sorted.known(1, &positions, &train.column_of(1)).is_none());
    }

    #[test]
    fn no_positions_for_a_repeated_row_or_another_dataset() {
        let data = dataset();
        let sorted = SortedColumns::build(&data);
        assert!(sorted.positions(&data.subset(vec![0, 2, 0])).is_none());
        let other = Dataset::new(
            "u",
            data.schema().clone(),
            vec![vec![1.0; 3], vec![0.0; 3]],
            vec![0, 1, 0],
            None,
        )
        .unwrap();
        assert!(sorted.positions(&other.subset(vec![0, 1])).is_none());
    }

    #[test]
    fn a_column_that_is_not_the_sorted_one_is_refused() {
        let data = dataset();
        let sorted = SortedColumns::build(&data);
        let mut columns = vec![data.column(0).to_vec(), data.column(1).to_vec()];
        columns[0][4] = 7.0;
        let changed = Dataset::new(
            "t",
            data.schema().clone(),
            columns,
            data.classes().to_vec(),
            None,
        )
        .unwrap();
        let train = changed.subset(vec![0, 4, 5]);
        let positions = sorted.positions(&train).unwrap();
        assert!(sorted.known(0, &positions, &train.column_of(0)).is_none());
    }
}
