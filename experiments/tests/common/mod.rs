//! Helpers shared by the shard and Slurm tests: the built binary, scratch folders, and the
//! comparison of two results folders.

#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};

/// The built `experiments` binary, run from the workspace root.
pub fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_experiments"));
    command.current_dir(workspace_root());
    command
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// An empty scratch folder for one test (`prefix` names the test file).
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!(
        "experiments-{prefix}-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// Runs the binary with `args` and `--results results`.
pub fn run(args: &[&str], results: &Path) -> Output {
    binary()
        .args(args)
        .arg("--results")
        .arg(results)
        .output()
        .unwrap()
}

/// The process's standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The process's standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Every file under `folder`, recursively.
pub fn walk(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(folder) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The "units: N computed, M reused ..., K failed" counts from a log.
pub fn unit_counts(log: &str) -> (usize, usize, usize) {
    let line = log
        .lines()
        .find(|line| line.starts_with("units: "))
        .unwrap_or_else(|| panic!("no units line in:\n{log}"));
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .take(3)
        .map(|part| part.parse().unwrap())
        .collect();
    (numbers[0], numbers[1], numbers[2])
}

/// units.csv without its timing columns (fit and predict seconds are measured by whichever
/// process computed a unit, so they differ from run to run).
fn units_without_timings(text: &str) -> String {
    text.lines()
        .map(|line| {
            // A record's first line has the two timings as its 6th and 7th fields; the other
            // lines of a message that spans several are kept as they are.
            let fields: Vec<&str> = line.split(',').collect();
            let timed = fields.len() >= 8
                && fields[5..7]
                    .iter()
                    .all(|field| field.parse::<f64>().is_ok());
            if timed {
                [&fields[..5], &fields[7..]].concat().join(",")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tuning table (`tables/tuning.{csv,md,tex}`) without its last column, the seconds the
/// inner units took: each line cut at its last field separator (`,`, `|` or `&`).
fn tuning_without_seconds(text: &str) -> String {
    text.lines()
        .map(|line| {
            let line = line
                .trim_end()
                .trim_end_matches("\\\\")
                .trim_end_matches('|');
            match line.rfind([',', '|', '&']) {
                Some(at) => line[..at].to_string(),
                None => line.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that two results folders hold the same outputs byte for byte: every file but the
/// cache (`predictions/`, whose entries carry timings), the shard records and the cluster's
/// scripts and logs, units.csv and the tuning table but for their timing columns, the
/// leaderboard's tables but for their last column (seconds of fitting) and index.html but for
/// its header (the date) and summary screen (the leaderboard's seconds; its numbers are
/// compared in its tables).
pub fn assert_same_outputs(expected: &Path, got: &Path) {
    let outputs = |folder: &Path| -> Vec<PathBuf> {
        walk(folder)
            .into_iter()
            .map(|path| path.strip_prefix(folder).unwrap().to_path_buf())
            .filter(|path| {
                !["predictions", "shards", "slurm"]
                    .iter()
                    .any(|kept| path.starts_with(kept))
            })
            .collect()
    };
    let files = outputs(expected);
    assert_eq!(files, outputs(got), "different files in {}", got.display());
    assert!(
        files.len() > 10,
        "too few outputs in {}",
        expected.display()
    );
    for file in files {
        let (a, b) = (
            std::fs::read(expected.join(&file)).unwrap(),
            std::fs::read(got.join(&file)).unwrap(),
        );
        if file == Path::new("units.csv") {
            let text = |bytes: &[u8]| units_without_timings(&String::from_utf8_lossy(bytes));
            assert_eq!(text(&a), text(&b), "units.csv differs in {}", got.display());
        } else if let Some(text) = without_timings(&file, &a) {
            let other = without_timings(&file, &b).unwrap();
            assert!(
                text == other,
                "{} differs in {}",
                file.display(),
                got.display()
            );
        } else if file.starts_with("tables") && file.file_stem() == Some("tuning".as_ref()) {
            let text = |bytes: &[u8]| tuning_without_seconds(&String::from_utf8_lossy(bytes));
            assert_eq!(
                text(&a),
                text(&b),
                "{} differs in {}",
                file.display(),
                got.display()
            );
        } else {
            assert!(a == b, "{} differs in {}", file.display(), got.display());
        }
    }
}

/// The text of a file whose timings differ between two runs of one plan, without them: the
/// leaderboard's tables without their last column, index.html without its header and summary
/// screen; `None` for other files.
fn without_timings(file: &Path, bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    if file == Path::new("index.html") {
        let start = text.find("<p id=\"run-header\">")?;
        let end = text.find("</section>")?;
        return Some(format!("{}{}", &text[..start], &text[end..]));
    }
    if file.parent() != Some(Path::new("tables")) || file.file_stem()? != "leaderboard" {
        return None;
    }
    let delimiter = match file.extension()?.to_str()? {
        "csv" => ',',
        "md" => '|',
        _ => '&',
    };
    let lines = text.lines().map(|line| {
        let line = line.trim_end_matches(['|', '\\', ' ']);
        line.rsplit_once(delimiter).map_or(line, |(kept, _)| kept)
    });
    Some(lines.collect::<Vec<_>>().join("\n"))
}

/// The config of the kill tests: two larger datasets, C4.5 and naive Bayes, 10-fold CV
/// (40 units), so that a kill lands mid-run.
pub const KILL_CONFIG: &str = r#"
name = "kill"
datasets = ["spambase", "magic"]
protocol = { kind = "stratified_kfold", folds = 10 }
[[learners]]
kind = "c45"
[[learners]]
kind = "naive_bayes"
"#;

/// A config whose second learner fails on every unit (3 of its 6 units).
pub const FAILING_CONFIG: &str = r#"
name = "failing"
datasets = ["sonar"]
protocol = { kind = "stratified_kfold", folds = 3 }
[[learners]]
kind = "naive_bayes"
[[learners]]
name = "broken"
kind = "external"
command = ["sh", "-c", "echo this learner is broken >&2; exit 3"]
"#;

/// The cache entries (`.bin` files) under a `predictions/` folder.
pub fn cached_entries(predictions: &Path) -> Vec<PathBuf> {
    walk(predictions)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == "bin"))
        .collect()
}

/// Waits until `child` has cached at least `at_least` units under `predictions` (or has ended),
/// kills it (SIGKILL on Unix) and returns the entries it left.
pub fn kill_once_cached(child: &mut Child, predictions: &Path, at_least: usize) -> Vec<PathBuf> {
    while cached_entries(predictions).len() < at_least {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    cached_entries(predictions)
}

/// `$EXPERIMENTS_PYTHON` or `python3` when it imports `modules`, with the module path that
/// finds the experiments_py package (this repository's python/ when it is not installed), as
/// the items of a TOML list; None, saying that `test` is skipped and why, otherwise.
pub fn python(modules: &str, test: &str) -> Option<(String, String)> {
    let interpreter = std::env::var("EXPERIMENTS_PYTHON").unwrap_or_else(|_| "python3".into());
    let imports = |code: &str| {
        Command::new(&interpreter)
            .args(["-c", &format!("import {code}")])
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if !imports(modules) {
        eprintln!(
            "skipped {test}: {interpreter} cannot import {modules} (set EXPERIMENTS_PYTHON to an \
             interpreter that can; .ci/run does)"
        );
        return None;
    }
    let package = workspace_root().join("python").canonicalize().unwrap();
    let module_path = if imports("experiments_py") {
        String::new()
    } else {
        format!("{:?}", package.display().to_string())
    };
    Some((interpreter, module_path))
}

/// True when `python3` runs (the fake worker is a script for it); says that `test` is skipped
/// otherwise.
pub fn python3_runs(test: &str) -> bool {
    let runs = Command::new("python3")
        .args(["-c", "pass"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !runs {
        eprintln!("skipped {test}: python3 cannot be run here");
    }
    runs
}
