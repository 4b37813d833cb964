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

use crate::dataset::{Dataset, View};

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

impl Distance {
    /// Fits the normalisation on the rows of a view (the training data).
    pub fn fit(view: &View) -> Distance {
        let rows = view.rows();
        Distance::fit_rows(view.dataset(), rows.iter().copied())
    }

    /// Fits the normalisation on every row of a dataset.
    pub fn fit_dataset(dataset: &Dataset) -> Distance {
        Distance::fit_rows(dataset, 0..dataset.len())
    }

    fn fit_rows(dataset: &Dataset, rows: impl Iterator<Item = usize> + Clone) -> Distance {
        let scales = dataset
            .schema()
            .attributes
            .iter()
            .enumerate()
            .map(|(index, attribute)| {
                if !attribute.is_numeric() {
                    return Scale::Nominal;
                }
                let column = dataset.column(index);
                let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
                for row in rows.clone() {
                    let value = column[row];
                    if !value.is_nan() {
                        min = min.min(value);
                        max = max.max(value);
                    }
                }
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
