//! Benchmarking a learner of your own against C4.5 and naive Bayes by the Aslan protocol.
//! Run: `cargo run -p engine --example benchmark_new_learner` (results in results/new_learner/).
use data::{Features, View};
use learners::spec::{Capabilities, LearnerSpec};
use learners::{Learner, LearnerError, Model, Probabilities};

/// Nearest class mean: p(class) is proportional to 1 / (squared distance to its mean + 1); a
/// class absent from the training rows gets 0.
struct Centroid;
struct Means(Vec<Vec<f64>>);

fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "centroid",
        description: "nearest class mean, p ~ 1 / (distance^2 + 1)",
        revision: 1,
        parameters: Vec::new(),
        capabilities: Capabilities {
            nominal_attributes: false,
            missing_values: false,
            ..Capabilities::ALL
        },
        build: |_| Ok(Box::new(Centroid)),
    }
}

impl Learner for Centroid {
    fn name(&self) -> &str {
        "centroid"
    }
    fn describe(&self) -> String {
        "centroid".into()
    }
    fn revision(&self) -> String {
        spec().revision_text()
    }
    fn capabilities(&self) -> Capabilities {
        spec().capabilities
    }
    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        let width = train.num_attributes() + 1; // the weighted attribute sums, then the weight
        let mut means = vec![vec![0.0; width]; train.num_classes()];
        for row in 0..train.len() {
            let (sums, weight) = (&mut means[train.class(row)], train.weight(row));
            (0..width - 1).for_each(|a| sums[a] += weight * train.value(row, a));
            sums[width - 1] += weight;
        }
        for sums in &mut means {
            let total = sums[width - 1].max(f64::MIN_POSITIVE);
            sums[..width - 1].iter_mut().for_each(|sum| *sum /= total);
        }
        Ok(Box::new(Means(means)))
    }
}

impl Model for Means {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let mut values = Vec::new();
        for row in 0..test.len() {
            let near: Vec<f64> = (self.0.iter())
                .map(|sums| match sums.split_last() {
                    Some((&weight, mean)) if weight > 0.0 => {
                        let far = mean.iter().enumerate();
                        1.0 / (far
                            .map(|(a, m)| (test.value(row, a) - m).powi(2))
                            .sum::<f64>()
                            + 1.0)
                    }
                    _ => 0.0, // a class absent from the training rows
                })
                .collect();
            values.extend(near.iter().map(|n| n / near.iter().sum::<f64>()));
        }
        Ok(Probabilities::from_flat(self.0.len(), values))
    }
}

/// The experiment: the Aslan protocol (a 1/3 test set, k-fold CV of the rest) on `datasets`.
fn config(datasets: &str, folds: usize) -> String {
    format!(
        r#"name = "new_learner"
datasets = [{datasets}]
tests = ["paired_t", "corrected_t"]
transforms = {{ two_most_confused = true }}
protocol = {{ kind = "aslan", test_fraction = 0.3333333333333333, folds = {folds} }}
learners = [{{ kind = "centroid" }}, {{ kind = "c45" }}, {{ kind = "naive_bayes" }}]"#
    )
}

/// Registers the learner (one call), checks and runs the config, prints the tables.
fn benchmark(
    datasets: &str,
    folds: usize,
    results: &std::path::Path,
) -> engine::Result<engine::RunOutput> {
    let mut engine = engine::Engine::new();
    engine.learners.register(spec())?;
    let output = engine.run(
        engine.check_text(&config(datasets, folds), "new_learner")?,
        results,
    )?;
    println!("{}", output.results.tidy);
    let tests =
        engine::results::tests_table(&output.plan, &output.results.folds, &output.tests, 0.05)?;
    println!("{}", tests.to_markdown()?);
    Ok(output)
}

fn main() -> engine::Result<()> {
    benchmark(
        r#""pima", "sonar", "ionosphere""#,
        30,
        std::path::Path::new("results"),
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_new_learner_conforms_and_runs_through_the_protocol() {
        learners::conformance::check(&super::Centroid).unwrap();
        let folder =
            std::env::temp_dir().join(format!("benchmark-new-learner-{}", std::process::id()));
        let output = super::benchmark(r#""sonar""#, 3, &folder).unwrap();
        assert_eq!(output.counts.failed, 0);
        assert_eq!(output.results.tidy.height(), 3 * 3 * 2 * 2); // learners x folds x parts x measures
        let _ = std::fs::remove_dir_all(&folder);
    }
}
