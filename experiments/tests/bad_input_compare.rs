//! `compare` on what a user may get wrong (issue 28): each case is refused with exit status 1
//! (2 for a flag the parser refuses) and a message naming the flag or the file and line and
//! what is allowed, before any work; none panics, hangs or prints a wrong result. The files
//! are written here by hand; the numbers asserted are the inputs and the documented bounds.

mod bad_input;

use bad_input::{accepted, assert_words, noted, refused, refused_by_parser, scratch, write};

#[test]
fn a_typo_in_a_per_fold_file_is_an_error_not_a_results_table() {
    let folder = scratch("compare_typo");
    for (name, typo) in [
        ("typo.csv", "0.8z"),
        ("na.csv", "NA"),
        ("question.csv", "?"),
    ] {
        let text = format!("knn,nb,c45\n{typo},0.7,0.6\n0.81,0.72,0.61\n0.79,0.70,0.65\n");
        let file = write(&folder, name, text);
        let file = file.to_str().unwrap();
        // No dataset column: per-fold results, whatever the cells hold.
        let message = refused(&["compare", file]);
        assert_words(
            &message,
            &["3 learner columns (knn, nb, c45)", "--a COLUMN --b COLUMN"],
        );
        let message = refused(&["compare", file, "--a", "knn", "--b", "nb"]);
        assert_words(
            &message,
            &[&format!("{file}:2"), "'knn'", typo, "not a number"],
        );
        // The columns without the typo are compared as per-fold results.
        let output = accepted(&["compare", file, "--a", "nb", "--b", "c45"]);
        assert_words(
            &output,
            &["3 paired results", "Paired tests of nb against c45"],
        );
    }
    // A dataset column makes a results table.
    let table = write(
        &folder,
        "table.csv",
        "Dataset,knn,nb\npima,0.7,0.6\nglass,0.5,0.6\n",
    );
    let message = refused(&["compare", table.to_str().unwrap(), "--a", "knn"]);
    assert_words(
        &message,
        &["--a applies to per-fold results", "dataset column"],
    );
}

#[test]
fn impossible_average_ranks_are_refused_with_what_is_possible() {
    for (ranks, words) in [
        ("9,9,9", vec!["rank 9 (learner 1) is outside 1..3"]),
        ("0.5,0.5", vec!["rank 0.5", "outside 1..2"]),
        ("-1,4", vec!["rank -1", "outside 1..2"]),
        ("1,1,1", vec!["sum to 3", "k(k+1)/2 = 6"]),
    ] {
        let args = [
            "compare",
            "ranks",
            "--average-ranks",
            ranks,
            "--datasets",
            "10",
        ];
        assert_words(&refused(&args), &words);
    }
    let many = vec!["1"; 20_000].join(",");
    let args = [
        "compare",
        "ranks",
        "--average-ranks",
        &many,
        "--datasets",
        "10",
    ];
    assert_words(&refused(&args), &["--average-ranks 20000", "from 2 to 100"]);
    let args = ["compare", "ranks", "--average-ranks", "2,1", "--datasets"];
    let message = refused(&[&args[..], &["1000000000000000000"]].concat());
    assert_words(
        &message,
        &["--datasets 1000000000000000000", "from 2 to 1000000"],
    );
}

#[test]
fn counts_near_1e18_are_refused_at_once() {
    let big = "1000000000000000000";
    let cases: [(&[&str], &[&str]); 4] = [
        (
            &["mcnemar", "--b", big, "--c", "999999999999999999"],
            &["--b 1000000000000000000 plus --c", "more than 10000000"],
        ),
        (
            &["sign", "--wins", big, "--losses", "999999999999999999"],
            &["--wins", "plus --losses", "more than 10000000"],
        ),
        (
            &[
                "binomial",
                "--successes",
                "500000000000000000",
                "--trials",
                big,
            ],
            &["--trials 1000000000000000000", "from 1 to 10000000"],
        ),
        (
            &["mcnemar", "--b", "18446744073709551615", "--c", "1"],
            &["more than 10000000"],
        ),
    ];
    for (args, words) in cases {
        assert_words(&refused(&[&["compare"], args].concat()), words);
    }
    // Beyond u64: the parser names the flag.
    let message = refused_by_parser(&["compare", "mcnemar", "--b", "1e18", "--c", "1"]);
    assert_words(&message, &["'1e18'", "--b"]);
}

#[test]
fn auc_intervals_of_huge_counts_neither_overflow_nor_hang() {
    let huge = "1000000000000";
    let args = [
        "compare",
        "auc-interval",
        "--auc",
        "0.8",
        "--positives",
        huge,
    ];
    let message = refused(&[&args[..], &["--negatives", huge, "--errors", "1000000"]].concat());
    assert_words(
        &message,
        &["--positives", "plus --negatives", "more than 10000"],
    );
    // Without --errors the closed forms take any counts.
    let output = accepted(&[&args[..], &["--negatives", huge]].concat());
    assert_words(
        &output,
        &["hanley_mcneil_interval.low", "positives: 1000000000000"],
    );
    let args = [
        "compare",
        "auc-interval",
        "--auc",
        "0.8",
        "--positives",
        "10",
    ];
    let message = refused(&[&args[..], &["--negatives", "10", "--errors", "21"]].concat());
    assert_words(&message, &["--errors 21", "from 0 to 20"]);
}

#[test]
fn sample_and_resample_counts_have_a_bound() {
    let folder = scratch("compare_samples");
    let table = write(
        &folder,
        "t.csv",
        "dataset,a,b\nd1,0.7,0.6\nd2,0.5,0.6\nd3,0.8,0.7\n",
    );
    let table = table.to_str().unwrap();
    for samples in ["1000000000000", "1000000000", "0"] {
        let message = refused(&["compare", table, "--samples", samples]);
        assert_words(
            &message,
            &[&format!("--samples {samples}"), "from 1 to 1000000"],
        );
    }
    let scores = write(
        &folder,
        "s.csv",
        "truth,a,b\n1,0.9,0.8\n0,0.1,0.3\n1,0.7,0.2\n",
    );
    let args = ["compare", "delong", "--scores", scores.to_str().unwrap()];
    let message = refused(&[&args[..], &["--resamples", "1000000000000"]].concat());
    assert_words(
        &message,
        &["--resamples 1000000000000", "from 1 to 1000000"],
    );
}

#[test]
fn per_fold_values_near_the_f64_limit_give_no_infinite_t() {
    let folder = scratch("compare_huge_values");
    let text = "knn,nb\n1e308,-1e308\n1e308,-1e308\n1e308,-1e308\n";
    let file = write(&folder, "huge.csv", text);
    let message = refused(&["compare", file.to_str().unwrap()]);
    assert_words(
        &message,
        &["huge.csv:2", "knn - nb = 1e308 - -1e308", "overflows f64"],
    );
    let text = "knn,nb\n1e308,1e308\n1e308,1e308\n1e308,1e308\n";
    let file = write(&folder, "sum.csv", text);
    let message = refused(&["compare", file.to_str().unwrap()]);
    assert_words(&message, &["column 'knn' add up beyond f64"]);
}

#[test]
fn a_results_table_with_too_many_learners_is_refused_before_the_tests() {
    let folder = scratch("compare_learners");
    let learners: Vec<String> = (0..101).map(|i| format!("l{i}")).collect();
    let mut text = format!("dataset,{}\n", learners.join(","));
    for row in 0..3 {
        let values: Vec<String> = (0..101).map(|i| format!("0.{}", (i + row) % 10)).collect();
        text.push_str(&format!("d{row},{}\n", values.join(",")));
    }
    let file = write(&folder, "wide.csv", text);
    let message = refused(&["compare", file.to_str().unwrap()]);
    assert_words(&message, &["has 101 learners", "take at most 100"]);
}

#[test]
fn a_count_that_is_not_a_whole_number_of_its_type_is_refused_with_the_flags_range() {
    let folder = scratch("compare_counts");
    let table = write(
        &folder,
        "t.csv",
        "dataset,a,b\nd1,0.7,0.6\nd2,0.5,0.6\nd3,0.8,0.7\n",
    );
    let table = table.to_str().unwrap();
    for (value, problem) in [
        ("-1", "'-1' is not a whole number"),
        ("2.5", "'2.5' is not a whole number"),
        (
            "99999999999999999999",
            "'99999999999999999999' is too large",
        ),
    ] {
        let samples = format!("--samples={value}");
        let message = refused_by_parser(&["compare", table, &samples]);
        assert_words(&message, &["--samples", problem, "1 to 1000000"]);
        let trials = format!("--trials={value}");
        let message = refused_by_parser(&["compare", "binomial", "--successes=1", &trials]);
        assert_words(&message, &["--trials", problem, "1 to 10000000"]);
        let count = format!("--c={value}");
        let message = refused_by_parser(&["compare", "mcnemar", "--b=1", &count]);
        assert_words(&message, &["--c", problem, "a whole number, at least 0"]);
    }
    let message = refused(&["compare", "ranks", "--average-ranks=9,9,9", "--datasets=10"]);
    assert_words(&message, &["--average-ranks", "rank 9", "outside 1..3"]);
    let message = refused(&["compare", "correct", "--pvalues=0.01,-1"]);
    assert_words(&message, &["--pvalues", "-1", "[0, 1]"]);
}

#[test]
fn hierarchical_samples_beyond_the_configs_limit_are_refused_at_the_flag() {
    let folder = scratch("compare_hierarchical");
    let mut text = String::from("dataset,learner,fold,value\n");
    for (d, dataset) in ["d1", "d2", "d3"].iter().enumerate() {
        for (l, learner) in ["a", "b"].iter().enumerate() {
            for fold in 1..=3 {
                text.push_str(&format!(
                    "{dataset},{learner},{fold},0.{}\n",
                    5 + d + l + fold
                ));
            }
        }
    }
    let table = write(&folder, "long.csv", text);
    let table = table.to_str().unwrap();
    for draws in ["1000000000", "1000001"] {
        let message = refused(&["compare", table, "--hierarchical-samples", draws]);
        assert_words(
            &message,
            &[
                &format!("--hierarchical-samples {draws} is out of range"),
                "draws kept per chain of the hierarchical test",
                "from 0 to 1000000",
            ],
        );
        assert!(!message.contains("warmup"), "{message}");
    }
    accepted(&["compare", table, "--hierarchical-samples", "0"]);
}

#[test]
fn values_that_overflow_in_a_results_table_are_refused_naming_the_file_lines_and_column() {
    let folder = scratch("compare_table_overflow");
    // Two rows of 1e308 for one cell: their sum, and so their mean, is beyond f64.
    let mut long = String::from("dataset,learner,fold,value\nd1,a,1,1e308\nd1,a,2,1e308\n");
    for row in [
        "d1,b,1,0.5",
        "d1,b,2,0.5",
        "d2,a,1,0.6",
        "d2,a,2,0.6",
        "d2,b,1,0.5",
    ] {
        long.push_str(&format!("{row}\n"));
    }
    long.push_str("d2,b,2,0.5\nd3,a,1,0.8\nd3,a,2,0.8\nd3,b,1,0.7\nd3,b,2,0.7\n");
    let file = write(&folder, "long.csv", long);
    let path = file.to_str().unwrap();
    let message = refused(&["compare", path]);
    assert_words(
        &message,
        &[
            &format!("{path}:2, 3: the values of column 'value'"),
            "dataset 'd1' and learner 'a' add up beyond f64",
        ],
    );
    assert!(!message.contains("at index"), "{message}");
    // 1e308 - -1e308, on lines 2 and 3 of a long table and on line 2 of a wide one.
    let rows = "d1,a,1e308\nd1,b,-1e308\nd2,a,0.6\nd2,b,0.5\nd3,a,0.8\nd3,b,0.7\n";
    let file = write(
        &folder,
        "difference.csv",
        format!("dataset,learner,value\n{rows}"),
    );
    let path = file.to_str().unwrap();
    let message = refused(&["compare", path]);
    assert_words(
        &message,
        &[
            &format!("{path}:2, 3: a - b on dataset 'd1' = 1e308 - -1e308 overflows f64"),
            "must differ by a finite amount",
        ],
    );
    let file = write(
        &folder,
        "wide.csv",
        "dataset,a,b\nd1,0.6,0.5\nd2,1e308,-1e308\nd3,0.8,0.7\n",
    );
    let path = file.to_str().unwrap();
    let message = refused(&["compare", path]);
    assert_words(
        &message,
        &[&format!(
            "{path}:3: a - b on dataset 'd2' = 1e308 - -1e308 overflows f64"
        )],
    );
}

#[test]
fn bergmann_hommel_over_nine_learners_is_refused_naming_the_limit() {
    let folder = scratch("compare_bergmann_hommel");
    let table = |learners: usize| {
        let names: Vec<String> = (0..learners).map(|l| format!("l{l}")).collect();
        let mut text = format!("dataset,{}\n", names.join(","));
        for d in 0..6 {
            let values: Vec<String> = (0..learners)
                .map(|l| format!("0.{}", (d * 7 + l * 3) % 10 + 10))
                .collect();
            text.push_str(&format!("d{d},{}\n", values.join(",")));
        }
        text
    };
    let ten = write(&folder, "ten.csv", table(10));
    let ten = ten.to_str().unwrap();
    let args = ["compare", ten, "--cd-adjustment", "bergmann-hommel"];
    let message = refused(&args);
    assert_words(
        &message,
        &[
            "--cd-adjustment bergmann-hommel takes at most 9 learners",
            &format!("'{ten}' has 10 to compare"),
            "shaffer",
        ],
    );
    // Nine learners are taken; Nemenyi ignores the adjustment.
    let nine = write(&folder, "nine.csv", table(9));
    accepted(&[
        "compare",
        nine.to_str().unwrap(),
        "--cd-adjustment",
        "bergmann-hommel",
    ]);
    accepted(&[&args[..], &["--cd-test", "nemenyi"]].concat());
}

#[test]
fn drop_learners_that_drops_every_learner_is_an_error_naming_them() {
    let folder = scratch("compare_drop_learners");
    let file = write(
        &folder,
        "holes.csv",
        "dataset,a,b,c\nd1,0.7,,0.5\nd2,,0.5,0.4\nd3,0.8,0.7,\nd4,0.8,0.6,0.5\n",
    );
    let path = file.to_str().unwrap();
    let message = refused(&["compare", path, "--missing", "drop-learners"]);
    assert_words(
        &message,
        &[
            &format!("--missing drop-learners leaves 0 of the 3 learners of '{path}'"),
            "a (on d2); b (on d1); c (on d3)",
            "skillings-mack",
        ],
    );
    accepted(&["compare", path, "--missing", "drop-datasets"]);
}

#[test]
fn a_repeated_row_is_an_error_in_a_wide_table_and_a_note_in_a_long_one() {
    let folder = scratch("compare_repeated_rows");
    let wide = write(
        &folder,
        "wide.csv",
        "dataset,a,b\nd1,0.7,0.6\nd2,0.6,0.5\nd1,0.8,0.7\nd3,0.8,0.2\n",
    );
    let path = wide.to_str().unwrap();
    let message = refused(&["compare", path]);
    assert_words(
        &message,
        &[&format!(
            "{path}:4: dataset 'd1' appears twice, on lines 2 and 4"
        )],
    );
    // A long table with a fold column: the same (dataset, learner, fold) twice.
    let mut text = String::from("dataset,learner,fold,value\n");
    for dataset in ["d1", "d2", "d3"] {
        for learner in ["a", "b"] {
            for fold in [1, 2] {
                text.push_str(&format!(
                    "{dataset},{learner},{fold},0.{fold}{}\n",
                    learner.len()
                ));
            }
        }
    }
    text.push_str("d2,b,1,0.9\n");
    let long = write(&folder, "folds.csv", text);
    let path = long.to_str().unwrap();
    let note = noted(&["compare", path]);
    assert_words(
        &note,
        &[
            &format!("note: '{path}': lines 8 and 14 are both dataset 'd2', learner 'b', fold '1'"),
            "averaged into one value",
        ],
    );
    // Without a fold column: one dataset and learner with more rows than the others.
    let text = "dataset,learner,value\nd1,a,0.7\nd1,b,0.6\nd1,a,0.9\nd2,a,0.6\nd2,b,0.5\n\
                d3,a,0.8\nd3,b,0.7\n";
    let long = write(&folder, "plain.csv", text);
    let path = long.to_str().unwrap();
    let note = noted(&["compare", path]);
    assert_words(
        &note,
        &[
            &format!("note: '{path}': dataset 'd1', learner 'a' has 2 rows (lines 2, 4)"),
            "where most datasets and learners have 1",
        ],
    );
}
