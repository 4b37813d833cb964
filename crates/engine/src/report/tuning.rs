//! The report's section of a run's tuning: the budget every tuned learner was given, and the
//! value each tuned parameter took in each outer unit (`tables/tuning.csv`), from the record.

use report::{Cell, Table};

use crate::plan::tuning::{Inner, Method};
use crate::record::run_record::RunRecord;
use crate::report::section::{Section, SectionTable};

/// The tuning section; `None` for a run without tuned learners.
pub fn section(record: &RunRecord) -> Option<Section> {
    record.plan.tuning.as_ref()?;
    let header = [
        "dataset",
        "learner",
        "repetition",
        "fold",
        "parameter",
        "value",
        "inner_score",
        "evaluations",
        "seconds",
    ];
    let mut table = Table::new("Tuning", header.map(String::from).to_vec());
    for row in &record.tuning {
        table.push_row(vec![
            Cell::text(&row.dataset),
            Cell::text(&row.learner),
            outer_cell(row.whole, row.repetition),
            outer_cell(row.whole, row.fold),
            Cell::text(&row.parameter),
            Cell::text(&row.value),
            Cell::number(row.inner_score),
            Cell::integer(row.evaluations as i64),
            Cell::number(row.seconds),
        ]);
    }
    let mut section = Section::new("Tuning", budget_sentence(record));
    // A row per outer unit and parameter, with the seconds the inner units took: written and
    // linked, not shown (the page stays the same whichever process timed the units).
    section.tables.push(SectionTable {
        shown: false,
        ..SectionTable::new("tuning", table)
    });
    section.table("tuning_choices", choices(record));
    let curves = curves(record);
    curve_figures(record, &curves, &mut section);
    section.table("tuning_curve", curve_table(record, &curves));
    Some(section)
}

/// One figure per dataset: each tuned learner's best inner score against the number of
/// configurations evaluated.
fn curve_figures(record: &RunRecord, curves: &[TuningCurve], section: &mut Section) {
    let measure = record
        .plan
        .tuning
        .as_ref()
        .map_or_else(String::new, |tuning| {
            tuning.settings.measure.name().to_string()
        });
    for (index, dataset) in record.plan.datasets.iter().enumerate() {
        let mut lines: Vec<report::Curve> = Vec::new();
        for curve in curves.iter().filter(|curve| curve.dataset == index) {
            let points: Vec<(f64, f64)> = (1..)
                .zip(&curve.means)
                .map(|(evaluations, &mean)| (f64::from(evaluations), mean))
                .filter(|(_, mean)| mean.is_finite())
                .collect();
            if !points.is_empty() {
                let color = report::PALETTE[lines.len() % report::PALETTE.len()];
                let name = &record.plan.learners[curve.learner].name;
                let mut line = report::Curve::new(name, points, color);
                line.show_points = true;
                lines.push(line);
            }
        }
        if lines.is_empty() {
            continue;
        }
        let title = format!("{}: tuning curves", dataset.name);
        let options = report::PlotOptions::new(title, "configurations evaluated", &measure);
        let Ok(svg) = report::line_plot(&options, &lines) else {
            continue;
        };
        section.figure(
            format!(
                "figures/tuning_curve_{}.svg",
                crate::file_safe(&dataset.name)
            ),
            format!(
                "{}: each tuned learner's best mean inner {measure} among the first n \
                 configurations (in the grid's or the drawn order), averaged over the outer \
                 units: how much of the budget the search needed.",
                dataset.name
            ),
            svg,
        );
    }
}

/// A tuning row's repetition or fold: the number, or `whole` for the model on the whole
/// training part.
fn outer_cell(whole: bool, number: usize) -> Cell {
    if whole {
        Cell::text("whole")
    } else {
        Cell::integer(number as i64)
    }
}

/// What every tuned learner was given, in words: the same budget, method, measure and inner
/// folds for all, and which grids were smaller than the budget (used whole).
fn budget_sentence(record: &RunRecord) -> String {
    let tuning = record.plan.tuning.as_ref().expect("a tuned run");
    let settings = &tuning.settings;
    let inner = match settings.inner {
        Inner::Folds(folds) => {
            format!("{folds} inner folds of each outer training set (the same for every learner)")
        }
        Inner::Validation => "each split's validation rows".to_string(),
    };
    let method = match settings.method {
        Method::Grid => "a grid",
        Method::Random => "random draws",
    };
    let mut text = format!(
        "Each tuned learner evaluated up to {} configurations ({method}, seeded), scored by {} \
         on {inner}; the best configuration (the first on a tie) was then fitted on the outer \
         training rows and scored on the outer test rows, which the tuning never saw.",
        settings.budget,
        settings.measure.name()
    );
    for (learner, tuned) in record.plan.learners.iter().zip(&tuning.learners) {
        let Some(tuned) = tuned else { continue };
        let count = tuned.candidates.len();
        let whole = tuned.grid_size.is_some_and(|size| size <= settings.budget);
        text.push_str(&format!(
            " {}: {count} configurations of {}{}.",
            learner.name,
            tuned.parameters.join(", "),
            if whole && count < settings.budget {
                " (its whole grid, smaller than the budget)"
            } else {
                ""
            }
        ));
    }
    text
}

/// A value chosen: dataset, learner, parameter and value.
type Choice<'a> = (&'a str, &'a str, &'a str, &'a str);

/// How stable the choices are: per dataset, tuned learner and parameter, each value chosen and
/// in how many outer units (the splits' units: not the model on the whole training part).
fn choices(record: &RunRecord) -> Table {
    let header = [
        "dataset",
        "learner",
        "parameter",
        "value",
        "outer_units",
        "share",
    ];
    let mut table = Table::new(
        "Tuning: the values chosen",
        header.map(String::from).to_vec(),
    );
    let mut counts: Vec<(Choice, usize)> = Vec::new();
    for row in record.tuning.iter().filter(|row| !row.whole) {
        let key = (
            row.dataset.as_str(),
            row.learner.as_str(),
            row.parameter.as_str(),
            row.value.as_str(),
        );
        match counts.iter_mut().find(|(other, _)| *other == key) {
            Some((_, count)) => *count += 1,
            None => counts.push((key, 1)),
        }
    }
    for &((dataset, learner, parameter, value), count) in &counts {
        let outer: usize = counts
            .iter()
            .filter(|((d, l, p, _), _)| (*d, *l, *p) == (dataset, learner, parameter))
            .map(|(_, count)| count)
            .sum();
        table.push_row(vec![
            Cell::text(dataset),
            Cell::text(learner),
            Cell::text(parameter),
            Cell::text(value),
            Cell::integer(count as i64),
            Cell::number(count as f64 / outer as f64),
        ]);
    }
    table
}

/// The tuning curve of one dataset and tuned learner: the best inner score among the first n
/// candidates (in the grid's order, or drawn order), averaged over the outer units, for every
/// n from 1 (NaN where no candidate has scored yet).
struct TuningCurve {
    /// The dataset's index in the plan.
    dataset: usize,
    /// The learner's index in the plan.
    learner: usize,
    /// The mean best score after 1, 2, ... evaluations.
    means: Vec<f64>,
}

/// Every tuned learner's curve on every dataset, in the record's order.
fn curves(record: &RunRecord) -> Vec<TuningCurve> {
    let lower = record
        .plan
        .tuning
        .as_ref()
        .is_some_and(|tuning| tuning.settings.measure.lower_is_better());
    let mut pairs: Vec<(usize, usize)> = record
        .tuning_scores
        .iter()
        .map(|scores| (scores.dataset, scores.learner))
        .collect();
    pairs.dedup();
    let curve = |(dataset, learner): (usize, usize)| {
        let runs: Vec<Vec<f64>> = record
            .tuning_scores
            .iter()
            .filter(|scores| (scores.dataset, scores.learner) == (dataset, learner))
            .map(|scores| running_best(&scores.scores, lower))
            .collect();
        let length = runs.iter().map(Vec::len).min().unwrap_or(0);
        let means = (0..length)
            .map(|evaluations| {
                let values: Vec<f64> = runs
                    .iter()
                    .map(|run| run[evaluations])
                    .filter(|v| v.is_finite())
                    .collect();
                if values.is_empty() {
                    f64::NAN
                } else {
                    values.iter().sum::<f64>() / values.len() as f64
                }
            })
            .collect();
        TuningCurve {
            dataset,
            learner,
            means,
        }
    };
    pairs.into_iter().map(curve).collect()
}

/// The curves as a table: dataset, learner, evaluations, best_inner_score.
fn curve_table(record: &RunRecord, curves: &[TuningCurve]) -> Table {
    let header = ["dataset", "learner", "evaluations", "best_inner_score"];
    let mut table = Table::new(
        "Tuning: best inner score by evaluations",
        header.map(String::from).to_vec(),
    );
    for curve in curves {
        for (evaluations, &mean) in curve.means.iter().enumerate() {
            table.push_row(vec![
                Cell::text(&record.plan.datasets[curve.dataset].name),
                Cell::text(&record.plan.learners[curve.learner].name),
                Cell::integer(evaluations as i64 + 1),
                Cell::number(mean),
            ]);
        }
    }
    table
}

/// The best of the first n scores for every n (NaN until a candidate has scored).
fn running_best(scores: &[Option<f64>], lower_is_better: bool) -> Vec<f64> {
    let mut best = f64::NAN;
    scores
        .iter()
        .map(|score| {
            if let Some(score) = *score {
                let better = if lower_is_better {
                    score < best
                } else {
                    score > best
                };
                if best.is_nan() || better {
                    best = score;
                }
            }
            best
        })
        .collect()
}
