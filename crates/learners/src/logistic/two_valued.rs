//! The weighted Gram matrix `sum_r f_r z_r z_r^T` of Newton's Hessian when most design columns
//! take only two values (the standardised indicator columns of nominal attributes): the pairs
//! of columns with more values come from the tile kernels of [`super::newton`] over those
//! columns alone, and every pair involving a two-valued column from a few sums over the rows
//! where it takes its rarer value. Row `r` holds value `b_l` in two-valued column `l` when it
//! is "active" there and `a_l` otherwise, so with `F = sum f`, `F1_l = sum_{active l} f`,
//! `F11_lm = sum_{active l and m} f`, `S_j = sum f z_j` and `S1_jl = sum_{active l} f z_j`:
//!
//! - `sum f z_l z_m = b_l b_m F11 + b_l a_m (F1_l - F11) + a_l b_m (F1_m - F11)
//!   + a_l a_m (F - F1_l - F1_m + F11)` (for `l = m`: `b_l^2 F1_l + a_l^2 (F - F1_l)`);
//! - `sum f z_j z_l = b_l S1_jl + a_l (S_j - S1_jl)` for a column `j` with more values.
//!
//! A row has few active columns (one per nominal attribute), so a pass costs about
//! `dense^2 / 2 + active * (dense + active / 2)` products a row instead of `width^2 / 2`. The
//! entries are the same sums grouped differently, so they differ from the direct sums by
//! rounding (which moves Newton's iterates, not the optimum it converges to).

use super::gram::{add_weighted_gram, padded_stride, triangle_row_start, PaddedRows};

/// Fewest two-valued columns for which [`TwoValued`] is used (and at least half the columns).
const MIN_TWO_VALUED: usize = 8;

/// The design's columns split into those with more than two values and two-valued ones, with
/// the rows of positive weight in the form the Gram sums read.
pub(super) struct TwoValued {
    /// The columns with more than two values (column 0, the constant, first), increasing.
    dense: Vec<usize>,
    /// The two-valued columns, increasing.
    binary: Vec<usize>,
    /// Each two-valued column's values `[a, b]`: `b` is the one fewer rows hold.
    values: Vec<[f64; 2]>,
    /// The dense columns of the rows of positive weight.
    dense_rows: PaddedRows<'static>,
    /// Row `r`'s active two-valued columns (positions in `binary`) are
    /// `active[starts[r]..starts[r + 1]]`.
    starts: Vec<usize>,
    active: Vec<u32>,
}

impl TwoValued {
    /// The split of the rows of positive weight of a design of `width` columns (`rows` gives
    /// them, each time it is called, in order), or `None` when too few columns take two values.
    pub(super) fn new<'a, I: Iterator<Item = &'a [f64]>>(
        width: usize,
        rows: impl Fn() -> I,
    ) -> Option<TwoValued> {
        // Each column's distinct values (up to three seen) and how many rows hold the first.
        let mut seen: Vec<(Vec<f64>, usize)> = vec![(Vec::new(), 0); width];
        for row in rows() {
            for (column, &z) in row.iter().enumerate().skip(1) {
                let (values, first_count) = &mut seen[column];
                match values.iter().position(|&v| v.to_bits() == z.to_bits()) {
                    Some(0) => *first_count += 1,
                    Some(_) => {}
                    None if values.len() < 3 => {
                        if values.is_empty() {
                            *first_count += 1;
                        }
                        values.push(z);
                    }
                    None => {}
                }
            }
        }
        let count = rows().count();
        let mut dense = vec![0];
        let mut binary = Vec::new();
        let mut values = Vec::new();
        for (column, (distinct, first_count)) in seen.iter().enumerate().skip(1) {
            if distinct.len() == 2 {
                binary.push(column);
                // The rarer value is `b` (its rows are the active ones).
                values.push(if 2 * first_count <= count {
                    [distinct[1], distinct[0]]
                } else {
                    [distinct[0], distinct[1]]
                });
            } else {
                dense.push(column);
            }
        }
        if binary.len() < MIN_TWO_VALUED || 2 * binary.len() < width {
            return None;
        }
        let mut starts = vec![0];
        let mut active = Vec::new();
        let stride = padded_stride(dense.len());
        let mut dense_values = Vec::with_capacity(count * stride);
        for row in rows() {
            dense_values.extend(dense.iter().map(|&column| row[column]));
            dense_values.resize(dense_values.len() + stride - dense.len(), 0.0);
            for (position, (&column, pair)) in binary.iter().zip(&values).enumerate() {
                if row[column].to_bits() == pair[1].to_bits() {
                    active.push(position as u32);
                }
            }
            starts.push(active.len());
        }
        let dense_rows = PaddedRows::owned(dense_values, stride);
        Some(TwoValued {
            dense_rows,
            dense,
            binary,
            values,
            starts,
            active,
        })
    }

    /// Adds `sum_r factors[r] z_r z_r^T` over the rows of positive weight to a packed upper
    /// triangle of side `width` (see [`add_weighted_gram`]).
    pub(super) fn add_gram(&self, triangle: &mut [f64], width: usize, factors: &[f64]) {
        let d = self.dense.len();
        let nb = self.binary.len();
        let mut dense_triangle = vec![0.0; d * (d + 1) / 2];
        add_weighted_gram(&mut dense_triangle, d, &self.dense_rows, factors);
        let at = |j: usize, l: usize| dense_triangle[triangle_row_start(j, d) + l - j];
        let mut place = |p: usize, q: usize, value: f64| {
            let (p, q) = (p.min(q), p.max(q));
            triangle[triangle_row_start(p, width) + q - p] += value;
        };
        for (j, &p) in self.dense.iter().enumerate() {
            for (l, &q) in self.dense.iter().enumerate().skip(j) {
                place(p, q, at(j, l));
            }
        }
        // The sums over each row's active columns.
        let mut first = vec![0.0; nb];
        let mut cross = vec![0.0; d * nb];
        let mut both = vec![0.0; nb * nb];
        let stride = self.dense_rows.stride;
        for (r, &f) in factors.iter().enumerate().take(self.starts.len() - 1) {
            let row = &self.dense_rows.values[r * stride..r * stride + d];
            let active = &self.active[self.starts[r]..self.starts[r + 1]];
            for (index, &l) in active.iter().enumerate() {
                let l = l as usize;
                first[l] += f;
                for (sum, &z) in cross[l * d..(l + 1) * d].iter_mut().zip(row) {
                    *sum += f * z;
                }
                for &m in &active[index + 1..] {
                    both[l * nb + m as usize] += f;
                }
            }
        }
        let total = at(0, 0);
        for (l, (&q, &[a, b])) in self.binary.iter().zip(&self.values).enumerate() {
            for (j, &p) in self.dense.iter().enumerate() {
                let with = cross[l * d + j];
                place(p, q, b * with + a * (at(0, j) - with));
            }
            place(q, q, b * b * first[l] + a * a * (total - first[l]));
            for (m, (&s, &[c, e])) in self.binary.iter().zip(&self.values).enumerate().skip(l + 1) {
                let f11 = both[l * nb + m];
                let value = b * e * f11
                    + b * c * (first[l] - f11)
                    + a * e * (first[m] - f11)
                    + a * c * (total - first[l] - first[m] + f11);
                place(q, s, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_over_rarer_values_equal_the_direct_gram_sums() {
        // A constant column, two numeric ones, then three indicator groups of 4 values
        // (standardised like the design: two values each), 200 rows, uneven factors.
        let width = 15;
        let rows = 200;
        let mut values = Vec::with_capacity(rows * width);
        for r in 0..rows {
            values.push(1.0);
            values.push(((r * 7919 % 1000) as f64 / 37.0).sin());
            values.push((r as f64 * 0.37).cos() * 3.0);
            for group in 0..3 {
                let value = (r * (group + 3) + r / 7) % 4;
                for v in 0..4 {
                    let mean = 0.25 + 0.01 * v as f64;
                    let raw = if v == value { 1.0 } else { 0.0 };
                    values.push((raw - mean) / 0.43);
                }
            }
        }
        let factors: Vec<f64> = (0..rows).map(|r| 0.2 / (1.0 + r as f64).sqrt()).collect();
        let split = TwoValued::new(width, || values.chunks_exact(width)).expect("12 indicators");
        let mut triangle = vec![0.0; width * (width + 1) / 2];
        split.add_gram(&mut triangle, width, &factors);
        let mut index = 0;
        for j in 0..width {
            for l in j..width {
                let direct: f64 = values
                    .chunks_exact(width)
                    .zip(&factors)
                    .map(|(row, f)| f * row[j] * row[l])
                    .sum();
                let scale: f64 = factors.iter().sum::<f64>() * 100.0;
                assert!(
                    (triangle[index] - direct).abs() <= 1e-13 * scale,
                    "({j}, {l}): {} against {direct}",
                    triangle[index]
                );
                index += 1;
            }
        }
    }
}
