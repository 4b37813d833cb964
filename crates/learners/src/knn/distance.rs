//! Weka IBk-style distance (from `data::distance`): numeric attributes min-max scaled on the
//! training data, nominal attributes at distance 0 or 1, and Weka's rules for missing values;
//! plus the fast kernel for all-numeric complete rows.

use data::distance::Distance;
use data::{Features, Schema, View};

/// The training-fitted normalisation and distance of `data::distance` (Weka IBk's rules),
/// with the early-abandoning interface the searches use.
#[derive(Clone, Debug)]
pub(crate) struct Scaling {
    distance: Distance,
    all_numeric: bool,
}

impl Scaling {
    /// Learns the numeric ranges from the given training positions of a view (missing values
    /// are ignored, as in Weka's `EuclideanDistance`).
    pub(crate) fn fit(train: &View, positions: &[usize]) -> Self {
        let distance = Distance::fit(&train.subview(positions));
        let all_numeric =
            (0..distance.num_attributes()).all(|attribute| !distance.is_nominal(attribute));
        Scaling {
            distance,
            all_numeric,
        }
    }

    /// Number of attributes.
    pub(crate) fn len(&self) -> usize {
        self.distance.num_attributes()
    }

    /// True when every attribute is numeric.
    pub(crate) fn all_numeric(&self) -> bool {
        self.all_numeric
    }

    /// True when this scaling widens every attribute's differences at least as much as `wider`
    /// does (see [`data::distance::Distance::scales_at_least`]).
    pub(crate) fn scales_at_least(&self, wider: &Scaling) -> bool {
        self.distance.scales_at_least(&wider.distance)
    }

    /// True when the attribute is nominal (its scaled values are value indices).
    pub(crate) fn is_nominal(&self, attribute: usize) -> bool {
        self.distance.is_nominal(attribute)
    }

    /// Scales one raw value of an attribute (numeric: to [0, 1] on the training range; nominal:
    /// the value index unchanged; missing stays `NaN`).
    pub(crate) fn scale(&self, attribute: usize, value: f64) -> f64 {
        self.distance.normalise(attribute, value)
    }

    /// The rows `positions` of `view`, every attribute scaled as [`Self::scale`] scales it,
    /// row-major.
    pub(crate) fn scale_view(&self, view: &View, positions: &[usize]) -> Vec<f64> {
        self.distance.normalise_view(view, positions)
    }

    /// Every row of `features`, scaled as [`Self::scale`] scales it, row-major.
    pub(crate) fn scale_features(&self, features: &Features) -> Vec<f64> {
        self.distance.normalise_features(features)
    }

    /// Squared distance between two scaled rows, or `None` as soon as the partial sum exceeds
    /// `bound`.
    #[inline]
    pub(crate) fn squared_distance_within(&self, a: &[f64], b: &[f64], bound: f64) -> Option<f64> {
        let squared = self.distance.squared_normalised_within(a, b, bound);
        (squared <= bound).then_some(squared)
    }
}

/// Squared distance of two all-numeric, missing-free scaled rows, abandoned (`None`) once the
/// partial sum exceeds `bound`. The sum runs over blocks of [`BLOCK`] attributes (the last one
/// padded with zeros), each summed by [`block_squared_sum`] and checked against the bound after
/// every block; the summation order depends only on the number of attributes, so a completed
/// sum is the same number whatever the bound and whichever search asked for it.
#[inline]
pub(crate) fn numeric_squared_distance_within(a: &[f64], b: &[f64], bound: f64) -> Option<f64> {
    let mut total = 0.0;
    for (block_a, block_b) in a.chunks(BLOCK).zip(b.chunks(BLOCK)) {
        total += match (block_a.try_into(), block_b.try_into()) {
            (Ok(full_a), Ok(full_b)) => block_squared_sum(full_a, full_b),
            _ => block_squared_sum(&padded_block(block_a), &padded_block(block_b)),
        };
        if total > bound {
            return None;
        }
    }
    Some(total)
}

/// Attributes per block of the distance kernel (the bound is checked after each block).
pub(crate) const BLOCK: usize = 8;

/// The sum of squared differences of one block: attribute `j` and `j + 4` share lane `j`, and
/// the four lanes are added pairwise (so the compiler can vectorise it). Zero padding leaves a
/// sum unchanged: it only adds `+0.0` to sums of squares.
#[inline(always)]
pub(crate) fn block_squared_sum(block_a: &[f64; BLOCK], block_b: &[f64; BLOCK]) -> f64 {
    let mut lanes = [0.0f64; 4];
    for (lane, sum) in lanes.iter_mut().enumerate() {
        let low = block_a[lane] - block_b[lane];
        let high = block_a[lane + 4] - block_b[lane + 4];
        *sum = low * low + high * high;
    }
    (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
}

/// [`block_squared_sum`] of one query block with `sums.len()` points given attribute by
/// attribute (`columns[j][p]`: attribute `j` of point `p`), into `sums`: the same operations
/// for every point, which lets the compiler compute two points per vector instruction.
#[inline(always)]
pub(crate) fn column_block_squared_sums(
    query: &[f64; BLOCK],
    columns: [&[f64]; BLOCK],
    sums: &mut [f64],
) {
    let columns = columns.map(|column| &column[..sums.len()]);
    for (point, sum) in sums.iter_mut().enumerate() {
        let square = |attribute: usize| {
            let difference = query[attribute] - columns[attribute][point];
            difference * difference
        };
        *sum = ((square(0) + square(4)) + (square(1) + square(5)))
            + ((square(2) + square(6)) + (square(3) + square(7)));
    }
}

/// A block of at most [`BLOCK`] values, padded with zeros.
#[inline(always)]
pub(crate) fn padded_block(values: &[f64]) -> [f64; BLOCK] {
    let mut block = [0.0; BLOCK];
    block[..values.len()].copy_from_slice(values);
    block
}

/// Describes the distance for `Model::explain`.
pub(crate) fn describe(schema: &Schema) -> String {
    let numeric = schema.attributes.iter().filter(|a| a.is_numeric()).count();
    format!(
        "Euclidean distance over {} attributes ({} numeric scaled to [0, 1] on the training data, {} nominal at 0/1)",
        schema.num_attributes(),
        numeric,
        schema.num_attributes() - numeric
    )
}
