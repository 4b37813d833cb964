//! Vertical averaging of curves over folds, one fold at a time: each fold's curve is read at the
//! same fixed x values (a recall, a recall gain, a probability cost) and only those values are
//! kept, so averaging k folds needs the memory of one curve and k values per x.

use serde::Serialize;

use crate::error::{EvaluateError, Result};
use crate::roc_curves::averaging::mean_and_sd;

/// The mean and spread over folds of a curve's value at one x.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GridSample {
    /// The fixed x.
    pub x: f64,
    /// Mean over the folds.
    pub mean: f64,
    /// Sample standard deviation over the folds (ddof 1; 0 for one fold).
    pub sd: f64,
}

/// The folds' values at `samples` evenly spaced x from `low` to `high`.
#[derive(Debug, Clone, PartialEq)]
pub struct GridAverage {
    grid: Vec<f64>,
    values: Vec<Vec<f64>>,
}

impl GridAverage {
    /// An empty average over `samples` evenly spaced x from `low` to `high` (2 to 100 000
    /// samples, low < high, both finite).
    pub fn new(low: f64, high: f64, samples: usize) -> Result<Self> {
        if !(2..=100_000).contains(&samples) {
            return Err(EvaluateError::BadParameter {
                name: "samples",
                value: samples as f64,
                allowed: "an integer from 2 to 100000",
            });
        }
        if !(low.is_finite() && high.is_finite() && low < high) {
            return Err(EvaluateError::BadParameter {
                name: "grid range",
                value: high - low,
                allowed: "finite ends with low < high",
            });
        }
        let last = (samples - 1) as f64;
        let mut grid: Vec<f64> = (0..samples)
            .map(|s| low + (high - low) * s as f64 / last)
            .collect();
        grid[samples - 1] = high;
        Ok(GridAverage {
            values: vec![Vec::new(); samples],
            grid,
        })
    }

    /// The fixed x values.
    pub fn grid(&self) -> &[f64] {
        &self.grid
    }

    /// Adds one fold: its curve's value at each x of the grid.
    pub fn add(&mut self, mut value_at: impl FnMut(f64) -> Result<f64>) -> Result<()> {
        let fold = self
            .grid
            .iter()
            .map(|&x| value_at(x))
            .collect::<Result<Vec<f64>>>()?;
        self.add_values(&fold)
    }

    /// Adds one fold given as its values at the grid's x, in order (as many as the grid).
    pub fn add_values(&mut self, fold: &[f64]) -> Result<()> {
        if fold.len() != self.grid.len() {
            return Err(EvaluateError::LengthMismatch {
                what: "a fold's values at the grid",
                got: fold.len(),
                expected: self.grid.len(),
            });
        }
        for (column, &value) in self.values.iter_mut().zip(fold) {
            column.push(value);
        }
        Ok(())
    }

    /// Number of folds added.
    pub fn folds(&self) -> usize {
        self.values.first().map_or(0, Vec::len)
    }

    /// Mean and sd at each x (error `Empty` when no fold was added).
    pub fn samples(&self) -> Result<Vec<GridSample>> {
        if self.folds() == 0 {
            return Err(EvaluateError::Empty { what: "curves" });
        }
        Ok(self
            .grid
            .iter()
            .zip(&self.values)
            .map(|(&x, values)| {
                let (mean, sd) = mean_and_sd(values);
                GridSample { x, mean, sd }
            })
            .collect())
    }
}
