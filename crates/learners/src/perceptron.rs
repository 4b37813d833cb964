//! The linear perceptron of Aslan et al. (2009): one linear layer with softmax outputs, trained
//! by mini-batch gradient descent on the (instance-weighted) cross-entropy.
//!
//! Inputs come from [`crate::encoding::Encoder`] with standardisation: nominal attributes as
//! indicator columns (one for a two-valued attribute), missing values replaced by the training
//! mean (for a nominal attribute, the training share of each value), and every column
//! standardised with the training rows' weighted mean and standard deviation (a constant
//! column becomes 0). Weights start at small
//! seeded normal values; rows are shuffled with a seeded generator every epoch.

use data::{Features, Schema, View};

use crate::encoding::Encoder;
use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};

/// The perceptron's training parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct PerceptronConfig {
    /// Gradient step size.
    pub learning_rate: f64,
    /// Passes over the training rows.
    pub epochs: usize,
    /// Rows per gradient step (a batch at least as large as the data is full-batch descent).
    pub batch_size: usize,
}

impl Default for PerceptronConfig {
    fn default() -> Self {
        PerceptronConfig {
            learning_rate: 0.1,
            epochs: 100,
            batch_size: 32,
        }
    }
}

/// The linear perceptron learner (`kind = "perceptron"`).
#[derive(Clone, Debug)]
pub struct PerceptronLearner {
    config: PerceptronConfig,
}

/// Writes softmax(weights * inputs + bias) into `out` (`weights` row-major, one row per class).
fn softmax_scores(weights: &[f64], bias: &[f64], inputs: &[f64], out: &mut [f64]) {
    let width = inputs.len();
    for (class, score) in out.iter_mut().enumerate() {
        let row = &weights[class * width..(class + 1) * width];
        *score = bias[class] + row.iter().zip(inputs).map(|(w, x)| w * x).sum::<f64>();
    }
    let largest = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for score in out.iter_mut() {
        // exp(0) is exactly 1: the largest score needs no call.
        *score = if *score == largest {
            1.0
        } else {
            (*score - largest).exp()
        };
        total += *score;
    }
    out.iter_mut().for_each(|s| *s /= total);
}

/// Largest number of epochs accepted.
const MAX_EPOCHS: usize = 1_000_000;

impl PerceptronLearner {
    /// A learner with the given parameters.
    pub fn new(config: PerceptronConfig) -> Self {
        PerceptronLearner { config }
    }

    /// Reads `learning_rate` (0, 100], `epochs` 1..=1e6 and `batch_size` >= 1.
    pub fn from_params(mut params: Params) -> Result<Self, ParamError> {
        let defaults = PerceptronConfig::default();
        let learning_rate = params.real("learning_rate", defaults.learning_rate, 1e-12, 100.0)?;
        let epochs = params.integer("epochs", defaults.epochs, 1, MAX_EPOCHS)?;
        let batch_size = params.integer("batch_size", defaults.batch_size, 1, usize::MAX >> 1)?;
        params.finish()?;
        Ok(PerceptronLearner::new(PerceptronConfig {
            learning_rate,
            epochs,
            batch_size,
        }))
    }

    /// The parameters in use.
    pub fn config(&self) -> &PerceptronConfig {
        &self.config
    }

    /// Fits the concrete perceptron model.
    pub fn fit_perceptron(&self, train: &View, seed: u64) -> Result<PerceptronModel, LearnerError> {
        let positions: Vec<usize> = (0..train.len())
            .filter(|&p| train.weight(p) > 0.0)
            .collect();
        if positions.is_empty() {
            return Err(LearnerError::Data {
                learner: "perceptron".into(),
                message: "no training rows with positive weight".into(),
            });
        }
        let encoding = Encoder::fit(&train.subview(&positions), true);
        let width = encoding.width();
        let num_classes = train.num_classes();
        let rows = positions.len();
        let mut inputs = vec![0.0; rows * width];
        for (row, &p) in inputs.chunks_exact_mut(width.max(1)).zip(&positions) {
            encoding.encode_row(&|a| train.value(p, a), row);
        }
        let targets: Vec<usize> = positions.iter().map(|&p| train.class(p)).collect();
        let row_weights: Vec<f64> = positions.iter().map(|&p| train.weight(p)).collect();
        let mean_weight = row_weights.iter().sum::<f64>() / rows as f64;

        let mut generator = rng::Rng::new(rng::derive_seed(seed, &[0x7065_7263_6570_7472]));
        let mut weights: Vec<f64> = (0..num_classes * width)
            .map(|_| 0.01 * generator.normal())
            .collect();
        let mut bias = vec![0.0; num_classes];
        let mut weight_gradient = vec![0.0; num_classes * width];
        let mut bias_gradient = vec![0.0; num_classes];
        let mut scores = vec![0.0; num_classes];
        let mut batch_scores = Vec::new();
        let mut order: Vec<usize> = (0..rows).collect();
        let batch_size = self.config.batch_size.min(rows);
        for _ in 0..self.config.epochs {
            generator.shuffle(&mut order);
            for batch in order.chunks(batch_size) {
                weight_gradient.iter_mut().for_each(|g| *g = 0.0);
                bias_gradient.iter_mut().for_each(|g| *g = 0.0);
                // The batch's outputs first (independent of each other, so the processor
                // overlaps them), then the gradient summed row by row in batch order.
                batch_scores.resize(batch.len() * num_classes, 0.0);
                for (&row, scores) in batch.iter().zip(batch_scores.chunks_exact_mut(num_classes)) {
                    softmax_scores(
                        &weights,
                        &bias,
                        &inputs[row * width..(row + 1) * width],
                        scores,
                    );
                }
                for (&row, scores) in batch.iter().zip(batch_scores.chunks_exact(num_classes)) {
                    let x = &inputs[row * width..(row + 1) * width];
                    for class in 0..num_classes {
                        let target = if targets[row] == class { 1.0 } else { 0.0 };
                        let error = row_weights[row] * (scores[class] - target);
                        bias_gradient[class] += error;
                        let gradient_row = &mut weight_gradient[class * width..(class + 1) * width];
                        for (g, xi) in gradient_row.iter_mut().zip(x) {
                            *g += error * xi;
                        }
                    }
                }
                let step = self.config.learning_rate / (batch.len() as f64 * mean_weight);
                for (w, g) in weights.iter_mut().zip(&weight_gradient) {
                    *w -= step * g;
                }
                for (b, g) in bias.iter_mut().zip(&bias_gradient) {
                    *b -= step * g;
                }
            }
        }
        let mut loss = 0.0;
        for row in 0..rows {
            softmax_scores(
                &weights,
                &bias,
                &inputs[row * width..(row + 1) * width],
                &mut scores,
            );
            loss -= row_weights[row] * scores[targets[row]].max(f64::MIN_POSITIVE).ln();
        }
        Ok(PerceptronModel {
            encoding,
            weights,
            bias,
            num_classes,
            training_cross_entropy: loss / (rows as f64 * mean_weight),
            epochs: self.config.epochs,
        })
    }
}

impl Learner for PerceptronLearner {
    fn name(&self) -> &str {
        "perceptron"
    }

    fn describe(&self) -> String {
        format!(
            "perceptron(learning_rate={}, epochs={}, batch_size={})",
            self.config.learning_rate, self.config.epochs, self.config.batch_size
        )
    }

    fn fit(&self, train: &View, seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        Ok(Box::new(self.fit_perceptron(train, seed)?))
    }

    /// False: a duplicated row is visited twice per epoch, in other mini-batches, so the
    /// stochastic path differs from one row of weight 2 (both aim at the same optimum).
    fn exact_weights(&self) -> bool {
        false
    }
}

/// A fitted linear softmax model over encoded inputs.
pub struct PerceptronModel {
    encoding: Encoder,
    /// Row-major, one row of input weights per class.
    weights: Vec<f64>,
    bias: Vec<f64>,
    num_classes: usize,
    training_cross_entropy: f64,
    epochs: usize,
}

impl PerceptronModel {
    /// The weighted mean cross-entropy on the training rows after the last epoch.
    pub fn training_cross_entropy(&self) -> f64 {
        self.training_cross_entropy
    }
}

impl Model for PerceptronModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let mut probabilities = Probabilities::zeros(test.len(), self.num_classes);
        let mut inputs = vec![0.0; self.encoding.width()];
        for position in 0..test.len() {
            self.encoding
                .encode_row(&|a| test.value(position, a), &mut inputs);
            softmax_scores(
                &self.weights,
                &self.bias,
                &inputs,
                probabilities.row_mut(position),
            );
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let names = self.encoding.column_names(schema);
        let mut text = format!(
            "linear perceptron (softmax) over {} inputs after {} epochs; training cross-entropy {:.6}\n",
            self.encoding.width(), self.epochs, self.training_cross_entropy
        );
        for (class, class_name) in schema.class_values.iter().enumerate() {
            text.push_str(&format!("  {class_name}: bias {:.6}", self.bias[class]));
            let width = self.encoding.width();
            for (name, weight) in names
                .iter()
                .zip(&self.weights[class * width..(class + 1) * width])
            {
                text.push_str(&format!(", {name} {weight:.6}"));
            }
            text.push('\n');
        }
        text
    }
}

/// Builds a [`PerceptronLearner`] from config parameters (the registry entry).
pub fn build(params: Params) -> Result<Box<dyn Learner>, ParamError> {
    Ok(Box::new(PerceptronLearner::from_params(params)?))
}
