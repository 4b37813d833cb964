//! The two learner kinds served by persistent workers: `worker` (any program that speaks the
//! protocol of `docs/worker-protocol.md`) and `python` (a scikit-learn estimator or a user's own
//! class, served by the `experiments_py` package of this repository's `python/` folder). The
//! `weka` kind, sugar over the same worker, is [`crate::worker::weka`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::params::{ParamError, Params};
use crate::spec::{Capabilities, LearnerSpec, ParameterSpec};
use crate::worker::learner::WorkerLearner;
use crate::worker::process::Launch;

/// Revision of the `worker` kind's runner side: bump it when what it sends or how it reads the
/// answers changes.
const WORKER_REVISION: u32 = 1;

/// Revision of the `python` kind's runner side (the Python side's version is in the worker's
/// identity).
const PYTHON_REVISION: u32 = 1;

/// The range of a worker's time limits in seconds (`timeout_seconds`,
/// `start_timeout_seconds`, and a config's `worker_timeout_seconds`).
pub const TIMEOUT_RANGE: (f64, f64) = (0.001, 86_400.0);

/// The time limits every worker kind declares.
pub(crate) fn timeouts() -> [ParameterSpec; 2] {
    let (low, high) = TIMEOUT_RANGE;
    [
        ParameterSpec::real(
            "timeout_seconds",
            600.0,
            low,
            high,
            "time limit of one unit in the worker (sending its rows, fitting, predicting): this value when given, else the config's top-level worker_timeout_seconds when given, else 600 s; a unit over it fails and its worker is restarted, and the run's log names the limit that applies",
        ),
        ParameterSpec::real(
            "start_timeout_seconds",
            120.0,
            low,
            high,
            "time limit of a worker's start and handshake (a Python worker imports its estimator then)",
        ),
    ]
}

/// The time limit of one unit and where it comes from, for messages: the learner's
/// `timeout_seconds`, else the run's (a config's `worker_timeout_seconds`), else the default.
fn unit_timeout(params: &Params) -> Result<(Duration, &'static str), ParamError> {
    let (seconds, source) = if params.is_given("timeout_seconds") {
        (params.real("timeout_seconds")?, "timeout_seconds")
    } else if let Some(seconds) = params.worker_timeout() {
        (seconds, "the config's worker_timeout_seconds")
    } else {
        (
            params.real("timeout_seconds")?,
            "timeout_seconds, the default",
        )
    };
    let (low, high) = TIMEOUT_RANGE;
    if !(low..=high).contains(&seconds) {
        return Err(params.invalid(
            "timeout_seconds",
            format!("{seconds} (from {source})"),
            format!("{low} to {high} seconds"),
        ));
    }
    Ok((Duration::from_secs_f64(seconds), source))
}

/// How to start the workers of a learner, with the time limits its parameters give.
pub(crate) fn launch(
    params: &Params,
    program: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
    options: String,
) -> Result<Launch, ParamError> {
    let (unit_timeout, unit_timeout_source) = unit_timeout(params)?;
    Ok(Launch {
        program,
        args,
        env,
        options,
        start_timeout: Duration::from_secs_f64(params.real("start_timeout_seconds")?),
        unit_timeout,
        unit_timeout_source,
        start_hint: None,
    })
}

/// The `worker` learner kind: parameters, capabilities, revision and constructor.
pub fn worker_spec() -> LearnerSpec {
    let mut parameters = vec![
        ParameterSpec::required_string_list(
            "command",
            "the worker program and its arguments, e.g. [\"./my_worker\"]; an item naming a file in the config's folder is read from there",
        ),
        ParameterSpec::table(
            "options",
            "{} (none)",
            "options sent to the worker in its handshake, as a JSON object",
        ),
    ];
    parameters.extend(timeouts());
    LearnerSpec {
        kind: "worker",
        description: "a learner served by a persistent worker process speaking docs/worker-protocol.md (any language)",
        revision: WORKER_REVISION,
        parameters,
        capabilities: Capabilities::ALL,
        build: |params| build_worker(&params),
    }
}

fn build_worker(params: &Params) -> Result<Box<dyn crate::Learner>, ParamError> {
    let command = params.string_list("command")?.unwrap_or_default();
    if command.is_empty() || command[0].is_empty() {
        return Err(params.invalid(
            "command",
            format!("{command:?}"),
            "a non-empty list: the program and its arguments",
        ));
    }
    let options = json_options(params, "options", params.table("options")?)?;
    let base = params.base_dir();
    let resolved: Vec<String> = command
        .iter()
        .map(|item| beside_config(base, item).display().to_string())
        .collect();
    let program = PathBuf::from(&resolved[0]);
    let launch = launch(
        params,
        program,
        resolved[1..].to_vec(),
        Vec::new(),
        options.clone(),
    )?;
    Ok(Box::new(WorkerLearner::new(
        "worker",
        WORKER_REVISION,
        format!("worker({})", command.join(" ")),
        format!("worker command={command:?} options={options}"),
        launch,
    )))
}

/// The `python` learner kind: parameters, capabilities, revision and constructor.
pub fn python_spec() -> LearnerSpec {
    let mut parameters = vec![
        ParameterSpec::required_text(
            "estimator",
            "the class as \"module:Class\", e.g. \"sklearn.ensemble:RandomForestClassifier\", or a class of your own with fit and predict_proba in a module beside the config",
        ),
        ParameterSpec::table(
            "params",
            "{} (the estimator's defaults)",
            "keyword arguments of the class's constructor; random_state, when the class takes one and it is not given here, is the unit's seed modulo 2^32",
        ),
        ParameterSpec::text(
            "python",
            "python3",
            "the Python interpreter (a name on PATH, or a path; a relative path is read from the config's folder first); it needs numpy and the experiments_py package (pip install ./python)",
        ),
        ParameterSpec::string_list(
            "module_path",
            "none",
            "folders searched for the estimator's module (on PYTHONPATH) before the config's folder, which is always searched; relative ones are read from the config's folder",
        ),
        ParameterSpec::choice(
            "nominal_encoding",
            "onehot",
            &["onehot", "ordinal"],
            "how nominal attributes reach the estimator: one 0/1 column per level, or the level's index as one number",
        ),
        ParameterSpec::choice(
            "impute",
            "mean",
            &["mean", "median", "none"],
            "missing values: the training rows' mean (or median) of a numeric attribute and most frequent level of a nominal one, or none (NaN is passed on to the estimator)",
        ),
    ];
    parameters.extend(timeouts());
    LearnerSpec {
        kind: "python",
        description: "a scikit-learn estimator or a class of your own with fit/predict_proba, served by a persistent Python worker (python/ package)",
        revision: PYTHON_REVISION,
        parameters,
        capabilities: Capabilities::ALL,
        build: |params| build_python(&params),
    }
}

fn build_python(params: &Params) -> Result<Box<dyn crate::Learner>, ParamError> {
    let estimator = params.text("estimator")?.unwrap_or_default();
    if !is_module_class(&estimator) {
        return Err(params.invalid(
            "estimator",
            format!("\"{estimator}\""),
            "\"module:Class\", e.g. \"sklearn.linear_model:LogisticRegression\" or \"my_learner:MyLearner\" for my_learner.py beside the config",
        ));
    }
    let constructor = json_options(params, "params", params.table("params")?)?;
    let nominal = params.choice("nominal_encoding")?;
    let impute = params.choice("impute")?;
    let options = serde_json::json!({
        "estimator": estimator,
        "params": serde_json::from_str::<serde_json::Value>(&constructor).expect("JSON we wrote"),
        "nominal_encoding": nominal,
        "impute": impute,
    })
    .to_string();
    let base = params.base_dir();
    let python = params.text("python")?.unwrap_or_else(|| "python3".into());
    let program = if python.contains(std::path::MAIN_SEPARATOR) {
        beside_config(base, &python)
    } else {
        PathBuf::from(&python)
    };
    let args = vec!["-m".into(), "experiments_py.worker".into()];
    let env = python_env(base, params.string_list("module_path")?);
    let mut launch = launch(params, program, args, env, options)?;
    launch.start_hint = Some(format!(
        "the learner's `python` parameter names the interpreter, here \"{python}\": it needs \
         numpy and this repository's experiments_py package (pip install ./python)"
    ));
    Ok(Box::new(WorkerLearner::new(
        "python",
        PYTHON_REVISION,
        format!("python({estimator})"),
        format!(
            "python estimator={estimator} params={constructor} nominal_encoding={nominal} impute={impute}"
        ),
        launch,
    )))
}

/// True for `module:Class` with dotted Python names on both sides.
fn is_module_class(text: &str) -> bool {
    let dotted = |part: &str| {
        !part.is_empty()
            && part.split('.').all(|name| {
                name.chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                    && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            })
    };
    matches!(text.split_once(':'), Some((module, class)) if dotted(module) && dotted(class))
}

/// The Python worker's environment: the module path, then the config's folder, first on
/// PYTHONPATH, and one thread for the numeric libraries unless the runner's environment says
/// otherwise (the runner runs one worker per thread).
fn python_env(base: Option<&Path>, module_path: Option<Vec<String>>) -> Vec<(String, String)> {
    let folders: Vec<PathBuf> = module_path
        .unwrap_or_default()
        .iter()
        .map(|folder| match base {
            Some(base) if Path::new(folder).is_relative() => base.join(folder),
            _ => PathBuf::from(folder),
        })
        .chain(base.map(Path::to_path_buf))
        .collect();
    let mut paths: Vec<PathBuf> = folders
        .iter()
        .map(|folder| std::path::absolute(folder).unwrap_or_else(|_| folder.clone()))
        .collect();
    if let Some(existing) = std::env::var_os("PYTHONPATH") {
        paths.extend(std::env::split_paths(&existing));
    }
    let mut env = Vec::new();
    if let Ok(joined) = std::env::join_paths(&paths) {
        env.push(("PYTHONPATH".into(), joined.to_string_lossy().into_owned()));
    }
    for variable in ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"] {
        if std::env::var_os(variable).is_none() {
            env.push((variable.into(), "1".into()));
        }
    }
    env
}

/// A relative path that names a file in the config's folder, as that file; anything else as
/// given.
pub(crate) fn beside_config(base: Option<&Path>, item: &str) -> PathBuf {
    let path = Path::new(item);
    match base {
        Some(base) if path.is_relative() && base.join(path).is_file() => base.join(path),
        _ => path.to_path_buf(),
    }
}

/// A table parameter as JSON text (`{}` when absent); dates and non-finite numbers, which JSON
/// cannot carry, are refused naming the key.
fn json_options(
    params: &Params,
    key: &str,
    table: Option<toml::Table>,
) -> Result<String, ParamError> {
    let table = table.unwrap_or_default();
    let value = to_json(&toml::Value::Table(table), key)
        .map_err(|(path, problem)| params.invalid(key, path, problem))?;
    Ok(value.to_string())
}

/// A TOML value as JSON; an error names the dotted key and the problem.
fn to_json(value: &toml::Value, path: &str) -> Result<serde_json::Value, (String, String)> {
    Ok(match value {
        toml::Value::String(text) => serde_json::Value::String(text.clone()),
        toml::Value::Integer(number) => serde_json::Value::from(*number),
        toml::Value::Float(number) => serde_json::Number::from_f64(*number)
            .map(serde_json::Value::Number)
            .ok_or_else(|| {
                (
                    format!("{path} = {number}"),
                    "a finite number (JSON has no NaN or infinity)".to_string(),
                )
            })?,
        toml::Value::Boolean(flag) => serde_json::Value::Bool(*flag),
        toml::Value::Datetime(date) => {
            return Err((
                format!("{path} = {date}"),
                "a string, number, boolean, list or table (give a date as a string)".into(),
            ))
        }
        toml::Value::Array(items) => serde_json::Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(index, item)| to_json(item, &format!("{path}[{index}]")))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        toml::Value::Table(table) => {
            let mut object = serde_json::Map::new();
            for (key, item) in table {
                object.insert(key.clone(), to_json(item, &format!("{path}.{key}"))?);
            }
            serde_json::Value::Object(object)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Registry;

    fn build(text: &str) -> Result<Box<dyn crate::Learner>, ParamError> {
        Registry::builtin().build(&text.parse().expect("valid TOML"))
    }

    #[test]
    fn estimator_names_are_module_colon_class() {
        assert!(is_module_class("sklearn.ensemble:RandomForestClassifier"));
        assert!(is_module_class("my_learner:Outer.Inner"));
        for bad in [
            "sklearn.ensemble.RandomForestClassifier",
            ":A",
            "a:",
            "a b:C",
            "1a:B",
        ] {
            assert!(!is_module_class(bad), "{bad}");
        }
        let message = build("kind = \"python\"\nestimator = \"sklearn.tree\"")
            .err()
            .unwrap()
            .to_string();
        assert!(
            message.contains("learner 'python': parameter 'estimator'")
                && message.contains("module:Class"),
            "{message}"
        );
    }

    #[test]
    fn params_become_json_and_dates_are_refused() {
        let learner = build(
            "kind = \"python\"\nestimator = \"m:C\"\nparams = { C = 0.5, n = 3, s = \"x\", l = [1, 2], t = { a = true } }",
        )
        .unwrap();
        assert_eq!(
            learner.describe(),
            "python estimator=m:C params={\"C\":0.5,\"l\":[1,2],\"n\":3,\"s\":\"x\",\"t\":{\"a\":true}} nominal_encoding=onehot impute=mean"
        );
        assert_eq!(learner.name(), "python(m:C)");
        let message =
            build("kind = \"python\"\nestimator = \"m:C\"\nparams = { when = 1979-05-27 }")
                .err()
                .unwrap()
                .to_string();
        assert!(message.contains("params.when"), "{message}");
        let message = build("kind = \"python\"\nestimator = \"m:C\"\nparams = { x = nan }")
            .err()
            .unwrap()
            .to_string();
        assert!(
            message.contains("params.x = NaN") || message.contains("params.x = nan"),
            "{message}"
        );
    }

    #[test]
    fn the_module_path_comes_before_the_config_folder() {
        let env = python_env(Some(Path::new("/configs/here")), None);
        let path = &env.iter().find(|(key, _)| key == "PYTHONPATH").unwrap().1;
        assert!(path.starts_with("/configs/here"), "{path}");
        let env = python_env(
            Some(Path::new("/configs")),
            Some(vec!["lib".into(), "/abs".into()]),
        );
        let path = &env.iter().find(|(key, _)| key == "PYTHONPATH").unwrap().1;
        let first: Vec<&str> = path.split(':').take(3).collect();
        assert_eq!(first, ["/configs/lib", "/abs", "/configs"], "{path}");
    }
}
