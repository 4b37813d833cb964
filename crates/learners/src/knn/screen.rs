//! The blocked screen: squared Euclidean distances of a block of queries to every training row
//! through ||a||^2 + ||b||^2 - 2ab (a cache-blocked matrix product on the numeric attributes)
//! plus the nominal mismatches, which picks, with a proven bound on its rounding error, the few
//! rows that can be among the nearest; [`super::search`] then computes their exact distances.

/// Training rows per panel of the product (one vector register of lanes or two).
const PANEL: usize = 8;

/// Queries whose products with one panel are accumulated together in registers (with AVX-512,
/// twelve independent chains of fused multiply-adds keep both units busy).
pub(crate) const QUERY_GROUP: usize = 12;

/// Panels of a tile: the query groups of a block all meet one tile while it is in cache.
const TILE_PANELS: usize = 32;

/// Numeric training values laid out for the product, their squared norms and the nominal
/// values, of complete training rows.
#[derive(Clone, Debug)]
pub(crate) struct BlockedScreen {
    /// The numeric attributes (numbers in the query's order).
    numeric_attributes: Vec<usize>,
    /// The nominal attributes (numbers in the query's order).
    nominal_attributes: Vec<usize>,
    /// Numeric values in panels of [`PANEL`] rows: attribute `j` of row `r` at
    /// `((r / PANEL) * width + j) * PANEL + r % PANEL`, rows past the end zero.
    panels: Vec<f64>,
    /// The computed squared norm of every row's numeric values (NaN past the last row, up to
    /// a whole panel).
    squared_norms: Vec<f64>,
    /// The largest of `squared_norms`.
    largest_squared_norm: f64,
    /// Nominal value indices in panels like `panels`: attribute `j` of row `r` at
    /// `((r / PANEL) * nominal count + j) * PANEL + r % PANEL`.
    nominal_values: Vec<f64>,
    /// Number of training rows.
    count: usize,
}

/// Per-query values of a group of queries prepared for the product.
pub(crate) struct ScreenQueries {
    /// Numeric values attribute-major: attribute `j` of query `q` at `j * QUERY_GROUP + q`
    /// (missing queries of a short group zero).
    numeric: Vec<f64>,
    /// Squared norms of the queries' numeric values.
    squared_norms: Vec<f64>,
    /// Nominal values, row-major.
    nominal: Vec<f64>,
    /// Number of queries (at most [`QUERY_GROUP`]).
    group: usize,
}

impl BlockedScreen {
    /// Lays out `count` complete scaled rows (row-major, `dimensions` values a row); `None`
    /// when a value is not finite (the error bound needs finite norms).
    pub(crate) fn new(
        rows: &[f64],
        dimensions: usize,
        count: usize,
        is_nominal: impl Fn(usize) -> bool,
    ) -> Option<Self> {
        if rows.iter().any(|value| !value.is_finite()) {
            return None;
        }
        let (nominal_attributes, numeric_attributes): (Vec<usize>, Vec<usize>) =
            (0..dimensions).partition(|&attribute| is_nominal(attribute));
        let width = numeric_attributes.len();
        let mut panels = vec![0.0; count.div_ceil(PANEL) * width * PANEL];
        let mut squared_norms = Vec::with_capacity(count);
        let nominal_width = nominal_attributes.len();
        let mut nominal_values = vec![0.0; count.div_ceil(PANEL) * nominal_width * PANEL];
        for (row_number, row) in rows.chunks_exact(dimensions.max(1)).take(count).enumerate() {
            let base = (row_number / PANEL) * width * PANEL + row_number % PANEL;
            for (j, &attribute) in numeric_attributes.iter().enumerate() {
                panels[base + j * PANEL] = row[attribute];
            }
            squared_norms.push(
                numeric_attributes
                    .iter()
                    .map(|&attribute| row[attribute] * row[attribute])
                    .sum(),
            );
            let nominal_base = (row_number / PANEL) * nominal_width * PANEL + row_number % PANEL;
            for (j, &attribute) in nominal_attributes.iter().enumerate() {
                nominal_values[nominal_base + j * PANEL] = row[attribute];
            }
        }
        let largest_squared_norm = squared_norms.iter().copied().fold(0.0, f64::max);
        // The places of the last panel past the rows: NaN, so that their distances, NaN too,
        // are never within a limit.
        squared_norms.resize(count.div_ceil(PANEL) * PANEL, f64::NAN);
        Some(BlockedScreen {
            numeric_attributes,
            nominal_attributes,
            panels,
            squared_norms,
            largest_squared_norm,
            nominal_values,
            count,
        })
    }

    /// Prepares up to [`QUERY_GROUP`] complete scaled queries; `None` when a value is not finite.
    pub(crate) fn queries(&self, queries: &[&[f64]]) -> Option<ScreenQueries> {
        if queries
            .iter()
            .any(|query| query.iter().any(|v| !v.is_finite()))
        {
            return None;
        }
        let width = self.numeric_attributes.len();
        let mut numeric = vec![0.0; width * QUERY_GROUP];
        for (q, query) in queries.iter().enumerate() {
            for (j, &attribute) in self.numeric_attributes.iter().enumerate() {
                numeric[j * QUERY_GROUP + q] = query[attribute];
            }
        }
        let squared_norms = queries
            .iter()
            .map(|query| {
                self.numeric_attributes
                    .iter()
                    .map(|&attribute| query[attribute] * query[attribute])
                    .sum()
            })
            .collect();
        let nominal = queries
            .iter()
            .flat_map(|query| {
                self.nominal_attributes
                    .iter()
                    .map(|&attribute| query[attribute])
            })
            .collect();
        Some(ScreenQueries {
            numeric,
            squared_norms,
            nominal,
            group: queries.len(),
        })
    }

    /// A bound on the difference between a screened distance of a query (squared norm
    /// `query_squared_norm`) and the exact distance as computed (either way round): both
    /// approximate the true sum with relative errors below `(n + 3) u` of the sum of the
    /// squared norms plus the nominal mismatches (n numeric attributes, u the unit roundoff
    /// 2^-53, every term non-negative but the product, whose terms are bounded by half the
    /// squared norms), and the computed norms are within the same relative error of the true
    /// ones; four times that, plus a margin for underflow, covers them with room to spare.
    pub(crate) fn error_bound(&self, query_squared_norm: f64) -> f64 {
        let terms = (self.numeric_attributes.len() + self.nominal_attributes.len() + 8) as f64;
        let scale =
            query_squared_norm + self.largest_squared_norm + self.nominal_attributes.len() as f64;
        4.0 * terms * f64::EPSILON * scale + 1e-290
    }

    /// The candidates of every query of some groups (as prepared by [`BlockedScreen::queries`]):
    /// `out[g * QUERY_GROUP + q]` for query `q` of group `g` (see [`Candidates`]; those of the
    /// unused places of short groups are left empty). The screened distances are made tile by
    /// tile and go straight to the queries' candidate lists. The products run on the widest
    /// vector instructions the processor has; whichever runs, the error bound holds.
    pub(crate) fn candidates(
        &self,
        groups: &[ScreenQueries],
        capacity: usize,
        out: &mut Vec<Candidates>,
    ) {
        out.resize_with(groups.len() * QUERY_GROUP, Candidates::default);
        for (number, queries) in groups.iter().enumerate() {
            for (q, candidates) in out[number * QUERY_GROUP..(number + 1) * QUERY_GROUP]
                .iter_mut()
                .enumerate()
            {
                let slack = if q < queries.group {
                    2.0 * self.error_bound(queries.squared_norms[q])
                } else {
                    0.0
                };
                candidates.start(capacity, slack);
            }
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the processor has AVX-512F (checked just above).
                return unsafe { self.select_avx512(groups, out) };
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the processor has AVX2 and FMA (checked just above).
                return unsafe { self.select_avx2(groups, out) };
            }
        }
        self.select_with(groups, out, products_portable)
    }

    /// [`BlockedScreen::select_with`] with the AVX-512 products, all compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn select_avx512(&self, groups: &[ScreenQueries], out: &mut [Candidates]) {
        self.select_with(groups, out, |p, q| products_avx512(p, q))
    }

    /// [`BlockedScreen::select_with`] with the AVX2 products, all compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn select_avx2(&self, groups: &[ScreenQueries], out: &mut [Candidates]) {
        self.select_with(groups, out, |p, q| products_avx2(p, q))
    }

    /// Every group against tiles of [`TILE_PANELS`] panels, tile by tile, the products of a
    /// group with a panel from `products` (see [`products_portable`]), turned into distances
    /// with the squared norms and the nominal mismatches and offered to the candidate lists.
    #[inline(always)]
    fn select_with(
        &self,
        groups: &[ScreenQueries],
        out: &mut [Candidates],
        products: impl Fn(&[f64], &[f64]) -> [[f64; PANEL]; QUERY_GROUP],
    ) {
        let width = self.numeric_attributes.len();
        let panel_count = self.count.div_ceil(PANEL);
        let mut tile_start = 0;
        while tile_start < panel_count {
            let tile_end = (tile_start + TILE_PANELS).min(panel_count);
            for (number, queries) in groups.iter().enumerate() {
                let out = &mut out[number * QUERY_GROUP..(number + 1) * QUERY_GROUP];
                for panel_number in tile_start..tile_end {
                    let panel = &self.panels
                        [panel_number * width * PANEL..(panel_number + 1) * width * PANEL];
                    let sums = products(panel, &queries.numeric);
                    self.panel_distances(queries, panel_number, &sums, out);
                }
            }
            tile_start = tile_end;
        }
    }

    /// Turns the products of a group of queries with one panel into screened distances and
    /// offers them to the queries' candidate lists.
    #[inline(always)]
    fn panel_distances(
        &self,
        queries: &ScreenQueries,
        panel_number: usize,
        sums: &[[f64; PANEL]; QUERY_GROUP],
        out: &mut [Candidates],
    ) {
        let nominal_width = self.nominal_attributes.len();
        let first = panel_number * PANEL;
        let norms: &[f64; PANEL] = self.squared_norms[first..first + PANEL]
            .try_into()
            .expect("norms are padded to whole panels");
        let nominal_panel = &self.nominal_values
            [panel_number * nominal_width * PANEL..(panel_number + 1) * nominal_width * PANEL];
        for ((q, sum), candidates) in sums.iter().enumerate().take(queries.group).zip(out) {
            let query_norm = queries.squared_norms[q];
            let mut distances = [0.0f64; PANEL];
            for lane in 0..PANEL {
                distances[lane] = (query_norm + norms[lane]) - 2.0 * sum[lane];
            }
            let query_nominal = &queries.nominal[q * nominal_width..(q + 1) * nominal_width];
            for (values, &query_value) in nominal_panel.chunks_exact(PANEL).zip(query_nominal) {
                for (distance, &value) in distances.iter_mut().zip(values) {
                    *distance += f64::from(u8::from(value != query_value));
                }
            }
            candidates.offer(first, &distances);
        }
    }
}

/// The rows of one query left in the race by their screened distances: every row whose
/// screened distance is at most the k-th smallest screened distance plus a slack (twice the
/// screen's error bound), in row order. The k-th smallest exact distance is within the bound
/// of the k-th screened one, so every row of the answer is among them.
#[derive(Default)]
pub(crate) struct Candidates {
    /// How many nearest the query wants.
    capacity: usize,
    /// Twice the error bound.
    slack: f64,
    /// The smallest screened distances so far (at most `capacity`), in increasing order.
    smallest: Vec<f64>,
    /// The largest screened distance that can still be a candidate: the `capacity`-th smallest
    /// so far plus the slack (infinite until `capacity` rows have been seen). It only falls.
    limit: f64,
    /// The rows offered within the limit of their time, with their screened distances.
    rows: Vec<(f64, u32)>,
}

impl Candidates {
    /// Empties the list for a query that wants `capacity` nearest rows.
    fn start(&mut self, capacity: usize, slack: f64) {
        self.capacity = capacity;
        self.slack = slack;
        self.smallest.clear();
        self.limit = f64::INFINITY;
        self.rows.clear();
    }

    /// Offers the screened distances of the rows of a panel from `first` on (NaN for places
    /// past the last row, which are never taken).
    #[inline(always)]
    fn offer(&mut self, first: usize, distances: &[f64; PANEL]) {
        // Usually none is within the limit: one vector compare says so.
        let limit = self.limit;
        if !distances.iter().fold(false, |any, &d| any | (d <= limit)) {
            return;
        }
        for (offset, &distance) in distances.iter().enumerate() {
            if distance <= self.limit {
                self.take(distance, (first + offset) as u32);
            }
        }
    }

    /// Keeps a row within the limit and lowers the limit when its distance is among the
    /// smallest.
    fn take(&mut self, distance: f64, row: u32) {
        self.rows.push((distance, row));
        if self.capacity == 0 {
            return;
        }
        if self.smallest.len() == self.capacity {
            if distance >= self.smallest[self.capacity - 1] {
                return;
            }
            self.smallest.pop();
        }
        let place = self
            .smallest
            .partition_point(|&smaller| smaller <= distance);
        self.smallest.insert(place, distance);
        if self.smallest.len() == self.capacity {
            self.limit = self.smallest[self.capacity - 1] + self.slack;
            if self.rows.len() >= 4 * self.capacity + 64 {
                let limit = self.limit;
                self.rows.retain(|&(distance, _)| distance <= limit);
            }
        }
    }

    /// The candidate rows, in increasing order.
    pub(crate) fn rows(&self) -> impl Iterator<Item = usize> + '_ {
        self.rows
            .iter()
            .filter(|&&(distance, _)| distance <= self.limit)
            .map(|&(_, row)| row as usize)
    }
}

/// The products of a group of queries (attribute-major, [`QUERY_GROUP`] values an attribute)
/// with a panel (attribute-major, [`PANEL`] values an attribute), accumulated attribute by
/// attribute.
fn products_portable(panel: &[f64], queries: &[f64]) -> [[f64; PANEL]; QUERY_GROUP] {
    let mut sums = [[0.0f64; PANEL]; QUERY_GROUP];
    for (values, query_values) in panel
        .chunks_exact(PANEL)
        .zip(queries.chunks_exact(QUERY_GROUP))
    {
        for (sum, &query_value) in sums.iter_mut().zip(query_values) {
            for (lane, &value) in sum.iter_mut().zip(values) {
                *lane += query_value * value;
            }
        }
    }
    sums
}

/// [`products_portable`] with AVX-512F fused multiply-adds: a register per query.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn products_avx512(panel: &[f64], queries: &[f64]) -> [[f64; PANEL]; QUERY_GROUP] {
    use std::arch::x86_64::{
        __m512d, _mm512_fmadd_pd, _mm512_loadu_pd, _mm512_set1_pd, _mm512_setzero_pd,
        _mm512_storeu_pd,
    };
    let width = panel.len() / PANEL;
    assert!(queries.len() >= width * QUERY_GROUP);
    let mut sums: [__m512d; QUERY_GROUP] = [_mm512_setzero_pd(); QUERY_GROUP];
    for attribute in 0..width {
        // SAFETY: `attribute * PANEL + PANEL <= panel.len()`.
        let values = unsafe { _mm512_loadu_pd(panel.as_ptr().add(attribute * PANEL)) };
        let query_values = &queries[attribute * QUERY_GROUP..(attribute + 1) * QUERY_GROUP];
        for (sum, &query_value) in sums.iter_mut().zip(query_values) {
            *sum = _mm512_fmadd_pd(_mm512_set1_pd(query_value), values, *sum);
        }
    }
    let mut out = [[0.0f64; PANEL]; QUERY_GROUP];
    for (row, sum) in out.iter_mut().zip(sums) {
        // SAFETY: a row holds PANEL = 8 values.
        unsafe { _mm512_storeu_pd(row.as_mut_ptr(), sum) };
    }
    out
}

/// Queries of [`products_avx2`]'s register tile: with two registers per query, six fill twelve
/// of AVX2's sixteen registers.
const AVX2_QUERIES: usize = 6;

/// [`products_portable`] with AVX2 fused multiply-adds: two registers per query, half of the
/// group at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn products_avx2(panel: &[f64], queries: &[f64]) -> [[f64; PANEL]; QUERY_GROUP] {
    use std::arch::x86_64::{
        __m256d, _mm256_fmadd_pd, _mm256_loadu_pd, _mm256_set1_pd, _mm256_setzero_pd,
        _mm256_storeu_pd,
    };
    let width = panel.len() / PANEL;
    assert!(queries.len() >= width * QUERY_GROUP);
    let mut out = [[0.0f64; PANEL]; QUERY_GROUP];
    for (half, out) in out.chunks_exact_mut(AVX2_QUERIES).enumerate() {
        let mut low: [__m256d; AVX2_QUERIES] = [_mm256_setzero_pd(); AVX2_QUERIES];
        let mut high: [__m256d; AVX2_QUERIES] = [_mm256_setzero_pd(); AVX2_QUERIES];
        for attribute in 0..width {
            // SAFETY: `attribute * PANEL + PANEL <= panel.len()`.
            let (low_values, high_values) = unsafe {
                let start = panel.as_ptr().add(attribute * PANEL);
                (_mm256_loadu_pd(start), _mm256_loadu_pd(start.add(4)))
            };
            let first = attribute * QUERY_GROUP + half * AVX2_QUERIES;
            let query_values = &queries[first..first + AVX2_QUERIES];
            for ((low, high), &query_value) in low.iter_mut().zip(&mut high).zip(query_values) {
                let broadcast = _mm256_set1_pd(query_value);
                *low = _mm256_fmadd_pd(broadcast, low_values, *low);
                *high = _mm256_fmadd_pd(broadcast, high_values, *high);
            }
        }
        for ((row, low), high) in out.iter_mut().zip(low).zip(high) {
            // SAFETY: a row holds PANEL = 8 values.
            unsafe {
                _mm256_storeu_pd(row.as_mut_ptr(), low);
                _mm256_storeu_pd(row.as_mut_ptr().add(4), high);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn candidates_are_the_rows_within_the_kth_smallest_plus_the_slack() {
        let mut generator = ChaCha8Rng::seed_from_u64(11);
        for (count, capacity, slack) in [(5, 1, 0.0), (40, 3, 0.5), (500, 21, 0.01), (64, 64, 0.0)]
        {
            // Coarse values, so that many tie.
            let distances: Vec<f64> = (0..count)
                .map(|_| f64::from(generator.random_range(0..30u8)) / 4.0)
                .collect();
            let mut candidates = Candidates::default();
            candidates.start(capacity, slack);
            for (panel, values) in distances.chunks(PANEL).enumerate() {
                let mut padded = [f64::NAN; PANEL];
                padded[..values.len()].copy_from_slice(values);
                candidates.offer(panel * PANEL, &padded);
            }
            let mut sorted = distances.clone();
            sorted.sort_by(f64::total_cmp);
            let threshold = sorted[capacity.min(count) - 1] + slack;
            let expected: Vec<usize> = (0..count).filter(|&r| distances[r] <= threshold).collect();
            assert_eq!(
                candidates.rows().collect::<Vec<_>>(),
                expected,
                "{count} {capacity}"
            );
        }
    }
}
