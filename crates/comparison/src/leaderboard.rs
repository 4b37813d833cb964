//! `compare TABLE --leaderboard`: the leaderboard of a results table, the computation a run's
//! summary screen makes ([`stats::leaderboard::leaderboard`], shown by
//! [`engine::report::leaderboard::table`]), as text, Markdown or JSON, optionally with the
//! win-rate matrix and Elo ratings ([`stats::elo`]). [`leaderboard_json`] builds the JSON value
//! alone, `{"leaderboard": [...]}`; `--json` prints it (with `win_rates` and `elo` when asked)
//! as the `result` of the envelope of every command's JSON ([`crate::json_envelope`]).

use serde_json::{json, Value};
use stats::elo::{elo, EloRating};
use stats::leaderboard::{complete_rows, leaderboard, win_rates, Leaderboard};
use stats::leaderboard::{LeaderboardInput, LeaderboardOptions};

use crate::across::Settings;
use crate::compare_file::CompareFileError;
use crate::json_envelope::envelope_text;
use crate::results_table::ResultsTable;

/// How the leaderboard is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned plain text.
    Text,
    /// GitHub-flavoured Markdown.
    Markdown,
    /// One JSON object.
    Json,
}

/// What `--leaderboard` is asked for besides the table's own settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    /// `--anchors a,b`: the learners scoring 0 and 1 in the normalised score.
    pub anchors: Option<String>,
    /// `--win-rate`: add the win-rate matrix.
    pub win_rate: bool,
    /// `--elo`: add the Elo ratings.
    pub elo: bool,
}

/// The leaderboard of `results` (read from `file`) with `settings` (control, alpha, seed).
pub fn of_table(
    file: &str,
    results: &ResultsTable,
    settings: &Settings,
    anchors: Option<&str>,
) -> Result<Leaderboard, CompareFileError> {
    let table = &results.table;
    let index = |flag: &str, name: &str| {
        (table.learners.iter().position(|l| l == name)).ok_or_else(|| CompareFileError::Flag {
            file: file.to_string(),
            problem: format!(
                "{flag} '{name}' names no learner; allowed: {}",
                table.learners.join(", ")
            ),
        })
    };
    let control = match &settings.control {
        Some(name) => index("--control", name)?,
        None => 0,
    };
    let anchors = anchors.map(|text| parse_anchors(file, text)).transpose()?;
    let anchors = match anchors {
        Some([low, high]) => Some((index("--anchors", &low)?, index("--anchors", &high)?)),
        None => None,
    };
    let input = LeaderboardInput {
        learners: &table.learners,
        means: &table.values,
        higher_is_better: !results.lower_is_better,
        control,
        anchors,
        costs: None,
    };
    let options = LeaderboardOptions {
        alpha: settings.alpha,
        resamples: engine::report::leaderboard::RESAMPLES,
        seed: engine::report::leaderboard::bootstrap_seed(settings.seed),
    };
    leaderboard(&input, &options).map_err(|error| CompareFileError::Analysis {
        file: file.to_string(),
        why: format!("the leaderboard: {error}"),
    })
}

/// `--anchors a,b`: two different learner names.
fn parse_anchors(file: &str, text: &str) -> Result<[String; 2], CompareFileError> {
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    match names.as_slice() {
        [low, high] if !low.is_empty() && !high.is_empty() && low != high => {
            Ok([low.to_string(), high.to_string()])
        }
        _ => Err(CompareFileError::Flag {
            file: file.to_string(),
            problem: format!(
                "--anchors '{text}' must be two different learners, LOW,HIGH (the first scores \
                 0, the second 1)"
            ),
        }),
    }
}

/// The JSON value `{"leaderboard": [row, ...]}`, each row the fields of
/// [`stats::leaderboard::LeaderboardRow`], best mean rank first.
pub fn leaderboard_json(board: &Leaderboard) -> Value {
    json!({ "leaderboard": board.rows })
}

/// The win-rate matrix as JSON: `{"learners": [...], "rates": [[...], ...]}` (`null` on the
/// diagonal).
pub fn win_rate_json(results: &ResultsTable) -> Value {
    let table = &results.table;
    let rows = complete_rows(&table.values, table.learners.len());
    json!({
        "learners": table.learners,
        "rates": win_rates(&rows, !results.lower_is_better),
    })
}

/// The win-rate matrix as a table: the share of datasets where the row's learner beats the
/// column's, a tie one half.
pub fn win_rate_table(results: &ResultsTable) -> report::Table {
    let table = &results.table;
    let rows = complete_rows(&table.values, table.learners.len());
    let rates = win_rates(&rows, !results.lower_is_better);
    let mut header = vec!["learner".to_string()];
    header.extend(table.learners.iter().cloned());
    let mut out = report::Table::new(
        "Win rate of the row's learner against the column's (a tie counts one half)",
        header,
    );
    for (learner, row) in table.learners.iter().zip(rates) {
        let mut cells = vec![report::Cell::text(learner)];
        cells.extend(row.into_iter().map(|rate| match rate {
            Some(rate) => report::Cell::number(rate).with_decimals(3),
            None => report::Cell::empty(),
        }));
        out.push_row(cells);
    }
    out
}

/// The Elo ratings of `results`' complete datasets, the leaderboard's control at 1000, with the
/// leaderboard's bootstrap settings: (learner, rating) in table order.
pub fn elo_ratings(results: &ResultsTable, board: &Leaderboard) -> Vec<(String, EloRating)> {
    let table = &results.table;
    let rows = complete_rows(&table.values, table.learners.len());
    let control = table
        .learners
        .iter()
        .position(|l| *l == board.control)
        .unwrap_or(0);
    let ratings = elo(&rows, !results.lower_is_better, control, &board.options);
    table.learners.iter().cloned().zip(ratings).collect()
}

/// The Elo ratings as a table.
fn elo_table(ratings: &[(String, EloRating)], board: &Leaderboard) -> report::Table {
    let level = 100.0 * (1.0 - board.options.alpha);
    let header = ["learner".to_string(), format!("Elo [{level:.0}% interval]")].to_vec();
    let mut out = report::Table::new(
        format!(
            "Elo ratings (Bradley-Terry on every pair's battles per dataset, as TabArena; {} at \
             1000)",
            board.control
        ),
        header,
    );
    for (learner, rating) in ratings {
        out.push_row(vec![
            report::Cell::text(learner),
            report::Cell::text(format!(
                "{:.0} [{:.0}, {:.0}]",
                rating.elo, rating.elo_low, rating.elo_high
            )),
        ]);
    }
    out.push_note(
        "A tie is half a win each; every two learners also play one virtual tie, so that a \
         learner winning every battle gets a finite rating; intervals from the leaderboard's \
         bootstrap of the datasets.",
    );
    out
}

/// `--leaderboard --json`: the leaderboard (with the win rates and Elo ratings asked for) in
/// the envelope of every command's JSON ([`crate::json_envelope`]).
fn json_output(
    file: &str,
    results: &ResultsTable,
    board: &Leaderboard,
    request: &Request,
) -> Result<String, CompareFileError> {
    let mut value = leaderboard_json(board);
    if request.win_rate {
        value["win_rates"] = win_rate_json(results);
    }
    if request.elo {
        let ratings = elo_ratings(results, board);
        let rows: Vec<Value> = (ratings.iter())
            .map(|(learner, r)| {
                json!({"learner": learner, "elo": r.elo, "elo_low": r.elo_low, "elo_high": r.elo_high})
            })
            .collect();
        value["elo"] = Value::Array(rows);
    }
    let inputs = json!({
        "file": file,
        "measure": results.measure,
        "control": board.control,
        "anchors": request.anchors,
        "win_rate": request.win_rate,
        "elo": request.elo,
    });
    let notes = &results.notes;
    Ok(envelope_text("compare leaderboard", inputs, &value, notes)?)
}

/// The whole output of `--leaderboard` in `format`.
pub fn output(
    file: &str,
    results: &ResultsTable,
    settings: &Settings,
    request: &Request,
    format: Format,
) -> Result<String, CompareFileError> {
    let board = of_table(file, results, settings, request.anchors.as_deref())?;
    let measure = results.measure.as_deref().unwrap_or("value");
    if format == Format::Json {
        return json_output(file, results, &board, request);
    }
    let mut tables = vec![engine::report::leaderboard::table(&board, measure)];
    if request.win_rate {
        tables.push(win_rate_table(results));
    }
    if request.elo {
        tables.push(elo_table(&elo_ratings(results, &board), &board));
    }
    let mut out = String::new();
    for table in &tables {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&match format {
            Format::Markdown => table.to_markdown()?,
            _ => table.to_text()?,
        });
    }
    Ok(out)
}
