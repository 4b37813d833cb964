//! A run folder (or a lone predictions file) checked whole: the predictions file and, when it
//! is there, `description.xml`, every problem with the file it is in, and the listing printed.

use std::path::{Path, PathBuf};

use crate::check::check_predictions;
use crate::check_description::check_description;
use crate::error::RunsError;
use crate::expectation::TaskExpectation;
use crate::problem::Problem;

/// Every problem of the run folder (or predictions file) `dir`, each with its file.
pub fn check_run_folder(
    dir: &Path,
    expected: &TaskExpectation,
) -> Result<Vec<(PathBuf, Problem)>, RunsError> {
    let (predictions, description) = if dir.is_dir() {
        let description = dir.join("description.xml");
        (dir.join("predictions.arff"), Some(description))
    } else {
        (dir.to_path_buf(), None)
    };
    if !predictions.is_file() {
        return Err(RunsError::NotResults {
            path: predictions,
            message: "no such file; give a run folder holding predictions.arff, or the \
                      predictions file"
                .into(),
        });
    }
    let mut found: Vec<(PathBuf, Problem)> = check_predictions(&predictions, expected)?
        .into_iter()
        .map(|p| (predictions.clone(), p))
        .collect();
    if let Some(path) = description.filter(|p| p.is_file()) {
        let problems = check_description(&path, expected)?;
        found.extend(problems.into_iter().map(|p| (path.clone(), p)));
    }
    Ok(found)
}

/// The first `shown` problems as `file:line: problem` lines, and how many more there are.
pub fn problems_text(problems: &[(PathBuf, Problem)], shown: usize) -> String {
    let mut text = String::new();
    for (path, problem) in problems.iter().take(shown) {
        match problem.line {
            Some(line) => {
                text.push_str(&format!("{}:{line}: {}\n", path.display(), problem.message))
            }
            None => text.push_str(&format!("{}: {}\n", path.display(), problem.message)),
        }
    }
    if problems.len() > shown {
        text.push_str(&format!("... and {} more\n", problems.len() - shown));
    }
    text
}
