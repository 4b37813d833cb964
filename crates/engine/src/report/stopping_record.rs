//! The sequential decisions of a finished run's record (issue 44): each dataset's
//! per-repetition means of the stopping measure, read from the per-fold results, decided by
//! [`stopping_decisions`], the function the runner calls after each repetition.

use crate::error::Result;
use crate::plan::stopping::{resolve, Stopping};
use crate::plan::stopping_decisions::{repetition_means, stopping_decisions, PairStop};
use crate::record::run_record::RunRecord;

/// One dataset's decisions.
pub struct DatasetStops {
    /// The dataset (an index into the plan's datasets).
    pub dataset: usize,
    /// Its pairs' decisions.
    pub pairs: Vec<PairStop>,
}

/// Every dataset's decisions from a finished run's record, with the resolved settings; none
/// without `[stopping]`.
pub fn decisions(record: &RunRecord) -> Result<Option<(Stopping, Vec<DatasetStops>)>> {
    let Some(stopping) = resolve(&record.config, &record.plan)? else {
        return Ok(None);
    };
    let folds = &record.results.folds;
    let mut all = Vec::new();
    for (d, dataset) in record.plan.datasets.iter().enumerate() {
        let means = repetition_means(dataset, record.plan.learners.len(), |learner, split| {
            folds.cells[d][learner][split]
                .as_ref()
                .map(|values| values[stopping.measure])
        });
        all.push(DatasetStops {
            dataset: d,
            pairs: stopping_decisions(&means, &stopping)?,
        });
    }
    Ok(Some((stopping, all)))
}

/// The names of a pair's learners.
pub(crate) fn names<'a>(record: &'a RunRecord, pair: &PairStop) -> (&'a str, &'a str) {
    let learners = &record.plan.learners;
    (&learners[pair.a].name, &learners[pair.b].name)
}
