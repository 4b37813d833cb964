//! `stats::adjust` against statsmodels / R p.adjust (Holm, Hochberg, Hommel) and independent
//! numpy implementations of Finner, Li, Shaffer's static and Bergmann-Hommel's procedures
//! (`reference/adjust_reference.py` wrote `tests/data/adjust.json`).

mod common;
use common::{assert_pvalue, cases, float, floats};
use stats::adjust::{bergmann_hommel, finner, hochberg, hommel, li, shaffer_static};
use stats::multitest::holm;

#[test]
fn adjusted_pvalues_match_the_references() {
    for case in cases("adjust") {
        let name = case["name"].as_str().unwrap();
        let pvalues = floats(&case["input"]["pvalues"]);
        let alpha = float(&case["input"]["alpha"]);
        let k = case["input"]["k"].as_u64().map(|k| k as usize);
        let expected = &case["expected"];
        let mut procedures: Vec<(&str, stats::multitest::CorrectionResult)> = vec![
            ("holm", holm(&pvalues, alpha).unwrap()),
            ("hochberg", hochberg(&pvalues, alpha).unwrap()),
            ("hommel", hommel(&pvalues, alpha).unwrap()),
            ("finner", finner(&pvalues, alpha).unwrap()),
            ("li", li(&pvalues, alpha).unwrap()),
        ];
        if let Some(k) = k {
            procedures.push(("shaffer", shaffer_static(&pvalues, k, alpha).unwrap()));
            procedures.push((
                "bergmann_hommel",
                bergmann_hommel(&pvalues, k, alpha).unwrap(),
            ));
        }
        for (procedure, result) in procedures {
            let reference = floats(&expected[procedure]);
            assert_eq!(result.corrected_pvalues.len(), reference.len());
            for (index, (got, want)) in result.corrected_pvalues.iter().zip(&reference).enumerate()
            {
                assert_pvalue(&format!("{name} {procedure} [{index}]"), *got, *want);
                assert_eq!(
                    result.reject[index],
                    *want <= alpha,
                    "{name} {procedure} decision [{index}]"
                );
            }
        }
    }
}

#[test]
fn shaffer_and_bergmann_hommel_are_no_less_powerful_than_holm() {
    // Garcia & Herrera (2008): Holm <= Shaffer <= Bergmann-Hommel in power, so their adjusted
    // p-values are ordered the other way round, on every reference case.
    for case in cases("adjust") {
        let Some(k) = case["input"]["k"].as_u64() else {
            continue;
        };
        let pvalues = floats(&case["input"]["pvalues"]);
        let holm = holm(&pvalues, 0.05).unwrap().corrected_pvalues;
        let shaffer = shaffer_static(&pvalues, k as usize, 0.05)
            .unwrap()
            .corrected_pvalues;
        let bergmann = bergmann_hommel(&pvalues, k as usize, 0.05)
            .unwrap()
            .corrected_pvalues;
        for index in 0..pvalues.len() {
            assert!(shaffer[index] <= holm[index] + 1e-15);
            assert!(bergmann[index] <= shaffer[index] + 1e-15);
        }
    }
}
