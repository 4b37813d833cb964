//! Weighted class counts per branch ("bags") of a split, and the entropy and pruning
//! estimates computed from them, following Quinlan's C4.5 release 8 as Weka's J48 does.

/// Tolerance of the comparisons C4.5 makes between weighted counts.
pub(crate) const SMALL: f64 = 1e-6;

/// Class weights in each branch of a split (a leaf has one branch).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Distribution {
    num_classes: usize,
    per_class_per_bag: Vec<f64>,
    per_bag: Vec<f64>,
    per_class: Vec<f64>,
    total: f64,
}

impl Distribution {
    /// An empty distribution with `bags` branches.
    pub(crate) fn new(bags: usize, num_classes: usize) -> Self {
        Distribution {
            num_classes,
            per_class_per_bag: vec![0.0; bags * num_classes],
            per_bag: vec![0.0; bags],
            per_class: vec![0.0; num_classes],
            total: 0.0,
        }
    }

    /// A one-branch distribution (a leaf's) with class weights `per_class` whose sum, added in
    /// the order the weights were, is `total`.
    pub(crate) fn single_bag(per_class: &[f64], total: f64) -> Self {
        Distribution {
            num_classes: per_class.len(),
            per_class_per_bag: per_class.to_vec(),
            per_bag: vec![total],
            per_class: per_class.to_vec(),
            total,
        }
    }

    /// Number of branches.
    pub(crate) fn num_bags(&self) -> usize {
        self.per_bag.len()
    }

    /// Adds an instance of `class` with `weight` to branch `bag`.
    #[inline]
    pub(crate) fn add(&mut self, bag: usize, class: usize, weight: f64) {
        self.per_class_per_bag[bag * self.num_classes + class] += weight;
        self.per_bag[bag] += weight;
        self.per_class[class] += weight;
        self.total += weight;
    }

    /// Adds an instance whose split value is unknown, spread over the branches in proportion
    /// to `fractions`.
    pub(crate) fn add_spread(&mut self, class: usize, weight: f64, fractions: &[f64]) {
        self.per_class[class] += weight;
        self.total += weight;
        for (bag, &fraction) in fractions.iter().enumerate() {
            let part = fraction * weight;
            self.per_class_per_bag[bag * self.num_classes + class] += part;
            self.per_bag[bag] += part;
        }
    }

    /// The share of weight in each branch (uniform when empty): how an instance with an
    /// unknown split value is divided among the branches.
    pub(crate) fn bag_fractions(&self) -> Vec<f64> {
        let bags = self.num_bags();
        if (self.total).abs() < SMALL {
            vec![1.0 / bags as f64; bags]
        } else {
            self.per_bag.iter().map(|&w| w / self.total).collect()
        }
    }

    /// The same counts merged into a single branch (what a leaf keeps).
    pub(crate) fn merged(&self) -> Distribution {
        Distribution {
            num_classes: self.num_classes,
            per_class_per_bag: self.per_class.clone(),
            per_bag: vec![self.total],
            per_class: self.per_class.clone(),
            total: self.total,
        }
    }

    /// Total weight.
    pub(crate) fn total(&self) -> f64 {
        self.total
    }

    /// Weight of one branch.
    pub(crate) fn bag_weight(&self, bag: usize) -> f64 {
        self.per_bag[bag]
    }

    /// Weight of one class over all branches.
    pub(crate) fn class_weight(&self, class: usize) -> f64 {
        self.per_class[class]
    }

    /// Weight of one class in one branch.
    pub(crate) fn class_in_bag(&self, bag: usize, class: usize) -> f64 {
        self.per_class_per_bag[bag * self.num_classes + class]
    }

    /// The majority class over all branches (the first one on ties).
    pub(crate) fn majority_class(&self) -> usize {
        let mut best = 0;
        let mut best_weight = 0.0;
        for (class, &weight) in self.per_class.iter().enumerate() {
            if weight - best_weight > SMALL {
                best = class;
                best_weight = weight;
            }
        }
        best
    }

    /// The majority class of one branch, or of the whole when the branch is empty.
    pub(crate) fn majority_class_in(&self, bag: usize) -> usize {
        if self.per_bag[bag] <= SMALL {
            return self.majority_class();
        }
        let mut best = 0;
        let mut best_weight = 0.0;
        for class in 0..self.num_classes {
            let weight = self.class_in_bag(bag, class);
            if weight - best_weight > SMALL {
                best = class;
                best_weight = weight;
            }
        }
        best
    }

    /// The heaviest branch (the last one on ties, as in C4.5).
    pub(crate) fn heaviest_bag(&self) -> usize {
        let mut best = 0;
        let mut best_weight = 0.0;
        for (bag, &weight) in self.per_bag.iter().enumerate() {
            if best_weight - weight < SMALL {
                best = bag;
                best_weight = weight;
            }
        }
        best
    }

    /// Weight not of the majority class.
    pub(crate) fn errors(&self) -> f64 {
        self.total - self.per_class[self.majority_class()]
    }

    /// Weight in one branch not of that branch's majority class.
    pub(crate) fn errors_in(&self, bag: usize) -> f64 {
        self.per_bag[bag] - self.class_in_bag(bag, self.majority_class_in(bag))
    }

    /// Relative class frequency over all branches (0 when empty).
    pub(crate) fn probability(&self, class: usize) -> f64 {
        if self.total.abs() < SMALL {
            0.0
        } else {
            self.per_class[class] / self.total
        }
    }

    /// Relative class frequency in one branch, or over all when the branch is empty.
    pub(crate) fn probability_in(&self, class: usize, bag: usize) -> f64 {
        if self.per_bag[bag] > SMALL {
            self.class_in_bag(bag, class) / self.per_bag[bag]
        } else {
            self.probability(class)
        }
    }

    /// Laplace-corrected class frequency over all branches.
    pub(crate) fn laplace_probability(&self, class: usize) -> f64 {
        (self.per_class[class] + 1.0) / (self.total + self.num_classes as f64)
    }

    /// Laplace-corrected class frequency in one branch, or over all when the branch is empty.
    pub(crate) fn laplace_probability_in(&self, class: usize, bag: usize) -> f64 {
        if self.per_bag[bag] > SMALL {
            (self.class_in_bag(bag, class) + 1.0) / (self.per_bag[bag] + self.num_classes as f64)
        } else {
            self.laplace_probability(class)
        }
    }

    /// A leaf's class probability as prediction reads it: Laplace-corrected when `laplace`.
    pub(crate) fn leaf_probability(&self, class: usize, laplace: bool) -> f64 {
        if laplace {
            self.laplace_probability(class)
        } else {
            self.probability(class)
        }
    }

    /// An empty branch's class probability as prediction reads it (from this, its parent's
    /// distribution): Laplace-corrected when `laplace`.
    pub(crate) fn branch_probability(&self, class: usize, bag: usize, laplace: bool) -> f64 {
        if laplace {
            self.laplace_probability_in(class, bag)
        } else {
            self.probability_in(class, bag)
        }
    }

    /// True when at least two branches hold `min_weight` or more.
    pub(crate) fn has_two_branches_of(&self, min_weight: f64) -> bool {
        self.per_bag
            .iter()
            .filter(|&&weight| min_weight - weight < SMALL)
            .count()
            > 1
    }

    /// Entropy (in bits, times weight) of the class counts ignoring the branches.
    pub(crate) fn class_entropy(&self, x_log_x: &XLogX) -> f64 {
        class_entropy_of(&self.per_class, self.total, x_log_x)
    }

    /// Entropy (in bits, times weight) of the class counts within the branches.
    pub(crate) fn branch_class_entropy(&self, x_log_x: &XLogX) -> f64 {
        let mut value = 0.0;
        for bag in 0..self.num_bags() {
            for class in 0..self.num_classes {
                value += x_log_x.get(self.class_in_bag(bag, class));
            }
            value -= x_log_x.get(self.per_bag[bag]);
        }
        -value / std::f64::consts::LN_2
    }

    /// Information gain (bits) of the split, discounted for the weight whose value is unknown
    /// (`total_weight` includes it), given the class entropy of the known part.
    pub(crate) fn info_gain_with(
        &self,
        total_weight: f64,
        class_entropy: f64,
        x_log_x: &XLogX,
    ) -> f64 {
        let unknown_rate = (total_weight - self.total) / total_weight;
        let numerator = (class_entropy - self.branch_class_entropy(x_log_x)) * (1.0 - unknown_rate);
        if numerator.abs() < SMALL {
            0.0
        } else {
            numerator / self.total
        }
    }

    /// Information gain (bits) of the split, discounted for unknown values.
    pub(crate) fn info_gain(&self, total_weight: f64, x_log_x: &XLogX) -> f64 {
        self.info_gain_with(total_weight, self.class_entropy(x_log_x), x_log_x)
    }

    /// Gain ratio of the split for a given (corrected) information gain.
    pub(crate) fn gain_ratio(&self, total_weight: f64, info_gain: f64, x_log_x: &XLogX) -> f64 {
        gain_ratio_of(&self.per_bag, self.total, total_weight, info_gain, x_log_x)
    }
}

/// Split information (bits) of branches weighing `branch_weights` (`known_weight` in all) plus
/// one branch for the weight whose value is unknown (`total_weight` includes it).
fn split_info_of(
    branch_weights: &[f64],
    known_weight: f64,
    total_weight: f64,
    x_log_x: &XLogX,
) -> f64 {
    let mut value = 0.0;
    if known_weight > SMALL {
        for &weight in branch_weights {
            value -= x_log_x.get(weight);
        }
        value -= x_log_x.get(total_weight - known_weight);
        value += x_log_x.get(total_weight);
    }
    value / std::f64::consts::LN_2
}

/// Gain ratio of a split with branches weighing `branch_weights` (`known_weight` in all, of
/// `total_weight` with the unknown part) for a given (corrected) information gain.
pub(crate) fn gain_ratio_of(
    branch_weights: &[f64],
    known_weight: f64,
    total_weight: f64,
    info_gain: f64,
    x_log_x: &XLogX,
) -> f64 {
    let split_info = split_info_of(branch_weights, known_weight, total_weight, x_log_x);
    if split_info.abs() < SMALL {
        return 0.0;
    }
    info_gain / (split_info / total_weight)
}

/// Entropy (in bits, times weight) of class weights `per_class` summing to `total`.
pub(crate) fn class_entropy_of(per_class: &[f64], total: f64, x_log_x: &XLogX) -> f64 {
    let sum: f64 = per_class.iter().map(|&w| x_log_x.get(w)).sum();
    (x_log_x.get(total) - sum) / std::f64::consts::LN_2
}

/// `w ln w` for whole weights up to a bound, looked up instead of computed (the values are
/// exactly those `weight_log` computes).
#[derive(Clone, Debug)]
pub(crate) struct XLogX {
    table: Vec<f64>,
}

impl XLogX {
    /// A table for whole weights `0..=largest`.
    pub(crate) fn up_to(largest: usize) -> Self {
        XLogX {
            table: (0..=largest).map(|w| weight_log(w as f64)).collect(),
        }
    }

    /// `n ln n` for a whole count within the table.
    #[inline]
    pub(crate) fn whole(&self, count: usize) -> f64 {
        self.table[count]
    }

    /// `w ln w` (0 for nearly empty counts).
    #[inline]
    pub(crate) fn get(&self, weight: f64) -> f64 {
        let index = weight as usize;
        if index as f64 == weight && index < self.table.len() {
            self.table[index]
        } else {
            weight_log(weight)
        }
    }
}

/// `w ln w`, or 0 for (nearly) empty counts.
fn weight_log(weight: f64) -> f64 {
    if weight < SMALL {
        0.0
    } else {
        weight * weight.ln()
    }
}

/// Upper-tail standard normal probability Q(x) = P(Z > x) for x >= 0.
fn normal_upper_tail(x: f64) -> f64 {
    let density = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
    if x < 5.0 {
        // Phi(x) = 1/2 + density * sum x^(2n+1) / (1*3*...*(2n+1)).
        let mut term = x;
        let mut sum = x;
        let mut n = 1.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 2.0;
            term *= x * x / n;
            sum += term;
        }
        0.5 - density * sum
    } else {
        // Continued fraction Q(x) = density / (x + 1/(x + 2/(x + 3/(x + ...)))).
        let mut fraction = x;
        for k in (1..200).rev() {
            fraction = x + k as f64 / fraction;
        }
        density / fraction
    }
}

/// The standard normal quantile z with P(Z > z) = `upper` for `upper` in (0, 0.5].
pub(crate) fn normal_upper_quantile(upper: f64) -> f64 {
    let (mut low, mut high) = (0.0f64, 40.0f64);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if normal_upper_tail(middle) > upper {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// C4.5's pessimistic estimate of extra errors: the upper confidence limit (at level
/// `confidence`, with normal quantile `z`) of the error count `errors` among `total`, minus
/// `errors`.
pub(crate) fn added_errors(total: f64, errors: f64, confidence: f64, z: f64) -> f64 {
    if confidence > 0.5 {
        return 0.0;
    }
    if errors < 1.0 {
        let base = total * (1.0 - confidence.powf(1.0 / total));
        if errors == 0.0 {
            return base;
        }
        return base + errors * (added_errors(total, 1.0, confidence, z) - base);
    }
    if errors + 0.5 >= total {
        return (total - errors).max(0.0);
    }
    let rate = (errors + 0.5) / total;
    let upper = (rate
        + z * z / (2.0 * total)
        + z * (rate / total - rate * rate / total + z * z / (4.0 * total * total)).sqrt())
        / (1.0 + z * z / total);
    upper * total - errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantiles_match_tables() {
        // Standard normal table values (Abramowitz & Stegun 26.2).
        assert!((normal_upper_quantile(0.25) - 0.674_489_750_196_081_7).abs() < 1e-12);
        assert!((normal_upper_quantile(0.025) - 1.959_963_984_540_054).abs() < 1e-12);
        assert!((normal_upper_quantile(0.5)).abs() < 1e-12);
    }

    #[test]
    fn added_errors_match_quinlan_book() {
        // Quinlan (1993), p. 41: U_0.25(0, 6) = 0.206, U_0.25(0, 9) = 0.143, U_0.25(0, 1) = 0.750.
        let z = normal_upper_quantile(0.25);
        assert!((added_errors(6.0, 0.0, 0.25, z) / 6.0 - 0.206).abs() < 5e-4);
        assert!((added_errors(9.0, 0.0, 0.25, z) / 9.0 - 0.143).abs() < 5e-4);
        assert!((added_errors(1.0, 0.0, 0.25, z) - 0.750).abs() < 5e-4);
    }
}
