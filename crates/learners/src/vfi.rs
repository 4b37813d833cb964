//! Voting feature intervals (Demiroz & Guvenir 1997), as Weka 3.6's
//! `weka.classifiers.misc.VFI` with its defaults (weighting by confidence, bias 0.6).
//!
//! Training: for each numeric attribute, the smallest and largest value of every class are the
//! interval bounds (with -inf and +inf, sorted, duplicates removed); every training value adds
//! its weight to the class count of the interval it falls in, or half to each of the two
//! intervals beside a bound it equals. A nominal attribute has one "interval" per value.
//!
//! Prediction: each attribute whose test value is present votes with the class counts of the
//! test value's interval (the average of the two intervals beside a bound it equals), each
//! divided by its class's total weight, normalised to sum to 1. With weighting by confidence a
//! small constant (1e-11) is added to every count and total, and a vote is multiplied by
//! `max(1, H^-bias)`, `H` being the entropy (bits) of the vote, so confident attributes weigh
//! more. The votes are summed and normalised. Instance weights add up like counts, so a row of
//! weight 2 is the row twice.
//!
//! Weka's edge case kept apart: a vote of entropy 0 (possible only when the training data has a
//! single class or without the small constant) has infinite weight in Weka and makes its sum
//! NaN; here the votes of infinite weight are summed alone (their limit).

use data::{AttributeKind, Features, Schema, View};

use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};

/// VFI's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct VfiConfig {
    /// Weight each attribute's vote by its confidence (Weka's default; `-C` turns it off).
    pub weight_by_confidence: bool,
    /// Exponential bias towards confident votes (Weka's `-B`, default 0.6).
    pub bias: f64,
}

impl Default for VfiConfig {
    fn default() -> Self {
        VfiConfig {
            weight_by_confidence: true,
            bias: 0.6,
        }
    }
}

/// The VFI learner (`kind = "vfi"`).
#[derive(Clone, Debug)]
pub struct VfiLearner {
    config: VfiConfig,
}

/// Added to counts and totals when weighting by confidence (Weka's constant).
const TINY: f64 = 1e-11;

impl VfiLearner {
    /// A learner with the given parameters.
    pub fn new(config: VfiConfig) -> Self {
        VfiLearner { config }
    }

    /// Reads `weight_by_confidence` (default true) and `bias` (0 to 100, default 0.6).
    pub fn from_params(mut params: Params) -> Result<Self, ParamError> {
        let weight_by_confidence = params.boolean("weight_by_confidence", true)?;
        let bias = params.real("bias", 0.6, 0.0, 100.0)?;
        params.finish()?;
        Ok(VfiLearner::new(VfiConfig {
            weight_by_confidence,
            bias,
        }))
    }

    /// The parameters in use.
    pub fn config(&self) -> &VfiConfig {
        &self.config
    }

    /// Fits the concrete VFI model (interval bounds and class counts).
    pub fn fit_vfi(&self, train: &View) -> Result<VfiModel, LearnerError> {
        // The rows of positive weight, as dataset rows with their class and weight.
        let mut rows = Vec::with_capacity(train.len());
        let mut classes = Vec::with_capacity(train.len());
        let mut weights = Vec::with_capacity(train.len());
        for position in 0..train.len() {
            let weight = train.weight(position);
            if weight > 0.0 {
                rows.push(train.rows()[position]);
                classes.push(train.class(position));
                weights.push(weight);
            }
        }
        if rows.is_empty() {
            return Err(LearnerError::Data {
                learner: "vfi".into(),
                message: "no training rows with positive weight".into(),
            });
        }
        let num_classes = train.num_classes();
        let mut class_totals = vec![0.0; num_classes];
        for (&class, &weight) in classes.iter().zip(&weights) {
            class_totals[class] += weight;
        }
        let mut attributes = Vec::with_capacity(train.num_attributes());
        for (attribute, info) in train.schema().attributes.iter().enumerate() {
            let column = train.dataset().column(attribute);
            let values: Vec<f64> = rows.iter().map(|&row| column[row]).collect();
            let intervals = match &info.kind {
                AttributeKind::Numeric => {
                    let mut lowest = vec![f64::INFINITY; num_classes];
                    let mut highest = vec![f64::NEG_INFINITY; num_classes];
                    // Plain comparisons (false for NaN): after the first rows they are predictable
                    // branches, where min/max would chain every row through the same slot.
                    for (&value, &class) in values.iter().zip(&classes) {
                        if value < lowest[class] {
                            lowest[class] = value;
                        }
                        if value > highest[class] {
                            highest[class] = value;
                        }
                    }
                    let mut bounds = vec![f64::NEG_INFINITY, f64::INFINITY];
                    bounds.extend(lowest.iter().chain(&highest).copied());
                    bounds.sort_by(|a, b| a.total_cmp(b));
                    bounds.dedup();
                    // Class counts of the interval above each bound, `num_classes` per bound.
                    // How many bounds lie below each value, one bound at a time over all rows
                    // (a loop the compiler vectorises), then each row's count goes to its place.
                    let mut below = vec![0u64; values.len()];
                    for &bound in &bounds {
                        for (count, &value) in below.iter_mut().zip(&values) {
                            *count += u64::from(bound < value);
                        }
                    }
                    let mut counts = vec![0.0; bounds.len() * num_classes];
                    for (((&value, &class), &weight), &below) in
                        values.iter().zip(&classes).zip(&weights).zip(&below)
                    {
                        if value.is_nan() {
                            continue;
                        }
                        match place_after(&bounds, below as usize, value) {
                            Location::Inside(k) => counts[k * num_classes + class] += weight,
                            Location::OnBound(k) => {
                                counts[k * num_classes + class] += weight / 2.0;
                                counts[(k - 1) * num_classes + class] += weight / 2.0;
                            }
                        }
                    }
                    let counts = counts.chunks(num_classes).map(<[f64]>::to_vec).collect();
                    Intervals::Numeric { bounds, counts }
                }
                AttributeKind::Nominal(names) => {
                    let mut counts = vec![vec![0.0; num_classes]; names.len()];
                    for ((&value, &class), &weight) in values.iter().zip(&classes).zip(&weights) {
                        if !value.is_nan() {
                            counts[value as usize][class] += weight;
                        }
                    }
                    Intervals::Nominal { counts }
                }
            };
            attributes.push(intervals);
        }
        Ok(VfiModel::new(self.config.clone(), class_totals, attributes))
    }
}

impl Learner for VfiLearner {
    fn name(&self) -> &str {
        "vfi"
    }

    fn describe(&self) -> String {
        format!(
            "vfi(weight_by_confidence={}, bias={})",
            self.config.weight_by_confidence, self.config.bias
        )
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        Ok(Box::new(self.fit_vfi(train)?))
    }
}

/// Builds a VFI learner from config parameters (the registry's constructor).
pub fn build(params: Params) -> Result<Box<dyn Learner>, ParamError> {
    Ok(Box::new(VfiLearner::from_params(params)?))
}

/// Where a numeric value lies among the sorted interval bounds.
enum Location {
    /// Strictly above bound `k` and below bound `k + 1`: interval `k`.
    Inside(usize),
    /// Equal to bound `k` (k >= 1): between intervals `k - 1` and `k`.
    OnBound(usize),
}

/// Finds the interval of a finite value (bounds start at -inf and end at +inf).
fn locate(bounds: &[f64], value: f64) -> Location {
    // Index of the first bound >= value; bounds[0] = -inf < value. There are at most two bounds
    // per class, so counting them without branches beats a binary search's mispredictions.
    let first_not_below = bounds.iter().filter(|&&bound| bound < value).count();
    place_after(bounds, first_not_below, value)
}

/// The location of a finite value given how many bounds lie below it.
fn place_after(bounds: &[f64], first_not_below: usize, value: f64) -> Location {
    if bounds[first_not_below] == value {
        Location::OnBound(first_not_below)
    } else {
        Location::Inside(first_not_below - 1)
    }
}

/// One attribute's intervals and their class counts.
#[derive(Clone, Debug)]
enum Intervals {
    Numeric {
        /// Sorted distinct bounds, from -inf to +inf.
        bounds: Vec<f64>,
        /// Class counts of the interval above each bound.
        counts: Vec<Vec<f64>>,
    },
    Nominal {
        /// Class counts of each value.
        counts: Vec<Vec<f64>>,
    },
}

/// `x ln x`, 0 for `x <= 0` (Weka 3.6's entropy helper).
fn x_log_x(x: f64) -> f64 {
    if x <= 0.0 {
        0.0
    } else {
        x * x.ln()
    }
}

/// Entropy in bits of an unnormalised distribution, as Weka's `ContingencyTables.entropy`.
fn entropy_bits(counts: &[f64]) -> f64 {
    let sum: f64 = counts.iter().sum();
    if sum.abs() < 1e-6 {
        return 0.0;
    }
    let minus_sum_x_log_x: f64 = counts.iter().map(|&c| -x_log_x(c)).sum();
    (minus_sum_x_log_x + x_log_x(sum)) / (sum * std::f64::consts::LN_2)
}

/// A fitted VFI model.
#[derive(Clone, Debug)]
pub struct VfiModel {
    config: VfiConfig,
    class_totals: Vec<f64>,
    attributes: Vec<Intervals>,
    /// Every vote an attribute can cast, computed once at fitting.
    votes: Vec<AttributeVotes>,
}

/// The votes one attribute can cast: one per place a test value can fall (numeric: inside an
/// interval or on a bound; nominal: a value), with their weights.
#[derive(Clone, Debug)]
struct AttributeVotes {
    /// Normalised class votes, `num_classes` per place.
    votes: Vec<f64>,
    /// The weight of each place's vote (1 unless weighting by confidence).
    weights: Vec<f64>,
}

impl VfiModel {
    /// A model from its counts, with every possible vote computed.
    fn new(config: VfiConfig, class_totals: Vec<f64>, attributes: Vec<Intervals>) -> Self {
        let mut model = VfiModel {
            config,
            class_totals,
            attributes,
            votes: Vec::new(),
        };
        model.votes = model
            .attributes
            .iter()
            .map(|intervals| model.attribute_votes(intervals))
            .collect();
        model
    }

    /// The votes and weights of every place of one attribute.
    fn attribute_votes(&self, intervals: &Intervals) -> AttributeVotes {
        let places: Vec<Vec<f64>> = match intervals {
            // Place 2k is inside interval k; place 2k - 1 is on bound k, between k - 1 and k.
            Intervals::Numeric { counts, .. } => (0..2 * counts.len() - 1)
                .map(|place| {
                    let k = place.div_ceil(2);
                    if place % 2 == 0 {
                        counts[place / 2].clone()
                    } else {
                        counts[k]
                            .iter()
                            .zip(&counts[k - 1])
                            .map(|(above, below)| (above + below) / 2.0)
                            .collect()
                    }
                })
                .collect(),
            Intervals::Nominal { counts } => counts.clone(),
        };
        let mut votes = Vec::with_capacity(places.len() * self.class_totals.len());
        let mut weights = Vec::with_capacity(places.len());
        for counts in &places {
            let vote = self.vote(counts);
            weights.push(if self.config.weight_by_confidence {
                entropy_bits(&vote).powf(-self.config.bias).max(1.0)
            } else {
                1.0
            });
            votes.extend(vote);
        }
        AttributeVotes { votes, weights }
    }

    /// The normalised vote of a place with these class counts.
    fn vote(&self, counts: &[f64]) -> Vec<f64> {
        let tiny = if self.config.weight_by_confidence {
            TINY
        } else {
            0.0
        };
        let mut vote: Vec<f64> = counts
            .iter()
            .zip(&self.class_totals)
            .map(|(&count, &total)| {
                if total <= 0.0 {
                    0.0
                } else {
                    (count + tiny) / (total + tiny)
                }
            })
            .collect();
        let sum: f64 = vote.iter().sum();
        if sum <= 0.0 {
            let uniform = 1.0 / vote.len() as f64;
            vote.iter_mut().for_each(|v| *v = uniform);
        } else {
            vote.iter_mut().for_each(|v| *v /= sum);
        }
        vote
    }

    /// The place of a present test value among an attribute's votes.
    fn place(&self, attribute: usize, value: f64) -> usize {
        match &self.attributes[attribute] {
            Intervals::Numeric { bounds, .. } => match locate(bounds, value) {
                Location::Inside(k) => 2 * k,
                Location::OnBound(k) => 2 * k - 1,
            },
            Intervals::Nominal { .. } => value as usize,
        }
    }
}

impl Model for VfiModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let num_classes = self.class_totals.len();
        let mut probabilities = Probabilities::zeros(test.len(), num_classes);
        // Votes of infinite weight (entropy 0) are summed apart, per row; they win where present.
        let mut certain: Option<(Probabilities, Vec<bool>)> = None;
        // Attribute by attribute: each row still sums its votes in attribute order.
        for (attribute, votes) in self.votes.iter().enumerate() {
            for (position, value) in test.column(attribute).enumerate() {
                if value.is_nan() {
                    continue;
                }
                let place = self.place(attribute, value);
                let vote = &votes.votes[place * num_classes..(place + 1) * num_classes];
                let weight = votes.weights[place];
                if weight.is_infinite() {
                    let (sums, any) = certain.get_or_insert_with(|| {
                        (
                            Probabilities::zeros(test.len(), num_classes),
                            vec![false; test.len()],
                        )
                    });
                    any[position] = true;
                    for (slot, &v) in sums.row_mut(position).iter_mut().zip(vote) {
                        *slot += v;
                    }
                } else {
                    for (slot, &v) in probabilities.row_mut(position).iter_mut().zip(vote) {
                        *slot += v * weight;
                    }
                }
            }
        }
        for position in 0..test.len() {
            let row = probabilities.row_mut(position);
            if let Some((sums, any)) = &certain {
                if any[position] {
                    row.copy_from_slice(sums.row(position));
                }
            }
            let sum: f64 = row.iter().sum();
            if sum <= 0.0 || !sum.is_finite() {
                row.iter_mut().for_each(|p| *p = 1.0 / num_classes as f64);
            } else {
                row.iter_mut().for_each(|p| *p /= sum);
            }
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let mut text = String::from("Voting feature intervals\n");
        for (attribute, intervals) in self.attributes.iter().enumerate() {
            let name = &schema.attributes[attribute].name;
            match intervals {
                Intervals::Numeric { bounds, counts } => {
                    text.push_str(&format!("  {name}:\n"));
                    for (k, window) in bounds.windows(2).enumerate() {
                        text.push_str(&format!(
                            "    ({}, {}): {:?}\n",
                            window[0], window[1], counts[k]
                        ));
                    }
                }
                Intervals::Nominal { counts } => {
                    text.push_str(&format!("  {name}:\n"));
                    let values = schema.attributes[attribute].values().unwrap_or(&[]);
                    for (value, count) in counts.iter().enumerate() {
                        let label = values.get(value).map(String::as_str).unwrap_or("?");
                        text.push_str(&format!("    {label}: {count:?}\n"));
                    }
                }
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_on_bounds_and_inside_intervals() {
        let bounds = [f64::NEG_INFINITY, 1.0, 3.0, f64::INFINITY];
        assert!(matches!(locate(&bounds, 0.5), Location::Inside(0)));
        assert!(matches!(locate(&bounds, 1.0), Location::OnBound(1)));
        assert!(matches!(locate(&bounds, 2.0), Location::Inside(1)));
        assert!(matches!(locate(&bounds, 3.0), Location::OnBound(2)));
        assert!(matches!(locate(&bounds, 7.0), Location::Inside(2)));
    }

    #[test]
    fn parameters_are_checked() {
        let table = |text: &str| -> toml::Table { text.parse().unwrap() };
        let learner = crate::build_learner(&table(
            "kind = \"vfi\"\nbias = 1.5\nweight_by_confidence = false",
        ))
        .unwrap();
        assert_eq!(
            learner.describe(),
            "vfi(weight_by_confidence=false, bias=1.5)"
        );
        assert!(crate::build_learner(&table("kind = \"vfi\"\nbias = -1")).is_err());
        assert!(crate::build_learner(&table("kind = \"vfi\"\nweight_by_confidence = 1")).is_err());
        assert!(crate::build_learner(&table("kind = \"vfi\"\nblend = 3")).is_err());
    }

    #[test]
    fn votes_by_hand() {
        // One numeric attribute; class a at 1 and 2, class b at 3 and 4 (unit weights).
        // Bounds: -inf, 1, 2, 3, 4, +inf. Every training value sits on a bound and gives half
        // to each neighbouring interval: (-inf,1): a 0.5; (1,2): a 1; (2,3): a 0.5, b 0.5;
        // (3,4): b 1; (4,inf): b 0.5. Test value 1.5 lies in (1,2): a 1/2, b 0: P = (1, 0)
        // without weighting by confidence. Test value 2.5 in (2,3): a 0.5/2, b 0.5/2: (0.5, 0.5).
        let schema = data::Schema {
            attributes: vec![data::Attribute::numeric("x")],
            class_name: "class".into(),
            class_values: vec!["a".into(), "b".into()],
        };
        let dataset = data::Dataset::new(
            "toy",
            schema,
            vec![vec![1.0, 2.0, 3.0, 4.0, 1.5, 2.5, 3.0]],
            vec![0, 0, 1, 1, 0, 0, 0],
            None,
        )
        .unwrap();
        let learner = VfiLearner::new(VfiConfig {
            weight_by_confidence: false,
            bias: 0.6,
        });
        let model = learner.fit_vfi(&dataset.subset(vec![0, 1, 2, 3])).unwrap();
        let probabilities = model
            .predict_proba(&data::Features::of(&dataset, vec![4, 5, 6]))
            .unwrap();
        assert_eq!(probabilities.row(0), &[1.0, 0.0]);
        assert_eq!(probabilities.row(1), &[0.5, 0.5]);
        // On the bound 3: the average of (2,3) [a 0.5, b 0.5] and (3,4) [b 1]: a 0.25, b 0.75,
        // each over the class total 2: 0.125 and 0.375, normalised: (0.25, 0.75).
        assert_eq!(probabilities.row(2), &[0.25, 0.75]);
    }
}
