//! Bounds on a plan, checked before its splits are made: a config asking for more units or
//! more memory than the limits is refused with the estimate and the key to change, instead of
//! aborting half-way. The limits can be raised deliberately (`--max-units`,
//! `--max-split-memory-mb`) up to [`MAX_UNITS`] and [`MAX_SPLIT_MEMORY_MB`], and never past
//! this machine's memory: a plan whose splits or units would not fit in it is refused whatever
//! the limits say. One unit's expected work (the learner's cost hint, which a wrapper such as
//! bagging multiplies by its iterations, times the rows and attributes) is bounded too
//! ([`MAX_UNIT_COST`]), so that nested ensembles cannot pass as "3 units" and then never end.

use crate::error::bail;
use crate::error::Result;
use crate::plan::protocols::Protocol;

/// The largest value `--max-units` accepts.
pub const MAX_UNITS: u64 = 1_000_000_000;

/// The largest value `--max-split-memory-mb` accepts (1 TiB).
pub const MAX_SPLIT_MEMORY_MB: u64 = 1 << 20;

/// The largest expected work of one unit, in the units of the learners' cost hints (naive
/// Bayes is 1 per row and attribute): about a day of one core at the measured ten or so
/// nanoseconds per hint unit (docs/slurm.md). A wrapper's hint is its base's times its
/// iterations, so nesting multiplies it.
pub const MAX_UNIT_COST: f64 = 1e13;

/// Bytes a split or unit holds beyond its row indices (its vectors' headers, the unit's
/// record and path), for the estimate against this machine's memory.
const OVERHEAD_BYTES: u64 = 256;

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

/// Refuses a dataset of more rows than the splits can number ([`cv::MAX_INSTANCES`]: row
/// numbers are `u32`), or whose splits would hold more index bytes than the limit: the rows
/// the protocol's splits list ([`Protocol::listed_rows`], 4 bytes a row; the built-in
/// protocols list only the test and validation rows and hold the training rows as the rest,
/// [`cv::Train::Rest`], so that a leave-one-out plan counts each row once) and a constant per
/// split.
pub fn check_splits(
    dataset: &str,
    rows: usize,
    protocol: &dyn Protocol,
    limits: &Limits,
) -> Result<()> {
    if rows > cv::MAX_INSTANCES {
        bail!(
            "dataset '{dataset}' has {rows} rows, more than the {} rows a split can number \
             (row numbers are 32-bit): take a subsample with the transform key 'subsample'",
            cv::MAX_INSTANCES
        );
    }
    let splits = protocol.split_count(rows);
    let bytes = protocol
        .listed_rows(rows)
        .saturating_mul(std::mem::size_of::<u32>() as u64)
        .saturating_add(splits.saturating_mul(OVERHEAD_BYTES));
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
    if let Some(memory) = machine_memory().filter(|&memory| bytes > memory) {
        bail!(
            "dataset '{dataset}': {splits} splits of {rows} rows would hold about {} MB of row \
             indices, more than this machine's memory ({} MB): lower the {}",
            bytes / (1 << 20),
            memory / (1 << 20),
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
    if let Some(memory) =
        machine_memory().filter(|&memory| units.saturating_mul(OVERHEAD_BYTES) > memory)
    {
        bail!(
            "the plan has {units} units (datasets x learners x splits): their records alone \
             would need more than this machine's memory ({} MB); lower the {}, or name fewer \
             datasets or learners",
            memory / (1 << 20),
            protocol.count_keys()
        );
    }
    Ok(())
}

/// This machine's physical memory in bytes (`MemTotal` of /proc/meminfo), where it can be read.
pub fn machine_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes.saturating_mul(1024))
}

/// Refuses a learner (the `position`-th of key 'learners', from 0) whose one unit on a dataset
/// of `rows` rows and `attributes` attributes would cost more than [`MAX_UNIT_COST`], naming
/// the numeric keys of its table and of the learners nested in it, which multiply its work.
pub fn check_unit_cost(
    position: usize,
    (name, learner, table): (&str, &dyn learners::Learner, &toml::Table),
    (dataset, rows, attributes): (&str, usize, usize),
) -> Result<()> {
    let hint = learner.cost_hint();
    let cost = hint * rows as f64 * attributes.max(1) as f64;
    if cost.is_nan() || cost > MAX_UNIT_COST {
        let mut keys = Vec::new();
        numeric_keys(table, "", &mut keys);
        bail!(
            "key 'learners' entry {} ('{name}'): one unit on dataset '{dataset}' would cost \
             about {cost:.1e} (the learner's cost hint {hint:.1e}, in fits of naive Bayes per \
             row and attribute, x {rows} rows x {attributes} attributes), over the limit of \
             {MAX_UNIT_COST:.0e} (about a day of one core): a nested learner multiplies its \
             parent's work; lower {}",
            position + 1,
            if keys.is_empty() {
                "the learner's parameters".to_string()
            } else {
                keys.join(", ")
            }
        );
    }
    Ok(())
}

/// The integer parameters above 1 of a learner's table and of the tables nested in it, as
/// `'path' = value` (the keys that multiply a nested learner's work).
fn numeric_keys(table: &toml::Table, prefix: &str, keys: &mut Vec<String>) {
    for (key, value) in table {
        let path = format!("{prefix}{key}");
        match value {
            toml::Value::Integer(number) if *number > 1 => {
                keys.push(format!("'{path}' = {number}"))
            }
            toml::Value::Table(nested) => numeric_keys(nested, &format!("{path}."), keys),
            _ => {}
        }
    }
}
