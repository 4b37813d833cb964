//! Bounds on a plan, checked before its splits are made: a config asking for more units or
//! more memory than the limits is refused with the estimate and the key to change, instead of
//! aborting half-way. The limits can be raised deliberately (`--max-units`,
//! `--max-split-memory-mb`).

use crate::bail;
use crate::error::Result;
use crate::protocols::Protocol;

/// The largest plan a run accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Units (dataset x learner x split) in the whole plan.
    pub units: u64,
    /// Bytes of split indices held in memory for one dataset (every split's training,
    /// validation and test rows).
    pub split_bytes: u64,
}

impl Default for Limits {
    /// One million units, 4 GiB of split indices per dataset.
    fn default() -> Self {
        Limits {
            units: 1_000_000,
            split_bytes: 4 << 30,
        }
    }
}

/// Refuses a dataset whose splits would hold more index bytes than the limit (each split
/// holds about every row once).
pub fn check_splits(
    dataset: &str,
    rows: usize,
    protocol: &dyn Protocol,
    limits: &Limits,
) -> Result<()> {
    let splits = protocol.split_count(rows);
    let bytes = splits.saturating_mul(rows as u64).saturating_mul(8);
    if bytes > limits.split_bytes {
        bail!(
            "dataset '{dataset}': {splits} splits of {rows} rows would hold about {} MB of row \
             indices, over the limit of {} MB: lower the {}, or raise the limit with \
             --max-split-memory-mb",
            bytes / (1 << 20),
            limits.split_bytes / (1 << 20),
            protocol.count_keys()
        );
    }
    Ok(())
}

/// Refuses a plan of more units than the limit.
pub fn check_units(units: u64, protocol: &dyn Protocol, limits: &Limits) -> Result<()> {
    if units > limits.units {
        bail!(
            "the plan has {units} units (datasets x learners x splits), over the limit of {}: \
             lower the {}, name fewer datasets or learners, or raise the limit with --max-units",
            limits.units,
            protocol.count_keys()
        );
    }
    Ok(())
}
