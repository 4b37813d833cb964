//! The folds of `datasplits.arff` as a whole: every fold has train and test rows and none in
//! both, repeats and folds are numbered 0, 1, 2, ... without gaps, every repeat has the same
//! folds, and a cross-validation has the repeats and folds `task.xml` declares.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::OpenmlError;
use crate::splits::{Folds, TaskFold};
use crate::task_xml::Estimation;

/// Checks the folds read from `path` against each other and the estimation procedure, for a
/// dataset of `n_rows` rows; returns them in (repeat, fold, sample) order.
pub(crate) fn checked_folds(
    path: &Path,
    folds: Folds,
    estimation: &Estimation,
    n_rows: usize,
) -> Result<Vec<TaskFold>, OpenmlError> {
    let error = |message: String| OpenmlError::Splits {
        path: path.to_path_buf(),
        message,
    };
    check_numbering(&folds).map_err(error)?;
    check_declared(&folds, estimation).map_err(error)?;
    let mut marks = vec![0usize; n_rows];
    let mut checked = Vec::with_capacity(folds.len());
    for (index, ((repeat, fold, sample), building)) in folds.into_iter().enumerate() {
        let name = format!(
            "repeat {repeat}, fold {fold}, sample {sample} (first on line {})",
            building.first_line
        );
        if building.test.is_empty() || building.train.is_empty() {
            let which = if building.test.is_empty() {
                "test"
            } else {
                "training"
            };
            return Err(error(format!(
                "{name} has no {which} rows; every fold needs both"
            )));
        }
        for &row in &building.train {
            marks[row as usize] = index + 1;
        }
        if let Some(row) = building
            .test
            .iter()
            .find(|&&r| marks[r as usize] == index + 1)
        {
            return Err(error(format!(
                "{name}: row {row} is both a training and a test row"
            )));
        }
        checked.push(TaskFold {
            repeat,
            fold,
            sample,
            train: building.train,
            test: building.test,
        });
    }
    Ok(checked)
}

/// Repeats numbered 0..R, each with folds 0..F (the same F), each with samples 0..S.
fn check_numbering(folds: &Folds) -> Result<(), String> {
    let mut repeats: BTreeMap<u32, BTreeMap<u32, Vec<u32>>> = BTreeMap::new();
    for &(repeat, fold, sample) in folds.keys() {
        repeats
            .entry(repeat)
            .or_default()
            .entry(fold)
            .or_default()
            .push(sample);
    }
    gapless(repeats.keys(), "the repeats")?;
    let first_folds = repeats.values().next().map_or(0, BTreeMap::len);
    for (repeat, its_folds) in &repeats {
        gapless(its_folds.keys(), &format!("the folds of repeat {repeat}"))?;
        if its_folds.len() != first_folds {
            return Err(format!(
                "repeat {repeat} has {} folds but repeat 0 has {first_folds}; every repeat needs the same folds",
                its_folds.len()
            ));
        }
        for (fold, samples) in its_folds {
            gapless(
                samples.iter(),
                &format!("the samples of repeat {repeat}, fold {fold}"),
            )?;
        }
    }
    Ok(())
}

/// Numbers (in increasing order) that are exactly 0, 1, 2, ...
fn gapless<'a>(numbers: impl Iterator<Item = &'a u32>, what: &str) -> Result<(), String> {
    for (expected, &number) in numbers.enumerate() {
        if number as usize != expected {
            return Err(format!(
                "{what} are not numbered 0, 1, 2, ...: {number} comes where {expected} was expected"
            ));
        }
    }
    Ok(())
}

/// A cross-validation's repeats and folds as `task.xml` declares them (where it does).
fn check_declared(folds: &Folds, estimation: &Estimation) -> Result<(), String> {
    if estimation.kind != "crossvalidation" {
        return Ok(());
    }
    let Some(&(last_repeat, last_fold, _)) = folds.keys().next_back() else {
        return Ok(());
    };
    let found = [
        (estimation.number_repeats, last_repeat + 1, "repeats"),
        (estimation.number_folds, last_fold + 1, "folds"),
    ];
    for (declared, found, what) in found {
        if let Some(declared) = declared.filter(|&d| d != found) {
            return Err(format!(
                "the file has {found} {what} but task.xml declares number_{what} = {declared}"
            ));
        }
    }
    Ok(())
}
