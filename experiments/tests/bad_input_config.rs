//! A config's values a user can write that the check must refuse, or note, saying where and
//! what is allowed (issue 43): whole numbers beyond TOML's integers, values a megabyte long,
//! options the one rule of a command refuses, limits of a procedure, one file listed twice.
//! Each case asserts the exit status and the words of the message.

mod common;

use std::path::{Path, PathBuf};

use common::{binary, stderr, stdout};

fn scratch(name: &str) -> PathBuf {
    common::scratch("bad_input_config", name)
}

/// A config on sonar with naive Bayes, `top` at its top and `learner` in its learner's table.
fn config(folder: &Path, top: &str, learner: &str) -> PathBuf {
    let path = folder.join("config.toml");
    let text = format!(
        "name = \"x\"\n{top}\n[protocol]\nkind = \"stratified_kfold\"\nfolds = 3\n\
         [[learners]]\nkind = \"knn\"\n{learner}\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// `--check` of `path`, with a results folder beside it.
fn check(path: &Path) -> std::process::Output {
    let results = path.parent().unwrap().join("results");
    binary()
        .args(["--check", "--config", path.to_str().unwrap(), "--results"])
        .arg(results)
        .output()
        .unwrap()
}

/// `--check` of `path` must be refused with status 1, no panic, every one of `words` in its
/// message; the message.
fn refused(path: &Path, words: &[&str]) -> String {
    let output = check(path);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    for word in words {
        assert!(message.contains(word), "'{word}' in: {message}");
    }
    message
}

const BEYOND: &str = "is beyond the whole numbers a config can hold (TOML's integers run from \
                      -9223372036854775808 to 9223372036854775807); allowed:";

#[test]
fn a_whole_number_beyond_toml_s_integers_names_the_key_its_line_and_its_range() {
    let folder = scratch("huge");
    let huge = "99999999999999999999";
    let sonar = "datasets = [\"sonar\"]";
    // (top lines, learner lines, the key's line, the key, what it allows)
    let cases = [
        (
            sonar.to_string(),
            format!("k = {huge}"),
            8,
            "k",
            "1 to 100000",
        ),
        (
            format!("seed = {huge}\n{sonar}"),
            String::new(),
            2,
            "seed",
            "a whole number from 0 to 9223372036854775807",
        ),
        (
            format!("{sonar}\nmeasures = [{{ name = \"ece\", bins = -{huge} }}]"),
            String::new(),
            3,
            "bins",
            "1 to 1000000",
        ),
        (
            format!("transforms = {{ subsample = {huge} }}\n{sonar}"),
            String::new(),
            2,
            "subsample",
            "a whole number from 0 to 9223372036854775807",
        ),
        (
            format!("worker_timeout_seconds = {huge}\n{sonar}"),
            String::new(),
            2,
            "worker_timeout_seconds",
            "a number of seconds from 0.001 to 86400",
        ),
        (
            format!("{sonar}\nhierarchical_samples = {huge}"),
            format!("k = {huge}"),
            3,
            "hierarchical_samples",
            "0 to 1000000",
        ),
    ];
    for (top, learner, line, key, allowed) in cases {
        let path = config(&folder, &top, &learner);
        let value = if key == "bins" {
            format!("-{huge}")
        } else {
            huge.to_string()
        };
        let message = refused(
            &path,
            &[&format!(
                "line {line}: key '{key}' = {value} {BEYOND} {allowed}"
            )],
        );
        assert!(!message.contains("i128"), "{message}");
    }
    // An item of a list names the list's key and what its items allow.
    let path = config(
        &folder,
        sonar,
        &format!("select_k = false\ntune = {{ k = [1, {huge}] }}"),
    );
    refused(
        &path,
        &[&format!("line 9: key 'k' = {huge} {BEYOND} 1 to 100000")],
    );
    // The protocol's folds, as the issue found it.
    let path = config(&folder, sonar, "");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("folds = 3", &format!("folds = {huge}"))).unwrap();
    refused(
        &path,
        &[&format!("line 5: key 'folds' = {huge} {BEYOND} at least 2")],
    );
}

#[test]
fn a_megabyte_long_value_is_quoted_short() {
    let folder = scratch("long");
    let long = "z".repeat(1 << 20);
    let sonar = "datasets = [\"sonar\"]";
    let cut = "... (1048576 characters in all)";
    // (top lines, learner lines, the words of the message)
    let cases = [
        (
            format!("{sonar}\nname2 = 1"),
            String::new(),
            vec!["unknown key 'name2'"],
        ),
        (
            format!("datasets = [\"{long}\"]"),
            String::new(),
            vec!["key 'datasets' entry 1", cut],
        ),
        (
            sonar.to_string(),
            format!("kind2 = \"{long}\""),
            vec!["unknown", "'kind2'"],
        ),
        (
            format!("{sonar}\nmeasures = [\"{long}\"]"),
            String::new(),
            vec!["unknown measure", cut, "(allowed: error, auc"],
        ),
        (
            format!("{sonar}\n{long} = 1"),
            String::new(),
            vec!["line 3: unknown key", cut, "(allowed: name, seed"],
        ),
        (
            format!("{sonar}\nanalyses = [\"{long}\"]"),
            String::new(),
            vec!["unknown analysis", cut, "(allowed: "],
        ),
        (
            format!("datasets = [{{ name = \"sonar\", positive_class = \"{long}\" }}]"),
            String::new(),
            vec!["does not exist; classes are: ", cut],
        ),
    ];
    for (top, learner, words) in cases {
        let path = config(&folder, &top, &learner);
        let message = refused(&path, &words);
        assert!(
            message.len() < 3000,
            "{} bytes: {}",
            message.len(),
            &message[..300]
        );
    }
    // The name itself: over the longest folder name, said with the value quoted short.
    let path = config(&folder, "datasets = [\"sonar\"]", "");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("name = \"x\"", &format!("name = \"{long}\"")),
    )
    .unwrap();
    let message = refused(
        &path,
        &[
            "key 'name' = \"zzz",
            cut,
            "at most 255 characters (it names the results folder",
        ],
    );
    assert!(message.len() < 600, "{message}");
    // A TOML error on a megabyte line: every line of the message is cut.
    std::fs::write(&path, format!("name = \"{long}\" junk\n")).unwrap();
    let message = refused(&path, &["TOML parse error at line 1", "characters in all)"]);
    assert!(message.len() < 10_000, "{} bytes", message.len());
    // A name of 255 characters is accepted.
    let name = "n".repeat(255);
    std::fs::write(
        &path,
        text.replace("name = \"x\"", &format!("name = \"{name}\"")),
    )
    .unwrap();
    let output = check(&path);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("is valid"));
}

#[test]
fn the_h_measure_s_prior_follows_roc_s_rule_both_parameters_or_neither() {
    let folder = scratch("h_measure");
    let entry = "key 'measures' entry 1: measure 'h_measure': option";
    let both = "give both of the Beta prior's parameters or neither, as roc's --h-alpha and \
                --h-beta";
    let cases = [
        ("alpha = 3", format!("{entry} 'alpha' = 3 is out of range; allowed: only with 'beta' ({both})")),
        ("beta = 0.5", format!("{entry} 'beta' = 0.5 is out of range; allowed: only with 'alpha' ({both})")),
        ("prior = \"beta\", alpha = 3", format!("{entry} 'alpha' = 3")),
        (
            "prior = \"class_ratio\", alpha = 3, beta = 2",
            format!("{entry} 'prior' = \"class_ratio\" is out of range; allowed: \"beta\" or no prior key when 'alpha' and 'beta' are given"),
        ),
    ];
    for (options, words) in cases {
        let top =
            format!("datasets = [\"sonar\"]\nmeasures = [{{ name = \"h_measure\", {options} }}]");
        refused(&config(&folder, &top, ""), &[&words]);
    }
    // Both, or neither with either prior, are accepted.
    for options in [
        "alpha = 3, beta = 2",
        "prior = \"beta\"",
        "prior = \"class_ratio\"",
    ] {
        let top =
            format!("datasets = [\"sonar\"]\nmeasures = [{{ name = \"h_measure\", {options} }}]");
        let output = check(&config(&folder, &top, ""));
        assert!(output.status.success(), "{options}: {}", stderr(&output));
    }
}

#[test]
fn bergmann_hommel_over_nine_learners_is_refused_at_check_naming_the_limit() {
    let folder = scratch("bergmann_hommel");
    let learners = |count: usize| -> String {
        (1..=count)
            .map(|k| format!("[[learners]]\nname = \"knn{k}\"\nkind = \"knn\"\nk = {k}\n"))
            .collect()
    };
    let top = "datasets = [\"sonar\", \"pima\", \"glass\", \"heart-statlog\"]\n\
               cd_adjustment = \"bergmann_hommel\"\nanalyses = [\"across_datasets\"]";
    let path = config(&folder, top, "k = 1");
    let text = std::fs::read_to_string(&path).unwrap();
    let head = &text[..text.find("[[learners]]").unwrap()];
    std::fs::write(&path, format!("{head}{}", learners(10))).unwrap();
    refused(
        &path,
        &[
            "analysis 'across_datasets' cannot run on this experiment",
            "key 'cd_adjustment' = \"bergmann_hommel\" takes at most 9 learners",
            "the experiment has 10",
            "allowed: shaffer",
        ],
    );
    // Nine are accepted, and ten with Nemenyi's test (which has no adjustment).
    std::fs::write(&path, format!("{head}{}", learners(9))).unwrap();
    let output = check(&path);
    assert!(output.status.success(), "{}", stderr(&output));
    let nemenyi = head.replace("cd_adjustment", "cd_test = \"nemenyi\"\ncd_adjustment");
    std::fs::write(&path, format!("{nemenyi}{}", learners(10))).unwrap();
    let output = check(&path);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn one_file_listed_as_x_and_dot_x_a_link_or_a_copy_is_refused_not_run_twice() {
    let folder = scratch("one_file");
    let mut text = String::from("a,b,class\n");
    for row in 0..30 {
        text.push_str(&format!(
            "{}.5,{},{}\n",
            row % 7,
            row % 5,
            ["p", "q"][row % 2]
        ));
    }
    std::fs::write(folder.join("x.csv"), &text).unwrap();
    std::fs::write(folder.join("copy.csv"), &text).unwrap();
    let datasets = |entries: &str| {
        let path = folder.join("config.toml");
        std::fs::write(
            &path,
            format!(
                "name = \"one\"\ndatasets = [{entries}]\nprotocol = {{ kind = \
                 \"stratified_kfold\", folds = 2 }}\n[[learners]]\nkind = \"naive_bayes\"\n"
            ),
        )
        .unwrap();
        path
    };
    let canonical = std::fs::canonicalize(folder.join("x.csv")).unwrap();
    let one_file = format!(
        "are one file ({}) with the same settings; list it once",
        canonical.display()
    );
    refused(
        &datasets("\"x.csv\", \"./x.csv\""),
        &["key 'datasets': 'x' appears twice with the same settings (entries 1 and 2)"],
    );
    refused(
        &datasets("{ name = \"x.csv\", label = \"a\" }, { name = \"./x.csv\", label = \"b\" }"),
        &[
            "key 'datasets': entries 1 (",
            "x.csv') and 2 (",
            "./x.csv')",
            &one_file,
        ],
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("x.csv", folder.join("link.csv")).unwrap();
        refused(
            &datasets("\"x.csv\", \"link.csv\""),
            &["entries 1 (", "link.csv')", &one_file],
        );
    }
    refused(
        &datasets("\"x.csv\", \"copy.csv\""),
        &[
            "key 'datasets': 'x' and 'copy' hold the same data (the same content after their \
             transforms",
            "list it once (a copy would count twice in the tests across datasets)",
        ],
    );
    // Different settings still run as two datasets.
    let output = check(&datasets(
        "\"x.csv\", { name = \"./x.csv\", subsample = 20 }",
    ));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("listed there more than once with different settings"));
}

#[test]
fn the_stopping_table_names_the_range_of_a_huge_count_and_quotes_long_values_short() {
    let folder = scratch("stopping");
    let huge = "99999999999999999999";
    let long = "q".repeat(100_000);
    let top = |stopping: &str| {
        format!("datasets = [\"sonar\"]\nprotocol = {{ kind = \"stratified_kfold\", folds = 2, repetitions = 5 }}\n[stopping]\n{stopping}")
    };
    let path = config(
        &folder,
        &top(&format!("delta_min = 1\nmin_repetitions = {huge}")),
        "",
    );
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("[protocol]\nkind = \"stratified_kfold\"\nfolds = 3\n", "");
    std::fs::write(&path, &text).unwrap();
    refused(
        &path,
        &[&format!("line 6: key 'min_repetitions' = {huge} {BEYOND} a whole number of repetitions from 1 to 1000000")],
    );
    for (key, stopping) in [
        ("rule", format!("delta_min = 1\nrule = \"{long}\"")),
        ("measure", format!("delta_min = 1\nmeasure = \"{long}\"")),
        ("pairs", format!("delta_min = 1\npairs = \"{long}\"")),
    ] {
        std::fs::write(
            &path,
            text.replace(
                &format!("delta_min = 1\nmin_repetitions = {huge}"),
                &stopping,
            ),
        )
        .unwrap();
        let message = refused(
            &path,
            &[
                &format!("key 'stopping.{key}' = \"qqq"),
                "... (100000 characters in all)",
                "allowed: ",
            ],
        );
        assert!(message.len() < 3000, "{key}: {} bytes", message.len());
    }
}

#[test]
fn a_number_beyond_f64_names_the_key_its_line_and_its_range() {
    let folder = scratch("float");
    let sonar = "datasets = [\"sonar\"]";
    let beyond = "is beyond the numbers a config can hold (TOML's floats reach about -1.8e308 \
                  and 1.8e308); allowed:";
    let cases = [
        (
            format!("alpha = 1e400\n{sonar}"),
            2,
            "alpha",
            "1e400",
            "0 < alpha < 1",
        ),
        (
            format!("{sonar}\nmeasures = [{{ name = \"partial_auc\", max_fpr = -1e400 }}]"),
            3,
            "max_fpr",
            "-1e400",
            "allowed",
        ),
    ];
    for (top, line, key, value, allowed) in cases {
        let message = refused(
            &config(&folder, &top, ""),
            &[
                &format!("line {line}: key '{key}' = {value} {beyond}"),
                allowed,
            ],
        );
        assert!(!message.contains("overflowed"), "{message}");
    }
}
