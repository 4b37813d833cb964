//! Leave-one-out nearest neighbours of every row of a dataset under a [`Distance`] fitted on all
//! of its rows: the 1-NN run behind [`crate::transform::reduce_to_most_confused`].
//!
//! Three searches, chosen by the data, give identical answers (every row at the smallest
//! squared distance, the distance summed over attributes in schema order):
//!
//! - complete nominal data: rows grouped by their values outside a set of `d` attributes, for
//!   `d = 0, 1, 2, ...` (rows in one group are at most `d` mismatches apart), while that is
//!   cheaper than the exhaustive count of mismatches, which finds the rest;
//! - complete numeric data: a k-d tree whose leaves hold their points attribute by attribute,
//!   so that a leaf's distances are summed for several rows at once (each row's sum in the
//!   same order as one at a time), stopping once every row of a leaf is further than the best;
//! - anything else (missing values, mixed attributes): an exhaustive search with early exit.

use std::cmp::Ordering;

use crate::dataset::Dataset;
use crate::distance::Distance;

/// For every row of the dataset, the nearest other row (leave-one-out 1-NN) under a
/// [`Distance`] fitted on the whole dataset; ties go to the lower row index. Needs at least 2
/// rows.
pub fn leave_one_out_nearest(dataset: &Dataset) -> Vec<usize> {
    leave_one_out_nearest_tied(dataset)
        .into_iter()
        .map(|tied| tied[0])
        .collect()
}

/// For every row of the dataset, all other rows at the smallest distance from it (ascending
/// row order), under a [`Distance`] fitted on the whole dataset. Uses a k-d tree when every
/// attribute is numeric with no missing value, groups of equal values when every attribute is
/// nominal with no missing value, else an exhaustive search with early exit; all give
/// identical answers. Needs at least 2 rows.
pub fn leave_one_out_nearest_tied(dataset: &Dataset) -> Vec<Vec<usize>> {
    let width = dataset.schema().num_attributes();
    let n = dataset.len();
    if let Some(codes) = nominal_codes(dataset) {
        return nearest_tied_nominal(&codes, width, n);
    }
    let distance = Distance::fit_dataset(dataset);
    let mut points = vec![0.0; n * width];
    for attribute in 0..width {
        for (row, &value) in dataset.column(attribute).iter().enumerate() {
            points[row * width + attribute] = distance.normalise(attribute, value);
        }
    }
    if width > 0 && all_numeric_present(dataset) {
        return KdTree::build(&points, width).all_nearest_tied(&points);
    }
    (0..n)
        .map(|row| {
            let query = &points[row * width..(row + 1) * width];
            let mut best = Nearest::default();
            for other in (0..n).filter(|&other| other != row) {
                let candidate = &points[other * width..(other + 1) * width];
                best.offer(
                    distance.squared_normalised_within(query, candidate, best.distance),
                    other,
                );
            }
            best.rows.sort_unstable();
            best.rows
        })
        .collect()
}

/// True when every attribute is numeric and no value is missing.
fn all_numeric_present(dataset: &Dataset) -> bool {
    dataset
        .schema()
        .attributes
        .iter()
        .enumerate()
        .all(|(i, a)| a.is_numeric() && !dataset.column(i).iter().any(|v| v.is_nan()))
}

/// The smallest distance seen so far and every row at it.
struct Nearest {
    distance: f64,
    rows: Vec<usize>,
}

impl Default for Nearest {
    fn default() -> Self {
        Nearest {
            distance: f64::INFINITY,
            rows: Vec::new(),
        }
    }
}

impl Nearest {
    #[inline]
    fn offer(&mut self, distance: f64, row: usize) {
        if distance < self.distance {
            self.distance = distance;
            self.rows.clear();
            self.rows.push(row);
        } else if distance == self.distance {
            self.rows.push(row);
        }
    }
}

/// Row-major value codes when every attribute is nominal with at most 256 values and no value
/// is missing; then the squared distance is the number of differing attributes (summed exactly
/// in `f64`).
fn nominal_codes(dataset: &Dataset) -> Option<Vec<u8>> {
    let schema = dataset.schema();
    let width = schema.num_attributes();
    let fits = width > 0
        && schema.attributes.iter().enumerate().all(|(i, a)| {
            a.values().is_some_and(|v| v.len() <= 256)
                && !dataset.column(i).iter().any(|v| v.is_nan())
        });
    if !fits {
        return None;
    }
    let mut codes = vec![0u8; dataset.len() * width];
    for attribute in 0..width {
        for (row, &value) in dataset.column(attribute).iter().enumerate() {
            codes[row * width + attribute] = value as u8;
        }
    }
    Some(codes)
}

/// The nearest rows on complete nominal data, level by level: at level `d`, for every set of
/// `d` attributes, the rows are sorted by their values outside the set, and the rows of a row's
/// group are `d` mismatches away. A row still without neighbours has none nearer than `d`, so
/// the rows found for it at level `d` (each in exactly one group: the one of the attributes where
/// it differs) are all its nearest. Levels go on while their sorts cost less than counting the
/// mismatches of the rows left against every row, which then finds theirs.
fn nearest_tied_nominal(codes: &[u8], width: usize, n: usize) -> Vec<Vec<usize>> {
    let row_codes = |row: usize| &codes[row * width..(row + 1) * width];
    let mut tied: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut open = vec![true; n];
    let mut left = n;
    let mut order: Vec<usize> = (0..n).collect();
    let sort_cost = (usize::BITS - n.leading_zeros()) as usize;
    // Masks of attributes are 64-bit: wider data goes straight to the exhaustive count.
    let levels = if width < 64 { width + 1 } else { 0 };
    for level in 0..levels {
        if left == 0 || binomial(width, level).saturating_mul(sort_cost) > left {
            break;
        }
        for mask in masks_of_size(width, level) {
            let same = |a: &usize, b: &usize| masked_cmp(row_codes(*a), row_codes(*b), mask);
            order.sort_unstable_by(same);
            for group in order.chunk_by(|a, b| same(a, b) == Ordering::Equal) {
                if group.len() < 2 {
                    continue;
                }
                for &row in group.iter().filter(|&&row| open[row]) {
                    tied[row].extend(group.iter().filter(|&&other| other != row));
                }
            }
        }
        for (row, rows) in tied.iter_mut().enumerate() {
            if open[row] && !rows.is_empty() {
                open[row] = false;
                left -= 1;
                rows.sort_unstable();
            }
        }
    }
    for row in (0..n).filter(|&row| open[row]) {
        tied[row] = nominal_exhaustive(codes, width, row);
    }
    tied
}

/// Compares two rows of codes on the attributes outside `mask`, in attribute order.
fn masked_cmp(a: &[u8], b: &[u8], mask: u64) -> Ordering {
    for (attribute, (x, y)) in a.iter().zip(b).enumerate() {
        if mask >> attribute & 1 == 0 && x != y {
            return x.cmp(y);
        }
    }
    Ordering::Equal
}

/// Every set of `size` attributes among the first `width` (below 64), as bit masks.
fn masks_of_size(width: usize, size: usize) -> impl Iterator<Item = u64> {
    let end = 1u64 << width;
    let first = (1u64 << size) - 1;
    // Gosper's hack: the next larger number with as many bits set.
    std::iter::successors(Some(first), move |&mask| {
        if mask == 0 {
            return None;
        }
        let lowest = mask & mask.wrapping_neg();
        let ripple = mask + lowest;
        Some((((ripple ^ mask) >> 2) / lowest) | ripple)
    })
    .take_while(move |&mask| mask < end)
}

/// The number of ways to choose `k` of `n`, saturating.
fn binomial(n: usize, k: usize) -> usize {
    (0..k.min(n)).fold(1usize, |count, i| count.saturating_mul(n - i) / (i + 1))
}

/// Every other row with the fewest mismatches with `row`, counting mismatches until they pass
/// the fewest so far.
fn nominal_exhaustive(codes: &[u8], width: usize, row: usize) -> Vec<usize> {
    let query = &codes[row * width..(row + 1) * width];
    let mut best = usize::MAX;
    let mut rows = Vec::new();
    for (other, candidate) in codes.chunks_exact(width).enumerate() {
        if other == row {
            continue;
        }
        let mut differing = 0;
        for (a, b) in query.iter().zip(candidate) {
            differing += usize::from(a != b);
            if differing > best {
                break;
            }
        }
        if differing < best {
            best = differing;
            rows.clear();
            rows.push(other);
        } else if differing == best {
            rows.push(other);
        }
    }
    rows
}

/// A k-d tree over normalised numeric points (no missing values), for exact nearest-neighbour
/// search with the same tie rule as the exhaustive search.
struct KdTree {
    width: usize,
    /// The row at each position of the tree's order (a node holds a range of positions).
    order: Vec<usize>,
    /// The points of the leaves in tiles of [`LANES`] points (a leaf's last tile filled with
    /// infinities), each tile attribute by attribute: attribute `a` of the tile's point `i` at
    /// `a * LANES + i` from the tile's start.
    tiles: Vec<f64>,
    nodes: Vec<Node>,
    /// Sums a tile's distances.
    kernel: TileKernel,
}

enum Node {
    /// The positions `start..end`, whose tiles begin at `tile` (a value index into `tiles`).
    Leaf {
        start: usize,
        end: usize,
        tile: usize,
    },
    /// Left holds the positions whose coordinate `dimension` is at most `value`, right at least.
    Split {
        dimension: usize,
        value: f64,
        left: usize,
        right: usize,
    },
}

/// Points whose distances to a query are summed together (a leaf has at most this many, but
/// a leaf of equal points).
const LANES: usize = 16;

/// Attributes summed between two looks at whether a tile's points are all too far.
const ATTRIBUTES_PER_LOOK: usize = 8;

impl KdTree {
    /// Builds the tree over row-major points of `width` values each.
    fn build(points: &[f64], width: usize) -> KdTree {
        let n = points.len() / width;
        let mut tree = KdTree {
            width,
            order: (0..n).collect(),
            tiles: Vec::with_capacity(points.len() * 2),
            nodes: Vec::new(),
            kernel: tile_kernel(),
        };
        tree.build_node(points, 0, n);
        tree
    }

    /// Adds the node of positions `start..end` and those below it; returns its index.
    fn build_node(&mut self, points: &[f64], start: usize, end: usize) -> usize {
        let index = self.nodes.len();
        let width = self.width;
        let coordinate = |row: usize, dimension: usize| points[row * width + dimension];
        // Split on the dimension with the widest spread, at the median.
        let (mut dimension, mut widest) = (0, -1.0);
        for d in (0..width).filter(|_| end - start > LANES) {
            let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
            for &row in &self.order[start..end] {
                low = low.min(coordinate(row, d));
                high = high.max(coordinate(row, d));
            }
            if high - low > widest {
                widest = high - low;
                dimension = d;
            }
        }
        if widest <= 0.0 {
            let tile = self.tiles.len();
            for rows in self.order[start..end].chunks(LANES) {
                let first = self.tiles.len();
                self.tiles.resize(first + width * LANES, f64::INFINITY);
                for (lane, &row) in rows.iter().enumerate() {
                    for (attribute, &value) in points[row * width..][..width].iter().enumerate() {
                        self.tiles[first + attribute * LANES + lane] = value;
                    }
                }
            }
            self.nodes.push(Node::Leaf { start, end, tile });
            return index;
        }
        // The left half a whole number of tiles, so that only one leaf of the tree has a tile
        // not full.
        let middle = start + ((end - start) / 2).next_multiple_of(LANES);
        self.order[start..end].select_nth_unstable_by(middle - start, |&a, &b| {
            coordinate(a, dimension)
                .total_cmp(&coordinate(b, dimension))
                .then(a.cmp(&b))
        });
        let value = coordinate(self.order[middle], dimension);
        // A placeholder until the children are numbered.
        self.nodes.push(Node::Leaf {
            start,
            end,
            tile: 0,
        });
        let left = self.build_node(points, start, middle);
        let right = self.build_node(points, middle, end);
        self.nodes[index] = Node::Split {
            dimension,
            value,
            left,
            right,
        };
        index
    }

    /// The nearest rows of every row (ascending), each row's own point left out.
    fn all_nearest_tied(&self, points: &[f64]) -> Vec<Vec<usize>> {
        let mut tied = vec![Vec::new(); self.order.len()];
        let mut offsets = vec![0.0; self.width];
        for &row in &self.order {
            let mut best = Nearest::default();
            let values = &points[row * self.width..(row + 1) * self.width];
            self.search(0, &Query { values, row }, &mut offsets, 0.0, &mut best);
            best.rows.sort_unstable();
            tied[row] = best.rows;
        }
        tied
    }

    /// Searches below `node` for the query, whose cell is at squared distance at least `cell`
    /// (the query's squared `offsets` from the cell in each coordinate, summed): a node whose
    /// cell is further than the best by more than rounding could make up is skipped.
    fn search(
        &self,
        node: usize,
        query: &Query,
        offsets: &mut [f64],
        cell: f64,
        best: &mut Nearest,
    ) {
        match self.nodes[node] {
            Node::Leaf { start, end, tile } => {
                let rows = &self.order[start..end];
                let tiles =
                    &self.tiles[tile..tile + rows.len().div_ceil(LANES) * self.width * LANES];
                for (rows, tile) in rows
                    .chunks(LANES)
                    .zip(tiles.chunks_exact(self.width * LANES))
                {
                    // SAFETY: the kernel runs on this processor (`tile_kernel` checked).
                    let sums = unsafe { (self.kernel)(tile, query.values, best.distance) };
                    for (&row, &sum) in rows.iter().zip(&sums) {
                        if row != query.row {
                            best.offer(sum, row);
                        }
                    }
                }
            }
            Node::Split {
                dimension,
                value,
                left,
                right,
            } => {
                let gap = query.values[dimension] - value;
                let (near, far) = if gap < 0.0 {
                    (left, right)
                } else {
                    (right, left)
                };
                self.search(near, query, offsets, cell, best);
                let old = offsets[dimension];
                let far_cell = cell - old + gap * gap;
                if far_cell * CELL_SLACK <= best.distance {
                    offsets[dimension] = gap * gap;
                    self.search(far, query, offsets, far_cell, best);
                    offsets[dimension] = old;
                }
            }
        }
    }
}

/// A row searched for: its normalised values and its number (left out of its own neighbours).
struct Query<'a> {
    values: &'a [f64],
    row: usize,
}

/// A cell's squared distance is summed in another order than a point's (and partly subtracted),
/// so it is shrunk by far more than rounding could move either before being compared with the
/// best so far: a cell is skipped only when every point in it is further than the best.
const CELL_SLACK: f64 = 1.0 - 1e-9;

/// Sums the squared distances from a query to the points of a tile: [`tile_distances`],
/// compiled for the widest vector instructions the processor has.
type TileKernel = unsafe fn(&[f64], &[f64], f64) -> [f64; LANES];

/// The [`TileKernel`] for this processor: every one does the same operations in the same order
/// on each point (Rust never fuses a multiply and an add), so they give the same bits.
fn tile_kernel() -> TileKernel {
    #[cfg(target_arch = "x86_64")]
    {
        if vector_cap::allows(vector_cap::Level::Avx512)
            && std::arch::is_x86_feature_detected!("avx512f")
        {
            return tile_distances_avx512;
        }
        if vector_cap::allows(vector_cap::Level::Avx2)
            && std::arch::is_x86_feature_detected!("avx2")
        {
            return tile_distances_avx2;
        }
    }
    tile_distances
}

/// [`tile_distances`] compiled for AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn tile_distances_avx512(tile: &[f64], query: &[f64], bound: f64) -> [f64; LANES] {
    tile_distances(tile, query, bound)
}

/// [`tile_distances`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn tile_distances_avx2(tile: &[f64], query: &[f64], bound: f64) -> [f64; LANES] {
    tile_distances(tile, query, bound)
}

/// The squared distances from `query` to the [`LANES`] points of a tile, summed together
/// attribute by attribute (each point's sum in attribute order, as
/// [`Distance::squared_normalised_within`] sums it). Stops early once all are above `bound`:
/// the partial sums returned then are above it too.
#[inline(always)]
fn tile_distances(tile: &[f64], query: &[f64], bound: f64) -> [f64; LANES] {
    let mut sums = [0.0f64; LANES];
    let groups = tile.chunks(ATTRIBUTES_PER_LOOK * LANES);
    for (targets, columns) in query.chunks(ATTRIBUTES_PER_LOOK).zip(groups) {
        for (&target, column) in targets.iter().zip(columns.chunks_exact(LANES)) {
            for (sum, &value) in sums.iter_mut().zip(column) {
                let difference = target - value;
                *sum += difference * difference;
            }
        }
        if sums.iter().fold(true, |far, &sum| far & (sum > bound)) {
            break;
        }
    }
    sums
}
