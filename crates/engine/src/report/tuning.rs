//! The report's section of a run's tuning: the budget every tuned learner was given, and the
//! value each tuned parameter took in each outer unit (`tables/tuning.csv`), from the record.

use report::{Cell, Table};

use crate::plan::tuning::{Inner, Method};
use crate::record::run_record::RunRecord;
use crate::report::section::Section;

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
            Cell::integer(row.repetition as i64),
            Cell::integer(row.fold as i64),
            Cell::text(&row.parameter),
            Cell::text(&row.value),
            Cell::number(row.inner_score),
            Cell::integer(row.evaluations as i64),
            Cell::number(row.seconds),
        ]);
    }
    let mut section = Section::new("Tuning", budget_sentence(record));
    section.table("tuning", table);
    Some(section)
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
