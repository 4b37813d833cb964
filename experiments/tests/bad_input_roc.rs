//! `roc` on what a user may get wrong (issue 28): a multi-class file with columns `a` and `:a`
//! (two columns for one class of the unnamed model) is refused naming both, where one was
//! silently dropped before; an infinite score is refused naming the file, line and column, as
//! by every command that reads a predictions file. The files are written here by hand.

mod bad_input;

use bad_input::{accepted, assert_words, refused, scratch, write};

#[test]
fn two_columns_for_one_class_are_refused_naming_both() {
    let folder = scratch("roc_columns");
    let rows = "a,0.7,0.2,0.1,0.6\nb,0.2,0.7,0.1,0.3\nc,0.1,0.2,0.7,0.1\na,0.5,0.3,0.2,0.4\n";
    let file = write(&folder, "dup.csv", format!("truth,a,b,c,:a\n{rows}"));
    let message = refused(&["roc", file.to_str().unwrap()]);
    assert_words(
        &message,
        &["column ':a' has an empty model name", "MODEL:a"],
    );
    let file = write(&folder, "twice.csv", format!("truth,m:a,b,c,m:a\n{rows}"));
    let message = refused(&["roc", file.to_str().unwrap()]);
    assert_words(&message, &["'m:a' appears twice"]);
    let file = write(&folder, "mixed.csv", format!("truth,a,b,c,x:a\n{rows}"));
    let message = refused(&["roc", file.to_str().unwrap()]);
    assert_words(&message, &["no column 'x:b'"]);
    // Named right, the same scores are read.
    let rows3 = "a,0.7,0.2,0.1\nb,0.2,0.7,0.1\nc,0.1,0.2,0.7\na,0.5,0.3,0.2\n";
    let file = write(&folder, "fine.csv", format!("truth,a,b,c\n{rows3}"));
    accepted(&["roc", file.to_str().unwrap()]);
}

#[test]
fn a_target_rate_outside_zero_to_one_is_refused() {
    let folder = scratch("roc_rate");
    let file = write(&folder, "two.csv", "truth,m\n1,0.9\n0,0.1\n1,0.7\n0,0.4\n");
    for rate in ["1.5", "-0.1", "NaN", "inf"] {
        let message = refused(&["roc", file.to_str().unwrap(), "--target-fpr", rate]);
        assert_words(&message, &["--target-fpr", "must be in [0, 1]"]);
    }
}

#[test]
fn an_infinite_score_is_refused_naming_the_file_line_and_column() {
    let folder = scratch("roc_infinite");
    let rows = "truth,a,b\n1,0.9,0.8\n0,0.2,-inf\n1,0.7,0.6\n0,0.1,0.3\n";
    let file = write(&folder, "two.csv", rows);
    let path = file.to_str().unwrap();
    let expected = format!("{path}:3, column 'b': '-inf' is infinite, expected a finite number");
    // One rule, whichever command reads the file.
    for args in [
        vec!["roc", path],
        vec!["roc", path, "--json"],
        vec!["roc", path, "--evaluate"],
        vec!["compare", "bootstrap", "--scores", path],
        vec!["compare", "delong", "--scores", path],
    ] {
        let message = refused(&args);
        assert_words(&message, &[&expected]);
    }
    // A multi-class reading too, and a number beyond f64 (1e400) is infinite.
    let rows = "truth,x,y,z\nx,0.9,0.05,0.05\ny,0.2,1e400,0.1\nz,0.1,0.2,0.7\n";
    let file = write(&folder, "three.csv", rows);
    let path = file.to_str().unwrap();
    let message = refused(&["roc", path]);
    assert_words(
        &message,
        &[&format!("{path}:3, column 'y': '1e400' is infinite")],
    );
}

/// 40 rows (20 positives, 20 negatives) and three models' probabilities, by hand.
fn forty_rows() -> String {
    let mut text = String::from("truth,good,fair,weak\n");
    for row in 0..40 {
        let positive = row % 2;
        let step = f64::from(row) / 100.0;
        let good = if positive == 1 { 0.6 + step } else { step };
        text.push_str(&format!(
            "{positive},{good:.2},{:.2},{:.2}\n",
            0.3 + step,
            0.9 - step * 2.0
        ));
    }
    text
}

#[test]
fn bins_and_resamples_are_bounded_by_the_work_they_cause() {
    let folder = scratch("roc_work");
    let file = write(&folder, "forty.csv", forty_rows());
    let path = file.to_str().unwrap();
    // 1000000 resamples + 40 jackknife samples (20 per class, under the 200 groups), 40 rows,
    // 3 models and 3 pairs: 3 x 3 = 9 passes; the limit 50000000 over 40 x 9 rows, less the 40
    // jackknife samples, leaves 138848 resamples.
    let work = (1_000_000 + 40) * 40 * 9;
    let resamples = ["--resamples", "1000000"];
    for args in [
        [&["roc", path, "--evaluate"][..], &resamples].concat(),
        [&["compare", "bootstrap", "--scores", path][..], &resamples].concat(),
    ] {
        let started = std::time::Instant::now();
        let message = refused(&args);
        assert!(
            started.elapsed().as_secs() < 10,
            "{args:?} is refused at once"
        );
        assert_words(
            &message,
            &[
                "--resamples 1000000 on 40 rows and 3 model(s)",
                "(1000000 resamples + 40 jackknife samples) x 40 rows x 9 model passes",
                &format!("= {work} resampled rows, over the limit of 50000000"),
                "give --resamples at most 138848",
            ],
        );
    }
    // 1000000 bins x 2 diagrams x 3 models; 2000000 / 6 = 333333.
    let message = refused(&["roc", path, "--evaluate", "--bins", "1000000"]);
    assert_words(
        &message,
        &[
            "--bins 1000000 for 3 model(s)",
            "= 6000000 bins, over the limit of 2000000",
            "give --bins at most 333333",
        ],
    );
    // Within the bounds, the maxima finish: the bootstrap's ECE costs the same for any number
    // of bins.
    let most = ["--bins", "333333", "--resamples", "200"];
    accepted(&[&["roc", path, "--evaluate"][..], &most].concat());
    let bins = ["--bins", "1000000", "--resamples", "200"];
    accepted(&[&["compare", "bootstrap", "--scores", path][..], &bins].concat());
}
