//! K* (Cleary & Trigg 1995), an instance-based learner with an entropic distance, as Weka 3.6's
//! `weka.classifiers.lazy.KStar` with its defaults (global blend 20%, sphere-of-influence blend
//! setting, missing mode "average column entropy curves", `-B 20 -M a`).
//!
//! The probability of transforming a test instance into a training instance is the product over
//! the attributes of per-attribute transformation probabilities:
//!
//! * numeric attribute, distance `d = |x - v|`: `P*(d) = s * exp(-2 d s)`, where the scale `s`
//!   for the test value `x` is found by bisection so that the "sphere of influence"
//!   `(sum P*)^2 / sum (P*^2)` over the training values holds `n0 + blend * (N - n0)`
//!   instances (`n0` = the training weight at the smallest distance, `N` = the weight of training
//!   rows with a value);
//! * nominal attribute with `V` values: `(1 - stop) / V`, plus `stop` when the values agree,
//!   where the stop parameter for the test value is found the same way from the value counts;
//! * a missing training value transforms with the average probability over the training
//!   values (or 0, 1, or the smallest probability in the other missing modes).
//!
//! A class's probability is the sum of the transformation probabilities to the training rows of
//! that class (times their instance weight), normalised. Products are kept as logarithms so that
//! hundreds of attributes neither overflow nor underflow (where Weka multiplies plain doubles
//! and falls back to uniform probabilities when every product underflows to zero).
//!
//! Weka's quirks kept for faithfulness: a missing test value skips the attribute and then, after
//! every later attribute, the running product is raised to the power `M / (M - missing so far)`
//! with `M` the number of attributes including the class; numeric values within 1e-5 of the
//! smallest distance count as "at the smallest distance"; the root finders stop at an accuracy
//! of 0.01 or after 40 steps, as Weka's. Instance weights count as multiplicities everywhere
//! (Weka 3.6's KStar ignores weights), so a row of weight 2 is the row twice.
//!
//! Speed: the numeric scales are found once per attribute and distinct test value, with the
//! same root-finder steps as Weka's, but each sphere size is summed over the distinct training
//! values with negligible terms left out and the far ones grouped into grid cells whose sums
//! are power series in the scale (module `sphere`), so the results differ from term-by-term
//! sums by rounding only; Weka's smallest and next smallest distances are read off the sorted
//! values unless near ties make its row scan's result depend on the row order.

mod sphere;

use data::{AttributeKind, Features, Schema, View};

use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::tune_space::TuneSpace;

/// Revision of the K* implementation: bump it whenever its outputs change.
const REVISION: u32 = 1;

/// The `kstar` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "kstar",
        description: "K* instance-based learner with an entropic distance (Cleary & Trigg 1995), as Weka's KStar (blend 20%, missing mode average)",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::integer(
                "blend",
                20,
                0,
                100,
                "global blending parameter in whole percent (Weka -B)",
            )
            .tuned(TuneSpace::Integers(&[10, 20, 40, 60])),
            ParameterSpec::choice(
                "missing_mode",
                "average",
                &["average", "delete", "maxdiff", "normal"],
                "how missing values are treated (Weka -M)",
            ),
        ],
        capabilities: Capabilities::ALL,
        build,
    }
}
use sphere::NumericSummary;

/// How the transformation probability to a missing training value is chosen (Weka's `-M`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissingMode {
    /// "Average column entropy curves" (`-M a`, the default): the average transformation
    /// probability over the training values.
    Average,
    /// "Ignore the instances with missing values" (`-M d`): probability 0.
    Delete,
    /// "Treat missing values as maximally different" (`-M m`): the smallest probability.
    MaxDiff,
    /// "Normalize over the attributes" (`-M n`): probability 1.
    Normal,
}

impl MissingMode {
    /// The config word for this mode.
    pub fn as_str(self) -> &'static str {
        match self {
            MissingMode::Average => "average",
            MissingMode::Delete => "delete",
            MissingMode::MaxDiff => "maxdiff",
            MissingMode::Normal => "normal",
        }
    }

    fn parse(word: &str) -> MissingMode {
        match word {
            "delete" => MissingMode::Delete,
            "maxdiff" => MissingMode::MaxDiff,
            "normal" => MissingMode::Normal,
            _ => MissingMode::Average,
        }
    }

    /// The missing-value probability given the average and smallest probabilities.
    fn probability(self, average: f64, smallest: f64) -> f64 {
        match self {
            MissingMode::Average => average,
            MissingMode::Delete => 0.0,
            MissingMode::MaxDiff => smallest,
            MissingMode::Normal => 1.0,
        }
    }
}

/// K*'s parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct KStarConfig {
    /// Global blend in percent, 0 to 100 (Weka's `-B`, default 20).
    pub blend: usize,
    /// Treatment of missing training values (Weka's `-M`, default average).
    pub missing_mode: MissingMode,
}

impl Default for KStarConfig {
    /// The spec's defaults (Weka's: blend 20%, missing mode average).
    fn default() -> Self {
        KStarLearner::from_params(Params::defaults(&spec()))
            .expect("the spec's defaults are valid")
            .config
    }
}

/// The K* learner (`kind = "kstar"`).
#[derive(Clone, Debug)]
pub struct KStarLearner {
    config: KStarConfig,
}

/// Stop the root finders when the sphere size is this close to its target (Weka's value).
const ROOT_FINDER_ACCURACY: f64 = 0.01;
/// Most root-finder steps (Weka's value).
const ROOT_FINDER_MAX_ITERATIONS: usize = 40;
/// Distances closer than this count as equal (Weka's value).
const DISTANCE_TOLERANCE: f64 = 1e-5;

impl KStarLearner {
    /// A learner with the given parameters.
    pub fn new(config: KStarConfig) -> Self {
        KStarLearner { config }
    }

    /// Reads `blend` (whole percent) and `missing_mode` from checked config parameters.
    pub fn from_params(params: Params) -> Result<Self, ParamError> {
        Ok(KStarLearner::new(KStarConfig {
            blend: params.integer("blend")?,
            missing_mode: MissingMode::parse(params.choice("missing_mode")?),
        }))
    }

    /// The parameters in use.
    pub fn config(&self) -> &KStarConfig {
        &self.config
    }

    /// Fits the concrete K* model (stores the training rows and per-value nominal parameters).
    pub fn fit_kstar(&self, train: &View) -> Result<KStarModel, LearnerError> {
        let positions: Vec<usize> = (0..train.len())
            .filter(|&p| train.weight(p) > 0.0)
            .collect();
        if positions.is_empty() {
            return Err(LearnerError::Data {
                learner: "kstar".into(),
                message: "no training rows with positive weight".into(),
            });
        }
        let blend = self.config.blend as f64 / 100.0;
        let weights: Vec<f64> = positions.iter().map(|&p| train.weight(p)).collect();
        let classes: Vec<usize> = positions.iter().map(|&p| train.class(p)).collect();
        let mut columns = Vec::with_capacity(train.num_attributes());
        for (attribute, info) in train.schema().attributes.iter().enumerate() {
            let values: Vec<f64> = positions
                .iter()
                .map(|&p| train.value(p, attribute))
                .collect();
            let column = match &info.kind {
                AttributeKind::Numeric => {
                    let mut pairs: Vec<(f64, f64)> = values
                        .iter()
                        .zip(&weights)
                        .filter(|(v, _)| !v.is_nan())
                        .map(|(&v, &w)| (v, w))
                        .collect();
                    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
                    let mut distinct: Vec<f64> = Vec::new();
                    let mut distinct_weights: Vec<f64> = Vec::new();
                    for (value, weight) in pairs {
                        if distinct.last() == Some(&value) {
                            *distinct_weights.last_mut().unwrap() += weight;
                        } else {
                            distinct.push(value);
                            distinct_weights.push(weight);
                        }
                    }
                    Column::Numeric {
                        values,
                        distinct,
                        distinct_weights,
                    }
                }
                AttributeKind::Nominal(names) => {
                    let mut counts = vec![0.0; names.len()];
                    for (&value, &weight) in values.iter().zip(&weights) {
                        if !value.is_nan() {
                            counts[value as usize] += weight;
                        }
                    }
                    let per_value = (0..names.len())
                        .map(|test_value| {
                            nominal_parameters(&counts, test_value, blend, self.config.missing_mode)
                        })
                        .collect();
                    Column::Nominal { values, per_value }
                }
            };
            columns.push(column);
        }
        Ok(KStarModel {
            config: self.config.clone(),
            num_classes: train.num_classes(),
            classes,
            weights,
            columns,
        })
    }
}

impl Learner for KStarLearner {
    /// The cost hint of KStar: about 50 times naive Bayes per row and attribute (every training row).
    fn cost_hint(&self) -> f64 {
        50.0
    }

    fn name(&self) -> &str {
        "kstar"
    }

    fn revision(&self) -> String {
        revision_text("kstar", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    fn describe(&self) -> String {
        format!(
            "kstar(blend={}, missing_mode={})",
            self.config.blend,
            self.config.missing_mode.as_str()
        )
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        Ok(Box::new(self.fit_kstar(train)?))
    }
}

/// Builds a K* learner from config parameters (the registry's constructor).
pub fn build(params: Params) -> Result<Box<dyn Learner>, ParamError> {
    Ok(Box::new(KStarLearner::from_params(params)?))
}

/// Transformation log-probabilities for one nominal test value.
#[derive(Clone, Copy, Debug, PartialEq)]
struct NominalParameters {
    /// The stop parameter found for this test value.
    stop: f64,
    /// Log-probability of transforming into the same value.
    log_same: f64,
    /// Log-probability of transforming into another value.
    log_other: f64,
    /// Log-probability of transforming into a missing value.
    log_missing: f64,
}

/// One training column and what the model needs of it.
#[derive(Clone, Debug)]
enum Column {
    Numeric {
        /// Value of each training row (NaN = missing).
        values: Vec<f64>,
        /// The distinct non-missing training values, ascending.
        distinct: Vec<f64>,
        /// Total instance weight of each distinct value.
        distinct_weights: Vec<f64>,
    },
    Nominal {
        /// Value of each training row (NaN = missing).
        values: Vec<f64>,
        /// Parameters for each possible test value.
        per_value: Vec<NominalParameters>,
    },
}

/// Sphere size, average and smallest transformation probability at one parameter value.
#[derive(Clone, Copy, Debug, Default)]
struct Sphere {
    size: f64,
    average: f64,
    smallest: f64,
}

impl Sphere {
    /// The sphere from the sum and the sum of squares of the (weighted) transformation shares:
    /// its effective size is sum² / sum of squares (0 when every share is 0).
    fn from_sums(sum: f64, square_sum: f64, smallest: f64) -> Sphere {
        Sphere {
            size: if square_sum == 0.0 {
                0.0
            } else {
                sum * sum / square_sum
            },
            average: sum,
            smallest,
        }
    }
}

/// The nominal sphere of influence for stop parameter `stop` (value counts `counts`).
fn nominal_sphere(counts: &[f64], total: f64, test_value: usize, stop: f64) -> Sphere {
    let num_values = counts.len() as f64;
    let mut sum = 0.0;
    let mut square_sum = 0.0;
    let mut smallest: f64 = 1.0;
    for (value, &count) in counts.iter().enumerate() {
        if count == 0.0 {
            continue;
        }
        let probability = if value == test_value {
            stop + (1.0 - stop) / num_values
        } else {
            (1.0 - stop) / num_values
        };
        let share = probability / total;
        sum += share * count;
        square_sum += share * share * count;
        smallest = smallest.min(probability);
    }
    Sphere::from_sums(sum, square_sum, smallest)
}

/// The stop parameter for a nominal test value and the resulting log-probabilities.
fn nominal_parameters(
    counts: &[f64],
    test_value: usize,
    blend: f64,
    missing_mode: MissingMode,
) -> NominalParameters {
    let total: f64 = counts.iter().sum();
    let own = counts[test_value];
    let target = (total - own) * blend + own;
    let mut stop = 1.0 - blend;
    let mut lower = ROOT_FINDER_ACCURACY / 2.0;
    let mut upper = 1.0 - ROOT_FINDER_ACCURACY / 2.0;
    let at_upper = nominal_sphere(counts, total, test_value, upper);
    let found = if at_upper.average == 0.0 {
        // No training values at all: the stop parameter is only a constant factor.
        nominal_sphere(counts, total, test_value, stop)
    } else if at_upper.size - target > 0.0 {
        // Cannot include that few instances: the largest stop parameter. (Weka leaves the
        // smallest probability at 0 here.)
        stop = upper;
        Sphere {
            size: at_upper.size,
            average: at_upper.average,
            smallest: 0.0,
        }
    } else {
        let mut steps = 0;
        loop {
            steps += 1;
            let sphere = nominal_sphere(counts, total, test_value, stop);
            let excess = sphere.size - target;
            if excess.abs() <= ROOT_FINDER_ACCURACY || steps >= ROOT_FINDER_MAX_ITERATIONS {
                break sphere;
            }
            if excess > 0.0 {
                lower = stop;
            } else {
                upper = stop;
            }
            stop = (upper + lower) / 2.0;
        }
    };
    let missing = missing_mode.probability(found.average, found.smallest);
    if (found.average - total).abs() < DISTANCE_TOLERANCE {
        // Weka's "no difference in the values" case (only reached with no training values).
        stop = 1.0;
    }
    let num_values = counts.len() as f64;
    NominalParameters {
        stop,
        log_same: (stop + (1.0 - stop) / num_values).ln(),
        log_other: ((1.0 - stop) / num_values).ln(),
        log_missing: missing.ln(),
    }
}

/// The scale for a numeric test value and the probability of transforming into a missing value.
///
/// The smallest and next smallest distances are Weka's (see [`NumericSummary::test_point`]); the
/// sphere sizes are summed over distinct values by [`NumericSummary::sphere`].
fn numeric_parameters(
    summary: &NumericSummary,
    test_value: f64,
    blend: f64,
    missing_mode: MissingMode,
) -> (f64, f64) {
    let point = summary.test_point(test_value);
    let Some(neighbours) = point.neighbours else {
        // Every training value at the same distance: Weka's scale 1 and missing probability 1.
        return (1.0, 1.0);
    };
    let total = summary.total();
    let lowest_weight = neighbours.lowest_weight;
    let mut root = 1.0 / (neighbours.next_lowest - neighbours.lowest);
    let mut target = (total - lowest_weight) * blend + lowest_weight;
    if blend == 0.0 {
        target += 1.0;
    }
    let mut bottom = ROOT_FINDER_ACCURACY / 2.0;
    let mut top = root * 16.0;
    let at_bottom = summary.sphere(&point, bottom);
    let at_top = summary.sphere(&point, top);
    let (scale, best) = if at_bottom.size - target < 0.0 {
        // Cannot include that many instances: the smallest scale.
        (bottom, at_bottom)
    } else if at_top.size - target > 0.0 {
        // Cannot include that few: the largest scale.
        (top, at_top)
    } else {
        let mut best_gap = f64::INFINITY;
        let mut best = (root, at_bottom);
        let mut steps = 0;
        loop {
            let sphere = summary.sphere(&point, root);
            let excess = sphere.size - target;
            if excess.abs() < best_gap {
                best_gap = excess.abs();
                best = (root, sphere);
            }
            if excess.abs() <= ROOT_FINDER_ACCURACY {
                break;
            }
            if excess > 0.0 {
                bottom = root;
                root = (root + top) / 2.0;
            } else {
                top = root;
                root = (root + bottom) / 2.0;
            }
            steps += 1;
            if steps > ROOT_FINDER_MAX_ITERATIONS {
                break;
            }
        }
        best
    };
    (scale, missing_mode.probability(best.average, best.smallest))
}

/// A fitted K* model: the training rows and the nominal attributes' parameters.
#[derive(Clone, Debug)]
pub struct KStarModel {
    config: KStarConfig,
    num_classes: usize,
    classes: Vec<usize>,
    weights: Vec<f64>,
    columns: Vec<Column>,
}

/// The scale and missing-value probability of each distinct test value of a numeric attribute.
#[derive(Clone, Debug, Default)]
struct NumericTestParameters {
    /// The distinct non-missing test values, ascending.
    values: Vec<f64>,
    /// Scale and missing-value probability of each.
    parameters: Vec<(f64, f64)>,
}

impl NumericTestParameters {
    /// The scale and missing-value probability of one of the test values.
    fn of(&self, test_value: f64) -> (f64, f64) {
        self.parameters[self.values.partition_point(|&v| v < test_value)]
    }
}

impl KStarModel {
    /// The numeric parameters of every distinct test value of each attribute (empty for nominal
    /// attributes).
    fn numeric_test_parameters(&self, test: &Features) -> Vec<NumericTestParameters> {
        let blend = self.config.blend as f64 / 100.0;
        let mut all = Vec::with_capacity(self.columns.len());
        for (attribute, column) in self.columns.iter().enumerate() {
            let Column::Numeric {
                values,
                distinct,
                distinct_weights,
            } = column
            else {
                all.push(NumericTestParameters::default());
                continue;
            };
            let mut test_values: Vec<f64> = (0..test.len())
                .map(|position| test.value(position, attribute))
                .filter(|v| !v.is_nan())
                .collect();
            test_values.sort_by(f64::total_cmp);
            test_values.dedup_by(|a, b| a == b);
            let parameters = if distinct.is_empty() || test_values.is_empty() {
                // No training values: Weka's scan finds no distances, so scale 1, probability 1.
                vec![(1.0, 1.0); test_values.len()]
            } else {
                let summary =
                    NumericSummary::new((values, &self.weights), (distinct, distinct_weights));
                test_values
                    .iter()
                    .map(|&value| {
                        numeric_parameters(&summary, value, blend, self.config.missing_mode)
                    })
                    .collect()
            };
            all.push(NumericTestParameters {
                values: test_values,
                parameters,
            });
        }
        all
    }

    /// Adds each training row's log transformation probability for one attribute to `log_probs`.
    fn add_attribute(
        &self,
        attribute: usize,
        test_value: f64,
        numeric: &NumericTestParameters,
        log_probs: &mut [f64],
    ) {
        match &self.columns[attribute] {
            Column::Numeric { values, .. } => {
                let (scale, missing) = numeric.of(test_value);
                let log_scale = scale.ln();
                let log_missing = missing.ln();
                for (log_prob, &value) in log_probs.iter_mut().zip(values) {
                    *log_prob += if value.is_nan() {
                        log_missing
                    } else {
                        log_scale - 2.0 * (test_value - value).abs() * scale
                    };
                }
            }
            Column::Nominal { values, per_value } => {
                let parameters = &per_value[test_value as usize];
                for (log_prob, &value) in log_probs.iter_mut().zip(values) {
                    *log_prob += if value.is_nan() {
                        parameters.log_missing
                    } else if value == test_value {
                        parameters.log_same
                    } else {
                        parameters.log_other
                    };
                }
            }
        }
    }
}

impl Model for KStarModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let num_attributes = self.columns.len();
        // Weka counts the class among the attributes in its missing-value exponent.
        let with_class = (num_attributes + 1) as f64;
        let numeric = self.numeric_test_parameters(test);
        let mut probabilities = Probabilities::zeros(test.len(), self.num_classes);
        let mut log_probs = vec![0.0; self.classes.len()];
        for position in 0..test.len() {
            log_probs.iter_mut().for_each(|l| *l = 0.0);
            let mut missing = 0usize;
            for (attribute, numeric) in numeric.iter().enumerate() {
                let value = test.value(position, attribute);
                if value.is_nan() {
                    missing += 1;
                    continue;
                }
                self.add_attribute(attribute, value, numeric, &mut log_probs);
                if missing > 0 {
                    let power = with_class / (with_class - missing as f64);
                    log_probs.iter_mut().for_each(|l| *l *= power);
                }
            }
            let largest = log_probs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let row = probabilities.row_mut(position);
            if largest == f64::NEG_INFINITY || largest.is_nan() {
                row.iter_mut()
                    .for_each(|p| *p = 1.0 / self.num_classes as f64);
                continue;
            }
            for ((&log_prob, &class), &weight) in
                log_probs.iter().zip(&self.classes).zip(&self.weights)
            {
                row[class] += weight * (log_prob - largest).exp();
            }
            let total: f64 = row.iter().sum();
            row.iter_mut().for_each(|p| *p /= total);
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let mut text = format!(
            "K* over {} training rows (blend {}%, missing mode {})\n",
            self.classes.len(),
            self.config.blend,
            self.config.missing_mode.as_str()
        );
        for (attribute, column) in self.columns.iter().enumerate() {
            if let Column::Nominal { per_value, .. } = column {
                let name = &schema.attributes[attribute].name;
                let stops: Vec<String> =
                    per_value.iter().map(|p| format!("{:.4}", p.stop)).collect();
                text.push_str(&format!("  {name}: stop parameters {}\n", stops.join(" ")));
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nominal_stop_parameter_by_hand() {
        // Two values with counts 3 and 1, test value 0, blend 20%: target = 1 * 0.2 + 3 = 3.2.
        // Sphere(stop) = (3a + b)^2 / (3a^2 + b^2) with a = stop + (1-stop)/2, b = (1-stop)/2.
        // At stop = 0.8 (the start): a = 0.9, b = 0.1, sphere = 2.8^2 / 2.44 = 3.2131...,
        // within 0.02 of 3.2 but not 0.01; excess > 0 so lower = 0.8, stop = (0.995 + 0.8) / 2
        // = 0.8975: a = 0.94875, b = 0.05125, sphere = 2.8975^2 / 2.70297... = 3.1060..., below;
        // upper = 0.8975, stop = 0.84875 ... the bisection settles where sphere = 3.2 +- 0.01.
        let parameters = nominal_parameters(&[3.0, 1.0], 0, 0.2, MissingMode::Average);
        let a = parameters.stop + (1.0 - parameters.stop) / 2.0;
        let b = (1.0 - parameters.stop) / 2.0;
        let sphere = (3.0 * a + b).powi(2) / (3.0 * a * a + b * b);
        assert!((sphere - 3.2).abs() <= 0.01, "sphere {sphere}");
        assert!((parameters.log_same.exp() - a).abs() < 1e-12);
        assert!((parameters.log_other.exp() - b).abs() < 1e-12);
        // Average probability: (3a + b) / 4.
        assert!((parameters.log_missing.exp() - (3.0 * a + b) / 4.0).abs() < 1e-12);
    }

    #[test]
    fn numeric_all_values_equal_gives_scale_one() {
        let summary =
            NumericSummary::new((&[2.0, 2.0, f64::NAN], &[2.0, 3.0, 1.0]), (&[2.0], &[5.0]));
        let (scale, missing) = numeric_parameters(&summary, 1.0, 0.2, MissingMode::Average);
        assert_eq!((scale, missing), (1.0, 1.0));
    }

    #[test]
    fn parameters_are_checked() {
        let table = |text: &str| -> toml::Table { text.parse().unwrap() };
        let learner = crate::build_learner(&table(
            "kind = \"kstar\"\nblend = 35\nmissing_mode = \"normal\"",
        ))
        .unwrap();
        assert_eq!(learner.describe(), "kstar(blend=35, missing_mode=normal)");
        assert!(crate::build_learner(&table("kind = \"kstar\"\nblend = 101")).is_err());
        assert!(crate::build_learner(&table("kind = \"kstar\"\nblend = 0.5")).is_err());
        assert!(crate::build_learner(&table("kind = \"kstar\"\nmissing_mode = \"mean\"")).is_err());
        assert!(crate::build_learner(&table("kind = \"kstar\"\nk = 3")).is_err());
    }
}
