//! The `[stopping]` table resolved against the plan: the measure, the pairs, the protocol's
//! repetitions and the rule's settings, each checked at `--check` with an error naming the key
//! (issue 44). The decisions themselves are [`crate::plan::stopping_decisions`]'s.

use stats::{SequentialRule, SequentialSettings, StitchingOptions};

use crate::config::experiment::ExperimentConfig;
use crate::config::stopping::{StopPairs, StopRule, StoppingConfig};
use crate::error::{Error, Result};
use crate::plan::units::{Plan, PreparedDataset};

/// `[stopping]` resolved against a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Stopping {
    /// The table as written.
    pub config: StoppingConfig,
    /// The rule's settings, `max_repetitions` resolved.
    pub settings: SequentialSettings,
    /// The index of the measure among the plan's measures.
    pub measure: usize,
    /// True when a lower value of the measure is better.
    pub lower_is_better: bool,
    /// The pairs of learners (indices into the plan's learners) that decide, a before b.
    pub pairs: Vec<(usize, usize)>,
    /// The protocol's repetitions (the fixed design), the same for every dataset.
    pub repetitions: usize,
}

/// The number of repetitions of a dataset's splits and the splits in each, in order.
pub fn repetition_sizes(dataset: &PreparedDataset) -> Vec<usize> {
    let mut sizes: Vec<usize> = Vec::new();
    for split in &dataset.plan.splits {
        if sizes.len() <= split.repetition {
            sizes.resize(split.repetition + 1, 0);
        }
        sizes[split.repetition] += 1;
    }
    sizes
}

/// The range of a measure's values, where it is known in advance (the confidence sequence
/// needs it); none for an unbounded one.
fn measure_range(name: &str) -> Option<(f64, f64)> {
    match name {
        "error" | "auc" | "partial_auc" | "h_measure" | "ece" | "mce" => Some((0.0, 1.0)),
        "brier" => Some((0.0, 2.0)),
        _ => None,
    }
}

/// The config's `[stopping]` resolved against `plan`; none without the table. Every problem
/// names its key: a measure the config does not compute, an unknown control learner, a
/// protocol without repetitions, a `max_repetitions` past the protocol's.
pub fn resolve(config: &ExperimentConfig, plan: &Plan) -> Result<Option<Stopping>> {
    let Some(stopping) = &config.stopping else {
        return Ok(None);
    };
    let names: Vec<&str> = plan.measures.iter().map(|m| m.name()).collect();
    let measure = match &stopping.measure {
        None => 0,
        Some(name) => names.iter().position(|n| n == name).ok_or_else(|| {
            Error::config(format!(
                "key 'stopping.measure' = \"{}\": allowed: a measure the config computes \
                 (key 'measures'): {}",
                data::shown(name),
                names.join(", ")
            ))
        })?,
    };
    if plan.tuning.is_some() {
        return Err(Error::config(
            "key 'stopping': not yet with tuned learners (a `tune` key): remove [stopping] or \
             the learners' `tune`",
        ));
    }
    let repetitions = protocol_repetitions(plan)?;
    let max_repetitions = stopping.max_repetitions.unwrap_or(repetitions);
    if max_repetitions > repetitions {
        return Err(Error::config(format!(
            "key 'stopping.max_repetitions' = {max_repetitions} is more than the protocol's \
             {repetitions} repetitions: allowed: at most {repetitions} (or raise the protocol's \
             'repetitions')"
        )));
    }
    if stopping.min_repetitions > max_repetitions {
        return Err(Error::config(format!(
            "key 'stopping.min_repetitions' = {} is more than the {max_repetitions} repetitions \
             that can run: allowed: at most {max_repetitions}",
            stopping.min_repetitions
        )));
    }
    let rule = rule(stopping, names[measure])?;
    let pairs = pairs(stopping, plan)?;
    if pairs.is_empty() {
        return Err(Error::config(
            "key 'stopping' needs at least 2 learners: it decides pairs of learners",
        ));
    }
    Ok(Some(Stopping {
        config: stopping.clone(),
        settings: SequentialSettings {
            rule,
            alpha: stopping.alpha,
            min_repetitions: stopping.min_repetitions,
            max_repetitions,
        },
        measure,
        lower_is_better: plan.measures[measure].lower_is_better(),
        pairs,
        repetitions,
    }))
}

/// The protocol's repetitions (the largest count of any dataset: a run cuts those it stopped
/// early): at least 2 on every dataset, each with the same number of splits.
fn protocol_repetitions(plan: &Plan) -> Result<usize> {
    let mut found = None;
    for dataset in &plan.datasets {
        let sizes = repetition_sizes(dataset);
        if sizes.len() < 2 || sizes.iter().any(|&size| size != sizes[0]) {
            return Err(Error::config(format!(
                "key 'stopping' needs a protocol with repetitions, each a full set of splits; \
                 on dataset '{}' the protocol makes {} repetition(s): use e.g. protocol = {{ \
                 kind = \"stratified_kfold\", folds = 10, repetitions = 30 }}, or remove \
                 [stopping]",
                dataset.name,
                sizes.len()
            )));
        }
        // Every dataset has the protocol's repetitions, but those the runner stopped early
        // (record::sequential cuts them): the fixed design is the largest.
        found = Some(found.unwrap_or(0).max(sizes.len()));
    }
    Ok(found.unwrap_or(0))
}

/// The rule's settings for the measure `name`.
fn rule(stopping: &StoppingConfig, name: &str) -> Result<SequentialRule> {
    Ok(match stopping.rule {
        StopRule::EValue => SequentialRule::EValue {
            delta_min: stopping.delta_min.unwrap_or(f64::NAN),
        },
        StopRule::ConfidenceSequence => {
            let (low, high) = measure_range(name).ok_or_else(|| {
                Error::config(format!(
                    "key 'stopping.measure' = \"{name}\": rule = \"confidence_sequence\" needs \
                     a measure with known bounds (error, auc, partial_auc, h_measure, ece, mce, \
                     brier); use one of those, or rule = \"e_value\""
                ))
            })?;
            SequentialRule::ConfidenceSequence {
                rope: stopping.rope.unwrap_or(0.0),
                range: (low - high, high - low),
                stitching: StitchingOptions::default(),
            }
        }
    })
}

/// The pairs that decide: every two learners, or each against the control.
fn pairs(stopping: &StoppingConfig, plan: &Plan) -> Result<Vec<(usize, usize)>> {
    let count = plan.learners.len();
    match stopping.pairs {
        StopPairs::All => Ok((0..count)
            .flat_map(|a| (a + 1..count).map(move |b| (a, b)))
            .collect()),
        StopPairs::Control => {
            let name = stopping.control.as_deref().unwrap_or_default();
            let control = plan
                .learners
                .iter()
                .position(|learner| learner.name == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = plan.learners.iter().map(|l| l.name.as_str()).collect();
                    Error::config(format!(
                        "key 'stopping.control' = \"{name}\": allowed: a learner's name: {}",
                        names.join(", ")
                    ))
                })?;
            Ok((0..count)
                .filter(|&other| other != control)
                .map(|other| (control, other))
                .collect())
        }
    }
}
