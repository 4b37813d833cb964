//! Effect sizes of one learner against another over data sets, with the magnitude labels
//! autorank 1.3 gives them: Cohen's d (pooled standard deviation), Akinshin's gamma (a
//! median-based d with the pooled, normal-consistent MAD) and Cliff's delta (dominance over
//! all pairs of values). As in autorank, the two columns are treated as two samples (not
//! paired).

use serde::{Deserialize, Serialize};

use crate::error::{check_finite, StatsError};
use crate::summary::{mean, sample_variance};

/// Which effect size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectSizeKind {
    /// Cohen's d: difference of means / pooled standard deviation.
    CohenD,
    /// Akinshin's gamma: difference of medians / pooled MAD (scaled by 1.4826).
    AkinshinGamma,
    /// Cliff's delta: P(x > y) - P(x < y) over all pairs.
    CliffDelta,
}

/// Magnitude label of an effect size (autorank's thresholds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Magnitude {
    /// |d|, |gamma| < 0.2; |delta| < 0.147.
    Negligible,
    /// |d|, |gamma| < 0.5; |delta| < 0.33.
    Small,
    /// |d|, |gamma| < 0.8; |delta| < 0.474.
    Medium,
    /// Anything larger.
    Large,
}

impl Magnitude {
    /// The label as a lower-case word ("negligible", "small", "medium", "large").
    pub fn as_str(self) -> &'static str {
        match self {
            Magnitude::Negligible => "negligible",
            Magnitude::Small => "small",
            Magnitude::Medium => "medium",
            Magnitude::Large => "large",
        }
    }
}

/// An effect size and its magnitude.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EffectSize {
    /// Which effect size.
    pub kind: EffectSizeKind,
    /// Its value (x relative to y; positive when x is larger). Infinite when the pooled spread
    /// is 0 and the centres differ; 0 when both are 0.
    #[serde(serialize_with = "crate::json::float")]
    pub value: f64,
    /// autorank's label for |value|.
    pub magnitude: Magnitude,
}

/// autorank's magnitude label of an effect size of `kind`.
pub fn magnitude(kind: EffectSizeKind, value: f64) -> Magnitude {
    let thresholds = match kind {
        EffectSizeKind::CliffDelta => [0.147, 0.33, 0.474],
        EffectSizeKind::CohenD | EffectSizeKind::AkinshinGamma => [0.2, 0.5, 0.8],
    };
    let size = value.abs();
    if size < thresholds[0] {
        Magnitude::Negligible
    } else if size < thresholds[1] {
        Magnitude::Small
    } else if size < thresholds[2] {
        Magnitude::Medium
    } else {
        Magnitude::Large
    }
}

/// Median of a non-empty slice (mean of the two middle values for even lengths).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    }
}

/// Median absolute deviation from the median, times 1.4826 (consistent with the standard
/// deviation of a normal; scipy `median_abs_deviation(scale=1/1.4826)`).
pub fn scaled_mad(values: &[f64]) -> f64 {
    let center = median(values);
    let deviations: Vec<f64> = values.iter().map(|v| (v - center).abs()).collect();
    1.4826 * median(&deviations)
}

fn check_samples(x: &[f64], y: &[f64]) -> Result<(), StatsError> {
    for (name, values) in [("x", x), ("y", y)] {
        if values.len() < 2 {
            return Err(StatsError::TooFew {
                name,
                got: values.len(),
                needed: 2,
            });
        }
        check_finite(name, values)?;
    }
    Ok(())
}

/// Difference over a pooled spread: 0/0 = 0, d/0 = +-inf.
fn standardised(difference: f64, spread: f64) -> f64 {
    if spread > 0.0 {
        difference / spread
    } else if difference == 0.0 {
        0.0
    } else {
        difference.signum() * f64::INFINITY
    }
}

/// Pools two spreads with weights n - 1: sqrt(((nx-1) sx^2 + (ny-1) sy^2) / (nx + ny - 2)).
fn pooled(sx: f64, nx: usize, sy: f64, ny: usize) -> f64 {
    let (nx, ny) = (nx as f64, ny as f64);
    (((nx - 1.0) * sx * sx + (ny - 1.0) * sy * sy) / (nx + ny - 2.0)).sqrt()
}

/// An effect size of x against y (autorank's `_cohen_d`, `_akinshin_gamma`,
/// `_cliffs_delta`). Errors: fewer than 2 values in either -> `TooFew`; NaN/inf ->
/// `NonFinite`.
pub fn effect_size(kind: EffectSizeKind, x: &[f64], y: &[f64]) -> Result<EffectSize, StatsError> {
    check_samples(x, y)?;
    let value = match kind {
        EffectSizeKind::CohenD => {
            let spread = pooled(
                sample_variance(x).sqrt(),
                x.len(),
                sample_variance(y).sqrt(),
                y.len(),
            );
            standardised(mean(x) - mean(y), spread)
        }
        EffectSizeKind::AkinshinGamma => {
            let spread = pooled(scaled_mad(x), x.len(), scaled_mad(y), y.len());
            standardised(median(x) - median(y), spread)
        }
        EffectSizeKind::CliffDelta => cliffs_delta(x, y),
    };
    Ok(EffectSize {
        kind,
        value,
        magnitude: magnitude(kind, value),
    })
}

/// Cliff's delta: (#{x_i > y_j} - #{x_i < y_j}) / (n_x n_y), by sorting y and binary search
/// (O((n + m) log m)).
fn cliffs_delta(x: &[f64], y: &[f64]) -> f64 {
    let mut sorted = y.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut balance: i64 = 0;
    for &value in x {
        let below = sorted.partition_point(|&v| v < value) as i64;
        let not_above = sorted.partition_point(|&v| v <= value) as i64;
        let above = sorted.len() as i64 - not_above;
        balance += below - above;
    }
    balance as f64 / (x.len() as f64 * y.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_samples() {
        assert!(effect_size(EffectSizeKind::CohenD, &[1.0], &[1.0, 2.0]).is_err());
        assert!(effect_size(EffectSizeKind::CliffDelta, &[1.0, f64::NAN], &[1.0, 2.0]).is_err());
        let same = effect_size(EffectSizeKind::CohenD, &[1.0, 1.0], &[1.0, 1.0]).unwrap();
        assert_eq!(same.value, 0.0);
        let apart = effect_size(EffectSizeKind::AkinshinGamma, &[2.0, 2.0], &[1.0, 1.0]).unwrap();
        assert_eq!(apart.value, f64::INFINITY);
        assert_eq!(apart.magnitude, Magnitude::Large);
    }
}
