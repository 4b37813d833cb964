//! Every numeric flag of every subcommand driven over extreme values (issue 28): a fixed
//! table of extremes (zero, one, negative, the u32/u64 edges and one past them, 1e18, NaN,
//! infinities, +-1e308, the smallest subnormal, a word, an empty value), each given to one flag
//! with the other flags valid. Every run must end (a guard kills a run after 60 s and fails),
//! exit 0, 1 (refused by our check) or 2 (refused by the argument parser), and never panic or
//! abort. A deterministic table rather than random draws: every value is tried on every flag.

mod bad_input;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bad_input::{read_stderr, scratch, write};

/// The extreme values tried on every numeric flag.
const EXTREMES: [&str; 18] = [
    "0",
    "1",
    "-1",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "1000000000000000000",
    "1e18",
    "NaN",
    "inf",
    "-inf",
    "1e308",
    "-1e308",
    "5e-324",
    "0.5",
    "abc",
    "",
];

/// Runs the program; its exit code and stderr, failing if it runs past the guard.
fn run_guarded(args: &[String]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the experiments binary runs");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), read_stderr(&mut child));
        }
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} still runs after 60 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Gives every extreme to `flag` of a command whose other arguments are `base` (valid).
fn drive(base: &[&str], flag: &str) {
    for value in EXTREMES {
        let mut args: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        args.push(format!("{flag}={value}"));
        let (code, stderr) = run_guarded(&args);
        assert!(
            matches!(code, Some(0..=2)),
            "{args:?}: exit {code:?} (a panic or an abort): {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
        if code != Some(0) {
            assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
            // The message names the flag refused (or, for a value it was given, the
            // config that was then looked for).
            assert!(
                stderr.contains(flag) || stderr.contains("no-such-config-anywhere"),
                "{args:?}: {stderr}"
            );
            assert!(
                stderr.len() < 2_000,
                "{args:?}: a message of {} bytes",
                stderr.len()
            );
        }
    }
}

#[test]
fn single_tests_take_any_value_of_any_numeric_flag() {
    let folder = scratch("flag_extremes");
    let scores = write(
        &folder,
        "s.csv",
        "truth,a,b\n1,0.9,0.8\n0,0.1,0.3\n1,0.7,0.2\n0,0.4,0.5\n",
    );
    let scores = scores.to_str().unwrap();
    let commands: [(&[&str], &[&str]); 7] = [
        (
            &["compare", "mcnemar", "--b=3", "--c=5"],
            &["--b", "--c", "--alpha"],
        ),
        (
            &["compare", "binomial", "--successes=3", "--trials=10"],
            &["--successes", "--trials", "--alpha"],
        ),
        (
            &["compare", "sign", "--wins=7", "--losses=2", "--ties=1"],
            &["--wins", "--losses", "--ties", "--alpha"],
        ),
        (
            &[
                "compare",
                "auc-interval",
                "--auc=0.8",
                "--positives=20",
                "--negatives=30",
                "--errors=10",
            ],
            &[
                "--auc",
                "--positives",
                "--negatives",
                "--errors",
                "--false-negatives",
                "--alpha",
            ],
        ),
        (
            &[
                "compare",
                "ranks",
                "--average-ranks=1.5,1.5",
                "--datasets=10",
            ],
            &["--average-ranks", "--datasets", "--alpha"],
        ),
        (
            &["compare", "correct", "--pvalues=0.01,0.2"],
            &["--pvalues", "--alpha"],
        ),
        (
            &["compare", "delong", "--scores", scores, "--resamples=10"],
            &["--resamples", "--seed", "--alpha"],
        ),
    ];
    for (base, flags) in commands {
        for flag in flags {
            drive(base, flag);
        }
    }
}

#[test]
fn file_commands_take_any_value_of_any_numeric_flag() {
    let folder = scratch("flag_extremes_files");
    let folds = write(
        &folder,
        "f.csv",
        "a,b\n0.8,0.7\n0.82,0.71\n0.79,0.74\n0.85,0.7\n",
    );
    let table = write(
        &folder,
        "t.csv",
        "dataset,a,b\nd1,0.7,0.6\nd2,0.5,0.6\nd3,0.8,0.7\n",
    );
    let roc = write(&folder, "r.csv", "truth,m\n1,0.9\n0,0.1\n1,0.7\n0,0.4\n");
    let (folds, table, roc) = (
        folds.to_str().unwrap(),
        table.to_str().unwrap(),
        roc.to_str().unwrap(),
    );
    for flag in ["--alpha", "--rope", "--test-fraction"] {
        drive(&["compare", folds], flag);
    }
    for flag in ["--alpha", "--rope", "--samples", "--seed"] {
        drive(&["compare", table], flag);
    }
    drive(&["roc", roc], "--target-fpr");
}

#[test]
fn run_and_slurm_counts_are_parsed_within_their_bounds() {
    // A config that does not exist: the values are parsed and checked, and nothing runs.
    let missing = ["--config", "no-such-config-anywhere"];
    for flag in [
        "--shard",
        "--threads",
        "--max-units",
        "--max-split-memory-mb",
    ] {
        drive(&missing, flag);
    }
    for value in EXTREMES {
        for shard in [format!("--shard=0/{value}"), format!("--shard={value}/4")] {
            let args = [missing[0].to_string(), missing[1].to_string(), shard];
            let (code, stderr) = run_guarded(&args);
            assert!(matches!(code, Some(1..=2)), "{args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        }
    }
    let slurm = ["slurm", "--config", "no-such-config-anywhere", "--tasks=2"];
    for flag in ["--tasks", "--cpus", "--max-units", "--max-split-memory-mb"] {
        drive(&slurm, flag);
    }
}
