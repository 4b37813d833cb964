//! The one-call analysis (`across_analysis::analyse`) on what issue 30 says `compare --json`
//! must show: on a wide table Quade's F (R) and Cliff's delta of every pair (autorank) and the
//! Shaffer and Bergmann-Hommel adjustments (numpy); on a table with empty cells the
//! Skillings-Mack test (numpy; not an error); on per-fold data the hierarchical test (Stan).
//! `reference/across_analysis_reference.py` wrote `tests/data/across_analysis.json`.

mod common;
use common::{assert_pvalue, cases, float, floats};
use serde_json::Value;
use stats::across_analysis::{analyse, Adjustment, AnalysisOptions, PairwiseTest, ResultsTable};
use stats::across_datasets::AcrossDatasetsOptions;
use stats::hierarchical::HierarchicalOptions;
use stats::plackett_luce::PlackettLuceOptions;

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn table(input: &Value) -> ResultsTable {
    let values = input["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(Value::as_f64).collect())
        .collect();
    let folds = input["folds"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|row| row.as_array().unwrap().iter().map(floats).collect())
                .collect()
        })
        .unwrap_or_default();
    ResultsTable {
        datasets: strings(&input["datasets"]),
        learners: strings(&input["learners"]),
        values,
        folds,
    }
}

/// Fast settings for the Monte Carlo parts that a case does not check.
fn options(input: &Value) -> AnalysisOptions {
    AnalysisOptions {
        core: AcrossDatasetsOptions {
            alpha: float(&input["alpha"]),
            higher_is_better: input["higher_is_better"].as_bool().unwrap(),
            rope: input.get("rope").map_or(0.01, float),
            bayesian_samples: 2000,
            seed: 3,
            ..AcrossDatasetsOptions::default()
        },
        correlation: input.get("correlation").map(float),
        plackett_luce: PlackettLuceOptions {
            samples: 200,
            warmup: 50,
            ..PlackettLuceOptions::default()
        },
        ..AnalysisOptions::default()
    }
}

#[test]
fn wide_table_quade_cliff_shaffer_bergmann_hommel() {
    let case = &cases("across_analysis")[0];
    let expected = &case["expected"];
    let analysis = analyse(&table(&case["input"]), &options(&case["input"])).unwrap();
    let quade = analysis.quade.as_ref().unwrap();
    assert!(
        (quade.statistic - float(&expected["quade"]["statistic"])).abs() < 1e-10 * quade.statistic
    );
    assert_pvalue("quade p", quade.pvalue, float(&expected["quade"]["pvalue"]));
    for (index, want) in floats(&expected["cliff_delta"]).into_iter().enumerate() {
        let got = analysis.effect_sizes[index].cliff_delta.value;
        assert!(
            (got - want).abs() < 1e-12,
            "cliff [{index}] {got} vs {want}"
        );
    }
    let family = analysis
        .pairwise
        .iter()
        .find(|f| f.test == PairwiseTest::FriedmanZ)
        .unwrap();
    for (index, want) in floats(&expected["friedman_z_pvalues"])
        .into_iter()
        .enumerate()
    {
        assert_pvalue(
            &format!("friedman z [{index}]"),
            family.comparisons.pvalues[index],
            want,
        );
    }
    for (adjustment, key) in [
        (Adjustment::Shaffer, "shaffer"),
        (Adjustment::BergmannHommel, "bergmann_hommel"),
    ] {
        let (_, result) = family
            .adjusted
            .iter()
            .find(|(a, _)| *a == adjustment)
            .unwrap();
        for (index, want) in floats(&expected[key]).into_iter().enumerate() {
            assert_pvalue(
                &format!("{key} [{index}]"),
                result.corrected_pvalues[index],
                want,
            );
        }
    }
    assert!(analysis.skillings_mack.is_none());
    assert!(analysis
        .cd_diagram
        .as_ref()
        .unwrap()
        .procedure
        .contains("Holm"));
    assert!(analysis.autorank_paragraph.is_some() && analysis.plackett_luce.is_some());
    // The per-fold test is skipped, and says why.
    assert!(analysis
        .skipped
        .iter()
        .any(|s| s.part == "hierarchical test"));
    // One serialisable result: the report and compare --json print the same JSON.
    assert!(serde_json::to_string(&analysis)
        .unwrap()
        .contains("\"quade\""));
}

#[test]
fn empty_cells_give_skillings_mack_not_an_error() {
    let case = &cases("across_analysis")[1];
    let expected = &case["expected"];
    let analysis = analyse(&table(&case["input"]), &options(&case["input"])).unwrap();
    let sm = analysis.skillings_mack.as_ref().unwrap();
    let want = float(&expected["skillings_mack"]["statistic"]);
    assert!(
        (sm.statistic - want).abs() <= 1e-9 * want,
        "SM {} vs {want}",
        sm.statistic
    );
    assert_eq!(
        sm.df as u64,
        expected["skillings_mack"]["df"].as_u64().unwrap()
    );
    assert_pvalue(
        "SM p",
        sm.pvalue,
        float(&expected["skillings_mack"]["pvalue"]),
    );
    let dropped: Vec<usize> = analysis
        .missing
        .dropped_datasets
        .iter()
        .map(|(d, _)| *d)
        .collect();
    let want_dropped: Vec<usize> = expected["dropped_datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(dropped, want_dropped);
    assert_eq!(analysis.datasets.len(), 28);
    assert!(analysis.core.is_some());
}

#[test]
fn per_fold_data_give_the_hierarchical_test() {
    let case = &cases("across_analysis")[2];
    let expected = &case["expected"]["hierarchical"];
    let mut settings = options(&case["input"]);
    settings.hierarchical = HierarchicalOptions::default();
    let analysis = analyse(&table(&case["input"]), &settings).unwrap();
    assert_eq!(analysis.hierarchical.len(), 1);
    let pair = &analysis.hierarchical[0];
    assert_eq!(pair.datasets.len(), 8);
    let tolerance = float(&expected["tolerance"]);
    let got = &pair.result.probabilities;
    let want = floats(&expected["probabilities"]);
    for (g, w) in [got.left, got.rope, got.right].iter().zip(want) {
        assert!((g - w).abs() <= tolerance, "ours {got:?}, Stan {w}");
    }
    assert!(pair.result.converged);
}

#[test]
fn malformed_tables_are_errors() {
    let bad = ResultsTable {
        datasets: vec!["d".into()],
        learners: vec!["a".into(), "a".into()],
        values: vec![vec![Some(1.0), Some(2.0)]],
        folds: Vec::new(),
    };
    assert!(analyse(&bad, &AnalysisOptions::default()).is_err());
    let ragged = ResultsTable {
        learners: vec!["a".into(), "b".into()],
        values: vec![vec![Some(1.0)]],
        ..bad.clone()
    };
    assert!(analyse(&ragged, &AnalysisOptions::default()).is_err());
    let nan = ResultsTable {
        learners: vec!["a".into(), "b".into()],
        values: vec![vec![Some(f64::NAN), Some(1.0)]],
        ..bad
    };
    assert!(analyse(&nan, &AnalysisOptions::default()).is_err());
}

#[test]
fn tiny_tables_skip_parts_with_reasons() {
    // Two data sets, two learners: autorank needs five data sets; the rest runs.
    let small = ResultsTable {
        datasets: vec!["d1".into(), "d2".into()],
        learners: vec!["a".into(), "b".into()],
        values: vec![vec![Some(0.8), Some(0.7)], vec![Some(0.6), Some(0.65)]],
        folds: Vec::new(),
    };
    let fast = AnalysisOptions {
        core: AcrossDatasetsOptions {
            bayesian_samples: 500,
            ..AcrossDatasetsOptions::default()
        },
        plackett_luce: PlackettLuceOptions {
            samples: 100,
            warmup: 10,
            ..PlackettLuceOptions::default()
        },
        ..AnalysisOptions::default()
    };
    let analysis = analyse(&small, &fast).unwrap();
    assert!(analysis.autorank.is_none());
    assert!(analysis
        .skipped
        .iter()
        .any(|s| s.part == "autorank analysis" && s.reason.contains("5")));
    assert!(analysis.quade.is_some() && analysis.core.is_some());
}
