//! The engine with everything this project ships: the built-in learners, measures, tests and
//! protocols, the four papers' analyses and the comparison of learners across datasets. A
//! user's crate depends on this crate alone: [`engine()`] runs every shipped config (the
//! papers' analyses included); the engine's items are re-exported here (`toolkit::RunOutput`,
//! `toolkit::MeasureSpec`, ...), and `toolkit::learners` and `toolkit::data` give the traits a
//! learner of one's own implements.
//!
//! It sits above `papers` and `comparison` because the engine cannot depend on them (they are
//! analyses written against the engine's `Analysis` trait); the command line uses it too, so a
//! library user's engine and the command's are the same.

use std::path::{Path, PathBuf};

pub use comparison;
pub use data;
pub use engine::*;
pub use learners;
pub use papers;

/// Every analysis this project ships: the papers' (Aslan et al., Provost et al., Wu & Flach,
/// Huang & Ling) and the comparison of learners across datasets.
pub fn analyses() -> engine::Analyses {
    papers::analyses()
        .merged(comparison::analyses())
        .expect("the shipped analyses declare their shared options alike")
}

/// The engine with every learner, measure, test, protocol and analysis this project ships, on
/// one worker thread per core: what `cargo run -p experiments -- --config FILE` runs.
pub fn engine() -> Engine {
    Engine::new().with_analyses(analyses())
}

/// The analyses (with the options they read from the config), measures, tests and protocols a
/// config can name, each with what it is and its options (what `experiments analyses` prints).
pub fn describe_analyses() -> String {
    let indent = |text: String| -> String { text.lines().map(|l| format!("  {l}\n")).collect() };
    let mut text = String::from("analyses (key 'analyses'; their options are top-level keys):\n");
    for analysis in analyses().all() {
        text.push_str(&indent(engine::measures::registry::describe(
            analysis.name(),
            analysis.description(),
            analysis.options(),
        )));
    }
    let registries = engine::Registries::builtin();
    text.push_str("measures (key 'measures': a name, or { name = ..., <options> }):\n");
    text.push_str(&indent(registries.describe_measures()));
    text.push_str("tests (key 'tests': a name, or { name = ..., <options> }):\n");
    text.push_str(&indent(registries.describe_tests()));
    text.push_str("protocols (key 'protocol': { kind = ..., <options> }):\n");
    text.push_str(&indent(registries.describe_protocols()));
    text
}

/// `--threads 0`: a run needs at least one worker thread.
#[derive(Debug, thiserror::Error)]
#[error("--threads 0: give at least 1")]
pub struct NoThreads;

/// The worker threads of a run asked for `requested` (`None`: all cores) on a machine of
/// `cores`, and the note to print when more were asked for than there are cores.
pub fn worker_threads(
    requested: Option<usize>,
    cores: usize,
) -> Result<(usize, Option<String>), NoThreads> {
    match requested {
        Some(0) => Err(NoThreads),
        Some(threads) if threads > cores => Ok((
            cores,
            Some(format!(
                "--threads {threads} is more than this machine's {cores} cores; using {cores} \
                 (results are the same for any number)"
            )),
        )),
        Some(threads) => Ok((threads, None)),
        None => Ok((cores, None)),
    }
}

/// A config name found neither as a file nor among the shipped configs.
#[derive(Debug, thiserror::Error)]
#[error(
    "config '{name}' not found: no such file, and not in experiments/configs/ (which has: {})",
    if known.is_empty() { "nothing".to_string() } else { known.join(", ") }
)]
pub struct ConfigNotFound {
    /// The name given.
    pub name: String,
    /// The configs the workspace ships.
    pub known: Vec<String>,
}

/// The config `experiments/configs/NAME` (or `NAME.toml`) under the current directory or the
/// workspace root `workspace`.
pub fn find_config(name: &str, workspace: &Path) -> Result<PathBuf, ConfigNotFound> {
    let roots = [Path::new("."), workspace];
    let with_extension = format!("{name}.toml");
    for root in roots {
        for file in [name, with_extension.as_str()] {
            let candidate = root.join("experiments").join("configs").join(file);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    let known = config_names(&workspace.join("experiments").join("configs"));
    let name = name.to_string();
    Err(ConfigNotFound { name, known })
}

/// The names of the configs (`.toml` files) in `folder`, sorted; none when it cannot be read.
fn config_names(folder: &Path) -> Vec<String> {
    let mut known: Vec<String> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|file| file.ends_with(".toml"))
                .collect()
        })
        .unwrap_or_default();
    known.sort();
    known
}
