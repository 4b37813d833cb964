//! The sign test's one- and two-tailed p-values, exact and by the normal approximation, and its
//! critical values, against scipy (tests/data/sign_test_tails.py) and the evaluation slides'
//! table of critical frequencies.

mod common;
use common::*;
use stats::*;

#[test]
fn tails_and_methods_match_scipy() {
    let alternatives = [
        ("two-sided", SignAlternative::TwoSided),
        ("greater", SignAlternative::FirstBetter),
        ("less", SignAlternative::SecondBetter),
    ];
    let methods = [
        ("exact", SignMethod::Exact),
        (
            "normal",
            SignMethod::Normal {
                continuity_correction: false,
            },
        ),
        (
            "normal_cc",
            SignMethod::Normal {
                continuity_correction: true,
            },
        ),
    ];
    let mut checked = 0;
    for case in cases("sign_test_tails") {
        let name = case["name"].as_str().unwrap();
        let (input, expected) = (&case["input"], &case["expected"]);
        if name.starts_with("critical_values") {
            let alpha = float(&input["alpha"]);
            let tails = match input["tails"].as_u64().unwrap() {
                1 => Tails::One,
                _ => Tails::Two,
            };
            let ns = input["N"].as_array().unwrap();
            for (n, losses) in ns.iter().zip(expected["max_losses"].as_array().unwrap()) {
                let n = n.as_u64().unwrap();
                let got = sign_test_critical_losses(n, alpha, tails).unwrap();
                assert_eq!(got, losses.as_u64(), "{name} N={n}");
            }
            checked += 1;
            continue;
        }
        let (wins, losses, ties) = (
            input["wins"].as_u64().unwrap(),
            input["losses"].as_u64().unwrap(),
            input["ties"].as_u64().unwrap(),
        );
        for (method_key, method) in methods {
            for (alternative_key, alternative) in alternatives {
                let result = sign_test_with(wins, losses, ties, 0.05, alternative, method).unwrap();
                assert_eq!((result.n, result.ties), (wins + losses, ties), "{name}");
                assert_pvalue(
                    &format!("{name} {method_key} {alternative_key}"),
                    result.pvalue,
                    float(&expected[method_key][alternative_key]),
                );
                assert_eq!(result.reject, result.pvalue <= 0.05);
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 14);
}

/// The slides' table "Vorzeichentest: Kritische Häufigkeiten" (two-tailed, 1% and 5%), as
/// printed for every N whose row is legible in the slides' text (N = 11 and 40 are garbled).
#[test]
fn the_slides_table_of_critical_frequencies() {
    #[rustfmt::skip]
    let table: &[(u64, Option<u64>, u64)] = &[
        (6, None, 0), (7, None, 0), (8, Some(0), 0), (9, Some(0), 1), (10, Some(0), 1),
        (12, Some(1), 2), (13, Some(1), 2), (14, Some(1), 2), (15, Some(2), 3), (16, Some(2), 3),
        (17, Some(2), 4), (18, Some(3), 4), (19, Some(3), 4), (20, Some(3), 5), (21, Some(4), 5),
        (22, Some(4), 5), (23, Some(4), 6), (24, Some(5), 6), (25, Some(5), 7), (26, Some(6), 7),
        (27, Some(6), 7), (28, Some(6), 8), (29, Some(7), 8), (30, Some(7), 9), (31, Some(7), 9),
        (32, Some(8), 9), (33, Some(8), 10), (34, Some(9), 10), (35, Some(9), 11),
        (36, Some(9), 11), (37, Some(10), 12), (38, Some(10), 12), (39, Some(11), 12),
        (41, Some(11), 13), (42, Some(12), 14), (43, Some(12), 14), (44, Some(13), 15),
        (45, Some(13), 15), (46, Some(13), 15), (47, Some(14), 16), (48, Some(14), 16),
        (49, Some(15), 17), (50, Some(15), 17), (51, Some(15), 18), (52, Some(16), 18),
        (53, Some(16), 18), (54, Some(17), 19), (55, Some(17), 19), (56, Some(17), 20),
        (57, Some(18), 20), (58, Some(18), 21), (59, Some(19), 21), (60, Some(19), 21),
        (61, Some(20), 22), (62, Some(20), 22), (63, Some(20), 23), (64, Some(21), 23),
        (65, Some(21), 24), (66, Some(22), 24), (67, Some(22), 25), (68, Some(22), 25),
        (69, Some(23), 25), (70, Some(23), 26), (71, Some(24), 26), (72, Some(24), 27),
        (73, Some(25), 27), (74, Some(25), 28),
    ];
    for &(n, at_1, at_5) in table {
        assert_eq!(
            sign_test_critical_losses(n, 0.01, Tails::Two).unwrap(),
            at_1,
            "N={n} 1%"
        );
        assert_eq!(
            sign_test_critical_losses(n, 0.05, Tails::Two).unwrap(),
            Some(at_5),
            "N={n} 5%"
        );
    }
}

/// The slides' example: 20 data sets, A wins 4, B wins 14, 2 ties: B is better at 95% but not
/// at 99% (18 untied comparisons: the table allows 4 losses at 5%, 3 at 1%).
#[test]
fn the_slides_worked_example() {
    let result =
        sign_test_with(14, 4, 2, 0.05, SignAlternative::TwoSided, SignMethod::Exact).unwrap();
    assert_eq!(result.n, 18);
    assert!(result.reject);
    let strict =
        sign_test_with(14, 4, 2, 0.01, SignAlternative::TwoSided, SignMethod::Exact).unwrap();
    assert!(!strict.reject);
    assert_eq!(
        sign_test_critical_losses(18, 0.05, Tails::Two).unwrap(),
        Some(4)
    );
    assert_eq!(
        sign_test_critical_losses(18, 0.01, Tails::Two).unwrap(),
        Some(3)
    );
    // With no untied comparison every method gives p = 1.
    let none = sign_test_with(
        0,
        0,
        3,
        0.05,
        SignAlternative::FirstBetter,
        SignMethod::Normal {
            continuity_correction: true,
        },
    )
    .unwrap();
    assert_eq!(none.pvalue, 1.0);
}
