//! Benchmarking a learner of your own (`centroid.rs`, written outside this repository's
//! learners crate) against C4.5 and naive Bayes by the Aslan protocol: a stratified 1/3 test
//! set, and 30-fold CV of the rest, with every analysis this project ships (on three datasets,
//! the comparison across datasets). Run: `cargo run -p toolkit --example benchmark_new_learner`
//! (results in results/new_learner/).
mod centroid;

/// The experiment, as a user would write it in a TOML file.
const CONFIG: &str = r#"
name = "new_learner"
datasets = ["pima", "sonar", "ionosphere"]
tests = ["paired_t", "corrected_t"]
transforms = { two_most_confused = true }
protocol = { kind = "aslan", test_fraction = 0.3333333333333333, folds = 30 }
learners = [{ kind = "centroid" }, { kind = "c45" }, { kind = "naive_bayes" }]
"#;

/// Registers the learner (one call), checks and runs the config, prints the per-fold table and
/// the paired t-tests on error and AUC.
fn benchmark(config: &str, results: &std::path::Path) -> engine::Result<engine::RunOutput> {
    let mut engine = toolkit::engine();
    engine.learners.register(centroid::spec())?;
    let output = engine.run(engine.check_text(config, "new_learner")?, results)?;
    println!("{}", output.record.results.tidy);
    print!("{}", output.tests_table()?.to_markdown()?);
    Ok(output)
}

fn main() -> engine::Result<()> {
    benchmark(CONFIG, "results".as_ref()).map(|_| ())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_new_learner_conforms_and_runs_through_the_protocol() {
        learners::conformance::check(&super::centroid::Centroid).unwrap();
        let folder = std::env::temp_dir().join(format!("new-learner-{}", std::process::id()));
        let small = super::CONFIG
            .replace(r#""pima", "sonar", "ionosphere""#, r#""sonar""#)
            .replace("folds = 30", "folds = 3");
        let output = super::benchmark(&small, &folder).unwrap();
        assert_eq!(output.record.counts.failed, 0);
        // 3 learners x 3 folds x (test, validation) x (error, auc)
        assert_eq!(output.record.results.tidy.height(), 3 * 3 * 2 * 2);
        let _ = std::fs::remove_dir_all(&folder);
    }
}
