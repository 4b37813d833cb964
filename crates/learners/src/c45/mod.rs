//! C4.5 decision trees (Quinlan 1993, release 8), built as Weka's J48 builds them with its
//! default options: gain ratio among tests of at least average gain, multiway nominal and
//! binary numeric splits with the MDL correction, fractional instances for missing values,
//! collapsing, and confidence-based pruning with subtree raising.

mod distribution;
mod flat;
mod prune;
mod tree;

use data::{AttributeKind, ColumnOf, Features, Schema, View};

use crate::model::{Learner, LearnerError, Model, Probabilities, ShareHint, SharedState};
use crate::params::{ParamError, Params};
use crate::sorted_columns::{self, SortedColumns};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::tune_space::TuneSpace;
use distribution::normal_upper_quantile;
use tree::{ClassBits, Instance, Node, Options, SplitTest, TrainingSet};

/// The C4.5 learner with its options (config kind `c45`).
#[derive(Clone, Debug, PartialEq)]
pub struct C45 {
    /// Pruning confidence (Weka -C), in (0, 0.5]; smaller prunes more.
    pub confidence: f64,
    /// Minimum weight in at least two branches of a split (Weka -M).
    pub min_leaf: usize,
    /// Laplace-corrected leaf probabilities (Weka -A).
    pub laplace: bool,
    /// Prune the tree (false = Weka -U).
    pub pruned: bool,
    /// Consider replacing a subtree by its largest branch while pruning (false = Weka -S).
    pub subtree_raising: bool,
}

/// Revision of the C4.5 implementation: bump it whenever its outputs change.
const REVISION: u32 = 1;

/// The `c45` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "c45",
        description: "C4.5 decision tree (Quinlan 1993, as Weka's J48)",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::real(
                "confidence",
                0.25,
                1e-6,
                0.5,
                "pruning confidence (Weka -C); smaller prunes more",
            )
            .tuned(TuneSpace::Reals(&[0.05, 0.1, 0.25, 0.5])),
            ParameterSpec::integer(
                "min_leaf",
                2,
                1,
                1_000_000,
                "minimum weight in at least two branches of a split (Weka -M)",
            )
            .tuned(TuneSpace::Integers(&[1, 2, 5, 10])),
            ParameterSpec::boolean(
                "laplace",
                false,
                "Laplace-corrected leaf probabilities (Weka -A)",
            ),
            ParameterSpec::boolean("pruned", true, "prune the tree (false = Weka -U)"),
            ParameterSpec::boolean(
                "subtree_raising",
                true,
                "consider replacing a subtree by its largest branch while pruning (false = Weka -S)",
            ),
        ],
        capabilities: Capabilities::ALL,
        build: C45::build,
    }
}

impl Default for C45 {
    /// The spec's defaults (J48's: confidence 0.25, min_leaf 2, pruned with subtree raising).
    fn default() -> Self {
        C45::from_params(Params::defaults(&spec())).expect("the spec's defaults are valid")
    }
}

impl C45 {
    /// Reads the options from checked config parameters.
    pub fn from_params(params: Params) -> Result<Self, ParamError> {
        Ok(C45 {
            confidence: params.real("confidence")?,
            min_leaf: params.integer("min_leaf")?,
            laplace: params.boolean("laplace")?,
            pruned: params.boolean("pruned")?,
            subtree_raising: params.boolean("subtree_raising")?,
        })
    }

    /// Builds the registry entry's learner.
    pub fn build(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        Ok(Box::new(C45::from_params(params)?))
    }

    /// Fits a tree and returns it with its concrete type (for its size and printout).
    pub fn fit_tree(&self, train: &View) -> Result<C45Model, LearnerError> {
        self.fit_tree_sorted(train, None)
    }

    /// [`C45::fit_tree`] reading the dataset's sorted columns when given: the same tree.
    fn fit_tree_sorted(
        &self,
        train: &View,
        sorted: Option<&SortedColumns>,
    ) -> Result<C45Model, LearnerError> {
        if train.is_empty() {
            return Err(LearnerError::Data {
                learner: "c45".into(),
                message: "no training rows".into(),
            });
        }
        let schema = train.schema();
        let nominal_sizes: Vec<Option<usize>> = schema
            .attributes
            .iter()
            .map(|attribute| match &attribute.kind {
                AttributeKind::Nominal(values) => Some(values.len()),
                AttributeKind::Numeric => None,
            })
            .collect();
        let columns: Vec<ColumnOf> = (0..train.num_attributes())
            .map(|attribute| train.column_of(attribute))
            .collect();
        let data: Vec<Instance> = (0..train.len())
            .map(|position| Instance {
                row: position as u32,
                weight: train.weight(position),
            })
            .collect();
        if data.iter().all(|instance| instance.weight <= 0.0) {
            return Err(LearnerError::Data {
                learner: "c45".into(),
                message: "every training row has weight 0".into(),
            });
        }
        let classes: Vec<u32> = (0..train.len())
            .map(|position| train.class(position) as u32)
            .collect();
        let mut set = TrainingSet {
            whole_counts: TrainingSet::has_whole_counts(&columns, &nominal_sizes, &data),
            columns,
            class_bits: (train.num_classes() == 2).then(|| ClassBits::of(&classes)),
            classes,
            num_classes: train.num_classes(),
            sorted_distinct: Vec::new(),
            cut_ranks: Vec::new(),
            implicit_ranks: Vec::new(),
            nominal_sizes,
        };
        let options = Options {
            min_leaf: self.min_leaf as f64,
            confidence: self.confidence,
            z: normal_upper_quantile(self.confidence),
            subtree_raising: self.subtree_raising,
            mdl_correction: true,
            x_log_x: distribution::XLogX::up_to(set.classes.len()),
        };
        // Subtree raising reads each node's training instances: on whole counts they are
        // found again while pruning (`prune::prune_whole`), else each node keeps its own.
        let raising_on_whole_counts = self.pruned && self.subtree_raising && set.whole_counts;
        let keep_data = self.pruned && self.subtree_raising && !set.whole_counts;
        let positions = sorted
            .filter(|_| set.whole_counts)
            .and_then(|sorted| Some((sorted, sorted.positions(train)?)));
        let shared = positions
            .as_ref()
            .map(|(sorted, positions)| (*sorted, positions));
        let lists = tree::sort_values(&mut set, &data, shared);
        let mut root = tree::grow(&set, data, lists, &options, keep_data);
        root.collapse();
        if raising_on_whole_counts {
            let mut rows: Vec<u32> = (0..set.classes.len() as u32).collect();
            prune::prune_whole(&set, &mut root, &mut rows, &mut Vec::new(), &options);
        } else if self.pruned {
            prune::prune(&set, &mut root, &options);
        }
        root.drop_training_data();
        Ok(C45Model {
            flat: flat::FlatTree::of(&root, set.num_classes, self.laplace),
            root,
            laplace: self.laplace,
            pruned: self.pruned,
            num_classes: set.num_classes,
        })
    }
}

impl Learner for C45 {
    /// The cost hint of C4.5: about 3 times naive Bayes per row and attribute.
    fn cost_hint(&self) -> f64 {
        3.0
    }

    fn name(&self) -> &str {
        "c45"
    }

    fn describe(&self) -> String {
        format!(
            "c45(confidence={},min_leaf={},laplace={},pruned={},subtree_raising={})",
            self.confidence, self.min_leaf, self.laplace, self.pruned, self.subtree_raising
        )
    }

    fn revision(&self) -> String {
        revision_text("c45", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        Ok(Box::new(self.fit_tree(train)?))
    }

    /// Every C4.5 and naive Bayes of a dataset shares its sorted numeric columns.
    fn shared_key(&self) -> Option<String> {
        Some(sorted_columns::SHARED_KEY.into())
    }

    /// The dataset's numeric columns sorted, when two units or more would read them.
    fn build_shared(
        &self,
        dataset: &data::Dataset,
        hint: ShareHint,
        budget: usize,
    ) -> Option<SharedState> {
        SortedColumns::shared(dataset, hint, budget)
    }

    fn fit_shared(
        &self,
        train: &View,
        _validation: Option<&View>,
        _seed: u64,
        shared: &SharedState,
    ) -> Result<Box<dyn Model>, LearnerError> {
        let sorted = SortedColumns::of(shared);
        Ok(Box::new(self.fit_tree_sorted(train, sorted.as_deref())?))
    }
}

/// A fitted C4.5 tree.
#[derive(Clone, Debug)]
pub struct C45Model {
    root: Node,
    /// The tree laid out for prediction (`None` only past 2^31 nodes).
    flat: Option<flat::FlatTree>,
    laplace: bool,
    pruned: bool,
    num_classes: usize,
}

impl C45Model {
    /// Number of nodes, inner nodes and leaves (J48's "Size of the tree").
    pub fn num_nodes(&self) -> usize {
        self.root.num_nodes()
    }

    /// Number of leaves (J48's "Number of Leaves").
    pub fn num_leaves(&self) -> usize {
        self.root.num_leaves()
    }

    /// Adds `weight` times the class probabilities of the row at `position` to `out`.
    fn add_probabilities(
        &self,
        node: &Node,
        test: &Features,
        position: usize,
        weight: f64,
        out: &mut [f64],
    ) {
        let Some(split) = &node.test else {
            for (class, value) in out.iter_mut().enumerate() {
                *value += weight * node.distribution.leaf_probability(class, self.laplace);
            }
            return;
        };
        match split.branch(test.value(position, split.attribute())) {
            Some(branch) if node.children[branch].is_empty => {
                for (class, value) in out.iter_mut().enumerate() {
                    *value += weight
                        * node
                            .distribution
                            .branch_probability(class, branch, self.laplace);
                }
            }
            Some(branch) => {
                self.add_probabilities(&node.children[branch], test, position, weight, out)
            }
            None => {
                let fractions = node.distribution.bag_fractions();
                for (child, fraction) in node.children.iter().zip(fractions) {
                    if !child.is_empty {
                        self.add_probabilities(child, test, position, weight * fraction, out);
                    }
                }
            }
        }
    }

    fn dump(&self, node: &Node, depth: usize, schema: &Schema, text: &mut String) {
        let Some(split) = &node.test else { return };
        let attribute = &schema.attributes[split.attribute()];
        for (branch, child) in node.children.iter().enumerate() {
            text.push('\n');
            text.push_str(&"|   ".repeat(depth));
            text.push_str(&attribute.name);
            match split {
                SplitTest::Nominal { .. } => {
                    let value = attribute
                        .values()
                        .and_then(|values| values.get(branch))
                        .map_or("?", String::as_str);
                    text.push_str(" = ");
                    text.push_str(value);
                }
                SplitTest::Numeric { threshold, .. } => {
                    text.push_str(if branch == 0 { " <= " } else { " > " });
                    text.push_str(&format_threshold(*threshold));
                }
            }
            if child.is_leaf() {
                text.push_str(": ");
                text.push_str(&leaf_label(node, branch, schema));
            } else {
                self.dump(child, depth + 1, schema, text);
            }
        }
    }
}

/// J48's label of branch `branch` of `node`: majority class, weight and errors.
fn leaf_label(node: &Node, branch: usize, schema: &Schema) -> String {
    let distribution = &node.distribution;
    let class = distribution.majority_class_in(branch);
    let name = schema.class_values.get(class).map_or("?", String::as_str);
    let mut label = format!("{name} ({}", format_weight(distribution.bag_weight(branch)));
    let errors = distribution.errors_in(branch);
    if errors > 1e-6 {
        label.push('/');
        label.push_str(&format_weight(errors));
    }
    label.push(')');
    label
}

/// A weight rounded to two decimals, written as Java prints a double (`3.0`, `2.33`).
fn format_weight(weight: f64) -> String {
    let rounded = (weight * 100.0 + 0.5).floor() / 100.0;
    let text = format!("{rounded}");
    if text.contains('.') || text.contains('e') || !rounded.is_finite() {
        text
    } else {
        format!("{text}.0")
    }
}

/// A threshold with at most six decimals and no trailing zeros (Weka's `doubleToString`).
fn format_threshold(value: f64) -> String {
    let text = format!("{value:.6}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    if text == "-0" {
        "0".into()
    } else {
        text
    }
}

impl Model for C45Model {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let mut probabilities = Probabilities::zeros(test.len(), self.num_classes);
        for position in 0..test.len() {
            let row = probabilities.row_mut(position);
            match self
                .flat
                .as_ref()
                .and_then(|flat| flat.probabilities(test, position))
            {
                // What the walk below adds for a row of known values (`1.0 * p` is `p`).
                Some(reached) => row
                    .iter_mut()
                    .zip(reached)
                    .for_each(|(value, p)| *value += p),
                None => self.add_probabilities(&self.root, test, position, 1.0, row),
            }
            let sum: f64 = row.iter().sum();
            if sum > 0.0 && sum.is_finite() {
                row.iter_mut().for_each(|value| *value /= sum);
            } else {
                // Only reachable when every leaf reached is empty: fall back to the root's
                // class frequencies.
                let root = self.root.distribution.merged();
                for (class, value) in row.iter_mut().enumerate() {
                    *value = root.laplace_probability(class);
                }
            }
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let mut text = String::from(if self.pruned {
            "J48 pruned tree\n------------------\n"
        } else {
            "J48 unpruned tree\n------------------\n"
        });
        if self.root.is_leaf() {
            text.push_str(": ");
            text.push_str(&leaf_label(&self.root, 0, schema));
        } else {
            self.dump(&self.root, 0, schema, &mut text);
        }
        text.push_str(&format!(
            "\n\nNumber of Leaves  : \t{}\n\nSize of the tree : \t{}\n",
            self.num_leaves(),
            self.num_nodes()
        ));
        text
    }
}
