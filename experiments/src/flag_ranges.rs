//! The documented range of every numeric flag of `compare`, `roc`, `slurm` and `--shard`,
//! checked before any work (issue 28): a value outside it is refused with the flag, the value
//! and what is allowed, never an allocation of terabytes, an overflow or an hour-long loop.
//!
//! | flag | allowed |
//! | --- | --- |
//! | `--alpha` | in (0, 1) |
//! | `--rope` | finite, >= 0 |
//! | `--test-fraction` | finite, > 0 |
//! | `compare TABLE --samples` | 1 to [`MAX_SAMPLES`] |
//! | `compare TABLE`: learners | at most [`stats::MAX_RANKED_LEARNERS`] |
//! | `compare delong --resamples` | 1 to [`MAX_RESAMPLES`] |
//! | `compare mcnemar --b + --c`, `sign --wins + --losses`, `binomial --trials` | at most [`stats::MAX_EXACT_COUNT`] |
//! | `compare auc-interval --positives`, `--negatives` | at least 1; with `--errors`, their sum at most [`stats::MAX_CORTES_MOHRI_INSTANCES`] |
//! | `compare ranks` | 2 to [`stats::MAX_RANKED_LEARNERS`] ranks, each in [1, k]; `--datasets` 2 to [`stats::MAX_RANKED_DATASETS`] |
//! | `--shard I/N`, `slurm --tasks N` | N from 1 to [`MAX_SHARDS`] |
//!
//! Per-fold values must also differ and add up within f64 ([`check_fold_values`]).

use anyhow::{bail, Result};
use data::TextTable;

/// The most Monte Carlo samples of the Bayesian signed-rank test (`compare TABLE --samples`).
pub const MAX_SAMPLES: usize = 1_000_000;

/// The most bootstrap resamples of `compare delong --resamples`.
pub const MAX_RESAMPLES: usize = 1_000_000;

/// The most shards of `--shard I/N` and `slurm --tasks` (Slurm's own array limit is usually far
/// lower: `MaxArraySize`, 1001 by default): the engine's bound.
pub const MAX_SHARDS: usize = engine::run::shard::MAX_SHARDS;

/// A count flag in `low..=high`.
pub fn check_count(flag: &str, value: u64, low: u64, high: u64, what: &str) -> Result<()> {
    if !(low..=high).contains(&value) {
        bail!("{flag} {value} is out of range: {what} must be from {low} to {high}");
    }
    Ok(())
}

/// The sum of two count flags, at most `high` (without overflow).
pub fn check_sum(flags: [(&str, u64); 2], high: u64, why: &str) -> Result<()> {
    let [(first, a), (second, b)] = flags;
    match a.checked_add(b) {
        Some(sum) if sum <= high => Ok(()),
        _ => bail!("{first} {a} plus {second} {b} is more than {high}, the most {why}"),
    }
}

/// `--alpha`: a significance level, in (0, 1).
pub fn check_alpha(alpha: f64) -> Result<()> {
    if !(alpha > 0.0 && alpha < 1.0) {
        bail!("--alpha {alpha} is out of range: must be in (0, 1)");
    }
    Ok(())
}

/// `--shard I/N`: the engine's reading, which bounds N by [`MAX_SHARDS`].
pub fn parse_shard(text: &str) -> Result<engine::run::shard::Shard, String> {
    text.parse()
}

/// The per-fold values of two learners: every difference a - b and every column's sum finite,
/// else an error naming the line (1e308 and -1e308 are finite, their difference is not).
pub fn check_fold_values(table: &TextTable, names: [&str; 2], values: [&[f64]; 2]) -> Result<()> {
    let file = table.path().display();
    let [a, b] = values;
    for row in 0..a.len() {
        if !(a[row] - b[row]).is_finite() {
            bail!(
                "{file}:{}: {} - {} = {:e} - {:e} overflows f64 (beyond about 1.8e308); per-fold \
                 values must differ by a finite amount",
                table.line_of(row),
                names[0],
                names[1],
                a[row],
                b[row]
            );
        }
    }
    for (name, column) in names.iter().zip([a, b]) {
        if !column.iter().sum::<f64>().is_finite() {
            bail!(
                "'{file}': the values of column '{name}' add up beyond f64 (about 1.8e308), so \
                 their mean overflows; per-fold values must be smaller"
            );
        }
    }
    Ok(())
}
