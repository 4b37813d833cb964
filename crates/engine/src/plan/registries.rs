//! The registries a config's measures, tests and protocol are looked up in: the built-in ones,
//! each extended by a user's crate with one call (`engine.registries.measures.register(spec)`),
//! and the listings the command line prints from them.

use crate::measures::measure::{Measure, MeasureSpec};
use crate::measures::paired::{FoldTest, FoldTestSpec};
use crate::measures::registry::Registry;
use crate::measures::test_set::{TestSetTest, TestSetTestSpec};
use crate::plan::protocols::{Protocol, ProtocolSpec};
use crate::plan::tuning::{TunedLearner, TuningSettings};
use learners::Declares;

/// Every registry of an engine.
pub struct Registries {
    /// The measures a config may name in `measures`.
    pub measures: Registry<MeasureSpec>,
    /// The tests over folds a config may name in `tests`.
    pub fold_tests: Registry<FoldTestSpec>,
    /// The tests on a fixed test set a config may name in `tests`.
    pub test_set_tests: Registry<TestSetTestSpec>,
    /// The protocols a config may name in `protocol = { kind = ... }`.
    pub protocols: Registry<ProtocolSpec>,
}

impl Default for Registries {
    fn default() -> Self {
        Registries::builtin()
    }
}

/// A config's measures, tests and protocol, looked up and built.
pub struct Evaluation {
    /// The measures, in config order.
    pub measures: Vec<Measure>,
    /// The tests over folds, in config order.
    pub fold_tests: Vec<FoldTest>,
    /// The tests on the fixed test set, in config order.
    pub test_set_tests: Vec<TestSetTest>,
    /// The protocol.
    pub protocol: std::sync::Arc<dyn Protocol>,
    /// The tuning settings and each learner's candidates (none for an untuned learner), when
    /// some learner is tuned.
    pub tuning: Option<(TuningSettings, Vec<Option<TunedLearner>>)>,
}

impl Registries {
    /// The built-in measures, tests and protocols.
    pub fn builtin() -> Self {
        Registries {
            measures: crate::measures::measure::builtin(),
            fold_tests: crate::measures::paired::builtin(),
            test_set_tests: crate::measures::test_set::builtin(),
            protocols: crate::plan::protocols::builtin(),
        }
    }

    /// Every measure with its options, for a listing.
    pub fn describe_measures(&self) -> String {
        describe_all(&self.measures)
    }

    /// Every test (over folds, then on the fixed test set) with its options, for a listing.
    pub fn describe_tests(&self) -> String {
        describe_all(&self.fold_tests) + &describe_all(&self.test_set_tests)
    }

    /// Every protocol with its options, for a listing.
    pub fn describe_protocols(&self) -> String {
        describe_all(&self.protocols)
    }

    /// Looks up and builds the config's measures, tests and protocol; each problem (one per
    /// line, naming the key and entry) is added to `problems`, and `None` returned if any.
    pub fn evaluation(
        &self,
        measures: &[toml::Value],
        tests: &[toml::Value],
        protocol: &toml::Table,
        learners: &learners::Registry,
        problems: &mut Vec<String>,
    ) -> Option<Evaluation> {
        let before = problems.len();
        let protocol = crate::plan::protocols::configure(&self.protocols, protocol, learners)
            .map_err(|problem| problems.push(format!("key 'protocol': {problem}")))
            .ok();
        let mut built = Vec::new();
        for (position, item) in measures.iter().enumerate() {
            let measure = self.measures.lookup(item).and_then(|(entry, options)| {
                Measure::build(entry, &entry.check(&options, learners)?)
            });
            match measure {
                Ok(measure) if built.contains(&measure) => problems.push(format!(
                    "key 'measures' entry {}: '{}' appears twice",
                    position + 1,
                    measure.name()
                )),
                Ok(measure) => built.push(measure),
                Err(problem) => {
                    problems.push(format!("key 'measures' entry {}: {problem}", position + 1))
                }
            }
        }
        let (fold_tests, test_set_tests) = self.tests(tests, learners, problems);
        (problems.len() == before).then(|| Evaluation {
            measures: built,
            fold_tests,
            test_set_tests,
            protocol: protocol.expect("no problem with the protocol"),
            tuning: None,
        })
    }

    /// The config's tests, each looked up among the tests over folds, then among the tests on
    /// the fixed test set.
    fn tests(
        &self,
        tests: &[toml::Value],
        learners: &learners::Registry,
        problems: &mut Vec<String>,
    ) -> (Vec<FoldTest>, Vec<TestSetTest>) {
        let (mut fold_tests, mut test_set_tests) = (Vec::new(), Vec::new());
        for (position, item) in tests.iter().enumerate() {
            let built = match (
                self.fold_tests.lookup(item),
                self.test_set_tests.lookup(item),
            ) {
                (Ok((entry, options)), _) => entry
                    .check(&options, learners)
                    .and_then(|params| FoldTest::build(entry, &params))
                    .map(|test| fold_tests.push(test)),
                (_, Ok((entry, options))) => entry
                    .check(&options, learners)
                    .and_then(|params| TestSetTest::build(entry, &params))
                    .map(|test| test_set_tests.push(test)),
                (Err(problem), Err(_)) if problem.starts_with("unknown") => Err(format!(
                    "unknown test {item} (allowed: {}, and on a fixed test set: {})",
                    self.fold_tests.names(),
                    self.test_set_tests.names()
                )),
                (Err(problem), Err(_)) => Err(problem),
            };
            if let Err(problem) = built {
                problems.push(format!("key 'tests' entry {}: {problem}", position + 1));
            }
        }
        (fold_tests, test_set_tests)
    }
}

/// Every entry of a registry, for a listing.
fn describe_all<S: Declares>(registry: &Registry<S>) -> String {
    registry.entries().map(|entry| entry.describe()).collect()
}
