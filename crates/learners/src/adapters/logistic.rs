//! Multinomial logistic regression with a ridge penalty, over `linfa-logistic`: the learner kind
//! `linfa_logistic`, kept beside this project's own [`crate::logistic`] (kind `logistic`, Weka's
//! model fitted by Newton's method) for comparison.
//!
//! It differs from `logistic` in three ways: linfa's L-BFGS stops after `max_iterations` (200)
//! or when the gradient norm falls below `gradient_tolerance`, which on (nearly) separable
//! training data is far from the ridge-1e-8 optimum (an early stop acts as extra
//! regularisation); it standardises with the population standard deviation (Weka: the sample
//! one); and linfa's multinomial model has one coefficient vector per class (no reference
//! class), so with a ridge its optimum differs slightly from Weka's. It is also slower: linfa
//! evaluates the loss and gradient through `ndarray` temporaries at every L-BFGS step.
//!
//! Rows are encoded as Weka's `Logistic` does: missing values replaced by the training mean
//! (numeric) or mode (nominal), indicator columns, standardisation. The multinomial model is used for every number of
//! classes, so the probability columns are always mapped by class (linfa's binary model reports
//! the probability of its more frequent training class, a trap avoided here). linfa minimises
//! `-log L + alpha/2 |W|^2`; Weka minimises `-log L + ridge |B|^2`, so `alpha = 2 ridge`.

use data::{Features, Schema, View};
use linfa::traits::Fit;
use linfa_logistic::{MultiFittedLogisticRegression, MultiLogisticRegression};
use ndarray::Array1;

use super::{failed, fit_adapter};
use crate::encoding::{Encoder, NominalMissing};
use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};

/// Revision of the logistic-regression adapter: bump it whenever its outputs change.
const REVISION: u32 = 1;

/// The `linfa_logistic` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "linfa_logistic",
        description: "multinomial logistic regression with a ridge penalty (linfa-logistic, L-BFGS; indicator columns, mean imputation, standardisation)",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::real("ridge", 1e-8, 0.0, 1e6, "ridge (L2) penalty on the coefficients"),
            ParameterSpec::integer(
                "max_iterations",
                200,
                1,
                1_000_000,
                "most optimiser iterations (matters on separable data)",
            ),
            ParameterSpec::real(
                "gradient_tolerance",
                1e-6,
                1e-12,
                1.0,
                "the optimiser stops when the gradient norm falls below this",
            ),
        ],
        capabilities: super::CAPABILITIES,
        build: Logistic::from_params,
    }
}

/// Ridge-penalised multinomial logistic regression (linfa-logistic, L-BFGS).
#[derive(Clone, Debug)]
pub struct Logistic {
    ridge: f64,
    max_iterations: usize,
    gradient_tolerance: f64,
}

impl Logistic {
    /// Builds from checked config parameters: `ridge`, `max_iterations` and
    /// `gradient_tolerance`.
    ///
    /// The iteration cap matters on (quasi-)separable data, where a tiny ridge lets the
    /// coefficients grow for as long as the optimiser runs (Weka runs to convergence of its own
    /// criterion); non-separable data converge well before 200 iterations.
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        Ok(Box::new(Logistic {
            ridge: params.real("ridge")?,
            max_iterations: params.integer("max_iterations")?,
            gradient_tolerance: params.real("gradient_tolerance")?,
        }))
    }
}

/// A fitted logistic regression.
struct LogisticModel {
    encoder: Encoder,
    fitted: MultiFittedLogisticRegression<f64, usize>,
    num_classes: usize,
}

impl Learner for Logistic {
    fn name(&self) -> &str {
        "linfa_logistic"
    }

    fn revision(&self) -> String {
        revision_text("linfa_logistic", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        super::CAPABILITIES
    }

    fn describe(&self) -> String {
        format!(
            "linfa_logistic(ridge={}, max_iterations={}, gradient_tolerance={})",
            self.ridge, self.max_iterations, self.gradient_tolerance
        )
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        fit_adapter(self.name(), train, false, |training| {
            let encoder = Encoder::fit_with(&training.rows, true, NominalMissing::Mode);
            let records = encoder.encode_view(&training.rows);
            let dataset = linfa::Dataset::new(records, Array1::from(training.labels));
            let fitted = MultiLogisticRegression::default()
                .alpha(2.0 * self.ridge)
                .max_iterations(self.max_iterations as u64)
                .gradient_tolerance(self.gradient_tolerance)
                .fit(&dataset)
                .map_err(failed(self.name(), "linfa-logistic"))?;
            Ok(Box::new(LogisticModel {
                encoder,
                fitted,
                num_classes: training.num_classes,
            }))
        })
    }
}

impl Model for LogisticModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let records = self.encoder.encode_features(test);
        let predicted = self.fitted.predict_probabilities(&records);
        let mut probabilities = Probabilities::zeros(test.len(), self.num_classes);
        for (row, values) in predicted.rows().into_iter().enumerate() {
            let out = probabilities.row_mut(row);
            for (&class, &p) in self.fitted.classes().iter().zip(values) {
                out[class] = p;
            }
            // Renormalise against rounding in the library's softmax.
            let total: f64 = out.iter().sum();
            out.iter_mut().for_each(|p| *p /= total);
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let names = self.encoder.column_names(schema);
        let mut text = String::from("multinomial logistic regression (standardised columns)\n");
        for (index, &class) in self.fitted.classes().iter().enumerate() {
            text += &format!(
                "class {}: intercept {:.4}",
                schema.class_values[class],
                self.fitted.intercept()[index]
            );
            for (column, name) in names.iter().enumerate() {
                text += &format!(", {name} {:.4}", self.fitted.params()[[column, index]]);
            }
            text.push('\n');
        }
        text
    }
}
