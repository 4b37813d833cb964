//! A suite file: the ids of the OpenML tasks to run, as `openml.study.get_suite(99).tasks`
//! prints them one a line. Ids are separated by spaces, commas or line ends; `#` starts a
//! comment to the end of the line.

use std::collections::HashMap;
use std::path::Path;

use crate::error::OpenmlError;

/// The task ids of the suite file at `path`, in order; a word that is not a whole number, an
/// id listed twice, or a file without ids is refused naming the file and line.
pub fn read_suite(path: &Path) -> Result<Vec<u64>, OpenmlError> {
    let text = std::fs::read_to_string(path).map_err(|error| OpenmlError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let error = |line: usize, message: String| OpenmlError::Suite {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut ids: Vec<u64> = Vec::new();
    let mut first_lines: HashMap<u64, usize> = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or_default();
        for word in content.split(|c: char| c == ',' || c.is_whitespace()) {
            if word.is_empty() {
                continue;
            }
            let id: u64 = word.parse().map_err(|_| {
                error(
                    index + 1,
                    format!(
                        "'{}' is not a task id; expected whole numbers from 0 to {} separated by spaces, commas or lines (# starts a comment)",
                        data::shown(word),
                        u64::MAX
                    ),
                )
            })?;
            if let Some(first) = first_lines.insert(id, index + 1) {
                return Err(error(
                    index + 1,
                    format!("task {id} is listed twice (first on line {first})"),
                ));
            }
            ids.push(id);
        }
    }
    if ids.is_empty() {
        return Err(error(
            1,
            "no task ids; expected task ids separated by spaces, commas or lines".into(),
        ));
    }
    Ok(ids)
}
