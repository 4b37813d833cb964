//! One problem the checker found in a predictions file.

use std::fmt;

/// A problem, with the line of the predictions file it is on (none for a problem of the file
/// as a whole, such as a fold short of rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The 1-based line of the predictions file.
    pub line: Option<usize>,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl Problem {
    /// A problem on line `line`.
    pub fn at(line: usize, message: impl Into<String>) -> Self {
        Problem {
            line: Some(line),
            message: message.into(),
        }
    }

    /// A problem of the file as a whole.
    pub fn whole(message: impl Into<String>) -> Self {
        Problem {
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}
