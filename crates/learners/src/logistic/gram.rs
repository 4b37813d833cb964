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

/// Bytes of design rows per pass over the tiles (half a typical level-2 cache, so that the rows
/// stay in it while every tile reads them).
const CHUNK_BYTES: usize = 512 * 1024;

/// Adds `sum_r factors[r] z_r z_r^T` to a packed upper triangle (row by row: `(j, j..width)`),
/// each entry receiving the rows' terms `(factors[r] * z_rj) * z_rl` one after the other in row
/// order, exactly as a row-by-row update would; the entries are kept in registers in tiles of
/// 4 x 8 while a chunk of rows streams past.
pub(super) fn add_weighted_gram(
    triangle: &mut [f64],
    width: usize,
    padded: &PaddedRows,
    factors: &[f64],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the processor has AVX-512 (and so AVX2), checked just above.
        return unsafe {
            add_weighted_gram_tiles(
                triangle,
                width,
                padded,
                factors,
                WIDEST,
                avx2::gram_tile_512,
            )
        };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe {
            add_weighted_gram_tiles(triangle, width, padded, factors, 2 * TILE, avx2::gram_tile)
        };
    }
    // SAFETY: the portable kernel runs on any processor.
    unsafe {
        add_weighted_gram_tiles(
            triangle,
            width,
            padded,
            factors,
            2 * TILE,
            gram_tile_portable,
        )
    };
}

/// Most columns in a tile (16 with AVX-512, else 8).
const WIDEST: usize = 4 * TILE;

/// The terms of one tile: `(sums, chunk, scaled chunk, stride, first_row, first_column,
/// columns)`.
type TileKernel = unsafe fn(&mut [[f64; WIDEST]; TILE], &[f64], &[f64], usize, usize, usize, usize);

/// [`add_weighted_gram`] with the given kernel for the tiles' terms.
///
/// # Safety
/// The kernel must be callable on this processor.
#[inline(always)]
unsafe fn add_weighted_gram_tiles(
    triangle: &mut [f64],
    width: usize,
    padded: &PaddedRows,
    factors: &[f64],
    widest: usize,
    kernel: TileKernel,
) {
    let stride = padded.stride;
    let chunk_rows = (CHUNK_BYTES / (stride * std::mem::size_of::<f64>())).max(1);
    let kept = |j: usize, l: usize| j < width && l < width && l >= j;
    // Each row of the chunk times its factor: the left operands `factor * z_j` of every tile.
    let mut scaled = Vec::with_capacity(chunk_rows * stride);
    for (chunk, chunk_factors) in padded
        .values
        .chunks(chunk_rows * stride)
        .zip(factors.chunks(chunk_rows))
    {
        scaled.clear();
        for (row, &factor) in chunk.chunks_exact(stride).zip(chunk_factors) {
            scaled.extend(row.iter().map(|&z| factor * z));
        }
        for first_row in (0..width).step_by(TILE) {
            let mut first_column = first_row;
            while first_column < width {
                let columns = [widest, 2 * TILE, TILE]
                    .into_iter()
                    .find(|&columns| first_column + columns <= stride)
                    .expect("the stride is a multiple of the narrowest tile");
                let mut sums = [[0.0; WIDEST]; TILE];
                for (jj, sums_row) in sums.iter_mut().enumerate() {
                    let j = first_row + jj;
                    for (ll, sum) in sums_row[..columns].iter_mut().enumerate() {
                        let l = first_column + ll;
                        if kept(j, l) {
                            *sum = triangle[triangle_row_start(j, width) + l - j];
                        }
                    }
                }
                // SAFETY: the caller vouches for the kernel; the tile lies within each row.
                unsafe {
                    kernel(
                        &mut sums,
                        chunk,
                        &scaled,
                        stride,
                        first_row,
                        first_column,
                        columns,
                    )
                };
                for (jj, sums_row) in sums.iter().enumerate() {
                    let j = first_row + jj;
                    for (ll, &sum) in sums_row[..columns].iter().enumerate() {
                        let l = first_column + ll;
                        if kept(j, l) {
                            triangle[triangle_row_start(j, width) + l - j] = sum;
                        }
                    }
                }
                first_column += columns;
            }
        }
    }
}

/// The start of triangle row `j` in a packed upper triangle of side `width`.
#[inline(always)]
pub(super) fn triangle_row_start(j: usize, width: usize) -> usize {
    j * (2 * width + 1 - j) / 2
}

/// Adds a chunk of rows' terms `(factor * z_j) * z_l` to the tile `sums` (rows
/// `first_row..first_row + 4`, columns `first_column..first_column + columns`), row after row.
unsafe fn gram_tile_portable(
    sums: &mut [[f64; WIDEST]; TILE],
    chunk: &[f64],
    scaled: &[f64],
    stride: usize,
    first_row: usize,
    first_column: usize,
    columns: usize,
) {
    for (row, scaled_row) in chunk.chunks_exact(stride).zip(scaled.chunks_exact(stride)) {
        let right = &row[first_column..first_column + columns];
        for (sums_row, &left) in sums
            .iter_mut()
            .zip(&scaled_row[first_row..first_row + TILE])
        {
            for (sum, &zl) in sums_row.iter_mut().zip(right) {
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
        __m256d, __m512d, _mm256_add_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_set1_pd,
        _mm256_setzero_pd, _mm256_storeu_pd, _mm512_add_pd, _mm512_loadu_pd, _mm512_mul_pd,
        _mm512_set1_pd, _mm512_setzero_pd, _mm512_storeu_pd,
    };

    use super::{TILE, WIDEST};

    /// [`super::gram_tile_portable`] for processors with AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn gram_tile(
        sums: &mut [[f64; WIDEST]; TILE],
        chunk: &[f64],
        scaled: &[f64],
        stride: usize,
        first_row: usize,
        first_column: usize,
        columns: usize,
    ) {
        if columns == 2 * TILE {
            tile::<2>(sums, chunk, scaled, stride, first_row, first_column);
        } else {
            tile::<1>(sums, chunk, scaled, stride, first_row, first_column);
        }
    }

    /// [`super::gram_tile_portable`] for processors with AVX-512: 16 or 8 columns in vectors of
    /// eight, 4 in one of four.
    ///
    /// # Safety
    /// The processor must have AVX-512.
    #[target_feature(enable = "avx2,avx512f")]
    pub(super) unsafe fn gram_tile_512(
        sums: &mut [[f64; WIDEST]; TILE],
        chunk: &[f64],
        scaled: &[f64],
        stride: usize,
        first_row: usize,
        first_column: usize,
        columns: usize,
    ) {
        match columns {
            WIDEST => tile_512::<2>(sums, chunk, scaled, stride, first_row, first_column),
            8 => tile_512::<1>(sums, chunk, scaled, stride, first_row, first_column),
            _ => tile::<1>(sums, chunk, scaled, stride, first_row, first_column),
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
                sums: &mut [[f64; WIDEST]; TILE],
                chunk: &[f64],
                scaled: &[f64],
                stride: usize,
                first_row: usize,
                first_column: usize,
            ) {
                let mut registers: [[$vector; VECTORS]; TILE] = [[$zero(); VECTORS]; TILE];
                for (registers_row, sums_row) in registers.iter_mut().zip(sums.iter()) {
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
                for (registers_row, sums_row) in registers.iter().zip(sums.iter_mut()) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hessian_kernel_matches_the_row_by_row_sums_exactly() {
        // Irregular values (width 11 and 23: padding and narrow tiles), each entry compared
        // bit for bit with sum_r (factor_r * z_rj) * z_rl added in row order.
        for width in [11, 23] {
            let rows = 300;
            let values: Vec<f64> = (0..rows * width)
                .map(|i| {
                    if i % width == 0 {
                        1.0
                    } else {
                        ((i * 7919 % 1000) as f64 / 37.0).sin()
                    }
                })
                .collect();
            let factors: Vec<f64> = (0..rows).map(|r| 0.25 / (1.0 + r as f64).sqrt()).collect();
            let stride = padded_stride(width);
            let mut padded_values = vec![0.0; rows * stride];
            for (target, row) in padded_values
                .chunks_exact_mut(stride)
                .zip(values.chunks_exact(width))
            {
                target[..width].copy_from_slice(row);
            }
            let padded = PaddedRows::new(padded_values, stride);
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
                    add_weighted_gram_tiles(&mut triangle, width, &padded, &factors, widest, kernel)
                };
                let same = triangle
                    .iter()
                    .zip(&expected)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "width {width}, widest {widest}");
            }
        }
    }
}
