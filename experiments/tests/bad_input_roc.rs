//! `roc` on what a user may get wrong (issue 28): a multi-class file with columns `a` and `:a`
//! (two columns for one class of the unnamed model) is refused naming both, where one was
//! silently dropped before. The files are written here by hand.

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
