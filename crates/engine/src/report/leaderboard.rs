//! The leaderboard of a run (the summary screen's table): the learners' per-dataset means of
//! one measure, each the mean of the cell's finite fold values as the `across_datasets`
//! analysis's means table has it, given to [`stats::leaderboard::leaderboard`] with the
//! control, the `[report]` anchors, the failed units and the seconds of fitting; and the table
//! that shows any leaderboard, the run's or `compare TABLE --leaderboard`'s.

use report::{Cell, Table};
use stats::leaderboard::{leaderboard, Leaderboard, LeaderboardInput, LeaderboardOptions};

use crate::error::Result;
use crate::record::results::mean_and_sd;
use crate::record::run_record::RunRecord;
use crate::run::runner::Status;

/// Bootstrap resamples of the datasets behind each mean's interval.
pub const RESAMPLES: usize = 2000;

/// `means[dataset][learner]` of measure `m` (index into the run's measures): the mean of the
/// finite fold values, `None` where there is none.
pub fn means(record: &RunRecord, m: usize) -> Vec<Vec<Option<f64>>> {
    let (plan, folds) = (&record.plan, &record.results.folds);
    (0..plan.datasets.len())
        .map(|d| {
            (0..plan.learners.len())
                .map(|l| {
                    let mean = mean_and_sd(&folds.values(d, l, m)).0;
                    mean.is_finite().then_some(mean)
                })
                .collect()
        })
        .collect()
}

/// The control: the config's `control` (the across-datasets analysis's option), else the
/// first learner.
pub fn control(record: &RunRecord) -> usize {
    let named = record
        .config
        .options
        .get("control")
        .and_then(|v| v.as_str());
    named
        .and_then(|name| record.plan.learners.iter().position(|l| l.name == name))
        .unwrap_or(0)
}

/// Per learner: its failed units and its seconds of fitting summed over its units.
pub fn costs(record: &RunRecord) -> Vec<(usize, f64)> {
    let mut costs = vec![(0, 0.0); record.plan.learners.len()];
    for (unit, unit_record) in record.plan.units.iter().zip(&record.units) {
        let cost = &mut costs[unit.learner];
        cost.0 += usize::from(matches!(unit_record.status, Status::Failed(_)));
        cost.1 += unit_record.fit_seconds;
    }
    costs
}

/// The run's leaderboard of measure `m`, its bootstrap seeded by the run's seed.
pub fn of_run(record: &RunRecord, m: usize) -> Result<Leaderboard> {
    let measure = &record.results.folds.measures[m];
    let names: Vec<String> = record
        .plan
        .learners
        .iter()
        .map(|l| l.name.clone())
        .collect();
    let means = means(record, m);
    let costs = costs(record);
    let input = LeaderboardInput {
        learners: &names,
        means: &means,
        higher_is_better: !measure.lower_is_better(),
        control: control(record),
        anchors: crate::plan::summary_check::anchors(&record.config, &record.plan),
        costs: Some(&costs),
    };
    let options = LeaderboardOptions {
        alpha: record.config.alpha,
        resamples: RESAMPLES,
        seed: bootstrap_seed(record.config.seed),
    };
    Ok(leaderboard(&input, &options)?)
}

/// The seed of the leaderboard's bootstrap, derived from a run's seed (or `compare --seed`'s,
/// so that `compare` on a run's per-fold table draws the run's resamples).
pub fn bootstrap_seed(seed: u64) -> u64 {
    seeds::derive_seed_from_label(seed, "leaderboard")
}

/// The leaderboard as a table: learner, mean rank, wins/ties/losses against the control, mean
/// with its interval, the normalised score (with anchors), failed units and seconds of
/// fitting (when known).
pub fn table(board: &Leaderboard, measure: &str) -> Table {
    let level = 100.0 * (1.0 - board.options.alpha);
    let mut header = vec![
        "learner".to_string(),
        "mean rank".to_string(),
        format!("W/T/L vs {}", board.control),
        format!("mean {measure} [{level:.0}% interval]"),
    ];
    let anchors = board.anchors.as_ref();
    if let Some([low, high]) = anchors {
        header.push(format!("normalised ({low} 0, {high} 1)"));
    }
    let costs = board
        .rows
        .first()
        .is_some_and(|row| row.fit_seconds.is_some());
    if costs {
        header.extend(["failed units".to_string(), "fit seconds".to_string()]);
    }
    let mut table = Table::new(format!("Leaderboard: {measure}"), header);
    for row in &board.rows {
        let mut cells = vec![
            Cell::text(&row.learner),
            Cell::number(row.mean_rank).with_decimals(2),
            match (row.wins, row.ties, row.losses) {
                (Some(w), Some(t), Some(l)) => Cell::text(format!("{w}/{t}/{l}")),
                _ => Cell::text("control"),
            },
            Cell::text(format!(
                "{:.4} [{:.4}, {:.4}]",
                row.mean, row.mean_low, row.mean_high
            )),
        ];
        if anchors.is_some() {
            cells.push(
                row.normalised
                    .map_or(Cell::empty(), |v| Cell::number(v).with_decimals(3)),
            );
        }
        if costs {
            cells.push(Cell::integer(row.failed.unwrap_or(0) as i64));
            cells.push(Cell::number(row.fit_seconds.unwrap_or(0.0)).with_decimals(1));
        }
        table.push_row(cells);
    }
    table.push_note(note(board, measure));
    table
}

/// What the leaderboard's numbers are.
fn note(board: &Leaderboard, measure: &str) -> String {
    let direction = if board.higher_is_better {
        "higher"
    } else {
        "lower"
    };
    let mut text = format!(
        "Over {} datasets where every learner has a result ({measure}, {direction} is better): mean rank \
         of the per-dataset means (1 = best, ties averaged); wins, ties and losses against the \
         control {}; mean over the datasets with a percentile bootstrap interval ({} resamples \
         of the datasets).",
        board.datasets, board.control, board.options.resamples
    );
    if board.incomplete_datasets > 0 {
        text.push_str(&format!(
            " {} datasets lacking some learner's result are left out.",
            board.incomplete_datasets
        ));
    }
    if let Some([low, high]) = &board.anchors {
        text.push_str(&format!(
            " Normalised as AMLB: (x - {low}) / ({high} - {low}) per dataset, averaged."
        ));
    }
    text
}
