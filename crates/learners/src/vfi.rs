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
        let positions: Vec<usize> = (0..train.len())
            .filter(|&p| train.weight(p) > 0.0)
            .collect();
        if positions.is_empty() {
            return Err(LearnerError::Data {
                learner: "vfi".into(),
                message: "no training rows with positive weight".into(),
            });
        }
        let num_classes = train.num_classes();
        let mut class_totals = vec![0.0; num_classes];
        for &p in &positions {
            class_totals[train.class(p)] += train.weight(p);
        }
        let mut attributes = Vec::with_capacity(train.num_attributes());
        for (attribute, info) in train.schema().attributes.iter().enumerate() {
            let intervals = match &info.kind {
                AttributeKind::Numeric => {
                    let mut lowest = vec![f64::INFINITY; num_classes];
                    let mut highest = vec![f64::NEG_INFINITY; num_classes];
                    for &p in &positions {
                        let value = train.value(p, attribute);
                        if !value.is_nan() {
                            let class = train.class(p);
                            lowest[class] = lowest[class].min(value);
                            highest[class] = highest[class].max(value);
                        }
                    }
                    let mut bounds = vec![f64::NEG_INFINITY, f64::INFINITY];
                    bounds.extend(lowest.iter().chain(&highest).copied());
                    bounds.sort_by(|a, b| a.total_cmp(b));
                    bounds.dedup();
                    let mut counts = vec![vec![0.0; num_classes]; bounds.len()];
                    for &p in &positions {
                        let value = train.value(p, attribute);
                        if value.is_nan() {
                            continue;
                        }
                        let (class, weight) = (train.class(p), train.weight(p));
                        match locate(&bounds, value) {
                            Location::Inside(k) => counts[k][class] += weight,
                            Location::OnBound(k) => {
                                counts[k][class] += weight / 2.0;
                                counts[k - 1][class] += weight / 2.0;
                            }
                        }
                    }
                    Intervals::Numeric { bounds, counts }
                }
                AttributeKind::Nominal(names) => {
                    let mut counts = vec![vec![0.0; num_classes]; names.len()];
                    for &p in &positions {
                        let value = train.value(p, attribute);
                        if !value.is_nan() {
                            counts[value as usize][train.class(p)] += train.weight(p);
                        }
                    }
                    Intervals::Nominal { counts }
                }
            };
            attributes.push(intervals);
        }
        Ok(VfiModel {
            config: self.config.clone(),
            class_totals,
            attributes,
        })
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
    // Index of the first bound >= value; bounds[0] = -inf < value.
    let first_not_below = bounds.partition_point(|&bound| bound < value);
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
}

impl VfiModel {
    /// One attribute's normalised vote for a present test value.
    fn vote(&self, attribute: usize, value: f64, tiny: f64, vote: &mut [f64]) {
        let share = |count: f64, class: usize| (count + tiny) / (self.class_totals[class] + tiny);
        match &self.attributes[attribute] {
            Intervals::Numeric { bounds, counts } => match locate(bounds, value) {
                Location::Inside(k) => {
                    for (class, slot) in vote.iter_mut().enumerate() {
                        *slot = share(counts[k][class], class);
                    }
                }
                Location::OnBound(k) => {
                    for (class, slot) in vote.iter_mut().enumerate() {
                        *slot = share((counts[k][class] + counts[k - 1][class]) / 2.0, class);
                    }
                }
            },
            Intervals::Nominal { counts } => {
                for (class, slot) in vote.iter_mut().enumerate() {
                    *slot = share(counts[value as usize][class], class);
                }
            }
        }
        for (class, slot) in vote.iter_mut().enumerate() {
            if self.class_totals[class] <= 0.0 {
                *slot = 0.0;
            }
        }
        let sum: f64 = vote.iter().sum();
        if sum <= 0.0 {
            let uniform = 1.0 / vote.len() as f64;
            vote.iter_mut().for_each(|v| *v = uniform);
        } else {
            vote.iter_mut().for_each(|v| *v /= sum);
        }
    }
}

impl Model for VfiModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let num_classes = self.class_totals.len();
        let tiny = if self.config.weight_by_confidence {
            TINY
        } else {
            0.0
        };
        let mut probabilities = Probabilities::zeros(test.len(), num_classes);
        let mut vote = vec![0.0; num_classes];
        let mut certain = vec![0.0; num_classes];
        for position in 0..test.len() {
            let row = probabilities.row_mut(position);
            let mut any_certain = false;
            certain.iter_mut().for_each(|c| *c = 0.0);
            for attribute in 0..self.attributes.len() {
                let value = test.value(position, attribute);
                if value.is_nan() {
                    continue;
                }
                self.vote(attribute, value, tiny, &mut vote);
                let mut weight = 1.0;
                if self.config.weight_by_confidence {
                    let entropy = entropy_bits(&vote);
                    weight = entropy.powf(-self.config.bias).max(1.0);
                }
                if weight.is_infinite() {
                    any_certain = true;
                    for (slot, &v) in certain.iter_mut().zip(&vote) {
                        *slot += v;
                    }
                } else {
                    for (slot, &v) in row.iter_mut().zip(&vote) {
                        *slot += v * weight;
                    }
                }
            }
            if any_certain {
                row.copy_from_slice(&certain);
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
