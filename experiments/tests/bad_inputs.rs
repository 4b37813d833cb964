//! Nothing changes a result silently: bad inputs a user can write, each refused (or, for a
//! damaged cache entry, repaired) with the exit status and the words of the message checked.
//! A user's file whose number column holds a stray word or a non-finite number, or whose class
//! column is a regression target, is refused with the file, line and column and how to declare
//! what was meant (declared, the same file reads); a damaged cache entry is reported and
//! computed again; a rerun whose data no longer loads leaves the previous results whole; a
//! learner whose every unit fails is named, with exit status 3; config mistakes (keys, ranges,
//! several at once, analyses' prerequisites, plans beyond the bounds) are refused with exit
//! status 1, naming the key and what it allows. The files are written here by hand.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder of its own under the test scratch directory.
fn scratch(name: &str) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_inputs")
        .join(name);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

fn write(folder: &Path, name: &str, text: &str) -> PathBuf {
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn experiments(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(args)
        .output()
        .expect("the experiments binary runs")
}

/// Runs a command that must fail cleanly (exit 1, no panic); returns its stderr.
fn refused(args: &[&str]) -> String {
    let output = experiments(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    stderr
}

/// Runs a command that must succeed; returns its stdout.
fn accepted(args: &[&str]) -> String {
    let output = experiments(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_words(message: &str, words: &[&str]) {
    for word in words {
        assert!(message.contains(word), "expected '{word}' in: {message}");
    }
}

#[test]
fn datasets_refuses_a_stray_word_and_reads_it_declared() {
    let folder = scratch("stray");
    let file = write(
        &folder,
        "stray.csv",
        "x,code,y,class\n1,A1,2,a\n2,B7,?,b\n3,5,NA,a\n4,C2,4,b\n",
    );
    let path = file.to_str().unwrap();
    let message = refused(&["datasets", path]);
    assert_words(
        &message,
        &[
            &format!("{path}:4:3: value 'NA' of column 'y' is not a number"),
            "add it to the missing markers",
            "declare it nominal",
        ],
    );
    let listing = accepted(&["datasets", path, "--missing", "NA"]);
    assert_words(
        &listing,
        &[&format!(
            "{path}: inferred nominal: code; inferred numeric: 2"
        )],
    );
    let listing = accepted(&["datasets", path, "--nominal", "y"]);
    assert_words(
        &listing,
        &[&format!(
            "{path}: inferred nominal: code; inferred numeric: 1"
        )],
    );
}

#[test]
fn datasets_refuses_non_finite_numbers() {
    let folder = scratch("non-finite");
    for (name, text, line, value) in [
        ("nan.csv", "x,class\n1,a\nNaN,b\n3,a\n", 3, "NaN"),
        ("overflow.csv", "x,class\n1,a\n2,b\n1e400,a\n", 4, "1e400"),
        (
            "inf.arff",
            "@relation r\n@attribute x numeric\n@attribute class {a,b}\n@data\n1,a\ninf,b\n",
            6,
            "inf",
        ),
    ] {
        let file = write(&folder, name, text);
        let path = file.to_str().unwrap();
        let message = refused(&["datasets", path]);
        assert_words(
            &message,
            &[
                &format!("{path}:{line}:1: value '{value}' of numeric attribute 'x'"),
                "is not a finite number",
            ],
        );
    }
}

#[test]
fn datasets_refuses_a_regression_target_unless_told() {
    let folder = scratch("regression");
    let mut text = String::from("rooms,price\n");
    for i in 1..=30 {
        text.push_str(&format!("{},{}\n", i % 4 + 1, 90_000 + 1_250 * i));
    }
    let file = write(&folder, "houses.csv", &text);
    let path = file.to_str().unwrap();
    let message = refused(&["datasets", path]);
    assert_words(
        &message,
        &[
            "class column 'price' looks like a regression target",
            "30 distinct values in 30 rows",
            "allow_numeric_class",
        ],
    );
    let listing = accepted(&["datasets", path, "--allow-numeric-class"]);
    assert!(listing.contains("file"), "{listing}");
}

#[test]
fn a_config_naming_a_bad_file_is_refused_at_check() {
    let folder = scratch("config");
    let file = write(
        &folder,
        "stray_word.csv",
        "x,class\n1,a\n2,a\nabc,a\n4,b\n5,b\n6,b\n",
    );
    let config = write(
        &folder,
        "bad.toml",
        &format!(
            "name = \"bad\"\ndatasets = [{:?}]\nprotocol = {{ kind = \"stratified_kfold\", folds = 3 }}\n[[learners]]\nkind = \"naive_bayes\"\n",
            file.to_str().unwrap()
        ),
    );
    let message = refused(&["--check", "--config", config.to_str().unwrap()]);
    assert_words(
        &message,
        &[
            &format!("{}:4:1: value 'abc' of column 'x'", file.display()),
            "declare it nominal",
        ],
    );
}

/// A small two-class CSV whose column `x` separates the classes.
fn separable(folder: &Path) -> PathBuf {
    let mut text = String::from("x,code,class\n");
    for row in 0..60 {
        let class = if row < 30 { "a" } else { "b" };
        let code = if row % 7 == 0 {
            "NA".to_string()
        } else {
            (row % 5).to_string()
        };
        text.push_str(&format!("{row},{code},{class}\n"));
    }
    write(folder, "separable.csv", &text)
}

/// Runs a config, writing its results under `results`.
fn run_into(config: &Path, results: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(["--config", config.to_str().unwrap(), "--results"])
        .arg(results)
        .output()
        .unwrap()
}

fn config_for(folder: &Path, name: &str, entry: &str, learner: &str) -> PathBuf {
    write(
        folder,
        &format!("{name}.toml"),
        &format!(
            "name = \"{name}\"\ndatasets = [{entry}]\nprotocol = {{ kind = \"stratified_kfold\", folds = 3 }}\n[[learners]]\n{learner}\n"
        ),
    )
}

#[test]
fn a_config_declares_missing_markers_and_column_types_of_its_own_file() {
    let folder = scratch("declared");
    separable(&folder);
    // `NA` in a number column is a stray word until it is declared a missing marker.
    let plain = config_for(&folder, "plain", "\"separable.csv\"", "kind = \"c45\"");
    let message = refused(&["--check", "--config", plain.to_str().unwrap()]);
    assert_words(&message, &["separable.csv:2:2", "'NA'", "column 'code'"]);
    let declared = config_for(
        &folder,
        "declared",
        "{ name = \"separable.csv\", missing_markers = [\"NA\"] }",
        "kind = \"c45\"",
    );
    accepted(&["--check", "--config", declared.to_str().unwrap()]);
    let nominal = config_for(
        &folder,
        "nominal",
        "{ name = \"separable.csv\", nominal_columns = [\"code\"] }",
        "kind = \"c45\"",
    );
    accepted(&["--check", "--config", nominal.to_str().unwrap()]);
    // A misspelt key of a dataset entry lists every key an entry allows.
    let misspelt = config_for(
        &folder,
        "misspelt",
        "{ name = \"separable.csv\", nominal_column = [\"code\"] }",
        "kind = \"c45\"",
    );
    let message = refused(&["--check", "--config", misspelt.to_str().unwrap()]);
    assert_words(
        &message,
        &[
            "nominal_column",
            "nominal_columns",
            "missing_markers",
            "subsample",
        ],
    );
}

#[test]
fn a_damaged_cache_entry_is_reported_and_computed_again() {
    let folder = scratch("damaged");
    separable(&folder);
    let config = config_for(
        &folder,
        "damaged",
        "{ name = \"separable.csv\", missing_markers = [\"NA\"] }",
        "kind = \"c45\"",
    );
    let results = folder.join("results");
    let run = || run_into(&config, &results);
    assert!(run().status.success());
    let per_fold = std::fs::read_to_string(results.join("damaged/per_fold.csv")).unwrap();
    let entries = std::fs::read_dir(results.join("damaged/predictions/separable/c45"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect::<Vec<_>>();
    // Reverse one entry's probabilities: the same length, the same shape, wrong numbers.
    let mut bytes = std::fs::read(&entries[0]).unwrap();
    let end = bytes.len() - 32;
    bytes[40..end].reverse();
    std::fs::write(&entries[0], &bytes).unwrap();
    let output = run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_words(&stderr, &["was damaged", "checksum", "computed again"]);
    assert_eq!(
        std::fs::read_to_string(results.join("damaged/per_fold.csv")).unwrap(),
        per_fold
    );
    let units = std::fs::read_to_string(results.join("damaged/units.csv")).unwrap();
    assert_eq!(units.matches(",repaired,").count(), 1, "{units}");
}

#[test]
fn a_rerun_whose_data_no_longer_loads_leaves_the_previous_results_whole() {
    let folder = scratch("mixed");
    let data = separable(&folder);
    let config = config_for(
        &folder,
        "mixed",
        "{ name = \"separable.csv\", missing_markers = [\"NA\"] }",
        "kind = \"c45\"",
    );
    let results = folder.join("results");
    let run = || run_into(&config, &results);
    assert!(run().status.success());
    let before: Vec<String> = [
        "config.toml",
        "per_fold.csv",
        "index.html",
        "tables/summary.md",
    ]
    .iter()
    .map(|file| std::fs::read_to_string(results.join("mixed").join(file)).unwrap())
    .collect();
    // The data now holds a stray word: the rerun is refused before it writes anything.
    let text = std::fs::read_to_string(&data)
        .unwrap()
        .replace("\n5,", "\nfive,");
    std::fs::write(&data, text).unwrap();
    let changed = format!("seed = 9\n{}", std::fs::read_to_string(&config).unwrap());
    std::fs::write(&config, changed).unwrap();
    let output = run();
    assert_eq!(output.status.code(), Some(1));
    assert_words(
        &String::from_utf8_lossy(&output.stderr),
        &["'five'", "column 'x'"],
    );
    let after: Vec<String> = [
        "config.toml",
        "per_fold.csv",
        "index.html",
        "tables/summary.md",
    ]
    .iter()
    .map(|file| std::fs::read_to_string(results.join("mixed").join(file)).unwrap())
    .collect();
    assert_eq!(before, after);
}

#[test]
fn a_learner_whose_every_unit_fails_is_named_and_the_exit_status_says_so() {
    let folder = scratch("all-fail");
    separable(&folder);
    let config = config_for(
        &folder,
        "allfail",
        "{ name = \"separable.csv\", missing_markers = [\"NA\"] }",
        "kind = \"c45\"\n[[learners]]\nname = \"broken\"\nkind = \"external\"\ncommand = [\"sh\", \"-c\", \"exit 4\"]",
    );
    let output = run_into(&config, &folder.join("results"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert_words(&stderr, &["3 of 6 units failed", "learners: broken"]);
    let summary =
        std::fs::read_to_string(folder.join("results/allfail/tables/failures.md")).unwrap();
    assert_words(&summary, &["broken", "separable", "| 3 |"]);
}

#[test]
fn names_and_paths_that_cannot_be_used_say_what_is_allowed() {
    let folder = scratch("names");
    separable(&folder);
    let bad_name = write(
        &folder,
        "badname.toml",
        "name = \"my run\"\ndatasets = [\"pima\"]\nprotocol = { kind = \"holdout\", test_fraction = 0.3 }\n[[learners]]\nkind = \"c45\"\n",
    );
    let message = refused(&["--check", "--config", bad_name.to_str().unwrap()]);
    assert_words(&message, &["key 'name'", "no space, '/' or '\\'"]);
    let message = refused(&["--check", "--config", folder.to_str().unwrap()]);
    assert_words(&message, &["is a folder", "a .toml file"]);
}

fn config_error(text: &str) -> String {
    // A folder of its own per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let folder = scratch(&format!("bad-{call}"));
    let config = write(&folder, "bad.toml", text);
    refused(&["--check", "--config", config.to_str().unwrap()])
}

const GOOD: &str = r#"
name = "good"
datasets = ["pima"]
protocol = { kind = "stratified_kfold", folds = 10 }
[[learners]]
kind = "c45"
"#;

#[test]
fn config_errors_name_the_key_the_dataset_or_the_learner() {
    let message = config_error(&GOOD.replace("name = \"good\"", "name = \"good\"\nseeed = 1"));
    assert!(
        message.contains("seeed") && message.contains("line 3"),
        "{message}"
    );
    let message = config_error(&GOOD.replace("\"pima\"", "\"pimaa\""));
    assert!(message.contains("pimaa"), "{message}");
    let message = config_error(&GOOD.replace("kind = \"c45\"", "kind = \"c4.5\""));
    assert!(
        message.contains("c4.5") && message.contains("c45"),
        "{message}"
    );
    let message = config_error(&GOOD.replace("folds = 10", "folds = 1"));
    assert!(message.contains("folds"), "{message}");
    let message = config_error(&format!("{GOOD}confidence = 2.0\n"));
    assert!(message.contains("confidence"), "{message}");
}

#[test]
fn every_problem_of_a_config_is_reported_not_just_the_first() {
    let text = GOOD.replace("\"pima\"", "\"pimaa\", \"sonarr\"").replace(
        "kind = \"c45\"",
        "kind = \"c45\"\nconfidance = 0.2\n[[learners]]\nkind = \"knnn\"",
    );
    let message = config_error(&text);
    for part in ["pimaa", "sonarr", "confidance", "knnn"] {
        assert!(message.contains(part), "{part} missing from: {message}");
    }
    assert_eq!(
        message.lines().filter(|l| l.contains("bad.toml")).count(),
        4,
        "{message}"
    );
}

#[test]
fn a_dataset_path_in_a_config_is_read_from_the_config_s_folder() {
    let folder = scratch("relative");
    std::fs::create_dir_all(folder.join("study")).unwrap();
    let mut csv = String::from("x,y,class\n");
    for row in 0..40 {
        csv.push_str(&format!(
            "{},{},{}\n",
            row,
            (row * 7) % 5,
            if row % 2 == 0 { "a" } else { "b" }
        ));
    }
    std::fs::write(folder.join("study").join("mine.csv"), csv).unwrap();
    std::fs::write(
        folder.join("study").join("mine.toml"),
        GOOD.replace("[\"pima\"]", "[\"mine.csv\"]")
            .replace("folds = 10", "folds = 4"),
    )
    .unwrap();
    // Run from the workspace root: the file is found beside the config, not there.
    let config = folder.join("study").join("mine.toml");
    let output = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .args(["--check", "--config", config.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn plans_beyond_the_limits_are_refused_before_their_splits_are_made() {
    let message =
        config_error(&GOOD.replace("folds = 10 }", "folds = 10, repetitions = 100000000 }"));
    assert!(
        message.contains("1000000000 splits of 768 rows")
            && message.contains("'repetitions'")
            && message.contains("--max-split-memory-mb"),
        "{message}"
    );
    // Leave-one-out on shuttle's 58000 rows: each split lists its one test row and holds its
    // training rows as the rest, so the splits weigh about 15 MB, far under the 4 GiB limit
    // (counting every row of every split, 12.5 GiB, refused it before); its 58000 units are
    // bounded by --max-units, lowered here to show it.
    let folder = scratch("leave-one-out");
    let config = write(
        &folder,
        "loo.toml",
        &GOOD.replace("\"pima\"", "\"shuttle\"").replace(
            "{ kind = \"stratified_kfold\", folds = 10 }",
            "{ kind = \"leave_one_out\" }",
        ),
    );
    let config = config.to_str().unwrap();
    accepted(&["--check", "--config", config]);
    let message = refused(&["--check", "--max-units", "57999", "--config", config]);
    assert!(
        message.contains("58000 units") && message.contains("leave_one_out"),
        "{message}"
    );
    // The unit limit, lowered to show it: 10 folds x 1 learner = 10 units.
    let folder = scratch("units-limit");
    let config = write(&folder, "good.toml", GOOD);
    let message = refused(&[
        "--check",
        "--max-units",
        "9",
        "--threads",
        "100000",
        "--config",
        config.to_str().unwrap(),
    ]);
    assert!(
        message.contains("10 units") && message.contains("--max-units"),
        "{message}"
    );
    assert!(message.contains("using"), "{message}");
}

#[test]
fn check_rejects_paper_analyses_that_lack_their_prerequisites() {
    // Wu & Flach select by sAUC on validation folds: without the measure it cannot run.
    let message = config_error(&format!(
        "analyses = [\"wu_flach_selection\"]\n{}\n[[learners]]\nkind = \"naive_bayes\"\n",
        GOOD.replace("stratified_kfold\", folds = 10", "wu_flach\", folds = 5")
    ));
    assert!(
        message.contains("wu_flach_selection") && message.contains("sauc"),
        "{message}"
    );
    // Provost et al.'s ROC analysis needs two-class tasks; glass has six classes.
    let message = config_error(&format!(
        "analyses = [\"provost_roc\"]\n{}",
        GOOD.replace("\"pima\"", "\"glass\"")
    ));
    assert!(
        message.contains("provost_roc") && message.contains("glass"),
        "{message}"
    );
    // An analysis that does not exist is named with the ones that do.
    let message = config_error(&format!("analyses = [\"aslan\"]\n{GOOD}"));
    assert!(
        message.contains("'aslan'") && message.contains("aslan_agreement"),
        "{message}"
    );
}
