//! What a task needs of its dataset's ARFF without loading it: the target's declared class
//! labels and the number of rows; and, from the `description.xml` beside it when present, the
//! attributes OpenML leaves out of a task's features (its row id and ignored attributes).

use std::path::Path;

use data::visit_arff;

use crate::error::OpenmlError;
use crate::xml::parse;

/// The target's labels and the number of rows of a dataset ARFF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DatasetFacts {
    pub class_labels: Vec<String>,
    pub n_rows: usize,
}

/// Reads the ARFF at `path`: the target (named in `task_xml`) must be a declared nominal
/// attribute; the attributes of `left_out` may have any type (`string` too).
pub(crate) fn read_facts(
    path: &Path,
    (target, left_out): (&str, &[String]),
    task_xml: &Path,
) -> Result<DatasetFacts, OpenmlError> {
    let error = |message: String| OpenmlError::Dataset {
        path: path.to_path_buf(),
        message,
    };
    let mut class_labels = Vec::new();
    let mut n_rows = 0usize;
    visit_arff(
        (path, left_out),
        |attributes| {
            let Some(attribute) = attributes.iter().find(|a| a.name == target) else {
                let names: Vec<&str> = attributes.iter().map(|a| a.name.as_str()).collect();
                return Err(error(format!(
                    "the task's target '{}' ({}) is not an attribute of the dataset (its attributes: {})",
                    data::shown(target),
                    task_xml.display(),
                    data::shown(&names.join(", "))
                )));
            };
            let Some(values) = &attribute.values else {
                return Err(error(format!(
                    "the task's target '{}' ({}) is numeric; a classification task needs a nominal target {{...}}",
                    data::shown(target),
                    task_xml.display()
                )));
            };
            class_labels = values.clone();
            Ok(())
        },
        |_, _| {
            n_rows += 1;
            Ok::<(), OpenmlError>(())
        },
    )?;
    if n_rows == 0 {
        return Err(error("no data rows after @data".into()));
    }
    Ok(DatasetFacts {
        class_labels,
        n_rows,
    })
}

/// The attributes a task's features leave out, from the dataset's `description.xml` (its
/// `oml:row_id_attribute` and `oml:ignore_attribute`s, never the task's `target`), empty when
/// the file is absent.
pub(crate) fn left_out_attributes(
    description: &Path,
    target: &str,
) -> Result<Vec<String>, OpenmlError> {
    if !description.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(description).map_err(|error| OpenmlError::Io {
        path: description.to_path_buf(),
        error,
    })?;
    let document = parse(description, &text)?;
    let mut names: Vec<String> = Vec::new();
    for path in [
        "data_set_description/row_id_attribute",
        "data_set_description/ignore_attribute",
    ] {
        for element in document.all(path) {
            let text = &element.text;
            if !text.is_empty() && text != target && !names.contains(text) {
                names.push(element.text.clone());
            }
        }
    }
    Ok(names)
}
