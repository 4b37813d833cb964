//! The run's `description.xml` (`openml.run.upload.xsd`), in the order openml-python's
//! `OpenMLRun._to_dict` writes it: `oml:task_id`, `oml:flow_id`, the `oml:parameter_setting`s,
//! then the per-fold `oml:evaluation`s under `oml:output_data`.

use std::fmt::Write;

use crate::expectation::FoldKey;

/// One measure of one fold, as `oml:evaluation repeat=".." fold=".."`.
#[derive(Clone, Debug, PartialEq)]
pub struct FoldEvaluation {
    /// The fold.
    pub key: FoldKey,
    /// OpenML's name of the measure (`predictive_accuracy`).
    pub measure: String,
    /// Its value.
    pub value: f64,
}

/// What a run's description says.
#[derive(Clone, Debug, PartialEq)]
pub struct RunDescription {
    /// The task's id.
    pub task_id: u64,
    /// The flow's id on the server (only the server gives it: the user passes it).
    pub flow_id: u64,
    /// The learner's options as (name, value) pairs, in order.
    pub parameters: Vec<(String, String)>,
    /// The per-fold evaluations (may be empty).
    pub evaluations: Vec<FoldEvaluation>,
}

/// `text` with XML's five special characters escaped.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The text of `description.xml`.
pub fn write_description(run: &RunDescription) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    xml.push_str("<oml:run xmlns:oml=\"http://openml.org/openml\">\n");
    let _ = writeln!(xml, "\t<oml:task_id>{}</oml:task_id>", run.task_id);
    let _ = writeln!(xml, "\t<oml:flow_id>{}</oml:flow_id>", run.flow_id);
    for (name, value) in &run.parameters {
        let _ = writeln!(
            xml,
            "\t<oml:parameter_setting>\n\t\t<oml:name>{}</oml:name>\n\t\t<oml:value>{}</oml:value>\n\t</oml:parameter_setting>",
            escaped(name),
            escaped(value)
        );
    }
    if !run.evaluations.is_empty() {
        xml.push_str("\t<oml:output_data>\n");
        for evaluation in &run.evaluations {
            let key = evaluation.key;
            let sample = if key.sample == 0 {
                String::new()
            } else {
                format!(" sample=\"{}\"", key.sample)
            };
            let _ = writeln!(
                xml,
                "\t\t<oml:evaluation repeat=\"{}\" fold=\"{}\"{sample}>\n\t\t\t<oml:name>{}</oml:name>\n\t\t\t<oml:value>{}</oml:value>\n\t\t</oml:evaluation>",
                key.repeat,
                key.fold,
                escaped(&evaluation.measure),
                crate::arff_text::arff_number(evaluation.value)
            );
        }
        xml.push_str("\t</oml:output_data>\n");
    }
    xml.push_str("</oml:run>\n");
    xml
}
