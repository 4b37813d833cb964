//! k-nearest neighbours and random forest over `smartcore`.
//!
//! * `smartcore_knn`: Euclidean k-NN on standardised encoded rows; the probabilities are the
//!   neighbours' vote shares (so at most k + 1 distinct values per class).
//! * `smartcore_forest`: smartcore's random forest (Gini trees on bootstrap samples, `sqrt(m)`
//!   attributes tried per split), seeded with the fit seed. Its trees give no probabilities, only
//!   a majority vote, so the model outputs one-hot rows and `is_discrete()` is true. The forest
//!   is randomised over rows: `exact_weights()` is false.

use data::{Features, Schema, View};
use smartcore::ensemble::random_forest_classifier::{
    RandomForestClassifier, RandomForestClassifierParameters,
};
use smartcore::linalg::basic::matrix::DenseMatrix;
use smartcore::metrics::distance::euclidian::Euclidian;
use smartcore::neighbors::knn_classifier::{KNNClassifier, KNNClassifierParameters};

use super::{classes_present, expand_whole_weights, one_hot, ConstantModel};
use crate::encoding::Encoder;
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::{Learner, LearnerError, Model, ParamError, Params, Probabilities};

/// Revision of the smartcore k-NN adapter: bump it whenever its outputs change.
const KNN_REVISION: u32 = 1;
/// Revision of the smartcore random-forest adapter: bump it whenever its outputs change.
const FOREST_REVISION: u32 = 1;

/// The `smartcore_knn` learner kind: parameters, capabilities, revision and constructor.
pub fn knn_spec() -> LearnerSpec {
    LearnerSpec {
        kind: "smartcore_knn",
        description: "k-nearest neighbours from smartcore (Euclidean, standardised columns); probabilities are neighbour vote shares",
        revision: KNN_REVISION,
        parameters: vec![ParameterSpec::integer(
            "k",
            3,
            1,
            10_000,
            "number of neighbours (capped at the number of training rows)",
        )],
        capabilities: super::CAPABILITIES,
        build: SmartcoreKnn::from_params,
    }
}

/// The `smartcore_forest` learner kind: parameters, capabilities, revision and constructor.
pub fn forest_spec() -> LearnerSpec {
    LearnerSpec {
        kind: "smartcore_forest",
        description: "random forest from smartcore; hard decisions only (one-hot, discrete), no real probabilities",
        revision: FOREST_REVISION,
        parameters: vec![ParameterSpec::integer(
            "trees",
            100,
            1,
            10_000,
            "number of trees",
        )],
        capabilities: super::CAPABILITIES,
        build: SmartcoreForest::from_params,
    }
}

fn dense(learner: &str, rows: Vec<Vec<f64>>) -> Result<DenseMatrix<f64>, LearnerError> {
    DenseMatrix::from_2d_vec(&rows).map_err(|error| LearnerError::External {
        learner: learner.into(),
        message: format!("smartcore matrix: {error}"),
    })
}

fn encoded_rows(
    encoder: &Encoder,
    rows: usize,
    value: &dyn Fn(usize, usize) -> f64,
) -> Vec<Vec<f64>> {
    let matrix = encoder.encode_rows(rows, value);
    matrix.rows().into_iter().map(|row| row.to_vec()).collect()
}

/// Class shares of the training rows: the fallback if a library call fails at prediction.
fn shares(train: &View) -> Vec<f64> {
    let counts = train.class_counts();
    let total: f64 = counts.iter().sum();
    counts.iter().map(|c| c / total).collect()
}

/// k-nearest neighbours from smartcore.
#[derive(Clone, Debug)]
pub struct SmartcoreKnn {
    k: usize,
}

impl SmartcoreKnn {
    /// Builds from checked config parameters: `k` (capped at the number of training rows).
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        Ok(Box::new(SmartcoreKnn {
            k: params.integer("k")?,
        }))
    }
}

type Knn = KNNClassifier<f64, u32, DenseMatrix<f64>, Vec<u32>, Euclidian<f64>>;

/// A fitted smartcore k-NN model.
struct SmartcoreKnnModel {
    encoder: Encoder,
    fitted: Knn,
    /// The class index of each column of smartcore's probabilities (ascending).
    classes: Vec<usize>,
    num_classes: usize,
    fallback: Vec<f64>,
    k: usize,
}

impl Learner for SmartcoreKnn {
    /// The cost hint of as k-NN.
    fn cost_hint(&self) -> f64 {
        50.0
    }

    fn name(&self) -> &str {
        "smartcore_knn"
    }

    fn describe(&self) -> String {
        format!("smartcore_knn(k={})", self.k)
    }

    fn revision(&self) -> String {
        revision_text("smartcore_knn", KNN_REVISION)
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
        let rows = encoded_rows(&encoder, train.len(), &|r, a| train.value(r, a));
        let x = dense(self.name(), rows)?;
        let y: Vec<u32> = labels.iter().map(|&c| c as u32).collect();
        let k = self.k.min(train.len());
        let fitted = KNNClassifier::fit(&x, &y, KNNClassifierParameters::default().with_k(k))
            .map_err(|error| LearnerError::External {
                learner: self.name().into(),
                message: format!("smartcore k-NN failed: {error}"),
            })?;
        Ok(Box::new(SmartcoreKnnModel {
            encoder,
            fitted,
            classes: present,
            num_classes,
            fallback: shares(&train),
            k,
        }))
    }
}

impl Model for SmartcoreKnnModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let mut probabilities = Probabilities::zeros(test.len(), self.num_classes);
        let rows = encoded_rows(&self.encoder, test.len(), &|r, a| test.value(r, a));
        let predicted = if rows.is_empty() {
            Some(Vec::new())
        } else {
            dense("smartcore_knn", rows)
                .ok()
                .and_then(|x| self.fitted.predict_proba(&x).ok())
        };
        for row in 0..test.len() {
            let out = probabilities.row_mut(row);
            match &predicted {
                Some(predicted) => {
                    for (&class, &p) in self.classes.iter().zip(&predicted[row]) {
                        out[class] = p;
                    }
                }
                None => out.copy_from_slice(&self.fallback),
            }
        }
        Ok(probabilities)
    }

    fn explain(&self, _schema: &Schema) -> String {
        format!(
            "smartcore k-NN, k = {}, Euclidean on standardised columns",
            self.k
        )
    }
}

/// Random forest from smartcore (hard decisions only).
#[derive(Clone, Debug)]
pub struct SmartcoreForest {
    trees: usize,
}

impl SmartcoreForest {
    /// Builds from checked config parameters: `trees`.
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        Ok(Box::new(SmartcoreForest {
            trees: params.integer("trees")?,
        }))
    }
}

type Forest = RandomForestClassifier<f64, u32, DenseMatrix<f64>, Vec<u32>>;

/// A fitted smartcore random forest.
struct SmartcoreForestModel {
    encoder: Encoder,
    fitted: Forest,
    num_classes: usize,
    fallback: Vec<f64>,
}

impl Learner for SmartcoreForest {
    /// The cost hint of a random forest: about 100 times naive Bayes per row and attribute.
    fn cost_hint(&self) -> f64 {
        100.0
    }

    fn name(&self) -> &str {
        "smartcore_forest"
    }

    fn describe(&self) -> String {
        format!("smartcore_forest(trees={})", self.trees)
    }

    fn revision(&self) -> String {
        revision_text("smartcore_forest", FOREST_REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        super::CAPABILITIES
    }

    fn exact_weights(&self) -> bool {
        false
    }

    fn fit(&self, train: &View, seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        let train = expand_whole_weights(self.name(), train)?;
        let num_classes = train.num_classes();
        let (labels, present) = classes_present(&train);
        if present.len() == 1 {
            return Ok(Box::new(ConstantModel::one_class(
                present[0],
                num_classes,
                true,
            )));
        }
        let encoder = Encoder::fit(&train, false);
        let rows = encoded_rows(&encoder, train.len(), &|r, a| train.value(r, a));
        let x = dense(self.name(), rows)?;
        let y: Vec<u32> = labels.iter().map(|&c| c as u32).collect();
        let parameters = RandomForestClassifierParameters::default()
            .with_n_trees(self.trees.min(u16::MAX as usize) as u16)
            .with_seed(seed);
        let fitted = RandomForestClassifier::fit(&x, &y, parameters).map_err(|error| {
            LearnerError::External {
                learner: self.name().into(),
                message: format!("smartcore random forest failed: {error}"),
            }
        })?;
        Ok(Box::new(SmartcoreForestModel {
            encoder,
            fitted,
            num_classes,
            fallback: shares(&train),
        }))
    }
}

impl Model for SmartcoreForestModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let rows = encoded_rows(&self.encoder, test.len(), &|r, a| test.value(r, a));
        if rows.is_empty() {
            return Ok(Probabilities::zeros(0, self.num_classes));
        }
        let predicted = dense("smartcore_forest", rows)
            .ok()
            .and_then(|x| self.fitted.predict(&x).ok());
        Ok(match predicted {
            Some(classes) => {
                let classes: Vec<usize> = classes.iter().map(|&c| c as usize).collect();
                one_hot(&classes, self.num_classes)
            }
            None => {
                let values = (0..test.len())
                    .flat_map(|_| self.fallback.iter().copied())
                    .collect();
                Probabilities::from_flat(self.num_classes, values)
            }
        })
    }

    fn is_discrete(&self) -> bool {
        true
    }

    fn explain(&self, _schema: &Schema) -> String {
        "smartcore random forest (majority vote of its trees)".into()
    }
}
