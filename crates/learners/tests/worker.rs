//! The persistent-worker learner kinds against a worker written in Python with the standard
//! library only (`tests/data/fake_worker.py`, which speaks the protocol through the
//! `python/experiments_py/protocol.py` module): what a worker receives (never a test label), the
//! probabilities it returns, and every way it can fail (a crash, a time-out, a malformed or short
//! frame, a wrong shape, a non-finite probability, an error, no handshake, a refused one), each
//! failing its unit only, the others computed by a restarted worker.
//!
//! Skipped, with a message, where `python3` cannot be run.

use std::path::{Path, PathBuf};
use std::process::Command;

use data::{Attribute, Dataset, Features, Schema};
use learners::{Learner, Registry};

/// The fake worker script.
fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fake_worker.py")
}

/// True when python3 runs; prints why the test is skipped otherwise.
fn python_available(test: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import struct, json"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !ok {
        eprintln!(
            "skipped {test}: python3 cannot be run here (the fake worker is a Python script)"
        );
    }
    ok
}

/// A scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!(
        "learners-worker-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// A `worker` learner running the fake worker with `args`, and extra TOML lines.
fn fake(args: &[&str], extra: &str) -> Box<dyn Learner> {
    fake_in(&Registry::builtin(), args, extra)
}

/// [`fake`], built by `registry`.
fn fake_in(registry: &Registry, args: &[&str], extra: &str) -> Box<dyn Learner> {
    let mut command = vec!["python3".to_string(), script().display().to_string()];
    command.extend(args.iter().map(|arg| arg.to_string()));
    build(
        registry,
        &format!("kind = \"worker\"\ncommand = {command:?}\n{extra}"),
    )
}

/// A learner built by `registry` from a config table's TOML text.
fn build(registry: &Registry, text: &str) -> Box<dyn Learner> {
    registry
        .build(&text.parse().expect("valid TOML"))
        .expect("builds")
}

/// 40 rows: a numeric attribute with missing values, a nominal one, three classes.
fn dataset(name: &str, offset: f64) -> Dataset {
    let schema = Schema {
        attributes: vec![
            Attribute::numeric("x"),
            Attribute::nominal("colour", vec!["red".into(), "green".into()]),
        ],
        class_name: "class".into(),
        class_values: vec!["a".into(), "b".into(), "c".into()],
    };
    let x = (0..40)
        .map(|i| {
            if i % 7 == 3 {
                f64::NAN
            } else {
                offset + i as f64 / 4.0
            }
        })
        .collect();
    let colour = (0..40).map(|i| (i % 2) as f64).collect();
    let classes = (0..40).map(|i| (i * i % 3) as u32).collect();
    Dataset::new(name, schema, vec![x, colour], classes, None).unwrap()
}

/// The training and test rows of fold `fold` of 4 (row i is in fold i % 4).
fn fold(dataset: &Dataset, fold: usize) -> (Vec<usize>, Vec<usize>) {
    (0..dataset.len()).partition(|&row| row % 4 != fold)
}

/// Fits the learner on fold `index` and predicts its test rows.
fn run_fold(
    learner: &dyn Learner,
    dataset: &Dataset,
    index: usize,
) -> Result<learners::Probabilities, String> {
    let (train, test) = fold(dataset, index);
    let model = learner
        .fit(&dataset.subset(train), 11 + index as u64)
        .map_err(|error| error.to_string())?;
    model
        .predict_proba(&Features::of(dataset, test))
        .map_err(|error| error.to_string())
}

/// What the fake worker answers: the training rows' class frequencies, for every test row.
fn expected(dataset: &Dataset, index: usize) -> Vec<f64> {
    let (train, test) = fold(dataset, index);
    let mut counts = vec![0.0; dataset.num_classes()];
    for &row in &train {
        counts[dataset.class(row)] += 1.0;
    }
    let total: f64 = counts.iter().sum();
    let row: Vec<f64> = counts.iter().map(|count| count / total).collect();
    test.iter().flat_map(|_| row.clone()).collect()
}

#[test]
fn a_worker_serves_units_of_several_datasets_and_never_sees_a_test_label() {
    if !python_available("the recording worker test") {
        return;
    }
    let folder = scratch("record");
    let log = folder.join("frames.jsonl");
    let learner = fake(&["record", &log.display().to_string()], "");
    let first = dataset("first", 0.0);
    let second = dataset("second", 100.0);
    let units = [
        (&first, 0),
        (&first, 1),
        (&second, 0),
        (&first, 2),
        (&first, 3),
    ];
    for &(dataset, index) in &units {
        let probabilities = run_fold(&*learner, dataset, index).unwrap();
        assert_eq!(probabilities.as_flat(), &expected(dataset, index)[..]);
    }
    drop(learner);
    let frames: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let of_type = |kind: u64| frames.iter().filter(move |f| f["type"] == kind);
    // One worker served every unit: one handshake, each dataset defined once, every row of a
    // dataset sent once (the second visit to `first` sent nothing new), then BYE.
    assert_eq!(of_type(0x01).count(), 1);
    assert_eq!(of_type(0x06).count(), 1);
    let datasets: Vec<&serde_json::Value> = of_type(0x02).collect();
    assert_eq!(datasets.len(), 2);
    for definition in &datasets {
        // The schema: the attributes (not the class) and the class names, no labels.
        assert_eq!(definition["attributes"].as_array().unwrap().len(), 2);
        assert_eq!(definition["classes"], serde_json::json!(["a", "b", "c"]));
    }
    let mut sent: Vec<(u64, u64)> = Vec::new();
    for rows in of_type(0x03) {
        let slot = rows["slot"].as_u64().unwrap();
        let source = if slot == datasets[0]["slot"] {
            &first
        } else {
            &second
        };
        let ids = rows["ids"].as_array().unwrap();
        let values = rows["values"].as_array().unwrap();
        // Two values a row: the attributes only, exactly the dataset's (null = missing).
        assert_eq!(values.len(), 2 * ids.len());
        for (position, id) in ids.iter().enumerate() {
            let row = id.as_u64().unwrap() as usize;
            for attribute in 0..2 {
                let value = source.value(row, attribute);
                let got = &values[2 * position + attribute];
                if value.is_nan() {
                    assert!(got.is_null());
                } else {
                    assert_eq!(got.as_f64(), Some(value));
                }
            }
            sent.push((slot, row as u64));
        }
    }
    let count = sent.len();
    sent.sort();
    sent.dedup();
    assert_eq!(count, sent.len(), "a row was sent twice");
    assert_eq!(count, 80);
    // Each unit: its training rows with their classes, its test rows without.
    let unit_frames: Vec<&serde_json::Value> = of_type(0x04).collect();
    assert_eq!(unit_frames.len(), units.len());
    for (frame, &(dataset, index)) in unit_frames.iter().zip(&units) {
        let (train, test) = fold(dataset, index);
        let ids = |key: &str| -> Vec<usize> {
            frame[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|id| id.as_u64().unwrap() as usize)
                .collect()
        };
        assert_eq!(ids("train"), train);
        assert_eq!(ids("test"), test);
        let classes: Vec<usize> = train.iter().map(|&row| dataset.class(row)).collect();
        assert_eq!(ids("classes"), classes);
        assert_eq!(frame["weights"].as_array().unwrap().len(), train.len());
        // No class is sent but the training rows' (one per training row, above): the test
        // rows' classes are nowhere in this frame, nor in any ROWS or DATASET frame.
        assert!(test.iter().all(|row| !train.contains(row)));
    }
}

/// Runs four folds with a worker told to misbehave as `kind` at its 2nd unit (once): the 2nd
/// unit fails with a message holding each of `needles`, the others give the frequencies.
fn one_unit_fails(kind: &str, needles: &[&str]) {
    if !python_available(&format!("the '{kind}' failure test")) {
        return;
    }
    let folder = scratch(kind);
    let marker = folder.join("failed-once");
    let learner = fake(
        &["fail", kind, "2", &marker.display().to_string()],
        "timeout_seconds = 2",
    );
    let data = dataset("data", 0.0);
    for index in 0..4 {
        let result = run_fold(&*learner, &data, index);
        if index == 1 {
            let message = result.expect_err("the misbehaving unit fails");
            for needle in needles {
                assert!(
                    message.contains(needle),
                    "{kind}: {needle:?} not in: {message}"
                );
            }
        } else {
            let probabilities = result.unwrap_or_else(|e| panic!("{kind}: unit {index}: {e}"));
            assert_eq!(probabilities.as_flat(), &expected(&data, index)[..]);
        }
    }
}

#[test]
fn a_crash_fails_one_unit_with_the_exit_status_and_stderr() {
    one_unit_fails(
        "crash",
        &[
            "the worker exited during the unit",
            "exit status: 3",
            "crashing on purpose",
        ],
    );
}

#[test]
fn a_time_out_fails_one_unit_and_names_the_option() {
    one_unit_fails(
        "sleep",
        &[
            "did not answer the unit within 2 s (timeout_seconds)",
            "sleeping on purpose",
        ],
    );
}

#[test]
fn garbage_on_stdout_fails_one_unit_quoting_it() {
    one_unit_fails("garbage", &["malformed frame", "hello world"]);
}

#[test]
fn a_short_frame_fails_one_unit() {
    one_unit_fails("short", &["a short frame"]);
}

#[test]
fn a_wrong_shape_fails_one_unit() {
    one_unit_fails(
        "shape",
        &["probabilities of the wrong shape: 9 rows of 3 classes for 10 rows of 3 classes"],
    );
}

#[test]
fn a_non_finite_probability_fails_one_unit() {
    one_unit_fails(
        "nan",
        &["a non-finite probability (NaN) for row 0, class 'a'"],
    );
}

#[test]
fn an_error_reply_fails_one_unit_and_keeps_the_worker() {
    one_unit_fails(
        "error",
        &["the worker's learner failed: ValueError: the learner failed on purpose"],
    );
}

#[test]
fn a_frame_of_length_0_after_a_unit_is_malformed_at_once() {
    // The worker keeps running after the four zero bytes: before, the runner waited for a type
    // byte until the unit's time-out and said the worker "did not answer".
    one_unit_fails(
        "zero",
        &[
            "worker(python3 ",
            "during the unit, the worker sent a malformed frame: length 0",
            "where the runner expects type 0x82 (PROBABILITIES)",
            "; worker `python3 ",
        ],
    );
}

#[test]
fn a_frame_of_length_0_in_the_handshake_is_malformed_at_once() {
    if !python_available("the zero-length handshake test") {
        return;
    }
    let learner = fake(&["zero"], "start_timeout_seconds = 2");
    let message = run_fold(&*learner, &dataset("data", 0.0), 0).unwrap_err();
    for needle in [
        "worker(python3 ",
        "during its handshake, the worker sent a malformed frame: length 0",
        "type 0x81 (WELCOME)",
        "type 0x83 (ERROR)",
        "; worker `python3 ",
        "a frame of length 0 on purpose",
    ] {
        assert!(message.contains(needle), "{needle:?} not in: {message}");
    }
    assert!(!message.contains("did not answer"), "{message}");
}

#[test]
fn a_worker_that_never_answers_the_handshake_fails_every_unit_of_its_learner_only() {
    if !python_available("the silent worker test") {
        return;
    }
    let silent = fake(&["silent"], "start_timeout_seconds = 1");
    let fine = fake(&["ok"], "");
    let data = dataset("data", 0.0);
    assert!(silent.revision().contains("worker unavailable"));
    for index in 0..2 {
        let message = run_fold(&*silent, &data, index).unwrap_err();
        assert!(
            message.contains("did not answer its handshake within 1 s (start_timeout_seconds)"),
            "{message}"
        );
        let probabilities = run_fold(&*fine, &data, index).unwrap();
        assert_eq!(probabilities.as_flat(), &expected(&data, index)[..]);
    }
}

#[test]
fn a_refused_handshake_quotes_the_worker() {
    if !python_available("the refusing worker test") {
        return;
    }
    let learner = fake(&["refuse"], "");
    let message = run_fold(&*learner, &dataset("data", 0.0), 0).unwrap_err();
    assert!(
        message.contains("refused to start: ImportError: cannot import module 'nowhere'"),
        "{message}"
    );
}

#[test]
fn check_ready_starts_the_worker_that_the_units_then_use() {
    if !python_available("the check_ready test") {
        return;
    }
    let folder = scratch("ready");
    let log = folder.join("frames.jsonl");
    let learner = fake(&["record", &log.display().to_string()], "");
    let note = learner.check_ready().unwrap().expect("a note for the log");
    assert!(
        note.contains("fake_worker.py record")
            && note.contains("within 600 s (timeout_seconds, the default) fails"),
        "{note}"
    );
    let data = dataset("data", 0.0);
    for index in 0..2 {
        run_fold(&*learner, &data, index).unwrap();
    }
    drop(learner);
    let hellos = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|line| line.contains("\"type\": 1}"))
        .count();
    assert_eq!(
        hellos, 1,
        "one worker, started by check_ready, served the units"
    );
}

#[test]
fn the_runs_worker_timeout_applies_to_learners_that_set_none_and_is_named() {
    if !python_available("the run-wide time-out test") {
        return;
    }
    let folder = scratch("run-timeout");
    let marker = folder.join("slept-once");
    let registry = Registry::builtin().with_worker_timeout(Some(1.0));
    let sleepy = ["fail", "sleep", "1", &marker.display().to_string()];
    // The learner's own timeout_seconds wins over the run's.
    let own = fake_in(&registry, &sleepy, "timeout_seconds = 3")
        .check_ready()
        .unwrap()
        .unwrap();
    assert!(own.contains("within 3 s (timeout_seconds) fails"), "{own}");
    let learner = fake_in(&registry, &sleepy, "");
    let note = learner.check_ready().unwrap().unwrap();
    assert!(
        note.contains("within 1 s (the config's worker_timeout_seconds) fails"),
        "{note}"
    );
    let message = run_fold(&*learner, &dataset("data", 0.0), 0).unwrap_err();
    assert!(
        message.contains(
            "did not answer the unit within 1 s (the config's worker_timeout_seconds) and was \
             stopped"
        ) && message.contains("sleeping on purpose"),
        "{message}"
    );
}

#[test]
fn check_ready_refuses_with_the_workers_own_message() {
    if !python_available("the refused check_ready test") {
        return;
    }
    let message = fake(&["refuse"], "").check_ready().unwrap_err().to_string();
    assert!(
        message.starts_with("worker(python3 ")
            && message.contains("refused to start: ImportError: cannot import module 'nowhere'"),
        "{message}"
    );
    let message = build(&Registry::builtin(), MISSING_PROGRAM)
        .check_ready()
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("cannot start the worker `/nonexistent/worker-program`"),
        "{message}"
    );
    // A wrapper asks its base learner.
    let bagged = format!(
        "kind = \"bagging\"\niterations = 2\nbase = {{ {} }}",
        MISSING_PROGRAM.replace('\n', ", ")
    );
    let message = build(&Registry::builtin(), &bagged)
        .check_ready()
        .unwrap_err()
        .to_string();
    assert!(message.contains("/nonexistent/worker-program"), "{message}");
}

/// A `worker` learner whose program does not exist.
const MISSING_PROGRAM: &str = "kind = \"worker\"\ncommand = [\"/nonexistent/worker-program\"]";

#[test]
fn a_missing_program_is_a_clear_unit_failure() {
    let missing = build(&Registry::builtin(), MISSING_PROGRAM);
    let message = run_fold(&*missing, &dataset("data", 0.0), 0).unwrap_err();
    assert!(
        message.contains("cannot start the worker `/nonexistent/worker-program`"),
        "{message}"
    );
}
