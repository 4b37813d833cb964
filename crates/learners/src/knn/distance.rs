//! Weka IBk-style distance (from `data::distance`): numeric attributes min-max scaled on the
//! training data, nominal attributes at distance 0 or 1, and Weka's rules for missing values;
//! plus the fast kernel for all-numeric complete rows.

use data::distance::Distance;
use data::{Schema, View};

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

    /// Scales one raw value of an attribute (numeric: to [0, 1] on the training range; nominal:
    /// the value index unchanged; missing stays `NaN`).
    pub(crate) fn scale(&self, attribute: usize, value: f64) -> f64 {
        self.distance.normalise(attribute, value)
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
/// partial sum exceeds `bound`. The sum runs over blocks of 8 attributes, each summed in four
/// interleaved lanes (so the compiler can vectorise it) and checked against the bound after
/// every block; the summation order depends only on the number of attributes, so a completed
/// sum is the same number whatever the bound and whichever search asked for it.
#[inline]
pub(crate) fn numeric_squared_distance_within(a: &[f64], b: &[f64], bound: f64) -> Option<f64> {
    numeric_squared_distance_continued(0.0, a, b, bound)
}

/// Attributes per block of the distance kernel (the bound is checked after each block).
pub(crate) const BLOCK: usize = 8;

/// The sum of squared differences of one block (at most [`BLOCK`] values), in four interleaved
/// lanes.
#[inline(always)]
pub(crate) fn block_squared_sum(block_a: &[f64], block_b: &[f64]) -> f64 {
    let mut lanes = [0.0f64; 4];
    let quads_a = block_a.chunks_exact(4);
    let quads_b = block_b.chunks_exact(4);
    let (rest_a, rest_b) = (quads_a.remainder(), quads_b.remainder());
    for (quad_a, quad_b) in quads_a.zip(quads_b) {
        for lane in 0..4 {
            let difference = quad_a[lane] - quad_b[lane];
            lanes[lane] += difference * difference;
        }
    }
    for (lane, (x, y)) in rest_a.iter().zip(rest_b).enumerate() {
        let difference = x - y;
        lanes[lane] += difference * difference;
    }
    (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
}

/// Continues [`numeric_squared_distance_within`] from the partial sum `total` of the blocks
/// before `a` and `b` (which must start on a block boundary): the same additions in the same
/// order, so the result is the same number.
#[inline(always)]
pub(crate) fn numeric_squared_distance_continued(
    mut total: f64,
    a: &[f64],
    b: &[f64],
    bound: f64,
) -> Option<f64> {
    for (block_a, block_b) in a.chunks(BLOCK).zip(b.chunks(BLOCK)) {
        total += block_squared_sum(block_a, block_b);
        if total > bound {
            return None;
        }
    }
    Some(total)
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
