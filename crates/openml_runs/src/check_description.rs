//! The check of a run's `description.xml`: it names the task (`oml:task_id`) and a flow
//! (`oml:flow_id`, required by `openml.run.upload.xsd`).

use std::path::Path;

use crate::error::RunsError;
use crate::expectation::TaskExpectation;
use crate::problem::Problem;

/// The text of the first `<oml:NAME>` element of `xml`, trimmed, and its 1-based line.
fn element<'a>(xml: &'a str, name: &str) -> Option<(&'a str, usize)> {
    let open = format!("<oml:{name}>");
    let start = xml.find(&open)? + open.len();
    let end = start + xml[start..].find(&format!("</oml:{name}>"))?;
    let line = xml[..start].matches('\n').count() + 1;
    Some((xml[start..end].trim(), line))
}

/// Every problem of the description `path` for the task `expected`.
pub fn check_description(
    path: &Path,
    expected: &TaskExpectation,
) -> Result<Vec<Problem>, RunsError> {
    let xml = data::arff_lexer::read_text(path)?;
    let mut problems = Vec::new();
    if !xml.contains("<oml:run") {
        problems.push(Problem::whole(
            "no <oml:run> element; a run description is an oml:run",
        ));
    }
    match element(&xml, "task_id") {
        Some((id, _)) if id == expected.task_id.to_string() => {}
        Some((id, line)) => problems.push(Problem::at(
            line,
            format!(
                "oml:task_id is '{}'; the task is {}",
                data::shown(id),
                expected.task_id
            ),
        )),
        None => problems.push(Problem::whole(
            "no <oml:task_id>; the description names its task",
        )),
    }
    match element(&xml, "flow_id") {
        Some((id, line)) if id.parse::<u64>().is_err() => problems.push(Problem::at(
            line,
            format!(
                "oml:flow_id is '{}'; expected the flow's id on the server, a whole number",
                data::shown(id)
            ),
        )),
        Some(_) => {}
        None => problems.push(Problem::whole(
            "no <oml:flow_id>; openml.run.upload.xsd requires one",
        )),
    }
    Ok(problems)
}
