//! Unit tests of the RIPPER internals.

use super::rules::Condition;
use super::six_decimals;
use super::stats::{data_dl, subset_dl, theory_dl};

fn assert_close(got: f64, expected: f64) {
    assert!(
        (got - expected).abs() <= 1e-12 * expected.abs().max(1.0),
        "got {got}, expected {expected}"
    );
}

// Reference values printed by Weka 3.6.14's own RuleStats.subsetDL / dataDL / theoryDL:
//   javac -cp /usr/share/java/weka.jar DlReference.java TheoryReference.java
//   java -cp /usr/share/java/weka.jar:. DlReference; java -cp /usr/share/java/weka.jar:. TheoryReference
// (both programs are in crates/learners/tests/data/).

#[test]
fn subset_dl_matches_weka() {
    assert_close(subset_dl(10.0, 3.0, 0.2), 9.219280948873623);
    assert_close(subset_dl(100.0, 0.0, 0.05), 7.4000581443776925);
    assert_close(subset_dl(57.0, 12.0, 0.5), 57.0);
    assert_close(subset_dl(7.5, 2.5, 0.3), 6.915279849564308);
}

#[test]
fn data_dl_matches_weka() {
    assert_close(data_dl(0.5, 0.0, 14.0, 0.0, 5.0), 18.88816142546505);
    assert_close(data_dl(0.3, 20.0, 80.0, 3.0, 7.0), 53.10058791542431);
    assert_close(data_dl(0.25, 60.0, 40.0, 10.0, 4.0), 70.74897362149873);
    assert_close(data_dl(0.4, 33.0, 117.0, 1.0, 0.0), 14.57125485096455);
    assert_close(data_dl(0.1, 50.0, 50.0, 5.0, 5.0), 55.36133543592676);
}

#[test]
fn theory_dl_matches_weka() {
    assert_close(theory_dl(1.0, 26.0), 3.057513963650139);
    assert_close(theory_dl(2.0, 26.0), 5.586166327180323);
    assert_close(theory_dl(3.0, 120.0), 11.576585847614684);
    assert_close(theory_dl(5.0, 2000.0), 27.58815323611517);
    assert_eq!(theory_dl(0.0, 10.0), 0.0);
}

#[test]
fn a_missing_value_satisfies_no_condition() {
    let at_most = Condition::AtMost {
        attribute: 0,
        threshold: 1.0,
    };
    let at_least = Condition::AtLeast {
        attribute: 0,
        threshold: 1.0,
    };
    let equals = Condition::Equals {
        attribute: 0,
        value: 1,
    };
    assert!(at_most.holds(1.0) && !at_most.holds(1.5) && !at_most.holds(f64::NAN));
    assert!(at_least.holds(1.0) && !at_least.holds(0.5) && !at_least.holds(f64::NAN));
    assert!(equals.holds(1.0) && !equals.holds(0.0) && !equals.holds(f64::NAN));
}

#[test]
fn thresholds_print_like_weka() {
    // Weka's Utils.doubleToString(x, 6) as seen in JRip output: "4.9", "85", "21.9336".
    assert_eq!(six_decimals(4.9), "4.9");
    assert_eq!(six_decimals(85.0), "85");
    assert_eq!(six_decimals(21.93361), "21.93361");
    assert_eq!(six_decimals(0.12345678), "0.123457");
    assert_eq!(six_decimals(-56.9186), "-56.9186");
}

#[test]
fn narrow_clears_the_rows_that_fail_the_test_as_holds_does() {
    // 37 values (more than one vector of any width and a tail), with missing values, -0.0,
    // fractions, infinities and values beyond usize.
    let odd = [
        -0.5,
        0.5,
        1.999,
        2.5,
        3.0,
        f64::INFINITY,
        -f64::INFINITY,
        1e300,
        -1e300,
    ];
    let column: Vec<f64> = (0..37)
        .map(|i| match i % 5 {
            0 => f64::NAN,
            1 => -0.0,
            2 => odd[i % odd.len()],
            _ => (i % 7) as f64 - 2.0,
        })
        .collect();
    let conditions = [
        Condition::AtMost {
            attribute: 0,
            threshold: 0.0,
        },
        Condition::AtLeast {
            attribute: 0,
            threshold: 1.0,
        },
        Condition::Equals {
            attribute: 0,
            value: 2,
        },
        Condition::Equals {
            attribute: 0,
            value: 0,
        },
    ];
    for condition in &conditions {
        let before: Vec<bool> = (0..column.len()).map(|i| i % 3 != 1).collect();
        let mut mask = before.clone();
        condition.narrow(&column, &mut mask);
        for (i, &value) in column.iter().enumerate() {
            assert_eq!(
                mask[i],
                before[i] && condition.holds(value),
                "{condition:?} row {i}"
            );
        }
    }
}
