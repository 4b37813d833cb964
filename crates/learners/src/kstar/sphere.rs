//! Sphere-of-influence sums for K*'s numeric attributes, computed fast.
//!
//! For a test value `x` and scale `s`, the root finder needs the sums over the distinct training
//! values `v` (weights `w`) of `w * r` and `w * r^2`, where `r = exp(-2 s (|v - x| - d))` is the
//! transformation probability relative to the one at the smallest distance `d`. Summing term by
//! term costs one `exp` per distinct value and root-finder step; instead:
//!
//! * terms with `2 s (|v - x| - d)` beyond a cutoff (at least 42, so each is below `e^-42` of the
//!   largest term; the cutoff grows with the total weight so that all of them together stay below
//!   `e^-42` of the sum) are left out, and the values left are found by binary search;
//! * the rest is split into the cells of a grid over the values: cells of width `c`, each the
//!   union of two cells of the level below, with the finest level fine enough for large scales.
//!   A cell wholly on one side of `x`, with centre `m`, contributes
//!   `exp(-2 s (|m - x| - d)) * sum w exp(-+2 s (v - m))`, and the second factor is a power series
//!   in `s` whose coefficients (the cell's weighted moments) are computed once per attribute. On
//!   the level where `2 s c <= 1`, twenty terms leave out less than `1e-17` of the cell's sum;
//!   far or light cells take fewer (whole blocks of four), as long as each leaves out at most
//!   `1e-19` of the lightest weight, a lower bound of the sums. Outwards from `x` each cell's
//!   first factor is its neighbour's times `exp(-2 s c)`, recomputed every sixteen cells;
//! * the cell holding `x` is split into its two halves down to the finest level, whose cell
//!   holding `x` is summed term by term, as are windows of few values.
//!
//! The sums so differ from the term-by-term ones by rounding only, so the root finder takes the
//! same steps. (Rounding the distances already makes each term uncertain by about
//! `2 s |v| 1e-16` relative, for either way of summing; in the tests the two agree within
//! 1e-13, and the root finder's decisions need about 1e-6.) Where the term-by-term sums of
//! Weka's form would underflow (the share of the nearest value below 1e-140, far from every
//! root-finder answer) the term-by-term formula is kept as is.
//!
//! Weka finds the smallest and next smallest distances by scanning the training rows in order
//! with a tolerance of 1e-5. When the three smallest distinct distances are more than twice the
//! tolerance apart the scan's result does not depend on the order and is read off the sorted
//! values; otherwise the rows are scanned as Weka scans them.

use std::ops::Range;

use super::{Sphere, DISTANCE_TOLERANCE};

/// Coefficients kept of each cell's power series.
const SERIES_LENGTH: usize = 20;
/// Most cells on the finest grid level (a power of two).
const MOST_FINEST_CELLS: usize = 1 << 14;
/// Error a grid cell's series may leave out, relative to the lightest weight.
const ALLOWED_PER_CELL: f64 = 1e-19;
/// A cell's factor is stepped from its neighbour's at most this many times in a row.
const FACTOR_RESTART: usize = 16;
/// Windows of at most this many distinct values are summed term by term.
const DIRECT_WINDOW: usize = 64;
/// Smallest cutoff of `2 s (distance - smallest distance)` beyond which terms are left out.
const SMALLEST_CUTOFF: f64 = 42.0;
/// The nearest value's share (probability over total weight) at which the fast sums are used;
/// outside it Weka's term-by-term sums of squares could underflow or overflow.
const SAFE_SHARES: std::ops::RangeInclusive<f64> = 1e-140..=1e140;

/// One numeric attribute's training values, summarised for the sphere sums of many test values.
pub(super) struct NumericSummary<'a> {
    /// Value of each training row (NaN = missing), in row order.
    row_values: &'a [f64],
    /// Instance weight of each training row.
    row_weights: &'a [f64],
    /// The distinct non-missing training values, ascending.
    values: &'a [f64],
    /// Total instance weight of each distinct value.
    weights: &'a [f64],
    /// Weight of the rows with a value, summed in row order (as Weka sums it).
    total: f64,
    /// Terms with `2 s (distance - smallest distance)` beyond this are left out.
    cutoff: f64,
    /// The moment grid, when there are enough distinct values for it to pay.
    grid: Option<MomentGrid>,
}

/// What the sphere sums need to know about one test value.
pub(super) struct TestPoint {
    /// The test value.
    value: f64,
    /// Smallest distance to a training value.
    nearest: f64,
    /// Largest distance to a training value.
    farthest: f64,
    /// The finest grid cell holding the test value (-1 below the values, the number of
    /// finest cells above them).
    cell: i64,
    /// Weka's smallest distance, next smallest distance and weight at the smallest distance;
    /// `None` when every training value is at the same distance.
    pub(super) neighbours: Option<Neighbours>,
}

/// The smallest distance, next smallest distance and the weight at the smallest, as Weka's scan
/// finds them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Neighbours {
    /// The smallest distance.
    pub(super) lowest: f64,
    /// The next smallest distance (more than the tolerance beyond the smallest).
    pub(super) next_lowest: f64,
    /// Weight of the rows counted at the smallest distance.
    pub(super) lowest_weight: f64,
}

impl<'a> NumericSummary<'a> {
    /// Summarises a column: its rows (`row_values` with NaN for missing, `row_weights`) and
    /// its distinct values with their total weights.
    pub(super) fn new(
        rows: (&'a [f64], &'a [f64]),
        distinct: (&'a [f64], &'a [f64]),
    ) -> NumericSummary<'a> {
        let (row_values, row_weights) = rows;
        let (values, weights) = distinct;
        let mut total = 0.0;
        for (&value, &weight) in row_values.iter().zip(row_weights) {
            if !value.is_nan() {
                total += weight;
            }
        }
        let lightest = weights.iter().copied().fold(f64::INFINITY, f64::min);
        let cutoff = SMALLEST_CUTOFF + (total / lightest).ln().max(0.0);
        let grid = if values.len() > DIRECT_WINDOW {
            MomentGrid::new(values, weights)
        } else {
            None
        };
        NumericSummary {
            row_values,
            row_weights,
            values,
            weights,
            total,
            cutoff,
            grid,
        }
    }

    /// Weight of the training rows with a value (Weka's total).
    pub(super) fn total(&self) -> f64 {
        self.total
    }

    /// Locates a test value among the training values. Needs at least one distinct value.
    pub(super) fn test_point(&self, value: f64) -> TestPoint {
        let values = self.values;
        let last = values.len() - 1;
        let farthest = (values[0] - value).abs().max((values[last] - value).abs());
        let cell = match &self.grid {
            Some(grid) => grid.cell_of_test_value(value, values[last]),
            None => 0,
        };
        let (nearest, sorted) = self.sorted_neighbours(value);
        let neighbours = match sorted {
            SortedNeighbours::Known(neighbours) => neighbours,
            SortedNeighbours::RowOrderMatters => self.scan_neighbours(value),
        };
        TestPoint {
            value,
            nearest,
            farthest,
            cell,
            neighbours,
        }
    }

    /// The smallest distance of a test value and Weka's neighbours read off the sorted values,
    /// when the three smallest distinct distances are far enough apart for the row order not to
    /// matter (see the module documentation).
    fn sorted_neighbours(&self, value: f64) -> (f64, SortedNeighbours) {
        let values = self.values;
        // The four smallest distances, merging the values below and above the test value.
        let mut above = values.partition_point(|&v| v < value);
        let mut below = above;
        let mut smallest = [(0.0, 0.0); 4];
        let mut found = 0;
        while found < smallest.len() && (below > 0 || above < values.len()) {
            let below_distance = below.checked_sub(1).map(|i| (values[i] - value).abs());
            let above_distance = values.get(above).map(|v| (v - value).abs());
            let index = match (below_distance, above_distance) {
                (Some(b), Some(a)) if b <= a => {
                    below -= 1;
                    below
                }
                (Some(_), None) => {
                    below -= 1;
                    below
                }
                _ => {
                    above += 1;
                    above - 1
                }
            };
            smallest[found] = ((values[index] - value).abs(), self.weights[index]);
            found += 1;
        }
        let nearest = smallest[0].0;
        if found == 1 {
            // One distinct value: Weka's scan finds no next smallest distance.
            return (nearest, SortedNeighbours::Known(None));
        }
        let tied_nearest = smallest[1].0 == nearest;
        let next = smallest[1].0;
        let after_next = smallest[2..found].iter().map(|s| s.0).find(|&d| d != next);
        let unknown_after_next = after_next.is_none() && found == smallest.len();
        let apart = |low: f64, high: f64| high - low > 2.0 * DISTANCE_TOLERANCE;
        let sorted = if !tied_nearest
            && !unknown_after_next
            && apart(nearest, next)
            && after_next.is_none_or(|d| apart(next, d))
        {
            SortedNeighbours::Known(Some(Neighbours {
                lowest: nearest,
                next_lowest: next,
                lowest_weight: smallest[0].1,
            }))
        } else {
            SortedNeighbours::RowOrderMatters
        };
        (nearest, sorted)
    }

    /// Weka's scan of the training rows in order for the smallest and next smallest distances,
    /// counting distances within the tolerance of the smallest as at the smallest.
    fn scan_neighbours(&self, test_value: f64) -> Option<Neighbours> {
        let mut lowest = -1.0;
        let mut next_lowest = -1.0;
        let mut lowest_weight = 0.0;
        for (&value, &weight) in self.row_values.iter().zip(self.row_weights) {
            if value.is_nan() {
                continue;
            }
            let distance = (value - test_value).abs();
            if distance + DISTANCE_TOLERANCE < next_lowest || next_lowest == -1.0 {
                if distance + DISTANCE_TOLERANCE < lowest || lowest == -1.0 {
                    next_lowest = lowest;
                    lowest = distance;
                    lowest_weight = weight;
                } else if (distance - lowest).abs() < DISTANCE_TOLERANCE {
                    lowest_weight += weight;
                } else {
                    next_lowest = distance;
                }
            }
        }
        if next_lowest == -1.0 || lowest == -1.0 {
            None
        } else {
            Some(Neighbours {
                lowest,
                next_lowest,
                lowest_weight,
            })
        }
    }

    /// The numeric sphere of influence of a test value at scale `scale`.
    pub(super) fn sphere(&self, point: &TestPoint, scale: f64) -> Sphere {
        let nearest_share = scale * (-2.0 * point.nearest * scale).exp() / self.total;
        if !SAFE_SHARES.contains(&nearest_share) {
            return self.term_by_term_sphere(point.value, scale);
        }
        // The transformation probability falls with the distance: the smallest is the farthest.
        let smallest = (scale * (-2.0 * point.farthest * scale).exp()).min(1.0);
        let (sum, square_sum) = self.relative_sums(point, scale);
        Sphere {
            size: if square_sum == 0.0 {
                0.0
            } else {
                sum * sum / square_sum
            },
            average: nearest_share * sum,
            smallest,
        }
    }

    /// The sphere summed term by term over the distinct values in Weka's form.
    fn term_by_term_sphere(&self, test_value: f64, scale: f64) -> Sphere {
        let mut sum = 0.0;
        let mut square_sum = 0.0;
        let mut smallest: f64 = 1.0;
        for (&value, &weight) in self.values.iter().zip(self.weights) {
            let distance = (value - test_value).abs();
            let probability = scale * (-2.0 * distance * scale).exp();
            smallest = smallest.min(probability);
            let share = probability / self.total;
            sum += weight * share;
            square_sum += weight * share * share;
        }
        Sphere::from_sums(sum, square_sum, smallest)
    }

    /// The sums of `w r` and `w r^2` over the distinct values, `r` the transformation
    /// probability relative to the nearest value's.
    fn relative_sums(&self, point: &TestPoint, scale: f64) -> (f64, f64) {
        let reach = point.nearest + self.cutoff / (2.0 * scale);
        let low = point.value - reach;
        let high = point.value + reach;
        let start = self.values.partition_point(|&v| v < low);
        let end = self.values.partition_point(|&v| v <= high);
        if end - start > DIRECT_WINDOW {
            if let Some(grid) = &self.grid {
                if let Some(level) = grid.level_for(scale) {
                    let mut sums = Sums::default();
                    grid.add_cells(point, scale, level, (low, high), &mut sums);
                    if let Some(cell) = grid.finest_cell_range(point.cell) {
                        self.add_terms(point, scale, cell, &mut sums);
                    }
                    return (sums.plain, sums.square);
                }
            }
        }
        let mut sums = Sums::default();
        self.add_terms(point, scale, start..end, &mut sums);
        (sums.plain, sums.square)
    }

    /// Adds the terms of the distinct values in `range` one by one.
    fn add_terms(&self, point: &TestPoint, scale: f64, range: Range<usize>, sums: &mut Sums) {
        for (&value, &weight) in self.values[range.clone()].iter().zip(&self.weights[range]) {
            let distance = (value - point.value).abs();
            let relative = (-2.0 * scale * (distance - point.nearest)).exp();
            sums.plain += weight * relative;
            sums.square += weight * relative * relative;
        }
    }
}

/// Weka's neighbours of a test value as far as the sorted values tell them.
#[derive(Clone, Copy, Debug, PartialEq)]
enum SortedNeighbours {
    /// The scan's result, whatever the row order.
    Known(Option<Neighbours>),
    /// Near ties: the result can depend on the row order.
    RowOrderMatters,
}

/// Running sums of `w r` and `w r^2`.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    plain: f64,
    square: f64,
}

/// Which side of the test value a cell lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Below,
    Above,
}

/// Grids of cells over the distinct values of one attribute, each cell with the coefficients of
/// its weights' power series `sum_k b_k t^k = sum w exp(t q)`, where `q = -2 (v - m) / c` lies in
/// [-1, 1] for a value `v` in a cell of centre `m` and width `c`.
///
/// Level 0 has `finest_cells` cells (a power of two) of width `(largest - smallest) /
/// finest_cells` from the smallest value; each level above halves the number of cells.
struct MomentGrid {
    /// Left edge of the first cell: the smallest value.
    origin: f64,
    /// Width of the finest cells.
    finest_width: f64,
    /// Number of finest cells (a power of two).
    finest_cells: usize,
    /// Per level, the series coefficients of each cell, `SERIES_LENGTH` per cell.
    coefficients: Vec<Vec<f64>>,
    /// Index of the first distinct value in each finest cell, then the number of values.
    finest_starts: Vec<usize>,
    /// One over the error a cell's series may leave out (`ALLOWED_PER_CELL` times the
    /// smallest weight of a distinct value).
    inverse_allowed: f64,
    /// Plain-series terms needed per binary exponent (see [`MomentGrid::terms_needed`]).
    plain_terms: Vec<u8>,
    /// Square-series terms needed per binary exponent.
    square_terms: Vec<u8>,
}

impl MomentGrid {
    /// The grid over ascending distinct values with their weights; `None` when the values span
    /// no width.
    fn new(values: &[f64], weights: &[f64]) -> Option<MomentGrid> {
        let origin = values[0];
        let largest = values[values.len() - 1];
        let range = largest - origin;
        let magnitude = origin.abs().max(largest.abs());
        if !(range > 0.0 && range.is_finite()) {
            return None;
        }
        // Cells much narrower than the values' rounding would misplace values.
        let mut finest_cells = values.len().next_power_of_two().min(MOST_FINEST_CELLS);
        while finest_cells > 1 && range / (finest_cells as f64) < magnitude * 1e-10 {
            finest_cells /= 2;
        }
        let finest_width = range / finest_cells as f64;
        if finest_width == 0.0 {
            return None;
        }
        let levels = finest_cells.trailing_zeros() as usize + 1;
        let mut grid = MomentGrid {
            origin,
            finest_width,
            finest_cells,
            coefficients: (0..levels)
                .map(|level| vec![0.0; (finest_cells >> level) * SERIES_LENGTH])
                .collect(),
            finest_starts: vec![0; finest_cells + 1],
            inverse_allowed: 1.0
                / (ALLOWED_PER_CELL * weights.iter().copied().fold(f64::INFINITY, f64::min)),
            plain_terms: terms_table(0.5f64.exp(), 0.5),
            square_terms: terms_table(1f64.exp(), 1.0),
        };
        for (&value, &weight) in values.iter().zip(weights) {
            let finest = grid.finest_cell(value);
            grid.finest_starts[finest + 1] += 1;
            for level in 0..levels {
                let cell = finest >> level;
                let ratio = -2.0 * (value - grid.center(level, cell)) / grid.width(level);
                let coefficients =
                    &mut grid.coefficients[level][cell * SERIES_LENGTH..][..SERIES_LENGTH];
                let mut term = weight;
                for (power, coefficient) in coefficients.iter_mut().enumerate() {
                    *coefficient += term;
                    term *= ratio / (power + 1) as f64;
                }
            }
        }
        for cell in 0..finest_cells {
            grid.finest_starts[cell + 1] += grid.finest_starts[cell];
        }
        Some(grid)
    }

    /// Width of the cells on a level.
    fn width(&self, level: usize) -> f64 {
        self.finest_width * (1u64 << level) as f64
    }

    /// Centre of a cell on a level.
    fn center(&self, level: usize, cell: usize) -> f64 {
        self.origin + (cell as f64 + 0.5) * self.width(level)
    }

    /// The finest cell of a training value (the largest value joins the last cell).
    fn finest_cell(&self, value: f64) -> usize {
        (((value - self.origin) / self.finest_width).floor() as usize).min(self.finest_cells - 1)
    }

    /// The finest cell of a test value: as a training value's within the values, -1 below
    /// them and `finest_cells` above.
    fn cell_of_test_value(&self, value: f64, largest: f64) -> i64 {
        if value < self.origin {
            -1
        } else if value > largest {
            self.finest_cells as i64
        } else {
            self.finest_cell(value) as i64
        }
    }

    /// The highest level whose cells are narrow enough for the series at this scale
    /// (`2 scale width <= 1`), if any.
    fn level_for(&self, scale: f64) -> Option<usize> {
        let levels = self.coefficients.len();
        (0..levels)
            .take_while(|&level| 2.0 * scale * self.width(level) <= 1.0)
            .last()
    }

    /// The distinct values of the finest cell holding the test value, if it lies among them.
    fn finest_cell_range(&self, cell: i64) -> Option<Range<usize>> {
        let cell = usize::try_from(cell)
            .ok()
            .filter(|&c| c < self.finest_cells)?;
        Some(self.finest_starts[cell]..self.finest_starts[cell + 1])
    }

    /// Adds the cells of `level` wholly below or above the test value that reach into
    /// `window`, then, level by level down to the finest, the other half of the cell holding
    /// the test value (whose finest cell is left to the caller).
    fn add_cells(
        &self,
        point: &TestPoint,
        scale: f64,
        level: usize,
        window: (f64, f64),
        sums: &mut Sums,
    ) {
        let cells = (self.finest_cells >> level) as i64;
        let width = self.width(level);
        let own = point.cell >> level;
        let cell_at = |value: f64| -> i64 {
            ((value - self.origin) / width)
                .floor()
                .clamp(-1.0, cells as f64) as i64
        };
        let first_below = cell_at(window.0).max(0);
        let below = (first_below..own.min(cells)).rev();
        self.add_run(point, scale, level, below, Side::Below, sums);
        let last_above = cell_at(window.1).min(cells - 1);
        let above = (own + 1).max(0)..=last_above;
        self.add_run(point, scale, level, above, Side::Above, sums);
        if (0..cells).contains(&own) {
            for lower in (0..level).rev() {
                let half = (point.cell >> lower) as usize;
                let other = half ^ 1;
                let side = if other > half {
                    Side::Above
                } else {
                    Side::Below
                };
                let factor = self.factor(point, scale, lower, other, side);
                self.add_cell(scale, (lower, other), side, factor, sums);
            }
        }
    }

    /// Adds `cells` of `level`, listed outwards from the test value on one side of it. Each
    /// cell's factor is the previous one's times `exp(-2 scale width)`, recomputed every few
    /// cells to keep the rounding small.
    fn add_run(
        &self,
        point: &TestPoint,
        scale: f64,
        level: usize,
        cells: impl Iterator<Item = i64>,
        side: Side,
        sums: &mut Sums,
    ) {
        let step_factor = (-2.0 * scale * self.width(level)).exp();
        let mut factor = 0.0;
        for (steps, cell) in cells.enumerate() {
            let cell = cell as usize;
            factor = if steps % FACTOR_RESTART == 0 {
                self.factor(point, scale, level, cell, side)
            } else {
                factor * step_factor
            };
            self.add_cell(scale, (level, cell), side, factor, sums);
        }
    }

    /// A cell's transformation probability at its centre relative to the nearest value's,
    /// `exp(-2 scale (|centre - x| - smallest distance))`.
    fn factor(&self, point: &TestPoint, scale: f64, level: usize, cell: usize, side: Side) -> f64 {
        let center = self.center(level, cell);
        let distance = match side {
            Side::Above => center - point.value,
            Side::Below => point.value - center,
        };
        (-2.0 * scale * (distance - point.nearest)).exp()
    }

    /// Adds one cell wholly on one side of the test value through its series, with as many
    /// terms as its factor and weight need (see [`MomentGrid::terms_needed`]).
    fn add_cell(
        &self,
        scale: f64,
        (level, cell): (usize, usize),
        side: Side,
        factor: f64,
        sums: &mut Sums,
    ) {
        let coefficients: &[f64; SERIES_LENGTH] = self.coefficients[level][cell * SERIES_LENGTH..]
            [..SERIES_LENGTH]
            .try_into()
            .unwrap();
        let weight = coefficients[0];
        let step = match side {
            Side::Above => scale * self.width(level),
            Side::Below => -scale * self.width(level),
        };
        // Whole blocks of four terms, each length with its own unrolled loop.
        let (plain, square) = match self.terms_needed(factor * weight, factor * factor * weight) {
            0 => return,
            1..=4 => series::<4>(coefficients, step),
            5..=8 => series::<8>(coefficients, step),
            9..=12 => series::<12>(coefficients, step),
            13..=16 => series::<16>(coefficients, step),
            _ => series::<SERIES_LENGTH>(coefficients, step),
        };
        sums.plain += factor * plain;
        sums.square += factor * factor * square;
    }

    /// Series terms a cell needs, given its weight times its factor and times its squared
    /// factor, so that each of its two sums leaves out at most `ALLOWED_PER_CELL` times the
    /// lightest weight (a lower bound of both sums: the nearest value contributes its weight).
    ///
    /// With `2 scale width <= 1` and coefficients `|b_k| <= weight / k!`, the plain series
    /// (at most 1/2 times the cell offsets) leaves out at most `weight 2^-n e^(1/2) / n!` after
    /// `n` terms and the square series at most `weight e / n!`; the tables hold the terms
    /// needed for each binary exponent of the weighted factor over the allowed error. Cells
    /// needing more than `SERIES_LENGTH` get that many, which leave out less than 1e-17 of
    /// their own sums.
    fn terms_needed(&self, weighted_factor: f64, weighted_square_factor: f64) -> usize {
        let exponent = |x: f64| ((x * self.inverse_allowed).to_bits() >> 52) as usize & 0x7ff;
        let plain = self.plain_terms[exponent(weighted_factor)];
        let square = self.square_terms[exponent(weighted_square_factor)];
        plain.max(square) as usize
    }
}

/// The terms needed for each biased binary exponent of `weighted factor / allowed error`, for
/// tails `tail(n) = first * ratio^n / n!` (see [`MomentGrid::terms_needed`]).
fn terms_table(first: f64, ratio: f64) -> Vec<u8> {
    let mut tails = [0.0; SERIES_LENGTH];
    let mut tail = first;
    for (terms, slot) in tails.iter_mut().enumerate() {
        *slot = tail;
        tail *= ratio / (terms + 1) as f64;
    }
    (0..2048)
        .map(|biased: i32| {
            // Numbers with this exponent are below 2^(biased - 1022).
            let bound = 2f64.powi(biased - 1022);
            tails.iter().filter(|&&tail| tail * bound > 1.0).count() as u8
        })
        .collect()
}

/// A cell's plain and square series (at `step` and `2 step`) with their first `TERMS` terms.
#[inline(always)]
fn series<const TERMS: usize>(coefficients: &[f64; SERIES_LENGTH], step: f64) -> (f64, f64) {
    let double_step = 2.0 * step;
    let mut plain = coefficients[TERMS - 1];
    let mut square = plain;
    for &coefficient in coefficients[..TERMS - 1].iter().rev() {
        plain = plain * step + coefficient;
        square = square * double_step + coefficient;
    }
    (plain, square)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift) for test data.
    struct Generator(u64);

    impl Generator {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn uniform(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Distinct ascending values with summed weights, as the model builds them.
    fn distinct(rows: &[f64], weights: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let mut pairs: Vec<(f64, f64)> = rows
            .iter()
            .zip(weights)
            .filter(|(v, _)| !v.is_nan())
            .map(|(&v, &w)| (v, w))
            .collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut values: Vec<f64> = Vec::new();
        let mut totals: Vec<f64> = Vec::new();
        for (value, weight) in pairs {
            if values.last() == Some(&value) {
                *totals.last_mut().unwrap() += weight;
            } else {
                values.push(value);
                totals.push(weight);
            }
        }
        (values, totals)
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance * a.abs().max(b.abs())
    }

    #[test]
    fn fast_sums_match_term_by_term_sums() {
        let mut generator = Generator(0x9e37_79b9_7f4a_7c15);
        // Skewed values with duplicates, rounded to four decimals as in real data.
        let rows: Vec<f64> = (0..3000)
            .map(|_| {
                let u = generator.uniform();
                ((u * u * u * 300.0 - 20.0) * 1e4).round() / 1e4
            })
            .collect();
        let weights: Vec<f64> = (0..rows.len())
            .map(|i| if i % 7 == 0 { 2.5 } else { 1.0 })
            .collect();
        let (values, totals) = distinct(&rows, &weights);
        let summary = NumericSummary::new((&rows, &weights), (&values, &totals));
        assert!(summary.grid.is_some());
        let mut tests: Vec<f64> = (0..60)
            .map(|_| generator.uniform() * 340.0 - 30.0)
            .collect();
        tests.extend([values[0], values[values.len() - 1], values[17], -20.0]);
        let mut grid_used = 0;
        for &test in &tests {
            let point = summary.test_point(test);
            for exponent in -8..=40 {
                let scale = 0.005 * 1.5f64.powi(exponent);
                let fast = summary.sphere(&point, scale);
                let plain = summary.term_by_term_sphere(test, scale);
                assert!(close(fast.size, plain.size, 1e-13), "{test} {scale}");
                assert!(close(fast.average, plain.average, 1e-13), "{test} {scale}");
                assert_eq!(fast.smallest, plain.smallest, "{test} {scale}");
                let reach = point.nearest + summary.cutoff / (2.0 * scale);
                let window = values
                    .iter()
                    .filter(|&&v| (v - test).abs() <= reach)
                    .count();
                if window > DIRECT_WINDOW
                    && summary.grid.as_ref().unwrap().level_for(scale).is_some()
                {
                    grid_used += 1;
                }
            }
        }
        assert!(grid_used > 1000, "{grid_used}");
    }

    #[test]
    fn neighbours_match_the_row_scan() {
        let mut generator = Generator(12345);
        let mut known = 0;
        let mut scanned = 0;
        for round in 0..200 {
            // Few values on a lattice with jitter around the tolerance, so that near ties are
            // common on the fine lattices and rare on the coarse; rows in random order, some
            // repeated, some missing.
            let lattice = [1e-5, 2e-5, 3e-5, 1e-4, 1e-3][round % 5];
            let jitter = [0.3e-5, 1e-5][round / 5 % 2];
            let rows: Vec<f64> = (0..40)
                .map(|_| {
                    if generator.next().is_multiple_of(10) {
                        f64::NAN
                    } else {
                        let step = (generator.next() % 12) as f64;
                        let jittered = generator.next().is_multiple_of(4);
                        let shift = if jittered { generator.next() % 3 } else { 0 };
                        step * lattice + shift as f64 * jitter
                    }
                })
                .collect();
            let weights: Vec<f64> = (0..rows.len())
                .map(|_| 0.5 + (generator.next() % 4) as f64 * 0.25)
                .collect();
            let (values, totals) = distinct(&rows, &weights);
            if values.is_empty() {
                continue;
            }
            let summary = NumericSummary::new((&rows, &weights), (&values, &totals));
            for _ in 0..20 {
                let test = if generator.next().is_multiple_of(2) {
                    (generator.next() % 28) as f64 * lattice * 0.5 - lattice
                } else {
                    (generator.uniform() * 14.0 - 1.0) * lattice
                };
                let scan = summary.scan_neighbours(test);
                match summary.sorted_neighbours(test).1 {
                    SortedNeighbours::Known(neighbours) => {
                        assert_eq!(neighbours, scan, "{test}");
                        known += 1;
                    }
                    SortedNeighbours::RowOrderMatters => scanned += 1,
                }
                assert_eq!(summary.test_point(test).neighbours, scan, "{test}");
            }
        }
        assert!(known > 500 && scanned > 500, "{known} {scanned}");
    }
}
