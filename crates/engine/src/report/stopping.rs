//! The report's section of `[stopping]` (issue 44): every deciding pair's sequential decision
//! on every dataset (`tables/stopping.csv`), a line per pair as fastchess prints it, the units
//! the stops save against the fixed design, and the e-value or boundary paths
//! ([`crate::report::stopping_figures`]). Computed from the record with the same function the
//! runner calls after each repetition ([`crate::plan::stopping_decisions`]).

use report::{Cell, Table};
use stats::{Decision, SequentialRule};

use crate::error::Result;
use crate::plan::stopping::{repetition_sizes, Stopping};
use crate::plan::stopping_decisions::{dataset_stop, PairStop};
use crate::record::run_record::RunRecord;
use crate::report::section::Section;
use crate::report::stopping_record::{decisions, names, DatasetStops};

/// The stopping section; none without `[stopping]`.
pub fn section(record: &RunRecord) -> Result<Option<Section>> {
    let Some((stopping, all)) = decisions(record)? else {
        return Ok(None);
    };
    let mut table = Table::new(
        "Sequential decisions",
        [
            "dataset",
            "learner_a",
            "learner_b",
            "repetitions",
            "decision",
            "e_value",
        ]
        .map(String::from)
        .to_vec(),
    );
    let mut lines = Table::new(
        "Sequential decisions, pair by pair",
        vec!["decision".to_string()],
    );
    for stops in &all {
        let dataset = &record.plan.datasets[stops.dataset].name;
        for pair in &stops.pairs {
            let (a, b) = names(record, pair);
            table.push_row(vec![
                Cell::text(dataset),
                Cell::text(a),
                Cell::text(b),
                Cell::integer(pair.decision.repetitions as i64),
                Cell::text(pair.decision.decision.name()),
                pair.decision
                    .e_value()
                    .map_or_else(Cell::empty, |e| Cell::text(e_value_text(e))),
            ]);
            lines.push_row(vec![Cell::text(line(record, &stopping, dataset, pair))]);
        }
    }
    let mut section = Section::new("Sequential stopping", reading(record, &stopping, &all));
    section.table("stopping", table);
    section.table("stopping_lines", lines);
    crate::report::stopping_figures::paths(record, &stopping, &all, &mut section)?;
    Ok(Some(section))
}

/// A pair's line, as fastchess prints a finished test: "c45 vs nb on credit-g: decided at
/// repetition 12 of 30 (e = 23.9 >= 20 = 1/alpha; c45 better); 18 repetitions saved".
pub fn line(record: &RunRecord, stopping: &Stopping, dataset: &str, pair: &PairStop) -> String {
    let (a, b) = names(record, pair);
    let decided = &pair.decision;
    let total = stopping.repetitions;
    let evidence = evidence(stopping, decided);
    let verdict = match decided.decision {
        Decision::ABetter => format!("{a} better"),
        Decision::BBetter => format!("{b} better"),
        Decision::Equivalent => "equivalent".to_string(),
        Decision::Undecided => {
            return format!(
                "{a} vs {b} on {dataset}: undecided after {} of {total} repetitions ({evidence})",
                decided.repetitions
            )
        }
    };
    format!(
        "{a} vs {b} on {dataset}: decided at repetition {} of {total} ({evidence}; {verdict}); {} \
         repetitions saved",
        decided.repetitions,
        total - decided.repetitions
    )
}

/// The evidence at the last repetition used: the e-value against 1/alpha, or the confidence
/// sequence against the rope.
fn evidence(stopping: &Stopping, decided: &stats::PairDecision) -> String {
    let threshold = 1.0 / stopping.settings.alpha;
    let last = decided.path.last();
    match stopping.settings.rule {
        SequentialRule::EValue { .. } => match last.and_then(|step| step.e_value) {
            Some(e) => format!(
                "e = {} {} {} = 1/alpha",
                short(e),
                if e >= threshold { ">=" } else { "<" },
                short(threshold)
            ),
            None => "no e-value before 2 repetitions".to_string(),
        },
        SequentialRule::ConfidenceSequence { rope, .. } => {
            match last.and_then(|step| step.bounds) {
                Some(bounds) => format!(
                    "confidence sequence [{}, {}], rope [{}, {}]",
                    short(bounds.lower),
                    short(bounds.upper),
                    short(-rope),
                    short(rope)
                ),
                None => "no repetition yet".to_string(),
            }
        }
    }
}

/// A number with 3 significant digits (e-values run from 1e-9 to 1e30): 23.9, 0.0123, 1235.
fn short(value: f64) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    if !(1e-3..1e6).contains(&value.abs()) {
        return format!("{value:.2e}");
    }
    let decimals = (2 - value.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// An e-value for the table: 4 decimals from 0.001 to a million, else in scientific notation
/// (e-values run from 1e-9 to 1e30).
fn e_value_text(e: f64) -> String {
    if (1e-3..1e6).contains(&e) {
        format!("{e:.4}")
    } else {
        format!("{e:.4e}")
    }
}

/// The units each dataset's stop saves against the fixed design, and the fixed design's units.
pub fn units_saved(record: &RunRecord, stopping: &Stopping, all: &[DatasetStops]) -> (u64, u64) {
    let learners = record.plan.learners.len() as u64;
    let mut saved = 0;
    let mut fixed = 0;
    for stops in all {
        let dataset = &record.plan.datasets[stops.dataset];
        let per_repetition = repetition_sizes(dataset).first().copied().unwrap_or(0) as u64;
        fixed += stopping.repetitions as u64 * per_repetition * learners;
        let stop = dataset_stop(&stops.pairs).unwrap_or(stopping.settings.max_repetitions);
        saved += (stopping.repetitions - stop) as u64 * per_repetition * learners;
    }
    (saved, fixed)
}

/// What the section shows, the units saved, and the note on the fixed tests' p-values.
fn reading(record: &RunRecord, stopping: &Stopping, all: &[DatasetStops]) -> String {
    let (saved, fixed) = units_saved(record, stopping, all);
    let rule = match stopping.settings.rule {
        SequentialRule::EValue { delta_min } => format!(
            "the two-sided safe t-test (e-value >= 1/alpha = {}, delta_min = {delta_min})",
            short(1.0 / stopping.settings.alpha)
        ),
        SequentialRule::ConfidenceSequence { rope, .. } => format!(
            "the empirical-Bernstein confidence sequence at alpha = {} (rope {rope})",
            stopping.settings.alpha
        ),
    };
    let stopped = all
        .iter()
        .filter(|s| dataset_stop(&s.pairs).is_some())
        .count();
    format!(
        "Each pair of learners decided on {} by {rule}, from the per-repetition means in \
         repetition order, from repetition {} on and at most {}; a decision is final. {stopped} \
         of {} datasets had every pair decided, and the runner stopped scheduling each there: \
         the run needed {} of the fixed design's {fixed} units ({saved} saved). The \
         fixed-repetition tests of the results section ran on every repetition computed (a \
         dataset's repetitions up to its stop); their p-values are not valid under a \
         sequential design (stopping when they look significant inflates their error rate), \
         while these decisions are: their error rate is at most alpha whenever one stops.",
        record.plan.measures[stopping.measure].name(),
        stopping.settings.min_repetitions,
        stopping.settings.max_repetitions,
        all.len(),
        fixed - saved
    )
}

#[cfg(test)]
mod tests {
    /// The example line writes e = 23.9 and 20.
    #[test]
    fn short_numbers_keep_three_significant_digits() {
        let cases = [
            (23.904, "23.9"),
            (20.0, "20"),
            (0.012345, "0.0123"),
            (1234.6, "1235"),
        ];
        for (value, text) in cases {
            assert_eq!(super::short(value), text);
        }
        assert_eq!(super::short(3.4e-7), "3.40e-7");
        assert_eq!(super::short(-0.0105), "-0.0105");
    }
}
