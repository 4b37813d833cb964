//! Supervised discretisation of numeric attributes by Fayyad and Irani's MDL method (1993), as in
//! Weka's `weka.filters.supervised.attribute.Discretize` with its default options.
//!
//! For one numeric attribute the training rows with a known value are sorted by value. The cut
//! that minimises the class entropy of the two sides (weighted, among the midpoints between
//! consecutive distinct values) is accepted when its information gain exceeds the MDL bound
//!
//! `gain > (log2(n - 1) + log2(3^k - 2) - (k E - k1 E1 - k2 E2)) / n`,
//!
//! where `n` is the weighted number of rows, `E`, `E1`, `E2` the class entropies (bits) of the
//! set and the two sides and `k`, `k1`, `k2` the numbers of classes present there. Both sides
//! are then split again recursively. A value `v` falls in interval `j` = the number of cut points
//! strictly below `v` (so a value equal to a cut point goes to the lower interval). Instance
//! weights count as in Weka (weight 2 = the row twice); missing values are ignored when
//! choosing cuts and stay missing.

use data::{Schema, View};

/// Entropy in bits of a vector of (weighted) counts; 0 for an empty vector.
fn entropy(counts: &[f64]) -> f64 {
    let total: f64 = counts.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let mut sum = 0.0;
    for &count in counts {
        if count > 0.0 {
            sum -= count * count.ln();
        }
    }
    (sum + total * total.ln()) / (total * std::f64::consts::LN_2)
}

/// Weighted mean entropy (bits) of the rows of a table of counts, weighted by row totals.
fn conditional_entropy(left: &[f64], right: &[f64]) -> f64 {
    let left_total: f64 = left.iter().sum();
    let right_total: f64 = right.iter().sum();
    let total = left_total + right_total;
    if total <= 0.0 {
        return 0.0;
    }
    (entropy(left) * left_total + entropy(right) * right_total) / total
}

fn classes_present(counts: &[f64]) -> f64 {
    counts.iter().filter(|&&count| count > 0.0).count() as f64
}

/// Fayyad and Irani's acceptance test for a split of `prior` into `left` and `right`.
fn mdl_accepts(prior: &[f64], left: &[f64], right: &[f64], total_weight: f64) -> bool {
    let prior_entropy = entropy(prior);
    let gain = prior_entropy - conditional_entropy(left, right);
    let k = classes_present(prior);
    let k_left = classes_present(left);
    let k_right = classes_present(right);
    let delta = (3f64.powf(k) - 2.0).log2()
        - (k * prior_entropy - k_right * entropy(right) - k_left * entropy(left));
    gain > ((total_weight - 1.0).log2() + delta) / total_weight
}

/// One row of an attribute's sorted training values.
struct Point {
    value: f64,
    class: usize,
    weight: f64,
}

fn cut_points_of_range(points: &[Point], num_classes: usize, cuts: &mut Vec<f64>) {
    if points.len() < 2 {
        return;
    }
    let mut right = vec![0.0; num_classes];
    let mut total_weight = 0.0;
    for point in points {
        right[point.class] += point.weight;
        total_weight += point.weight;
    }
    let prior = right.clone();
    let prior_entropy = entropy(&prior);
    let mut left = vec![0.0; num_classes];
    let mut best: Option<(usize, f64, Vec<f64>, Vec<f64>)> = None;
    let mut best_entropy = prior_entropy;
    for index in 0..points.len() - 1 {
        let point = &points[index];
        left[point.class] += point.weight;
        right[point.class] -= point.weight;
        if point.value < points[index + 1].value {
            let split_entropy = conditional_entropy(&left, &right);
            if split_entropy < best_entropy {
                best_entropy = split_entropy;
                let cut = (point.value + points[index + 1].value) / 2.0;
                best = Some((index, cut, left.clone(), right.clone()));
            }
        }
    }
    let Some((index, cut, best_left, best_right)) = best else {
        return;
    };
    if prior_entropy - best_entropy <= 0.0
        || !mdl_accepts(&prior, &best_left, &best_right, total_weight)
    {
        return;
    }
    cut_points_of_range(&points[..=index], num_classes, cuts);
    cuts.push(cut);
    cut_points_of_range(&points[index + 1..], num_classes, cuts);
}

/// The MDL cut points (ascending) of one numeric attribute, from its values (`NaN` = missing,
/// ignored), class indices and instance weights. Empty when no cut is worth its description
/// length.
pub fn mdl_cut_points(
    values: &[f64],
    classes: &[usize],
    weights: &[f64],
    num_classes: usize,
) -> Vec<f64> {
    let mut points: Vec<Point> = values
        .iter()
        .zip(classes)
        .zip(weights)
        .filter(|((value, _), _)| !value.is_nan())
        .map(|((&value, &class), &weight)| Point {
            value,
            class,
            weight,
        })
        .collect();
    points.sort_by(|a, b| a.value.total_cmp(&b.value));
    let mut cuts = Vec::new();
    cut_points_of_range(&points, num_classes, &mut cuts);
    cuts
}

/// The interval index of `value` given ascending cut points: the number of cut points strictly
/// below it. `None` for a missing value.
pub fn interval_of(cut_points: &[f64], value: f64) -> Option<usize> {
    if value.is_nan() {
        return None;
    }
    Some(cut_points.partition_point(|&cut| cut < value))
}

/// MDL discretisation fitted on training rows: cut points for each numeric attribute; nominal
/// attributes pass through unchanged.
#[derive(Clone, Debug)]
pub struct MdlDiscretizer {
    /// Per attribute: `Some(cut points)` for a numeric attribute, `None` for a nominal one.
    cut_points: Vec<Option<Vec<f64>>>,
}

impl MdlDiscretizer {
    /// Finds the cut points of every numeric attribute on the training rows (weights used).
    pub fn fit(train: &View) -> Self {
        let schema = train.schema();
        let classes: Vec<usize> = (0..train.len()).map(|p| train.class(p)).collect();
        let weights: Vec<f64> = (0..train.len()).map(|p| train.weight(p)).collect();
        let cut_points = schema
            .attributes
            .iter()
            .enumerate()
            .map(|(attribute, description)| {
                description.is_numeric().then(|| {
                    let values: Vec<f64> = (0..train.len())
                        .map(|p| train.value(p, attribute))
                        .collect();
                    mdl_cut_points(&values, &classes, &weights, train.num_classes())
                })
            })
            .collect();
        MdlDiscretizer { cut_points }
    }

    /// The cut points of an attribute, or `None` for a nominal attribute.
    pub fn cut_points(&self, attribute: usize) -> Option<&[f64]> {
        self.cut_points[attribute].as_deref()
    }

    /// Number of discrete values of an attribute after discretisation (intervals for a numeric
    /// attribute, the nominal values otherwise).
    pub fn num_values(&self, schema: &Schema, attribute: usize) -> usize {
        match &self.cut_points[attribute] {
            Some(cuts) => cuts.len() + 1,
            None => schema.attributes[attribute].values().map_or(0, |v| v.len()),
        }
    }

    /// The discrete value index of a raw value (`None` when missing).
    pub fn discrete_value(&self, attribute: usize, value: f64) -> Option<usize> {
        match &self.cut_points[attribute] {
            Some(cuts) => interval_of(cuts, value),
            None if value.is_nan() => None,
            None => Some(value as usize),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_in_bits() {
        assert!((entropy(&[1.0, 1.0]) - 1.0).abs() < 1e-15);
        assert_eq!(entropy(&[3.0, 0.0]), 0.0);
        assert!((entropy(&[1.0, 1.0, 1.0, 1.0]) - 2.0).abs() < 1e-15);
    }

    #[test]
    fn interval_counts_cuts_strictly_below() {
        let cuts = [1.5, 3.0];
        assert_eq!(interval_of(&cuts, 1.0), Some(0));
        assert_eq!(interval_of(&cuts, 1.5), Some(0));
        assert_eq!(interval_of(&cuts, 2.0), Some(1));
        assert_eq!(interval_of(&cuts, 3.0), Some(1));
        assert_eq!(interval_of(&cuts, 3.5), Some(2));
        assert_eq!(interval_of(&cuts, f64::NAN), None);
    }

    #[test]
    fn perfectly_separated_classes_are_cut_between_them() {
        // 10 rows of class 0 at 1..=10 and 10 of class 1 at 11..=20: gain 1 bit, far above the
        // bound (log2(19) + log2(7) - 2) / 20 = 0.252.
        let values: Vec<f64> = (1..=20).map(f64::from).collect();
        let classes: Vec<usize> = (0..20).map(|i| usize::from(i >= 10)).collect();
        let weights = vec![1.0; 20];
        assert_eq!(mdl_cut_points(&values, &classes, &weights, 2), vec![10.5]);
    }

    #[test]
    fn too_few_rows_give_no_cut() {
        // Alternating classes: the best cut is 1.5 (conditional entropy 0.75 H(1/3) = 0.689,
        // gain 0.311; the cut at 3.5 ties and comes later). Bound, by hand: k = 2, k1 = 1,
        // k2 = 2, delta = log2(7) - (2 - 2 * 0.918) = 2.644, (log2(3) + 2.644) / 4 = 1.057.
        let values = [1.0, 2.0, 3.0, 4.0];
        let classes = [0, 1, 0, 1];
        assert!(mdl_cut_points(&values, &classes, &[1.0; 4], 2).is_empty());
    }
}
