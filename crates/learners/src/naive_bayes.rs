//! Naive Bayes as Weka 3.6's `weka.classifiers.bayes.NaiveBayes` (and its `-D` option).
//!
//! * Class prior: Laplace-corrected weighted counts, `(w_c + 1) / (W + K)`.
//! * Nominal attribute (and a discretised numeric one): Laplace-corrected weighted counts per
//!   class, `(w_cv + 1) / (w_c + V)` with `V` the number of values in the schema, so a value
//!   never seen in training gets `1 / (w_c + V)`.
//! * Numeric attribute: a normal distribution per class with Weka's precision rules. The
//!   attribute's precision `d` is the mean gap between consecutive distinct training values,
//!   `(max - min) / (distinct - 1)`, or 0.01 when there are fewer than two distinct values.
//!   Values are rounded to the nearest multiple of `d` (ties to even) for fitting and predicting.
//!   Per class, the mean and standard deviation are the weighted ones (divisor = sum of weights);
//!   the standard deviation is floored at `d / 6`, and when it is below 1e-10 (a single distinct
//!   value, or no rows of that class) it is `d / 6`. The likelihood of a value `x` is the
//!   probability of the rounding interval, `Phi((x - mean + d/2) / sd) - Phi((x - mean - d/2) /
//!   sd)`, computed with `erfc` in the tail where it is accurate (Weka subtracts two values
//!   near 1 in the upper tail and gets 0 earlier).
//! * As in Weka each attribute's likelihood is floored at 1e-75 before multiplying; missing
//!   values (training or test) are skipped.
//! * Everything is summed in log space and normalised with log-sum-exp, so hundreds of
//!   attributes cannot underflow.
//! * With `discretize = true`, numeric attributes are first discretised by Fayyad and Irani's
//!   MDL method on the training rows (see [`crate::discretize`]) and then treated as nominal.

use data::{Features, Schema, View};

use crate::discretize::MdlDiscretizer;
use crate::{Learner, LearnerError, Model, ParamError, Params, Probabilities};

/// Weka's default precision of a numeric attribute with fewer than two distinct values.
const DEFAULT_PRECISION: f64 = 0.01;
/// Weka's floor of one attribute's likelihood.
const LIKELIHOOD_FLOOR: f64 = 1e-75;

/// The naive Bayes learner: Gaussian or MDL-discretised numeric attributes.
#[derive(Clone, Debug)]
pub struct NaiveBayes {
    discretize: bool,
}

impl NaiveBayes {
    /// A naive Bayes learner; `discretize` turns on MDL discretisation (Weka's `-D`).
    pub fn new(discretize: bool) -> Self {
        NaiveBayes { discretize }
    }

    /// Builds from config parameters: `discretize` (boolean, default false).
    pub fn from_params(mut params: Params) -> Result<Box<dyn Learner>, ParamError> {
        let discretize = params.boolean("discretize", false)?;
        params.finish()?;
        Ok(Box::new(NaiveBayes::new(discretize)))
    }
}

/// The per-class normal distribution of one numeric attribute.
#[derive(Clone, Debug)]
struct Normal {
    mean: f64,
    standard_deviation: f64,
}

/// What the model knows about one attribute.
#[derive(Clone, Debug)]
enum AttributeModel {
    /// Log-probability of each value, per class: `[class][value]`.
    Discrete(Vec<Vec<f64>>),
    /// Rounding precision and one normal distribution per class.
    Gaussian {
        precision: f64,
        classes: Vec<Normal>,
    },
}

/// A fitted naive Bayes model.
#[derive(Clone, Debug)]
pub struct NaiveBayesModel {
    log_priors: Vec<f64>,
    attributes: Vec<AttributeModel>,
    discretizer: Option<MdlDiscretizer>,
}

/// Rounds to the nearest multiple of `precision`, ties to even (Java's `Math.rint`).
fn round_to(value: f64, precision: f64) -> f64 {
    (value / precision).round_ties_even() * precision
}

/// Standard normal lower-tail probability.
fn normal_cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

/// Probability that a normal variable falls in `[low, high]` (standardised bounds), accurate in
/// both tails.
fn normal_interval(low: f64, high: f64) -> f64 {
    if low > 0.0 {
        normal_cdf(-low) - normal_cdf(-high)
    } else {
        normal_cdf(high) - normal_cdf(low)
    }
}

/// Weka's precision of a numeric attribute: mean gap between distinct sorted values.
fn precision_of(values: &mut [f64]) -> f64 {
    values.sort_unstable_by(f64::total_cmp);
    let distinct_gaps = values.windows(2).filter(|pair| pair[1] != pair[0]).count();
    if distinct_gaps == 0 {
        return DEFAULT_PRECISION;
    }
    let gap_sum: f64 = values
        .windows(2)
        .filter(|pair| pair[1] != pair[0])
        .map(|pair| pair[1] - pair[0])
        .sum();
    gap_sum / distinct_gaps as f64
}

impl Learner for NaiveBayes {
    fn name(&self) -> &str {
        if self.discretize {
            "naive_bayes_mdl"
        } else {
            "naive_bayes"
        }
    }

    fn describe(&self) -> String {
        format!("naive_bayes(discretize={})", self.discretize)
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        if train.num_classes() == 0 {
            return Err(LearnerError::Data {
                learner: self.name().into(),
                message: "the schema has no class values".into(),
            });
        }
        Ok(Box::new(self.fit_concrete(train)))
    }
}

impl NaiveBayes {
    /// Fits the model (the schema must have at least one class).
    fn fit_concrete(&self, train: &View) -> NaiveBayesModel {
        let schema = train.schema();
        let num_classes = train.num_classes();
        let class_weights = train.class_counts();
        let total_weight: f64 = class_weights.iter().sum();
        let log_priors = class_weights
            .iter()
            .map(|&w| ((w + 1.0) / (total_weight + num_classes as f64)).ln())
            .collect();
        let discretizer = self.discretize.then(|| MdlDiscretizer::fit(train));
        let mut attributes = Vec::with_capacity(schema.num_attributes());
        for (attribute, description) in schema.attributes.iter().enumerate() {
            let discrete_values = match &discretizer {
                Some(discretizer) => Some(discretizer.num_values(schema, attribute)),
                None => description.values().map(|values| values.len()),
            };
            if let Some(num_values) = discrete_values {
                let mut counts = vec![vec![1.0; num_values]; num_classes];
                for position in 0..train.len() {
                    let raw = train.value(position, attribute);
                    let value = match &discretizer {
                        Some(discretizer) => discretizer.discrete_value(attribute, raw),
                        None => (!raw.is_nan()).then_some(raw as usize),
                    };
                    if let Some(value) = value {
                        counts[train.class(position)][value] += train.weight(position);
                    }
                }
                let log_probabilities = counts
                    .into_iter()
                    .map(|row| {
                        let total: f64 = row.iter().sum();
                        row.into_iter().map(|count| (count / total).ln()).collect()
                    })
                    .collect();
                attributes.push(AttributeModel::Discrete(log_probabilities));
            } else {
                let mut known: Vec<f64> = (0..train.len())
                    .map(|position| train.value(position, attribute))
                    .filter(|value| !value.is_nan())
                    .collect();
                let precision = precision_of(&mut known);
                let mut sums = vec![(0.0, 0.0, 0.0); num_classes];
                for position in 0..train.len() {
                    let value = train.value(position, attribute);
                    let weight = train.weight(position);
                    if value.is_nan() || weight == 0.0 {
                        continue;
                    }
                    let value = round_to(value, precision);
                    let entry = &mut sums[train.class(position)];
                    entry.0 += weight;
                    entry.1 += weight * value;
                    entry.2 += weight * value * value;
                }
                let classes = sums
                    .into_iter()
                    .map(|(weight, sum, sum_of_squares)| {
                        let floor = precision / 6.0;
                        if weight <= 0.0 {
                            return Normal {
                                mean: 0.0,
                                standard_deviation: floor,
                            };
                        }
                        let mean = sum / weight;
                        let deviation = ((sum_of_squares - mean * sum).abs() / weight).sqrt();
                        Normal {
                            mean,
                            standard_deviation: if deviation > 1e-10 {
                                deviation.max(floor)
                            } else {
                                floor
                            },
                        }
                    })
                    .collect();
                attributes.push(AttributeModel::Gaussian { precision, classes });
            }
        }
        NaiveBayesModel {
            log_priors,
            attributes,
            discretizer,
        }
    }
}

impl NaiveBayesModel {
    /// Log of the floored likelihood of one attribute value under one class.
    fn log_likelihood(&self, attribute: usize, class: usize, raw: f64) -> Option<f64> {
        let likelihood_floor = LIKELIHOOD_FLOOR.ln();
        match &self.attributes[attribute] {
            AttributeModel::Discrete(log_probabilities) => {
                let value = match &self.discretizer {
                    Some(discretizer) => discretizer.discrete_value(attribute, raw)?,
                    None if raw.is_nan() => return None,
                    None => raw as usize,
                };
                let log_probability = log_probabilities[class].get(value).copied()?;
                Some(log_probability.max(likelihood_floor))
            }
            AttributeModel::Gaussian { precision, classes } => {
                if raw.is_nan() {
                    return None;
                }
                let value = round_to(raw, *precision);
                let normal = &classes[class];
                let low = (value - normal.mean - precision / 2.0) / normal.standard_deviation;
                let high = (value - normal.mean + precision / 2.0) / normal.standard_deviation;
                Some(normal_interval(low, high).max(LIKELIHOOD_FLOOR).ln())
            }
        }
    }
}

impl Model for NaiveBayesModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let num_classes = self.log_priors.len();
        let mut probabilities = Probabilities::zeros(test.len(), num_classes);
        let mut scores = vec![0.0; num_classes];
        for position in 0..test.len() {
            scores.copy_from_slice(&self.log_priors);
            for attribute in 0..self.attributes.len() {
                let raw = test.value(position, attribute);
                for (class, score) in scores.iter_mut().enumerate() {
                    if let Some(log_likelihood) = self.log_likelihood(attribute, class, raw) {
                        *score += log_likelihood;
                    }
                }
            }
            let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let row = probabilities.row_mut(position);
            let mut total = 0.0;
            for (out, &score) in row.iter_mut().zip(&scores) {
                *out = (score - max).exp();
                total += *out;
            }
            for out in row.iter_mut() {
                *out /= total;
            }
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let mut text = String::from("naive Bayes\nclass priors:");
        for (class, log_prior) in self.log_priors.iter().enumerate() {
            text += &format!(" {}={:.4}", schema.class_values[class], log_prior.exp());
        }
        text.push('\n');
        for (attribute, model) in self.attributes.iter().enumerate() {
            let name = &schema.attributes[attribute].name;
            match model {
                AttributeModel::Discrete(_) => match self
                    .discretizer
                    .as_ref()
                    .and_then(|d| d.cut_points(attribute))
                {
                    Some(cuts) => text += &format!("{name}: MDL cut points {cuts:?}\n"),
                    None => text += &format!("{name}: discrete, Laplace-corrected counts\n"),
                },
                AttributeModel::Gaussian { precision, classes } => {
                    text += &format!("{name}: normal, precision {precision:.6}");
                    for (class, normal) in classes.iter().enumerate() {
                        text += &format!(
                            "; {}: mean {:.4} sd {:.4}",
                            schema.class_values[class], normal.mean, normal.standard_deviation
                        );
                    }
                    text.push('\n');
                }
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use data::{Attribute, Dataset};

    fn two_class_schema(attribute: Attribute) -> Schema {
        Schema {
            attributes: vec![attribute],
            class_name: "class".into(),
            class_values: vec!["yes".into(), "no".into()],
        }
    }

    #[test]
    fn laplace_corrected_counts_by_hand() {
        // (a, yes), (a, yes), (b, yes), (b, no). Priors (3+1)/6 and (1+1)/6; P(a|yes) = 3/5,
        // P(a|no) = 1/3; so P(yes | a) = (2/5) / (2/5 + 1/9) = 18/23.
        let schema = two_class_schema(Attribute::nominal("v", vec!["a".into(), "b".into()]));
        let dataset = Dataset::new(
            "toy",
            schema,
            vec![vec![0.0, 0.0, 1.0, 1.0]],
            vec![0, 0, 0, 1],
            None,
        )
        .unwrap();
        let model = NaiveBayes::new(false).fit(&dataset.view(), 0).unwrap();
        let probabilities = model
            .predict_proba(&Features::of(&dataset, vec![0]))
            .expect("prediction");
        assert!((probabilities.row(0)[0] - 18.0 / 23.0).abs() < 1e-15);
    }

    #[test]
    fn precision_is_the_mean_gap_between_distinct_values() {
        assert_eq!(precision_of(&mut [4.0, 1.0, 2.0, 2.0]), 1.5);
        assert_eq!(precision_of(&mut [7.0, 7.0]), DEFAULT_PRECISION);
        assert_eq!(precision_of(&mut []), DEFAULT_PRECISION);
    }

    #[test]
    fn gaussian_rounds_to_precision_ties_to_even() {
        // Values 1 and 3: precision 2; 1/2 = 0.5 rounds to 0 and 3/2 = 1.5 to 2, so the rounded
        // values are 0 and 4: mean 2, standard deviation 2 (divisor = weight). The likelihood of
        // x = 2 is Phi(0.5) - Phi(-0.5) = 0.38292492254802624 (scipy.stats.norm.cdf).
        // Class "no" has no rows: mean 0, standard deviation 2/6; the likelihood of x = 0 is
        // Phi(3) - Phi(-3) = 0.9973002039367398 (scipy).
        let schema = two_class_schema(Attribute::numeric("x"));
        let dataset = Dataset::new("toy", schema, vec![vec![1.0, 3.0]], vec![0, 0], None).unwrap();
        let concrete = NaiveBayes::new(false).fit_concrete(&dataset.view());
        let yes = concrete.log_likelihood(0, 0, 2.0).unwrap().exp();
        assert!((yes - 0.38292492254802624).abs() < 1e-15, "{yes}");
        let no = concrete.log_likelihood(0, 1, 0.0).unwrap().exp();
        assert!((no - 0.9973002039367398).abs() < 1e-15, "{no}");
    }
}
