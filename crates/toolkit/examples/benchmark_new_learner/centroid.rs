//! The learner of `main.rs`: nearest class mean, written against the `learners` traits only.

use data::{Features, View};
use learners::spec::{Capabilities, LearnerSpec};
use learners::{Learner, LearnerError, Model, Probabilities};

/// Nearest class mean: p(class) is proportional to 1 / (squared distance to its mean + 1); a
/// class absent from the training rows gets 0.
pub struct Centroid;
struct Means(Vec<Vec<f64>>);

pub fn spec() -> LearnerSpec {
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
