//! Neighbour lists shared by every k-NN unit of a dataset: each row's nearest rows of the whole
//! dataset under the dataset-wide scaling, computed once. A unit's training rows are a subset
//! of the dataset, so its scaling widens no attribute's differences less than the dataset-wide
//! one ([`data::distance::Distance::scales_at_least`]): a row's distance in the unit is at
//! least its distance in the lists. A unit therefore finds a query's k nearest training rows
//! by walking the query's list in order, computing each training row's own distance exactly as
//! its search would, and stopping once the next listed distance exceeds its k-th: the same
//! neighbours, the same distances to the bit, with a handful of distances instead of a search.
//! A query whose list runs out first is searched as before.
//!
//! Nominal attributes add 0 or 1 whatever the scaling (a missing value 1), so they keep the
//! bound. A numeric attribute missing in both rows adds 1 everywhere too; missing in one row,
//! it adds `max(v, 1 - v)^2` for the other's value `v` scaled by the unit, which depends on the
//! unit's range (a narrower one can bring `v` nearer 1/2) but is never below 1/4. Lists of a
//! dataset with missing numeric values therefore order the rows by the lower bound that counts
//! such a difference 1/4 ([`bound_term`]), computed row by row against every row.

use std::sync::Arc;

use data::Dataset;

use super::distance::Scaling;
use super::lazy::LazyIndex;
use super::memory::{FittedSearch, Memory};
use super::search::{Neighbour, NeighbourIndex, SearchMethod};

/// Rows kept in each list: enough for the largest usual k (21) plus ties among the rows a unit
/// trains on (two thirds of the dataset under Aslan's protocol, three fifths in inner folds).
pub(crate) const LIST_LENGTH: usize = 64;

/// The largest k the lists answer (larger ones search as before): a third of a list.
const LARGEST_K: usize = LIST_LENGTH / 3;

/// Bytes a list entry takes (a row number and a squared distance).
const ENTRY_BYTES: usize = 12;

/// Most rows for which the lists of a dataset with missing numeric values (every row's bound
/// from every row) are built.
const BOUNDS_MAX_ROWS: usize = 50_000;

/// How many rows the units must predict, per row of the dataset, for the lists to pay: building
/// them is a search of every row among all rows with a longer list, about as much work as units
/// predicting three times the dataset's rows among two thirds of it.
pub(crate) const PAYING_PREDICTIONS_PER_ROW: usize = 3;

/// Every row's nearest rows of a dataset, nearest first (ties by row number), with their
/// squared distances under the scaling fitted on every row; and what they remember for the
/// units that come back to the same rows (`memory.rs`).
pub struct NeighbourLists {
    rows: usize,
    length: usize,
    neighbours: Vec<u32>,
    distances: Vec<f64>,
    scaling: Scaling,
    memory: Memory,
}

impl NeighbourLists {
    /// The bytes the lists of a dataset of `rows` rows take.
    pub(crate) fn bytes(rows: usize) -> usize {
        rows.saturating_mul(LIST_LENGTH.min(rows))
            .saturating_mul(ENTRY_BYTES)
    }

    /// The lists of every row of `dataset`, remembering at most `reserve` bytes of walks and
    /// fitted searches; none with fewer than two rows, an infinite value, missing values in
    /// all-numeric data (whose units' searches do not all give a pair of rows the same
    /// distance, [`NeighbourIndex::serves_ordered`]), or all-numeric data searched by levels.
    pub(crate) fn build(dataset: &Dataset, reserve: usize) -> Option<NeighbourLists> {
        let rows = dataset.len();
        if rows < 2 || rows > u32::MAX as usize {
            return None;
        }
        let all: Vec<usize> = (0..rows).collect();
        let view = dataset.subset(all.clone());
        let scaling = Scaling::fit(&view, &all);
        if scaling.len() == 0 {
            return None;
        }
        let dimensions = scaling.len();
        let scaled = scaling.scale_view(&view, &all);
        if scaled.iter().any(|value| value.is_infinite()) {
            return None;
        }
        let length = LIST_LENGTH.min(rows);
        let numeric_missing = scaled
            .chunks_exact(dimensions)
            .any(|row| (0..dimensions).any(|a| row[a].is_nan() && !scaling.is_nominal(a)));
        let found = if numeric_missing {
            if scaling.all_numeric() || rows > BOUNDS_MAX_ROWS {
                return None;
            }
            nearest_by_bounds(&scaling, &scaled, rows, length)
        } else {
            let index =
                NeighbourIndex::new(scaling.clone(), scaled.clone(), rows, SearchMethod::Auto);
            if !index.serves_ordered() || (scaling.all_numeric() && index.searches_by_levels()) {
                // The units' indexes search as this one does: the lists would not serve them,
                // and building them would be wasted. All-numeric data searched by levels (many
                // binary attributes: sylva, ada) has none either: its lists took most of the
                // lists' building time when they were built (docs/performance.md), and whether
                // they pay now that they would serve is not measured.
                return None;
            }
            index.nearest_many(&scaled, rows, length)
        };
        let mut neighbours = Vec::with_capacity(rows * length);
        let mut distances = Vec::with_capacity(rows * length);
        for list in &found {
            for neighbour in list.iter().take(length) {
                neighbours.push(neighbour.slot);
                distances.push(neighbour.squared_distance);
            }
        }
        Some(NeighbourLists {
            rows,
            length,
            neighbours,
            distances,
            scaling,
            memory: Memory::new(reserve),
        })
    }

    /// The bytes of the walks and fitted searches the lists remember now (for checks).
    pub fn remembered(&self) -> usize {
        self.memory.used()
    }

    /// The search fitted on the training rows `rows` (the dataset row of every slot, in a
    /// dataset of `dataset_rows` rows) by `method`: the one remembered, else one over the
    /// points `fit` gives (which the lists serve unless another dataset's, or a scaling that
    /// widens some attribute less, or an index whose searches differ in distance,
    /// [`NeighbourIndex::serves_ordered`]).
    pub(crate) fn fitted_search(
        &self,
        (rows, dataset_rows): (Arc<[u32]>, usize),
        method: SearchMethod,
        fit: impl FnOnce() -> NeighbourIndex,
    ) -> Arc<FittedSearch> {
        if dataset_rows != self.rows {
            let points = Arc::new(fit());
            let slot_of_row = None;
            return Arc::new(FittedSearch {
                rows,
                method,
                points,
                slot_of_row,
            });
        }
        self.memory.search(rows, method, |rows| {
            let points = fit();
            let usable = points.serves_ordered() && points.scaling().scales_at_least(&self.scaling);
            let slot_of_row = usable.then(|| {
                let mut slot_of_row = vec![u32::MAX; self.rows];
                for (slot, &row) in rows.iter().enumerate() {
                    slot_of_row[row as usize] = slot as u32;
                }
                slot_of_row
            });
            FittedSearch {
                rows,
                method,
                points: Arc::new(points),
                slot_of_row,
            }
        })
    }

    /// Row `row`'s list: its nearest rows and their squared distances.
    fn list(&self, row: usize) -> (&[u32], &[f64]) {
        let range = row * self.length..(row + 1) * self.length;
        (&self.neighbours[range.clone()], &self.distances[range])
    }
}

/// The lower bound, over every scaling that [`Scaling::scales_at_least`] the dataset-wide one,
/// of the difference of two values of an attribute scaled dataset-wide (`NaN`: missing): the
/// difference itself but for a numeric value missing in one row only, which counts 1/2.
fn bound_term(nominal: bool, a: f64, b: f64) -> f64 {
    match (a.is_nan(), b.is_nan()) {
        (false, false) if nominal => f64::from(u8::from(a != b)),
        (false, false) => a - b,
        (true, true) => 1.0,
        _ if nominal => 1.0,
        _ => 0.5,
    }
}

/// The `length` rows of smallest bound (sums of squared [`bound_term`]s in attribute order)
/// from each of `rows` scaled rows (row-major), smallest first, ties by row number: every pair
/// of rows, each sum abandoned once it exceeds the list's last bound.
fn nearest_by_bounds(
    scaling: &Scaling,
    scaled: &[f64],
    rows: usize,
    length: usize,
) -> Vec<Vec<Neighbour>> {
    let dimensions = scaling.len();
    let nominal: Vec<bool> = (0..dimensions).map(|a| scaling.is_nominal(a)).collect();
    let row_values = |row: usize| &scaled[row * dimensions..(row + 1) * dimensions];
    (0..rows)
        .map(|row| {
            let query = row_values(row);
            let mut best: Vec<Neighbour> = Vec::with_capacity(length + 1);
            for other in 0..rows {
                let limit = if best.len() < length {
                    f64::INFINITY
                } else {
                    best[length - 1].squared_distance
                };
                let mut sum = 0.0;
                for ((&a, &b), &nominal) in query.iter().zip(row_values(other)).zip(&nominal) {
                    let term = bound_term(nominal, a, b);
                    sum += term * term;
                    if sum >= limit {
                        break;
                    }
                }
                if sum < limit {
                    // Rows come in increasing order: a later one at an equal bound stays after.
                    let at = best.partition_point(|n| n.squared_distance <= sum);
                    best.insert(
                        at,
                        Neighbour {
                            squared_distance: sum,
                            slot: other as u32,
                        },
                    );
                    best.truncate(length);
                }
            }
            best
        })
        .collect()
}

/// A unit's view of the lists: where each dataset row sits among its training rows.
pub(crate) struct SharedSearch {
    lists: Arc<NeighbourLists>,
    fitted: Arc<FittedSearch>,
}

impl SharedSearch {
    /// The search of a unit whose fitted search is `fitted`; none when the lists cannot serve
    /// it ([`NeighbourLists::fitted_search`]).
    pub(crate) fn new(
        lists: &Arc<NeighbourLists>,
        fitted: &Arc<FittedSearch>,
    ) -> Option<SharedSearch> {
        fitted.slot_of_row.as_ref()?;
        Some(SharedSearch {
            lists: Arc::clone(lists),
            fitted: Arc::clone(fitted),
        })
    }

    /// [`NeighbourIndex::nearest_many`] for scaled queries that are the dataset rows `rows`:
    /// from the lists over the points alone where they suffice, the others searched by the
    /// index built from them (built only then).
    pub(crate) fn nearest_many(
        &self,
        index: &LazyIndex,
        (queries, rows): (&[f64], &[usize]),
        k: usize,
    ) -> Vec<Vec<Neighbour>> {
        let (Some(points), Some(slot_of_row)) = (index.points(), &self.fitted.slot_of_row) else {
            return index.full().nearest_many(queries, rows.len(), k);
        };
        if k > LARGEST_K {
            return index.full().nearest_many(queries, rows.len(), k);
        }
        let training = (&self.fitted.rows, rows);
        self.lists.memory.walk(training, (k, LARGEST_K), |k| {
            self.walk((index, points, slot_of_row), (queries, rows), k)
        })
    }

    /// The neighbours of the queries (the dataset rows `rows`) from the lists over `points`
    /// where they suffice, the others searched by `index` built in full.
    fn walk(
        &self,
        (index, points, slot_of_row): (&LazyIndex, &NeighbourIndex, &[u32]),
        (queries, rows): (&[f64], &[usize]),
        k: usize,
    ) -> Vec<Vec<Neighbour>> {
        let dimensions = index.dimensions();
        let exhaustive = self.lists.length == self.lists.rows;
        let mut results = vec![Vec::new(); rows.len()];
        let mut missed = Vec::new();
        for (number, &row) in rows.iter().enumerate() {
            let query = &queries[number * dimensions..(number + 1) * dimensions];
            let (neighbours, distances) = self.lists.list(row);
            let candidates = neighbours
                .iter()
                .zip(distances)
                .filter_map(|(&other, &bound)| {
                    let slot = slot_of_row[other as usize];
                    (slot != u32::MAX).then_some((slot as usize, bound))
                });
            let finite = query.iter().all(|value| !value.is_infinite());
            let found = finite
                && points.nearest_in_order(
                    query,
                    k,
                    (candidates, exhaustive),
                    &mut results[number],
                );
            if !found {
                missed.push(number);
            }
        }
        if !missed.is_empty() {
            let mut rest = Vec::with_capacity(missed.len() * dimensions);
            for &number in &missed {
                rest.extend_from_slice(&queries[number * dimensions..(number + 1) * dimensions]);
            }
            let found = index.full().nearest_many(&rest, missed.len(), k);
            for (number, list) in missed.into_iter().zip(found) {
                results[number] = list;
            }
        }
        results
    }
}
