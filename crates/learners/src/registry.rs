//! Builds learners from config tables: `{ kind = "c45", confidence = 0.25 }`.

use crate::params::{ParamError, Params};
use crate::Learner;

/// A learner kind: its config name, a one-line description, and its constructor.
pub struct LearnerKind {
    /// The `kind` string used in configs.
    pub name: &'static str,
    /// What the learner is, in one line.
    pub description: &'static str,
    /// Builds the learner from its parameters.
    pub build: fn(Params) -> Result<Box<dyn Learner>, ParamError>,
}

/// Every built-in learner kind. Adding a learner here also adds it to the conformance suite.
pub fn kinds() -> Vec<LearnerKind> {
    vec![
        LearnerKind {
            name: "c45",
            description: "C4.5 decision tree (Quinlan 1993, as Weka's J48)",
            build: crate::c45::C45::build,
        },
        LearnerKind {
            name: "bagging",
            description: "bagging of a base learner (bootstrap samples, averaged probabilities)",
            build: crate::bagging::Bagging::build,
        },
        LearnerKind {
            name: "ripper",
            description: "RIPPER rule learner (Cohen 1995) as Weka's JRip",
            build: crate::ripper::Ripper::build,
        },
        LearnerKind {
            name: "external",
            description: "a learner run as an outside command on CSV files (any language)",
            build: |params| {
                Ok(Box::new(crate::external::ExternalLearner::from_params(
                    params,
                )?))
            },
        },
        LearnerKind {
            name: "naive_bayes",
            description: "naive Bayes as Weka's NaiveBayes: Gaussian numeric attributes (or MDL-discretised with discretize = true), Laplace-corrected nominal ones",
            build: crate::naive_bayes::NaiveBayes::from_params,
        },
        LearnerKind {
            name: "cost_sensitive",
            description: "cost-sensitive wrapper around a base learner: reweight or resample training instances by a cost matrix, or move the decision to the minimum-expected-cost class",
            build: crate::cost_sensitive::CostSensitive::from_params,
        },
        LearnerKind {
            name: "logistic",
            description: "multinomial logistic regression with a ridge penalty (linfa-logistic; indicator columns, mean imputation, standardisation)",
            build: crate::adapters::logistic::Logistic::from_params,
        },
        LearnerKind {
            name: "linfa_gaussian_nb",
            description: "Gaussian naive Bayes from linfa-bayes on encoded columns, normalised in log space",
            build: crate::adapters::gaussian_nb::LinfaGaussianNb::from_params,
        },
        LearnerKind {
            name: "linfa_tree",
            description: "decision tree from linfa-trees; hard decisions only (one-hot, discrete), no real probabilities",
            build: crate::adapters::decision_tree::LinfaTree::from_params,
        },
        LearnerKind {
            name: "smartcore_knn",
            description: "k-nearest neighbours from smartcore (Euclidean, standardised columns); probabilities are neighbour vote shares",
            build: crate::adapters::smartcore_models::SmartcoreKnn::from_params,
        },
        LearnerKind {
            name: "smartcore_forest",
            description: "random forest from smartcore; hard decisions only (one-hot, discrete), no real probabilities",
            build: crate::adapters::smartcore_models::SmartcoreForest::from_params,
        },
        LearnerKind {
            name: "knn",
            description: "k nearest neighbours (Weka IBk distance), k chosen by validation error",
            build: crate::knn::build,
        },
        LearnerKind {
            name: "perceptron",
            description: "linear perceptron: one softmax layer trained by mini-batch gradient descent on cross-entropy",
            build: crate::perceptron::build,
        },
        LearnerKind {
            name: "kstar",
            description: "K* instance-based learner with an entropic distance (Cleary & Trigg 1995), as Weka's KStar (blend 20%, missing mode average)",
            build: crate::kstar::build,
        },
        LearnerKind {
            name: "vfi",
            description: "voting feature intervals (Demiroz & Guvenir 1997), as Weka's VFI (votes weighted by confidence, bias 0.6)",
            build: crate::vfi::build,
        },
    ]
}

/// Builds a learner from a config table with a `kind` key and that kind's parameters.
pub fn build_learner(table: &toml::Table) -> Result<Box<dyn Learner>, ParamError> {
    let kind = match table.get("kind") {
        Some(toml::Value::String(kind)) => kind.as_str(),
        _ => {
            return Err(ParamError::UnknownKind {
                kind: table
                    .get("kind")
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| "(missing)".into()),
                known: known_kinds(),
            })
        }
    };
    let Some(entry) = kinds().into_iter().find(|entry| entry.name == kind) else {
        return Err(ParamError::UnknownKind {
            kind: kind.to_string(),
            known: known_kinds(),
        });
    };
    (entry.build)(Params::new(kind, table))
}

fn known_kinds() -> String {
    kinds()
        .iter()
        .map(|entry| entry.name)
        .collect::<Vec<_>>()
        .join(", ")
}
