//! The checks of each row of a predictions file (its fold, its row id, its labels, its
//! confidences) and, once all are read, of each fold's count of predictions.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::arff_read::RawRow;
use crate::columns::{Columns, PROBABILITY_TOLERANCE};
use crate::expectation::{FoldKey, TaskExpectation};
use crate::problem::Problem;

/// The largest whole number a field may hold (row ids are 32-bit, as the task's).
const LARGEST: f64 = u32::MAX as f64;

/// The state of the row checks: each fold's test rows, and the rows already predicted.
pub(crate) struct RowChecker<'a> {
    expected: &'a TaskExpectation,
    columns: &'a Columns,
    test_rows: HashMap<FoldKey, HashSet<u32>>,
    /// Each fold's predicted rows and the line each was first predicted on.
    seen: BTreeMap<FoldKey, HashMap<u32, usize>>,
}

impl<'a> RowChecker<'a> {
    /// A checker of rows for `expected`, reading `columns`.
    pub fn new(expected: &'a TaskExpectation, columns: &'a Columns) -> Self {
        let test_rows = expected
            .folds
            .iter()
            .map(|(key, rows)| (*key, rows.iter().copied().collect()))
            .collect();
        RowChecker {
            expected,
            columns,
            test_rows,
            seen: BTreeMap::new(),
        }
    }

    /// Checks one row, adding its problems.
    pub fn check(&mut self, row: &RawRow, problems: &mut Vec<Problem>) {
        let before = problems.len();
        let key = self.fold_of(row, problems);
        let row_id = whole(row, self.columns.row_id, "row_id", problems);
        if let Some(id) = row_id {
            if id as usize >= self.expected.n_rows {
                problems.push(Problem::at(
                    row.line,
                    format!(
                    "row_id {id} is out of range: the task's dataset has {} rows (row ids 0 to {})",
                    self.expected.n_rows, self.expected.n_rows.saturating_sub(1)
                ),
                ));
            }
        }
        if let (Some(key), Some(id)) = (key, row_id) {
            if problems.len() == before {
                self.place(row.line, key, id, problems);
            }
        }
        let correct = self.label(row, self.columns.correct, "correct", problems);
        self.label(row, self.columns.prediction, "prediction", problems);
        if let (Some(correct), Some(id)) = (correct, row_id) {
            self.check_truth(row.line, id, correct, problems);
        }
        self.check_confidences(row, problems);
    }

    /// The row's fold, if its numbers read and name a fold of the task.
    fn fold_of(&self, row: &RawRow, problems: &mut Vec<Problem>) -> Option<FoldKey> {
        let repeat = whole(row, self.columns.repeat, "repeat", problems);
        let fold = whole(row, self.columns.fold, "fold", problems);
        let sample = match self.columns.sample {
            Some(column) => whole(row, column, "sample", problems),
            None => Some(0),
        };
        let key = FoldKey {
            repeat: repeat?,
            fold: fold?,
            sample: sample?,
        };
        if self.test_rows.contains_key(&key) {
            return Some(key);
        }
        problems.push(Problem::at(
            row.line,
            format!(
                "repeat {} fold {} sample {} is not a fold of task {} (it has {} folds)",
                key.repeat,
                key.fold,
                key.sample,
                self.expected.task_id,
                self.expected.folds.len()
            ),
        ));
        None
    }

    /// Records row `id` as predicted in fold `key`: it must be a test row there, once.
    fn place(&mut self, line: usize, key: FoldKey, id: u32, problems: &mut Vec<Problem>) {
        if !self.test_rows[&key].contains(&id) {
            problems.push(Problem::at(
                line,
                format!(
                    "row_id {id} is not a test row of repeat {} fold {} sample {}",
                    key.repeat, key.fold, key.sample
                ),
            ));
            return;
        }
        let seen = self.seen.entry(key).or_default();
        if let Some(first) = seen.get(&id) {
            problems.push(Problem::at(line, format!(
                "row_id {id} of repeat {} fold {} sample {} is predicted twice (first on line {first}); each test row is predicted exactly once",
                key.repeat, key.fold, key.sample
            )));
        } else {
            seen.insert(id, line);
        }
    }

    /// The label in `column` as an index into the task's labels, or a problem.
    fn label(
        &self,
        row: &RawRow,
        column: usize,
        name: &str,
        problems: &mut Vec<Problem>,
    ) -> Option<usize> {
        let labels = &self.expected.class_labels;
        let Some(value) = &row.fields[column] else {
            problems.push(Problem::at(
                row.line,
                format!("{name} is missing (?); expected one of the task's labels"),
            ));
            return None;
        };
        let found = labels.iter().position(|l| l == value);
        if found.is_none() {
            problems.push(Problem::at(
                row.line,
                format!(
                    "{name} '{}' is not one of the task's labels {{{}}}",
                    data::shown(value),
                    data::shown(&labels.join(", "))
                ),
            ));
        }
        found
    }

    /// `correct` must be the row's true label, when the task knows it.
    fn check_truth(&self, line: usize, id: u32, correct: usize, problems: &mut Vec<Problem>) {
        let Some(Some(truth)) = self.expected.truth.get(id as usize) else {
            return;
        };
        if *truth != correct {
            let labels = &self.expected.class_labels;
            problems.push(Problem::at(
                line,
                format!(
                    "correct is '{}' but row {id}'s true label is '{}'",
                    data::shown(&labels[correct]),
                    data::shown(&labels[*truth])
                ),
            ));
        }
    }

    /// Each confidence a number in [0, 1], their sum 1 (within [`PROBABILITY_TOLERANCE`]).
    fn check_confidences(&self, row: &RawRow, problems: &mut Vec<Problem>) {
        let mut sum = 0.0;
        for (label, &column) in self
            .expected
            .class_labels
            .iter()
            .zip(&self.columns.confidences)
        {
            let name = format!("confidence.{label}");
            let text = row.fields[column].as_deref().unwrap_or("?");
            match text.parse::<f64>().ok().filter(|v| v.is_finite()) {
                Some(value)
                    if (-PROBABILITY_TOLERANCE..=1.0 + PROBABILITY_TOLERANCE).contains(&value) =>
                {
                    sum += value
                }
                Some(value) => {
                    problems.push(Problem::at(
                        row.line,
                        format!(
                            "{} is {value}; a probability lies in [0, 1]",
                            data::shown(&name)
                        ),
                    ));
                    return;
                }
                None => {
                    problems.push(Problem::at(
                        row.line,
                        format!(
                            "{} is '{}', not a finite number; expected a probability in [0, 1]",
                            data::shown(&name),
                            data::shown(text)
                        ),
                    ));
                    return;
                }
            }
        }
        if (sum - 1.0).abs() > PROBABILITY_TOLERANCE {
            problems.push(Problem::at(
                row.line,
                format!(
                "the confidences sum to {sum}; they must sum to 1 (within {PROBABILITY_TOLERANCE})"
            ),
            ));
        }
    }

    /// Each fold of the task must have exactly its test rows predicted.
    pub fn finish(&self, problems: &mut Vec<Problem>) {
        for (key, rows) in &self.expected.folds {
            let seen = self.seen.get(key);
            let count = seen.map_or(0, HashMap::len);
            if count == rows.len() {
                continue;
            }
            let missing: Vec<String> = rows
                .iter()
                .filter(|id| seen.is_none_or(|s| !s.contains_key(id)))
                .take(5)
                .map(u32::to_string)
                .collect();
            problems.push(Problem::whole(format!(
                "repeat {} fold {} sample {}: {count} of its {} test rows are predicted; the evaluation engine needs exactly the task's {} (missing row ids: {}{})",
                key.repeat, key.fold, key.sample, rows.len(), rows.len(),
                missing.join(", "),
                if rows.len() - count > missing.len() { ", ..." } else { "" }
            )));
        }
    }
}

/// The whole number in `column` of `row` (from 0 to 2^32 - 1), or a problem naming `name`.
fn whole(row: &RawRow, column: usize, name: &str, problems: &mut Vec<Problem>) -> Option<u32> {
    let Some(text) = &row.fields[column] else {
        problems.push(Problem::at(
            row.line,
            format!("{name} is missing (?); expected a whole number from 0"),
        ));
        return None;
    };
    match text.parse::<f64>() {
        Ok(value) if (0.0..=LARGEST).contains(&value) && value.fract() == 0.0 => Some(value as u32),
        _ => {
            problems.push(Problem::at(
                row.line,
                format!(
                    "{name} '{}' is not a whole number from 0 to {}",
                    data::shown(text),
                    u32::MAX
                ),
            ));
            None
        }
    }
}
