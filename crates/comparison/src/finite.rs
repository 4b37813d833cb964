//! The arithmetic the tests do on a file's values, kept within f64 (issues 28 and 43): every two
//! values the tests subtract (two learners' on one fold, or on one dataset) differ by a finite
//! amount, and every group of values they average (a learner's per-fold column, a long table's
//! rows of one dataset and learner) adds up to a finite sum. 1e308 and -1e308 are finite, their
//! difference is not: where `stats` would say "non-finite value (inf) at index 0", the error
//! names the file, the lines and the columns. One check for per-fold files and tables of
//! results alike.

/// A value of a file and where it comes from.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    /// Its column (a learner).
    pub name: &'a str,
    /// The lines it comes from (several for the mean of a long table's rows).
    pub lines: &'a [usize],
    /// The value.
    pub value: f64,
}

/// Values whose difference or sum is beyond f64.
#[derive(Debug, thiserror::Error)]
pub enum OverflowError {
    /// Two values whose difference overflows.
    #[error(
        "{place}: {what} = {x:e} - {y:e} overflows f64 (beyond about 1.8e308); values must \
         differ by a finite amount"
    )]
    Difference {
        /// The file and the lines of the two values (`file:2, 3`).
        place: String,
        /// The two columns and where they are compared (`a - b on dataset 'd1'`).
        what: String,
        /// The first value.
        x: f64,
        /// The second value.
        y: f64,
    },
    /// Values whose sum overflows.
    #[error(
        "{file}:{lines}: the values of {what} add up beyond f64 (about 1.8e308), so their mean \
         overflows; the values must be smaller"
    )]
    Sum {
        /// The file.
        file: String,
        /// Their lines.
        lines: String,
        /// Whose values (`column 'knn'`).
        what: String,
    },
}

/// Every two of `values` (compared `on` a fold or dataset: ` on dataset 'd'`, or "") differ by a
/// finite amount.
pub fn check_differences(file: &str, on: &str, values: &[Placed]) -> Result<(), OverflowError> {
    for (i, a) in values.iter().enumerate() {
        for b in &values[i + 1..] {
            if !(a.value - b.value).is_finite() {
                let lines = lines_text(&[a.lines, b.lines].concat());
                return Err(OverflowError::Difference {
                    place: format!("{file}:{lines}"),
                    what: format!("{} - {}{on}", a.name, b.name),
                    x: a.value,
                    y: b.value,
                });
            }
        }
    }
    Ok(())
}

/// `values` (of `what`, `column 'knn'`, on `lines`) add up to a finite sum.
pub fn check_sum(
    file: &str,
    what: &str,
    lines: &[usize],
    values: &[f64],
) -> Result<(), OverflowError> {
    if values.iter().sum::<f64>().is_finite() {
        return Ok(());
    }
    Err(OverflowError::Sum {
        file: file.to_string(),
        lines: lines_text(lines),
        what: what.to_string(),
    })
}

/// Lines as `3`, `3, 5`, or `2, 4, ..., 40` (the first two and the last).
pub fn lines_text(lines: &[usize]) -> String {
    let mut lines = lines.to_vec();
    lines.sort_unstable();
    lines.dedup();
    let shown: Vec<String> = match lines.as_slice() {
        [first, second, _, .., last] => vec![
            first.to_string(),
            second.to_string(),
            "...".into(),
            last.to_string(),
        ],
        few => few.iter().map(usize::to_string).collect(),
    };
    shown.join(", ")
}
