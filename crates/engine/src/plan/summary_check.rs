//! The check of a config's `[report]` table against the plan, before any fit: its `measure`
//! is one of the run's measures, its `anchors` two different learners of the run.

use crate::config::experiment::ExperimentConfig;
use crate::error::{Error, Result};
use crate::plan::units::Plan;

/// Refuses a `[report]` table whose measure or anchors the plan does not have, naming the key
/// and what it allows.
pub fn check(config: &ExperimentConfig, plan: &Plan) -> Result<()> {
    let Some(options) = &config.report else {
        return Ok(());
    };
    if let Some(measure) = &options.measure {
        if !plan.measures.iter().any(|m| m.name() == measure) {
            let names: Vec<&str> = plan.measures.iter().map(|m| m.name()).collect();
            return Err(Error::config(format!(
                "key 'report.measure' = '{measure}' is not a measure of this run; allowed: {}",
                names.join(", ")
            )));
        }
    }
    let Some(anchors) = &options.anchors else {
        return Ok(());
    };
    let names: Vec<&str> = plan.learners.iter().map(|l| l.name.as_str()).collect();
    if anchors.len() != 2 || anchors[0] == anchors[1] {
        return Err(Error::config(format!(
            "key 'report.anchors' must name two different learners (the first scores 0, the \
             second 1), and it has {anchors:?}; allowed: {}",
            names.join(", ")
        )));
    }
    match anchors.iter().find(|a| !names.contains(&a.as_str())) {
        Some(unknown) => Err(Error::config(format!(
            "key 'report.anchors': '{unknown}' names no learner; allowed: {}",
            names.join(", ")
        ))),
        None => Ok(()),
    }
}

/// The anchors' learner indices in the plan, when the config declares them.
pub fn anchors(config: &ExperimentConfig, plan: &Plan) -> Option<(usize, usize)> {
    let anchors = config.report.as_ref()?.anchors.as_ref()?;
    let index = |name: &String| plan.learners.iter().position(|l| &l.name == name);
    Some((index(anchors.first()?)?, index(anchors.get(1)?)?))
}

/// The index of the summary's measure in the plan: `[report] measure`, else the first.
pub fn measure(config: &ExperimentConfig, plan: &Plan) -> usize {
    let named = config.report.as_ref().and_then(|r| r.measure.as_ref());
    named
        .and_then(|name| plan.measures.iter().position(|m| m.name() == name))
        .unwrap_or(0)
}
