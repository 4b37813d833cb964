//! Every command, its output piped into a reader that closes the pipe early (issue 43): the
//! program stops quietly, as Unix tools do (`experiments datasets | head -1`), with status 0 or
//! 141 or killed by SIGPIPE, and never panics ("failed printing to stdout: Broken pipe").
//! Each runs twice: into a reader that reads 1 byte and closes (`head -c 1`), and into a pipe
//! closed before the program starts, where its first write meets the closed pipe whatever its
//! output's size (a small output written at once can fit the pipe before `head` closes it).

mod bad_input;

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

use bad_input::{read_stderr, scratch, write};

/// Runs `args` with stdout read for `read` bytes (0 or 1) and then closed; asserts the quiet end.
fn assert_quiet_on_a_closed_pipe(args: &[&str], read: usize) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_experiments"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = if read == 0 {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        command.stdout(writer).spawn().unwrap()
    } else {
        let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        stdout.read_exact(&mut [0; 1]).unwrap();
        child
    };
    let stderr = read_stderr(&mut child);
    let status = child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    let quiet = status.success() || status.code() == Some(141) || status.signal() == Some(13);
    assert!(quiet, "{args:?} (read {read} bytes): {status}: {stderr}");
}

#[test]
fn every_command_stops_quietly_when_the_reader_closes_the_pipe() {
    let folder = scratch("closed_pipe");
    let two = "experiments/tests/data/roc_eval/models.csv";
    let two = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(two);
    let two = two.to_str().unwrap();
    let three = write(
        &folder,
        "three.csv",
        "truth,a,b,c\na,0.7,0.2,0.1\nb,0.2,0.7,0.1\nc,0.1,0.2,0.7\na,0.5,0.3,0.2\n",
    );
    let folds = write(
        &folder,
        "folds.csv",
        "knn,nb\n0.81,0.72\n0.79,0.70\n0.83,0.69\n0.80,0.75\n0.78,0.71\n",
    );
    let table = write(
        &folder,
        "table.csv",
        "dataset,a,b,c\nd1,0.7,0.6,0.5\nd2,0.5,0.6,0.4\nd3,0.8,0.7,0.6\nd4,0.9,0.7,0.8\n",
    );
    let (three, folds, table) = (
        three.to_str().unwrap(),
        folds.to_str().unwrap(),
        table.to_str().unwrap(),
    );
    let config = write(
        &folder,
        "five.toml",
        "name = \"five\"\ndatasets = [\"pima\"]\n[protocol]\nkind = \"stratified_kfold\"\n\
         folds = 5\n[[learners]]\nkind = \"naive_bayes\"\n",
    );
    let config = config.to_str().unwrap();
    let results = folder.join("results");
    let results = results.to_str().unwrap();
    let resamples = ["--resamples", "50"];
    for read in [1, 0] {
        let learner = folder.join(format!("learner-{read}"));
        let _ = std::fs::remove_dir_all(&learner);
        let commands: Vec<Vec<&str>> = vec![
            vec!["--help"],
            vec!["--version"],
            vec!["--config", config, "--check", "--results", results],
            vec!["datasets"],
            vec!["learners"],
            vec!["analyses"],
            vec!["roc", two],
            vec!["roc", two, "--json", "--max-fpr", "0.2"],
            [&["roc", two, "--evaluate", "--json"][..], &resamples].concat(),
            vec!["roc", three, "--json"],
            vec!["compare", folds],
            vec!["compare", table, "--json"],
            vec![
                "compare", "delong", "--scores", two, "--a", "good", "--b", "fair",
            ],
            [&["compare", "bootstrap", "--scores", two][..], &resamples].concat(),
            vec!["compare", "mcnemar", "--b", "3", "--c", "9"],
            vec!["compare", "binomial", "--successes", "3", "--trials", "9"],
            vec!["compare", "sign", "--wins", "3", "--losses", "9"],
            vec![
                "compare",
                "auc-interval",
                "--auc",
                "0.8",
                "--positives",
                "9",
            ]
            .into_iter()
            .chain(["--negatives", "7"])
            .collect(),
            vec![
                "compare",
                "ranks",
                "--average-ranks",
                "1,2,3",
                "--datasets",
                "9",
            ],
            vec!["compare", "correct", "--pvalues", "0.01,0.2"],
            vec![
                "slurm",
                "--config",
                config,
                "--tasks",
                "2",
                "--results",
                results,
            ],
            vec!["new-learner", "mine", "--path", learner.to_str().unwrap()],
        ];
        for args in commands {
            assert_quiet_on_a_closed_pipe(&args, read);
        }
    }
}
