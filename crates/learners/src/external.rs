//! A learner implemented by an outside command, in any language: the way to benchmark a learner
//! that is not written in Rust.
//!
//! For each fold the command is run as `COMMAND... TRAIN.csv TEST.csv OUT.csv`:
//! - `TRAIN.csv` is the training data in the shipped CSV format: a header row, the class in the
//!   last column (named as in the dataset), an empty field for a missing value, nominal values
//!   spelled out, fields containing a comma or a quote quoted with `"` (quotes doubled);
//! - `TEST.csv` is the test data in the same format *without* the class column;
//! - the command writes `OUT.csv`: a header row naming the classes (any order, every class of
//!   the training header's class values exactly once; see [`ExternalModel`]), then one row of
//!   class probabilities (or any non-negative scores; rows are normalised to sum to 1) per test
//!   instance, in test order.
//!
//! The command runs in a fresh temporary folder with a time limit; a non-zero exit, a time-out,
//! or an output of the wrong shape is an error that quotes the command's stderr.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use data::{AttributeKind, Features, Schema, View};
use wait_timeout::ChildExt;

use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::{Learner, LearnerError, Model, Probabilities};

/// The external-command learner's parameters.
#[derive(Clone, Debug)]
pub struct ExternalLearner {
    name: String,
    command: Vec<String>,
    timeout: Duration,
}

/// Revision of the external-command interface: bump it whenever the files it writes or the
/// way it reads the command's output change.
const REVISION: u32 = 1;

/// What the external learner handles: the CSV files carry nominal values and missing values
/// and any number of classes (what the command makes of them is up to it), but no weights.
const CAPABILITIES: Capabilities = Capabilities::UNWEIGHTED;

/// The `external` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "external",
        description: "a learner run as an outside command on CSV files (any language)",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::required_string_list(
                "command",
                "the program and its arguments, e.g. [\"python3\", \"my_learner.py\"]; run as COMMAND... TRAIN.csv TEST.csv OUT.csv",
            ),
            ParameterSpec::real(
                "timeout_seconds",
                600.0,
                0.001,
                86_400.0,
                "time limit of one run of the command",
            ),
        ],
        capabilities: CAPABILITIES,
        build: |params| Ok(Box::new(ExternalLearner::from_params(params)?)),
    }
}

impl ExternalLearner {
    /// Reads `command = ["prog", "arg", ...]` (required, non-empty) and `timeout_seconds`.
    pub fn from_params(params: Params) -> Result<Self, ParamError> {
        let command = params.string_list("command")?.unwrap_or_default();
        let timeout = params.real("timeout_seconds")?;
        if command.is_empty() || command[0].is_empty() {
            return Err(params.invalid(
                "command",
                format!("{command:?}"),
                "a non-empty list: the program and its arguments, e.g. [\"python3\", \"my_learner.py\"]",
            ));
        }
        let name = format!("external({})", command.join(" "));
        Ok(ExternalLearner {
            name,
            command,
            timeout: Duration::from_secs_f64(timeout),
        })
    }
}

impl Learner for ExternalLearner {
    /// The cost hint of an external command pays a process start per unit: 200 times naive Bayes.
    fn cost_hint(&self) -> f64 {
        200.0
    }

    fn name(&self) -> &str {
        &self.name
    }

    /// The CSV interface carries no weights: training rows must have weight 1.
    fn exact_weights(&self) -> bool {
        false
    }

    fn revision(&self) -> String {
        revision_text("external", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!(
            "external command={:?} timeout_seconds={}",
            self.command,
            self.timeout.as_secs_f64()
        )
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        let schema = train.schema();
        let mut text = header_line(schema, true);
        for position in 0..train.len() {
            let weight = train.weight(position);
            if weight != 1.0 {
                return Err(LearnerError::Data {
                    learner: self.name.clone(),
                    message: format!(
                        "training row {position} has weight {weight}: the CSV interface passes no weights, so an \
                         external learner cannot honour them"
                    ),
                });
            }
            let values: Vec<f64> = (0..schema.num_attributes())
                .map(|a| train.value(position, a))
                .collect();
            push_row(&mut text, schema, &values, Some(train.class(position)));
        }
        Ok(Box::new(ExternalModel {
            learner: self.name.clone(),
            command: self.command.clone(),
            timeout: self.timeout,
            train_csv: text,
            class_values: schema.class_values.clone(),
        }))
    }
}

/// A "model" that holds the training data and runs the command when asked to predict.
pub struct ExternalModel {
    learner: String,
    command: Vec<String>,
    timeout: Duration,
    train_csv: String,
    class_values: Vec<String>,
}

impl ExternalModel {
    fn error(&self, message: String) -> LearnerError {
        LearnerError::External {
            learner: self.learner.clone(),
            message,
        }
    }

    fn run_command(&self, folder: &Path) -> Result<(), LearnerError> {
        let stderr_path = folder.join("stderr.txt");
        let stderr_file = std::fs::File::create(&stderr_path)
            .map_err(|e| self.error(format!("cannot create {}: {e}", stderr_path.display())))?;
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .arg(folder.join("train.csv"))
            .arg(folder.join("test.csv"))
            .arg(folder.join("out.csv"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr_file)
            .spawn()
            .map_err(|e| self.error(format!("cannot start {:?}: {e}", self.command[0])))?;
        let status = child
            .wait_timeout(self.timeout)
            .map_err(|e| self.error(format!("waiting for the command: {e}")))?;
        let stderr = || {
            let text = std::fs::read_to_string(&stderr_path).unwrap_or_default();
            let tail: String = text
                .chars()
                .rev()
                .take(2000)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if tail.trim().is_empty() {
                "(stderr was empty)".to_string()
            } else {
                format!("stderr:\n{}", tail.trim_end())
            }
        };
        match status {
            None => {
                let _ = child.kill();
                let _ = child.wait();
                Err(self.error(format!(
                    "timed out after {} s; {}",
                    self.timeout.as_secs_f64(),
                    stderr()
                )))
            }
            Some(status) if !status.success() => {
                Err(self.error(format!("command failed ({status}); {}", stderr())))
            }
            Some(_) => Ok(()),
        }
    }

    fn read_output(&self, path: &Path, rows: usize) -> Result<Probabilities, LearnerError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| self.error(format!("cannot read its output {}: {e}", path.display())))?;
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty());
        let Some((_, header)) = lines.next() else {
            return Err(self.error(format!(
                "{}: empty output; expected a header row naming the classes",
                path.display()
            )));
        };
        let names: Vec<String> = split_csv_line(header);
        // Each header name must be a class of the training header, at most once; a class the
        // command does not name (e.g. absent from the training fold) gets probability 0.
        let mut column_of_class: Vec<Option<usize>> = vec![None; self.class_values.len()];
        for (column, name) in names.iter().enumerate() {
            match self.class_values.iter().position(|class| class == name) {
                Some(class) if column_of_class[class].is_none() => {
                    column_of_class[class] = Some(column)
                }
                Some(_) => {
                    return Err(self.error(format!(
                        "{} line 1: class '{name}' is named twice",
                        path.display()
                    )))
                }
                None => {
                    return Err(self.error(format!(
                    "{} line 1: '{name}' is not a class; the header must name classes from {:?}",
                    path.display(),
                    self.class_values
                )))
                }
            }
        }
        let mut probabilities = Probabilities::zeros(rows, self.class_values.len());
        let mut row = 0;
        for (index, line) in lines {
            let line_number = index + 1;
            if row == rows {
                return Err(self.error(format!(
                    "{} line {line_number}: more rows than the {rows} test instances",
                    path.display()
                )));
            }
            let cells = split_csv_line(line);
            if cells.len() != names.len() {
                return Err(self.error(format!(
                    "{} line {line_number}: {} fields, expected {}",
                    path.display(),
                    cells.len(),
                    names.len()
                )));
            }
            let out = probabilities.row_mut(row);
            for (class, column) in column_of_class.iter().enumerate() {
                let Some(column) = *column else { continue };
                let value: f64 = cells[column].trim().parse().map_err(|_| {
                    self.error(format!(
                        "{} line {line_number}: '{}' is not a number",
                        path.display(),
                        cells[column]
                    ))
                })?;
                if !(value.is_finite() && value >= 0.0) {
                    return Err(self.error(format!(
                        "{} line {line_number}: score {value} is not a finite non-negative number",
                        path.display()
                    )));
                }
                out[class] = value;
            }
            let total: f64 = out.iter().sum();
            if total > 0.0 {
                out.iter_mut().for_each(|value| *value /= total);
            } else {
                out.iter_mut()
                    .for_each(|value| *value = 1.0 / column_of_class.len() as f64);
            }
            row += 1;
        }
        if row != rows {
            return Err(self.error(format!(
                "{}: {row} rows of probabilities for {rows} test instances",
                path.display()
            )));
        }
        Ok(probabilities)
    }
}

impl Model for ExternalModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let schema = test.schema();
        let folder = tempfile::Builder::new()
            .prefix("external-learner-")
            .tempdir()
            .map_err(|e| self.error(format!("cannot create a temporary folder: {e}")))?;
        let mut test_csv = header_line(schema, false);
        for position in 0..test.len() {
            push_row(&mut test_csv, schema, &test.row(position), None);
        }
        let write = |name: &str, text: &str| {
            std::fs::write(folder.path().join(name), text)
                .map_err(|e| self.error(format!("cannot write {name}: {e}")))
        };
        write("train.csv", &self.train_csv)?;
        write("test.csv", &test_csv)?;
        self.run_command(folder.path())?;
        self.read_output(&folder.path().join("out.csv"), test.len())
    }

    fn explain(&self, _schema: &Schema) -> String {
        format!("external command {:?}", self.command)
    }
}

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

fn header_line(schema: &Schema, with_class: bool) -> String {
    let mut names: Vec<String> = schema.attributes.iter().map(|a| quote(&a.name)).collect();
    if with_class {
        names.push(quote(&schema.class_name));
    }
    names.join(",") + "\n"
}

fn push_row(text: &mut String, schema: &Schema, values: &[f64], class: Option<usize>) {
    for (index, (attribute, &value)) in schema.attributes.iter().zip(values).enumerate() {
        if index > 0 {
            text.push(',');
        }
        if value.is_nan() {
            continue;
        }
        match &attribute.kind {
            AttributeKind::Numeric => {
                let _ = write!(text, "{value}");
            }
            AttributeKind::Nominal(names) => text.push_str(&quote(&names[value as usize])),
        }
    }
    if let Some(class) = class {
        if !schema.attributes.is_empty() {
            text.push(',');
        }
        text.push_str(&quote(&schema.class_values[class]));
    }
    text.push('\n');
}

/// Splits one CSV line into fields, honouring `"` quoting with doubled quotes.
fn split_csv_line(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.trim_end_matches('\r').chars().peekable();
    while let Some(ch) = chars.next() {
        match (ch, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (other, _) => field.push(other),
        }
    }
    fields.push(field);
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use data::{Attribute, Dataset};

    fn tiny() -> Dataset {
        let schema = Schema {
            attributes: vec![
                Attribute::numeric("x"),
                Attribute::nominal("colour, shade", vec!["red".into(), "say \"blue\"".into()]),
            ],
            class_name: "class".into(),
            class_values: vec!["no".into(), "yes".into()],
        };
        Dataset::new(
            "tiny",
            schema,
            vec![vec![1.5, f64::NAN, 3.0], vec![0.0, 1.0, f64::NAN]],
            vec![0, 1, 1],
            None,
        )
        .unwrap()
    }

    #[test]
    fn training_csv_is_in_the_shipped_format() {
        let dataset = tiny();
        let view = dataset.view();
        let mut text = header_line(dataset.schema(), true);
        for p in 0..view.len() {
            let values: Vec<f64> = (0..2).map(|a| view.value(p, a)).collect();
            push_row(&mut text, dataset.schema(), &values, Some(view.class(p)));
        }
        assert_eq!(
            text,
            "x,\"colour, shade\",class\n1.5,red,no\n,\"say \"\"blue\"\"\",yes\n3,,yes\n"
        );
    }

    #[test]
    fn csv_lines_split_with_quotes() {
        assert_eq!(
            split_csv_line("a,\"b,c\",\"d\"\"e\",\r"),
            vec!["a", "b,c", "d\"e", ""]
        );
    }

    fn learner(command: &[&str], timeout: f64) -> ExternalLearner {
        let mut table = toml::Table::new();
        table.insert(
            "command".into(),
            toml::Value::Array(
                command
                    .iter()
                    .map(|s| toml::Value::String(s.to_string()))
                    .collect(),
            ),
        );
        table.insert("timeout_seconds".into(), toml::Value::Float(timeout));
        let registry = crate::Registry::builtin();
        ExternalLearner::from_params(Params::new(&spec(), &registry, &table).unwrap()).unwrap()
    }

    #[test]
    fn a_shell_command_round_trips_probabilities() {
        // The script ignores its inputs and writes classes in reverse order: columns are mapped
        // by name.
        let dataset = tiny();
        let script = "printf 'yes,no\\n0.75,0.25\\n1,3\\n0,0\\n' > \"$3\"";
        let model = learner(&["sh", "-c", script, "sh"], 10.0)
            .fit(&dataset.view(), 1)
            .unwrap();
        let probabilities = model.predict_proba(&dataset.view().features()).unwrap();
        assert_eq!(probabilities.row(0), &[0.25, 0.75]);
        assert_eq!(probabilities.row(1), &[0.75, 0.25]);
        assert_eq!(probabilities.row(2), &[0.5, 0.5]);
    }

    #[test]
    fn failure_quotes_stderr() {
        let dataset = tiny();
        let model = learner(
            &["sh", "-c", "echo 'no module named sklearn' >&2; exit 3"],
            10.0,
        )
        .fit(&dataset.view(), 1)
        .unwrap();
        let message = model
            .predict_proba(&dataset.view().features())
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("no module named sklearn") && message.contains("3"),
            "{message}"
        );
    }

    #[test]
    fn wrong_shape_names_the_line() {
        let dataset = tiny();
        let model = learner(
            &[
                "sh",
                "-c",
                "printf 'no,yes\\n0.5,0.5\\n0.5\\n' > \"$3\"",
                "sh",
            ],
            10.0,
        )
        .fit(&dataset.view(), 1)
        .unwrap();
        let message = model
            .predict_proba(&dataset.view().features())
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("line 3") && message.contains("1 fields, expected 2"),
            "{message}"
        );
    }

    #[test]
    fn time_limit_is_enforced() {
        let dataset = tiny();
        let model = learner(&["sh", "-c", "sleep 5", "sh"], 0.2)
            .fit(&dataset.view(), 1)
            .unwrap();
        let message = model
            .predict_proba(&dataset.view().features())
            .unwrap_err()
            .to_string();
        assert!(message.contains("timed out"), "{message}");
    }

    #[test]
    fn empty_command_is_rejected() {
        let mut table = toml::Table::new();
        table.insert("command".into(), toml::Value::Array(vec![]));
        let registry = crate::Registry::builtin();
        let message =
            ExternalLearner::from_params(Params::new(&spec(), &registry, &table).unwrap())
                .unwrap_err()
                .to_string();
        assert!(message.contains("command"), "{message}");
    }
}
