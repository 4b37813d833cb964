//! `compare TABLE --json` against independent computations (issue 30's "Must hold"): on a wide
//! table Quade's F (R's quade.test), Cliff's delta of every pair (autorank) with its magnitude
//! and the Shaffer and Bergmann-Hommel adjustments (numpy set partitions); on the same table
//! with empty cells the Skillings-Mack test (numpy), not an error, with the declared policy; on
//! long per-fold data the hierarchical Bayesian t-test (Stan's NUTS on baycomp's model). The
//! vectors are `crates/stats/tests/data/across_analysis.json`, written by
//! `crates/stats/reference/across_analysis_reference.py`.

mod json_envelope;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/stats/tests/data/across_analysis.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    json["cases"].as_array().unwrap().clone()
}

fn floats(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

fn names(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn write(name: &str, text: &str) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("across_compare_reference");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A wide CSV of a case's input (an empty cell for a null value).
fn wide_csv(name: &str, input: &Value) -> PathBuf {
    let mut text = format!("dataset,{}\n", names(&input["learners"]).join(","));
    for (dataset, row) in names(&input["datasets"])
        .iter()
        .zip(input["values"].as_array().unwrap())
    {
        let cells: Vec<String> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().map_or(String::new(), |x| format!("{x}")))
            .collect();
        text.push_str(&format!("{dataset},{}\n", cells.join(",")));
    }
    write(name, &text)
}

/// `compare FILE --json ARGS`, parsed.
fn compare(file: &Path, args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .arg("compare")
        .arg(file)
        .arg("--json")
        .args(["--samples", "2000"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    json_envelope::result_of(&output.stdout)
}

/// |got - want| within 1e-10 relative (p-values: or 1e-14 absolute).
fn close(what: &str, got: &Value, want: f64) {
    let got = got.as_f64().unwrap_or_else(|| panic!("{what}: {got}"));
    assert!(
        (got - want).abs() <= 1e-10 * want.abs().max(1e-4),
        "{what}: got {got}, expected {want}"
    );
}

/// autorank's magnitude of Cliff's delta (Romano et al.'s thresholds).
fn cliff_magnitude(delta: f64) -> &'static str {
    match delta.abs() {
        d if d < 0.147 => "negligible",
        d if d < 0.33 => "small",
        d if d < 0.474 => "medium",
        _ => "large",
    }
}

#[test]
fn a_wide_table_gives_quade_cliff_shaffer_and_bergmann_hommel() {
    let case = &cases()[0];
    let expected = &case["expected"];
    let file = wide_csv("wide.csv", &case["input"]);
    let json = compare(
        &file,
        &["--cd-test", "friedman-z", "--cd-adjustment", "shaffer"],
    );
    let analysis = &json["analysis"];
    close(
        "Quade F",
        &analysis["quade"]["statistic"],
        expected["quade"]["statistic"].as_f64().unwrap(),
    );
    close(
        "Quade p",
        &analysis["quade"]["pvalue"],
        expected["quade"]["pvalue"].as_f64().unwrap(),
    );
    for (index, want) in floats(&expected["cliff_delta"]).into_iter().enumerate() {
        let got = &analysis["effect_sizes"][index]["cliff_delta"];
        close(&format!("Cliff's delta {index}"), &got["value"], want);
        assert_eq!(got["magnitude"], cliff_magnitude(want), "pair {index}");
    }
    let family = analysis["pairwise"]
        .as_array()
        .unwrap()
        .iter()
        .find(|family| family["test"] == "friedman_z")
        .unwrap();
    for (index, want) in floats(&expected["friedman_z_pvalues"])
        .into_iter()
        .enumerate()
    {
        close(
            &format!("Friedman z p {index}"),
            &family["comparisons"]["pvalues"][index],
            want,
        );
    }
    for key in ["shaffer", "bergmann_hommel"] {
        let adjusted = family["adjusted"]
            .as_array()
            .unwrap()
            .iter()
            .find(|pair| pair[0] == key)
            .unwrap_or_else(|| panic!("no {key}"));
        for (index, want) in floats(&expected[key]).into_iter().enumerate() {
            close(
                &format!("{key} {index}"),
                &adjusted[1]["corrected_pvalues"][index],
                want,
            );
        }
    }
    assert_eq!(
        analysis["cd_diagram"]["procedure"], "Friedman z + Shaffer",
        "the CD diagram names its procedure"
    );
    assert!(analysis["skillings_mack"].is_null());
    assert_eq!(analysis["missing"]["policy"], "skillings_mack");
}

#[test]
fn a_table_with_empty_cells_gives_skillings_mack_not_an_error() {
    let case = &cases()[1];
    let expected = &case["expected"];
    let file = wide_csv("empty_cells.csv", &case["input"]);
    let json = compare(&file, &[]);
    let sm = &json["analysis"]["skillings_mack"];
    close(
        "SM statistic",
        &sm["statistic"],
        expected["skillings_mack"]["statistic"].as_f64().unwrap(),
    );
    close(
        "SM p",
        &sm["pvalue"],
        expected["skillings_mack"]["pvalue"].as_f64().unwrap(),
    );
    assert_eq!(sm["df"], expected["skillings_mack"]["df"]);
    let dropped: Vec<Value> = json["analysis"]["missing"]["dropped_datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair[0].clone())
        .collect();
    assert_eq!(Value::from(dropped), expected["dropped_datasets"]);
    // The other declared policies are shown in the output too.
    let json = compare(&file, &["--missing", "drop-learners"]);
    assert_eq!(json["analysis"]["missing"]["policy"], "drop_learners");
    assert_eq!(json["analysis"]["learners"].as_array().unwrap().len(), 3);
    let output = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(["compare", "--missing", "guess"])
        .arg(&file)
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && message.contains("--missing"),
        "{message}"
    );
    let text = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .arg("compare")
        .arg(&file)
        .args(["--samples", "2000"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Skillings-Mack") && text.contains("Missing-results policy: skillings_mack"),
        "{text}"
    );
}

#[test]
fn long_per_fold_data_give_the_hierarchical_test() {
    let case = &cases()[2];
    let input = &case["input"];
    let expected = &case["expected"]["hierarchical"];
    let learners = names(&input["learners"]);
    let mut text = String::from("dataset,learner,fold,value\n");
    for (dataset, row) in names(&input["datasets"])
        .iter()
        .zip(input["folds"].as_array().unwrap())
    {
        for (learner, folds) in learners.iter().zip(row.as_array().unwrap()) {
            for (fold, value) in floats(folds).iter().enumerate() {
                text.push_str(&format!("{dataset},{learner},{fold},{value}\n"));
            }
        }
    }
    let file = write("per_fold.csv", &text);
    let rope = format!("{}", input["rope"].as_f64().unwrap());
    let correlation = format!("{}", input["correlation"].as_f64().unwrap());
    let json = compare(
        &file,
        &[
            "--rope",
            &rope,
            "--correlation",
            &correlation,
            "--hierarchical-samples",
            "10000",
        ],
    );
    let pairs = json["analysis"]["hierarchical"].as_array().unwrap();
    assert_eq!(pairs.len(), 1);
    let result = &pairs[0]["result"];
    assert_eq!(
        result["datasets"].as_array().unwrap().len(),
        8,
        "a posterior per dataset"
    );
    let tolerance = expected["tolerance"].as_f64().unwrap();
    let want = floats(&expected["probabilities"]);
    for (region, want) in ["left", "rope", "right"].iter().zip(want) {
        let got = result["probabilities"][region].as_f64().unwrap();
        assert!(
            (got - want).abs() <= tolerance,
            "{region}: ours {got}, Stan {want}"
        );
    }
    assert_eq!(result["converged"], true);
    assert_eq!(
        result["options"]["correlation"].as_f64().unwrap(),
        input["correlation"].as_f64().unwrap()
    );
}

/// The post-hoc Wilcoxon table (issue 43): W = min(R+, R-) and the p-value of every pair are
/// scipy's `wilcoxon` (`tests/data/posthoc_wilcoxon.json`, written by `posthoc_wilcoxon.py`
/// beside it), in the JSON's family and in the printed table's `statistic` column, which was
/// empty.
#[test]
fn the_posthoc_wilcoxon_table_gives_scipys_w_for_every_pair() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/posthoc_wilcoxon.json");
    let vectors: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let file = wide_csv("posthoc_wilcoxon.csv", &vectors);
    let json = compare(&file, &[]);
    let family = json["analysis"]["pairwise"]
        .as_array()
        .unwrap()
        .iter()
        .find(|family| family["test"] == "wilcoxon")
        .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .arg("compare")
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let table = text
        .split("Wilcoxon signed-rank over datasets of every pair")
        .nth(1)
        .unwrap();
    for (index, pair) in vectors["pairs"].as_array().unwrap().iter().enumerate() {
        let (w, p) = (pair["statistic"].as_f64().unwrap(), pair["pvalue"].as_f64());
        let comparisons = &family["comparisons"];
        close(&format!("W {index}"), &comparisons["statistics"][index], w);
        close(
            &format!("p {index}"),
            &comparisons["pvalues"][index],
            p.unwrap(),
        );
        let row = format!(
            "| {} | {} | {w:.4} |",
            pair["first"].as_str().unwrap(),
            pair["second"].as_str().unwrap()
        );
        assert!(table.contains(&row), "no row '{row}' in:\n{table}");
    }
}
