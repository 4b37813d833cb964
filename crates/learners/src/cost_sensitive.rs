//! A cost-sensitive wrapper around any learner, in the three classic ways.
//!
//! The cost matrix is `costs[actual][predicted]` (Weka's convention): `[[0, 1], [5, 0]]` makes
//! calling an actual class-1 instance class 0 five times as expensive as the reverse. Each class
//! `c` gets the factor `C(c)` = the sum of its row (its total misclassification cost).
//!
//! * `reweight`: every training instance's weight is multiplied by `C(class)`, then all weights
//!   are rescaled so their total is unchanged (as Weka's `CostSensitiveClassifier` without `-M`).
//! * `resample`: as many instances as the training set has are drawn with replacement, with
//!   probability proportional to `weight * C(class)`, seeded from the fit seed (ChaCha8, see the `seeds` crate); the
//!   sample has unit weights. Randomised over rows, so `exact_weights()` is false.
//! * `threshold`: the base learner is trained unchanged and the decision moves to the class of
//!   minimum expected cost `sum_i p_i costs[i][j]` (Weka's `-M`). With two classes and
//!   `costs[i][i] < costs[i][other]` this is done by rescaling the probabilities to
//!   `q_i ∝ p_i (costs[i][other] - costs[i][i])`, which keeps their ranking (so ROC/AUC are the
//!   base learner's) and puts the largest `q` on the minimum-expected-cost class. Otherwise the
//!   model outputs the minimum-expected-cost class with probability 1 (`is_discrete()` true).
//!
//! Defaults (so the kind builds without parameters): `method = "reweight"`, unit costs (0 on
//! the diagonal, 1 elsewhere; then reweighting changes nothing), `base = { kind = "naive_bayes" }`.

use data::{Features, Schema, View};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};

/// Revision of the cost-sensitive wrapper: bump it whenever its outputs change.
const REVISION: u32 = 2;

/// The `cost_sensitive` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "cost_sensitive",
        description: "cost-sensitive wrapper around a base learner: reweight or resample training instances by a cost matrix, or move the decision to the minimum-expected-cost class",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::choice(
                "method",
                "reweight",
                &["reweight", "resample", "threshold"],
                "how the costs enter: instance weights, a weighted resample, or the decision",
            ),
            ParameterSpec::real_matrix(
                "costs",
                "unit costs: 0 on the diagonal, 1 elsewhere",
                0.0,
                f64::MAX,
                "costs[actual][predicted], a square matrix with one row and column per class",
            ),
            ParameterSpec::learner("base", "naive_bayes", "the learner made cost-sensitive"),
        ],
        capabilities: Capabilities::ALL,
        build: CostSensitive::from_params,
    }
}

/// How the costs enter the learning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostMethod {
    /// Weight instances by their class's misclassification cost.
    Reweight,
    /// Resample instances in proportion to their class's misclassification cost.
    Resample,
    /// Keep the learner, predict the minimum-expected-cost class.
    Threshold,
}

impl CostMethod {
    fn word(self) -> &'static str {
        match self {
            CostMethod::Reweight => "reweight",
            CostMethod::Resample => "resample",
            CostMethod::Threshold => "threshold",
        }
    }
}

/// The cost-sensitive wrapper learner.
pub struct CostSensitive {
    method: CostMethod,
    /// `costs[actual][predicted]`, or `None` for unit costs.
    costs: Option<Vec<Vec<f64>>>,
    base: Box<dyn Learner>,
}

impl CostSensitive {
    /// Wraps `base`; `costs` is `costs[actual][predicted]` (`None` = 0/1 costs).
    pub fn new(method: CostMethod, costs: Option<Vec<Vec<f64>>>, base: Box<dyn Learner>) -> Self {
        CostSensitive {
            method,
            costs,
            base,
        }
    }

    /// Builds from config parameters: `method` ("reweight", "resample" or "threshold"), `costs`
    /// (a square matrix of non-negative numbers, rows = actual class) and `base` (a learner
    /// table).
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        let method = match params.choice("method")? {
            "resample" => CostMethod::Resample,
            "threshold" => CostMethod::Threshold,
            _ => CostMethod::Reweight,
        };
        let costs = params.real_matrix("costs")?;
        if let Some(costs) = &costs {
            if costs.iter().any(|row| row.len() != costs.len()) {
                return Err(params.invalid(
                    "costs",
                    format!("{costs:?}"),
                    "a square matrix, one row and one column per class",
                ));
            }
        }
        let base = params.learner("base")?;
        Ok(Box::new(CostSensitive::new(method, costs, base)))
    }

    /// The cost matrix for `num_classes` classes, checked against the data.
    fn cost_matrix(&self, num_classes: usize) -> Result<Vec<Vec<f64>>, LearnerError> {
        match &self.costs {
            None => Ok((0..num_classes)
                .map(|i| {
                    (0..num_classes)
                        .map(|j| if i == j { 0.0 } else { 1.0 })
                        .collect()
                })
                .collect()),
            Some(costs) if costs.len() == num_classes => Ok(costs.clone()),
            Some(costs) => Err(LearnerError::Data {
                learner: "cost_sensitive".into(),
                message: format!(
                    "parameter 'costs' is {0}x{0} but the data has {num_classes} classes",
                    costs.len()
                ),
            }),
        }
    }
}

/// Each training row's weight times its class's cost factor (row sum of the cost matrix).
fn cost_weights(train: &View, costs: &[Vec<f64>]) -> Vec<f64> {
    let factors: Vec<f64> = costs.iter().map(|row| row.iter().sum()).collect();
    (0..train.len())
        .map(|position| train.weight(position) * factors[train.class(position)])
        .collect()
}

impl Learner for CostSensitive {
    /// Its base learner's cost hint.
    fn cost_hint(&self) -> f64 {
        self.base.cost_hint()
    }

    fn name(&self) -> &str {
        "cost_sensitive"
    }

    fn describe(&self) -> String {
        let costs = match &self.costs {
            Some(costs) => format!("{costs:?}"),
            None => "unit".into(),
        };
        format!(
            "cost_sensitive(method={}, costs={costs}, base={})",
            self.method.word(),
            self.base.describe()
        )
    }

    fn exact_weights(&self) -> bool {
        self.method != CostMethod::Resample && self.base.exact_weights()
    }

    fn revision(&self) -> String {
        format!(
            "{} ({})",
            revision_text("cost_sensitive", REVISION),
            self.base.revision()
        )
    }

    /// Its base learner's.
    fn check_ready(&self) -> Result<Option<String>, LearnerError> {
        self.base.check_ready()
    }

    /// The base learner's; resampling honours instance weights whatever the base learner
    /// does (they set the sampling probabilities, and the sample has unit weights).
    fn capabilities(&self) -> Capabilities {
        let base = self.base.capabilities();
        match self.method {
            CostMethod::Resample => Capabilities {
                instance_weights: true,
                ..base
            },
            CostMethod::Reweight | CostMethod::Threshold => base,
        }
    }

    fn fit(&self, train: &View, seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        self.fit_with_validation(train, None, seed)
    }

    fn fit_with_validation(
        &self,
        train: &View,
        validation: Option<&View>,
        seed: u64,
    ) -> Result<Box<dyn Model>, LearnerError> {
        let costs = self.cost_matrix(train.num_classes())?;
        let empty_error = || LearnerError::Data {
            learner: "cost_sensitive".into(),
            message: "the cost matrix gives every training row zero weight".into(),
        };
        match self.method {
            CostMethod::Reweight => {
                let weighted = cost_weights(train, &costs);
                let old_total: f64 = (0..train.len()).map(|p| train.weight(p)).sum();
                let new_total: f64 = weighted.iter().sum();
                if new_total <= 0.0 || !new_total.is_finite() {
                    return Err(empty_error());
                }
                let scale = old_total / new_total;
                let weights = weighted.into_iter().map(|w| w * scale).collect();
                let reweighted = train.clone().with_weights(weights);
                self.base.fit_with_validation(&reweighted, validation, seed)
            }
            CostMethod::Resample => {
                let weighted = cost_weights(train, &costs);
                let mut cumulative = Vec::with_capacity(weighted.len());
                let mut total = 0.0;
                for weight in weighted {
                    total += weight;
                    cumulative.push(total);
                }
                if total <= 0.0 || !total.is_finite() {
                    return Err(empty_error());
                }
                let mut random =
                    ChaCha8Rng::seed_from_u64(seeds::derive_seed(seed, &[0x636f_7374]));
                let positions: Vec<usize> = (0..train.len())
                    .map(|_| {
                        let target = random.random::<f64>() * total;
                        // First position whose cumulative weight exceeds the target; rows of
                        // zero weight are never chosen.
                        cumulative
                            .partition_point(|&c| c <= target)
                            .min(cumulative.len() - 1)
                    })
                    .collect();
                let sample = train
                    .subview(&positions)
                    .with_weights(vec![1.0; positions.len()]);
                self.base
                    .fit_with_validation(&sample, validation, seeds::derive_seed(seed, &[1]))
            }
            CostMethod::Threshold => {
                let base = self.base.fit_with_validation(train, validation, seed)?;
                let binary_rescale =
                    costs.len() == 2 && costs[0][1] > costs[0][0] && costs[1][0] > costs[1][1];
                Ok(Box::new(MinimumExpectedCost {
                    base,
                    costs,
                    binary_rescale,
                }))
            }
        }
    }
}

/// A base model whose decision is moved to the minimum-expected-cost class.
struct MinimumExpectedCost {
    base: Box<dyn Model>,
    costs: Vec<Vec<f64>>,
    binary_rescale: bool,
}

impl Model for MinimumExpectedCost {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let mut probabilities = self.base.predict_proba(test)?;
        let num_classes = self.costs.len();
        for row in 0..probabilities.len() {
            let values = probabilities.row_mut(row);
            if self.binary_rescale {
                let q0 = values[0] * (self.costs[0][1] - self.costs[0][0]);
                let q1 = values[1] * (self.costs[1][0] - self.costs[1][1]);
                let total = q0 + q1;
                if total > 0.0 {
                    values[0] = q0 / total;
                    values[1] = q1 / total;
                }
                continue;
            }
            let mut best = 0;
            let mut best_cost = f64::INFINITY;
            for predicted in 0..num_classes {
                let expected: f64 = (0..num_classes)
                    .map(|actual| values[actual] * self.costs[actual][predicted])
                    .sum();
                if expected < best_cost {
                    best_cost = expected;
                    best = predicted;
                }
            }
            for (class, value) in values.iter_mut().enumerate() {
                *value = if class == best { 1.0 } else { 0.0 };
            }
        }
        Ok(probabilities)
    }

    fn is_discrete(&self) -> bool {
        !self.binary_rescale || self.base.is_discrete()
    }

    fn explain(&self, schema: &Schema) -> String {
        format!(
            "minimum expected cost decision with costs {:?} over:\n{}",
            self.costs,
            self.base.explain(schema)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build_learner;
    use data::{Attribute, Dataset};

    /// Predicts the weighted class frequencies of its training set, to observe weights.
    struct ClassShares;
    struct Shares(Vec<f64>);

    impl Learner for ClassShares {
        fn name(&self) -> &str {
            "class_shares"
        }
        fn describe(&self) -> String {
            "class_shares".into()
        }
        fn revision(&self) -> String {
            "class_shares r1".into()
        }
        fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
            let counts = train.class_counts();
            let total: f64 = counts.iter().sum();
            Ok(Box::new(Shares(counts.iter().map(|c| c / total).collect())))
        }
    }

    impl Model for Shares {
        fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
            let values = (0..test.len()).flat_map(|_| self.0.clone()).collect();
            Ok(Probabilities::from_flat(self.0.len(), values))
        }
    }

    fn dataset(classes: Vec<u32>, num_classes: usize) -> Dataset {
        let schema = Schema {
            attributes: vec![Attribute::numeric("x")],
            class_name: "class".into(),
            class_values: (0..num_classes).map(|c| format!("c{c}")).collect(),
        };
        let rows = classes.len();
        Dataset::new("toy", schema, vec![vec![0.0; rows]], classes, None).unwrap()
    }

    fn wrap(method: CostMethod, costs: Vec<Vec<f64>>) -> CostSensitive {
        CostSensitive::new(method, Some(costs), Box::new(ClassShares))
    }

    #[test]
    fn reweighting_multiplies_by_row_sums_and_keeps_the_total() {
        // Three rows of class 0 (factor 1), one of class 1 (factor 5): weights 1, 1, 1, 5
        // rescaled by 4/8 to 0.5, 0.5, 0.5, 2.5, so the shares are 1.5/4 and 2.5/4.
        let data = dataset(vec![0, 0, 0, 1], 2);
        let learner = wrap(CostMethod::Reweight, vec![vec![0.0, 1.0], vec![5.0, 0.0]]);
        let model = learner.fit(&data.view(), 1).unwrap();
        let probabilities = model
            .predict_proba(&data.view().features())
            .expect("prediction");
        assert!((probabilities.row(0)[0] - 0.375).abs() < 1e-15);
        assert!((probabilities.row(0)[1] - 0.625).abs() < 1e-15);
    }

    #[test]
    fn resampling_never_draws_a_class_of_zero_cost() {
        let data = dataset(vec![0, 0, 0, 1], 2);
        let learner = wrap(CostMethod::Resample, vec![vec![0.0, 0.0], vec![1.0, 0.0]]);
        let model = learner.fit(&data.view(), 9).unwrap();
        assert_eq!(
            model
                .predict_proba(&data.view().features())
                .expect("prediction")
                .row(0),
            &[0.0, 1.0]
        );
        assert!(!learner.exact_weights());
    }

    #[test]
    fn binary_threshold_rescales_to_the_minimum_expected_cost_class() {
        // Base shares (0.8, 0.2). Expected cost of predicting 0 is 0.2 * 5 = 1, of predicting 1
        // is 0.8 * 1 = 0.8, so class 1 wins; rescaled: (0.8, 1.0) / 1.8.
        let data = dataset(vec![0, 0, 0, 0, 1], 2);
        let learner = wrap(CostMethod::Threshold, vec![vec![0.0, 1.0], vec![5.0, 0.0]]);
        let model = learner.fit(&data.view(), 1).unwrap();
        let probabilities = model
            .predict_proba(&data.view().features())
            .expect("prediction");
        assert!((probabilities.row(0)[0] - 0.8 / 1.8).abs() < 1e-15);
        assert!((probabilities.row(0)[1] - 1.0 / 1.8).abs() < 1e-15);
        assert!(!model.is_discrete());
    }

    #[test]
    fn multiclass_threshold_is_one_hot() {
        // Shares (0.5, 0.3, 0.2); expected costs: predict 0: 0.3*1 + 0.2*10 = 2.3,
        // predict 1: 0.5*1 + 0.2*1 = 0.7, predict 2: 0.5*1 + 0.3*1 = 0.8, so class 1.
        let data = dataset(vec![0, 0, 0, 0, 0, 1, 1, 1, 2, 2], 3);
        let costs = vec![
            vec![0.0, 1.0, 1.0],
            vec![1.0, 0.0, 1.0],
            vec![10.0, 1.0, 0.0],
        ];
        let model = wrap(CostMethod::Threshold, costs)
            .fit(&data.view(), 1)
            .unwrap();
        assert_eq!(
            model
                .predict_proba(&data.view().features())
                .expect("prediction")
                .row(0),
            &[0.0, 1.0, 0.0]
        );
        assert!(model.is_discrete());
    }

    #[test]
    fn bad_cost_matrices_are_reported() {
        let table: toml::Table = "kind = \"cost_sensitive\"\ncosts = [[0, 1], [1]]"
            .parse()
            .unwrap();
        let error = build_learner(&table).err().unwrap().to_string();
        assert!(
            error.contains("costs") && error.contains("square"),
            "{error}"
        );
        let table: toml::Table = "kind = \"cost_sensitive\"\ncosts = [[0, -1], [1, 0]]"
            .parse()
            .unwrap();
        assert!(build_learner(&table).is_err());
        let learner = wrap(CostMethod::Reweight, vec![vec![0.0, 1.0], vec![1.0, 0.0]]);
        let data = dataset(vec![0, 1, 2], 3);
        let error = learner.fit(&data.view(), 1).err().unwrap().to_string();
        assert!(
            error.contains("'costs' is 2x2") && error.contains("3 classes"),
            "{error}"
        );
    }
}
