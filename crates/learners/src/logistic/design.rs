//! The rows Newton's method reads, built column by column from the columns' values before
//! standardisation: when most columns take two values (the indicator columns of nominal
//! attributes), a [`TwoValued`] split that never holds those columns row by row; otherwise the
//! rows, padded for the Hessian's tile kernels. Neither needs the design as a full matrix first.

use super::gram::{padded_stride, PaddedRows};
use super::two_valued::{BinaryColumn, TwoValued};

/// Fewest two-valued columns for which [`TwoValued`] is used (and at least half the columns).
const MIN_TWO_VALUED: usize = 8;

/// The rows of a design, in the form Newton's method reads them.
pub(super) enum Rows {
    /// Every column of every row, padded for the tile kernels of the Hessian.
    Dense(PaddedRows),
    /// The columns with more than two values row by row, the two-valued ones as the rows that
    /// hold their rarer value.
    TwoValued(TwoValued),
}

/// A design of `width` columns over `rows` rows: column 0 is the constant 1 and column `j >= 1`
/// has the standardised values `(x - shifts[j - 1]) / scales[j - 1]` of the values `x` that
/// `raw(j, buffer)` writes into `buffer` (replacing what it held), one per row, and that
/// `block(j, first, out)` writes into `out` for the rows from `first` on (`out.len()` of them).
pub(super) struct Columns<'a, F, B> {
    /// Number of rows.
    pub(super) rows: usize,
    /// Number of columns, the constant one included.
    pub(super) width: usize,
    /// Each column's shift and scale (after the constant column).
    pub(super) shifts: &'a [f64],
    pub(super) scales: &'a [f64],
    /// Writes a column's values before standardisation.
    pub(super) raw: F,
    /// Writes a column's values before standardisation for a block of rows.
    pub(super) block: B,
}

/// Rows per block of [`Columns::padded_rows`]: their padded rows stay in the level-1 cache
/// while the columns are written into them.
const BLOCK_ROWS: usize = 32;

impl<F: FnMut(usize, &mut Vec<f64>), B: Fn(usize, usize, &mut [f64])> Columns<'_, F, B> {
    /// Column `j`'s standardised value of `x`.
    #[inline(always)]
    fn standardise(&self, j: usize, x: f64) -> f64 {
        (x - self.shifts[j - 1]) / self.scales[j - 1]
    }

    /// Writes column `j`'s standardised values into `out` (replacing what it held), using
    /// `buffer` for the values before standardisation.
    fn standardised(&mut self, j: usize, buffer: &mut Vec<f64>, out: &mut Vec<f64>) {
        (self.raw)(j, buffer);
        out.clear();
        out.extend(buffer.iter().map(|&x| self.standardise(j, x)));
    }

    /// The rows: split by [`TwoValued`] when at least [`MIN_TWO_VALUED`] columns, and at least
    /// half of them, take exactly two standardised values; padded rows otherwise.
    pub(super) fn into_rows(mut self) -> Rows {
        let mut buffer = Vec::with_capacity(self.rows);
        let mut dense = vec![0];
        let mut binary = Vec::new();
        for j in 1..self.width {
            (self.raw)(j, &mut buffer);
            match self.binary_column(j, &buffer) {
                Some(column) => binary.push(column),
                None => dense.push(j),
            }
        }
        if binary.len() < MIN_TWO_VALUED || 2 * binary.len() < self.width {
            return Rows::Dense(self.padded_rows());
        }
        let split = TwoValued::from_columns(self.rows, &dense, binary, |j, out| {
            self.standardised(j, &mut buffer, out)
        });
        Rows::TwoValued(split)
    }

    /// Column `j` as a two-valued column when its values `raw` (before standardisation) are two
    /// (told apart by their bits) whose standardised values differ too; `None` otherwise.
    fn binary_column(&self, j: usize, raw: &[f64]) -> Option<BinaryColumn> {
        let first = *raw.first()?;
        let mut second = None;
        let mut first_count = 0;
        for &x in raw {
            if x.to_bits() == first.to_bits() {
                first_count += 1;
            } else {
                match second {
                    None => second = Some(x),
                    Some(s) if f64::to_bits(s) == x.to_bits() => {}
                    Some(_) => return None,
                }
            }
        }
        let second = second?;
        // The rarer value is `b`: its rows are the active ones (the first value on a tie).
        let (a, b) = if 2 * first_count <= raw.len() {
            (second, first)
        } else {
            (first, second)
        };
        let values = [self.standardise(j, a), self.standardise(j, b)];
        if values[0].to_bits() == values[1].to_bits() {
            return None;
        }
        let active = (0..raw.len() as u32)
            .filter(|&r| raw[r as usize].to_bits() == b.to_bits())
            .collect();
        Some(BinaryColumn {
            column: j,
            values,
            active,
        })
    }

    /// Every column of every row, standardised, padded with zero columns for the tile kernels;
    /// written [`BLOCK_ROWS`] rows at a time, each column's values of the block standardised
    /// together.
    fn padded_rows(&self) -> PaddedRows {
        let stride = padded_stride(self.width);
        let mut values = vec![0.0; self.rows * stride];
        let mut column = [0.0; BLOCK_ROWS];
        for (index, block) in values.chunks_mut(BLOCK_ROWS * stride).enumerate() {
            let count = block.len() / stride;
            let column = &mut column[..count];
            for row in block.chunks_exact_mut(stride) {
                row[0] = 1.0;
            }
            for j in 1..self.width {
                (self.block)(j, index * BLOCK_ROWS, column);
                for z in column.iter_mut() {
                    *z = self.standardise(j, *z);
                }
                let targets = block[j..].iter_mut().step_by(stride);
                for (target, &z) in targets.zip(column.iter()) {
                    *target = z;
                }
            }
        }
        PaddedRows::new(values, stride)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The rows of a row-major design of `width` columns (column 0 all ones), already
    /// standardised: split when `split` (which the design must allow), padded rows otherwise.
    pub(in super::super) fn rows_of(values: &[f64], width: usize, split: bool) -> Rows {
        let (shifts, scales) = (vec![0.0; width - 1], vec![1.0; width - 1]);
        let columns = Columns {
            rows: values.len() / width,
            width,
            shifts: &shifts,
            scales: &scales,
            raw: |j: usize, buffer: &mut Vec<f64>| {
                buffer.clear();
                buffer.extend(values.iter().skip(j).step_by(width));
            },
            block: |j: usize, first: usize, out: &mut [f64]| {
                let column = values.iter().skip(first * width + j).step_by(width);
                for (x, &value) in out.iter_mut().zip(column) {
                    *x = value;
                }
            },
        };
        if split {
            columns.into_rows()
        } else {
            Rows::Dense(columns.padded_rows())
        }
    }

    /// A constant column, two numeric ones, then three indicator groups of 4 values
    /// (standardised like the design: two values each), `rows` rows; and its width, 15.
    pub(in super::super) fn indicator_design(rows: usize) -> (Vec<f64>, usize) {
        let width = 15;
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
        (values, width)
    }

    fn split_of(values: &[f64], width: usize) -> TwoValued {
        match rows_of(values, width, true) {
            Rows::TwoValued(split) => split,
            Rows::Dense(_) => panic!("12 of 15 columns take two values"),
        }
    }

    fn assert_close(got: f64, direct: f64, scale: f64, what: &str) {
        assert!(
            (got - direct).abs() <= 1e-13 * scale,
            "{what}: {got} against {direct}"
        );
    }

    #[test]
    fn sums_over_rarer_values_equal_the_direct_gram_sums() {
        let (values, width) = indicator_design(200);
        let factors: Vec<f64> = (0..200).map(|r| 0.2 / (1.0 + r as f64).sqrt()).collect();
        let mut triangle = vec![0.0; width * (width + 1) / 2];
        split_of(&values, width).add_gram(&mut triangle, width, &factors);
        let scale: f64 = factors.iter().sum::<f64>() * 100.0;
        let mut index = 0;
        for j in 0..width {
            for l in j..width {
                let direct: f64 = (values.chunks_exact(width).zip(&factors))
                    .map(|(row, f)| f * row[j] * row[l])
                    .sum();
                assert_close(triangle[index], direct, scale, &format!("({j}, {l})"));
                index += 1;
            }
        }
    }

    #[test]
    fn scores_and_gradient_equal_the_direct_sums() {
        // Two classes' coefficients and residuals.
        let (values, width) = indicator_design(200);
        let split = split_of(&values, width);
        let coefficients: Vec<f64> = (0..2 * width).map(|i| (i as f64 * 0.7).sin()).collect();
        let folded = split.fold(&coefficients, width);
        let mut scores = [0.0; 2];
        for (r, row) in values.chunks_exact(width).enumerate() {
            split.scores(r, &folded, &mut scores);
            for (c, &score) in scores.iter().enumerate() {
                let block = &coefficients[c * width..(c + 1) * width];
                let direct: f64 = row.iter().zip(block).map(|(z, b)| z * b).sum();
                assert_close(score, direct, 100.0, &format!("row {r} class {c}"));
            }
        }
        let residuals: Vec<f64> = (0..400).map(|i| (i as f64 * 0.13).cos() * 0.5).collect();
        let mut gradient = vec![0.0; 2 * width];
        split.gradient(&residuals, 2, width, &mut gradient);
        for c in 0..2 {
            for j in 0..width {
                let direct: f64 = (values.chunks_exact(width).zip(residuals.chunks_exact(2)))
                    .map(|(row, e)| e[c] * row[j])
                    .sum();
                let what = format!("class {c} column {j}");
                assert_close(gradient[c * width + j], direct, 1000.0, &what);
            }
        }
    }
}
