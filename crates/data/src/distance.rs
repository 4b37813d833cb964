//! The distance between rows used by nearest-neighbour methods, defined as Weka's `IBk`
//! defines its default (Euclidean, normalised) distance, so that the 1-NN confusion used by
//! [`crate::transform::reduce_to_most_confused`] and the k-NN learner agree:
//!
//! - a numeric value is normalised to `(x - min) / (max - min)` with `min`/`max` over the
//!   present values of the data the distance was fitted on (0 when `max == min` or no value is
//!   present); values outside the fitted range are not clamped;
//! - the difference of two numeric values is the difference of their normalised values; if
//!   one is missing it is `max(v, 1 - v)` for the normalised present value `v`, and 1 if both are;
//! - the difference of two nominal values is 0 when equal, else 1 (also when either is missing);
//! - the distance is the square root of the sum of squared differences (functions here return
//!   the squared distance, which orders neighbours the same way).
//!
//! Sums are always taken over attributes in schema order, so equal inputs give bit-identical
//! distances and ties can be broken by row index.

use crate::dataset::{Dataset, Features, View};

/// Normalisation of one attribute.
#[derive(Clone, Debug, PartialEq)]
enum Scale {
    /// A nominal attribute (0/1 difference).
    Nominal,
    /// A numeric attribute: `(x - min) * inverse_width`, or 0 when `inverse_width` is 0.
    Numeric { min: f64, inverse_width: f64 },
}

/// A fitted distance function: the per-attribute normalisation learned from training rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Distance {
    scales: Vec<Scale>,
}

/// The difference of two normalised values of one attribute (`NaN` = missing).
#[inline]
pub fn normalised_difference(nominal: bool, a: f64, b: f64) -> f64 {
    if nominal {
        if a.is_nan() || b.is_nan() || a != b {
            1.0
        } else {
            0.0
        }
    } else {
        match (a.is_nan(), b.is_nan()) {
            (false, false) => a - b,
            (true, true) => 1.0,
            (true, false) => b.max(1.0 - b),
            (false, true) => a.max(1.0 - a),
        }
    }
}

/// Values [`Distance::normalise_view`] writes together (256 KiB: a block of rows in the level-2
/// cache, long enough runs of each column for the processor to fetch them ahead).
const NORMALISED_TOGETHER: usize = 32_768;

/// The smallest and largest present (not `NaN`) value of `column` at `rows` (infinite, the
/// wrong way round, when none is present), with four running minima and maxima so that no
/// comparison waits for the previous one (the minimum and maximum of a set do not depend on
/// the order it is read in).
fn present_range(column: &[f64], rows: &[usize]) -> (f64, f64) {
    // `f64::min` and `max` return the other argument when one is NaN: a missing value changes
    // nothing.
    let mut min = [f64::INFINITY; 4];
    let mut max = [f64::NEG_INFINITY; 4];
    let mut quads = rows.chunks_exact(4);
    for quad in &mut quads {
        for lane in 0..4 {
            let value = column[quad[lane]];
            min[lane] = min[lane].min(value);
            max[lane] = max[lane].max(value);
        }
    }
    for &row in quads.remainder() {
        min[0] = min[0].min(column[row]);
        max[0] = max[0].max(column[row]);
    }
    let min = min.into_iter().fold(f64::INFINITY, f64::min);
    let max = max.into_iter().fold(f64::NEG_INFINITY, f64::max);
    (min, max)
}

impl Distance {
    /// Fits the normalisation on the rows of a view (the training data).
    pub fn fit(view: &View) -> Distance {
        Distance::fit_rows(view.dataset(), view.rows())
    }

    /// Fits the normalisation on every row of a dataset.
    pub fn fit_dataset(dataset: &Dataset) -> Distance {
        let rows: Vec<usize> = (0..dataset.len()).collect();
        Distance::fit_rows(dataset, &rows)
    }

    fn fit_rows(dataset: &Dataset, rows: &[usize]) -> Distance {
        let scales = dataset
            .schema()
            .attributes
            .iter()
            .enumerate()
            .map(|(index, attribute)| {
                if !attribute.is_numeric() {
                    return Scale::Nominal;
                }
                let (min, max) = present_range(dataset.column(index), rows);
                if min < max {
                    Scale::Numeric {
                        min,
                        inverse_width: 1.0 / (max - min),
                    }
                } else {
                    Scale::Numeric {
                        min: if min.is_finite() { min } else { 0.0 },
                        inverse_width: 0.0,
                    }
                }
            })
            .collect();
        Distance { scales }
    }

    /// A distance from explicit numeric ranges: `ranges[i]` is `Some((min, max))` for a numeric
    /// attribute and `None` for a nominal one.
    pub fn from_ranges(ranges: &[Option<(f64, f64)>]) -> Distance {
        let scales = ranges
            .iter()
            .map(|range| match *range {
                None => Scale::Nominal,
                Some((min, max)) if min < max => Scale::Numeric {
                    min,
                    inverse_width: 1.0 / (max - min),
                },
                Some((min, _)) => Scale::Numeric {
                    min,
                    inverse_width: 0.0,
                },
            })
            .collect();
        Distance { scales }
    }

    /// True when every attribute is scaled at least as strongly as by `wider` (the same kinds,
    /// every numeric inverse width at least `wider`'s, and none zero where `wider`'s is not):
    /// then no difference of two rows is smaller here than there. A distance fitted on a
    /// subset of the rows another was fitted on has it, but for an attribute constant on the
    /// subset.
    pub fn scales_at_least(&self, wider: &Distance) -> bool {
        self.scales.len() == wider.scales.len()
            && self
                .scales
                .iter()
                .zip(&wider.scales)
                .all(|pair| match pair {
                    (Scale::Nominal, Scale::Nominal) => true,
                    (
                        Scale::Numeric { inverse_width, .. },
                        Scale::Numeric {
                            inverse_width: wider_width,
                            ..
                        },
                    ) => {
                        inverse_width >= wider_width
                            && (*inverse_width > 0.0 || *wider_width == 0.0)
                    }
                    _ => false,
                })
    }

    /// Number of attributes.
    pub fn num_attributes(&self) -> usize {
        self.scales.len()
    }

    /// True if attribute `attribute` is nominal.
    pub fn is_nominal(&self, attribute: usize) -> bool {
        self.scales[attribute] == Scale::Nominal
    }

    /// The normalised value of attribute `attribute` (nominal indices and `NaN` unchanged).
    #[inline]
    pub fn normalise(&self, attribute: usize, value: f64) -> f64 {
        match self.scales[attribute] {
            Scale::Nominal => value,
            Scale::Numeric { .. } if value.is_nan() => value,
            Scale::Numeric { min, inverse_width } => (value - min) * inverse_width,
        }
    }

    /// [`Self::normalise`] of every attribute of the rows `positions` of `view`, row-major.
    pub fn normalise_view(&self, view: &View, positions: &[usize]) -> Vec<f64> {
        let rows = view.rows();
        let rows = positions.iter().map(|&position| rows[position]);
        self.normalise_dataset_rows(view.dataset(), rows)
    }

    /// [`Self::normalise`] of every attribute of every row of `features`, row-major.
    pub fn normalise_features(&self, features: &Features) -> Vec<f64> {
        let rows = features.rows().iter().copied();
        self.normalise_dataset_rows(features.dataset(), rows)
    }

    /// [`Self::normalise`] of every attribute of the dataset rows `rows`, row-major, written
    /// a block of [`NORMALISED_TOGETHER`] values at a time, a column at a time (each column
    /// read in order, the written block in the level-2 cache).
    fn normalise_dataset_rows(
        &self,
        dataset: &Dataset,
        rows: impl ExactSizeIterator<Item = usize>,
    ) -> Vec<f64> {
        let dimensions = self.scales.len();
        let mut out = vec![0.0; rows.len() * dimensions];
        if dimensions == 0 {
            return out;
        }
        let rows: Vec<usize> = rows.collect();
        let block_rows = (NORMALISED_TOGETHER / dimensions).max(64);
        let blocks = out.chunks_mut(block_rows * dimensions);
        for (block, rows) in blocks.zip(rows.chunks(block_rows)) {
            for (attribute, scale) in self.scales.iter().enumerate() {
                let column = dataset.column(attribute);
                let slots = block[attribute..].iter_mut().step_by(dimensions);
                let values = rows.iter().map(|&row| column[row]);
                match *scale {
                    Scale::Nominal => slots.zip(values).for_each(|(slot, value)| *slot = value),
                    Scale::Numeric { min, inverse_width } => {
                        for (slot, value) in slots.zip(values) {
                            *slot = if value.is_nan() {
                                value
                            } else {
                                (value - min) * inverse_width
                            };
                        }
                    }
                }
            }
        }
        out
    }

    /// A row of raw values, normalised.
    pub fn normalise_row(&self, row: &[f64]) -> Vec<f64> {
        row.iter()
            .enumerate()
            .map(|(attribute, &value)| self.normalise(attribute, value))
            .collect()
    }

    /// The difference of two raw values of one attribute (before squaring).
    pub fn difference(&self, attribute: usize, a: f64, b: f64) -> f64 {
        normalised_difference(
            self.is_nominal(attribute),
            self.normalise(attribute, a),
            self.normalise(attribute, b),
        )
    }

    /// The squared distance between two rows of raw values.
    pub fn squared(&self, a: &[f64], b: &[f64]) -> f64 {
        let mut sum = 0.0;
        for attribute in 0..self.scales.len() {
            let difference = self.difference(attribute, a[attribute], b[attribute]);
            sum += difference * difference;
        }
        sum
    }

    /// The `k` rows of `view` nearest to `query` (raw attribute values), as (position in the
    /// view, squared distance), nearest first with ties in view order, followed by every other
    /// row tied with the k-th (Weka's IBk keeps those too). Exhaustive search; `k = 0` gives
    /// nothing.
    pub fn k_nearest(&self, view: &View, query: &[f64], k: usize) -> Vec<(usize, f64)> {
        if k == 0 || view.is_empty() {
            return Vec::new();
        }
        let query = self.normalise_row(query);
        let width = self.scales.len();
        let mut row = vec![0.0; width];
        let mut all: Vec<(usize, f64)> = (0..view.len())
            .map(|position| {
                for (attribute, value) in row.iter_mut().enumerate() {
                    *value = self.normalise(attribute, view.value(position, attribute));
                }
                (
                    position,
                    self.squared_normalised_within(&query, &row, f64::INFINITY),
                )
            })
            .collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let kth = all[k.min(all.len()) - 1].1;
        let keep = all.iter().take_while(|(_, d)| *d <= kth).count();
        all.truncate(keep.max(k.min(all.len())));
        all
    }

    /// The squared distance between two rows already normalised with [`Distance::normalise_row`].
    /// Stops early and returns a value above `bound` as soon as the partial sum exceeds it.
    #[inline]
    pub fn squared_normalised_within(&self, a: &[f64], b: &[f64], bound: f64) -> f64 {
        let mut sum = 0.0;
        for attribute in 0..self.scales.len() {
            let difference = normalised_difference(
                self.scales[attribute] == Scale::Nominal,
                a[attribute],
                b[attribute],
            );
            sum += difference * difference;
            if sum > bound {
                return sum;
            }
        }
        sum
    }
}
