//! Growing, collapsing and pruning a C4.5 tree (Quinlan 1993, release 8, as Weka's J48).

use super::distribution::{added_errors, class_entropy_of, Distribution, XLogX, SMALL};

/// One training instance at a node: a row of the training set and its (possibly fractional)
/// weight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Instance {
    pub(crate) row: u32,
    pub(crate) weight: f64,
}

/// The training rows copied out of a view, column-major, with what the split search needs.
pub(crate) struct TrainingSet {
    /// Attribute values (`NaN` = missing), one column per attribute.
    pub(crate) columns: Vec<Vec<f64>>,
    /// Class index of each row.
    pub(crate) classes: Vec<u32>,
    /// Number of classes.
    pub(crate) num_classes: usize,
    /// Number of values of each nominal attribute; `None` for numeric ones.
    pub(crate) nominal_sizes: Vec<Option<usize>>,
    /// The distinct known values of each numeric attribute, sorted (empty for nominal ones).
    pub(crate) sorted_distinct: Vec<Vec<f64>>,
}

/// The test at an inner node.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SplitTest {
    /// One branch per value of a nominal attribute.
    Nominal { attribute: usize, num_values: usize },
    /// `value <= threshold` goes to branch 0, `value > threshold` to branch 1.
    Numeric { attribute: usize, threshold: f64 },
}

impl SplitTest {
    /// The attribute tested.
    pub(crate) fn attribute(&self) -> usize {
        match *self {
            SplitTest::Nominal { attribute, .. } | SplitTest::Numeric { attribute, .. } => {
                attribute
            }
        }
    }

    /// Number of branches.
    pub(crate) fn num_branches(&self) -> usize {
        match *self {
            SplitTest::Nominal { num_values, .. } => num_values,
            SplitTest::Numeric { .. } => 2,
        }
    }

    /// The branch a value goes to, or `None` when the value is missing (or not a known value).
    pub(crate) fn branch(&self, value: f64) -> Option<usize> {
        if value.is_nan() {
            return None;
        }
        match *self {
            SplitTest::Nominal { num_values, .. } => {
                let index = value as usize;
                (value >= 0.0 && index < num_values).then_some(index)
            }
            SplitTest::Numeric { threshold, .. } => Some(if value <= threshold { 0 } else { 1 }),
        }
    }
}

/// A node of the tree: a leaf when `test` is `None`.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// The split, or `None` at a leaf.
    pub(crate) test: Option<SplitTest>,
    /// Class weights per branch of the split (one branch at a leaf).
    pub(crate) distribution: Distribution,
    /// One subtree per branch.
    pub(crate) children: Vec<Node>,
    /// True for a leaf that no training weight reached: prediction skips it.
    pub(crate) is_empty: bool,
    /// The training instances that reached the node (kept for subtree raising, then dropped).
    pub(crate) train: Vec<Instance>,
}

/// Growing and pruning options.
pub(crate) struct Options {
    pub(crate) min_leaf: f64,
    pub(crate) confidence: f64,
    pub(crate) z: f64,
    pub(crate) subtree_raising: bool,
    pub(crate) mdl_correction: bool,
    pub(crate) x_log_x: XLogX,
}

/// A candidate split of one attribute, with its criteria.
struct Candidate {
    test: SplitTest,
    info_gain: f64,
    gain_ratio: f64,
}

fn distribution_of(set: &TrainingSet, data: &[Instance]) -> Distribution {
    let mut distribution = Distribution::new(1, set.num_classes);
    for instance in data {
        distribution.add(
            0,
            set.classes[instance.row as usize] as usize,
            instance.weight,
        );
    }
    distribution
}

/// The class weights per branch of `test` for `data`, with instances of unknown value spread
/// over the branches in proportion to the known weights.
pub(crate) fn split_distribution(
    set: &TrainingSet,
    test: &SplitTest,
    data: &[Instance],
) -> Distribution {
    let column = &set.columns[test.attribute()];
    let mut distribution = Distribution::new(test.num_branches(), set.num_classes);
    for instance in data {
        if let Some(branch) = test.branch(column[instance.row as usize]) {
            distribution.add(
                branch,
                set.classes[instance.row as usize] as usize,
                instance.weight,
            );
        }
    }
    let fractions = distribution.bag_fractions();
    for instance in data {
        if test.branch(column[instance.row as usize]).is_none() {
            distribution.add_spread(
                set.classes[instance.row as usize] as usize,
                instance.weight,
                &fractions,
            );
        }
    }
    distribution
}

/// Sends `data` down the branches of `test`; instances of unknown value go down every branch
/// with their weight multiplied by the branch's share in `distribution`.
pub(crate) fn split_data(
    set: &TrainingSet,
    test: &SplitTest,
    distribution: &Distribution,
    data: &[Instance],
) -> Vec<Vec<Instance>> {
    let column = &set.columns[test.attribute()];
    let fractions = distribution.bag_fractions();
    let mut subsets = vec![Vec::new(); test.num_branches()];
    for instance in data {
        match test.branch(column[instance.row as usize]) {
            Some(branch) => subsets[branch].push(*instance),
            None => {
                for (branch, &fraction) in fractions.iter().enumerate() {
                    if fraction > SMALL {
                        subsets[branch].push(Instance {
                            row: instance.row,
                            weight: fraction * instance.weight,
                        });
                    }
                }
            }
        }
    }
    subsets
}

fn nominal_candidate(
    set: &TrainingSet,
    attribute: usize,
    num_values: usize,
    data: &[Instance],
    total_weight: f64,
    options: &Options,
) -> Option<Candidate> {
    let column = &set.columns[attribute];
    let mut distribution = Distribution::new(num_values, set.num_classes);
    for instance in data {
        let value = column[instance.row as usize];
        if !value.is_nan() {
            distribution.add(
                value as usize,
                set.classes[instance.row as usize] as usize,
                instance.weight,
            );
        }
    }
    if !distribution.has_two_branches_of(options.min_leaf) {
        return None;
    }
    let info_gain = distribution.info_gain(total_weight);
    let gain_ratio = distribution.gain_ratio(total_weight, info_gain);
    Some(Candidate {
        test: SplitTest::Nominal {
            attribute,
            num_values,
        },
        info_gain,
        gain_ratio,
    })
}

fn numeric_candidate(
    set: &TrainingSet,
    attribute: usize,
    known: &[SortedEntry],
    total_weight: f64,
    options: &Options,
) -> Option<Candidate> {
    let count = known.len();
    let num_classes = set.num_classes;
    let mut right = vec![0.0; num_classes];
    let mut right_weight = 0.0;
    for entry in known {
        right[entry.class as usize] += entry.weight;
        right_weight += entry.weight;
    }
    let known_weight = right_weight;
    let mut min_split = 0.1 * known_weight / num_classes as f64;
    if min_split - options.min_leaf < SMALL {
        min_split = options.min_leaf;
    } else if min_split - 25.0 > SMALL {
        min_split = 25.0;
    }
    if (count as f64) - 2.0 * min_split < -SMALL {
        return None;
    }
    let class_entropy = class_entropy_of(&right, known_weight);
    // The scan below evaluates `Distribution::info_gain_with` for every cut, written out on
    // plain arrays (same operations in the same order, so the same values) because it is
    // where C4.5 spends most of its time.
    let known_share = 1.0 - (total_weight - known_weight) / total_weight;
    let x_log_x = &options.x_log_x;
    let mut left = vec![0.0; num_classes];
    let mut left_weight = 0.0;
    let mut best_gain = 0.0;
    let mut best_index: Option<usize> = None;
    let mut candidates = 0usize;
    let mut last = 0;
    let unit_weights = known.iter().all(|entry| entry.weight == 1.0);
    if unit_weights && x_log_x.covers(count) {
        // Every weight is 1: the same scan on whole counts, whose x ln x are looked up directly
        // (the sums of ones above are exact, so every value is the same as in the scan below).
        let mut left_counts = vec![0usize; num_classes];
        let mut right_counts: Vec<usize> = right.iter().map(|&w| w as usize).collect();
        for next in 1..count {
            if known[next - 1].value + 1e-5 < known[next].value {
                for entry in &known[last..next] {
                    let class = entry.class as usize;
                    right_counts[class] -= 1;
                    left_counts[class] += 1;
                }
                let left_count = next;
                let right_count = count - next;
                if min_split - (left_count as f64) < SMALL
                    && min_split - (right_count as f64) < SMALL
                {
                    let mut value = 0.0;
                    for &n in &left_counts {
                        value += x_log_x.whole(n);
                    }
                    value -= x_log_x.whole(left_count);
                    for &n in &right_counts {
                        value += x_log_x.whole(n);
                    }
                    value -= x_log_x.whole(right_count);
                    let branch_entropy = -value / std::f64::consts::LN_2;
                    let numerator = (class_entropy - branch_entropy) * known_share;
                    let gain = if numerator.abs() < SMALL {
                        0.0
                    } else {
                        numerator / known_weight
                    };
                    if gain - best_gain > SMALL {
                        best_gain = gain;
                        best_index = Some(next - 1);
                    }
                    candidates += 1;
                }
                last = next;
            }
        }
    } else {
        for next in 1..count {
            if known[next - 1].value + 1e-5 < known[next].value {
                for entry in &known[last..next] {
                    let class = entry.class as usize;
                    right[class] -= entry.weight;
                    right_weight -= entry.weight;
                    left[class] += entry.weight;
                    left_weight += entry.weight;
                }
                if min_split - left_weight < SMALL && min_split - right_weight < SMALL {
                    let mut value = 0.0;
                    for &weight in &left {
                        value += x_log_x.get(weight);
                    }
                    value -= x_log_x.get(left_weight);
                    for &weight in &right {
                        value += x_log_x.get(weight);
                    }
                    value -= x_log_x.get(right_weight);
                    let branch_entropy = -value / std::f64::consts::LN_2;
                    let numerator = (class_entropy - branch_entropy) * known_share;
                    let gain = if numerator.abs() < SMALL {
                        0.0
                    } else {
                        numerator / known_weight
                    };
                    if gain - best_gain > SMALL {
                        best_gain = gain;
                        best_index = Some(next - 1);
                    }
                    candidates += 1;
                }
                last = next;
            }
        }
    }
    let split_index = best_index?;
    if candidates == 0 {
        return None;
    }
    let mut info_gain = best_gain;
    if options.mdl_correction {
        info_gain -= (candidates as f64).log2() / total_weight;
    }
    if info_gain < SMALL {
        return None;
    }
    let below = known[split_index].value;
    let above = known[split_index + 1].value;
    let mut threshold = (below + above) / 2.0;
    if threshold == above {
        threshold = below;
    }
    let mut split = Distribution::new(2, set.num_classes);
    for (position, entry) in known.iter().enumerate() {
        split.add(
            usize::from(position > split_index),
            entry.class as usize,
            entry.weight,
        );
    }
    let gain_ratio = split.gain_ratio(total_weight, info_gain);
    Some(Candidate {
        test: SplitTest::Numeric {
            attribute,
            threshold,
        },
        info_gain,
        gain_ratio,
    })
}

/// C4.5's choice of test: the highest gain ratio among the tests with at least average
/// information gain, or `None` for a leaf.
fn choose_test(set: &TrainingSet, node: &NodeData, options: &Options) -> Option<SplitTest> {
    let data = &node.instances;
    let node_distribution = distribution_of(set, data);
    let total_weight = node_distribution.total();
    if total_weight - 2.0 * options.min_leaf < -SMALL
        || (total_weight - node_distribution.class_weight(node_distribution.majority_class())).abs()
            < SMALL
    {
        return None;
    }
    let all_rows = set.classes.len() as f64;
    let many_values = |size: usize| -> bool { (size as f64) - 0.3 * all_rows >= -SMALL };
    let all_nominal_with_many_values = set
        .nominal_sizes
        .iter()
        .all(|size| size.is_some_and(many_values));
    let mut candidates = Vec::new();
    let mut gain_sum = 0.0;
    let mut counted = 0usize;
    for (attribute, size) in set.nominal_sizes.iter().enumerate() {
        let candidate = match size {
            Some(num_values) => {
                nominal_candidate(set, attribute, *num_values, data, total_weight, options)
            }
            None => numeric_candidate(
                set,
                attribute,
                &node.sorted[attribute],
                total_weight,
                options,
            ),
        };
        if let Some(candidate) = candidate {
            let counts_for_average = match size {
                None => true,
                Some(num_values) => all_nominal_with_many_values || !many_values(*num_values),
            };
            if counts_for_average {
                gain_sum += candidate.info_gain;
                counted += 1;
            }
            candidates.push(candidate);
        }
    }
    if counted == 0 {
        return None;
    }
    let average_gain = gain_sum / counted as f64;
    let mut best: Option<&Candidate> = None;
    let mut best_ratio = 0.0;
    for candidate in &candidates {
        if candidate.info_gain >= average_gain - 1e-3 && candidate.gain_ratio - best_ratio > SMALL {
            best = Some(candidate);
            best_ratio = candidate.gain_ratio;
        }
    }
    if best_ratio.abs() < SMALL {
        return None;
    }
    let mut test = best?.test.clone();
    if let SplitTest::Numeric {
        attribute,
        threshold,
    } = &mut test
    {
        // Use the largest training value at or below the midpoint. C4.5 scans the training
        // set in order with tolerances, which is order dependent only when two values within
        // 2e-6 of each other are both candidates: then scan, else take the largest candidate.
        let values = &set.sorted_distinct[*attribute];
        let candidates = values.partition_point(|&value| value - *threshold < SMALL);
        let near_tie =
            candidates >= 2 && values[candidates - 1] - values[candidates - 2] <= 2.0 * SMALL;
        let mut largest = -f64::MAX;
        if candidates > 0 && !near_tie {
            largest = values[candidates - 1];
        } else {
            for &value in &set.columns[*attribute] {
                if !value.is_nan() && value - largest > SMALL && value - *threshold < SMALL {
                    largest = value;
                }
            }
        }
        *threshold = largest;
    }
    Some(test)
}

/// A training instance in a list sorted by one numeric attribute's value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SortedEntry {
    value: f64,
    weight: f64,
    row: u32,
    class: u32,
}

/// The instances reaching a node, and for each numeric attribute the instances with a known
/// value sorted by it (empty for nominal attributes), so that no node sorts again.
pub(crate) struct NodeData {
    instances: Vec<Instance>,
    sorted: Vec<Vec<SortedEntry>>,
}

impl NodeData {
    /// The root's data: every instance, and each numeric attribute sorted once.
    pub(crate) fn root(set: &TrainingSet, instances: Vec<Instance>) -> Self {
        let sorted = set
            .nominal_sizes
            .iter()
            .enumerate()
            .map(|(attribute, size)| {
                if size.is_some() {
                    return Vec::new();
                }
                let column = &set.columns[attribute];
                let mut entries: Vec<SortedEntry> = instances
                    .iter()
                    .filter(|instance| !column[instance.row as usize].is_nan())
                    .map(|instance| SortedEntry {
                        value: column[instance.row as usize],
                        weight: instance.weight,
                        row: instance.row,
                        class: set.classes[instance.row as usize],
                    })
                    .collect();
                entries.sort_unstable_by(|a, b| a.value.total_cmp(&b.value));
                entries
            })
            .collect();
        NodeData { instances, sorted }
    }

    /// The distinct values of each sorted list, in order.
    pub(crate) fn sorted_distinct_values(&self) -> Vec<Vec<f64>> {
        self.sorted
            .iter()
            .map(|entries| {
                let mut values: Vec<f64> = entries.iter().map(|entry| entry.value).collect();
                values.dedup();
                values
            })
            .collect()
    }
}

/// Marks a row whose split value is unknown in the branch table.
const UNKNOWN_BRANCH: u32 = u32::MAX;

/// Splits a node's data (instances and sorted lists) among the branches of `test`, keeping the
/// sorted order; `branch_of_row` is scratch space with one slot per training row.
fn split_node_data(
    set: &TrainingSet,
    test: &SplitTest,
    distribution: &Distribution,
    data: &NodeData,
    branch_of_row: &mut [u32],
) -> Vec<NodeData> {
    let column = &set.columns[test.attribute()];
    for instance in &data.instances {
        branch_of_row[instance.row as usize] = match test.branch(column[instance.row as usize]) {
            Some(branch) => branch as u32,
            None => UNKNOWN_BRANCH,
        };
    }
    let fractions = distribution.bag_fractions();
    let instances = split_data(set, test, distribution, &data.instances);
    let mut children: Vec<NodeData> = instances
        .into_iter()
        .map(|instances| {
            let capacity = instances.len();
            NodeData {
                sorted: data
                    .sorted
                    .iter()
                    .map(|entries| {
                        if entries.is_empty() {
                            Vec::new()
                        } else {
                            Vec::with_capacity(capacity)
                        }
                    })
                    .collect(),
                instances,
            }
        })
        .collect();
    for (attribute, entries) in data.sorted.iter().enumerate() {
        if entries.is_empty() {
            continue;
        }
        for entry in entries {
            match branch_of_row[entry.row as usize] {
                UNKNOWN_BRANCH => {
                    for (branch, &fraction) in fractions.iter().enumerate() {
                        if fraction > SMALL {
                            children[branch].sorted[attribute].push(SortedEntry {
                                weight: fraction * entry.weight,
                                ..*entry
                            });
                        }
                    }
                }
                branch => children[branch as usize].sorted[attribute].push(*entry),
            }
        }
    }
    children
}

/// Grows a tree on `data` (keeping each node's instances when `keep_data`).
pub(crate) fn grow(
    set: &TrainingSet,
    data: NodeData,
    options: &Options,
    keep_data: bool,
    branch_of_row: &mut [u32],
) -> Node {
    match choose_test(set, &data, options) {
        Some(test) => {
            let distribution = split_distribution(set, &test, &data.instances);
            let subsets = split_node_data(set, &test, &distribution, &data, branch_of_row);
            let train = if keep_data {
                data.instances
            } else {
                Vec::new()
            };
            drop(data.sorted);
            let children = subsets
                .into_iter()
                .map(|subset| grow(set, subset, options, keep_data, branch_of_row))
                .collect();
            Node {
                test: Some(test),
                distribution,
                children,
                is_empty: false,
                train,
            }
        }
        None => {
            let distribution = distribution_of(set, &data.instances);
            let is_empty = distribution.total().abs() < SMALL;
            Node {
                test: None,
                distribution,
                children: Vec::new(),
                is_empty,
                train: if keep_data {
                    data.instances
                } else {
                    Vec::new()
                },
            }
        }
    }
}

impl Node {
    /// True at a leaf.
    pub(crate) fn is_leaf(&self) -> bool {
        self.test.is_none()
    }

    /// Number of nodes (inner nodes and leaves).
    pub(crate) fn num_nodes(&self) -> usize {
        1 + self.children.iter().map(Node::num_nodes).sum::<usize>()
    }

    /// Number of leaves.
    pub(crate) fn num_leaves(&self) -> usize {
        if self.is_leaf() {
            1
        } else {
            self.children.iter().map(Node::num_leaves).sum()
        }
    }

    fn make_leaf(&mut self) {
        self.test = None;
        self.children = Vec::new();
        self.distribution = self.distribution.merged();
    }

    fn training_errors(&self) -> f64 {
        if self.is_leaf() {
            self.distribution.errors()
        } else {
            self.children.iter().map(Node::training_errors).sum()
        }
    }

    /// Replaces subtrees that do not reduce training errors by leaves.
    pub(crate) fn collapse(&mut self) {
        if self.is_leaf() {
            return;
        }
        if self.training_errors() >= self.distribution.errors() - 1e-3 {
            self.make_leaf();
        } else {
            for child in &mut self.children {
                child.collapse();
            }
        }
    }

    /// Drops the kept training instances.
    pub(crate) fn drop_training_data(&mut self) {
        self.train = Vec::new();
        for child in &mut self.children {
            child.drop_training_data();
        }
    }
}

fn estimated_errors_of(distribution: &Distribution, options: &Options) -> f64 {
    if distribution.total().abs() < SMALL {
        return 0.0;
    }
    let errors = distribution.errors();
    errors + added_errors(distribution.total(), errors, options.confidence, options.z)
}

fn estimated_errors(node: &Node, options: &Options) -> f64 {
    if node.is_leaf() {
        estimated_errors_of(&node.distribution, options)
    } else {
        node.children
            .iter()
            .map(|child| estimated_errors(child, options))
            .sum()
    }
}

/// Estimated errors if `data` (another node's instances) were classified by `node`'s subtree.
fn estimated_errors_for_branch(
    set: &TrainingSet,
    node: &Node,
    data: &[Instance],
    options: &Options,
) -> f64 {
    match &node.test {
        None => estimated_errors_of(&distribution_of(set, data), options),
        Some(test) => {
            let distribution = split_distribution(set, test, data);
            let subsets = split_data(set, test, &distribution, data);
            node.children
                .iter()
                .zip(&subsets)
                .map(|(child, subset)| estimated_errors_for_branch(set, child, subset, options))
                .sum()
        }
    }
}

/// Recomputes the distributions of a (raised) subtree from new training instances.
fn redistribute(set: &TrainingSet, node: &mut Node, data: Vec<Instance>) {
    match &node.test {
        None => {
            node.distribution = distribution_of(set, &data);
            if node.distribution.total().abs() >= SMALL {
                node.is_empty = false;
            }
        }
        Some(test) => {
            node.distribution = split_distribution(set, test, &data);
            let subsets = split_data(set, test, &node.distribution, &data);
            for (child, subset) in node.children.iter_mut().zip(subsets) {
                redistribute(set, child, subset);
            }
        }
    }
    node.train = data;
}

/// Confidence-based pessimistic pruning with optional subtree raising.
pub(crate) fn prune(set: &TrainingSet, node: &mut Node, options: &Options) {
    if node.is_leaf() {
        return;
    }
    for child in &mut node.children {
        prune(set, child, options);
    }
    let largest = node.distribution.heaviest_bag();
    let errors_largest_branch = if options.subtree_raising {
        estimated_errors_for_branch(set, &node.children[largest], &node.train, options)
    } else {
        f64::MAX
    };
    let errors_leaf = estimated_errors_of(&node.distribution, options);
    let errors_tree = estimated_errors(node, options);
    if errors_leaf - (errors_tree + 0.1) < SMALL
        && errors_leaf - (errors_largest_branch + 0.1) < SMALL
    {
        node.make_leaf();
        return;
    }
    if errors_largest_branch - (errors_tree + 0.1) < SMALL {
        let raised = node.children.swap_remove(largest);
        node.test = raised.test;
        node.children = raised.children;
        let data = std::mem::take(&mut node.train);
        redistribute(set, node, data);
        prune(set, node, options);
    }
}
