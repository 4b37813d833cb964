//! Nearest-neighbour search over scaled training rows, chosen by the data: a k-d tree for
//! all-numeric complete data of low dimension; for data whose binary and nominal attributes are
//! at least as many as the continuous ones, whole-number lower bounds of every row's distance
//! (the differing binary values and nominal codes, counted for all rows at once, `levels.rs`),
//! then exact distances in increasing order of the bounds (for all-nominal data the bounds are
//! the distances); otherwise a linear scan, which reads cache-line blocks of attributes with
//! early abandonment for all-numeric complete data, the same blocks plus bit sets of the binary
//! attributes as a lower bound (with the exact distance re-computed for the rows that pass) for
//! complete data with nominal or many binary attributes, and the rows themselves when training
//! values are missing. For complete training data with many attributes that are numeric and not
//! binary (where the block scans rarely abandon a row early) a blocked matrix-product screen
//! (`screen.rs`) picks the candidates, whose exact distances are then computed as the scans
//! compute them. All return exactly the same neighbours with the same distances: the k
//! nearest plus every row tied with the k-th distance (as Weka 3.6 IBk), ordered by squared
//! distance, ties by training position (tests/knn_search.rs checks each against brute force).

use std::ops::Range;
use std::sync::OnceLock;

use super::distance::{
    block_squared_sum, column_block_squared_sums, numeric_squared_distance_within, padded_block,
    Scaling, BLOCK,
};
use super::levels::{first_level, positions_between, push_bits, LevelQuery, Levels};
use super::screen::{BlockedScreen, Candidates, QUERY_GROUP};

/// How neighbours are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMethod {
    /// A k-d tree when every attribute is numeric, the training data has no missing values and
    /// there are at most [`KD_TREE_MAX_DIMENSIONS`] attributes; the blocked screen for complete
    /// training data of at least 256 rows with at least 48 numeric non-binary attributes; a
    /// linear scan otherwise.
    Auto,
    /// Always a plain linear scan in training order.
    Linear,
    /// A k-d tree whenever the data allows it (all numeric, no missing training values).
    KdTree,
    /// The blocked screen (see [`BlockedScreen`]) whenever the training data is complete.
    Blocked,
}

impl SearchMethod {
    /// The config word for this method.
    pub fn as_str(self) -> &'static str {
        match self {
            SearchMethod::Auto => "auto",
            SearchMethod::Linear => "linear",
            SearchMethod::KdTree => "kd_tree",
            SearchMethod::Blocked => "blocked",
        }
    }

    /// Whether this method builds a k-d tree for all-numeric complete data of `dimensions`
    /// attributes and `count` rows.
    fn builds_tree(self, dimensions: usize, count: usize) -> bool {
        match self {
            SearchMethod::Linear | SearchMethod::Blocked => false,
            SearchMethod::KdTree => true,
            SearchMethod::Auto => dimensions <= KD_TREE_MAX_DIMENSIONS && count >= KD_TREE_MIN_ROWS,
        }
    }
}

/// Highest number of attributes for which `Auto` builds a k-d tree.
pub const KD_TREE_MAX_DIMENSIONS: usize = 16;

/// Fewest training rows for which `Auto` builds a k-d tree (a scan is as fast below this).
const KD_TREE_MIN_ROWS: usize = 256;

/// Fewest attributes that are numeric and not binary for which `Auto` uses the blocked screen:
/// with many such attributes the block scan's partial sums rarely leave the race early.
const SCREEN_MIN_CONTINUOUS: usize = 48;

/// Fewest training rows for which `Auto` uses the blocked screen.
const SCREEN_MIN_ROWS: usize = 256;

/// Query groups the blocked screen takes at a time.
const SCREEN_GROUPS: usize = 4;

/// Most points in a k-d tree leaf.
const LEAF_SIZE: usize = 16;

/// Stored points a linear scan takes at a time: each chunk is checked against the bound of the
/// best list at its start.
const CHUNK: usize = 32;

/// One block of [`BLOCK`] scaled values of a row, zero-padded, aligned to a cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Block([f64; BLOCK]);

/// 1 when a partial distance does not exceed the bound, else 0 (NaN stays in the race, as in
/// [`numeric_squared_distance_within`]).
#[inline(always)]
fn still_in_race(total: f64, bound: f64) -> usize {
    usize::from(total.partial_cmp(&bound) != Some(std::cmp::Ordering::Greater))
}

/// The Euclidean norm of the values of some blocks.
fn later_norm(blocks: &[Block]) -> f64 {
    blocks
        .iter()
        .flat_map(|block| block.0)
        .map(|value| value * value)
        .sum::<f64>()
        .sqrt()
}

/// Cuts a row into zero-padded [`Block`]s (one block of zeros for an empty row), appending
/// them to `out`.
fn push_blocks(row: &[f64], out: &mut Vec<Block>) {
    if row.is_empty() {
        out.push(Block([0.0; BLOCK]));
    }
    out.extend(row.chunks(BLOCK).map(|values| Block(padded_block(values))));
}

/// A complete scaled query row in the forms the block scans read.
struct QueryForScan<'a> {
    /// Its block attributes as blocks.
    blocks: &'a [Block],
    /// Its binary values, then the mask of those that are 0 or 1 (empty without binary
    /// attributes).
    bits: &'a [u64],
    /// The row in storage order, for the exact distance of [`ScanKind::ScreenedBlocks`].
    exact: &'a [f64],
}

/// One neighbour found: its squared distance and its slot in the index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Neighbour {
    /// Squared (unnormalised-by-count) Euclidean distance on scaled values.
    pub squared_distance: f64,
    /// Position of the neighbour among the indexed training rows (also the tie-break key).
    pub slot: u32,
}

/// The `k` nearest neighbours seen so far plus every one tied with the k-th distance (as Weka
/// IBk's neighbour list, which grows past k on ties). Kept ordered by squared distance (ties in
/// arrival order); [`BestList::finish`] puts tied rows in slot order.
struct BestList<'a> {
    capacity: usize,
    items: &'a mut Vec<Neighbour>,
}

impl BestList<'_> {
    /// The squared distance a candidate must not exceed to have a chance to enter (a candidate
    /// exactly at the bound ties with the k-th neighbour and enters).
    #[inline(always)]
    fn bound(&self) -> f64 {
        if self.items.len() < self.capacity {
            f64::INFINITY
        } else {
            self.items[self.capacity - 1].squared_distance
        }
    }

    #[inline(always)]
    fn offer(&mut self, candidate: Neighbour) {
        let distance = candidate.squared_distance;
        if self.items.len() >= self.capacity {
            let kth = self.items[self.capacity - 1].squared_distance;
            if distance > kth {
                return;
            }
            if distance == kth {
                // A tie with the k-th: it joins the tail, nothing leaves.
                self.items.push(candidate);
                return;
            }
        }
        let mut position = self.items.len();
        while position > 0 && distance < self.items[position - 1].squared_distance {
            position -= 1;
        }
        self.items.insert(position, candidate);
        if self.items.len() > self.capacity {
            // The k-th distance may have fallen: drop rows now beyond it.
            let kth = self.items[self.capacity - 1].squared_distance;
            while self
                .items
                .last()
                .is_some_and(|last| last.squared_distance > kth)
            {
                self.items.pop();
            }
        }
    }

    /// Orders the list by (squared distance, slot), so the result does not depend on the order
    /// in which rows were offered.
    fn finish(self) {
        finish(self.items);
    }
}

/// Sorts a neighbour list by (squared distance, slot).
fn finish(items: &mut [Neighbour]) {
    items.sort_unstable_by(|a, b| {
        a.squared_distance
            .total_cmp(&b.squared_distance)
            .then(a.slot.cmp(&b.slot))
    });
}

/// How many of a sorted neighbour list vote for `k`: the first `k` plus every later one at the
/// k-th distance (all of them when the list is shorter than `k`).
pub(crate) fn tied_end(neighbours: &[Neighbour], k: usize) -> usize {
    if k >= neighbours.len() {
        return neighbours.len();
    }
    if k == 0 {
        return 0;
    }
    let kth = neighbours[k - 1].squared_distance;
    k + neighbours[k..]
        .iter()
        .take_while(|n| n.squared_distance <= kth)
        .count()
}

/// A range `start..end` of the k-d tree's points still to build, and the split node (with the
/// side: `true` for right) that points to it.
type PendingRange = (usize, usize, Option<(usize, bool)>);

enum Node {
    Leaf {
        start: u32,
        end: u32,
    },
    Split {
        dimension: u32,
        value: f64,
        left: u32,
        right: u32,
    },
}

/// Scaled training rows, ready for neighbour queries.
pub(crate) struct NeighbourIndex {
    scaling: Scaling,
    dimensions: usize,
    /// Row-major scaled values, in storage order (tree order when there is a tree).
    points: Vec<f64>,
    /// Training slot of each stored point.
    slots: Vec<u32>,
    /// What the linear scan reads (see [`ScanKind`]).
    scan: ScanKind,
    tree: Option<Vec<Node>>,
    /// For all-numeric complete data: the attributes in storage order, by decreasing variance,
    /// so that partial distances grow fast and hopeless rows are abandoned early.
    attribute_order: Option<Vec<usize>>,
    /// For the block scans: the attributes (numbers in the query's order) that make up the
    /// blocks, in block order.
    block_attributes: Vec<usize>,
    /// For the block scans: the first block of every stored point (see [`push_blocks`]),
    /// attribute-major (value `j` of stored point `s` at `j * len + s`), so that the first
    /// block, which rules out most points, is computed for several points per vector
    /// instruction.
    first_columns: Vec<f64>,
    /// For the block scans: the later blocks of the stored points, block-major (block `b >= 1`
    /// of stored point `s` at `(b - 1) * len + s`), each read only for points still in the race.
    later_blocks: Vec<Block>,
    /// For the block scans: the Euclidean norm of the later blocks of every stored point, for
    /// a lower bound on the distance once the first block is known.
    later_norms: Vec<f64>,
    /// The largest of `later_norms`.
    largest_later_norm: f64,
    /// For [`ScanKind::Counts`] and [`ScanKind::Levels`]: the whole-number lower bounds'
    /// tables.
    levels: Option<Levels>,
    /// For [`ScanKind::ScreenedBlocks`]: the binary attributes (numbers in the query's order),
    /// one bit each.
    binary_attributes: Vec<usize>,
    /// For [`ScanKind::ScreenedBlocks`]: the binary values of every stored point,
    /// `binary_words` words a point.
    binary_bits: Vec<u64>,
    /// Words of `binary_bits` per point.
    binary_words: usize,
    /// The blocked screen, which serves complete queries when present (slot order, no tree).
    screen: Option<BlockedScreen>,
    /// No training value is missing.
    complete: bool,
    /// With the screen: the scan's blocks (exact or bit sets) were left unbuilt, since they
    /// serve only complete queries the screen turns away (a value beyond its range).
    exact_blocks_later: bool,
    /// That index with its scan's blocks, built when the first such query comes.
    with_exact_blocks: OnceLock<Box<NeighbourIndex>>,
}

/// Which representation the linear scan reads; every kind gives the distance of
/// [`Scaling::squared_distance_within`] (all numeric: of [`numeric_squared_distance_within`]),
/// to the bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScanKind {
    /// The rows themselves, attribute by attribute (missing training values, or no attribute).
    Rows,
    /// Blocks that sum to the exact distance (all numeric, no missing training value).
    ExactBlocks,
    /// A lower bound of the distance, for complete training data with nominal attributes or
    /// with at least [`MIN_BINARY_ATTRIBUTES`] binary ones (every scaled training value 0 or 1):
    /// blocks of the other numeric attributes plus the number of differing binary values (from
    /// bit sets); the rows still in the race after it get their exact distance from the rows.
    ScreenedBlocks,
    /// One byte code per nominal attribute (all nominal): the distance is the number of
    /// attributes whose codes differ, an exact integer ([`Levels`] with every attribute
    /// nominal).
    Counts,
    /// The whole-number lower bound of [`Levels`] (the binary and nominal attributes' differing
    /// values) for every point first, then the exact distances of the points in increasing
    /// order of their bounds until the bound exceeds the k-th distance (complete training data
    /// whose binary and nominal attributes make up much of the distance).
    Levels,
}

/// Relative slack of the lower-bound race of [`ScanKind::ScreenedBlocks`]: the lower bound
/// adds some of the non-negative squares of the exact distance (binary ones exactly) in another
/// order, so it exceeds the exact distance by at most 3 x (number of attributes) x 2^-53
/// relatively, far below this.
const LOWER_BOUND_SLACK: f64 = 1e-9;

/// Fewest binary attributes for which all-numeric data is screened with bit sets.
const MIN_BINARY_ATTRIBUTES: usize = 8;

/// The training data's attributes, by how the searches can use them.
struct Attributes {
    /// No training value is missing.
    complete: bool,
    /// Every attribute is numeric and no training value is missing.
    numeric_complete: bool,
    /// The nominal attributes, in order.
    nominal: Vec<usize>,
    /// Every attribute is nominal.
    all_nominal: bool,
    /// The numeric attributes whose every scaled training value is 0 or 1 (by decreasing
    /// variance when the data is complete, else in order).
    binary: Vec<usize>,
    /// The other numeric attributes (in the same order).
    continuous: Vec<usize>,
    /// Every attribute, by decreasing variance when the data is complete (see
    /// [`attributes_by_variance`]), else in order.
    variance_order: Vec<usize>,
}

impl Attributes {
    /// Sorts the attributes of `count` scaled training rows (row-major).
    fn of(scaling: &Scaling, rows: &[f64], count: usize) -> Attributes {
        let dimensions = scaling.len();
        let columns = ColumnSummary::of(rows, dimensions);
        let complete = columns.complete;
        let is_binary = &columns.binary;
        let variance_order = if complete && dimensions > 1 && count > 1 {
            attributes_by_variance(rows, dimensions, columns.sums)
        } else {
            (0..dimensions).collect()
        };
        let (binary, continuous) = variance_order
            .iter()
            .copied()
            .filter(|&attribute| !scaling.is_nominal(attribute))
            .partition(|&attribute| is_binary[attribute]);
        let nominal: Vec<usize> = (0..dimensions)
            .filter(|&attribute| scaling.is_nominal(attribute))
            .collect();
        Attributes {
            complete,
            numeric_complete: scaling.all_numeric() && complete,
            all_nominal: nominal.len() == dimensions,
            nominal,
            binary,
            continuous,
            variance_order,
        }
    }

    /// Whether the whole-number bounds of [`Levels`] are worth their pass: when the binary and
    /// nominal attributes are at least as many as the continuous ones.
    fn levels_pay(&self) -> bool {
        let discrete = self.binary.len() + self.nominal.len();
        discrete > 0 && discrete >= self.continuous.len()
    }

    /// The whole-number bounds' tables of `count` scaled rows searched by `method` without a
    /// tree: the distances themselves when every attribute is nominal, else the bounds of the
    /// binary and nominal attributes when they pay (and the method is `Auto`).
    fn levels(
        &self,
        rows: &[f64],
        dimensions: usize,
        count: usize,
        method: SearchMethod,
    ) -> Option<Levels> {
        if self.all_nominal {
            Levels::new(rows, dimensions, count, Vec::new(), self.nominal.clone())
        } else if method == SearchMethod::Auto && self.levels_pay() {
            let binary = self.binary.clone();
            Levels::new(rows, dimensions, count, binary, self.nominal.clone())
        } else {
            None
        }
    }

    /// Whether complete data of `count` rows that the linear scan serves is screened by
    /// [`BlockedScreen`] when searched by `method`: always for `Blocked`, and for `Auto` when
    /// it has many continuous attributes and rows.
    fn screen_pays(&self, method: SearchMethod, count: usize) -> bool {
        match method {
            SearchMethod::Blocked => true,
            SearchMethod::Auto => {
                self.continuous.len() >= SCREEN_MIN_CONTINUOUS && count >= SCREEN_MIN_ROWS
            }
            SearchMethod::Linear | SearchMethod::KdTree => false,
        }
    }

    /// Whether complete data that the linear scan serves is scanned by
    /// [`ScanKind::ScreenedBlocks`]: when not every attribute is nominal, and some are or at
    /// least [`MIN_BINARY_ATTRIBUTES`] are binary.
    fn bits_pay(&self) -> bool {
        !self.all_nominal && (!self.numeric_complete || self.binary.len() >= MIN_BINARY_ATTRIBUTES)
    }
}

/// Scratch space of [`NeighbourIndex::nearest_by_levels`], reused from query to query.
#[derive(Default)]
struct LevelScratch {
    query: LevelQuery,
    bounds: Vec<u16>,
    at_level: Vec<usize>,
    candidates: Vec<u32>,
    exact: Vec<f64>,
}

/// Fills `out` with every point whose distance (a whole number) is at most the last level of
/// `at_level` (the number of points at each distance up to it), in (distance, slot) order.
fn counting_sort_output(
    distances: &[u16],
    at_level: &[usize],
    slots: &[u32],
    out: &mut Vec<Neighbour>,
) {
    let last = at_level.len() - 1;
    let mut next = Vec::with_capacity(at_level.len());
    let mut total = 0;
    for &number in at_level {
        next.push(total);
        total += number;
    }
    out.resize(
        total,
        Neighbour {
            squared_distance: 0.0,
            slot: 0,
        },
    );
    for (&distance, &slot) in distances.iter().zip(slots) {
        let distance = usize::from(distance);
        if distance <= last {
            out[next[distance]] = Neighbour {
                squared_distance: distance as f64,
                slot,
            };
            next[distance] += 1;
        }
    }
}

impl NeighbourIndex {
    /// Indexes `count` scaled rows (row-major; slot = row number).
    pub(crate) fn new(
        scaling: Scaling,
        rows: Vec<f64>,
        count: usize,
        method: SearchMethod,
    ) -> Self {
        let dimensions = scaling.len();
        let attributes = Attributes::of(&scaling, &rows, count);
        let numeric_complete = attributes.numeric_complete;
        let searchable = dimensions > 0 && count > 0;
        let use_tree = searchable && numeric_complete && method.builds_tree(dimensions, count);
        let levels = if !searchable || use_tree {
            None
        } else {
            attributes.levels(&rows, dimensions, count, method)
        };
        // Complete data that neither the tree nor the levels serve: the linear scan's.
        let scanned = searchable && !use_tree && levels.is_none() && attributes.complete;
        let screen = if scanned && attributes.screen_pays(method, count) {
            BlockedScreen::new(&rows, dimensions, count, |attribute| {
                scaling.is_nominal(attribute)
            })
        } else {
            None
        };
        let screened = scanned && attributes.bits_pay();
        let mut index = NeighbourIndex::unbuilt(
            scaling,
            dimensions,
            count,
            levels,
            attributes.all_nominal,
            screen,
        );
        index.complete = attributes.complete;
        if screened && index.screen.is_some() {
            index.exact_blocks_later = true;
        } else if screened {
            index.build_screened_blocks(&rows, attributes.binary, attributes.continuous);
        }
        index.store_points(rows, attributes.variance_order, numeric_complete, count);
        if use_tree {
            index.build_tree(count);
        } else if numeric_complete && searchable && !screened && index.levels.is_none() {
            if index.screen.is_some() {
                index.exact_blocks_later = true;
            } else {
                index.build_exact_blocks(count);
            }
        }
        index
    }

    /// The `count` scaled rows (row-major) stored as [`NeighbourIndex::new`] stores them before
    /// it builds anything (slot order, the attributes in its order), with no search structure:
    /// enough for [`NeighbourIndex::nearest_in_order`], which gives the same neighbours and
    /// distances as on the index built at once; [`NeighbourIndex::built`] builds that index.
    pub(crate) fn points_only(scaling: Scaling, rows: Vec<f64>, count: usize) -> Self {
        let dimensions = scaling.len();
        let attributes = Attributes::of(&scaling, &rows, count);
        let all_nominal = attributes.all_nominal;
        let mut index =
            NeighbourIndex::unbuilt(scaling, dimensions, count, None, all_nominal, None);
        index.complete = attributes.complete;
        let numeric_complete = attributes.numeric_complete;
        index.store_points(rows, attributes.variance_order, numeric_complete, count);
        index
    }

    /// The index [`NeighbourIndex::new`] builds, searched by `method`, from the rows of a
    /// points-only index ([`NeighbourIndex::points_only`]).
    pub(crate) fn built(&self, method: SearchMethod) -> NeighbourIndex {
        let dimensions = self.dimensions;
        let mut rows = vec![0.0; self.points.len()];
        if dimensions > 0 {
            for (stored, point) in self.points.chunks_exact(dimensions).enumerate() {
                let slot = self.slots[stored] as usize;
                let row = &mut rows[slot * dimensions..(slot + 1) * dimensions];
                match &self.attribute_order {
                    Some(order) => order.iter().zip(point).for_each(|(&a, &v)| row[a] = v),
                    None => row.copy_from_slice(point),
                }
            }
        }
        NeighbourIndex::new(self.scaling.clone(), rows, self.len(), method)
    }

    /// An index of `count` rows in slot order, with its `levels` (scanned by counts when
    /// every attribute is nominal, else by levels, and by the rows without them) and its
    /// `screen`, but none of the other tables built.
    fn unbuilt(
        scaling: Scaling,
        dimensions: usize,
        count: usize,
        levels: Option<Levels>,
        all_nominal: bool,
        screen: Option<BlockedScreen>,
    ) -> Self {
        NeighbourIndex {
            scan: match &levels {
                Some(_) if all_nominal => ScanKind::Counts,
                Some(_) => ScanKind::Levels,
                None => ScanKind::Rows,
            },
            levels,
            scaling,
            dimensions,
            attribute_order: None,
            points: Vec::new(),
            slots: (0..count as u32).collect(),
            tree: None,
            block_attributes: Vec::new(),
            first_columns: Vec::new(),
            later_blocks: Vec::new(),
            later_norms: Vec::new(),
            largest_later_norm: 0.0,
            binary_attributes: Vec::new(),
            binary_bits: Vec::new(),
            binary_words: 0,
            screen,
            complete: false,
            exact_blocks_later: false,
            with_exact_blocks: OnceLock::new(),
        }
    }

    /// Stores the `count` scaled rows as the points: for all-numeric complete data of more
    /// than one attribute and row, with the attributes in `variance_order`.
    fn store_points(
        &mut self,
        rows: Vec<f64>,
        variance_order: Vec<usize>,
        numeric_complete: bool,
        count: usize,
    ) {
        let dimensions = self.dimensions;
        self.points = if numeric_complete && dimensions > 1 && count > 1 {
            let permuted = select_attributes(&rows, dimensions, &variance_order);
            self.attribute_order = Some(variance_order);
            permuted
        } else {
            rows
        };
    }

    /// Fills the tables of [`ScanKind::ExactBlocks`] from the stored points (all numeric and
    /// complete), blocked in their storage order.
    fn build_exact_blocks(&mut self, count: usize) {
        let dimensions = self.dimensions;
        self.block_attributes = self
            .attribute_order
            .clone()
            .unwrap_or_else(|| (0..dimensions).collect());
        let points = std::mem::take(&mut self.points);
        self.build_blocks(&points, dimensions, count);
        self.points = points;
        self.scan = ScanKind::ExactBlocks;
    }

    /// Fills the tables of [`ScanKind::ScreenedBlocks`] from the scaled rows.
    fn build_screened_blocks(&mut self, rows: &[f64], binary: Vec<usize>, continuous: Vec<usize>) {
        let count = self.slots.len();
        let selected = select_attributes(rows, self.dimensions, &continuous);
        self.build_blocks(&selected, continuous.len(), count);
        self.block_attributes = continuous;
        self.binary_words = binary.len().div_ceil(64);
        for row in rows.chunks_exact(self.dimensions) {
            let values = binary.iter().map(|&attribute| row[attribute] == 1.0);
            push_bits(values, self.binary_words, &mut self.binary_bits);
        }
        self.binary_attributes = binary;
        self.scan = ScanKind::ScreenedBlocks;
    }

    /// Fills the block scan's tables from rows of `width` values (the block attributes).
    fn build_blocks(&mut self, rows: &[f64], width: usize, count: usize) {
        let mut by_point = Vec::new();
        for point in 0..count {
            push_blocks(&rows[point * width..(point + 1) * width], &mut by_point);
        }
        let per_point = width.div_ceil(BLOCK).max(1);
        self.first_columns = (0..BLOCK)
            .flat_map(|attribute| {
                by_point
                    .iter()
                    .step_by(per_point)
                    .map(move |block| block.0[attribute])
            })
            .collect();
        self.later_norms = by_point
            .chunks_exact(per_point)
            .map(|blocks| later_norm(&blocks[1..]))
            .collect();
        self.largest_later_norm = self.later_norms.iter().copied().fold(0.0, f64::max);
        self.later_blocks = (1..per_point)
            .flat_map(|block| by_point[block..].iter().step_by(per_point).copied())
            .collect();
    }

    /// Whether [`NeighbourIndex::nearest_in_order`] may answer its queries: points kept in
    /// storage order, whose every search (tree, block scans, screen, levels, rows) gives a pair
    /// of rows the distance that [`NeighbourIndex::offer_exact`] gives it. That holds unless the
    /// data is all numeric with missing training values (whose level search sums complete
    /// queries by blocks, and whose row scan attribute by attribute).
    pub(crate) fn serves_ordered(&self) -> bool {
        self.dimensions > 0
            && (self.complete || !self.scaling.all_numeric())
            && self.points.len() == self.len() * self.dimensions
    }

    /// True while the exact-scan blocks wait for a query the screen turns away.
    #[cfg(test)]
    pub(crate) fn exact_blocks_pending(&self) -> bool {
        self.exact_blocks_later && self.with_exact_blocks.get().is_none()
    }

    /// The layout its searches read, in words (tests check that each is covered).
    #[cfg(test)]
    pub(crate) fn layout(&self) -> &'static str {
        match (&self.tree, &self.screen, self.scan) {
            (Some(_), _, _) => "tree",
            (None, Some(_), _) => "screen",
            (None, None, ScanKind::Rows) => "rows",
            (None, None, ScanKind::ExactBlocks) => "exact blocks",
            (None, None, ScanKind::ScreenedBlocks) => "bit sets",
            (None, None, ScanKind::Counts) => "counts",
            (None, None, ScanKind::Levels) => "levels",
        }
    }

    /// True when the index searches by the whole-number bounds of [`Levels`].
    pub(crate) fn searches_by_levels(&self) -> bool {
        self.levels.is_some()
    }

    /// Fills `out` as [`NeighbourIndex::nearest`] does for a scaled query, offering
    /// only `candidates`: (storage position, a lower bound of its squared distance), in
    /// increasing order of the bound. It stops once the next bound exceeds the k-th distance
    /// (with the k-d tree's slack for rounding), since no later candidate can then enter or tie.
    /// Returns false when the candidates ran out before that, unless `exhaustive` (they were
    /// every indexed row): `out` is then not the answer.
    pub(crate) fn nearest_in_order(
        &self,
        query: &[f64],
        k: usize,
        (candidates, exhaustive): (impl Iterator<Item = (usize, f64)>, bool),
        out: &mut Vec<Neighbour>,
    ) -> bool {
        out.clear();
        let capacity = k.min(self.len());
        if capacity == 0 {
            return true;
        }
        let complete = query.iter().all(|value| !value.is_nan());
        let mut exact = Vec::with_capacity(self.dimensions);
        self.push_storage_order(query, &mut exact);
        let mut best = BestList {
            capacity,
            items: out,
        };
        for (stored, lower_bound) in candidates {
            let bound = best.bound();
            if lower_bound > bound + bound * 1e-9 + 1e-12 {
                best.finish();
                return true;
            }
            self.offer_exact(&exact, complete, stored, &mut best);
        }
        best.finish();
        exhaustive
    }

    /// Number of indexed rows.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Number of attributes.
    pub(crate) fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// The per-attribute scaling.
    pub(crate) fn scaling(&self) -> &Scaling {
        &self.scaling
    }

    /// True when a k-d tree is used for complete queries.
    pub(crate) fn uses_tree(&self) -> bool {
        self.tree.is_some()
    }

    /// The search used for complete queries, in words.
    pub(crate) fn description(&self) -> &'static str {
        if self.tree.is_some() {
            "k-d tree"
        } else {
            "linear scan"
        }
    }

    /// Builds the k-d tree over the stored points: a node of more than [`LEAF_SIZE`] points
    /// splits at the median of its widest attribute (a node whose points are all equal stays a
    /// leaf), nodes numbered in depth-first order, left before right; then stores the points in
    /// the tree's order (each leaf a range of them).
    fn build_tree(&mut self, count: usize) {
        let dimensions = self.dimensions;
        let points = &self.points;
        let value_of = |slot: u32, dimension: usize| points[slot as usize * dimensions + dimension];
        let mut order: Vec<u32> = (0..count as u32).collect();
        let mut nodes = Vec::new();
        // Ranges of `order` still to build, with the split node and side that points to them.
        let mut pending: Vec<PendingRange> = vec![(0, count, None)];
        while let Some((start, end, parent)) = pending.pop() {
            let here = nodes.len() as u32;
            if let Some((parent, right)) = parent {
                if let Node::Split { left, right: r, .. } = &mut nodes[parent] {
                    *(if right { r } else { left }) = here;
                }
            }
            let members = &mut order[start..end];
            let mut best_dimension = 0;
            let mut best_spread = -1.0;
            for dimension in (0..dimensions).filter(|_| members.len() > LEAF_SIZE) {
                let (low, high) = members.iter().fold(
                    (f64::INFINITY, f64::NEG_INFINITY),
                    |(low, high), &slot| {
                        let v = value_of(slot, dimension);
                        (low.min(v), high.max(v))
                    },
                );
                if high - low > best_spread {
                    best_spread = high - low;
                    best_dimension = dimension;
                }
            }
            if best_spread <= 0.0 {
                // Few points, or every point identical: one leaf.
                nodes.push(Node::Leaf {
                    start: start as u32,
                    end: end as u32,
                });
                continue;
            }
            let middle = members.len() / 2;
            members.select_nth_unstable_by(middle, |&a, &b| {
                value_of(a, best_dimension).total_cmp(&value_of(b, best_dimension))
            });
            nodes.push(Node::Split {
                dimension: best_dimension as u32,
                value: value_of(members[middle], best_dimension),
                left: 0,
                right: 0,
            });
            let here = here as usize;
            pending.push((start + middle, end, Some((here, true))));
            pending.push((start, start + middle, Some((here, false))));
        }
        let mut reordered = Vec::with_capacity(points.len());
        for &slot in &order {
            let start = slot as usize * dimensions;
            reordered.extend_from_slice(&points[start..start + dimensions]);
        }
        self.points = reordered;
        self.slots = order;
        self.tree = Some(nodes);
    }

    /// The `k` nearest indexed rows (plus rows tied with the k-th) to each of many scaled query
    /// rows (row-major), as [`NeighbourIndex::nearest`] gives them. With a block scan, complete
    /// queries are scanned in groups against cache-sized tiles of training rows, so the training
    /// data is read from memory once per group rather than once per query.
    pub(crate) fn nearest_many(
        &self,
        queries: &[f64],
        count: usize,
        k: usize,
    ) -> Vec<Vec<Neighbour>> {
        const QUERY_GROUP: usize = 32;
        const TILE_ROWS: usize = 256;
        let dimensions = self.dimensions;
        let query = |row: usize| &queries[row * dimensions..(row + 1) * dimensions];
        let one_by_one = || {
            (0..count)
                .map(|row| {
                    let mut out = Vec::new();
                    self.nearest(query(row), k, &mut out);
                    out
                })
                .collect()
        };
        if dimensions == 0 || self.tree.is_some() {
            return one_by_one();
        }
        if let Some(screen) = &self.screen {
            return self.nearest_many_screened(screen, queries, count, k);
        }
        match self.scan {
            ScanKind::Rows => return one_by_one(),
            ScanKind::Counts | ScanKind::Levels => {
                let levels = self.levels.as_ref().expect("a level index has levels");
                let mut scratch = LevelScratch::default();
                return (0..count)
                    .map(|row| {
                        let mut out = Vec::new();
                        self.nearest_by_levels(levels, query(row), k, &mut scratch, &mut out);
                        out
                    })
                    .collect();
            }
            ScanKind::ExactBlocks | ScanKind::ScreenedBlocks => {}
        }
        let capacity = k.min(self.len());
        let mut results: Vec<Vec<Neighbour>> = vec![Vec::new(); count];
        let (complete, incomplete): (Vec<usize>, Vec<usize>) =
            (0..count).partition(|&row| query(row).iter().all(|v| !v.is_nan()));
        for row in incomplete {
            self.nearest(query(row), k, &mut results[row]);
        }
        if capacity == 0 {
            return results;
        }
        let mut query_blocks = Vec::new();
        let mut query_bits = Vec::new();
        let mut exact_queries = Vec::new();
        for group in complete.chunks(QUERY_GROUP) {
            query_blocks.clear();
            query_bits.clear();
            exact_queries.clear();
            for &row in group {
                self.push_query_blocks(query(row), &mut query_blocks);
                self.push_query_bits(query(row), &mut query_bits);
                self.push_storage_order(query(row), &mut exact_queries);
            }
            let per_query = query_blocks.len() / group.len();
            let bits_per_query = 2 * self.binary_words;
            let mut lists: Vec<Vec<Neighbour>> = group
                .iter()
                .map(|_| Vec::with_capacity(capacity + 1))
                .collect();
            let stored_count = self.slots.len();
            let mut tile_start = 0;
            while tile_start < stored_count {
                let tile_end = (tile_start + TILE_ROWS).min(stored_count);
                for (number, (blocks, items)) in query_blocks
                    .chunks_exact(per_query)
                    .zip(&mut lists)
                    .enumerate()
                {
                    let query = QueryForScan {
                        blocks,
                        bits: &query_bits[number * bits_per_query..(number + 1) * bits_per_query],
                        exact: &exact_queries[number * dimensions..(number + 1) * dimensions],
                    };
                    let mut best = BestList { capacity, items };
                    self.scan_blocks(&query, tile_start..tile_end, &mut best);
                }
                tile_start = tile_end;
            }
            for (&row, mut list) in group.iter().zip(lists) {
                finish(&mut list);
                results[row] = list;
            }
        }
        results
    }

    /// [`NeighbourIndex::nearest_many`] with the blocked screen: complete queries in groups of
    /// [`QUERY_GROUP`], [`SCREEN_GROUPS`] groups at a time, the others (and groups with a value
    /// that is not finite) one by one without it.
    fn nearest_many_screened(
        &self,
        screen: &BlockedScreen,
        queries: &[f64],
        count: usize,
        k: usize,
    ) -> Vec<Vec<Neighbour>> {
        let dimensions = self.dimensions;
        let query = |row: usize| &queries[row * dimensions..(row + 1) * dimensions];
        let mut results: Vec<Vec<Neighbour>> = vec![Vec::new(); count];
        let (complete, incomplete): (Vec<usize>, Vec<usize>) =
            (0..count).partition(|&row| query(row).iter().all(|v| !v.is_nan()));
        for row in incomplete {
            self.nearest_scanned(query(row), k, &mut results[row]);
        }
        let capacity = k.min(self.len());
        let mut candidates = Vec::new();
        let mut exact = Vec::with_capacity(dimensions);
        for block in complete.chunks(QUERY_GROUP * SCREEN_GROUPS) {
            let mut prepared_groups = Vec::new();
            let mut rows_of_groups = Vec::new();
            for group in block.chunks(QUERY_GROUP) {
                let rows: Vec<&[f64]> = group.iter().map(|&row| query(row)).collect();
                match screen.queries(&rows) {
                    Some(prepared) => {
                        prepared_groups.push(prepared);
                        rows_of_groups.push(group);
                    }
                    None => {
                        for &row in group {
                            self.nearest_scanned(query(row), k, &mut results[row]);
                        }
                    }
                }
            }
            screen.candidates(&prepared_groups, capacity, &mut candidates);
            for (number, group) in rows_of_groups.into_iter().enumerate() {
                for (position, &row) in group.iter().enumerate() {
                    exact.clear();
                    self.push_storage_order(query(row), &mut exact);
                    let found = &candidates[number * QUERY_GROUP + position];
                    self.recheck_screened(&exact, found, capacity, &mut results[row]);
                }
            }
        }
        results
    }

    /// Fills `out` as [`NeighbourIndex::nearest`] does from the candidates of a complete query
    /// (in storage order) that the blocked screen left: their exact distances, as the block
    /// scans compute them.
    fn recheck_screened(
        &self,
        query: &[f64],
        candidates: &Candidates,
        capacity: usize,
        out: &mut Vec<Neighbour>,
    ) {
        out.clear();
        if capacity == 0 {
            return;
        }
        let mut best = BestList {
            capacity,
            items: out,
        };
        for stored in candidates.rows() {
            self.offer_exact(query, true, stored, &mut best);
        }
        best.finish();
    }

    /// Appends the binary values of a complete scaled query row (see
    /// [`ScanKind::ScreenedBlocks`]), then a mask of those that are binary in the query too
    /// (0 or 1: the others add nothing to the lower bound).
    fn push_query_bits(&self, query: &[f64], out: &mut Vec<u64>) {
        let values = self.binary_attributes.iter().map(|&a| query[a] == 1.0);
        push_bits(values, self.binary_words, out);
        let binary = self
            .binary_attributes
            .iter()
            .map(|&a| query[a] == 0.0 || query[a] == 1.0);
        push_bits(binary, self.binary_words, out);
    }

    /// Appends a scaled query row with its attributes in storage order (the order of
    /// [`NeighbourIndex::points`]).
    fn push_storage_order(&self, query: &[f64], out: &mut Vec<f64>) {
        match &self.attribute_order {
            Some(order) => out.extend(order.iter().map(|&attribute| query[attribute])),
            None => out.extend_from_slice(query),
        }
    }

    /// Appends the blocks of a complete scaled query row: its block attributes, in block order.
    fn push_query_blocks(&self, query: &[f64], out: &mut Vec<Block>) {
        let selected: Vec<f64> = self
            .block_attributes
            .iter()
            .map(|&attribute| query[attribute])
            .collect();
        push_blocks(&selected, out);
    }

    /// [`NeighbourIndex::nearest`] from the whole-number bounds of [`Levels`]: every stored
    /// point's bound, then the smallest bound `first` that at least `k` points do not exceed.
    /// With every attribute nominal the bounds are the distances: the answer is the points up
    /// to `first`, by counting sort in (distance, slot) order. Otherwise the points up to
    /// `first` get their exact distances, which bound the k-th distance, and then the points
    /// beyond `first` whose bounds do not exceed it, in increasing order of their bounds while
    /// the bound does not exceed the best list's.
    fn nearest_by_levels(
        &self,
        levels: &Levels,
        query: &[f64],
        k: usize,
        scratch: &mut LevelScratch,
        out: &mut Vec<Neighbour>,
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            if vector_cap::allows(vector_cap::Level::Avx512)
                && std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                // SAFETY: the processor has these features (checked just above).
                return unsafe { self.nearest_by_levels_avx512(levels, query, k, scratch, out) };
            }
            if vector_cap::allows(vector_cap::Level::Avx2)
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                // SAFETY: the processor has AVX2 and POPCNT (checked just above).
                return unsafe { self.nearest_by_levels_avx2(levels, query, k, scratch, out) };
            }
        }
        self.nearest_by_levels_portable(levels, query, k, scratch, out)
    }

    /// [`NeighbourIndex::nearest_by_levels_portable`] compiled for AVX-512 with vector
    /// population counts (the same floating-point operations, so the same distances).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt")]
    fn nearest_by_levels_avx512(
        &self,
        levels: &Levels,
        query: &[f64],
        k: usize,
        scratch: &mut LevelScratch,
        out: &mut Vec<Neighbour>,
    ) {
        self.nearest_by_levels_portable(levels, query, k, scratch, out)
    }

    /// [`NeighbourIndex::nearest_by_levels_portable`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn nearest_by_levels_avx2(
        &self,
        levels: &Levels,
        query: &[f64],
        k: usize,
        scratch: &mut LevelScratch,
        out: &mut Vec<Neighbour>,
    ) {
        self.nearest_by_levels_portable(levels, query, k, scratch, out)
    }

    /// [`NeighbourIndex::nearest_by_levels`] for any processor.
    #[inline(always)]
    fn nearest_by_levels_portable(
        &self,
        levels: &Levels,
        query: &[f64],
        k: usize,
        scratch: &mut LevelScratch,
        out: &mut Vec<Neighbour>,
    ) {
        out.clear();
        let capacity = k.min(self.len());
        if capacity == 0 {
            return;
        }
        levels.query(query, &mut scratch.query);
        levels.bounds(&scratch.query, &mut scratch.bounds);
        let bounds = &scratch.bounds;
        let first = first_level(bounds, capacity, levels.top(), &mut scratch.at_level);
        if levels.exact() {
            counting_sort_output(bounds, &scratch.at_level, &self.slots, out);
            return;
        }
        let complete = query.iter().all(|v| !v.is_nan());
        let exact = &mut scratch.exact;
        exact.clear();
        self.push_storage_order(query, exact);
        let mut best = BestList {
            capacity,
            items: out,
        };
        let candidates = &mut scratch.candidates;
        candidates.clear();
        positions_between(bounds, 0, first, candidates);
        self.offer_by_level(bounds, candidates, exact, complete, &mut best);
        // No point with a bound above the k-th distance can be in the answer.
        let kth = best.bound();
        let last = if kth < levels.top() as f64 {
            kth.floor() as usize
        } else {
            levels.top()
        };
        candidates.clear();
        positions_between(bounds, first + 1, last, candidates);
        self.offer_by_level(bounds, candidates, exact, complete, &mut best);
        best.finish();
    }

    /// Offers the candidates (stored points) to the best list in increasing order of their
    /// bounds (ties in storage order), with their exact distances, while the bound does not
    /// exceed the list's (see [`NeighbourIndex::offer_exact`]): the nearest come first and
    /// tighten the list's bound early.
    fn offer_by_level(
        &self,
        bounds: &[u16],
        candidates: &mut [u32],
        query: &[f64],
        complete: bool,
        best: &mut BestList,
    ) {
        candidates.sort_unstable_by_key(|&stored| (bounds[stored as usize], stored));
        for &stored in candidates.iter() {
            if f64::from(bounds[stored as usize]) > best.bound() {
                break;
            }
            self.offer_exact(query, complete, stored as usize, best);
        }
    }

    /// Offers a stored point to the best list with its exact distance from a scaled query (in
    /// storage order) if it does not exceed the list's bound: the distance of the block scans
    /// for complete all-numeric rows, else of [`Scaling::squared_distance_within`].
    #[inline]
    fn offer_exact(&self, query: &[f64], complete: bool, stored: usize, best: &mut BestList) {
        let point = &self.points[stored * self.dimensions..(stored + 1) * self.dimensions];
        let found = if complete && self.scaling.all_numeric() {
            numeric_squared_distance_within(query, point, best.bound())
        } else {
            self.scaling
                .squared_distance_within(query, point, best.bound())
        };
        if let Some(squared_distance) = found {
            best.offer(Neighbour {
                squared_distance,
                slot: self.slots[stored],
            });
        }
    }

    /// Offers to the best list the stored points of `range` that are not farther from the
    /// query than the list's bound (see [`NeighbourIndex::scan_blocks_portable`]), with the
    /// widest vector instructions the processor has: the same operations in the same order, so
    /// the same distances to the bit.
    fn scan_blocks(&self, query: &QueryForScan, range: Range<usize>, best: &mut BestList) {
        #[cfg(target_arch = "x86_64")]
        {
            if vector_cap::allows(vector_cap::Level::Avx512)
                && std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                // SAFETY: the processor has AVX-512F and POPCNT (checked just above).
                return unsafe { self.scan_blocks_avx512(query, range, best) };
            }
            if vector_cap::allows(vector_cap::Level::Avx2)
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                // SAFETY: the processor has AVX2 and POPCNT (checked just above).
                return unsafe { self.scan_blocks_avx2(query, range, best) };
            }
        }
        self.scan_blocks_portable(query, range, best)
    }

    /// [`NeighbourIndex::scan_blocks_portable`] compiled for AVX-512F.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,popcnt")]
    fn scan_blocks_avx512(&self, query: &QueryForScan, range: Range<usize>, best: &mut BestList) {
        self.scan_blocks_portable(query, range, best)
    }

    /// [`NeighbourIndex::scan_blocks_portable`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn scan_blocks_avx2(&self, query: &QueryForScan, range: Range<usize>, best: &mut BestList) {
        self.scan_blocks_portable(query, range, best)
    }

    /// Offers to the best list the stored points of `range` (complete data with block tables)
    /// that are not farther from the query (given as blocks, and as the scaled row `query`) than
    /// the list's bound. The points go in chunks: the partial distances of a chunk's points grow
    /// block by block, and after each block the points beyond the bound at the chunk's start
    /// leave the race, without branches (a list of the remaining ones is kept), so that the next
    /// block is read only for these. With [`ScanKind::ExactBlocks`] the additions are those of
    /// [`numeric_squared_distance_within`], in the same order; with
    /// [`ScanKind::ScreenedBlocks`] the block sums are lower bounds (the race allows
    /// [`LOWER_BOUND_SLACK`] for their rounding) and the points that finish the race get their
    /// exact distance from [`Scaling::squared_distance_within`].
    #[inline(always)]
    fn scan_blocks_portable(&self, query: &QueryForScan, range: Range<usize>, best: &mut BestList) {
        let stored_count = self.slots.len();
        let lower_bounds_only = self.scan == ScanKind::ScreenedBlocks;
        let words = self.binary_words;
        let (query_bits, query_mask) = query.bits.split_at(words);
        let (first_query_block, later_query_blocks) = query
            .blocks
            .split_first()
            .expect("a query has at least one block");
        // Once the first block is summed (`total`), a point's distance is at least `total` plus
        // the squared difference of the norms of the later blocks (triangle inequality). This
        // lower bound is rounded differently from the distance, so a point is left out on it
        // only when it exceeds the list's bound by a slack of 1e-9 times (bound + (|query| +
        // |point|)^2 on the later blocks): the rounding errors of both are below 1e-13 times
        // (total + (|query| + |point|)^2), and total <= bound for any point still in the race,
        // so such a point's computed distance exceeds the bound too.
        let query_later_norm = later_norm(later_query_blocks);
        let norm_scale = (query_later_norm + self.largest_later_norm).powi(2);
        let mut totals = [0.0f64; CHUNK];
        let mut remaining = [0u8; CHUNK];
        let mut chunk_start = range.start;
        while chunk_start < range.end {
            let chunk_end = (chunk_start + CHUNK).min(range.end);
            let chunk_length = chunk_end - chunk_start;
            let exact_bound = best.bound();
            let bound = if lower_bounds_only {
                exact_bound + exact_bound * LOWER_BOUND_SLACK
            } else {
                exact_bound
            };
            let lower_bound_limit = bound + 1e-9 * (bound + norm_scale);
            let columns: [&[f64]; BLOCK] = std::array::from_fn(|attribute| {
                &self.first_columns[attribute * stored_count + chunk_start..]
            });
            column_block_squared_sums(&first_query_block.0, columns, &mut totals[..chunk_length]);
            if words > 0 {
                let stored_bits = &self.binary_bits[chunk_start * words..chunk_end * words];
                for (total, bits) in totals.iter_mut().zip(stored_bits.chunks_exact(words)) {
                    let differing: u32 = bits
                        .iter()
                        .zip(query_bits)
                        .zip(query_mask)
                        .map(|((&stored, &value), &mask)| ((stored ^ value) & mask).count_ones())
                        .sum();
                    *total += f64::from(differing);
                }
            }
            let mut remaining_count = 0;
            for (offset, (&total, &point_later_norm)) in totals[..chunk_length]
                .iter()
                .zip(&self.later_norms[chunk_start..chunk_end])
                .enumerate()
            {
                let norm_gap = query_later_norm - point_later_norm;
                let lower_bound = total + norm_gap * norm_gap;
                remaining[remaining_count] = offset as u8;
                remaining_count +=
                    still_in_race(total, bound) & still_in_race(lower_bound, lower_bound_limit);
            }
            for (number, query_block) in later_query_blocks.iter().enumerate() {
                let column_start = number * stored_count + chunk_start;
                let column = &self.later_blocks[column_start..column_start + chunk_length];
                let mut kept = 0;
                for position in 0..remaining_count {
                    let offset = usize::from(remaining[position]);
                    let total =
                        totals[offset] + block_squared_sum(&query_block.0, &column[offset].0);
                    totals[offset] = total;
                    remaining[kept] = offset as u8;
                    kept += still_in_race(total, bound);
                }
                remaining_count = kept;
            }
            for &offset in &remaining[..remaining_count] {
                let stored = chunk_start + usize::from(offset);
                let squared_distance = if lower_bounds_only {
                    let point =
                        &self.points[stored * self.dimensions..(stored + 1) * self.dimensions];
                    let exact = if self.scaling.all_numeric() {
                        numeric_squared_distance_within(query.exact, point, best.bound())
                    } else {
                        self.scaling
                            .squared_distance_within(query.exact, point, best.bound())
                    };
                    match exact {
                        Some(squared_distance) => squared_distance,
                        None => continue,
                    }
                } else {
                    totals[usize::from(offset)]
                };
                best.offer(Neighbour {
                    squared_distance,
                    slot: self.slots[stored],
                });
            }
            chunk_start = chunk_end;
        }
    }

    /// Fills `out` with the `k` nearest indexed rows to a scaled query row and every further row
    /// tied with the k-th distance (all rows when fewer than `k`), nearest first, ties by lower
    /// slot.
    pub(crate) fn nearest(&self, query: &[f64], k: usize, out: &mut Vec<Neighbour>) {
        if let Some(screen) = &self.screen {
            if query.iter().all(|v| !v.is_nan()) {
                if let Some(prepared) = screen.queries(&[query]) {
                    let capacity = k.min(self.len());
                    let mut candidates = Vec::new();
                    screen.candidates(std::slice::from_ref(&prepared), capacity, &mut candidates);
                    let mut exact = Vec::with_capacity(self.dimensions);
                    self.push_storage_order(query, &mut exact);
                    self.recheck_screened(&exact, &candidates[0], capacity, out);
                    return;
                }
            }
        }
        self.nearest_scanned(query, k, out);
    }

    /// [`NeighbourIndex::nearest`] without the blocked screen.
    fn nearest_scanned(&self, query: &[f64], k: usize, out: &mut Vec<Neighbour>) {
        if self.exact_blocks_later && query.iter().all(|v| !v.is_nan()) {
            let full = self
                .with_exact_blocks
                .get_or_init(|| Box::new(self.built(SearchMethod::Linear)));
            return full.nearest_scanned(query, k, out);
        }
        out.clear();
        let capacity = k.min(self.len());
        if capacity == 0 {
            return;
        }
        if let Some(levels) = &self.levels {
            let mut scratch = LevelScratch::default();
            self.nearest_by_levels(levels, query, k, &mut scratch, out);
            return;
        }
        let mut best = BestList {
            capacity,
            items: out,
        };
        if self.dimensions == 0 {
            // Every row is at distance 0: all tie with the k-th.
            for &slot in &self.slots {
                best.offer(Neighbour {
                    squared_distance: 0.0,
                    slot,
                });
            }
            best.finish();
            return;
        }
        let query_complete = query.iter().all(|v| !v.is_nan());
        if matches!(self.scan, ScanKind::ExactBlocks | ScanKind::ScreenedBlocks) && query_complete {
            let mut blocks = Vec::new();
            self.push_query_blocks(query, &mut blocks);
            let mut bits = Vec::new();
            self.push_query_bits(query, &mut bits);
            let mut exact = Vec::new();
            self.push_storage_order(query, &mut exact);
            let query = QueryForScan {
                blocks: &blocks,
                bits: &bits,
                exact: &exact,
            };
            self.scan_blocks(&query, 0..self.len(), &mut best);
            best.finish();
            return;
        }
        let permuted: Vec<f64>;
        let query = match &self.attribute_order {
            Some(order) => {
                permuted = order.iter().map(|&attribute| query[attribute]).collect();
                &permuted[..]
            }
            None => query,
        };
        match &self.tree {
            Some(nodes) if query_complete => {
                let mut offsets = vec![0.0; self.dimensions];
                self.search_tree(nodes, 0, query, 0.0, &mut offsets, &mut best);
            }
            _ => {
                for (stored, point) in self.points.chunks_exact(self.dimensions).enumerate() {
                    let bound = best.bound();
                    if let Some(squared_distance) =
                        self.scaling.squared_distance_within(query, point, bound)
                    {
                        best.offer(Neighbour {
                            squared_distance,
                            slot: self.slots[stored],
                        });
                    }
                }
            }
        }
        best.finish();
    }

    fn search_tree(
        &self,
        nodes: &[Node],
        node: usize,
        query: &[f64],
        lower_bound: f64,
        offsets: &mut [f64],
        best: &mut BestList,
    ) {
        let bound = best.bound();
        // A little slack so rounding in the incremental bound never prunes an exact tie.
        if lower_bound > bound + bound * 1e-9 + 1e-12 {
            return;
        }
        match nodes[node] {
            Node::Leaf { start, end } => {
                for stored in start as usize..end as usize {
                    let point =
                        &self.points[stored * self.dimensions..(stored + 1) * self.dimensions];
                    if let Some(squared_distance) =
                        numeric_squared_distance_within(query, point, best.bound())
                    {
                        best.offer(Neighbour {
                            squared_distance,
                            slot: self.slots[stored],
                        });
                    }
                }
            }
            Node::Split {
                dimension,
                value,
                left,
                right,
            } => {
                let dimension = dimension as usize;
                let difference = query[dimension] - value;
                let (near, far) = if difference <= 0.0 {
                    (left, right)
                } else {
                    (right, left)
                };
                self.search_tree(nodes, near as usize, query, lower_bound, offsets, best);
                let old = offsets[dimension];
                let far_bound = lower_bound - old * old + difference * difference;
                offsets[dimension] = difference;
                self.search_tree(nodes, far as usize, query, far_bound, offsets, best);
                offsets[dimension] = old;
            }
        }
    }
}

/// The given attributes of every row (row-major, `dimensions` values a row), in the given order.
fn select_attributes(rows: &[f64], dimensions: usize, attributes: &[usize]) -> Vec<f64> {
    let mut selected = Vec::with_capacity(rows.len() / dimensions.max(1) * attributes.len());
    for row in rows.chunks_exact(dimensions) {
        selected.extend(attributes.iter().map(|&attribute| row[attribute]));
    }
    selected
}

/// What one pass over the scaled rows tells of their attributes.
struct ColumnSummary {
    /// No value is missing (NaN).
    complete: bool,
    /// For each attribute, whether its values are all 0 or 1.
    binary: Vec<bool>,
    /// For each attribute, the sum of its values in row order.
    sums: Vec<f64>,
}

impl ColumnSummary {
    /// The summary of `rows` (row-major, `dimensions` values a row).
    fn of(rows: &[f64], dimensions: usize) -> ColumnSummary {
        let mut complete = true;
        let mut binary = vec![true; dimensions];
        let mut sums = vec![0.0; dimensions];
        for row in rows.chunks_exact(dimensions.max(1)) {
            for ((is_binary, sum), &value) in binary.iter_mut().zip(&mut sums).zip(row) {
                complete &= !value.is_nan();
                *is_binary &= value == 0.0 || value == 1.0;
                *sum += value;
            }
        }
        ColumnSummary {
            complete,
            binary,
            sums,
        }
    }
}

/// Attribute numbers sorted by decreasing variance of the scaled values (ties: lower number),
/// given each attribute's sum in row order.
fn attributes_by_variance(rows: &[f64], dimensions: usize, sums: Vec<f64>) -> Vec<usize> {
    let count = (rows.len() / dimensions) as f64;
    let mut mean = sums;
    mean.iter_mut().for_each(|m| *m /= count);
    let mut variance = vec![0.0; dimensions];
    for row in rows.chunks_exact(dimensions) {
        for ((v, x), m) in variance.iter_mut().zip(row).zip(&mean) {
            *v += (x - m) * (x - m);
        }
    }
    let mut order: Vec<usize> = (0..dimensions).collect();
    order.sort_by(|&a, &b| variance[b].total_cmp(&variance[a]).then(a.cmp(&b)));
    order
}
