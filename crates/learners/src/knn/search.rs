//! Nearest-neighbour search over scaled training rows: a k-d tree for all-numeric data of low
//! dimension, otherwise a linear scan over cache-line blocks of attributes with early
//! abandonment. Both return exactly the same neighbours: the k nearest plus every row tied with
//! the k-th distance (as Weka 3.6 IBk), ordered by squared distance, ties by training position.

use std::ops::Range;

use super::distance::{
    block_squared_sum, column_block_squared_sums, numeric_squared_distance_within, padded_block,
    Scaling, BLOCK,
};

/// How neighbours are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMethod {
    /// A k-d tree when every attribute is numeric, the training data has no missing values and
    /// there are at most [`KD_TREE_MAX_DIMENSIONS`] attributes; a linear scan otherwise.
    Auto,
    /// Always a plain linear scan in training order.
    Linear,
    /// A k-d tree whenever the data allows it (all numeric, no missing training values).
    KdTree,
}

impl SearchMethod {
    /// The config word for this method.
    pub fn as_str(self) -> &'static str {
        match self {
            SearchMethod::Auto => "auto",
            SearchMethod::Linear => "linear",
            SearchMethod::KdTree => "kd_tree",
        }
    }
}

/// Highest number of attributes for which `Auto` builds a k-d tree.
pub const KD_TREE_MAX_DIMENSIONS: usize = 16;

/// Fewest training rows for which `Auto` builds a k-d tree (a scan is as fast below this).
const KD_TREE_MIN_ROWS: usize = 256;

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

/// Cuts a row into zero-padded [`Block`]s, appending them to `out`.
fn push_blocks(row: &[f64], out: &mut Vec<Block>) {
    out.extend(row.chunks(BLOCK).map(|values| Block(padded_block(values))));
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
    /// True when every attribute is numeric and no training value is missing.
    numeric_complete: bool,
    tree: Option<Vec<Node>>,
    /// For all-numeric complete data: the attributes in storage order, by decreasing variance,
    /// so that partial distances grow fast and hopeless rows are abandoned early.
    attribute_order: Option<Vec<usize>>,
    /// For the linear scan of all-numeric complete data: the first block of every stored point
    /// (see [`push_blocks`]), attribute-major (value `j` of stored point `s` at `j * len + s`),
    /// so that the first block, which rules out most points, is computed for two points per
    /// vector instruction.
    first_columns: Vec<f64>,
    /// For the linear scan: the later blocks of the stored points, block-major (block `b >= 1`
    /// of stored point `s` at `(b - 1) * len + s`), each read only for points still in the race.
    later_blocks: Vec<Block>,
    /// For the linear scan: the Euclidean norm of the later blocks of every stored point, for a
    /// lower bound on the distance once the first block is known.
    later_norms: Vec<f64>,
    /// The largest of `later_norms`.
    largest_later_norm: f64,
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
        let numeric_complete = scaling.all_numeric() && rows.iter().all(|v| !v.is_nan());
        let use_tree = dimensions > 0
            && numeric_complete
            && match method {
                SearchMethod::Linear => false,
                SearchMethod::KdTree => true,
                SearchMethod::Auto => {
                    dimensions <= KD_TREE_MAX_DIMENSIONS && count >= KD_TREE_MIN_ROWS
                }
            };
        let mut rows = rows;
        let attribute_order = if numeric_complete && dimensions > 1 && count > 1 {
            let order = attributes_by_variance(&rows, dimensions);
            let mut permuted = vec![0.0; rows.len()];
            for (to, from) in permuted
                .chunks_exact_mut(dimensions)
                .zip(rows.chunks_exact(dimensions))
            {
                for (slot, &attribute) in to.iter_mut().zip(&order) {
                    *slot = from[attribute];
                }
            }
            rows = permuted;
            Some(order)
        } else {
            None
        };
        let mut index = NeighbourIndex {
            scaling,
            dimensions,
            attribute_order,
            points: rows,
            slots: (0..count as u32).collect(),
            numeric_complete,
            tree: None,
            first_columns: Vec::new(),
            later_blocks: Vec::new(),
            later_norms: Vec::new(),
            largest_later_norm: 0.0,
        };
        if use_tree {
            index.build_tree(count);
        } else if numeric_complete && dimensions > 0 {
            let mut by_point = Vec::new();
            for point in index.points.chunks_exact(dimensions) {
                push_blocks(point, &mut by_point);
            }
            let per_point = dimensions.div_ceil(BLOCK);
            index.first_columns = (0..BLOCK)
                .flat_map(|attribute| {
                    by_point
                        .iter()
                        .step_by(per_point)
                        .map(move |block| block.0[attribute])
                })
                .collect();
            index.later_norms = by_point
                .chunks_exact(per_point)
                .map(|blocks| later_norm(&blocks[1..]))
                .collect();
            index.largest_later_norm = index.later_norms.iter().copied().fold(0.0, f64::max);
            index.later_blocks = (1..per_point)
                .flat_map(|block| by_point[block..].iter().step_by(per_point).copied())
                .collect();
        }
        index
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

    fn build_tree(&mut self, count: usize) {
        let dimensions = self.dimensions;
        let mut order: Vec<u32> = (0..count as u32).collect();
        let mut nodes = Vec::new();
        let points = &self.points;
        build_node(points, dimensions, &mut order, 0, &mut nodes);
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
    /// rows (row-major), as
    /// [`NeighbourIndex::nearest`] gives them. Without a tree, complete queries are scanned in
    /// groups against cache-sized tiles of training rows, so the training data is read from
    /// memory once per group rather than once per query.
    pub(crate) fn nearest_many(
        &self,
        queries: &[f64],
        count: usize,
        k: usize,
    ) -> Vec<Vec<Neighbour>> {
        const QUERY_GROUP: usize = 32;
        const TILE_ROWS: usize = 256;
        let dimensions = self.dimensions;
        if dimensions == 0 || self.tree.is_some() || !self.numeric_complete {
            return (0..count)
                .map(|row| {
                    let mut out = Vec::new();
                    self.nearest(
                        &queries[row * dimensions..(row + 1) * dimensions],
                        k,
                        &mut out,
                    );
                    out
                })
                .collect();
        }
        let capacity = k.min(self.len());
        let mut results: Vec<Vec<Neighbour>> = vec![Vec::new(); count];
        let (complete, incomplete): (Vec<usize>, Vec<usize>) = (0..count).partition(|&row| {
            queries[row * dimensions..(row + 1) * dimensions]
                .iter()
                .all(|v| !v.is_nan())
        });
        for row in incomplete {
            self.nearest(
                &queries[row * dimensions..(row + 1) * dimensions],
                k,
                &mut results[row],
            );
        }
        if capacity == 0 {
            return results;
        }
        let mut query_blocks = Vec::new();
        for group in complete.chunks(QUERY_GROUP) {
            query_blocks.clear();
            for &row in group {
                self.push_query_blocks(
                    &queries[row * dimensions..(row + 1) * dimensions],
                    &mut query_blocks,
                );
            }
            let per_query = query_blocks.len() / group.len();
            let mut lists: Vec<Vec<Neighbour>> = group
                .iter()
                .map(|_| Vec::with_capacity(capacity + 1))
                .collect();
            let stored_count = self.slots.len();
            let mut tile_start = 0;
            while tile_start < stored_count {
                let tile_end = (tile_start + TILE_ROWS).min(stored_count);
                for (query, items) in query_blocks.chunks_exact(per_query).zip(&mut lists) {
                    let mut best = BestList { capacity, items };
                    self.scan_blocks(query, tile_start..tile_end, &mut best);
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

    /// Appends the blocks of a complete scaled query row, its attributes in storage order.
    fn push_query_blocks(&self, query: &[f64], out: &mut Vec<Block>) {
        match &self.attribute_order {
            Some(order) => {
                let permuted: Vec<f64> = order.iter().map(|&attribute| query[attribute]).collect();
                push_blocks(&permuted, out);
            }
            None => push_blocks(query, out),
        }
    }

    /// Offers to the best list the stored points of `range` (all-numeric complete data) that
    /// are not farther from the query (given as blocks) than the list's bound. The points go in
    /// chunks: the partial distances of a chunk's points grow block by block, and after each
    /// block the points beyond the bound at the chunk's start leave the race, without branches
    /// (a list of the remaining ones is kept), so that the next block is read only for these.
    /// The additions are those of [`numeric_squared_distance_within`], in the same order.
    #[inline(always)]
    fn scan_blocks(&self, query: &[Block], range: Range<usize>, best: &mut BestList) {
        let stored_count = self.slots.len();
        let (first_query_block, later_query_blocks) =
            query.split_first().expect("a query has at least one block");
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
            let bound = best.bound();
            let lower_bound_limit = bound + 1e-9 * (bound + norm_scale);
            let columns: [&[f64]; BLOCK] = std::array::from_fn(|attribute| {
                &self.first_columns[attribute * stored_count + chunk_start..]
            });
            column_block_squared_sums(&first_query_block.0, columns, &mut totals[..chunk_length]);
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
                let offset = usize::from(offset);
                best.offer(Neighbour {
                    squared_distance: totals[offset],
                    slot: self.slots[chunk_start + offset],
                });
            }
            chunk_start = chunk_end;
        }
    }

    /// Fills `out` with the `k` nearest indexed rows to a scaled query row and every further row
    /// tied with the k-th distance (all rows when fewer than `k`), nearest first, ties by lower
    /// slot.
    pub(crate) fn nearest(&self, query: &[f64], k: usize, out: &mut Vec<Neighbour>) {
        out.clear();
        let capacity = k.min(self.len());
        if capacity == 0 {
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
        if self.tree.is_none() && self.numeric_complete && query_complete {
            let mut query_blocks = Vec::new();
            self.push_query_blocks(query, &mut query_blocks);
            self.scan_blocks(&query_blocks, 0..self.len(), &mut best);
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

/// Attribute numbers sorted by decreasing variance of the scaled values (ties: lower number).
fn attributes_by_variance(rows: &[f64], dimensions: usize) -> Vec<usize> {
    let count = (rows.len() / dimensions) as f64;
    let mut mean = vec![0.0; dimensions];
    for row in rows.chunks_exact(dimensions) {
        for (m, x) in mean.iter_mut().zip(row) {
            *m += x;
        }
    }
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

/// Builds the subtree over `order[..]` (stored positions `offset..offset + order.len()`),
/// returning its node number.
fn build_node(
    points: &[f64],
    dimensions: usize,
    order: &mut [u32],
    offset: usize,
    nodes: &mut Vec<Node>,
) -> u32 {
    let here = nodes.len() as u32;
    if order.len() <= LEAF_SIZE {
        nodes.push(Node::Leaf {
            start: offset as u32,
            end: (offset + order.len()) as u32,
        });
        return here;
    }
    let value_of = |slot: u32, dimension: usize| points[slot as usize * dimensions + dimension];
    let mut best_dimension = 0;
    let mut best_spread = -1.0;
    for dimension in 0..dimensions {
        let mut low = f64::INFINITY;
        let mut high = f64::NEG_INFINITY;
        for &slot in order.iter() {
            let v = value_of(slot, dimension);
            low = low.min(v);
            high = high.max(v);
        }
        if high - low > best_spread {
            best_spread = high - low;
            best_dimension = dimension;
        }
    }
    if best_spread <= 0.0 {
        // Every point identical: one leaf, however many.
        nodes.push(Node::Leaf {
            start: offset as u32,
            end: (offset + order.len()) as u32,
        });
        return here;
    }
    let middle = order.len() / 2;
    order.select_nth_unstable_by(middle, |&a, &b| {
        value_of(a, best_dimension).total_cmp(&value_of(b, best_dimension))
    });
    let value = value_of(order[middle], best_dimension);
    nodes.push(Node::Split {
        dimension: best_dimension as u32,
        value,
        left: 0,
        right: 0,
    });
    let (left_order, right_order) = order.split_at_mut(middle);
    let left = build_node(points, dimensions, left_order, offset, nodes);
    let right = build_node(points, dimensions, right_order, offset + middle, nodes);
    if let Node::Split {
        left: l, right: r, ..
    } = &mut nodes[here as usize]
    {
        *l = left;
        *r = right;
    }
    here
}
