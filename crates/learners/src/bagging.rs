//! Bagging (Breiman 1996) of any learner: models fitted on bootstrap samples, their class
//! probabilities averaged.

use data::{Features, Schema, View};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::tune_space::TuneSpace;

/// Revision of the bagging implementation: bump it whenever its outputs change.
const REVISION: u32 = 2;

/// The `bagging` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "bagging",
        description: "bagging of a base learner (bootstrap samples, averaged probabilities)",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::integer(
                "iterations",
                10,
                1,
                10_000,
                "number of bootstrap samples and models",
            )
            .tuned(TuneSpace::Integers(&[10, 25, 50])),
            ParameterSpec::real(
                "bag_size_percent",
                100.0,
                1.0,
                1000.0,
                "size of each bootstrap sample as a percentage of the training rows",
            ),
            ParameterSpec::learner("base", "c45", "the learner fitted on each sample"),
        ],
        capabilities: Capabilities::ALL,
        build: Bagging::build,
    }
}

/// Bagging of a base learner (config kind `bagging`).
pub struct Bagging {
    /// Number of bootstrap samples and models.
    pub iterations: usize,
    /// Size of each bootstrap sample as a percentage of the training rows.
    pub bag_size_percent: f64,
    /// The learner fitted on each sample.
    pub base: Box<dyn Learner>,
}

impl Bagging {
    /// Reads the options from checked config parameters; `base` is a learner table (default
    /// C4.5), built through the same registry.
    pub fn from_params(params: Params) -> Result<Self, ParamError> {
        Ok(Bagging {
            iterations: params.integer("iterations")?,
            bag_size_percent: params.real("bag_size_percent")?,
            base: params.learner("base")?,
        })
    }

    /// Builds the registry entry's learner.
    pub fn build(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        Ok(Box::new(Bagging::from_params(params)?))
    }

    /// Positions of one bootstrap sample of `train`: drawn with replacement, uniformly when all
    /// weights are equal and in proportion to weight otherwise.
    fn sample(&self, train: &View, rng: &mut ChaCha8Rng) -> (Vec<usize>, bool) {
        let n = train.len();
        let size = ((n as f64 * self.bag_size_percent / 100.0).round() as usize).max(1);
        let first = train.weight(0);
        let uniform = (0..n).all(|position| train.weight(position) == first);
        if uniform {
            return ((0..size).map(|_| rng.random_range(0..n)).collect(), false);
        }
        let mut cumulative = Vec::with_capacity(n);
        let mut sum = 0.0;
        for position in 0..n {
            sum += train.weight(position);
            cumulative.push(sum);
        }
        let positions = (0..size)
            .map(|_| {
                let target = rng.random::<f64>() * sum;
                cumulative.partition_point(|&c| c <= target).min(n - 1)
            })
            .collect();
        (positions, true)
    }
}

impl Learner for Bagging {
    /// Its base learner's cost hint once per iteration.
    fn cost_hint(&self) -> f64 {
        self.base.cost_hint() * self.iterations.max(1) as f64
    }

    /// Rows are drawn or split at random, so a weight of 2 is not the same draw as a duplicate.
    fn exact_weights(&self) -> bool {
        false
    }

    fn name(&self) -> &str {
        "bagging"
    }

    fn revision(&self) -> String {
        format!(
            "{} ({})",
            revision_text("bagging", REVISION),
            self.base.revision()
        )
    }

    /// Its base learner's.
    fn check_ready(&self) -> Result<Option<String>, LearnerError> {
        self.base.check_ready()
    }

    /// The base learner's, with instance weights always honoured: they set the sampling
    /// probabilities, and each sample has unit weights.
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            instance_weights: true,
            ..self.base.capabilities()
        }
    }

    fn describe(&self) -> String {
        format!(
            "bagging(iterations={},bag_size_percent={},base={})",
            self.iterations,
            self.bag_size_percent,
            self.base.describe()
        )
    }

    fn fit(&self, train: &View, seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        if train.is_empty() {
            return Err(LearnerError::Data {
                learner: "bagging".into(),
                message: "no training rows".into(),
            });
        }
        let mut models = Vec::with_capacity(self.iterations);
        for iteration in 0..self.iterations {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seeds::derive_seed(seed, &[iteration as u64, 0]));
            let (positions, weighted) = self.sample(train, &mut rng);
            let mut bag = train.subview(&positions);
            if weighted {
                bag = bag.with_weights(vec![1.0; positions.len()]);
            }
            let model_seed = seeds::derive_seed(seed, &[iteration as u64, 1]);
            models.push(self.base.fit(&bag, model_seed)?);
        }
        Ok(Box::new(BaggedModel { models }))
    }
}

/// Models fitted on bootstrap samples; predicts their average class probabilities.
pub struct BaggedModel {
    models: Vec<Box<dyn Model>>,
}

impl Model for BaggedModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let mut sum: Option<Probabilities> = None;
        for model in &self.models {
            let probabilities = model.predict_proba(test)?;
            match &mut sum {
                None => sum = Some(probabilities),
                Some(total) => {
                    for row in 0..test.len() {
                        let target = total.row_mut(row);
                        for (value, add) in target.iter_mut().zip(probabilities.row(row)) {
                            *value += add;
                        }
                    }
                }
            }
        }
        let mut average =
            sum.unwrap_or_else(|| Probabilities::zeros(test.len(), test.schema().num_classes()));
        let count = self.models.len().max(1) as f64;
        for row in 0..average.len() {
            average.row_mut(row).iter_mut().for_each(|v| *v /= count);
        }
        Ok(average)
    }

    fn explain(&self, schema: &Schema) -> String {
        let mut text = format!("Bagging of {} models\n", self.models.len());
        for (index, model) in self.models.iter().enumerate() {
            text.push_str(&format!(
                "\nModel {}:\n{}\n",
                index + 1,
                model.explain(schema)
            ));
        }
        text
    }
}
