//! ROC convex hull (Provost & Fawcett 1997) and the iso-performance slopes each vertex is optimal for.

use num_bigint::BigInt;
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use stats::json::{float, Float};

use crate::error::{EvaluateError, Result};

/// Iso-performance slope m = c(FP) P(neg) / (c(FN) P(pos)) of a cost and class scenario: lines of
/// equal expected cost in ROC space have slope m, and the optimal classifier maximises tpr - m fpr.
pub fn iso_performance_slope(cost_fp: f64, cost_fn: f64, prior_pos: f64) -> Result<f64> {
    if !(cost_fp.is_finite() && cost_fp >= 0.0) {
        return Err(EvaluateError::BadParameter {
            name: "cost_fp",
            value: cost_fp,
            allowed: "finite and >= 0",
        });
    }
    if !(cost_fn.is_finite() && cost_fn >= 0.0) {
        return Err(EvaluateError::BadParameter {
            name: "cost_fn",
            value: cost_fn,
            allowed: "finite and >= 0",
        });
    }
    if !(prior_pos > 0.0 && prior_pos < 1.0) {
        return Err(EvaluateError::BadParameter {
            name: "prior_pos",
            value: prior_pos,
            allowed: "strictly between 0 and 1",
        });
    }
    Ok(cost_fp * (1.0 - prior_pos) / (cost_fn * prior_pos))
}

/// One vertex of a ROC convex hull.
#[derive(Debug, Clone, PartialEq)]
pub struct HullVertex {
    /// False positive rate.
    pub fpr: f64,
    /// True positive rate.
    pub tpr: f64,
    /// Index of the first input point equal to this vertex; `None` for an added trivial
    /// classifier (0, 0) or (1, 1).
    pub input_index: Option<usize>,
    /// Closed range [low, high] of iso-performance slopes for which this vertex is optimal:
    /// low = slope of the edge to its right (0 for (1, 1)), high = slope of the edge to its left
    /// (+inf for (0, 0)).
    pub slope_range: (f64, f64),
}

/// Serialised as `{ fpr, tpr, slope_low, slope_high }` (non-finite slopes as "inf").
impl Serialize for HullVertex {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut vertex = serializer.serialize_struct("HullVertex", 4)?;
        vertex.serialize_field("fpr", &Float(self.fpr))?;
        vertex.serialize_field("tpr", &Float(self.tpr))?;
        vertex.serialize_field("slope_low", &Float(self.slope_range.0))?;
        vertex.serialize_field("slope_high", &Float(self.slope_range.1))?;
        vertex.end()
    }
}

/// The upper-left convex hull of a set of ROC points plus the trivial classifiers (0, 0) and (1, 1).
#[derive(Debug, Clone, PartialEq)]
pub struct RocHull {
    vertices: Vec<HullVertex>,
}

/// Serialised as `{ area, vertices, segment_slopes }`.
impl Serialize for RocHull {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let slopes: Vec<Float> = self.segment_slopes().into_iter().map(Float).collect();
        let mut hull = serializer.serialize_struct("RocHull", 3)?;
        hull.serialize_field("area", &Float(self.area()))?;
        hull.serialize_field("vertices", &self.vertices)?;
        hull.serialize_field("segment_slopes", &slopes)?;
        hull.end()
    }
}

/// Exact sign of the orientation (b - o) x (c - o): > 0 left turn, < 0 right turn, 0 collinear.
fn orientation(o: (f64, f64), b: (f64, f64), c: (f64, f64)) -> std::cmp::Ordering {
    let left = (b.0 - o.0) * (c.1 - o.1);
    let right = (b.1 - o.1) * (c.0 - o.0);
    let det = left - right;
    let bound = 1e-15 * (left.abs() + right.abs());
    if det > bound {
        return std::cmp::Ordering::Greater;
    }
    if det < -bound {
        return std::cmp::Ordering::Less;
    }
    exact_orientation(o, b, c)
}

/// f64 as an exact integer multiple of 2^-1074.
fn scaled(x: f64) -> BigInt {
    if x == 0.0 {
        return BigInt::from(0);
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { -1 } else { 1 };
    let exponent = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, shift) = if exponent == 0 {
        (fraction, 0)
    } else {
        (fraction | (1u64 << 52), exponent - 1)
    };
    BigInt::from(sign) * (BigInt::from(mantissa) << shift)
}

fn exact_orientation(o: (f64, f64), b: (f64, f64), c: (f64, f64)) -> std::cmp::Ordering {
    let (ox, oy) = (scaled(o.0), scaled(o.1));
    let det = (scaled(b.0) - &ox) * (scaled(c.1) - &oy) - (scaled(b.1) - &oy) * (scaled(c.0) - &ox);
    det.sign().cmp(&num_bigint::Sign::NoSign)
}

fn check_point(index: usize, p: (f64, f64)) -> Result<()> {
    if !((0.0..=1.0).contains(&p.0) && (0.0..=1.0).contains(&p.1)) {
        return Err(EvaluateError::BadPoint {
            index,
            fpr: p.0,
            tpr: p.1,
        });
    }
    Ok(())
}

/// Slope of the edge from `a` to `b` (+inf when vertical).
fn edge_slope(a: (f64, f64), b: (f64, f64)) -> f64 {
    if b.0 == a.0 {
        f64::INFINITY
    } else {
        (b.1 - a.1) / (b.0 - a.0)
    }
}

/// Value tpr - m fpr maximised by the optimal classifier for slope m (with 0 * inf read as 0).
fn iso_value(slope: f64, fpr: f64, tpr: f64) -> f64 {
    if fpr == 0.0 {
        tpr
    } else {
        tpr - slope * fpr
    }
}

/// ROC convex hull of (fpr, tpr) points, O(n log n), with exact orientation tests: points on a
/// hull edge, dominated points and points on or under the diagonal are not vertices.
pub fn roc_convex_hull(points: &[(f64, f64)]) -> Result<RocHull> {
    for (i, &p) in points.iter().enumerate() {
        check_point(i, p)?;
    }
    let mut order: Vec<usize> = (0..points.len()).collect();
    // increasing fpr; at equal fpr the highest tpr first, then the first input index
    order.sort_by(|&a, &b| {
        points[a]
            .0
            .total_cmp(&points[b].0)
            .then(points[b].1.total_cmp(&points[a].1))
            .then(a.cmp(&b))
    });
    let mut candidates: Vec<(f64, f64)> = vec![(0.0, 0.0)];
    for &i in &order {
        let p = (points[i].0 + 0.0, points[i].1 + 0.0);
        let last = *candidates.last().expect("non-empty");
        if p.0 == last.0 && p.0 != 0.0 {
            continue; // same fpr, lower or equal tpr
        }
        if p.0 == 0.0 && p.1 <= last.1 {
            continue;
        }
        candidates.push(p);
    }
    if *candidates.last().expect("non-empty") != (1.0, 1.0) {
        candidates.push((1.0, 1.0));
    }
    let mut chain: Vec<(f64, f64)> = Vec::with_capacity(candidates.len());
    for p in candidates {
        while chain.len() >= 2
            && orientation(chain[chain.len() - 2], chain[chain.len() - 1], p)
                != std::cmp::Ordering::Less
        {
            chain.pop();
        }
        chain.push(p);
    }
    let slopes: Vec<f64> = chain.windows(2).map(|w| edge_slope(w[0], w[1])).collect();
    let vertices = chain
        .iter()
        .enumerate()
        .map(|(k, &(fpr, tpr))| HullVertex {
            fpr,
            tpr,
            input_index: points.iter().position(|&q| q.0 == fpr && q.1 == tpr),
            slope_range: (
                if k + 1 < chain.len() { slopes[k] } else { 0.0 },
                if k > 0 { slopes[k - 1] } else { f64::INFINITY },
            ),
        })
        .collect();
    Ok(RocHull { vertices })
}

impl RocHull {
    /// Vertices in order of increasing fpr, from (0, 0) to (1, 1).
    pub fn vertices(&self) -> &[HullVertex] {
        &self.vertices
    }

    /// Slope dTPR/dFPR of each edge (+inf for a vertical edge).
    pub fn segment_slopes(&self) -> Vec<f64> {
        self.vertices
            .windows(2)
            .map(|w| edge_slope((w[0].fpr, w[0].tpr), (w[1].fpr, w[1].tpr)))
            .collect()
    }

    /// Vertices optimal for iso-performance slope `slope` (all of them when tied) and the
    /// maximal value of tpr - slope fpr.
    pub fn optimal_vertices(&self, slope: f64) -> Result<(Vec<usize>, f64)> {
        if slope.is_nan() || slope < 0.0 {
            return Err(EvaluateError::BadParameter {
                name: "slope",
                value: slope,
                allowed: ">= 0 (may be +inf)",
            });
        }
        let values: Vec<f64> = self
            .vertices
            .iter()
            .map(|v| iso_value(slope, v.fpr, v.tpr))
            .collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let indices = (0..values.len()).filter(|&i| values[i] == best).collect();
        Ok((indices, best))
    }

    /// Area under the hull (trapezoid over its vertices).
    pub fn area(&self) -> f64 {
        self.vertices
            .windows(2)
            .map(|w| (w[1].fpr - w[0].fpr) * (w[1].tpr + w[0].tpr) / 2.0)
            .sum()
    }
}

/// ROC convex hull of several classifiers, each given as its ROC points (a curve or one point),
/// with the classifiers that own each vertex.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassifierHull {
    hull: RocHull,
    owners: Vec<Vec<usize>>,
    n_classifiers: usize,
}

/// One row of the table "slope range -> classifier(s) on the hull" (Provost, Fawcett & Kohavi 1998, Table 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlopeRangeOwner {
    /// Lowest slope of the range.
    #[serde(serialize_with = "float")]
    pub low: f64,
    /// Highest slope of the range.
    #[serde(serialize_with = "float")]
    pub high: f64,
    /// Classifiers owning the optimal vertices over this range (empty: only a trivial classifier).
    pub classifiers: Vec<usize>,
}

/// Convex hull over the ROC points of several classifiers.
pub fn classifiers_hull(curves: &[Vec<(f64, f64)>]) -> Result<ClassifierHull> {
    let all: Vec<(f64, f64)> = curves.iter().flatten().copied().collect();
    let hull = roc_convex_hull(&all)?;
    let owners = hull
        .vertices()
        .iter()
        .map(|v| {
            (0..curves.len())
                .filter(|&c| curves[c].iter().any(|&p| p.0 == v.fpr && p.1 == v.tpr))
                .collect()
        })
        .collect();
    Ok(ClassifierHull {
        hull,
        owners,
        n_classifiers: curves.len(),
    })
}

impl ClassifierHull {
    /// The hull itself.
    pub fn hull(&self) -> &RocHull {
        &self.hull
    }

    /// Classifiers that have each hull vertex among their points.
    pub fn owners(&self) -> &[Vec<usize>] {
        &self.owners
    }

    /// Slope ranges, from high to low slopes, with the classifiers optimal over each; adjacent
    /// vertices owned by the same classifiers are merged into one range.
    pub fn slope_table(&self) -> Vec<SlopeRangeOwner> {
        let mut table: Vec<SlopeRangeOwner> = Vec::new();
        for (vertex, owners) in self.hull.vertices().iter().zip(&self.owners) {
            let (low, high) = vertex.slope_range;
            if let Some(last) = table.last_mut() {
                if last.classifiers == *owners {
                    last.low = low;
                    continue;
                }
            }
            table.push(SlopeRangeOwner {
                low,
                high,
                classifiers: owners.clone(),
            });
        }
        table
    }

    /// The classifier that owns every non-trivial hull vertex (so it is optimal for every slope),
    /// if there is one. With no non-trivial vertex at all nothing dominates.
    pub fn dominating_classifier(&self) -> Option<usize> {
        let nontrivial: Vec<&Vec<usize>> = self
            .hull
            .vertices()
            .iter()
            .zip(&self.owners)
            .filter(|(v, _)| !((v.fpr, v.tpr) == (0.0, 0.0) || (v.fpr, v.tpr) == (1.0, 1.0)))
            .map(|(_, o)| o)
            .collect();
        if nontrivial.is_empty() {
            return None;
        }
        (0..self.n_classifiers).find(|c| nontrivial.iter().all(|o| o.contains(c)))
    }
}
