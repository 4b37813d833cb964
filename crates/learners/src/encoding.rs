//! Turns mixed nominal/numeric rows into a dense numeric matrix for linear models and library
//! adapters: nominal attributes become indicator columns, missing values are replaced by the
//! training mean of their column, and columns are optionally standardised.
//!
//! Everything is fitted on the training rows only (with instance weights) and then applied
//! unchanged to test rows.
//!
//! * A numeric attribute gives one column.
//! * A nominal attribute with two values gives one column, the indicator of its second value (as
//!   Weka's `NominalToBinary`); one with `k != 2` values gives `k` indicator columns. A value seen
//!   only at test time simply sets its own indicator (or none, for a two-valued attribute the
//!   first value).
//! * A missing value becomes the weighted training mean of each of its columns (for a nominal
//!   attribute: the training share of each value, or with [`NominalMissing::Mode`] the training
//!   mode, as Weka's `ReplaceMissingValues`).
//! * With standardisation each column becomes `(x - mean) / sd` with the weighted training mean
//!   and standard deviation (divisor = sum of weights, so a row of weight 2 counts as the row
//!   twice); a column that is constant in training keeps scale 1, so it becomes 0.
//!
//! ```
//! use data::{Attribute, Dataset, Schema};
//! use learners::encoding::Encoder;
//! let schema = Schema {
//!     attributes: vec![
//!         Attribute::numeric("x"),
//!         Attribute::nominal("colour", vec!["red".into(), "green".into(), "blue".into()]),
//!     ],
//!     class_name: "class".into(),
//!     class_values: vec!["no".into(), "yes".into()],
//! };
//! let columns = vec![vec![1.0, 3.0, f64::NAN], vec![0.0, 2.0, 2.0]];
//! let dataset = Dataset::new("toy", schema, columns, vec![0, 1, 1], None).unwrap();
//! let encoder = Encoder::fit(&dataset.view(), false);
//! assert_eq!(encoder.width(), 4);
//! let matrix = encoder.encode_view(&dataset.view());
//! // The missing x becomes the mean of 1 and 3.
//! assert_eq!(matrix.row(2).to_vec(), vec![2.0, 0.0, 0.0, 1.0]);
//! ```

use data::{Schema, View};
#[cfg(feature = "adapters")]
use ndarray::Array2;

/// Where one output column comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnSource {
    /// The value of a numeric attribute.
    Numeric {
        /// Attribute index.
        attribute: usize,
    },
    /// 1 when a nominal attribute takes the given value, else 0.
    Indicator {
        /// Attribute index.
        attribute: usize,
        /// Value index.
        value: usize,
    },
}

/// How a missing nominal value is filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NominalMissing {
    /// Each indicator gets the weighted training share of its value (the column mean).
    Shares,
    /// The weighted training mode (first value on ties), as Weka's `ReplaceMissingValues`.
    Mode,
}

/// One output column: its source, the value that fills missing values, and the affine
/// map applied (`(x - shift) / scale`; shift 0, scale 1 without standardisation).
#[derive(Clone, Debug, PartialEq)]
pub struct EncodedColumn {
    /// What the column holds.
    pub source: ColumnSource,
    /// Replaces missing values: the weighted training mean, or for an indicator with
    /// [`NominalMissing::Mode`] 1 or 0 (whether its value is the mode).
    pub mean: f64,
    /// Subtracted after imputation.
    pub shift: f64,
    /// Divides after the shift (never 0).
    pub scale: f64,
}

/// The fitted encoding of a schema's attributes into numeric columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoder {
    columns: Vec<EncodedColumn>,
    num_attributes: usize,
}

#[inline(always)]
fn raw_column_value(source: &ColumnSource, value_of: impl Fn(usize) -> f64) -> f64 {
    match *source {
        ColumnSource::Numeric { attribute } => value_of(attribute),
        ColumnSource::Indicator { attribute, value } => {
            let raw = value_of(attribute);
            if raw.is_nan() {
                f64::NAN
            } else if raw as usize == value {
                1.0
            } else {
                0.0
            }
        }
    }
}

/// Columns whose means [`weighted_means`] sums side by side (their additions' latencies
/// overlap).
const MEANS_GROUP: usize = 8;

/// The weighted mean of each of `G` encoded columns over the rows where it is known (0 when
/// none is), each column's sums running over the rows in order.
#[inline(always)]
fn weighted_means<const G: usize>(train: &View, sources: [&ColumnSource; G]) -> [f64; G] {
    let mut weight_sum = [0.0; G];
    let mut sum = [0.0; G];
    for position in 0..train.len() {
        let weight = train.weight(position);
        for ((source, weight_sum), sum) in sources.iter().zip(&mut weight_sum).zip(&mut sum) {
            let value = raw_column_value(source, |a| train.value(position, a));
            if !value.is_nan() {
                *weight_sum += weight;
                *sum += weight * value;
            }
        }
    }
    std::array::from_fn(|g| {
        if weight_sum[g] > 0.0 {
            sum[g] / weight_sum[g]
        } else {
            0.0
        }
    })
}

/// Each column's fill for a missing value: under `Mode`, an indicator's is whether its value is
/// the mode (no pass over the rows: at adult's 100 indicators, a twentieth of a fit); every
/// other column's is its weighted mean ([`weighted_means`], [`MEANS_GROUP`] columns at a time).
fn fill_values(
    train: &View,
    sources: &[ColumnSource],
    modes: &[Option<usize>],
    nominal_missing: NominalMissing,
) -> Vec<f64> {
    let mut fills = vec![0.0; sources.len()];
    let mut averaged = Vec::new();
    for (index, source) in sources.iter().enumerate() {
        match (nominal_missing, source) {
            (NominalMissing::Mode, ColumnSource::Indicator { attribute, value }) => {
                fills[index] = f64::from(u8::from(modes[*attribute] == Some(*value)));
            }
            _ => averaged.push(index),
        }
    }
    let mut groups = averaged.chunks_exact(MEANS_GROUP);
    for group in &mut groups {
        let means: [f64; MEANS_GROUP] =
            weighted_means(train, std::array::from_fn(|g| &sources[group[g]]));
        for (&index, mean) in group.iter().zip(means) {
            fills[index] = mean;
        }
    }
    for &index in groups.remainder() {
        [fills[index]] = weighted_means(train, [&sources[index]]);
    }
    fills
}

impl Encoder {
    /// The column layout of a schema (means and scales not yet fitted).
    pub fn sources(schema: &Schema) -> Vec<ColumnSource> {
        let mut sources = Vec::new();
        for (attribute, description) in schema.attributes.iter().enumerate() {
            match description.values() {
                None => sources.push(ColumnSource::Numeric { attribute }),
                Some(values) if values.len() == 2 => {
                    sources.push(ColumnSource::Indicator {
                        attribute,
                        value: 1,
                    });
                }
                Some(values) => {
                    for value in 0..values.len() {
                        sources.push(ColumnSource::Indicator { attribute, value });
                    }
                }
            }
        }
        sources
    }

    /// Fits means (and, with `standardize`, standard deviations) on the training rows, using
    /// their weights. Rows of zero total weight leave means 0 and scales 1. A missing nominal
    /// value becomes the training share of each value.
    pub fn fit(train: &View, standardize: bool) -> Self {
        Self::fit_with(train, standardize, NominalMissing::Shares)
    }

    /// As [`Encoder::fit`], choosing how a missing nominal value is filled in.
    pub fn fit_with(train: &View, standardize: bool, nominal_missing: NominalMissing) -> Self {
        let schema = train.schema();
        // Weighted mode of each nominal attribute (first value on ties), for `Mode`.
        let modes: Vec<Option<usize>> = schema
            .attributes
            .iter()
            .enumerate()
            .map(|(attribute, description)| {
                let values = description.values()?;
                let mut counts = vec![0.0; values.len()];
                for position in 0..train.len() {
                    let value = train.value(position, attribute);
                    if !value.is_nan() {
                        counts[value as usize] += train.weight(position);
                    }
                }
                let mut best = 0;
                for (value, &count) in counts.iter().enumerate() {
                    if count > counts[best] {
                        best = value;
                    }
                }
                Some(best)
            })
            .collect();
        let sources = Self::sources(schema);
        let means = fill_values(train, &sources, &modes, nominal_missing);
        let columns = sources
            .into_iter()
            .zip(means)
            .map(|(source, mean)| {
                let (shift, scale) = if standardize {
                    // Missing values count as the mean, so the total weight is every row's.
                    let mut total_weight = 0.0;
                    let mut squares = 0.0;
                    for position in 0..train.len() {
                        let value = raw_column_value(&source, |a| train.value(position, a));
                        let value = if value.is_nan() { mean } else { value };
                        let weight = train.weight(position);
                        total_weight += weight;
                        squares += weight * (value - mean) * (value - mean);
                    }
                    let deviation = if total_weight > 0.0 {
                        (squares / total_weight).sqrt()
                    } else {
                        0.0
                    };
                    let scale = if deviation > 1e-12 * mean.abs().max(1.0) {
                        deviation
                    } else {
                        1.0
                    };
                    (mean, scale)
                } else {
                    (0.0, 1.0)
                };
                EncodedColumn {
                    source,
                    mean,
                    shift,
                    scale,
                }
            })
            .collect();
        Encoder {
            columns,
            num_attributes: schema.num_attributes(),
        }
    }

    /// Number of output columns.
    pub fn width(&self) -> usize {
        self.columns.len()
    }

    /// The fitted columns, in output order.
    pub fn columns(&self) -> &[EncodedColumn] {
        &self.columns
    }

    /// A readable name for each output column (`colour=red`, `x`).
    pub fn column_names(&self, schema: &Schema) -> Vec<String> {
        self.columns
            .iter()
            .map(|column| match column.source {
                ColumnSource::Numeric { attribute } => schema.attributes[attribute].name.clone(),
                ColumnSource::Indicator { attribute, value } => {
                    let description = &schema.attributes[attribute];
                    let value_name = description
                        .values()
                        .and_then(|values| values.get(value))
                        .map_or("?", |name| name.as_str());
                    format!("{}={}", description.name, value_name)
                }
            })
            .collect()
    }

    /// Encodes one row given by a function from attribute index to raw value, into `out`
    /// (`out.len()` must equal [`Encoder::width`]).
    pub fn encode_row(&self, value_of: &dyn Fn(usize) -> f64, out: &mut [f64]) {
        for (slot, column) in out.iter_mut().zip(&self.columns) {
            let raw = raw_column_value(&column.source, value_of);
            let imputed = if raw.is_nan() { column.mean } else { raw };
            *slot = (imputed - column.shift) / column.scale;
        }
    }
}

/// Matrices for the adapters over linfa and smartcore (only with the `adapters` feature).
#[cfg(feature = "adapters")]
impl Encoder {
    /// Encodes a list of rows (values per attribute, `NaN` = missing) into a matrix.
    pub fn encode_rows(&self, rows: usize, value: &dyn Fn(usize, usize) -> f64) -> Array2<f64> {
        let mut matrix = Array2::zeros((rows, self.width()));
        let mut buffer = vec![0.0; self.width()];
        for row in 0..rows {
            self.encode_row(&|attribute| value(row, attribute), &mut buffer);
            for (target, &source) in matrix.row_mut(row).iter_mut().zip(&buffer) {
                *target = source;
            }
        }
        matrix
    }

    /// Encodes the rows of a labelled view.
    pub fn encode_view(&self, view: &View) -> Array2<f64> {
        debug_assert_eq!(view.num_attributes(), self.num_attributes);
        self.encode_rows(view.len(), &|row, attribute| view.value(row, attribute))
    }

    /// Encodes unlabelled test rows.
    pub fn encode_features(&self, features: &data::Features) -> Array2<f64> {
        debug_assert_eq!(features.num_attributes(), self.num_attributes);
        self.encode_rows(features.len(), &|row, attribute| {
            features.value(row, attribute)
        })
    }
}

#[cfg(all(test, feature = "adapters"))]
mod tests {
    use super::*;
    use data::{Attribute, Dataset, Features};

    fn toy() -> Dataset {
        let schema = Schema {
            attributes: vec![
                Attribute::numeric("x"),
                Attribute::nominal("flag", vec!["no".into(), "yes".into()]),
                Attribute::nominal("colour", vec!["r".into(), "g".into(), "b".into()]),
            ],
            class_name: "class".into(),
            class_values: vec!["a".into(), "b".into()],
        };
        let columns = vec![
            vec![1.0, 2.0, 3.0, f64::NAN],
            vec![0.0, 1.0, f64::NAN, 1.0],
            vec![0.0, 0.0, 1.0, f64::NAN],
        ];
        Dataset::new("toy", schema, columns, vec![0, 1, 0, 1], None).unwrap()
    }

    #[test]
    fn layout_means_and_imputation() {
        let dataset = toy();
        let encoder = Encoder::fit(&dataset.view(), false);
        assert_eq!(
            encoder.column_names(dataset.schema()),
            vec!["x", "flag=yes", "colour=r", "colour=g", "colour=b"]
        );
        let matrix = encoder.encode_view(&dataset.view());
        // Means by hand: x (1+2+3)/3 = 2; flag=yes 2/3; colour r 2/3, g 1/3, b 0.
        assert_eq!(matrix.row(0).to_vec(), vec![1.0, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!(matrix.row(2).to_vec(), vec![3.0, 2.0 / 3.0, 0.0, 1.0, 0.0]);
        assert_eq!(
            matrix.row(3).to_vec(),
            vec![2.0, 1.0, 2.0 / 3.0, 1.0 / 3.0, 0.0]
        );
    }

    #[test]
    fn standardised_with_weights() {
        let dataset = toy();
        // Weights 1, 3 on the first two rows only: x mean (1 + 6) / 4 = 1.75,
        // variance (1 * 0.75^2 + 3 * 0.25^2) / 4 = 0.1875.
        let view = dataset.subset(vec![0, 1]).with_weights(vec![1.0, 3.0]);
        let encoder = Encoder::fit(&view, true);
        let column = &encoder.columns()[0];
        assert!((column.mean - 1.75).abs() < 1e-15);
        assert!((column.scale - 0.1875f64.sqrt()).abs() < 1e-15);
        // colour=g is constant 0 in training: scale 1, so a test "g" encodes as 1 - 0.
        assert_eq!(encoder.columns()[3].scale, 1.0);
        let matrix = encoder.encode_features(&Features::of(&dataset, vec![2]));
        assert!((matrix[[0, 0]] - (3.0 - 1.75) / 0.1875f64.sqrt()).abs() < 1e-12);
        assert_eq!(matrix[[0, 3]], 1.0);
    }
}
