//! Pruning a grown C4.5 tree: confidence-based pessimistic pruning with subtree raising, as
//! Weka's J48. On a training set of whole counts (every weight 1, every value known) the nodes
//! keep no instances: each node's rows are a range of one array of the training rows, grouped
//! by branch on the way down ([`prune_whole`]); at a million rows the rows every node kept
//! (4 bytes a row per level of the tree) were a hundred megabytes per tree.

use super::distribution::{added_errors, Distribution, SMALL};
use super::tree::{
    distribution_of, split, Instance, Kept, Node, Options, RowClasses, SplitTest, TrainingSet,
};

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

/// Estimated errors if `node`'s instances (kept at the node) were classified by the subtree of
/// its branch `branch`.
fn estimated_errors_for_branch(
    set: &TrainingSet,
    node: &Node,
    branch: usize,
    options: &Options,
) -> f64 {
    let subtree = &node.children[branch];
    match &node.train {
        Kept::Instances(data) => estimated_errors_for_data(set, subtree, data, options),
        Kept::Rows(_) => {
            let data = node.train.clone().into_instances();
            estimated_errors_for_data(set, subtree, &data, options)
        }
    }
}

/// Estimated errors if `data` were classified by `node`'s subtree.
fn estimated_errors_for_data(
    set: &TrainingSet,
    node: &Node,
    data: &[Instance],
    options: &Options,
) -> f64 {
    match &node.test {
        None => estimated_errors_of(&distribution_of(set, data), options),
        Some(test) => {
            let divided = split(set, test, data);
            node.children
                .iter()
                .zip(&divided.subsets)
                .map(|(child, subset)| estimated_errors_for_data(set, child, subset, options))
                .sum()
        }
    }
}

/// For a training set of whole counts: estimated errors if `node`'s subtree classified its own
/// instances and the rows `others` (reordered on the way), all of weight 1. The class weights
/// are whole counts, the same whatever the order they are added in, so each leaf's are its own
/// plus those of the others that reach it.
fn estimated_errors_adding(
    set: &TrainingSet,
    node: &Node,
    others: &mut [u32],
    scratch: &mut Vec<u32>,
    options: &Options,
) -> f64 {
    if others.is_empty() {
        return estimated_errors(node, options);
    }
    let Some(test) = &node.test else {
        let mut class_weights: Vec<f64> = (0..set.num_classes)
            .map(|class| node.distribution.class_weight(class))
            .collect();
        // Whole counts: adding the others' count of a class adds as many ones.
        if let Some(bits) = &set.class_bits {
            let second: usize = others.iter().map(|&row| bits.class(row)).sum();
            class_weights[0] += (others.len() - second) as f64;
            class_weights[1] += second as f64;
        } else {
            for &row in others.iter() {
                class_weights[set.classes[row as usize] as usize] += 1.0;
            }
        }
        let total = node.distribution.total() + others.len() as f64;
        return estimated_errors_of(&Distribution::single_bag(&class_weights, total), options);
    };
    let ends = group_by_branch(set, test, others, scratch);
    let mut start = 0;
    let mut sum = 0.0;
    for (child, &end) in node.children.iter().zip(&ends) {
        sum += estimated_errors_adding(set, child, &mut others[start..end], scratch, options);
        start = end;
    }
    sum
}

/// How many rows ahead `group_by_branch` asks for a value.
const PREFETCH_AHEAD: usize = 16;

/// Reorders `rows` by the branch `test` sends them down, keeping their order within a branch
/// (every value is known in a training set of whole counts); returns where each branch's rows
/// end. `scratch` is work space.
fn group_by_branch(
    set: &TrainingSet,
    test: &SplitTest,
    rows: &mut [u32],
    scratch: &mut Vec<u32>,
) -> Vec<usize> {
    let column = &set.columns[test.attribute()];
    scratch.clear();
    if let SplitTest::Numeric { threshold, .. } = *test {
        // Branch 0 (`value <= threshold`) in place, branch 1 by way of `scratch`.
        let mut first = 0;
        for index in 0..rows.len() {
            // The rows are scattered: the value of a row a few places on is asked for early.
            if let Some(&ahead) = rows.get(index + PREFETCH_AHEAD) {
                column.prefetch(ahead as usize);
            }
            let row = rows[index];
            if column.get(row as usize) > threshold {
                scratch.push(row);
            } else {
                rows[first] = row;
                first += 1;
            }
        }
        rows[first..].copy_from_slice(scratch);
        return vec![first, rows.len()];
    }
    let branches: Vec<usize> = rows
        .iter()
        .map(|&row| test.branch(column.get(row as usize)).unwrap_or(0))
        .collect();
    let mut next = vec![0usize; test.num_branches()];
    for &branch in &branches {
        next[branch] += 1;
    }
    let mut start = 0;
    for slot in &mut next {
        let count = *slot;
        *slot = start;
        start += count;
    }
    scratch.extend_from_slice(rows);
    for (&row, &branch) in scratch.iter().zip(&branches) {
        rows[next[branch]] = row;
        next[branch] += 1;
    }
    next
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
            let divided = split(set, test, &data);
            node.distribution = divided.distribution;
            for (child, subset) in node.children.iter_mut().zip(divided.subsets) {
                redistribute(set, child, subset);
            }
        }
    }
    node.train = Kept::of(data);
}

/// Confidence-based pessimistic pruning with optional subtree raising, on the instances each
/// node keeps (any weights, unknown values).
pub(crate) fn prune(set: &TrainingSet, node: &mut Node, options: &Options) {
    if node.is_leaf() {
        return;
    }
    for child in &mut node.children {
        prune(set, child, options);
    }
    let largest = node.distribution.heaviest_bag();
    let errors_largest_branch = if options.subtree_raising {
        estimated_errors_for_branch(set, node, largest, options)
    } else {
        f64::MAX
    };
    if replace_or_raise(node, largest, errors_largest_branch, options) {
        let data = std::mem::take(&mut node.train).into_instances();
        redistribute(set, node, data);
        prune(set, node, options);
    }
}

/// C4.5's decision at a node whose children are pruned, given the estimated errors of its
/// largest branch classifying all its instances: make it a leaf, raise that branch in its
/// place, or keep it. Returns true when the branch was raised (the raised subtree's
/// distributions are then the caller's to recompute).
fn replace_or_raise(
    node: &mut Node,
    largest: usize,
    errors_largest_branch: f64,
    options: &Options,
) -> bool {
    let errors_leaf = estimated_errors_of(&node.distribution, options);
    let errors_tree = estimated_errors(node, options);
    if errors_leaf - (errors_tree + 0.1) < SMALL
        && errors_leaf - (errors_largest_branch + 0.1) < SMALL
    {
        node.make_leaf();
        return false;
    }
    if errors_largest_branch - (errors_tree + 0.1) < SMALL {
        let raised = node.children.swap_remove(largest);
        node.test = raised.test;
        node.children = raised.children;
        return true;
    }
    false
}

/// [`prune`] on a training set of whole counts whose nodes keep nothing: `rows` are `node`'s
/// training rows (reordered on the way, which whole counts ignore), `scratch` work space.
/// Each decision is the one [`prune`] makes on the rows the nodes would keep.
pub(crate) fn prune_whole(
    set: &TrainingSet,
    node: &mut Node,
    rows: &mut [u32],
    scratch: &mut Vec<u32>,
    options: &Options,
) {
    let Some(test) = node.test.clone() else {
        return;
    };
    let ends = group_by_branch(set, &test, rows, scratch);
    let mut start = 0;
    for (child, &end) in node.children.iter_mut().zip(&ends) {
        prune_whole(set, child, &mut rows[start..end], scratch, options);
        start = end;
    }
    let largest = node.distribution.heaviest_bag();
    let errors_largest_branch = if options.subtree_raising {
        // The leaves below the branch hold the class counts of its own rows: only the others
        // need sending down.
        let first = if largest == 0 { 0 } else { ends[largest - 1] };
        let mut others: Vec<u32> = rows[..first]
            .iter()
            .chain(&rows[ends[largest]..])
            .copied()
            .collect();
        estimated_errors_adding(set, &node.children[largest], &mut others, scratch, options)
    } else {
        f64::MAX
    };
    if replace_or_raise(node, largest, errors_largest_branch, options) {
        redistribute_whole(set, node, rows, scratch);
        prune_whole(set, node, rows, scratch, options);
    }
}

/// [`redistribute`] on whole counts: the distributions of a (raised) subtree from its rows.
fn redistribute_whole(
    set: &TrainingSet,
    node: &mut Node,
    rows: &mut [u32],
    scratch: &mut Vec<u32>,
) {
    let data: Vec<Instance> = rows
        .iter()
        .map(|&row| Instance { row, weight: 1.0 })
        .collect();
    let Some(test) = node.test.clone() else {
        node.distribution = distribution_of(set, &data);
        if node.distribution.total().abs() >= SMALL {
            node.is_empty = false;
        }
        return;
    };
    node.distribution = split(set, &test, &data).distribution;
    drop(data);
    let ends = group_by_branch(set, &test, rows, scratch);
    let mut start = 0;
    for (child, &end) in node.children.iter_mut().zip(&ends) {
        redistribute_whole(set, child, &mut rows[start..end], scratch);
        start = end;
    }
}
