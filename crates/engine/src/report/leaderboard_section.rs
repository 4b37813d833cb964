//! The report's section "Leaderboard and heat map": the run's leaderboard of the summary's
//! measure ([`crate::report::leaderboard`], written to `tables/leaderboard.*` and shown in the
//! summary screen) and the datasets x learners heat map of its means, marked where the first
//! paired test of the run finds a learner better (`+`) or worse (`-`) than the control
//! (`figures/heatmap.svg`). Its headline is the leaderboard's own verdict, the summary's when no
//! analysis offers one.

use report::HeatMap;
use stats::leaderboard::Leaderboard;

use crate::error::Result;
use crate::record::run_record::RunRecord;
use crate::report::leaderboard;
use crate::report::section::{Headline, Section, SectionTable};

/// The file stem of the leaderboard under `tables/`.
pub const STEM: &str = "leaderboard";

/// The heat map's file.
pub const HEAT_MAP: &str = "figures/heatmap.svg";

/// The section, or `None` for a run without datasets, learners or measures.
pub fn section(record: &RunRecord) -> Result<Option<Section>> {
    let plan = &record.plan;
    if plan.datasets.is_empty() || plan.learners.is_empty() || plan.measures.is_empty() {
        return Ok(None);
    }
    let m = crate::plan::summary_check::measure(&record.config, plan);
    let name = record.results.folds.measures[m].name();
    let board = match leaderboard::of_run(record, m) {
        Ok(board) => board,
        Err(crate::error::Error::Stats(_)) => return Ok(None),
        Err(error) => return Err(error),
    };
    let mut section = Section::new(
        "Leaderboard and heat map",
        format!(
            "The leaderboard of the summary above, and the mean {name} of each learner on each \
             dataset: each row coloured from its worst value (light) to its best (dark); + and - \
             mark a learner the run's first paired test finds better or worse than the control \
             {} at alpha = {}.",
            board.control, record.config.alpha
        ),
    );
    section.tables.push(SectionTable {
        table: leaderboard::table(&board, name),
        file: Some(STEM.to_string()),
        shown: false,
    });
    let map = heat_map(record, m, leaderboard::control(record))?;
    section.figure(
        HEAT_MAP,
        format!("Mean {name} per dataset and learner (+/-: better/worse than the control)."),
        map,
    );
    section.headline = Some(Headline {
        measure: Some(name.to_string()),
        verdict: verdict(&board, name),
        figure: Some(0),
        table: None,
    });
    Ok(Some(section))
}

/// The leaderboard's verdict in one sentence.
pub fn verdict(board: &Leaderboard, measure: &str) -> String {
    let best = &board.rows[0];
    format!(
        "Over {} datasets, {} has the best mean rank on {measure} ({:.2}), with a mean of {:.4} \
         [{:.4}, {:.4}]{}.",
        board.datasets,
        best.learner,
        best.mean_rank,
        best.mean,
        best.mean_low,
        best.mean_high,
        match (best.wins, best.ties, best.losses) {
            (Some(w), Some(t), Some(l)) => format!(
                " and {w} wins, {t} ties and {l} losses against the control {}",
                board.control
            ),
            _ => " (it is the control)".to_string(),
        }
    )
}

/// The heat map of measure `m`'s means, marked against the control.
fn heat_map(record: &RunRecord, m: usize, control: usize) -> Result<String> {
    let plan = &record.plan;
    let measure = &record.results.folds.measures[m];
    let values = leaderboard::means(record, m);
    let marks = (0..plan.datasets.len())
        .map(|d| {
            (0..plan.learners.len())
                .map(|l| mark(record, (d, m), (l, control), &values[d]))
                .collect()
        })
        .collect();
    let map = HeatMap {
        title: format!("Mean {} per dataset", measure.name()),
        rows: plan.datasets.iter().map(|d| d.name.clone()).collect(),
        columns: plan
            .learners
            .iter()
            .enumerate()
            .map(|(l, learner)| match l == control {
                true => format!("{} (control)", learner.name),
                false => learner.name.clone(),
            })
            .collect(),
        values,
        marks,
        higher_is_better: !measure.lower_is_better(),
    };
    Ok(report::heat_map(&map)?)
}

/// `+` when the run's first paired test of this dataset and measure rejects with learner `l`
/// better than the control, `-` when worse, else nothing.
fn mark(
    record: &RunRecord,
    (d, m): (usize, usize),
    (l, control): (usize, usize),
    means: &[Option<f64>],
) -> String {
    let first = record.tests.iter().find(|t| {
        t.dataset == d && t.measure == m && [(t.a, t.b), (t.b, t.a)].contains(&(l, control))
    });
    let (Some(test), Some(mine), Some(theirs)) = (first, means[l], means[control]) else {
        return String::new();
    };
    if !test.reject || test.problem.is_some() || l == control {
        return String::new();
    }
    let lower = record.results.folds.measures[m].lower_is_better();
    match (mine > theirs) != lower {
        true => "+".to_string(),
        false => "-".to_string(),
    }
}
