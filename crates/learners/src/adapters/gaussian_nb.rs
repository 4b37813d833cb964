//! Gaussian naive Bayes over `linfa-bayes` (every encoded column, indicators included, is
//! modelled as a normal distribution per class; priors are plain class shares).
//!
//! linfa-bayes's `predict_proba` exponentiates without a max shift and returns inf/NaN with many
//! attributes, so this adapter takes its unnormalised joint log-likelihoods and normalises them
//! with log-sum-exp. Columns are standardised, so linfa's variance smoothing (1e-9 times the
//! largest column variance) is relative to unit variance. When every encoded column is constant
//! in training (linfa would divide by a zero variance), the model predicts the class shares.

use data::{Features, Schema, View};
use linfa::traits::Fit;
use linfa_bayes::{GaussianNb, NaiveBayes as _};
use ndarray::{Array1, Axis};

use super::{classes_present, expand_whole_weights, normalise_log_scores, ConstantModel};
use crate::encoding::Encoder;
use crate::spec::{revision_text, Capabilities, LearnerSpec};
use crate::{Learner, LearnerError, Model, ParamError, Params, Probabilities};

/// Revision of the linfa Gaussian naive Bayes adapter: bump it whenever its outputs change.
const REVISION: u32 = 1;

/// The `linfa_gaussian_nb` learner kind: parameters (none), capabilities, revision and
/// constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "linfa_gaussian_nb",
        description:
            "Gaussian naive Bayes from linfa-bayes on encoded columns, normalised in log space",
        revision: REVISION,
        parameters: Vec::new(),
        capabilities: super::CAPABILITIES,
        build: LinfaGaussianNb::from_params,
    }
}

/// Gaussian naive Bayes from linfa-bayes.
#[derive(Clone, Debug)]
pub struct LinfaGaussianNb;

impl LinfaGaussianNb {
    /// Builds from checked config parameters (there are none).
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        let _ = params;
        Ok(Box::new(LinfaGaussianNb))
    }
}

/// A fitted linfa Gaussian naive Bayes model.
struct LinfaGaussianNbModel {
    encoder: Encoder,
    fitted: GaussianNb<f64, usize>,
    num_classes: usize,
}

impl Learner for LinfaGaussianNb {
    /// The cost hint of as naive Bayes.
    fn cost_hint(&self) -> f64 {
        1.0
    }

    fn name(&self) -> &str {
        "linfa_gaussian_nb"
    }

    fn describe(&self) -> String {
        "linfa_gaussian_nb".into()
    }

    fn revision(&self) -> String {
        revision_text("linfa_gaussian_nb", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        super::CAPABILITIES
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        let train = expand_whole_weights(self.name(), train)?;
        let num_classes = train.num_classes();
        let (labels, present) = classes_present(&train);
        if present.len() == 1 {
            return Ok(Box::new(ConstantModel::one_class(
                present[0],
                num_classes,
                false,
            )));
        }
        let encoder = Encoder::fit(&train, true);
        let records = encoder.encode_view(&train);
        let all_constant = records
            .var_axis(Axis(0), 0.0)
            .iter()
            .all(|&variance| variance <= 0.0);
        if records.ncols() == 0 || all_constant {
            let counts = train.class_counts();
            let total: f64 = counts.iter().sum();
            return Ok(Box::new(ConstantModel {
                probabilities: counts.iter().map(|c| c / total).collect(),
                discrete: false,
            }));
        }
        let dataset = linfa::Dataset::new(records, Array1::from(labels));
        let fitted =
            GaussianNb::params()
                .fit(&dataset)
                .map_err(|error| LearnerError::External {
                    learner: self.name().into(),
                    message: format!("linfa-bayes failed: {error}"),
                })?;
        Ok(Box::new(LinfaGaussianNbModel {
            encoder,
            fitted,
            num_classes,
        }))
    }
}

impl Model for LinfaGaussianNbModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let records = self.encoder.encode_features(test);
        let joint = self.fitted.joint_log_likelihood(records.view());
        let mut probabilities = Probabilities::zeros(test.len(), self.num_classes);
        let mut scores = vec![f64::NEG_INFINITY; self.num_classes];
        for row in 0..test.len() {
            scores.iter_mut().for_each(|s| *s = f64::NEG_INFINITY);
            for (&&class, values) in &joint {
                scores[class] = values[row];
            }
            normalise_log_scores(&mut scores);
            probabilities.row_mut(row).copy_from_slice(&scores);
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        format!(
            "linfa-bayes Gaussian naive Bayes over {} encoded columns",
            self.encoder.column_names(schema).len()
        )
    }
}
