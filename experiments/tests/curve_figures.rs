//! The report's calibration, precision-recall, PR-Gain and cost-curve figures (issue 29) end to
//! end through the built binary: drawn for a two-class dataset (with the JSON of their values,
//! one fold-averaged curve per learner), not drawn for a multi-class one, which the report
//! names in a sentence.

use std::path::{Path, PathBuf};
use std::process::Command;

const CONFIG: &str = r#"
name = "curves-tiny"
seed = 3
datasets = ["sonar", "glass"]
measures = ["error"]
analyses = []

[protocol]
kind = "stratified_kfold"
folds = 3

[[learners]]
kind = "naive_bayes"
name = "nb"

[[learners]]
kind = "c45"
"#;

fn run(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("curves-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("config.toml");
    std::fs::write(&file, CONFIG).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .arg("--config")
        .arg(&file)
        .arg("--results")
        .arg(folder.join("results"))
        .args(["--threads", "2"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    folder
}

#[test]
fn two_class_datasets_get_the_curve_figures_and_multi_class_ones_a_sentence() {
    let folder = run("figures");
    let results = folder.join("results").join("curves-tiny");
    for figure in ["reliability", "precision_recall", "pr_gain", "cost"] {
        let svg = std::fs::read_to_string(results.join(format!("figures/{figure}_sonar.svg")))
            .unwrap_or_else(|_| panic!("figures/{figure}_sonar.svg is missing"));
        assert!(svg.starts_with("<svg"), "{figure}: not an SVG");
        assert!(
            !results.join(format!("figures/{figure}_glass.svg")).exists(),
            "{figure}: drawn for the multi-class glass"
        );
    }
    let page = std::fs::read_to_string(results.join("index.html")).unwrap();
    assert!(page.contains("Calibration, precision-recall and cost curves"));
    assert!(page.contains(
        "No reliability diagram, precision-recall or cost curve is drawn for the multi-class \
         datasets (glass)"
    ));
    assert!(page.contains("sonar: reliability diagrams"));
    assert!(!page.contains("glass: reliability diagrams"));
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(results.join("figures/curves_sonar.json")).unwrap(),
    )
    .unwrap();
    let learners = json["learners"].as_array().unwrap();
    assert_eq!(learners.len(), 2);
    for learner in learners {
        assert_eq!(learner["folds"], 3);
        let count: f64 = learner["reliability"]["bins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|bin| bin["count"].as_f64().unwrap())
            .sum();
        assert_eq!(count, 208.0, "sonar's 208 rows, each tested once");
        assert_eq!(learner["precision_recall"].as_array().unwrap().len(), 101);
    }
    let _ = std::fs::remove_dir_all(folder);
}
