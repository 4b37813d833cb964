//! The figures of the stopping section: per dataset, each deciding pair's path over the
//! repetitions used, the e-value (log10, against log10 of 1/alpha) or the confidence sequence's
//! bounds (against the rope).

use report::{Curve, PlotOptions};
use stats::SequentialRule;

use crate::error::Result;
use crate::plan::dataset_names::file_safe;
use crate::plan::stopping::Stopping;
use crate::record::run_record::RunRecord;
use crate::report::section::Section;
use crate::report::stopping_record::{names, DatasetStops};

/// A grey for the threshold lines.
const THRESHOLD: report::Rgb = report::Rgb(110, 110, 110);

/// Adds one figure per dataset with a path to draw.
pub fn paths(
    record: &RunRecord,
    stopping: &Stopping,
    all: &[DatasetStops],
    section: &mut Section,
) -> Result<()> {
    for stops in all {
        let dataset = &record.plan.datasets[stops.dataset].name;
        let mut curves = Vec::new();
        for (index, pair) in stops.pairs.iter().enumerate() {
            let (a, b) = names(record, pair);
            let color = report::PALETTE[index % report::PALETTE.len()];
            // One legend entry per pair: the confidence sequence's upper bound has none.
            for (position, points) in pair_curves(stopping, &pair.decision)
                .into_iter()
                .enumerate()
            {
                if points.len() > 1 {
                    let mut curve = Curve::new(format!("{a} vs {b}"), points, color);
                    curve.show_points = true;
                    if position > 0 {
                        curve.label = None;
                    }
                    curves.push(curve);
                }
            }
        }
        if curves.is_empty() {
            continue;
        }
        let last = stopping.settings.max_repetitions as f64;
        let (caption, y_label) =
            match stopping.settings.rule {
                SequentialRule::EValue { .. } => {
                    let level = (1.0 / stopping.settings.alpha).log10();
                    curves.push(threshold("1/alpha", vec![(1.0, level), (last, level)]));
                    ("each pair's e-value after each repetition (log10); a pair is decided when it \
                  reaches the grey line, 1/alpha", "log10 e-value")
                }
                SequentialRule::ConfidenceSequence { rope, .. } => {
                    curves.push(threshold("rope", vec![(1.0, rope), (last, rope)]));
                    curves.push(threshold("-rope", vec![(1.0, -rope), (last, -rope)]));
                    ("each pair's confidence sequence (lower and upper bound, intersected over the \
                  repetitions) for the mean difference a - b; decided when it leaves the rope \
                  (grey) on one side, or lies inside it", "difference a - b")
                }
            };
        let options = PlotOptions::new(
            format!("{dataset}: sequential decisions"),
            "repetition",
            y_label,
        );
        let svg = report::line_plot(&options, &curves)?;
        section.figure(
            format!("figures/stopping_{}.svg", file_safe(dataset)),
            format!("{dataset}: {caption}."),
            svg,
        );
    }
    Ok(())
}

/// A grey dashed threshold line.
fn threshold(label: &str, points: Vec<(f64, f64)>) -> Curve {
    let mut curve = Curve::new(label, points, THRESHOLD);
    curve.dashed = true;
    curve
}

/// A pair's curves: its log10 e-values, or its lower then upper bounds (finite points only).
fn pair_curves(stopping: &Stopping, decided: &stats::PairDecision) -> Vec<Vec<(f64, f64)>> {
    let at = |step: &stats::SequentialStep| step.repetitions as f64;
    let finite = |points: Vec<(f64, f64)>| -> Vec<(f64, f64)> {
        points.into_iter().filter(|(_, y)| y.is_finite()).collect()
    };
    match stopping.settings.rule {
        SequentialRule::EValue { .. } => {
            let points = decided
                .path
                .iter()
                .filter_map(|step| step.e_value.map(|e| (at(step), e.log10())))
                .collect();
            vec![finite(points)]
        }
        SequentialRule::ConfidenceSequence { .. } => {
            let bound = |upper: bool| {
                decided
                    .path
                    .iter()
                    .filter_map(|step| {
                        step.bounds
                            .map(|b| (at(step), if upper { b.upper } else { b.lower }))
                    })
                    .collect()
            };
            vec![finite(bound(false)), finite(bound(true))]
        }
    }
}
