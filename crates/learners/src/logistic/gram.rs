//! The weighted Gram sums of Newton's Hessian, `sum_r f_r z_r z_r^T` over the rows of a design,
//! accumulated in register tiles over cache-sized chunks of rows (AVX2 or AVX-512 when the
//! processor has them, multiplications and additions never fused), every entry still receiving
//! the rows' terms one after the other in row order.

/// Rows with columns appended up to a multiple of [`TILE`] (the sums they enter are discarded),
/// so that the Hessian's tiles never run past a row.
pub(super) struct PaddedRows {
    /// The padded rows, row-major.
    pub(super) values: Vec<f64>,
    /// Values per padded row.
    pub(super) stride: usize,
}

impl PaddedRows {
    /// Rows already padded to `stride` (a multiple of [`TILE`]).
    pub(super) fn new(values: Vec<f64>, stride: usize) -> Self {
        debug_assert_eq!(stride % TILE, 0);
        PaddedRows { values, stride }
    }

    /// The first `width` values of row `index`.
    #[inline(always)]
    pub(super) fn row(&self, index: usize, width: usize) -> &[f64] {
        &self.values[index * self.stride..index * self.stride + width]
    }
}

/// The values per row of rows of `width` values padded for the tile kernels: `width` rounded
/// up to a multiple of [`TILE`].
pub(super) fn padded_stride(width: usize) -> usize {
    width.div_ceil(TILE) * TILE
}

/// Triangle rows (and narrow tile columns) per tile of the Hessian.
const TILE: usize = 4;

/// Bytes of design rows, and as many of their scaled copies, per pass over the tiles: small
/// enough that both stay in a level-1 data cache while every tile reads them.
const CHUNK_BYTES: usize = 16 * 1024;

/// Adds `sum_r factors[r] z_r z_r^T` to a packed upper triangle (row by row: `(j, j..width)`),
/// each entry receiving the rows' terms `(factors[r] * z_rj) * z_rl` one after the other in row
/// order, exactly as a row-by-row update would; the entries are kept in registers in tiles of
/// 4 x 16 (AVX-512), 4 x 8 or 4 x 4 while a chunk of rows small enough for the level-1 cache
/// streams past.
pub(super) fn add_weighted_gram(
    triangle: &mut [f64],
    width: usize,
    padded: &PaddedRows,
    factors: &[f64],
    gradient: Option<Residuals>,
) {
    #[cfg(target_arch = "x86_64")]
    if vector_cap::allows(vector_cap::Level::Avx512)
        && std::arch::is_x86_feature_detected!("avx512f")
    {
        // SAFETY: the processor has AVX-512 (and so AVX2), checked just above.
        return unsafe { avx2::add_weighted_gram_512(triangle, width, padded, factors, gradient) };
    }
    #[cfg(target_arch = "x86_64")]
    if vector_cap::allows(vector_cap::Level::Avx2) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { avx2::add_weighted_gram_256(triangle, width, padded, factors, gradient) };
    }
    // SAFETY: the portable kernel runs on any processor.
    unsafe {
        add_weighted_gram_tiles(
            triangle,
            width,
            padded,
            factors,
            gradient,
            2 * TILE,
            gram_tile_portable,
        )
    };
}

/// Most columns in a tile (16 with AVX-512, else 8).
const WIDEST: usize = 4 * TILE;

/// One tile's position: its first row and column in the square of sums, and its columns.
#[derive(Clone, Copy)]
struct Tile {
    first_row: usize,
    first_column: usize,
    columns: usize,
}

/// The terms of one tile: `(sums, stride, chunk, scaled chunk, tile)`, `sums` the square of
/// side `stride` whose tile entries receive the chunk's terms.
type TileKernel = unsafe fn(&mut [f64], usize, &[f64], &[f64], Tile);

/// [`add_weighted_gram`] with the given kernel for the tiles' terms: the sums are kept in a
/// square of side `stride` (the triangle's entries, then scratch the tiles also fill), and the
/// rows pass in chunks small enough to stay in the level-1 cache beside their scaled copies.
///
/// # Safety
/// The kernel must be callable on this processor.
#[inline(always)]
unsafe fn add_weighted_gram_tiles(
    triangle: &mut [f64],
    width: usize,
    padded: &PaddedRows,
    factors: &[f64],
    mut gradient: Option<Residuals>,
    widest: usize,
    kernel: TileKernel,
) {
    let stride = padded.stride;
    let chunk_rows = (CHUNK_BYTES / (stride * std::mem::size_of::<f64>())).max(1);
    let mut sums = vec![0.0; stride * stride];
    for j in 0..width {
        let start = triangle_row_start(j, width);
        sums[j * stride + j..j * stride + width]
            .copy_from_slice(&triangle[start..start + width - j]);
    }
    let tiles = tiles(width, stride, widest);
    // Each row of the chunk times its factor: the left operands `factor * z_j` of every tile.
    let mut scaled = vec![0.0; chunk_rows * stride];
    for (index, (chunk, chunk_factors)) in (padded.values.chunks(chunk_rows * stride))
        .zip(factors.chunks(chunk_rows))
        .enumerate()
    {
        let scaled = &mut scaled[..chunk.len()];
        for ((target, row), &factor) in scaled
            .chunks_exact_mut(stride)
            .zip(chunk.chunks_exact(stride))
            .zip(chunk_factors)
        {
            for (left, &z) in target.iter_mut().zip(row) {
                *left = factor * z;
            }
        }
        if let Some(Residuals {
            residuals,
            gradient,
        }) = gradient.as_mut()
        {
            let k = gradient.len() / width;
            let chunk_residuals = &residuals[index * chunk_rows * k..];
            for (row, row_residuals) in chunk
                .chunks_exact(stride)
                .zip(chunk_residuals.chunks_exact(k))
            {
                add_residuals(&row[..width], row_residuals, gradient);
            }
        }
        for &tile in &tiles {
            // SAFETY: the caller vouches for the kernel; the tile lies within each row.
            unsafe { kernel(&mut sums, stride, chunk, scaled, tile) };
        }
    }
    for j in 0..width {
        let start = triangle_row_start(j, width);
        triangle[start..start + width - j]
            .copy_from_slice(&sums[j * stride + j..j * stride + width]);
    }
}

/// A gradient summed in the pass of [`add_weighted_gram`] over the rows: `gradient` (one block
/// of the rows' width per class) receives `sum_r residuals[r * k + c] z_r`, the rows' terms in
/// row order.
pub(super) struct Residuals<'a> {
    /// The rows' residuals, `k` a row.
    pub(super) residuals: &'a [f64],
    /// The gradient the terms are added to.
    pub(super) gradient: &'a mut [f64],
}

/// Adds a row's residuals (one per class) times the row to the gradient (blocks of the row's
/// width).
#[inline(always)]
fn add_residuals(row: &[f64], residuals: &[f64], gradient: &mut [f64]) {
    for (&residual, target) in residuals.iter().zip(gradient.chunks_exact_mut(row.len())) {
        for (g, z) in target.iter_mut().zip(row) {
            *g += residual * z;
        }
    }
}

/// The tiles that cover the upper triangle of side `width` in rows padded to `stride`: four
/// rows each, from the diagonal rightwards in runs of `widest`, 8 or 4 columns.
fn tiles(width: usize, stride: usize, widest: usize) -> Vec<Tile> {
    let mut tiles = Vec::new();
    for first_row in (0..width).step_by(TILE) {
        let mut first_column = first_row;
        while first_column < width {
            let columns = [widest, 2 * TILE, TILE]
                .into_iter()
                .find(|&columns| first_column + columns <= stride)
                .expect("the stride is a multiple of the narrowest tile");
            tiles.push(Tile {
                first_row,
                first_column,
                columns,
            });
            first_column += columns;
        }
    }
    tiles
}

/// The start of triangle row `j` in a packed upper triangle of side `width`.
#[inline(always)]
pub(super) fn triangle_row_start(j: usize, width: usize) -> usize {
    j * (2 * width + 1 - j) / 2
}

/// Adds a chunk of rows' terms `(factor * z_j) * z_l` to the tile's entries of `sums` (rows
/// `first_row..first_row + 4`, columns `first_column..first_column + columns`), row after row.
unsafe fn gram_tile_portable(
    sums: &mut [f64],
    stride: usize,
    chunk: &[f64],
    scaled: &[f64],
    tile: Tile,
) {
    let Tile {
        first_row,
        first_column,
        columns,
    } = tile;
    for (row, scaled_row) in chunk.chunks_exact(stride).zip(scaled.chunks_exact(stride)) {
        let right = &row[first_column..first_column + columns];
        for (jj, &left) in scaled_row[first_row..first_row + TILE].iter().enumerate() {
            let start = (first_row + jj) * stride + first_column;
            for (sum, &zl) in sums[start..start + columns].iter_mut().zip(right) {
                *sum += left * zl;
            }
        }
    }
}

/// The tile kernel in AVX2 instructions: separate multiplications and additions (never fused),
/// so the same results as [`gram_tile_portable`].
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256d, __m512d, _mm256_add_pd, _mm256_castpd256_pd128, _mm256_extractf128_pd,
        _mm256_loadu_pd, _mm256_mul_pd, _mm256_set1_pd, _mm256_setzero_pd, _mm256_storeu_pd,
        _mm512_add_pd, _mm512_loadu_pd, _mm512_mul_pd, _mm512_set1_pd, _mm512_setzero_pd,
        _mm512_storeu_pd, _mm_add_pd, _mm_cvtsd_f64, _mm_unpackhi_pd,
    };

    use super::{add_weighted_gram_tiles, PaddedRows, Residuals, Tile, TILE, WIDEST};

    /// [`super::add_weighted_gram`] compiled for the features named (the rows' scaled copies
    /// and the gradient too), with the tile kernel given: one function per register width.
    macro_rules! gram_compiled_for {
        ($name:ident, $features:literal, $widest:expr, $kernel:ident) => {
            #[doc = concat!("[`super::add_weighted_gram`] compiled for ", $features, ".")]
            ///
            /// # Safety
            /// The processor must have those features.
            #[target_feature(enable = $features)]
            pub(super) unsafe fn $name(
                triangle: &mut [f64],
                width: usize,
                padded: &PaddedRows,
                factors: &[f64],
                gradient: Option<Residuals>,
            ) {
                // SAFETY: the processor has the kernel's features, as the caller vouches.
                unsafe {
                    add_weighted_gram_tiles(
                        triangle, width, padded, factors, gradient, $widest, $kernel,
                    )
                }
            }
        };
    }

    gram_compiled_for!(add_weighted_gram_512, "avx2,avx512f", WIDEST, gram_tile_512);
    gram_compiled_for!(add_weighted_gram_256, "avx2", 2 * TILE, gram_tile);

    /// [`super::dots`] of four rows in AVX2 instructions: each row's eight running sums in two
    /// vectors, combined as `dot` combines them, so the same results.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dots_4(rows: [&[f64]; 4], b: &[f64]) -> [f64; 4] {
        let chunks = b.len() / 8 * 8;
        let mut low = [_mm256_setzero_pd(); 4];
        let mut high = [_mm256_setzero_pd(); 4];
        for start in (0..chunks).step_by(8) {
            let y = &b[start..start + 8];
            // SAFETY: two vectors of values of `y`.
            let (y_low, y_high) = unsafe {
                (
                    _mm256_loadu_pd(y.as_ptr()),
                    _mm256_loadu_pd(y[4..].as_ptr()),
                )
            };
            for ((low, high), row) in low.iter_mut().zip(&mut high).zip(&rows) {
                let x = &row[start..start + 8];
                // SAFETY: two vectors of values of `x`.
                let (x_low, x_high) = unsafe {
                    (
                        _mm256_loadu_pd(x.as_ptr()),
                        _mm256_loadu_pd(x[4..].as_ptr()),
                    )
                };
                *low = _mm256_add_pd(*low, _mm256_mul_pd(x_low, y_low));
                *high = _mm256_add_pd(*high, _mm256_mul_pd(x_high, y_high));
            }
        }
        let mut totals = [0.0; 4];
        for (((total, &low), &high), row) in totals.iter_mut().zip(&low).zip(&high).zip(&rows) {
            // Lanes (s0 + s4, s1 + s5, s2 + s6, s3 + s7), then (s0 + s4) + (s2 + s6) and
            // (s1 + s5) + (s3 + s7).
            let pairs = _mm256_add_pd(low, high);
            let halves = _mm_add_pd(
                _mm256_castpd256_pd128(pairs),
                _mm256_extractf128_pd(pairs, 1),
            );
            *total = _mm_cvtsd_f64(halves) + _mm_cvtsd_f64(_mm_unpackhi_pd(halves, halves));
            for (x, y) in row[chunks..b.len()].iter().zip(&b[chunks..]) {
                *total += x * y;
            }
        }
        totals
    }

    /// [`super::gram_tile_portable`] for processors with AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn gram_tile(
        sums: &mut [f64],
        stride: usize,
        chunk: &[f64],
        scaled: &[f64],
        at: Tile,
    ) {
        if at.columns == 2 * TILE {
            tile::<2>(sums, stride, chunk, scaled, at);
        } else {
            tile::<1>(sums, stride, chunk, scaled, at);
        }
    }

    /// [`super::gram_tile_portable`] for processors with AVX-512: 16 or 8 columns in vectors of
    /// eight, 4 in one of four.
    ///
    /// # Safety
    /// The processor must have AVX-512.
    #[target_feature(enable = "avx2,avx512f")]
    pub(super) unsafe fn gram_tile_512(
        sums: &mut [f64],
        stride: usize,
        chunk: &[f64],
        scaled: &[f64],
        at: Tile,
    ) {
        match at.columns {
            WIDEST => tile_512::<2>(sums, stride, chunk, scaled, at),
            8 => tile_512::<1>(sums, stride, chunk, scaled, at),
            _ => tile::<1>(sums, stride, chunk, scaled, at),
        }
    }

    /// One tile kernel per register width, from one body: `$lanes` columns per vector of type
    /// `$vector`, with that width's load, store, broadcast, multiply and add.
    macro_rules! tile_kernel {
        ($name:ident, $vector:ty, $lanes:literal, $zero:ident, $load:ident, $store:ident,
         $broadcast:ident, $multiply:ident, $add:ident) => {
            #[doc = concat!("`VECTORS` vectors of ", stringify!($lanes), " columns.")]
            #[inline(always)]
            unsafe fn $name<const VECTORS: usize>(
                sums: &mut [f64],
                stride: usize,
                chunk: &[f64],
                scaled: &[f64],
                tile: Tile,
            ) {
                let Tile {
                    first_row,
                    first_column,
                    ..
                } = tile;
                let mut registers: [[$vector; VECTORS]; TILE] = [[$zero(); VECTORS]; TILE];
                for (jj, registers_row) in registers.iter_mut().enumerate() {
                    let start = (first_row + jj) * stride + first_column;
                    let sums_row = &sums[start..start + $lanes * VECTORS];
                    for (vector, register) in registers_row.iter_mut().enumerate() {
                        // SAFETY: one vector of values of the tile row.
                        *register = unsafe { $load(sums_row[$lanes * vector..].as_ptr()) };
                    }
                }
                for (row, scaled_row) in chunk.chunks_exact(stride).zip(scaled.chunks_exact(stride))
                {
                    let right = &row[first_column..first_column + $lanes * VECTORS];
                    let mut columns = [$zero(); VECTORS];
                    for (vector, column) in columns.iter_mut().enumerate() {
                        // SAFETY: one vector of values of `right`.
                        *column = unsafe { $load(right[$lanes * vector..].as_ptr()) };
                    }
                    for (registers_row, &left) in registers
                        .iter_mut()
                        .zip(&scaled_row[first_row..first_row + TILE])
                    {
                        let scaled = $broadcast(left);
                        for (register, &column) in registers_row.iter_mut().zip(&columns) {
                            *register = $add(*register, $multiply(scaled, column));
                        }
                    }
                }
                for (jj, registers_row) in registers.iter().enumerate() {
                    let start = (first_row + jj) * stride + first_column;
                    let sums_row = &mut sums[start..start + $lanes * VECTORS];
                    for (vector, register) in registers_row.iter().enumerate() {
                        // SAFETY: one vector of values of the tile row.
                        unsafe { $store(sums_row[$lanes * vector..].as_mut_ptr(), *register) };
                    }
                }
            }
        };
    }

    tile_kernel!(
        tile_512,
        __m512d,
        8,
        _mm512_setzero_pd,
        _mm512_loadu_pd,
        _mm512_storeu_pd,
        _mm512_set1_pd,
        _mm512_mul_pd,
        _mm512_add_pd
    );
    tile_kernel!(
        tile,
        __m256d,
        4,
        _mm256_setzero_pd,
        _mm256_loadu_pd,
        _mm256_storeu_pd,
        _mm256_set1_pd,
        _mm256_mul_pd,
        _mm256_add_pd
    );
}

/// The dot product of two equally long slices, in eight running sums (two independent chains
/// of four-wide additions, so that the additions' latency overlaps).
#[inline(always)]
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut sums = [0.0; 8];
    let chunks = a.len() / 8 * 8;
    for (x, y) in a[..chunks].chunks_exact(8).zip(b[..chunks].chunks_exact(8)) {
        for lane in 0..8 {
            sums[lane] += x[lane] * y[lane];
        }
    }
    let mut total =
        ((sums[0] + sums[4]) + (sums[2] + sums[6])) + ((sums[1] + sums[5]) + (sums[3] + sums[7]));
    for (x, y) in a[chunks..].iter().zip(&b[chunks..]) {
        total += x * y;
    }
    total
}

/// [`dot`] of each of `R` equally long slices with `b`: each result from the same operations in
/// the same order as `dot(rows[i], b)`, the slices' running sums side by side so that their
/// additions' latencies overlap.
#[inline(always)]
pub(super) fn dots<const R: usize>(rows: [&[f64]; R], b: &[f64]) -> [f64; R] {
    #[cfg(target_arch = "x86_64")]
    if R == 4
        && vector_cap::allows(vector_cap::Level::Avx2)
        && std::arch::is_x86_feature_detected!("avx2")
    {
        let rows: [&[f64]; 4] = std::array::from_fn(|i| rows[i]);
        // SAFETY: the processor has AVX2, checked just above.
        let totals = unsafe { avx2::dots_4(rows, b) };
        return std::array::from_fn(|i| totals[i]);
    }
    let mut sums = [[0.0; 8]; R];
    let chunks = b.len() / 8 * 8;
    for (start, y) in (0..chunks).step_by(8).zip(b[..chunks].chunks_exact(8)) {
        for (sums, row) in sums.iter_mut().zip(&rows) {
            let x = &row[start..start + 8];
            for lane in 0..8 {
                sums[lane] += x[lane] * y[lane];
            }
        }
    }
    let mut totals = [0.0; R];
    for ((total, sums), row) in totals.iter_mut().zip(&sums).zip(&rows) {
        *total = ((sums[0] + sums[4]) + (sums[2] + sums[6]))
            + ((sums[1] + sums[5]) + (sums[3] + sums[7]));
        for (x, y) in row[chunks..b.len()].iter().zip(&b[chunks..]) {
            *total += x * y;
        }
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hessian_kernel_matches_the_row_by_row_sums_exactly() {
        // Irregular values (width 11 and 23: padding and narrow tiles), each entry compared
        // bit for bit with sum_r (factor_r * z_rj) * z_rl added in row order.
        for width in [11, 23] {
            let rows = 300;
            let (values, padded) = irregular_rows(rows, width, 1.0);
            let factors: Vec<f64> = (0..rows).map(|r| 0.25 / (1.0 + r as f64).sqrt()).collect();
            let mut expected = vec![0.0; width * (width + 1) / 2];
            for (row, &factor) in values.chunks_exact(width).zip(&factors) {
                let mut index = 0;
                for j in 0..width {
                    for l in j..width {
                        expected[index] += (factor * row[j]) * row[l];
                        index += 1;
                    }
                }
            }
            let mut kernels: Vec<(usize, TileKernel)> = vec![(2 * TILE, gram_tile_portable)];
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                kernels.push((2 * TILE, avx2::gram_tile));
            }
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512f") {
                kernels.push((WIDEST, avx2::gram_tile_512));
            }
            for (widest, kernel) in kernels {
                let mut triangle = vec![0.0; expected.len()];
                // SAFETY: each kernel was checked to run on this processor.
                unsafe {
                    add_weighted_gram_tiles(
                        &mut triangle,
                        width,
                        &padded,
                        &factors,
                        None,
                        widest,
                        kernel,
                    )
                };
                let same = triangle
                    .iter()
                    .zip(&expected)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "width {width}, widest {widest}");
            }
        }
    }

    /// Irregular rows of `width` values up to `scale` in size (column 0 all ones), padded for
    /// the tile kernels.
    fn irregular_rows(rows: usize, width: usize, scale: f64) -> (Vec<f64>, PaddedRows) {
        let values: Vec<f64> = (0..rows * width)
            .map(|i| {
                if i % width == 0 {
                    1.0
                } else {
                    ((i * 7919 % 1000) as f64 / 37.0).sin() * scale
                }
            })
            .collect();
        let stride = padded_stride(width);
        let mut padded_values = vec![0.0; rows * stride];
        for (target, row) in padded_values
            .chunks_exact_mut(stride)
            .zip(values.chunks_exact(width))
        {
            target[..width].copy_from_slice(row);
        }
        (values, PaddedRows::new(padded_values, stride))
    }

    #[test]
    fn dots_of_several_rows_are_dot_bit_for_bit() {
        // Lengths with no tail, short and long tails, and shorter than one group of eight;
        // four rows (the AVX2 kernel where there is one) and three (the portable loop).
        for width in [3, 8, 11, 23, 58] {
            let (values, _) = irregular_rows(12, width, 3.0);
            let b: Vec<f64> = (0..width).map(|j| (j as f64 * 0.37).cos() / 7.0).collect();
            let rows: Vec<&[f64]> = values.chunks_exact(width).collect();
            let four = dots([rows[0], rows[1], rows[2], rows[3]], &b);
            let three = dots([rows[4], rows[5], rows[6]], &b);
            let got = four.iter().chain(&three);
            for (index, (&got, row)) in got.zip(&rows).enumerate() {
                let expected = dot(row, &b);
                assert_eq!(
                    got.to_bits(),
                    expected.to_bits(),
                    "width {width}, row {index}"
                );
            }
        }
    }

    #[test]
    fn the_gradient_summed_beside_the_gram_matches_the_row_by_row_sums_exactly() {
        // Two classes' residuals, over rows that span several chunks; the triangle must be
        // the same as without the gradient, and the gradient the residuals times the rows
        // added in row order.
        for width in [11, 58] {
            let rows = 700;
            let k = 2;
            let (values, padded) = irregular_rows(rows, width, 3.0);
            let factors: Vec<f64> = (0..rows).map(|r| 0.25 / (1.0 + r as f64).sqrt()).collect();
            let residuals: Vec<f64> = (0..rows * k)
                .map(|i| (i as f64 * 0.13).cos() * 0.5)
                .collect();
            let mut expected = vec![0.0; k * width];
            for (row, row_residuals) in values.chunks_exact(width).zip(residuals.chunks_exact(k)) {
                for (c, &residual) in row_residuals.iter().enumerate() {
                    for (j, &z) in row.iter().enumerate() {
                        expected[c * width + j] += residual * z;
                    }
                }
            }
            let mut alone = vec![0.0; width * (width + 1) / 2];
            add_weighted_gram(&mut alone, width, &padded, &factors, None);
            let mut triangle = vec![0.0; alone.len()];
            let mut gradient = vec![0.0; k * width];
            let fused = Residuals {
                residuals: &residuals,
                gradient: &mut gradient,
            };
            add_weighted_gram(&mut triangle, width, &padded, &factors, Some(fused));
            let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&triangle), bits(&alone), "width {width}: triangle");
            assert_eq!(bits(&gradient), bits(&expected), "width {width}: gradient");
        }
    }
}
