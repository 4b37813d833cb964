//! Weka IBk-style distance: numeric attributes min-max scaled on the training data, nominal
//! attributes at distance 0 or 1, and Weka's rules for missing values.

use data::{Schema, View};

/// How one attribute is compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum AttributeScale {
    /// Numeric, scaled by `(x - minimum) / width`; `width == 0` (constant or never seen) maps
    /// every present value to 0, as Weka does.
    Numeric { minimum: f64, width: f64 },
    /// Nominal: equal value indices are at distance 0, anything else at 1.
    Nominal,
}

/// The per-attribute scaling learnt from the training rows.
#[derive(Clone, Debug)]
pub(crate) struct Scaling {
    scales: Vec<AttributeScale>,
}

impl Scaling {
    /// Learns the numeric ranges from the given training positions of a view (missing values
    /// are ignored, as in Weka's `EuclideanDistance`).
    pub(crate) fn fit(train: &View, positions: &[usize]) -> Self {
        let schema = train.schema();
        let scales = (0..schema.num_attributes())
            .map(|attribute| {
                if !schema.attributes[attribute].is_numeric() {
                    return AttributeScale::Nominal;
                }
                let mut minimum = f64::INFINITY;
                let mut maximum = f64::NEG_INFINITY;
                for &position in positions {
                    let value = train.value(position, attribute);
                    if !value.is_nan() {
                        minimum = minimum.min(value);
                        maximum = maximum.max(value);
                    }
                }
                if minimum.is_finite() && maximum.is_finite() && maximum > minimum {
                    AttributeScale::Numeric {
                        minimum,
                        width: maximum - minimum,
                    }
                } else {
                    AttributeScale::Numeric {
                        minimum: 0.0,
                        width: 0.0,
                    }
                }
            })
            .collect();
        Scaling { scales }
    }

    /// Number of attributes.
    pub(crate) fn len(&self) -> usize {
        self.scales.len()
    }

    /// True when every attribute is numeric.
    pub(crate) fn all_numeric(&self) -> bool {
        self.scales
            .iter()
            .all(|scale| matches!(scale, AttributeScale::Numeric { .. }))
    }

    /// Scales one raw value of an attribute (numeric: to [0, 1] on the training range; nominal:
    /// the value index unchanged; missing stays `NaN`).
    pub(crate) fn scale(&self, attribute: usize, value: f64) -> f64 {
        match self.scales[attribute] {
            AttributeScale::Numeric { minimum, width } => {
                if value.is_nan() {
                    f64::NAN
                } else if width > 0.0 {
                    (value - minimum) / width
                } else {
                    0.0
                }
            }
            AttributeScale::Nominal => value,
        }
    }

    /// Squared distance between two scaled rows, or `None` as soon as the partial sum exceeds
    /// `bound` (the sum is accumulated in attribute order, so a completed sum is the same number
    /// whatever the bound).
    #[inline]
    pub(crate) fn squared_distance_within(&self, a: &[f64], b: &[f64], bound: f64) -> Option<f64> {
        let mut sum = 0.0;
        for (attribute, scale) in self.scales.iter().enumerate() {
            let difference = attribute_difference(*scale, a[attribute], b[attribute]);
            sum += difference * difference;
            if sum > bound {
                return None;
            }
        }
        Some(sum)
    }
}

/// The per-attribute difference under Weka's rules, on scaled values.
#[inline]
fn attribute_difference(scale: AttributeScale, a: f64, b: f64) -> f64 {
    match scale {
        AttributeScale::Nominal => {
            if a.is_nan() || b.is_nan() || a != b {
                1.0
            } else {
                0.0
            }
        }
        AttributeScale::Numeric { .. } => match (a.is_nan(), b.is_nan()) {
            (false, false) => a - b,
            (true, true) => 1.0,
            (a_missing, _) => {
                let present = if a_missing { b } else { a };
                if present < 0.5 {
                    1.0 - present
                } else {
                    present
                }
            }
        },
    }
}

/// Squared distance of two all-numeric, missing-free scaled rows, abandoned (`None`) once the
/// partial sum exceeds `bound`. The sum runs over blocks of 8 attributes, each summed in four
/// interleaved lanes (so the compiler can vectorise it) and checked against the bound after
/// every block; the summation order depends only on the number of attributes, so a completed
/// sum is the same number whatever the bound and whichever search asked for it.
#[inline]
pub(crate) fn numeric_squared_distance_within(a: &[f64], b: &[f64], bound: f64) -> Option<f64> {
    const BLOCK: usize = 8;
    let mut total = 0.0;
    for (block_a, block_b) in a.chunks(BLOCK).zip(b.chunks(BLOCK)) {
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
        total += (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
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
