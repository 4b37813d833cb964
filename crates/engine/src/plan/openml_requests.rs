//! The `datasets` entries that name OpenML tasks: `{ openml_task = "DIR" }` (with an optional
//! `openml_dataset = "FILE.arff"`), or `{ openml_cache = "DIR", tasks = [59, 31] }`, or
//! `{ openml_cache = "DIR", openml_suite = "FILE" }`; each task becomes a request named
//! `task-<id>` (or the entry's `label`), whose folder is checked to be a task's at once (its
//! `task.xml`); its splits and data are read with the datasets ([`crate::plan::openml_tasks`]).

use std::path::{Path, PathBuf};

use crate::config::experiment::{DetailedDataset, Transforms};
use crate::plan::requests::{DatasetRequest, OpenmlSource};

/// The requests of entry `entry` (from 1), which names OpenML tasks; each problem is added to
/// `problems`, naming the entry and the key.
pub fn openml_requests(
    entry: usize,
    detailed: &DetailedDataset,
    transforms: &Transforms,
    base: Option<&Path>,
    problems: &mut Vec<String>,
) -> Vec<DatasetRequest> {
    let problem = |what: String| format!("key 'datasets' entry {entry}: {what}");
    let sources = match task_sources(detailed, base) {
        Ok(sources) => sources,
        Err(what) => {
            problems.push(problem(what));
            return Vec::new();
        }
    };
    if detailed.label.is_some() && sources.len() > 1 {
        problems.push(problem(format!(
            "'label' names one dataset, but the entry names {} tasks (each is named task-<id>)",
            sources.len()
        )));
        return Vec::new();
    }
    let mut requests = Vec::new();
    for source in sources {
        match openml::read_task_id(&source.task_dir) {
            Ok(id) => requests.push(DatasetRequest {
                name: detailed
                    .label
                    .clone()
                    .unwrap_or_else(|| format!("task-{id}")),
                labelled: detailed.label.is_some(),
                entry,
                notes: vec![format!("OpenML task {id}")],
                source: source.task_dir.display().to_string(),
                transforms: transforms.clone(),
                options: data::LoadOptions::default(),
                openml: Some(source),
            }),
            Err(error) => problems.push(problem(error.to_string())),
        }
    }
    requests
}

/// The task folders (and dataset files) an entry names, or what is wrong with its keys.
fn task_sources(
    detailed: &DetailedDataset,
    base: Option<&Path>,
) -> Result<Vec<OpenmlSource>, String> {
    refuse_other_keys(detailed)?;
    let dataset = detailed.openml_dataset.as_deref().map(|f| located(base, f));
    match (&detailed.openml_task, &detailed.openml_cache) {
        (Some(_), Some(_)) => Err(
            "give either openml_task (one task's folder) or openml_cache (with tasks or openml_suite), not both".into(),
        ),
        (Some(task), None) => {
            if detailed.tasks.is_some() || detailed.openml_suite.is_some() {
                return Err("tasks and openml_suite go with openml_cache, not openml_task".into());
            }
            Ok(vec![OpenmlSource {
                task_dir: located(base, task),
                dataset,
            }])
        }
        (None, Some(cache)) => {
            if dataset.is_some() {
                return Err("openml_dataset goes with openml_task (one task), not openml_cache".into());
            }
            let cache = located(base, cache);
            let ids = cache_task_ids(detailed, base)?;
            Ok(ids
                .into_iter()
                .map(|id| OpenmlSource {
                    task_dir: openml::task_dir(&cache, id),
                    dataset: None,
                })
                .collect())
        }
        (None, None) => Err(
            "tasks, openml_suite and openml_dataset need openml_cache or openml_task (the folder of the tasks)".into(),
        ),
    }
}

/// The task ids of an `openml_cache` entry: its `tasks` or its `openml_suite` file.
fn cache_task_ids(detailed: &DetailedDataset, base: Option<&Path>) -> Result<Vec<u64>, String> {
    match (&detailed.tasks, &detailed.openml_suite) {
        (Some(_), Some(_)) => Err("give either tasks or openml_suite, not both".into()),
        (Some(tasks), None) => {
            if tasks.is_empty() {
                return Err("'tasks' is empty; list at least one OpenML task id".into());
            }
            let mut ids: Vec<u64> = Vec::new();
            for &task in tasks {
                let id = u64::try_from(task).map_err(|_| {
                    format!("'tasks' holds {task}; allowed: task ids, whole numbers from 0")
                })?;
                if ids.contains(&id) {
                    return Err(format!("'tasks' lists task {id} twice"));
                }
                ids.push(id);
            }
            Ok(ids)
        }
        (None, Some(suite)) => {
            openml::read_suite(&located(base, suite)).map_err(|error| error.to_string())
        }
        (None, None) => {
            Err("openml_cache needs tasks = [ids] or openml_suite = \"file of task ids\"".into())
        }
    }
}

/// Refuses the keys of a dataset file of one's own beside OpenML tasks: the task says how the
/// data is read.
fn refuse_other_keys(detailed: &DetailedDataset) -> Result<(), String> {
    let given: Vec<&str> = [
        ("name", !detailed.name.is_empty()),
        ("class_column", detailed.class_column.is_some()),
        ("nominal_columns", !detailed.nominal_columns.is_empty()),
        ("numeric_columns", !detailed.numeric_columns.is_empty()),
        ("missing_markers", !detailed.missing_markers.is_empty()),
        ("allow_numeric_class", detailed.allow_numeric_class),
    ]
    .into_iter()
    .filter_map(|(key, set)| set.then_some(key))
    .collect();
    if given.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} cannot go with OpenML tasks: a task names its dataset and target (use label to name a task's dataset)",
        given.join(", ")
    ))
}

/// A path of the config: relative to the config's folder `base` when it exists there, else as
/// given.
fn located(base: Option<&Path>, path: &str) -> PathBuf {
    let given = Path::new(path);
    match base {
        Some(base) if given.is_relative() && base.join(given).exists() => base.join(given),
        _ => given.to_path_buf(),
    }
}
