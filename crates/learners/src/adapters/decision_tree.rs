//! CART-style decision tree over `linfa-trees` (Gini split quality, no pruning by default).
//!
//! linfa-trees gives no class probabilities, only the majority class of a leaf, so this model
//! outputs one-hot rows and `is_discrete()` is true: ROC analysis sees a single point.
//!
//! Two linfa-trees traps are worked around. Its leaf label breaks ties between classes in
//! `HashMap` order, which is random per process, and its pruning merges sibling leaves with
//! equal labels, so two fits of the same data gave different trees. Rows are therefore given
//! weights `1 + 1e-4 c / K` (class `c` of `K`) that only break exact ties (toward the higher
//! class) while the sum of weights of a class stays below the next whole count for up to
//! 10^4 rows per leaf. And it sends `x == split value` left while training but right while
//! predicting: this adapter routes rows itself (left when `x <= split value`, as in training),
//! counts the training rows of each class in each leaf and predicts the majority (ties to the
//! lowest class index). linfa's split search still sums `f32` Gini terms in `HashMap` order, so
//! with three or more classes two candidate splits of (nearly) equal quality could still be
//! chosen differently between runs; the conformance suite has not caught that so far.
//! Rows are encoded with indicator columns and mean imputation (no standardisation: trees do not
//! care about scale).

use data::{Features, Schema, View};
use linfa::traits::Fit;
use linfa_trees::{DecisionTree, TreeNode};
use ndarray::Array1;

use super::{classes_present, expand_whole_weights, one_hot, ConstantModel};
use crate::encoding::Encoder;
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::{Learner, LearnerError, Model, ParamError, Params, Probabilities};

/// Revision of the linfa decision-tree adapter: bump it whenever its outputs change.
const REVISION: u32 = 1;

/// The `linfa_tree` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "linfa_tree",
        description: "decision tree from linfa-trees; hard decisions only (one-hot, discrete), no real probabilities",
        revision: REVISION,
        parameters: vec![ParameterSpec::integer(
            "max_depth",
            0,
            0,
            1000,
            "deepest level of the tree (0 = unlimited)",
        )],
        capabilities: super::CAPABILITIES,
        build: LinfaTree::from_params,
    }
}

/// A decision tree from linfa-trees (hard decisions only).
#[derive(Clone, Debug)]
pub struct LinfaTree {
    max_depth: Option<usize>,
}

impl LinfaTree {
    /// Builds from checked config parameters: `max_depth` (0 = unlimited).
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        let max_depth = params.integer("max_depth")?;
        Ok(Box::new(LinfaTree {
            max_depth: (max_depth > 0).then_some(max_depth),
        }))
    }
}

/// A fitted linfa decision tree.
struct LinfaTreeModel {
    encoder: Encoder,
    fitted: DecisionTree<f64, usize>,
    /// The class predicted in each leaf, by leaf number (order of a left-first walk).
    leaf_classes: Vec<usize>,
    num_classes: usize,
}

/// The leaf number (left-first walk order) that a row reaches.
fn leaf_of(root: &TreeNode<f64, usize>, row: &[f64]) -> usize {
    // Count the leaves to the left of the path while descending.
    let mut node = root;
    let mut leaves_before = 0;
    loop {
        let children = node.children();
        let (left, right) = (children[0], children[1]);
        match (node.is_leaf(), left, right) {
            (false, Some(left), Some(right)) => {
                let (feature, split_value, _) = node.split();
                if row[feature] <= split_value {
                    node = left;
                } else {
                    leaves_before += count_leaves(left);
                    node = right;
                }
            }
            _ => return leaves_before,
        }
    }
}

fn count_leaves(node: &TreeNode<f64, usize>) -> usize {
    let children = node.children();
    match (node.is_leaf(), children[0], children[1]) {
        (false, Some(left), Some(right)) => count_leaves(left) + count_leaves(right),
        _ => 1,
    }
}

impl Learner for LinfaTree {
    /// The cost hint of as C4.5.
    fn cost_hint(&self) -> f64 {
        3.0
    }

    fn name(&self) -> &str {
        "linfa_tree"
    }

    fn describe(&self) -> String {
        format!("linfa_tree(max_depth={})", self.max_depth.unwrap_or(0))
    }

    fn revision(&self) -> String {
        revision_text("linfa_tree", REVISION)
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
                true,
            )));
        }
        let encoder = Encoder::fit(&train, false);
        let records = encoder.encode_view(&train);
        // Tie-breaking weights (see the module documentation): class c weighs 1 + 1e-4 c / K.
        let tie_breaks: Array1<f32> = labels
            .iter()
            .map(|&class| 1.0 + 1e-4 * class as f32 / num_classes as f32)
            .collect();
        let dataset =
            linfa::Dataset::new(records.clone(), Array1::from(labels)).with_weights(tie_breaks);
        let fitted = DecisionTree::params()
            .max_depth(self.max_depth)
            .fit(&dataset)
            .map_err(|error| LearnerError::External {
                learner: self.name().into(),
                message: format!("linfa-trees failed: {error}"),
            })?;
        let root = fitted.root_node();
        let mut counts = vec![vec![0usize; num_classes]; count_leaves(root)];
        for (row, &class) in records.rows().into_iter().zip(dataset.targets()) {
            let row = row.to_vec();
            counts[leaf_of(root, &row)][class] += 1;
        }
        let leaf_classes = counts
            .iter()
            .map(|leaf| {
                let mut best = 0;
                for (class, &count) in leaf.iter().enumerate() {
                    if count > leaf[best] {
                        best = class;
                    }
                }
                best
            })
            .collect();
        Ok(Box::new(LinfaTreeModel {
            encoder,
            fitted,
            leaf_classes,
            num_classes,
        }))
    }
}

impl Model for LinfaTreeModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let records = self.encoder.encode_features(test);
        let root = self.fitted.root_node();
        let predicted: Vec<usize> = records
            .rows()
            .into_iter()
            .map(|row| self.leaf_classes[leaf_of(root, &row.to_vec())])
            .collect();
        Ok(one_hot(&predicted, self.num_classes))
    }

    fn is_discrete(&self) -> bool {
        true
    }

    fn explain(&self, schema: &Schema) -> String {
        format!(
            "linfa-trees decision tree: depth {}, {} leaves, over columns {:?}",
            self.fitted.max_depth(),
            self.fitted.num_leaves(),
            self.encoder.column_names(schema)
        )
    }
}
