//! `slurm` and `--shard` on what a user may get wrong (issue 28): a shard count or a number of
//! tasks beyond the documented bound is refused by the parser (before, `--shard
//! 0/18446744073709551615` and `slurm --tasks 4294967295` aborted), and nothing a user types
//! becomes a line of a job script: `--partition`, `--time`, `--mem` and the paths are checked
//! before anything is written; more tasks than units are one shard per unit. No Slurm is
//! needed.

mod bad_input;

use bad_input::{accepted, assert_words, refused, refused_by_parser, scratch, write};

#[test]
fn shard_counts_beyond_the_bound_are_refused_by_the_parser() {
    for shard in [
        "0/18446744073709551615",
        "4294967295/4294967296",
        "0/100001",
    ] {
        let message = refused_by_parser(&["--config", "aslan-quick", "--shard", shard]);
        assert_words(&message, &["--shard", "from 1 to 100000"]);
    }
    for shard in ["4/4", "0/0", "1", "a/b", "-1/4"] {
        let shard = format!("--shard={shard}");
        let message = refused_by_parser(&["--config", "aslan-quick", &shard]);
        assert_words(&message, &["--shard"]);
    }
}

#[test]
fn a_number_of_tasks_beyond_the_bound_is_refused_by_the_parser() {
    for tasks in ["4294967295", "100001", "0", "-1"] {
        let message = refused_by_parser(&["slurm", "--config", "aslan-quick", "--tasks", tasks]);
        assert_words(&message, &["--tasks"]);
    }
    let message = refused_by_parser(&["slurm", "--config", "aslan-quick", "--tasks", "100001"]);
    assert_words(&message, &["1..=100000"]);
}

#[test]
fn nothing_typed_becomes_a_line_of_the_job_script() {
    let results = scratch("slurm_values").join("results");
    let results = results.to_str().unwrap();
    let base = [
        "slurm",
        "--config",
        "aslan-quick",
        "--tasks",
        "2",
        "--results",
        results,
    ];
    let cases = [
        (
            "--partition",
            "gpu\n#SBATCH --wrap=rm",
            "partition names of letters",
        ),
        ("--partition", "a b", "separated by commas"),
        ("--time", "2h", "a Slurm time"),
        ("--time", "1:00:00\nrm -rf ~", "H:M:S"),
        ("--mem", "4GB", "K, M, G or T"),
        ("--mem", "4G\n#SBATCH --x", "K, M, G or T"),
    ];
    for (flag, value, words) in cases {
        let message = refused(&[&base[..], &[flag, value]].concat());
        assert_words(&message, &[&format!("{flag} '"), "is not allowed", words]);
        assert_eq!(message.trim_end().lines().count(), 1, "one line: {message}");
    }
    let with_line_break = format!("{results}/a\nb");
    let args = [
        "slurm",
        "--config",
        "aslan-quick",
        "--tasks",
        "2",
        "--results",
    ];
    let message = refused(&[&args[..], &[&with_line_break]].concat());
    assert_words(&message, &["--results", "no line break"]);
    assert!(!std::path::Path::new(results).join("a\nb").exists());
}

#[test]
fn more_tasks_than_units_are_one_shard_per_unit_and_said_so() {
    let folder = scratch("slurm_tasks");
    // One dataset, one learner, 5 folds: 5 units.
    let config = write(
        &folder,
        "five.toml",
        "name = \"five\"\ndatasets = [\"pima\"]\n[protocol]\nkind = \"stratified_kfold\"\n\
         folds = 5\n[[learners]]\nkind = \"naive_bayes\"\n",
    );
    let results = folder.join("results");
    let output = accepted(&[
        "slurm",
        "--config",
        config.to_str().unwrap(),
        "--tasks",
        "1000",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_words(
        &output,
        &[
            "--tasks 1000 is more than the experiment's 5 units: 5 shards",
            "5 units in 5 shards",
            "--array=0-4",
        ],
    );
    let script = std::fs::read_to_string(results.join("five/slurm/shards.sbatch")).unwrap();
    assert_words(&script, &["--array=0-4", "$SLURM_ARRAY_TASK_ID/5\""]);
}
