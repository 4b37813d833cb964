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
//! `dense^2 / 2 + active * (dense + active / 2)` products a row instead of `width^2 / 2`.
//!
//! The rows' scores and the gradient are linear in the rows the same way. With coefficients
//! `w` and `W = sum_l a_l w_l` over the two-valued columns, a row's score `w . z` is its dense
//! columns' dot product plus `W` plus `(b_l - a_l) w_l` for each column `l` active in it
//! ([`TwoValued::scores`]); with `E = sum_r e_r` over the rows' residuals and
//! `E1_l = sum_{active l} e_r`, the gradient's entry of a two-valued column is
//! `b_l E1_l + a_l (E - E1_l)` ([`TwoValued::gradient`]). A row then costs `dense + active` additions
//! instead of `width`.
//!
//! Every result is the same sum grouped differently, so it differs from the direct sum by
//! rounding (which moves Newton's iterates, not the optimum it converges to).

use super::gram::{add_weighted_gram, dot, padded_stride, triangle_row_start, PaddedRows};

/// The design's columns split into those with more than two values and two-valued ones, with
/// the rows of positive weight in the form the sums read.
pub(super) struct TwoValued {
    /// The columns with more than two values (column 0, the constant, first), increasing.
    dense: Vec<usize>,
    /// The two-valued columns, increasing.
    binary: Vec<usize>,
    /// Each two-valued column's values `[a, b]`: `b` is the one fewer rows hold.
    values: Vec<[f64; 2]>,
    /// The dense columns of the rows, padded for the tile kernels.
    dense_rows: PaddedRows,
    /// Row `r`'s active two-valued columns (positions in `binary`) are
    /// `active[starts[r]..starts[r + 1]]`, increasing.
    starts: Vec<usize>,
    active: Vec<u32>,
}

/// A two-valued column of a design: its position, its values `[a, b]` (`b` the rarer) and the
/// rows that hold `b`, increasing.
pub(super) struct BinaryColumn {
    pub(super) column: usize,
    pub(super) values: [f64; 2],
    pub(super) active: Vec<u32>,
}

impl TwoValued {
    /// The split of a design of `rows` rows into the columns `dense` (increasing, column 0 the
    /// constant 1; `column(j, out)` writes column `j`'s values into `out`, replacing what it
    /// held) and the two-valued columns `binary` (increasing).
    pub(super) fn from_columns(
        rows: usize,
        dense: &[usize],
        binary: Vec<BinaryColumn>,
        mut column: impl FnMut(usize, &mut Vec<f64>),
    ) -> TwoValued {
        let stride = padded_stride(dense.len());
        let mut dense_values = vec![0.0; rows * stride];
        for row in dense_values.chunks_exact_mut(stride) {
            row[0] = 1.0;
        }
        let mut values = Vec::with_capacity(rows);
        for (position, &j) in dense.iter().enumerate().skip(1) {
            column(j, &mut values);
            let targets = dense_values[position..].iter_mut().step_by(stride);
            for (target, &z) in targets.zip(&values) {
                *target = z;
            }
        }
        // Each row's active columns, in the order of the columns.
        let mut starts = vec![0; rows + 1];
        for &r in binary.iter().flat_map(|b| &b.active) {
            starts[r as usize + 1] += 1;
        }
        for r in 0..rows {
            starts[r + 1] += starts[r];
        }
        let mut next = starts.clone();
        let mut active = vec![0; starts[rows]];
        for (position, b) in binary.iter().enumerate() {
            for &r in &b.active {
                active[next[r as usize]] = position as u32;
                next[r as usize] += 1;
            }
        }
        TwoValued {
            dense: dense.to_vec(),
            binary: binary.iter().map(|b| b.column).collect(),
            values: binary.iter().map(|b| b.values).collect(),
            dense_rows: PaddedRows::new(dense_values, stride),
            starts,
            active,
        }
    }

    /// The `k` classes' coefficients (`k` blocks of `width`) folded onto the split, for
    /// [`TwoValued::scores`].
    #[inline(always)]
    pub(super) fn fold(&self, coefficients: &[f64], width: usize) -> Folded {
        let stride = self.dense_rows.stride;
        let mut folded = Folded {
            dense: Vec::with_capacity(coefficients.len() / width * stride),
            base: Vec::new(),
            delta: Vec::new(),
        };
        for block in coefficients.chunks_exact(width) {
            folded
                .dense
                .extend(self.dense.iter().map(|&column| block[column]));
            folded
                .dense
                .resize(folded.dense.len() + stride - self.dense.len(), 0.0);
            let mut base = 0.0;
            for (&column, &[a, b]) in self.binary.iter().zip(&self.values) {
                base += a * block[column];
                folded.delta.push((b - a) * block[column]);
            }
            folded.base.push(base);
        }
        folded
    }

    /// Fills `scores` (one per class folded) with `w_c . z` for the `r`-th row of positive
    /// weight.
    #[inline(always)]
    pub(super) fn scores(&self, r: usize, folded: &Folded, scores: &mut [f64]) {
        let stride = self.dense_rows.stride;
        let row = &self.dense_rows.values[r * stride..(r + 1) * stride];
        let active = &self.active[self.starts[r]..self.starts[r + 1]];
        let nb = self.binary.len();
        for (c, score) in scores.iter_mut().enumerate() {
            let delta = &folded.delta[c * nb..(c + 1) * nb];
            let mut sum = dot(row, &folded.dense[c * stride..(c + 1) * stride]) + folded.base[c];
            for &l in active {
                sum += delta[l as usize];
            }
            *score = sum;
        }
    }

    /// Writes the gradient `sum_r e_rc z_r` of each class `c` (blocks of `width`) from the
    /// rows' residuals `e_rc` (`k` a row).
    #[inline(always)]
    pub(super) fn gradient(&self, residuals: &[f64], k: usize, width: usize, gradient: &mut [f64]) {
        let stride = self.dense_rows.stride;
        let nb = self.binary.len();
        let mut dense = vec![0.0; k * stride];
        let mut total = vec![0.0; k];
        let mut with = vec![0.0; k * nb];
        for (r, row_residuals) in residuals.chunks_exact(k).enumerate() {
            let row = &self.dense_rows.values[r * stride..(r + 1) * stride];
            let active = &self.active[self.starts[r]..self.starts[r + 1]];
            for (c, &residual) in row_residuals.iter().enumerate() {
                let target = &mut dense[c * stride..(c + 1) * stride];
                for (sum, &z) in target.iter_mut().zip(row) {
                    *sum += residual * z;
                }
                total[c] += residual;
                let target = &mut with[c * nb..(c + 1) * nb];
                for &l in active {
                    target[l as usize] += residual;
                }
            }
        }
        for (c, target) in gradient.chunks_exact_mut(width).enumerate() {
            for (j, &column) in self.dense.iter().enumerate() {
                target[column] = dense[c * stride + j];
            }
            let pairs = self.binary.iter().zip(&self.values);
            for (l, (&column, &[a, b])) in pairs.enumerate() {
                let with = with[c * nb + l];
                target[column] = b * with + a * (total[c] - with);
            }
        }
    }

    /// Adds `sum_r factors[r] z_r z_r^T` over the rows of positive weight to a packed upper
    /// triangle of side `width` (see [`add_weighted_gram`]).
    #[inline(always)]
    pub(super) fn add_gram(&self, triangle: &mut [f64], width: usize, factors: &[f64]) {
        let d = self.dense.len();
        let nb = self.binary.len();
        let mut dense_triangle = vec![0.0; d * (d + 1) / 2];
        add_weighted_gram(&mut dense_triangle, d, &self.dense_rows, factors, None);
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
        // The sums over each row's active columns, the dense ones padded (`cross[l][0]`, the
        // constant column's, is `F1_l`).
        let stride = self.dense_rows.stride;
        let mut cross = vec![0.0; stride * nb];
        let mut both = vec![0.0; nb * nb];
        for (r, &f) in factors.iter().enumerate().take(self.starts.len() - 1) {
            let row = &self.dense_rows.values[r * stride..(r + 1) * stride];
            let active = &self.active[self.starts[r]..self.starts[r + 1]];
            for (index, &l) in active.iter().enumerate() {
                let l = l as usize;
                for (sum, &z) in cross[l * stride..(l + 1) * stride].iter_mut().zip(row) {
                    *sum += f * z;
                }
                for &m in &active[index + 1..] {
                    both[l * nb + m as usize] += f;
                }
            }
        }
        let total = at(0, 0);
        let first: Vec<f64> = (0..nb).map(|l| cross[l * stride]).collect();
        for (l, (&q, &[a, b])) in self.binary.iter().zip(&self.values).enumerate() {
            for (j, &p) in self.dense.iter().enumerate() {
                let with = cross[l * stride + j];
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

/// Coefficients `w` folded onto a [`TwoValued`] split, class after class: the dense columns'
/// (padded like the dense rows), the part `sum_l a_l w_l` every row gets from the two-valued
/// columns, and what a row's being active in two-valued column `l` adds, `(b_l - a_l) w_l`.
pub(super) struct Folded {
    dense: Vec<f64>,
    base: Vec<f64>,
    delta: Vec<f64>,
}
