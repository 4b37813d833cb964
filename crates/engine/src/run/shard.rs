//! Shards: the units of a plan cut into N disjoint, deterministic slices of about equal expected
//! cost, so that N processes (the tasks of a Slurm job array, or machines sharing the results
//! folder) can run one experiment between them and a merge can build its report from the cache.
//!
//! Every unit's expected cost comes from the previous run's `units.csv` (the seconds its fit and
//! predict took, for units whose cache entry is the same) when there is one, and otherwise from
//! a model: the learner's declared cost hint times the rows the unit touches times the
//! attributes (see [`model_cost`]). Units are then handed out longest first, each to the shard with the least
//! expected cost so far (ties to the lowest shard; units of equal cost in plan order). The
//! assignment depends only on the plan and on `units.csv`, which shards never write (only a
//! finished run or merge does), so every shard of one submission computes the same assignment.
//! See docs/slurm.md.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::path::Path;

use crate::plan::units::{Plan, Unit};
use crate::run::cache::unit_path;

/// The folder of a results folder where each shard records what it did
/// (`shards/<I>-of-<N>.toml`); runs and merges keep it.
pub const SHARDS_FOLDER: &str = "shards";

/// The number of shards named by the most recently written shard record under the results
/// folder `folder` (`shards/<I>-of-<N>.toml`), if any.
pub fn recorded_shard_count(folder: &Path) -> Option<usize> {
    let entries = std::fs::read_dir(folder.join(SHARDS_FOLDER)).ok()?;
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let (_, count) = name.strip_suffix(".toml")?.split_once("-of-")?;
            let count: usize = count.parse().ok()?;
            let modified = entry.metadata().ok()?.modified().ok()?;
            Some((modified, count))
        })
        .max()
        .map(|(_, count)| count)
}

/// The most shards a plan may be cut into (a Slurm job array is far smaller); more is refused
/// with the allowed range before anything is allocated.
pub const MAX_SHARDS: usize = 100_000;

/// One of `count` disjoint slices of a plan's units: `index` counts from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 0 to `count - 1`.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Reads `I/N` (0 <= I < N).
    fn from_str(text: &str) -> Result<Shard, String> {
        let wrong = || {
            format!(
                "'{text}' is not a shard: give I/N, the I-th of N slices counted from 0 \
                 (e.g. 0/4 to 3/4)"
            )
        };
        let (index, count) = text.split_once('/').ok_or_else(wrong)?;
        let (index, count) = (index.trim(), count.trim());
        let is_number = |word: &str| !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit());
        if !is_number(index) || !is_number(count) {
            return Err(wrong());
        }
        let count = match count.parse::<usize>() {
            Ok(count) if (1..=MAX_SHARDS).contains(&count) => count,
            _ => {
                return Err(format!(
                    "'{text}': the number of shards N must be from 1 to {MAX_SHARDS}"
                ))
            }
        };
        let index = index.parse::<usize>().unwrap_or(usize::MAX);
        if index >= count {
            return Err(format!(
                "'{text}': the shard index must be at least 0 and below the number of shards \
                 {count} (shards are counted from 0)"
            ));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}/{}", self.index, self.count)
    }
}

/// Where the expected costs of an assignment came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostSource {
    /// The model of [`model_cost`] alone (no previous run's timings).
    Model,
    /// Seconds from the previous run's `units.csv` for `timed` units; the model, scaled to
    /// seconds, for the others.
    PreviousRun {
        /// Units whose cost is their previous run's time.
        timed: usize,
    },
}

/// The shard of every unit of a plan.
#[derive(Clone, Debug)]
pub struct Assignment {
    /// How many shards.
    pub count: usize,
    /// The shard of each unit, in plan order.
    pub shard_of: Vec<usize>,
    /// The expected cost of each unit, in plan order (seconds when timed, model units otherwise).
    pub costs: Vec<f64>,
    /// Where the costs came from.
    pub source: CostSource,
}

impl Assignment {
    /// The assignment of the plan's units to `count` shards, balanced by expected cost (the
    /// previous run's timings under the results folder `folder` where it has them).
    pub fn new(plan: &Plan, folder: &Path, count: usize) -> Assignment {
        let inner = plan
            .tuning
            .as_ref()
            .map_or(&[][..], |tuning| &tuning.units[..]);
        let all: Vec<Unit> = plan.units.iter().chain(inner).copied().collect();
        let (mut costs, source) = unit_costs(plan, folder, &all);
        let inner_costs = costs.split_off(plan.units.len());
        add_inner_costs(plan, (inner, &inner_costs), &mut costs);
        Assignment {
            count,
            shard_of: balance(&costs, count),
            costs,
            source,
        }
    }

    /// The units of one shard, in plan order.
    pub fn units(&self, plan: &Plan, shard: usize) -> Vec<Unit> {
        plan.units
            .iter()
            .zip(&self.shard_of)
            .filter(|(_, &of)| of == shard)
            .map(|(&unit, _)| unit)
            .collect()
    }

    /// The inner units of the tuned learners' outer units of one shard, in plan order: a shard
    /// runs every inner unit of its outer units, so that it can choose their candidates alone.
    pub fn inner_units(&self, plan: &Plan, shard: usize) -> Vec<Unit> {
        let Some(tuning) = &plan.tuning else {
            return Vec::new();
        };
        let mine: HashSet<Unit> = self.units(plan, shard).into_iter().collect();
        tuning
            .units
            .iter()
            .filter(|unit| outer_of(plan, unit).is_some_and(|outer| mine.contains(&outer)))
            .copied()
            .collect()
    }

    /// The expected cost of one shard (the sum over its units).
    pub fn shard_cost(&self, shard: usize) -> f64 {
        self.costs
            .iter()
            .zip(&self.shard_of)
            .filter(|(_, &of)| of == shard)
            .map(|(cost, _)| cost)
            .sum()
    }

    /// How the costs were estimated, in words.
    pub fn describe_source(&self) -> String {
        match self.source {
            CostSource::Model => {
                "expected costs from the model (learner factor x rows x attributes)".to_string()
            }
            CostSource::PreviousRun { timed } => format!(
                "expected costs from the previous run's units.csv ({timed} of {} units timed, \
                 the others by the model scaled to seconds)",
                self.costs.len()
            ),
        }
    }
}

/// The model's expected cost of a unit: the learner's cost hint (what it declares, see
/// `learners::Learner::cost_hint` and the table in docs/slurm.md) times the rows the unit fits
/// on and predicts times the dataset's attributes (at least one). Only ratios matter.
pub fn model_cost(plan: &Plan, unit: Unit) -> f64 {
    let spec = plan.spec(unit);
    let rows = spec.split.train_len() + spec.predicted_len();
    let attributes = spec.dataset.dataset.schema().num_attributes().max(1);
    spec.learner.learner.cost_hint() * rows as f64 * attributes as f64
}

/// The outer unit of a tuning's inner unit (see [`Unit::outer`]).
fn outer_of(plan: &Plan, unit: &Unit) -> Option<Unit> {
    unit.outer(plan.datasets[unit.dataset].plan.splits.len())
}

/// Adds to each tuned learner's outer unit the expected cost of its inner units (they run in
/// the same shard).
fn add_inner_costs(plan: &Plan, (inner, inner_costs): (&[Unit], &[f64]), costs: &mut [f64]) {
    let position: HashMap<Unit, usize> = plan
        .units
        .iter()
        .enumerate()
        .map(|(index, &unit)| (unit, index))
        .collect();
    for (unit, cost) in inner.iter().zip(inner_costs) {
        if let Some(&index) = outer_of(plan, unit).and_then(|outer| position.get(&outer)) {
            costs[index] += cost;
        }
    }
}

/// The expected cost of each of `units`, in their order, and where the costs came from: a
/// unit's fit and predict seconds in the previous run's `units.csv` under `folder` when its
/// cache entry is the same file, else the model's cost scaled to seconds by the timed units
/// (unscaled when none is timed).
pub fn unit_costs(plan: &Plan, folder: &Path, units: &[Unit]) -> (Vec<f64>, CostSource) {
    let model: Vec<f64> = units.iter().map(|&unit| model_cost(plan, unit)).collect();
    let timings = previous_timings(folder);
    if timings.is_empty() {
        return (model, CostSource::Model);
    }
    let timed: Vec<Option<f64>> = units
        .iter()
        .map(|&unit| {
            let path = unit_path(folder, &plan.spec(unit));
            let relative = path.strip_prefix(folder).unwrap_or(&path);
            timings.get(relative.to_string_lossy().as_ref()).copied()
        })
        .collect();
    let (mut seconds, mut modelled) = (0.0, 0.0);
    for (time, cost) in timed.iter().zip(&model) {
        if let Some(time) = time {
            seconds += time;
            modelled += cost;
        }
    }
    let count = timed.iter().flatten().count();
    if count == 0 {
        return (model, CostSource::Model);
    }
    let scale = if modelled > 0.0 {
        seconds / modelled
    } else {
        1.0
    };
    let costs = timed
        .iter()
        .zip(&model)
        .map(|(time, cost)| time.unwrap_or(cost * scale))
        .collect();
    (costs, CostSource::PreviousRun { timed: count })
}

/// The shortest time counted for a unit, so that units timed at 0.0000 s still weigh something.
const SHORTEST_UNIT_SECONDS: f64 = 1e-4;

/// Fit plus predict seconds per predictions file (as written in the column `predictions`) from
/// `folder/units.csv`, for the units that were computed or read back; empty when there is no
/// readable file.
fn previous_timings(folder: &Path) -> HashMap<String, f64> {
    let Ok(table) = data::TextTable::read(&folder.join("units.csv")) else {
        return HashMap::new();
    };
    let (Some(status), Some(fit), Some(predict), Some(path)) = (
        table.find("status"),
        table.find("fit_seconds"),
        table.find("predict_seconds"),
        table.find("predictions"),
    ) else {
        return HashMap::new();
    };
    let mut timings = HashMap::new();
    for row in 0..table.len() {
        let field = |column: usize| table.texts(column)[row].as_str();
        if !matches!(field(status), "computed" | "reused" | "repaired") {
            continue;
        }
        let (Ok(fit), Ok(predict)) = (field(fit).parse::<f64>(), field(predict).parse::<f64>())
        else {
            continue;
        };
        let seconds = fit + predict;
        if seconds.is_finite() {
            timings.insert(field(path).to_string(), seconds.max(SHORTEST_UNIT_SECONDS));
        }
    }
    timings
}

/// An expected cost ordered by `f64::total_cmp`, for the heap of [`balance`].
#[derive(Clone, Copy, PartialEq)]
struct Load(f64);

impl Eq for Load {}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The shard of each unit: units by decreasing cost (equal costs in their given order), each
/// to the shard with the least cost so far (ties to the lowest shard), Graham's
/// longest-processing-time rule. Deterministic: the same costs always give the same shards.
pub fn balance(costs: &[f64], count: usize) -> Vec<usize> {
    let count = count.max(1);
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
    let mut shards: BinaryHeap<Reverse<(Load, usize)>> = (0..count)
        .map(|shard| Reverse((Load(0.0), shard)))
        .collect();
    let mut shard_of = vec![0; costs.len()];
    for unit in order {
        let Some(Reverse((Load(load), shard))) = shards.pop() else {
            break;
        };
        shard_of[unit] = shard;
        shards.push(Reverse((Load(load + costs[unit]), shard)));
    }
    shard_of
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_as_index_over_count() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard { index: 0, count: 1 }.to_string(), "0/1");
        for wrong in [
            "4/4",
            "1/0",
            "x/2",
            "3",
            "-1/2",
            "",
            "0/18446744073709551615",
            "4294967295/4294967296",
            "0/1000001",
        ] {
            assert!(wrong.parse::<Shard>().is_err(), "{wrong}");
        }
    }

    #[test]
    fn balance_follows_the_longest_processing_time_rule() {
        // Worked by hand: 7 -> shard 0 (loads 7, 0); 5 -> 1 (7, 5); 4 -> 1 (7, 9); 3 -> 0
        // (10, 9); 2 -> 1 (10, 11).
        let costs = [3.0, 7.0, 2.0, 5.0, 4.0];
        assert_eq!(balance(&costs, 2), vec![0, 0, 1, 1, 1]);
        // Equal costs go round the shards in plan order.
        assert_eq!(balance(&[1.0; 5], 3), vec![0, 1, 2, 0, 1]);
        // More shards than units: the extra shards stay empty.
        assert_eq!(balance(&[1.0, 2.0], 4), vec![1, 0]);
    }
}
