//! The blocked screen: squared Euclidean distances of a block of queries to every training row
//! through ||a||^2 + ||b||^2 - 2ab (a cache-blocked matrix product on the numeric attributes)
//! plus the nominal mismatches, which picks, with a proven bound on its rounding error, the few
//! rows that can be among the nearest; [`super::search`] then computes their exact distances.

/// Training rows per panel of the product (one vector register of lanes or two).
const PANEL: usize = 8;

/// Queries whose products with one panel are accumulated together in registers.
pub(crate) const QUERY_GROUP: usize = 6;

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
    /// The computed squared norm of every row's numeric values.
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

impl ScreenQueries {
    /// The computed squared norm of the numeric values of query `position` of the group.
    pub(crate) fn squared_norm(&self, position: usize) -> f64 {
        self.squared_norms[position]
    }
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

    /// Number of training rows.
    pub(crate) fn len(&self) -> usize {
        self.count
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

    /// The screened distances of groups of queries (as prepared by [`BlockedScreen::queries`])
    /// to every training row: `out[(g * QUERY_GROUP + q) * len + r]` for query `q` of group `g`
    /// and row `r` (unused places of short groups zero). The products run on the widest vector
    /// instructions the processor has; whichever runs, the error bound holds.
    pub(crate) fn distances(&self, groups: &[ScreenQueries], out: &mut Vec<f64>) {
        out.clear();
        out.resize(groups.len() * QUERY_GROUP * self.count, 0.0);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the processor has AVX-512F (checked just above).
                return unsafe { self.distances_with(groups, out, |p, q| products_avx512(p, q)) };
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the processor has AVX2 and FMA (checked just above).
                return unsafe { self.distances_with(groups, out, |p, q| products_avx2(p, q)) };
            }
        }
        self.distances_with(groups, out, products_portable)
    }

    /// Every group against tiles of [`TILE_PANELS`] panels, tile by tile, the products of a
    /// group with a panel from `products` (see [`products_portable`]), then turned into
    /// distances with the squared norms and the nominal mismatches.
    fn distances_with(
        &self,
        groups: &[ScreenQueries],
        out: &mut [f64],
        products: impl Fn(&[f64], &[f64]) -> [[f64; PANEL]; QUERY_GROUP],
    ) {
        let width = self.numeric_attributes.len();
        let panel_count = self.count.div_ceil(PANEL);
        let mut tile_start = 0;
        while tile_start < panel_count {
            let tile_end = (tile_start + TILE_PANELS).min(panel_count);
            for (number, queries) in groups.iter().enumerate() {
                let out = &mut out[number * QUERY_GROUP * self.count..];
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

    /// Turns the products of a group of queries with one panel into screened distances.
    fn panel_distances(
        &self,
        queries: &ScreenQueries,
        panel_number: usize,
        sums: &[[f64; PANEL]; QUERY_GROUP],
        out: &mut [f64],
    ) {
        let nominal_width = self.nominal_attributes.len();
        let first = panel_number * PANEL;
        let rows = PANEL.min(self.count - first);
        let norms = &self.squared_norms[first..first + rows];
        let nominal_panel = &self.nominal_values
            [panel_number * nominal_width * PANEL..(panel_number + 1) * nominal_width * PANEL];
        for (q, sum) in sums.iter().enumerate().take(queries.group) {
            let query_norm = queries.squared_norms[q];
            let mut distances = [0.0f64; PANEL];
            for ((distance, &product), &norm) in distances.iter_mut().zip(sum).zip(norms) {
                *distance = (query_norm + norm) - 2.0 * product;
            }
            let query_nominal = &queries.nominal[q * nominal_width..(q + 1) * nominal_width];
            for (values, &query_value) in nominal_panel.chunks_exact(PANEL).zip(query_nominal) {
                for (distance, &value) in distances.iter_mut().zip(values) {
                    *distance += f64::from(u8::from(value != query_value));
                }
            }
            out[q * self.count + first..q * self.count + first + rows]
                .copy_from_slice(&distances[..rows]);
        }
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

/// [`products_portable`] with AVX2 fused multiply-adds: two registers per query.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn products_avx2(panel: &[f64], queries: &[f64]) -> [[f64; PANEL]; QUERY_GROUP] {
    use std::arch::x86_64::{
        __m256d, _mm256_fmadd_pd, _mm256_loadu_pd, _mm256_set1_pd, _mm256_setzero_pd,
        _mm256_storeu_pd,
    };
    let width = panel.len() / PANEL;
    assert!(queries.len() >= width * QUERY_GROUP);
    let mut low: [__m256d; QUERY_GROUP] = [_mm256_setzero_pd(); QUERY_GROUP];
    let mut high: [__m256d; QUERY_GROUP] = [_mm256_setzero_pd(); QUERY_GROUP];
    for attribute in 0..width {
        // SAFETY: `attribute * PANEL + PANEL <= panel.len()`.
        let (low_values, high_values) = unsafe {
            let start = panel.as_ptr().add(attribute * PANEL);
            (_mm256_loadu_pd(start), _mm256_loadu_pd(start.add(4)))
        };
        let query_values = &queries[attribute * QUERY_GROUP..(attribute + 1) * QUERY_GROUP];
        for ((low, high), &query_value) in low.iter_mut().zip(&mut high).zip(query_values) {
            let broadcast = _mm256_set1_pd(query_value);
            *low = _mm256_fmadd_pd(broadcast, low_values, *low);
            *high = _mm256_fmadd_pd(broadcast, high_values, *high);
        }
    }
    let mut out = [[0.0f64; PANEL]; QUERY_GROUP];
    for ((row, low), high) in out.iter_mut().zip(low).zip(high) {
        // SAFETY: a row holds PANEL = 8 values.
        unsafe {
            _mm256_storeu_pd(row.as_mut_ptr(), low);
            _mm256_storeu_pd(row.as_mut_ptr().add(4), high);
        }
    }
    out
}
