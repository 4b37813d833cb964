//! `task.xml`: the task's id and type, its dataset and target, its estimation procedure and
//! its evaluation measures, as openml-python writes it into its cache.

use std::path::Path;
use std::str::FromStr;

use crate::error::OpenmlError;
use crate::xml::{parse, Document};

/// The task types whose splits this crate reads: 1 (Supervised Classification) and 3 (Learning
/// Curve, whose splits also have samples).
pub const SUPPORTED_TASK_TYPES: [u32; 2] = [1, 3];

/// A task's estimation procedure as `task.xml` declares it (the splits themselves are in
/// `datasplits.arff`).
#[derive(Clone, Debug, PartialEq)]
pub struct Estimation {
    /// `oml:type`: `crossvalidation`, `holdout`, `leaveoneout`, `learningcurve`, ...
    pub kind: String,
    /// `oml:id`, the estimation procedure's id on the server, when given.
    pub id: Option<u64>,
    /// The `number_repeats` parameter, when given (an empty parameter is `None`).
    pub number_repeats: Option<u32>,
    /// The `number_folds` parameter, when given.
    pub number_folds: Option<u32>,
    /// The `percentage` parameter (holdout's test share), when given.
    pub percentage: Option<f64>,
    /// The `stratified_sampling` parameter, when given.
    pub stratified_sampling: Option<bool>,
    /// `oml:data_splits_url`, where the server keeps `datasplits.arff`, when given.
    pub splits_url: Option<String>,
}

/// What `task.xml` says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Description {
    pub id: u64,
    pub task_type_id: u32,
    pub task_type: String,
    pub dataset_id: u64,
    pub target: String,
    pub estimation: Estimation,
    pub evaluation_measures: Vec<String>,
}

const SOURCE: &str = "task/input[source_data]/data_set";
const ESTIMATION: &str = "task/input[estimation_procedure]/estimation_procedure";
const MEASURES: &str = "task/input[evaluation_measures]/evaluation_measures/evaluation_measure";

/// Reads and checks `task.xml` at `path`.
pub(crate) fn read_description(path: &Path) -> Result<Description, OpenmlError> {
    let text = std::fs::read_to_string(path).map_err(|error| OpenmlError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let document = parse(path, &text)?;
    let fields = Fields { path, document };
    fields.root()?;
    let task_type_id: u32 = fields.number("task/task_type_id", "the task type")?;
    let task_type = fields.text("task/task_type").unwrap_or_default();
    if !SUPPORTED_TASK_TYPES.contains(&task_type_id) {
        return Err(fields.error_at(
            "task/task_type_id",
            format!(
                "task type {task_type_id} ({task_type}) is not supported; expected 1 (Supervised Classification) or 3 (Learning Curve)"
            ),
        ));
    }
    Ok(Description {
        id: fields.number("task/task_id", "the task's id")?,
        task_type_id,
        task_type,
        dataset_id: fields.number(&format!("{SOURCE}/data_set_id"), "the dataset's id")?,
        target: fields.required(&format!("{SOURCE}/target_feature"), "the target")?,
        estimation: estimation(&fields)?,
        evaluation_measures: fields
            .document
            .all(MEASURES)
            .map(|e| e.text.clone())
            .filter(|t| !t.is_empty())
            .collect(),
    })
}

/// The estimation procedure's type and parameters.
fn estimation(fields: &Fields) -> Result<Estimation, OpenmlError> {
    let parameter = |name: &str| format!("{ESTIMATION}/parameter[{name}]");
    let stratified = match fields.text(&parameter("stratified_sampling")).as_deref() {
        None | Some("") => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(other) => {
            return Err(fields.error_at(
                &parameter("stratified_sampling"),
                format!(
                    "stratified_sampling is '{}'; expected true or false",
                    data::shown(other)
                ),
            ))
        }
    };
    Ok(Estimation {
        kind: fields.required(
            &format!("{ESTIMATION}/type"),
            "the estimation procedure's type",
        )?,
        id: fields.optional(&format!("{ESTIMATION}/id"), "the estimation procedure's id")?,
        number_repeats: fields.optional(&parameter("number_repeats"), "number_repeats")?,
        number_folds: fields.optional(&parameter("number_folds"), "number_folds")?,
        percentage: fields.optional(&parameter("percentage"), "percentage")?,
        stratified_sampling: stratified,
        splits_url: fields
            .text(&format!("{ESTIMATION}/data_splits_url"))
            .filter(|t| !t.is_empty()),
    })
}

/// A parsed `task.xml` and its path, to read fields with errors naming the line.
struct Fields<'a> {
    path: &'a Path,
    document: Document,
}

impl Fields<'_> {
    /// Refuses a document whose root is not `oml:task`.
    fn root(&self) -> Result<(), OpenmlError> {
        match self.document.elements.first() {
            Some(root) if root.path == "task" => Ok(()),
            Some(root) => Err(OpenmlError::Xml {
                path: self.path.to_path_buf(),
                line: root.line,
                message: format!(
                    "the root element is '{}'; expected oml:task (is this an OpenML task.xml?)",
                    data::shown(&root.path)
                ),
            }),
            None => Err(self.missing("oml:task", "the task")),
        }
    }

    /// The text at `path`, if the element is there.
    fn text(&self, path: &str) -> Option<String> {
        self.document.first(path).map(|e| e.text.clone())
    }

    /// The non-empty text at `path`, or an error saying it is missing.
    fn required(&self, path: &str, what: &str) -> Result<String, OpenmlError> {
        self.text(path)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| self.missing(path, what))
    }

    /// A number at `path`, which must be there.
    fn number<T: Expected>(&self, path: &str, what: &str) -> Result<T, OpenmlError> {
        self.optional(path, what)?
            .ok_or_else(|| self.missing(path, what))
    }

    /// A number at `path`, `None` when the element is absent or empty.
    fn optional<T: Expected>(&self, path: &str, what: &str) -> Result<Option<T>, OpenmlError> {
        let Some(element) = self.document.first(path) else {
            return Ok(None);
        };
        if element.text.is_empty() {
            return Ok(None);
        }
        element
            .text
            .parse()
            .map(Some)
            .map_err(|_| OpenmlError::Xml {
                path: self.path.to_path_buf(),
                line: element.line,
                message: format!(
                    "{what} is '{}'; expected {}",
                    data::shown(&element.text),
                    T::EXPECTED
                ),
            })
    }

    /// An error about the element at `path` (or the end of the file when it is absent).
    fn error_at(&self, path: &str, message: String) -> OpenmlError {
        let line = self
            .document
            .first(path)
            .map_or(self.document.last_line, |e| e.line);
        OpenmlError::Xml {
            path: self.path.to_path_buf(),
            line,
            message,
        }
    }

    /// An error saying the element at `path` is missing or empty.
    fn missing(&self, path: &str, what: &str) -> OpenmlError {
        self.error_at(
            path,
            format!("{what} is missing: expected a non-empty element at {path} (oml: prefixes left out)"),
        )
    }
}

/// A number read from `task.xml`, and what a message says it must be.
trait Expected: FromStr {
    /// What the value must be, for an error message.
    const EXPECTED: &'static str;
}

impl Expected for u32 {
    const EXPECTED: &'static str = "a whole number from 0 to 4294967295";
}

impl Expected for u64 {
    const EXPECTED: &'static str = "a whole number from 0 to 18446744073709551615";
}

impl Expected for f64 {
    const EXPECTED: &'static str = "a number";
}
