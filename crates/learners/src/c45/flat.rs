//! A fitted tree laid out for prediction: its inner nodes in one array of small records in
//! depth-first order and the class probabilities of its outcomes (leaves, and the empty
//! branches whose parent's distribution answers) in another, so that a row's walk from the
//! root reads a few neighbouring cache lines rather than a node allocation per level. It
//! answers rows whose walk meets only known values; the others are left to the recursive walk
//! (`C45Model::add_probabilities`), which spreads a row over the branches.

use data::Features;

use super::tree::{Node, SplitTest};

/// Marks a reference to an outcome rather than to an inner node.
const OUTCOME: u32 = 1 << 31;

/// An inner node: its test and where each branch leads.
#[derive(Clone, Debug)]
struct Inner {
    test: SplitTest,
    /// Where the branches' references start in `FlatTree::branches`.
    first_branch: u32,
}

/// A tree for prediction (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct FlatTree {
    inner: Vec<Inner>,
    /// Each inner node's branch references in order: an inner node's index, or `OUTCOME` plus
    /// an outcome's index.
    branches: Vec<u32>,
    /// The class probabilities of each outcome, `num_classes` each.
    outcomes: Vec<f64>,
    num_classes: usize,
    /// The root's reference.
    root: u32,
}

impl FlatTree {
    /// Lays out `root`'s tree, its outcomes' probabilities Laplace-corrected when `laplace`.
    /// `None` when the tree is too large to number with 31 bits.
    pub(crate) fn of(root: &Node, num_classes: usize, laplace: bool) -> Option<FlatTree> {
        let mut tree = FlatTree {
            inner: Vec::new(),
            branches: Vec::new(),
            outcomes: Vec::new(),
            num_classes,
            root: 0,
        };
        tree.root = tree.add(root, laplace)?;
        Some(tree)
    }

    /// Adds `node`'s subtree; returns its reference.
    fn add(&mut self, node: &Node, laplace: bool) -> Option<u32> {
        let Some(test) = &node.test else {
            let distribution = &node.distribution;
            return self.outcome(
                (0..self.num_classes).map(|class| distribution.leaf_probability(class, laplace)),
            );
        };
        let index = u32::try_from(self.inner.len())
            .ok()
            .filter(|&i| i < OUTCOME)?;
        let first_branch = u32::try_from(self.branches.len()).ok()?;
        self.inner.push(Inner {
            test: test.clone(),
            first_branch,
        });
        self.branches
            .resize(self.branches.len() + node.children.len(), 0);
        for (branch, child) in node.children.iter().enumerate() {
            let reference = if child.is_empty {
                let distribution = &node.distribution;
                self.outcome(
                    (0..self.num_classes)
                        .map(|class| distribution.branch_probability(class, branch, laplace)),
                )?
            } else {
                self.add(child, laplace)?
            };
            self.branches[first_branch as usize + branch] = reference;
        }
        Some(index)
    }

    /// Adds an outcome with these probabilities; returns its reference.
    fn outcome(&mut self, probabilities: impl Iterator<Item = f64>) -> Option<u32> {
        let index = u32::try_from(self.outcomes.len() / self.num_classes.max(1))
            .ok()
            .filter(|&i| i < OUTCOME)?;
        self.outcomes.extend(probabilities);
        Some(OUTCOME | index)
    }

    /// The class probabilities the row at `position` of `test` reaches, or `None` when its
    /// walk meets a missing value or a nominal value the test does not know.
    #[inline]
    pub(crate) fn probabilities(&self, test: &Features, position: usize) -> Option<&[f64]> {
        let mut reference = self.root;
        while reference & OUTCOME == 0 {
            let node = &self.inner[reference as usize];
            let branch = node
                .test
                .branch(test.value(position, node.test.attribute()))?;
            reference = self.branches[node.first_branch as usize + branch];
        }
        let start = (reference & !OUTCOME) as usize * self.num_classes;
        Some(&self.outcomes[start..start + self.num_classes])
    }
}
