//! The blocked screen: squared Euclidean distances of a block of queries to every training row
//! through ||a||^2 + ||b||^2 - 2ab (a cache-blocked matrix product on the numeric attributes)
//! plus the nominal mismatches, which picks, with a proven bound on its rounding error, the few
//! rows that can be among the nearest; [`super::search`] then computes their exact distances.
//!
//! The product runs in single precision (sixteen lanes to a 512-bit register, half the fused
//! multiply-adds of double precision) on the values rounded to `f32`; the norms, the
//! distances and the bound stay in `f64`. The bound covers the rounding of the values to `f32`
//! and of the single-precision sums ([`BlockedScreen::error_bound`]), so the screen keeps
//! every row that can be among the nearest, as before: only more rows reach the exact check.

/// Training rows per panel of the product (one 512-bit register of `f32` lanes, or two 256-bit).
const PANEL: usize = 16;

/// The largest magnitude of a scaled numeric value the single-precision product takes: products
/// stay far from `f32`'s overflow and the bound's relative errors hold. Training values are
/// scaled to [0, 1]; a query beyond it is searched without the screen.
const LARGEST_VALUE: f64 = 4_294_967_296.0;

/// The most numeric attributes the single-precision bound is written for (`n u` well below 1).
const MOST_ATTRIBUTES: usize = 1 << 16;

/// Queries whose products with one panel are accumulated together in registers (with AVX-512,
/// twelve independent chains of fused multiply-adds keep both units busy).
pub(crate) const QUERY_GROUP: usize = 12;

/// Panels of a tile: the query groups of a block all meet one tile while it is in cache.
const TILE_PANELS: usize = 32;

/// Panels one call of a product kernel covers: with AVX-512, a group's twelve queries times two
/// panels are 24 registers of sums, two fused multiply-adds for each value loaded.
const PANELS_PER_CALL: usize = 2;

/// The products of a group of queries with [`PANELS_PER_CALL`] panels, one array per panel.
type PanelProducts = [[[f32; PANEL]; QUERY_GROUP]; PANELS_PER_CALL];

/// Numeric training values laid out for the product, their squared norms and the nominal
/// values, of complete training rows.
#[derive(Clone, Debug)]
pub(crate) struct BlockedScreen {
    /// The numeric attributes (numbers in the query's order).
    numeric_attributes: Vec<usize>,
    /// The nominal attributes (numbers in the query's order).
    nominal_attributes: Vec<usize>,
    /// Numeric values rounded to `f32`, in panels of [`PANEL`] rows: attribute `j` of row `r`
    /// at `((r / PANEL) * width + j) * PANEL + r % PANEL`, rows past the end zero (up to a
    /// whole number of [`PANELS_PER_CALL`] panels).
    panels: Vec<f32>,
    /// The computed squared norm of every row's numeric values (NaN past the last row, up to
    /// the end of the last panel).
    squared_norms: Vec<f64>,
    /// The largest of `squared_norms`.
    largest_squared_norm: f64,
    /// Nominal value indices in panels like `panels`: attribute `j` of row `r` at
    /// `((r / PANEL) * nominal count + j) * PANEL + r % PANEL`.
    nominal_values: Vec<f64>,
}

/// Per-query values of a group of queries prepared for the product.
pub(crate) struct ScreenQueries {
    /// Numeric values rounded to `f32`, attribute-major: attribute `j` of query `q` at
    /// `j * QUERY_GROUP + q` (missing queries of a short group zero).
    numeric: Vec<f32>,
    /// Squared norms of the queries' numeric values.
    squared_norms: Vec<f64>,
    /// Nominal values, row-major.
    nominal: Vec<f64>,
    /// Number of queries (at most [`QUERY_GROUP`]).
    group: usize,
}

impl BlockedScreen {
    /// Lays out `count` complete scaled rows (row-major, `dimensions` values a row); `None`
    /// when a value is not finite (the error bound needs finite norms), a numeric value is
    /// beyond [`LARGEST_VALUE`] or there are [`MOST_ATTRIBUTES`] numeric attributes or more.
    pub(crate) fn new(
        rows: &[f64],
        dimensions: usize,
        count: usize,
        is_nominal: impl Fn(usize) -> bool,
    ) -> Option<Self> {
        let (nominal_attributes, numeric_attributes): (Vec<usize>, Vec<usize>) =
            (0..dimensions).partition(|&attribute| is_nominal(attribute));
        let width = numeric_attributes.len();
        if width >= MOST_ATTRIBUTES {
            return None;
        }
        let panel_count = count.div_ceil(PANEL).next_multiple_of(PANELS_PER_CALL);
        let mut panels = vec![0.0f32; panel_count * width * PANEL];
        let mut squared_norms = Vec::with_capacity(panel_count * PANEL);
        let nominal_width = nominal_attributes.len();
        let mut nominal_values = vec![0.0; panel_count * nominal_width * PANEL];
        // One pass: the values laid out, each row's norm, and whether every value is finite
        // and every numeric one within range (else no screen).
        let mut usable = true;
        if width == 0 {
            squared_norms.resize(count, std::iter::empty::<f64>().sum());
        } else {
            let rows_in_panels = rows[..count * dimensions].chunks(dimensions * PANEL);
            for (panel, panel_rows) in panels.chunks_exact_mut(width * PANEL).zip(rows_in_panels) {
                let norms = panel_norms(panel, panel_rows, dimensions, &numeric_attributes);
                usable &= norms.is_some();
                squared_norms.extend(norms.unwrap_or_default());
            }
            squared_norms.truncate(count);
        }
        for (row_number, row) in rows.chunks_exact(dimensions.max(1)).take(count).enumerate() {
            let nominal_base = (row_number / PANEL) * nominal_width * PANEL + row_number % PANEL;
            for (j, &attribute) in nominal_attributes.iter().enumerate() {
                let value = row[attribute];
                usable &= value.is_finite();
                nominal_values[nominal_base + j * PANEL] = value;
            }
        }
        // NaN fails `abs() <= LARGEST_VALUE` as infinities do; the values past `count` rows
        // are never read by the screen but must be finite as before.
        let rest = rows.get(count * dimensions..).unwrap_or(&[]);
        if !usable || rest.iter().any(|value| !value.is_finite()) {
            return None;
        }
        let largest_squared_norm = squared_norms.iter().copied().fold(0.0, f64::max);
        // The places of the last panels past the rows: NaN, so that their distances, NaN too,
        // are never within a limit.
        squared_norms.resize(panel_count * PANEL, f64::NAN);
        Some(BlockedScreen {
            numeric_attributes,
            nominal_attributes,
            panels,
            squared_norms,
            largest_squared_norm,
            nominal_values,
        })
    }

    /// Prepares up to [`QUERY_GROUP`] complete scaled queries; `None` when a value is not finite
    /// or a numeric value is beyond [`LARGEST_VALUE`].
    pub(crate) fn queries(&self, queries: &[&[f64]]) -> Option<ScreenQueries> {
        let out_of_range = |query: &&[f64]| {
            query.iter().any(|v| !v.is_finite())
                || self
                    .numeric_attributes
                    .iter()
                    .any(|&attribute| query[attribute].abs() > LARGEST_VALUE)
        };
        if queries.iter().any(out_of_range) {
            return None;
        }
        let width = self.numeric_attributes.len();
        let mut numeric = vec![0.0f32; width * QUERY_GROUP];
        for (q, query) in queries.iter().enumerate() {
            for (j, &attribute) in self.numeric_attributes.iter().enumerate() {
                numeric[j * QUERY_GROUP + q] = query[attribute] as f32;
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
    /// `query_squared_norm`) and the exact distance as computed (either way round).
    ///
    /// The single-precision product: each value rounded to `f32` moves by at most `u |x|`
    /// (u = 2^-24, the values being normal and at most [`LARGEST_VALUE`]), so the product of
    /// the rounded values is within `(2u + u^2)` of `sum |a_i b_i|` of the true one, and their
    /// sum in `f32`, in any order, with or without fused multiply-adds, within
    /// `gamma_n (1 + u)^2 sum |a_i b_i|` (gamma_n = n u / (1 - n u), n numeric attributes).
    /// Since `sum |a_i b_i| <= (|a|^2 + |b|^2) / 2` and the distance takes twice the product,
    /// the screened distance is off by at most `(n + 2) u (1 + 0.005)` times the sum of the
    /// squared norms (n below [`MOST_ATTRIBUTES`], so `n u < 2^-8`); `(n + 4) 2u` covers that
    /// twice over.
    /// The double-precision rest: the norms, the sums and the exact distance as computed
    /// approximate theirs with relative errors below `(n + 3) 2^-53` of the squared norms plus
    /// the nominal mismatches (every term non-negative but the product), so four times that
    /// covers them with room to spare. The last term is a margin for values and products
    /// below `f32`'s normal range (an absolute error of 2^-149 at most per value, times a value
    /// of at most [`LARGEST_VALUE`]) and for underflow in `f64`.
    pub(crate) fn error_bound(&self, query_squared_norm: f64) -> f64 {
        let numeric = self.numeric_attributes.len() as f64;
        let terms = (self.numeric_attributes.len() + self.nominal_attributes.len() + 8) as f64;
        let scale =
            query_squared_norm + self.largest_squared_norm + self.nominal_attributes.len() as f64;
        let single = (numeric + 4.0) * f64::from(f32::EPSILON);
        let double = 4.0 * terms * f64::EPSILON;
        (single + double) * scale + (numeric + 1.0) * 1e-30
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
        self.start_candidates(groups, capacity, out);
        #[cfg(target_arch = "x86_64")]
        {
            if vector_cap::allows(vector_cap::Level::Avx512)
                && std::arch::is_x86_feature_detected!("avx512f")
            {
                // SAFETY: the processor has AVX-512F (checked just above).
                return unsafe { self.select_avx512(groups, out) };
            }
            if vector_cap::allows(vector_cap::Level::Avx2)
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the processor has AVX2 and FMA (checked just above).
                return unsafe { self.select_avx2(groups, out) };
            }
        }
        self.select_with(groups, out, |p, q| panel_by_panel(p, q, products_portable))
    }

    /// Empty candidate lists for every place of some groups, each with its query's slack.
    fn start_candidates(
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
        self.select_with(groups, out, |p, q| {
            panel_by_panel(p, q, |p, q| products_avx2(p, q))
        })
    }

    /// Every group against tiles of [`TILE_PANELS`] panels, tile by tile, the products of a
    /// group with [`PANELS_PER_CALL`] panels at a time from `products` (see
    /// [`products_portable`]), turned into distances with the squared norms and the nominal
    /// mismatches and offered to the candidate lists.
    #[inline(always)]
    fn select_with(
        &self,
        groups: &[ScreenQueries],
        out: &mut [Candidates],
        products: impl Fn(&[f32], &[f32]) -> PanelProducts,
    ) {
        let width = self.numeric_attributes.len();
        let panel_count = self.squared_norms.len() / PANEL;
        let mut tile_start = 0;
        while tile_start < panel_count {
            let tile_end = (tile_start + TILE_PANELS).min(panel_count);
            for (number, queries) in groups.iter().enumerate() {
                let out = &mut out[number * QUERY_GROUP..(number + 1) * QUERY_GROUP];
                for first_panel in (tile_start..tile_end).step_by(PANELS_PER_CALL) {
                    let panels = &self.panels[first_panel * width * PANEL
                        ..(first_panel + PANELS_PER_CALL) * width * PANEL];
                    let products = products(panels, &queries.numeric);
                    for (offset, sums) in products.iter().enumerate() {
                        self.panel_distances(queries, first_panel + offset, sums, out);
                    }
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
        sums: &[[f32; PANEL]; QUERY_GROUP],
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
                distances[lane] = (query_norm + norms[lane]) - 2.0 * f64::from(sum[lane]);
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

/// Lays out the rows of one panel (up to [`PANEL`] rows of `dimensions` values, row-major) into
/// `panel` (their `numeric_attributes` rounded to `f32`, attribute-major) and gives each row's
/// squared norm over those attributes, summed in their order as a row's sum would be (the
/// places past the last row 0); `None` when a numeric value is beyond [`LARGEST_VALUE`] or NaN.
/// Every row's sum is a separate chain, so the rows' additions overlap.
fn panel_norms(
    panel: &mut [f32],
    rows: &[f64],
    dimensions: usize,
    numeric_attributes: &[usize],
) -> Option<[f64; PANEL]> {
    let present = rows.len() / dimensions.max(1);
    let mut norms = [0.0f64; PANEL];
    let mut usable = true;
    for (values, &attribute) in panel.chunks_exact_mut(PANEL).zip(numeric_attributes) {
        for lane in 0..present {
            let value = rows[lane * dimensions + attribute];
            usable &= value.abs() <= LARGEST_VALUE;
            values[lane] = value as f32;
            norms[lane] += value * value;
        }
    }
    usable.then_some(norms)
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
/// attribute in `f32`.
fn products_portable(panel: &[f32], queries: &[f32]) -> [[f32; PANEL]; QUERY_GROUP] {
    let mut sums = [[0.0f32; PANEL]; QUERY_GROUP];
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

/// The products of a group of queries with [`PANELS_PER_CALL`] consecutive panels, one panel at
/// a time by `single` (a kernel of one panel, such as [`products_portable`]).
#[inline(always)]
fn panel_by_panel(
    panels: &[f32],
    queries: &[f32],
    single: impl Fn(&[f32], &[f32]) -> [[f32; PANEL]; QUERY_GROUP],
) -> PanelProducts {
    let size = panels.len() / PANELS_PER_CALL;
    std::array::from_fn(|offset| single(&panels[offset * size..(offset + 1) * size], queries))
}

/// [`products_portable`] of [`PANELS_PER_CALL`] = 2 consecutive panels with AVX-512F fused
/// multiply-adds: a register of sixteen lanes per query and panel, each lane's sum accumulated
/// in the same order as the portable kernel's.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn products_avx512(panels: &[f32], queries: &[f32]) -> PanelProducts {
    use std::arch::x86_64::{
        __m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps,
        _mm512_storeu_ps,
    };
    let width = panels.len() / (PANELS_PER_CALL * PANEL);
    assert!(PANELS_PER_CALL == 2 && queries.len() >= width * QUERY_GROUP);
    let (first, second) = panels.split_at(width * PANEL);
    let mut low: [__m512; QUERY_GROUP] = [_mm512_setzero_ps(); QUERY_GROUP];
    let mut high: [__m512; QUERY_GROUP] = [_mm512_setzero_ps(); QUERY_GROUP];
    for attribute in 0..width {
        // SAFETY: `attribute * PANEL + PANEL <= width * PANEL`, each half's length.
        let (low_values, high_values) = unsafe {
            (
                _mm512_loadu_ps(first.as_ptr().add(attribute * PANEL)),
                _mm512_loadu_ps(second.as_ptr().add(attribute * PANEL)),
            )
        };
        let query_values = &queries[attribute * QUERY_GROUP..(attribute + 1) * QUERY_GROUP];
        for ((low, high), &query_value) in low.iter_mut().zip(&mut high).zip(query_values) {
            let broadcast = _mm512_set1_ps(query_value);
            *low = _mm512_fmadd_ps(broadcast, low_values, *low);
            *high = _mm512_fmadd_ps(broadcast, high_values, *high);
        }
    }
    let mut out = [[[0.0f32; PANEL]; QUERY_GROUP]; PANELS_PER_CALL];
    for (panel, sums) in out.iter_mut().zip([low, high]) {
        for (row, sum) in panel.iter_mut().zip(sums) {
            // SAFETY: a row holds PANEL = 16 values.
            unsafe { _mm512_storeu_ps(row.as_mut_ptr(), sum) };
        }
    }
    out
}

/// Queries of [`products_avx2`]'s register tile: with two registers per query, six fill twelve
/// of AVX2's sixteen registers.
const AVX2_QUERIES: usize = 6;

/// [`products_portable`] with AVX2 fused multiply-adds: two registers of eight lanes per query,
/// half of the group at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn products_avx2(panel: &[f32], queries: &[f32]) -> [[f32; PANEL]; QUERY_GROUP] {
    use std::arch::x86_64::{
        __m256, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_set1_ps, _mm256_setzero_ps,
        _mm256_storeu_ps,
    };
    let width = panel.len() / PANEL;
    assert!(queries.len() >= width * QUERY_GROUP);
    let mut out = [[0.0f32; PANEL]; QUERY_GROUP];
    for (half, out) in out.chunks_exact_mut(AVX2_QUERIES).enumerate() {
        let mut low: [__m256; AVX2_QUERIES] = [_mm256_setzero_ps(); AVX2_QUERIES];
        let mut high: [__m256; AVX2_QUERIES] = [_mm256_setzero_ps(); AVX2_QUERIES];
        for attribute in 0..width {
            // SAFETY: `attribute * PANEL + PANEL <= panel.len()`.
            let (low_values, high_values) = unsafe {
                let start = panel.as_ptr().add(attribute * PANEL);
                (_mm256_loadu_ps(start), _mm256_loadu_ps(start.add(8)))
            };
            let first = attribute * QUERY_GROUP + half * AVX2_QUERIES;
            let query_values = &queries[first..first + AVX2_QUERIES];
            for ((low, high), &query_value) in low.iter_mut().zip(&mut high).zip(query_values) {
                let broadcast = _mm256_set1_ps(query_value);
                *low = _mm256_fmadd_ps(broadcast, low_values, *low);
                *high = _mm256_fmadd_ps(broadcast, high_values, *high);
            }
        }
        for ((row, low), high) in out.iter_mut().zip(low).zip(high) {
            // SAFETY: a row holds PANEL = 16 values.
            unsafe {
                _mm256_storeu_ps(row.as_mut_ptr(), low);
                _mm256_storeu_ps(row.as_mut_ptr().add(8), high);
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

    /// A value of the screen's tests: mostly uniform on [0, 1], sometimes a value below `f32`'s
    /// normal range, an end of the range, or (for queries) far outside it.
    fn awkward_value(generator: &mut ChaCha8Rng, query: bool) -> f64 {
        match generator.random_range(0..20u8) {
            0 => 1e-39 * generator.random::<f64>(),
            1 => 1e-300,
            2 => 0.0,
            3 => 1.0,
            4 if query => LARGEST_VALUE * generator.random::<f64>(),
            5 if query => -3.0 * generator.random::<f64>(),
            _ => generator.random::<f64>(),
        }
    }

    #[test]
    fn single_precision_screen_keeps_every_row_as_near_as_the_kth() {
        let mut generator = ChaCha8Rng::seed_from_u64(41);
        for (count, numeric, nominal, k) in [(300, 57, 0, 5), (257, 60, 3, 21), (40, 50, 1, 1)] {
            let dimensions = numeric + nominal;
            let is_nominal = |attribute: usize| attribute >= numeric;
            // A base row and near copies of it (differences of about 1e-9, which single
            // precision cannot see), then random rows.
            let base: Vec<f64> = (0..numeric).map(|_| generator.random::<f64>()).collect();
            let mut rows = Vec::with_capacity(count * dimensions);
            for row in 0..count {
                for &centre in &base {
                    rows.push(if row < 30 {
                        (centre + 1e-9 * generator.random::<f64>()).min(1.0)
                    } else {
                        awkward_value(&mut generator, false)
                    });
                }
                for _ in 0..nominal {
                    rows.push(f64::from(generator.random_range(0..3u8)));
                }
            }
            let screen = BlockedScreen::new(&rows, dimensions, count, is_nominal)
                .expect("finite values in range");
            let queries: Vec<Vec<f64>> = (0..2 * QUERY_GROUP)
                .map(|q| {
                    (0..dimensions)
                        .map(|attribute| match attribute {
                            a if is_nominal(a) => f64::from(generator.random_range(0..3u8)),
                            a if q % 3 == 0 => base[a],
                            _ => awkward_value(&mut generator, true),
                        })
                        .collect()
                })
                .collect();
            let groups: Vec<ScreenQueries> = queries
                .chunks(QUERY_GROUP)
                .map(|group| {
                    let views: Vec<&[f64]> = group.iter().map(Vec::as_slice).collect();
                    screen.queries(&views).expect("queries in range")
                })
                .collect();
            for out in every_kernel(&screen, &groups, k) {
                check_kept(&rows, dimensions, &queries, &out, k, is_nominal);
            }
        }
    }

    /// The candidates of some groups by each product kernel the processor runs.
    fn every_kernel(
        screen: &BlockedScreen,
        groups: &[ScreenQueries],
        k: usize,
    ) -> Vec<Vec<Candidates>> {
        let mut outs = Vec::new();
        let mut out = Vec::new();
        screen.start_candidates(groups, k, &mut out);
        screen.select_with(groups, &mut out, |p, q| {
            panel_by_panel(p, q, products_portable)
        });
        outs.push(out);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                let mut out = Vec::new();
                screen.start_candidates(groups, k, &mut out);
                // SAFETY: the processor has AVX2 and FMA (checked just above).
                unsafe { screen.select_avx2(groups, &mut out) };
                outs.push(out);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                let mut out = Vec::new();
                screen.start_candidates(groups, k, &mut out);
                // SAFETY: the processor has AVX-512F (checked just above).
                unsafe { screen.select_avx512(groups, &mut out) };
                outs.push(out);
            }
        }
        outs
    }

    /// Asserts that every row as near to a query as its k-th nearest (by the exact distance)
    /// is among its candidates.
    fn check_kept(
        rows: &[f64],
        dimensions: usize,
        queries: &[Vec<f64>],
        out: &[Candidates],
        k: usize,
        is_nominal: impl Fn(usize) -> bool,
    ) {
        let count = rows.len() / dimensions;
        for (q, query) in queries.iter().enumerate() {
            let exact: Vec<f64> = rows
                .chunks_exact(dimensions)
                .map(|row| {
                    row.iter()
                        .zip(query)
                        .enumerate()
                        .map(|(a, (x, y))| match a {
                            a if is_nominal(a) => f64::from(u8::from(x != y)),
                            _ => (x - y) * (x - y),
                        })
                        .sum()
                })
                .collect();
            let mut sorted = exact.clone();
            sorted.sort_by(f64::total_cmp);
            let kth = sorted[k - 1];
            let kept: Vec<usize> = out[q].rows().collect();
            for row in (0..count).filter(|&row| exact[row] <= kth) {
                assert!(
                    kept.contains(&row),
                    "query {q}: row {row} lost ({count} rows)"
                );
            }
        }
    }

    #[test]
    fn values_beyond_the_single_precision_range_are_not_screened() {
        let rows = [0.5, LARGEST_VALUE * 2.0, 0.25, 0.75];
        assert!(BlockedScreen::new(&rows, 2, 2, |_| false).is_none());
        let screen =
            BlockedScreen::new(&[0.5, 0.25, 0.75, 1.0], 2, 2, |_| false).expect("values in range");
        assert!(screen.queries(&[&[0.5, -LARGEST_VALUE * 2.0]]).is_none());
        assert!(screen.queries(&[&[0.5, LARGEST_VALUE]]).is_some());
    }

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
