//! The summary screen of a user's own config (three datasets, three learners, anchors declared
//! in `[report]`) end to end through the built binary: `index.html` opens with the header, the
//! verdict of the across-datasets analysis, the leaderboard and the CD diagram; the leaderboard's
//! mean ranks are the across-datasets analysis's average ranks (its own tables), and
//! `compare per_fold.csv --leaderboard` prints the numbers of the report's
//! `tables/leaderboard.csv` (one computation, one seed); `[report] anchors` naming no learner
//! is refused before any fit, naming the key and the learners allowed.

mod common;
mod json_envelope;

use common::{binary, scratch, stderr, stdout};

const CONFIG: &str = r#"
name = "summary-tiny"
seed = 11
datasets = ["sonar", "heart-statlog", "ionosphere"]
measures = ["error", "auc"]
control = "c45"
hierarchical_samples = 0

[report]
anchors = ["nb", "c45"]

[protocol]
kind = "stratified_kfold"
folds = 5

[[learners]]
kind = "naive_bayes"
name = "nb"

[[learners]]
kind = "c45"

[[learners]]
kind = "knn"
"#;

/// Runs `config` from a scratch folder; returns the folder and the process's output.
fn run(name: &str, config: &str, check: bool) -> (std::path::PathBuf, std::process::Output) {
    let folder = scratch("summary", name);
    let file = folder.join("config.toml");
    std::fs::write(&file, config).unwrap();
    let mut command = binary();
    command
        .arg("--config")
        .arg(&file)
        .arg("--results")
        .arg(folder.join("results"));
    command.args(["--threads", "2"]);
    if check {
        command.arg("--check");
    }
    let output = command.output().unwrap();
    (folder, output)
}

/// The cells of a CSV line (no quoted commas but the interval's, which is quoted).
fn cells(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut cell = String::new();
    for character in line.chars() {
        match character {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cell)),
            other => cell.push(other),
        }
    }
    out.push(cell);
    out
}

#[test]
fn a_users_config_opens_with_the_summary_and_compare_prints_its_leaderboard() {
    let (folder, output) = run("run", CONFIG, false);
    assert!(output.status.success(), "{}", stderr(&output));
    let results = folder.join("results").join("summary-tiny");
    let page = std::fs::read_to_string(results.join("index.html")).unwrap();
    let summary = &page[page.find("<section id=\"summary\">").unwrap()..];
    let summary = &summary[..summary.find("</section>").unwrap()];
    assert!(page.find("id=\"run-header\"").unwrap() < page.find("id=\"summary\"").unwrap());
    assert!(page.contains("<a href=\"per_fold.parquet\">"));
    assert!(summary.contains("<table id=\"leaderboard\""), "{summary}");
    assert!(
        summary.contains("has the best average rank on error"),
        "{summary}"
    );
    assert!(
        summary.contains("Critical-difference diagram of error"),
        "{summary}"
    );
    assert!(summary.contains("normalised (nb 0, c45 1)"), "{summary}");
    assert!(results.join("figures/heatmap.svg").is_file());
    assert!(page.contains("<nav id=\"contents\">"));
    // The report's own tables: the across analysis's average ranks.
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(results.join("tables/across_error.json")).unwrap(),
    )
    .unwrap();
    let core = &json["analysis"]["core"];
    let ranks: Vec<(String, f64)> = (0..3)
        .map(|l| {
            let name = core["learners"][l].as_str().unwrap().to_string();
            (name, core["average_ranks"][l].as_f64().unwrap())
        })
        .collect();
    // compare on the run's per-fold table, with the run's seed and control.
    let per_fold = results.join("per_fold.csv");
    let output = binary()
        .arg("compare")
        .arg(&per_fold)
        .args([
            "--measure",
            "error",
            "--leaderboard",
            "--json",
            "--seed",
            "11",
        ])
        .args(["--control", "c45", "--anchors", "nb,c45"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let board = json_envelope::result_of(stdout(&output).as_bytes());
    let rows = board["leaderboard"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (name, rank) in &ranks {
        let row = rows.iter().find(|r| r["learner"] == name.as_str()).unwrap();
        let got = row["mean_rank"].as_f64().unwrap();
        assert!((got - rank).abs() < 1e-12, "{name}: {got} against {rank}");
    }
    let csv = std::fs::read_to_string(results.join("tables/leaderboard.csv")).unwrap();
    for (line, row) in csv.lines().skip(1).zip(rows) {
        let number =
            |key: &str, decimals: usize| format!("{:.*}", decimals, row[key].as_f64().unwrap());
        let expected = [
            row["learner"].as_str().unwrap().to_string(),
            number("mean_rank", 2),
            match row["wins"].as_u64() {
                Some(wins) => format!("{wins}/{}/{}", row["ties"], row["losses"]),
                None => "control".to_string(),
            },
            format!(
                "{} [{}, {}]",
                number("mean", 4),
                number("mean_low", 4),
                number("mean_high", 4)
            ),
            number("normalised", 3),
        ];
        assert_eq!(cells(line)[..5], expected, "{line}");
    }
    // --elo and --win-rate: the control at 1000, no rate of a learner against itself.
    let output = binary()
        .arg("compare")
        .arg(&per_fold)
        .args([
            "--measure",
            "error",
            "--leaderboard",
            "--json",
            "--control",
            "c45",
        ])
        .args(["--elo", "--win-rate"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let extra = json_envelope::result_of(stdout(&output).as_bytes());
    let elo = extra["elo"].as_array().unwrap();
    let control = elo.iter().find(|r| r["learner"] == "c45").unwrap();
    assert_eq!(control["elo"].as_f64(), Some(1000.0));
    assert_eq!(elo.len(), 3);
    let rates = &extra["win_rates"]["rates"];
    assert!((0..3).all(|l| rates[l][l].is_null()), "{rates}");
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn anchors_naming_no_learner_are_refused_before_any_fit() {
    let config = CONFIG.replace("[\"nb\", \"c45\"]", "[\"nb\", \"forest\"]");
    let (folder, output) = run("bad-anchors", &config, true);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("report.anchors")
            && message.contains("'forest'")
            && message.contains("c45"),
        "{message}"
    );
    let config = CONFIG.replace("[report]", "[report]\nmeasure = \"brier\"");
    let (other, output) = run("bad-measure", &config, true);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("report.measure"),
        "{}",
        stderr(&output)
    );
    for folder in [folder, other] {
        let _ = std::fs::remove_dir_all(&folder);
    }
}
