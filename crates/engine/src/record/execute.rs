//! Execute a checked experiment: every unit of its plan (the splits' units and the
//! whole-training ones) through the one runner and the cache, then the measures per fold, the
//! paired tests and the tests on the test set, as a [`RunRecord`] of plain data. Nothing here
//! writes a report: [`crate::report::write::report`] does, from the record.

use std::path::Path;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::measures::measure::measure_values;
use crate::plan::check::CheckedExperiment;
use crate::record::results::{paired_tests, RunResults, UnitMeasures};
use crate::record::run_record::{MissingUnits, RunRecord};
use crate::run::runner::{run_units, Fitting, RunCounts};
use crate::run::unit::{Part, UnitResult, UnitSpec};

/// Runs (or, for a merge, reads back from the cache under the results folder `folder`) every
/// unit of the experiment's plan on `threads` worker threads, and computes its measures and
/// tests. A merge that misses units stops here, naming them and their shards, unless
/// `allow_missing`.
pub fn execute(
    experiment: CheckedExperiment,
    folder: &Path,
    fitting: Fitting,
    threads: usize,
) -> Result<RunRecord> {
    let started = Instant::now();
    let CheckedExperiment { config, text, plan } = experiment;
    crate::run::publish::check_writable(folder, &plan, true)?;
    if plan.datasets.is_empty() {
        let results = RunResults::empty();
        let (units, counts) = (Vec::new(), RunCounts::default());
        let missing = MissingUnits::default();
        return Ok(RunRecord::new(
            (config, text, plan),
            units,
            counts,
            missing,
            results,
            folder,
        ));
    }
    eprintln!(
        "experiment '{}': {} datasets, {} learners, {} units{}",
        config.name,
        plan.datasets.len(),
        plan.learners.len(),
        plan.units.len(),
        match fitting {
            Fitting::Compute => "",
            Fitting::CacheOnly { .. } => ", merged from the cache",
        }
    );
    let measures = plan.measures.clone();
    let summarise = |spec: &UnitSpec, result: &UnitResult| {
        let positive = spec.dataset.positive;
        let predictions = result
            .predictions
            .as_ref()
            .expect("summaries are made of successful units");
        let (truth, probabilities) = predictions.part(Part::Test);
        let test = measure_values(&measures, &probabilities, &truth, positive);
        let validation = predictions.has_part(Part::Validation).then(|| {
            let (truth, probabilities) = predictions.part(Part::Validation);
            measure_values(&measures, &probabilities, &truth, positive)
        });
        UnitMeasures { test, validation }
    };
    let (units, counts) = run_units(folder, &plan, &plan.units, fitting, threads, summarise)?;
    let missing = MissingUnits::of(folder, &plan, &units);
    if fitting
        == (Fitting::CacheOnly {
            allow_missing: false,
        })
        && !missing.is_empty()
    {
        return Err(Error::MissingUnits {
            experiment: config.name,
            missing: missing.describe(&plan),
        });
    }
    eprintln!(
        "units: {} computed, {} reused from the cache, {} failed{} ({:.1}s so far)",
        counts.computed,
        counts.reused,
        counts.failed,
        if counts.missing > 0 {
            format!(", {} missing", counts.missing)
        } else {
            String::new()
        },
        started.elapsed().as_secs_f64()
    );
    let results = RunResults::new(&plan, &measures, &units)?;
    let tests = paired_tests(
        &plan,
        &results.folds,
        &plan.fold_tests,
        &config.test_options(None),
    );
    let mut record = RunRecord::new(
        (config, text, plan),
        units,
        counts,
        missing,
        results,
        folder,
    );
    record.tests = tests;
    record.test_set_tests = crate::record::test_set_run::test_set_tests(
        &record.plan,
        &record.plan.test_set_tests,
        record.config.alpha,
        |dataset, learner| record.whole_training_predictions(dataset, learner),
    );
    Ok(record)
}
