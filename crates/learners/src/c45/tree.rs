//! Growing, collapsing and pruning a C4.5 tree (Quinlan 1993, release 8, as Weka's J48).

use std::ops::Range;

use data::ColumnOf;

use crate::sorted_columns::{Positions, SortedColumns};
use crate::total_order;

use super::distribution::{class_entropy_of, gain_ratio_of, Distribution, XLogX, SMALL};

/// One training instance at a node: a row of the training set and its (possibly fractional)
/// weight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Instance {
    pub(crate) row: u32,
    pub(crate) weight: f64,
}

/// The training rows of a view, with what the split search needs.
pub(crate) struct TrainingSet<'a> {
    /// Attribute values (`NaN` = missing), one column per attribute, read through the view's
    /// positions (not copied: at a million rows of 20 columns a copy was 144 MB per fit).
    pub(crate) columns: Vec<ColumnOf<'a>>,
    /// Class index of each row.
    pub(crate) classes: Vec<u32>,
    /// Number of classes.
    pub(crate) num_classes: usize,
    /// The classes as bits, when there are two.
    pub(crate) class_bits: Option<ClassBits>,
    /// Number of values of each nominal attribute; `None` for numeric ones.
    pub(crate) nominal_sizes: Vec<Option<usize>>,
    /// The distinct known values of each numeric attribute, sorted (empty for nominal ones).
    pub(crate) sorted_distinct: Vec<Vec<f64>>,
    /// For each numeric attribute and each of its distinct values, the rank of the first
    /// distinct value more than 1e-5 above it: C4.5 cuts between two sorted values only when
    /// the second is that far above the first, which is when its rank is at least this one.
    pub(crate) cut_ranks: Vec<Vec<u32>>,
    /// For each numeric attribute of a training set of whole counts whose most common value
    /// is held by more than half of the rows, that value's rank: the sorted lists leave its
    /// instances out, since a node's instances without an entry are exactly those.
    pub(crate) implicit_ranks: Vec<Option<u32>>,
    /// True when every weight is 1 and every value is known: then every instance reaches each
    /// node whole, and every class weight is a whole count, whatever the order its ones are
    /// added in.
    pub(crate) whole_counts: bool,
}

impl TrainingSet<'_> {
    /// True when every weight is 1 and `test.branch` knows every value of `columns`.
    pub(crate) fn has_whole_counts(
        columns: &[ColumnOf],
        nominal_sizes: &[Option<usize>],
        instances: &[Instance],
    ) -> bool {
        instances.iter().all(|instance| instance.weight == 1.0)
            && columns.iter().zip(nominal_sizes).all(|(column, size)| {
                column.iter().all(|value| match size {
                    None => !value.is_nan(),
                    Some(num_values) => value >= 0.0 && (value as usize) < *num_values,
                })
            })
    }
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
    pub(crate) train: Kept,
}

/// The training instances kept at a node for subtree raising: only their rows when each
/// weighs 1 (always so on a training set of whole counts), a quarter of the memory of the
/// instances, which at a million rows is the difference between fitting and swapping (every
/// level of the tree keeps every row once).
#[derive(Clone, Debug)]
pub(crate) enum Kept {
    /// Rows, each of weight 1.
    Rows(Vec<u32>),
    /// Instances of any weight.
    Instances(Vec<Instance>),
}

impl Default for Kept {
    /// Nothing kept.
    fn default() -> Self {
        Kept::Rows(Vec::new())
    }
}

impl Kept {
    /// Keeps `instances`, as rows alone when every weight is 1.
    pub(crate) fn of(instances: Vec<Instance>) -> Kept {
        if instances.iter().all(|instance| instance.weight == 1.0) {
            Kept::Rows(instances.iter().map(|instance| instance.row).collect())
        } else {
            Kept::Instances(instances)
        }
    }

    /// The kept instances, in the order kept.
    pub(crate) fn into_instances(self) -> Vec<Instance> {
        match self {
            Kept::Rows(rows) => rows
                .into_iter()
                .map(|row| Instance { row, weight: 1.0 })
                .collect(),
            Kept::Instances(instances) => instances,
        }
    }
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
    proposal: Proposal,
    info_gain: f64,
    gain_ratio: f64,
}

/// What a candidate split tests: a nominal attribute's values, or a cut of a numeric attribute
/// between its distinct values of ranks `below` and `above`, whose threshold is worked out for
/// the chosen candidate only (reading the values is a cache miss each at a million rows).
enum Proposal {
    Nominal(SplitTest),
    Cut {
        attribute: usize,
        below: u32,
        above: u32,
    },
}

/// The class weights of `data` (one branch).
pub(crate) fn distribution_of(set: &TrainingSet, data: &[Instance]) -> Distribution {
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

/// A node's instances divided by a test.
pub(crate) struct Split {
    /// The branch of each instance, `UNKNOWN_BRANCH` where its value is unknown.
    branches: Vec<u32>,
    /// The class weights per branch, with the instances of unknown value spread over the
    /// branches in proportion to the known weights.
    pub(crate) distribution: Distribution,
    /// The instances sent down each branch; those of unknown value go down every branch whose
    /// share is above `SMALL`, their weight multiplied by that share.
    pub(crate) subsets: Vec<Vec<Instance>>,
}

/// Divides `data` by `test`, reading each instance's value.
pub(crate) fn split(set: &TrainingSet, test: &SplitTest, data: &[Instance]) -> Split {
    divide(
        set,
        test.num_branches(),
        data,
        value_branches(set, test, data),
    )
}

/// The branch `test` sends each instance of `data` down, from its value (`UNKNOWN_BRANCH`
/// where the value is unknown).
fn value_branches(set: &TrainingSet, test: &SplitTest, data: &[Instance]) -> Vec<u32> {
    let column = &set.columns[test.attribute()];
    data.iter()
        .map(
            |instance| match test.branch(column.get(instance.row as usize)) {
                Some(branch) => branch as u32,
                None => UNKNOWN_BRANCH,
            },
        )
        .collect()
}

/// Divides `data` among `num_branches` branches, instance `i` going down `branches[i]`
/// (`UNKNOWN_BRANCH`: every branch, in proportion to the known weights).
fn divide(set: &TrainingSet, num_branches: usize, data: &[Instance], branches: Vec<u32>) -> Split {
    let mut distribution = Distribution::new(num_branches, set.num_classes);
    let mut counts = vec![0usize; num_branches];
    let mut unknown = 0usize;
    for (instance, &branch) in data.iter().zip(&branches) {
        if branch == UNKNOWN_BRANCH {
            unknown += 1;
        } else {
            let class = set.classes[instance.row as usize] as usize;
            distribution.add(branch as usize, class, instance.weight);
            counts[branch as usize] += 1;
        }
    }
    if unknown > 0 {
        let fractions = distribution.bag_fractions();
        for (instance, &branch) in data.iter().zip(&branches) {
            if branch == UNKNOWN_BRANCH {
                distribution.add_spread(
                    set.classes[instance.row as usize] as usize,
                    instance.weight,
                    &fractions,
                );
            }
        }
    }
    let fractions = distribution.bag_fractions();
    let mut subsets: Vec<Vec<Instance>> = counts
        .iter()
        .map(|&count| Vec::with_capacity(count + unknown))
        .collect();
    for (instance, &branch) in data.iter().zip(&branches) {
        if branch != UNKNOWN_BRANCH {
            subsets[branch as usize].push(*instance);
        } else {
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
    Split {
        branches,
        distribution,
        subsets,
    }
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
        let value = column.get(instance.row as usize);
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
    let info_gain = distribution.info_gain(total_weight, &options.x_log_x);
    let gain_ratio = distribution.gain_ratio(total_weight, info_gain, &options.x_log_x);
    Some(Candidate {
        proposal: Proposal::Nominal(SplitTest::Nominal {
            attribute,
            num_values,
        }),
        info_gain,
        gain_ratio,
    })
}

/// What the split search of a node knows about the node's instances.
struct NodeSummary<'a> {
    /// Number of instances at the node.
    instance_count: usize,
    /// Their total weight.
    total_weight: f64,
    /// Their count per class when every instance weighs 1, else `None`.
    unit_class_counts: Option<&'a [usize]>,
    /// The weight of each training row at the node (read only for the node's rows, and only
    /// when some weight is not 1).
    weight_of_row: &'a [f64],
}

/// A cut of a sorted list: after sorted position `index`, between values of ranks `below` and
/// `above`.
#[derive(Clone, Copy, Debug)]
struct Cut {
    index: usize,
    below: u32,
    above: u32,
}

/// The search for the best cut of one attribute's sorted values: the information gain of each
/// admissible cut, the best one, and how many cuts were admissible (for the MDL correction).
struct CutSearch {
    min_split: f64,
    class_entropy: f64,
    known_share: f64,
    known_weight: f64,
    best_gain: f64,
    best: Option<Cut>,
    candidates: usize,
    /// The largest `sum of w ln w` whose gain has been computed. The gain never decreases
    /// with that sum (every step of its computation is monotone), so a cut whose sum is no
    /// larger cannot beat the best by more than `SMALL` and its gain need not be computed.
    largest_sum: f64,
}

impl CutSearch {
    /// A search with no cut seen yet, on known values of class weights `known` (`known_weight`
    /// in all) at a node of `total_weight`, each side of a cut to weigh at least `min_split`.
    fn new(
        min_split: f64,
        known: &[f64],
        known_weight: f64,
        total_weight: f64,
        x_log_x: &XLogX,
    ) -> Self {
        CutSearch {
            min_split,
            class_entropy: class_entropy_of(known, known_weight, x_log_x),
            known_share: 1.0 - (total_weight - known_weight) / total_weight,
            known_weight,
            best_gain: 0.0,
            best: None,
            candidates: 0,
            largest_sum: f64::NEG_INFINITY,
        }
    }

    /// The candidate split of the best cut found of `attribute` (whose node's sorted list is
    /// `listed`, `count` known values with the run it leaves out), or `None` when no cut gains
    /// enough information once the MDL correction for the number of cuts is taken off.
    fn candidate(
        &self,
        attribute: usize,
        listed: &[SortedEntry],
        count: usize,
        node: &NodeSummary,
        options: &Options,
    ) -> Option<Candidate> {
        let cut = self.best?;
        if self.candidates == 0 {
            return None;
        }
        let total_weight = node.total_weight;
        let mut info_gain = self.best_gain;
        if options.mdl_correction {
            info_gain -= (self.candidates as f64).log2() / total_weight;
        }
        if info_gain < SMALL {
            return None;
        }
        // The weight on each side of the cut, each summed in sorted order.
        let branch_weights = if node.unit_class_counts.is_some() {
            [(cut.index + 1) as f64, (count - cut.index - 1) as f64]
        } else {
            let (below, above) = listed.split_at(cut.index + 1);
            let sum =
                |entries| entry_weights(entries, node.weight_of_row).fold(0.0, |sum, w| sum + w);
            [sum(below), sum(above)]
        };
        let gain_ratio = gain_ratio_of(
            &branch_weights,
            self.known_weight,
            total_weight,
            info_gain,
            &options.x_log_x,
        );
        Some(Candidate {
            proposal: Proposal::Cut {
                attribute,
                below: cut.below,
                above: cut.above,
            },
            info_gain,
            gain_ratio,
        })
    }

    /// True when both sides of a cut weigh at least the minimum split weight.
    fn admissible(&self, left_weight: f64, right_weight: f64) -> bool {
        self.min_split - left_weight < SMALL && self.min_split - right_weight < SMALL
    }

    /// The sorted positions after which a cut of `count` entries, all of weight 1, is
    /// admissible: those from the first to the last, since the left side grows and the right
    /// shrinks with the position (empty when none is).
    fn admissible_positions(&self, count: usize) -> Range<usize> {
        let admissible =
            |index: usize| self.admissible((index + 1) as f64, (count - index - 1) as f64);
        let last = count.saturating_sub(1);
        let first = (0..last).find(|&index| admissible(index)).unwrap_or(last);
        let end = (first..last)
            .rev()
            .find(|&index| admissible(index))
            .map_or(first, |index| index + 1);
        first..end
    }

    /// Considers an admissible cut whose sum of `w ln w` over the class weights of both sides
    /// minus those of the sides' totals is `value`.
    #[inline]
    fn consider(&mut self, cut: Cut, value: f64) {
        self.candidates += 1;
        if value > self.largest_sum {
            self.largest_sum = value;
            let branch_entropy = -value / std::f64::consts::LN_2;
            let numerator = (self.class_entropy - branch_entropy) * self.known_share;
            let gain = if numerator.abs() < SMALL {
                0.0
            } else {
                numerator / self.known_weight
            };
            if gain - self.best_gain > SMALL {
                self.best_gain = gain;
                self.best = Some(cut);
            }
        }
    }
}

/// The weight of each sorted entry, from the node's weight of each row.
fn entry_weights<'a>(
    known: &'a [SortedEntry],
    weight_of_row: &'a [f64],
) -> impl Iterator<Item = f64> + 'a {
    known.iter().map(|entry| weight_of_row[entry.row as usize])
}

/// Per-class work space of the split search, reused from attribute to attribute.
#[derive(Default)]
struct ScanScratch {
    /// Class counts of the known values (when every weight is 1).
    totals: Vec<usize>,
    /// Class counts at or below the cut.
    left_counts: Vec<usize>,
    /// Class counts of the entries a list leaves out.
    run_counts: Vec<usize>,
    /// Class weights at or below the cut.
    left: Vec<f64>,
    /// Class weights above the cut.
    right: Vec<f64>,
}

/// The entries a sorted list leaves out at a node (see `TrainingSet::implicit_ranks`): every
/// instance of the node without an entry has the value of rank `rank`, and these `length`
/// instances come after the first `position` listed entries in sorted order.
#[derive(Clone, Copy, Debug)]
struct ImplicitRun {
    rank: u32,
    position: usize,
    length: usize,
}

/// The run of instances that the node's sorted list `listed` of `attribute` leaves out, if any.
fn implicit_run(
    set: &TrainingSet,
    attribute: usize,
    listed: &[SortedEntry],
    instance_count: usize,
) -> Option<ImplicitRun> {
    let rank = set.implicit_ranks[attribute]?;
    let length = instance_count - listed.len();
    (length > 0).then(|| ImplicitRun {
        rank,
        position: listed.partition_point(|entry| entry.rank < rank),
        length,
    })
}

/// True when no two of a numeric attribute's sorted values at a node (`listed` and `run`) are
/// far enough apart for C4.5 to cut between them: the last is within 1e-5 of the first (or
/// there are fewer than two). Then no subset of them can be cut either, so the attribute has no
/// split at the node or below it.
fn without_cuts(
    set: &TrainingSet,
    attribute: usize,
    listed: &[SortedEntry],
    run: Option<ImplicitRun>,
) -> bool {
    let run_rank = run.map(|run| run.rank);
    let first = listed
        .first()
        .map(|entry| entry.rank)
        .into_iter()
        .chain(run_rank)
        .min();
    let last = listed
        .last()
        .map(|entry| entry.rank)
        .into_iter()
        .chain(run_rank)
        .max();
    match (first, last) {
        (Some(first), Some(last)) => set.cut_ranks[attribute][first as usize] > last,
        _ => true,
    }
}

/// The class counts at or below a cut, kept by the scans of instances of weight 1.
trait LeftCounts {
    /// Adds `count` instances of `class`.
    fn add(&mut self, class: usize, count: usize);

    /// `sum of x ln x` of the cut after `left_count` of the `count` instances, whose class
    /// counts are `totals` (as `CutSearch::consider` takes it).
    fn sum_of_x_log_x(
        &self,
        left_count: usize,
        count: usize,
        totals: &[usize],
        x_log_x: &XLogX,
    ) -> f64;
}

/// Two classes (0 and 1): the count of the second gives both.
struct SecondClassCount(usize);

impl LeftCounts for SecondClassCount {
    #[inline(always)]
    fn add(&mut self, class: usize, count: usize) {
        self.0 += class * count;
    }

    #[inline(always)]
    fn sum_of_x_log_x(
        &self,
        left_count: usize,
        count: usize,
        totals: &[usize],
        x_log_x: &XLogX,
    ) -> f64 {
        let second = self.0;
        split_x_log_x(
            &[left_count - second, second],
            left_count,
            count,
            totals,
            x_log_x,
        )
    }
}

/// Any number of classes: one count per class.
struct ClassCounts<'a>(&'a mut [usize]);

impl LeftCounts for ClassCounts<'_> {
    #[inline(always)]
    fn add(&mut self, class: usize, count: usize) {
        self.0[class] += count;
    }

    #[inline(always)]
    fn sum_of_x_log_x(
        &self,
        left_count: usize,
        count: usize,
        totals: &[usize],
        x_log_x: &XLogX,
    ) -> f64 {
        split_x_log_x(self.0, left_count, count, totals, x_log_x)
    }
}

/// The sum of `n ln n` over both sides' class counts minus each side's `N ln N`, for a cut
/// with class counts `left` (`left_count` rows) out of `count` rows with class `totals`.
#[inline(always)]
fn split_x_log_x(
    left: &[usize],
    left_count: usize,
    count: usize,
    totals: &[usize],
    x_log_x: &XLogX,
) -> f64 {
    let mut value = 0.0;
    for &n in left {
        value += x_log_x.whole(n);
    }
    value -= x_log_x.whole(left_count);
    for (&total, &n) in totals.iter().zip(left) {
        value += x_log_x.whole(total - n);
    }
    value -= x_log_x.whole(count - left_count);
    value
}

/// The class of a training row, as the scans read it.
pub(crate) trait RowClasses {
    /// The class of row `row`.
    fn class(&self, row: u32) -> usize;
}

impl RowClasses for [u32] {
    #[inline(always)]
    fn class(&self, row: u32) -> usize {
        self[row as usize] as usize
    }
}

/// The classes of a two-class training set, a bit per row: 1/32 of the memory of the class
/// indices, so that a scan's lookups of rows in random order stay in the processor's cache.
pub(crate) struct ClassBits(Vec<u64>);

impl ClassBits {
    /// The bits of `classes` (each 0 or 1).
    pub(crate) fn of(classes: &[u32]) -> Self {
        let mut bits = vec![0u64; classes.len().div_ceil(64)];
        for (row, &class) in classes.iter().enumerate() {
            bits[row / 64] |= u64::from(class & 1) << (row % 64);
        }
        ClassBits(bits)
    }
}

impl RowClasses for ClassBits {
    #[inline(always)]
    fn class(&self, row: u32) -> usize {
        ((self.0[row as usize / 64] >> (row % 64)) & 1) as usize
    }
}

/// What the scan of a numeric attribute's sorted values at a node whose instances all weigh 1
/// keeps fixed.
struct WholeCountScan<'a, C: RowClasses + ?Sized> {
    /// The number of sorted values, and their class counts.
    count: usize,
    totals: &'a [usize],
    /// The positions after which a cut is admissible.
    positions: Range<usize>,
    classes: &'a C,
    cut_ranks: &'a [u32],
    x_log_x: &'a XLogX,
}

impl<C: RowClasses + ?Sized> WholeCountScan<'_, C> {
    /// Gives `search` every admissible cut of the `listed` entries with the `run` they leave
    /// out (and its class counts) put back in place, in sorted order, keeping the class counts
    /// at or below the cut in `left`.
    fn scan(
        &self,
        mut left: impl LeftCounts,
        listed: &[SortedEntry],
        run: Option<(ImplicitRun, &[usize])>,
        search: &mut CutSearch,
    ) {
        if self.positions.is_empty() {
            return;
        }
        let (below, above) = listed.split_at(run.map_or(listed.len(), |(run, _)| run.position));
        let after_below = run
            .map(|(run, _)| run.rank)
            .or(above.first().map(|entry| entry.rank));
        left = self.scan_entries(left, below, 0, after_below, search);
        let mut start = below.len();
        if let Some((run, run_counts)) = run {
            for (class, &count) in run_counts.iter().enumerate() {
                left.add(class, count);
            }
            start += run.length;
            let index = start - 1;
            if let Some(first) = above.first() {
                if self.positions.contains(&index)
                    && first.rank >= self.cut_ranks[run.rank as usize]
                {
                    let cut = Cut {
                        index,
                        below: run.rank,
                        above: first.rank,
                    };
                    self.consider(&left, cut, search);
                }
            }
        }
        self.scan_entries(left, above, start, None, search);
    }

    /// Scans `entries`, the sorted values from position `start` on, followed by a value of
    /// rank `next_rank` (if any); returns the class counts after them.
    fn scan_entries<L: LeftCounts>(
        &self,
        mut left: L,
        entries: &[SortedEntry],
        start: usize,
        next_rank: Option<u32>,
        search: &mut CutSearch,
    ) -> L {
        let positions = self.positions.clone();
        // No cut after the last admissible position is considered: the scan stops there.
        let end = positions.end.saturating_sub(start).min(entries.len());
        for (offset, pair) in entries[..(end + 1).min(entries.len())]
            .windows(2)
            .enumerate()
        {
            left.add(self.classes.class(pair[0].row), 1);
            let index = start + offset;
            if index >= positions.start && pair[1].rank >= self.cut_ranks[pair[0].rank as usize] {
                let cut = Cut {
                    index,
                    below: pair[0].rank,
                    above: pair[1].rank,
                };
                self.consider(&left, cut, search);
            }
        }
        if end == entries.len() && end > 0 {
            // The last entry, followed by the next value.
            let entry = entries[end - 1];
            left.add(self.classes.class(entry.row), 1);
            let index = start + end - 1;
            if let Some(next_rank) = next_rank {
                if index >= positions.start && next_rank >= self.cut_ranks[entry.rank as usize] {
                    let cut = Cut {
                        index,
                        below: entry.rank,
                        above: next_rank,
                    };
                    self.consider(&left, cut, search);
                }
            }
        }
        left
    }

    /// Considers an admissible cut, with the class counts `left` at or below it.
    #[inline(always)]
    fn consider(&self, left: &impl LeftCounts, cut: Cut, search: &mut CutSearch) {
        let value = left.sum_of_x_log_x(cut.index + 1, self.count, self.totals, self.x_log_x);
        search.consider(cut, value);
    }
}

/// The best binary split of a numeric attribute, scanning its known values in sorted order and
/// evaluating `Distribution::info_gain_with` for every cut, written out on plain arrays (same
/// operations in the same order, so the same values) because it is where C4.5 spends most of
/// its time. `listed` is the node's sorted list of the attribute.
fn numeric_candidate(
    set: &TrainingSet,
    attribute: usize,
    listed: &[SortedEntry],
    node: &NodeSummary,
    options: &Options,
    scratch: &mut ScanScratch,
) -> Option<Candidate> {
    let run = implicit_run(set, attribute, listed, node.instance_count);
    if without_cuts(set, attribute, listed, run) {
        return None;
    }
    let count = value_count(listed, run);
    let x_log_x = &options.x_log_x;
    let known_weight = scratch.known_class_weights(set, listed, count, node);
    let min_split = min_split_weight(known_weight, set.num_classes, options.min_leaf);
    if (count as f64) - 2.0 * min_split < -SMALL {
        return None;
    }
    let mut search = CutSearch::new(
        min_split,
        &scratch.right,
        known_weight,
        node.total_weight,
        x_log_x,
    );
    if node.unit_class_counts.is_some() {
        scratch.scan_whole_counts(set, attribute, listed, run, x_log_x, &mut search);
    } else {
        debug_assert!(run.is_none(), "lists leave values out only on whole counts");
        let scan = WeightedScan {
            listed,
            weight_of_row: node.weight_of_row,
            classes: &set.classes,
            cut_ranks: &set.cut_ranks[attribute],
            x_log_x,
        };
        scan.scan(
            &mut scratch.left,
            &mut scratch.right,
            known_weight,
            &mut search,
        );
    }
    search.candidate(attribute, listed, count, node, options)
}

/// The number of known values of an attribute at a node: the `listed` ones and the `run` the
/// list leaves out.
fn value_count(listed: &[SortedEntry], run: Option<ImplicitRun>) -> usize {
    listed.len() + run.map_or(0, |run| run.length)
}

/// C4.5's minimum weight on each side of a cut: a tenth of the known weight per class, kept
/// between `min_leaf` and 25.
fn min_split_weight(known_weight: f64, num_classes: usize, min_leaf: f64) -> f64 {
    let mut min_split = 0.1 * known_weight / num_classes as f64;
    if min_split - min_leaf < SMALL {
        min_split = min_leaf;
    } else if min_split - 25.0 > SMALL {
        min_split = 25.0;
    }
    min_split
}

impl ScanScratch {
    /// Fills `right` with the class weights of the `count` known values of an attribute at
    /// `node` (`listed` and the run it leaves out) and returns their total. When every weight
    /// is 1 they are whole counts, also kept in `totals`: the node's own when no value is
    /// missing, and their sums of ones are exact. (Lists leave runs out only then.)
    fn known_class_weights(
        &mut self,
        set: &TrainingSet,
        listed: &[SortedEntry],
        count: usize,
        node: &NodeSummary,
    ) -> f64 {
        let num_classes = set.num_classes;
        let classes = &set.classes;
        let class_of = |entry: &SortedEntry| classes[entry.row as usize] as usize;
        let ScanScratch { totals, right, .. } = self;
        right.clear();
        right.resize(num_classes, 0.0);
        if let Some(node_counts) = node.unit_class_counts {
            totals.clear();
            if count == node.instance_count {
                totals.extend_from_slice(node_counts);
            } else {
                totals.resize(num_classes, 0);
                for entry in listed {
                    totals[class_of(entry)] += 1;
                }
            }
            for (weight, &n) in right.iter_mut().zip(totals.iter()) {
                *weight = n as f64;
            }
            count as f64
        } else {
            let mut right_weight = 0.0;
            for (entry, weight) in listed.iter().zip(entry_weights(listed, node.weight_of_row)) {
                right[class_of(entry)] += weight;
                right_weight += weight;
            }
            right_weight
        }
    }

    /// Gives `search` every admissible cut of the sorted values of `attribute` at a node whose
    /// instances all weigh 1 (`listed` and the `run` it leaves out): the scan on the whole
    /// counts of `known_class_weights`, whose `x ln x` are looked up directly.
    fn scan_whole_counts(
        &mut self,
        set: &TrainingSet,
        attribute: usize,
        listed: &[SortedEntry],
        run: Option<ImplicitRun>,
        x_log_x: &XLogX,
        search: &mut CutSearch,
    ) {
        let count = value_count(listed, run);
        let ScanScratch {
            totals,
            left_counts,
            run_counts,
            ..
        } = self;
        let run = run.map(|run| (run, run_class_counts(set, listed, totals, run_counts)));
        let positions = search.admissible_positions(count);
        let cut_ranks = &set.cut_ranks[attribute];
        match &set.class_bits {
            // Two classes: the count of the second gives both counts (classes are 0 and 1).
            Some(bits) => WholeCountScan {
                count,
                totals,
                positions,
                classes: bits,
                cut_ranks,
                x_log_x,
            }
            .scan(SecondClassCount(0), listed, run, search),
            None => {
                left_counts.clear();
                left_counts.resize(set.num_classes, 0);
                WholeCountScan {
                    count,
                    totals,
                    positions,
                    classes: set.classes.as_slice(),
                    cut_ranks,
                    x_log_x,
                }
                .scan(ClassCounts(left_counts), listed, run, search);
            }
        }
    }
}

/// The class counts of the run of instances a list leaves out, written to `run_counts`: those
/// of all the known values (`totals`) but the `listed` ones.
fn run_class_counts<'a>(
    set: &TrainingSet,
    listed: &[SortedEntry],
    totals: &[usize],
    run_counts: &'a mut Vec<usize>,
) -> &'a [usize] {
    let classes = &set.classes;
    let class_of = |entry: &SortedEntry| classes[entry.row as usize] as usize;
    run_counts.clear();
    run_counts.extend_from_slice(totals);
    if set.num_classes == 2 {
        let second: usize = listed.iter().map(class_of).sum();
        run_counts[0] -= listed.len() - second;
        run_counts[1] -= second;
    } else {
        for entry in listed {
            run_counts[class_of(entry)] -= 1;
        }
    }
    run_counts
}

/// What the scan of a numeric attribute's sorted values at a node with fractional weights
/// keeps fixed.
struct WeightedScan<'a> {
    /// The node's sorted list of the attribute (it leaves no run out).
    listed: &'a [SortedEntry],
    weight_of_row: &'a [f64],
    classes: &'a [u32],
    cut_ranks: &'a [u32],
    x_log_x: &'a XLogX,
}

impl WeightedScan<'_> {
    /// Gives `search` every admissible cut, moving the entries up to each cut from `right`
    /// (on entry the class weights of all the entries, `known_weight` in all) to `left`.
    fn scan(
        &self,
        left: &mut Vec<f64>,
        right: &mut [f64],
        known_weight: f64,
        search: &mut CutSearch,
    ) {
        let listed = self.listed;
        left.clear();
        left.resize(right.len(), 0.0);
        let mut left_weight = 0.0;
        let mut right_weight = known_weight;
        let mut last = 0;
        for (index, pair) in listed.windows(2).enumerate() {
            if pair[1].rank >= self.cut_ranks[pair[0].rank as usize] {
                let next = index + 1;
                for (entry, weight) in listed[last..next]
                    .iter()
                    .zip(entry_weights(&listed[last..next], self.weight_of_row))
                {
                    let class = self.classes[entry.row as usize] as usize;
                    right[class] -= weight;
                    right_weight -= weight;
                    left[class] += weight;
                    left_weight += weight;
                }
                if search.admissible(left_weight, right_weight) {
                    let cut = Cut {
                        index,
                        below: pair[0].rank,
                        above: pair[1].rank,
                    };
                    let value = self.split_x_log_x(left, left_weight, right, right_weight);
                    search.consider(cut, value);
                }
                last = next;
            }
        }
    }

    /// The sum of `w ln w` over both sides' class weights minus each side's total's, for a cut
    /// with class weights `left` (`left_weight` in all) and `right` (`right_weight`).
    #[inline]
    fn split_x_log_x(
        &self,
        left: &[f64],
        left_weight: f64,
        right: &[f64],
        right_weight: f64,
    ) -> f64 {
        let x_log_x = self.x_log_x;
        let mut value = 0.0;
        for &weight in left.iter() {
            value += x_log_x.get(weight);
        }
        value -= x_log_x.get(left_weight);
        for &weight in right.iter() {
            value += x_log_x.get(weight);
        }
        value -= x_log_x.get(right_weight);
        value
    }
}

/// A training instance in a list sorted by one numeric attribute's value: the rank of its value
/// among the attribute's distinct known values (`TrainingSet::sorted_distinct`), and its row.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SortedEntry {
    rank: u32,
    row: u32,
}

/// Sorts the known values of each numeric attribute once: fills the training set's
/// `sorted_distinct` and `cut_ranks`, and returns for each numeric attribute the instances
/// with a known value sorted by it (empty for nominal attributes), the lists at the root.
pub(crate) fn sort_values(
    set: &mut TrainingSet,
    instances: &[Instance],
    shared: Option<(&SortedColumns, &Positions)>,
) -> Vec<Vec<SortedEntry>> {
    let mut lists = Vec::with_capacity(set.nominal_sizes.len());
    set.sorted_distinct.clear();
    set.cut_ranks.clear();
    set.implicit_ranks.clear();
    for (attribute, size) in set.nominal_sizes.iter().enumerate() {
        let mut values = Vec::new();
        let mut entries = Vec::new();
        if size.is_none() {
            let column = &set.columns[attribute];
            // On whole counts, where equal values may come in any order, the dataset's shared
            // order filtered to the training rows (every instance is a training position).
            let presorted = shared
                .filter(|_| set.whole_counts && instances.len() == column.len())
                .and_then(|(sorted, positions)| sorted.known(attribute, positions, column));
            let known = match presorted {
                Some(known) => known,
                None => sort_known(column, instances, set.whole_counts),
            };
            entries.reserve_exact(known.len());
            for (key, row) in known {
                let value = total_order::value(key);
                if values.last() != Some(&value) {
                    values.push(value);
                }
                entries.push(SortedEntry {
                    rank: (values.len() - 1) as u32,
                    row,
                });
            }
        }
        // For each distinct value, the rank of the first one more than 1e-5 above it.
        let mut cut_ranks = Vec::with_capacity(values.len());
        let mut above = 0;
        for &value in &values {
            while above < values.len() && value + 1e-5 >= values[above] {
                above += 1;
            }
            cut_ranks.push(above as u32);
        }
        // A value held by more than half of the entries is the middle one's.
        let mut implicit_rank = None;
        if set.whole_counts && !entries.is_empty() {
            let middle = entries[entries.len() / 2].rank;
            let first = entries.partition_point(|entry| entry.rank < middle);
            let end = entries.partition_point(|entry| entry.rank <= middle);
            if 2 * (end - first) > entries.len() {
                implicit_rank = Some(middle);
                entries.drain(first..end);
            }
        }
        set.sorted_distinct.push(values);
        set.cut_ranks.push(cut_ranks);
        set.implicit_ranks.push(implicit_rank);
        lists.push(entries);
    }
    lists
}

/// The known values of `column` at `instances` as keys that order as `f64::total_cmp`
/// orders the values, with their rows, sorted.
fn sort_known(column: &ColumnOf, instances: &[Instance], whole_counts: bool) -> Vec<(u64, u32)> {
    let mut known: Vec<(u64, u32)> = instances
        .iter()
        .map(|instance| (column.get(instance.row as usize), instance.row))
        .filter(|(value, _)| !value.is_nan())
        .map(|(value, row)| (total_order::key(value), row))
        .collect();
    if whole_counts && known.len() >= RADIX_SORT_FROM {
        // Equal values may come in any order on whole counts.
        radix_sort(&mut known);
    } else {
        // Equal values keep the order this sort gives them: fractional weights are summed in
        // it. (Keys compare as the values do under `total_cmp`, so the sort makes the moves
        // it made on the values.)
        known.sort_unstable_by_key(|pair| pair.0);
    }
    known
}

/// The number of values from which `radix_sort` beats a comparison sort.
const RADIX_SORT_FROM: usize = 4096;

/// Sorts `(key, row)` pairs by key, equal keys in the order they come: a radix sort on 11-bit
/// digits from the lowest, skipping the digits that are the same in every key.
fn radix_sort(pairs: &mut Vec<(u64, u32)>) {
    const BITS: u32 = 11;
    const MASK: u64 = (1 << BITS) - 1;
    let first = pairs.first().map_or(0, |pair| pair.0);
    let differing = pairs.iter().fold(0, |bits, pair| bits | (pair.0 ^ first));
    let mut other = vec![(0, 0); pairs.len()];
    for shift in (0..64).step_by(BITS as usize) {
        if (differing >> shift) & MASK == 0 {
            continue;
        }
        let digit = |key: u64| ((key >> shift) & MASK) as usize;
        let mut next = vec![0usize; 1 << BITS];
        for pair in pairs.iter() {
            next[digit(pair.0)] += 1;
        }
        let mut start = 0;
        for slot in &mut next {
            let count = *slot;
            *slot = start;
            start += count;
        }
        for &pair in pairs.iter() {
            let place = &mut next[digit(pair.0)];
            other[*place] = pair;
            *place += 1;
        }
        std::mem::swap(pairs, &mut other);
    }
}

/// The instances reaching a node, and where its sorted lists are: a range of each attribute's
/// list.
struct NodeData {
    instances: Vec<Instance>,
    ranges: Vec<Range<usize>>,
}

/// Marks a row whose split value is unknown in the branch table.
const UNKNOWN_BRANCH: u32 = u32::MAX;

/// Grows a tree: the training set and options, and the sorted lists and scratch space that all
/// nodes share.
struct Grower<'a> {
    set: &'a TrainingSet<'a>,
    options: &'a Options,
    /// Keep each node's instances (for subtree raising).
    keep_data: bool,
    /// The sorted lists, one per attribute. A node's entries are a range of each list;
    /// splitting the node writes its branches' entries over them (by way of `split_scratch`),
    /// within the same ranges, or, when instances of unknown value go down several branches,
    /// on top of the lists until the branches are grown. A node's entries are not needed once
    /// it is split. (One set of lists rather than two written in turn: at a million rows the
    /// second set was 8 bytes per row and attribute.)
    lists: Vec<Vec<SortedEntry>>,
    /// A copy of the node's range of one list while the split writes over it.
    split_scratch: Vec<SortedEntry>,
    /// The branch of each row at the node being split.
    branch_of_row: Vec<u32>,
    /// The weight of each row at the node whose split is searched.
    weight_of_row: Vec<f64>,
    /// Work space of the split search.
    scan_scratch: ScanScratch,
}

/// Grows a tree on `instances` with the root's sorted lists `lists` (keeping each node's
/// instances when `keep_data`).
pub(crate) fn grow(
    set: &TrainingSet,
    instances: Vec<Instance>,
    lists: Vec<Vec<SortedEntry>>,
    options: &Options,
    keep_data: bool,
) -> Node {
    let rows = set.classes.len();
    let ranges = lists.iter().map(|list| 0..list.len()).collect();
    let mut grower = Grower {
        set,
        options,
        keep_data,
        lists,
        split_scratch: Vec::new(),
        branch_of_row: vec![0; rows],
        weight_of_row: Vec::new(),
        scan_scratch: ScanScratch::default(),
    };
    grower.grow(NodeData { instances, ranges })
}

/// The test chosen at a node, and for a numeric test how many of its attribute's distinct
/// values are at or below the threshold (the rank from which an entry goes down branch 1).
struct Chosen {
    test: SplitTest,
    values_at_or_below: usize,
}

/// The numeric test of the cut of `attribute` between its distinct values of ranks `below` and
/// `above`: its threshold is the largest training value at or below their midpoint. C4.5
/// scans the training set in order with tolerances, which is order dependent only when two
/// values within 2e-6 of each other are both candidates: then scan, else take the largest
/// candidate.
fn cut_test(set: &TrainingSet, attribute: usize, below: usize, above: usize) -> Chosen {
    let values = &set.sorted_distinct[attribute];
    let mut midpoint = (values[below] + values[above]) / 2.0;
    if midpoint == values[above] {
        midpoint = values[below];
    }
    let is_candidate = |value: f64| value - midpoint < SMALL;
    // The candidates are the values up to a rank: every value up to `below` is one when that
    // one is, so the search starts after it (the next few ranks, at most up to `above`).
    let candidates = if is_candidate(values[below]) {
        below
            + 1
            + values[below + 1..]
                .iter()
                .take_while(|&&value| is_candidate(value))
                .count()
    } else {
        values.partition_point(|&value| is_candidate(value))
    };
    let near_tie =
        candidates >= 2 && values[candidates - 1] - values[candidates - 2] <= 2.0 * SMALL;
    let (threshold, values_at_or_below) = if candidates > 0 && !near_tie {
        (values[candidates - 1], candidates)
    } else {
        let mut threshold = -f64::MAX;
        for value in set.columns[attribute].iter() {
            if !value.is_nan() && value - threshold > SMALL && is_candidate(value) {
                threshold = value;
            }
        }
        (
            threshold,
            values.partition_point(|&value| value <= threshold),
        )
    };
    Chosen {
        test: SplitTest::Numeric {
            attribute,
            threshold,
        },
        values_at_or_below,
    }
}

impl Grower<'_> {
    fn grow(&mut self, data: NodeData) -> Node {
        let set = self.set;
        let Some(Chosen {
            test,
            values_at_or_below,
        }) = self.choose_test(&data)
        else {
            let distribution = distribution_of(set, &data.instances);
            let is_empty = distribution.total().abs() < SMALL;
            return Node {
                test: None,
                distribution,
                children: Vec::new(),
                is_empty,
                train: if self.keep_data {
                    Kept::of(data.instances)
                } else {
                    Kept::default()
                },
            };
        };
        let branches = match test {
            SplitTest::Numeric { attribute, .. } => {
                self.numeric_branches(attribute, values_at_or_below, &data)
            }
            SplitTest::Nominal { .. } => value_branches(set, &test, &data.instances),
        };
        let Split {
            branches,
            distribution,
            subsets,
        } = divide(set, test.num_branches(), &data.instances, branches);
        let tops: Vec<usize> = self.lists.iter().map(Vec::len).collect();
        let ranges = self.split_lists(&distribution, &branches, &subsets, &data);
        // Neither the node's instances nor their branches are needed while its children grow
        // (unless kept): at a million rows, holding them at every node down the path was tens
        // of megabytes.
        drop(branches);
        let train = if self.keep_data {
            Kept::of(data.instances)
        } else {
            drop(data);
            Kept::default()
        };
        let children = subsets
            .into_iter()
            .zip(ranges)
            .map(|(instances, ranges)| self.grow(NodeData { instances, ranges }))
            .collect();
        for (list, &top) in self.lists.iter_mut().zip(&tops) {
            list.truncate(top);
        }
        Node {
            test: Some(test),
            distribution,
            children,
            is_empty: false,
            train,
        }
    }

    /// The branch of each of the node's instances under a numeric test of `attribute` with
    /// `below` of its distinct values at or below the threshold, read from the attribute's
    /// sorted list at the node rather than from the values, which at a million rows were a
    /// cache miss each: an entry's value is at or below the threshold exactly when its rank is
    /// below `below`. The instances a list leaves out hold its implicit value (on whole counts)
    /// or an unknown one. (The test's attribute has cuts at the node, so its list there is
    /// whole.)
    fn numeric_branches(&mut self, attribute: usize, below: usize, node: &NodeData) -> Vec<u32> {
        let set = self.set;
        let unlisted = set.implicit_ranks[attribute]
            .map_or(UNKNOWN_BRANCH, |rank| u32::from(rank as usize >= below));
        let branch_of_row = &mut self.branch_of_row;
        for instance in &node.instances {
            branch_of_row[instance.row as usize] = unlisted;
        }
        for entry in &self.lists[attribute][node.ranges[attribute].clone()] {
            branch_of_row[entry.row as usize] = u32::from(entry.rank as usize >= below);
        }
        node.instances
            .iter()
            .map(|instance| branch_of_row[instance.row as usize])
            .collect()
    }

    /// C4.5's choice of test: the highest gain ratio among the tests with at least average
    /// information gain, or `None` for a leaf.
    fn choose_test(&mut self, node: &NodeData) -> Option<Chosen> {
        let set = self.set;
        let options = self.options;
        let data = &node.instances;
        let node_distribution = distribution_of(set, data);
        let total_weight = node_distribution.total();
        if total_weight - 2.0 * options.min_leaf < -SMALL
            || (total_weight - node_distribution.class_weight(node_distribution.majority_class()))
                .abs()
                < SMALL
        {
            return None;
        }
        // When every weight is 1 the class weights are whole counts (sums of ones, so exact).
        let unit_weights = data.iter().all(|instance| instance.weight == 1.0);
        let unit_class_counts: Option<Vec<usize>> = unit_weights.then(|| {
            (0..set.num_classes)
                .map(|class| node_distribution.class_weight(class) as usize)
                .collect()
        });
        if !unit_weights {
            // Sized on first use: a training set of whole counts never needs it.
            self.weight_of_row.resize(set.classes.len(), 0.0);
            for instance in data {
                self.weight_of_row[instance.row as usize] = instance.weight;
            }
        }
        let summary = NodeSummary {
            instance_count: data.len(),
            total_weight,
            unit_class_counts: unit_class_counts.as_deref(),
            weight_of_row: &self.weight_of_row,
        };
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
                    &self.lists[attribute][node.ranges[attribute].clone()],
                    &summary,
                    options,
                    &mut self.scan_scratch,
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
            if candidate.info_gain >= average_gain - 1e-3
                && candidate.gain_ratio - best_ratio > SMALL
            {
                best = Some(candidate);
                best_ratio = candidate.gain_ratio;
            }
        }
        if best_ratio.abs() < SMALL {
            return None;
        }
        Some(match best?.proposal {
            Proposal::Nominal(ref test) => Chosen {
                test: test.clone(),
                values_at_or_below: 0,
            },
            Proposal::Cut {
                attribute,
                below,
                above,
            } => cut_test(set, attribute, below as usize, above as usize),
        })
    }

    /// Writes the node's sorted lists, divided among the branches of its test, over the node's
    /// ranges of the lists (or on top of them), keeping their order. The test's class weights per branch are
    /// `distribution`; it sends the node's instances down `branches`, giving `subsets`; an
    /// entry of unknown value goes down every branch with a share above `SMALL`, as `split`
    /// sends its instance. Returns each branch's range of each list.
    fn split_lists(
        &mut self,
        distribution: &Distribution,
        branches: &[u32],
        subsets: &[Vec<Instance>],
        node: &NodeData,
    ) -> Vec<Vec<Range<usize>>> {
        let mut any_unknown = false;
        for (instance, &branch) in node.instances.iter().zip(branches) {
            self.branch_of_row[instance.row as usize] = branch;
            any_unknown |= branch == UNKNOWN_BRANCH;
        }
        let branch_of_row = &self.branch_of_row;
        let set = self.set;
        let num_branches = subsets.len();
        let fractions = distribution.bag_fractions();
        let scratch = &mut self.split_scratch;
        let mut ranges = vec![Vec::with_capacity(node.ranges.len()); num_branches];
        for (attribute, (target, range)) in self.lists.iter_mut().zip(&node.ranges).enumerate() {
            let listed = &target[range.clone()];
            let run = implicit_run(set, attribute, listed, node.instances.len());
            if without_cuts(set, attribute, listed, run) {
                // Not needed below.
                for branch_ranges in &mut ranges {
                    branch_ranges.push(range.start..range.start);
                }
                continue;
            }
            scratch.clear();
            scratch.extend_from_slice(listed);
            let source = &scratch[..];
            if num_branches == 2 && !any_unknown {
                // The first branch gets as many entries as it gets instances when the list
                // holds every instance of the node, else they are counted.
                let first_count = if source.len() == node.instances.len() {
                    subsets[0].len()
                } else {
                    source
                        .iter()
                        .filter(|entry| branch_of_row[entry.row as usize] == 0)
                        .count()
                };
                let middle = range.start + first_count;
                split_list_in_two(
                    &mut target[range.clone()],
                    source,
                    branch_of_row,
                    first_count,
                );
                ranges[0].push(range.start..middle);
                ranges[1].push(middle..range.end);
            } else {
                split_list_among(
                    target,
                    range,
                    source,
                    branch_of_row,
                    &fractions,
                    &mut ranges,
                );
            }
        }
        ranges
    }
}

/// Writes `source`, a node's range of a sorted list whose every entry goes down one of two
/// branches, over `target` (that range): the `first_count` entries of the first branch, then
/// those of the second, each in sorted order. Each entry is written to the next place of its
/// branch, chosen without an unpredictable jump.
fn split_list_in_two(
    target: &mut [SortedEntry],
    source: &[SortedEntry],
    branch_of_row: &[u32],
    first_count: usize,
) {
    let (mut first, mut second) = (0, first_count);
    for entry in source {
        let branch = branch_of_row[entry.row as usize] as usize;
        target[if branch == 0 { first } else { second }] = *entry;
        // Branch is 0 or 1, and neither place passes the range's length.
        first = first.wrapping_add(branch ^ 1);
        second = second.wrapping_add(branch);
    }
}

/// Writes `source`, the node's `range` of the sorted list `target`, divided among the
/// branches, and pushes each branch's range of the list onto its `ranges`. An entry of unknown
/// value goes down every branch whose share in `fractions` is above `SMALL`. The number of
/// entries going down each branch is counted first, then the entries are written, each to the
/// next place of each branch it goes down: within the node's range when they fit (no entry
/// goes down two branches), else on top of the list.
fn split_list_among(
    target: &mut Vec<SortedEntry>,
    range: &Range<usize>,
    source: &[SortedEntry],
    branch_of_row: &[u32],
    fractions: &[f64],
    ranges: &mut [Vec<Range<usize>>],
) {
    let num_branches = ranges.len();
    let mut next = vec![0usize; num_branches];
    for entry in source {
        match branch_of_row[entry.row as usize] {
            UNKNOWN_BRANCH => {
                for (count, &fraction) in next.iter_mut().zip(fractions) {
                    if fraction > SMALL {
                        *count += 1;
                    }
                }
            }
            branch => next[branch as usize] += 1,
        }
    }
    let total: usize = next.iter().sum();
    let mut start = range.start;
    if total > range.len() {
        start = target.len();
        target.resize(start + total, SortedEntry::default());
    }
    for (branch_ranges, place) in ranges.iter_mut().zip(&mut next) {
        let count = *place;
        *place = start;
        branch_ranges.push(start..start + count);
        start += count;
    }
    for entry in source {
        match branch_of_row[entry.row as usize] {
            UNKNOWN_BRANCH => {
                for (place, &fraction) in next.iter_mut().zip(fractions) {
                    if fraction > SMALL {
                        target[*place] = *entry;
                        *place += 1;
                    }
                }
            }
            branch => {
                let place = &mut next[branch as usize];
                target[*place] = *entry;
                *place += 1;
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

    /// Makes the node a leaf with the class weights of all its branches.
    pub(crate) fn make_leaf(&mut self) {
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
        self.train = Kept::default();
        for child in &mut self.children {
            child.drop_training_data();
        }
    }
}
