//! Analyses: the parts of a report beyond the per-dataset tables, such as a paper's
//! reproduction. Each says what it needs from a plan (checked before any fit) and computes its
//! sections from a run's results.

use std::path::Path;

use crate::config::{ExperimentConfig, KnownAnalysis};
use crate::error::Result;
use crate::plan::{Plan, Unit};
use crate::results::RunResults;
use crate::section::Section;
use crate::unit::{Part, UnitPredictions};

/// One analysis a config can name in `analyses`.
pub trait Analysis: Send + Sync {
    /// The name used in configs.
    fn name(&self) -> &'static str;

    /// What it computes, in one line.
    fn description(&self) -> &'static str;

    /// False for an analysis computed from nothing but its own definition (it then runs
    /// without datasets or learners).
    fn needs_data(&self) -> bool {
        true
    }

    /// True when the analysis runs on this plan for a config without an `analyses` key (a
    /// config that has the key runs exactly the analyses it names).
    fn on_by_default(&self, _plan: &Plan) -> bool {
        false
    }

    /// Checks, before any fit, that the config and the prepared plan give what the analysis
    /// needs (measures, learners, two-class tasks, ...); the error says what is missing.
    fn check(&self, config: &ExperimentConfig, plan: &Plan) -> std::result::Result<(), String>;

    /// Computes the analysis from a run's results, writes its tables and figures under the
    /// results folder, and returns its report sections.
    fn sections(&self, context: &AnalysisContext) -> Result<Vec<Section>>;

    /// How many of its first sections open the report, before the per-dataset tables (a
    /// paper's side-by-side with its published tables); the others follow those tables.
    fn opening_sections(&self) -> usize {
        0
    }
}

/// The analyses a program knows, by name.
#[derive(Default)]
pub struct Analyses {
    known: Vec<Box<dyn Analysis>>,
}

impl Analyses {
    /// No analyses.
    pub fn none() -> Self {
        Analyses::default()
    }

    /// Adds an analysis; an analysis of the same name is replaced.
    pub fn register(&mut self, analysis: Box<dyn Analysis>) {
        self.known.retain(|known| known.name() != analysis.name());
        self.known.push(analysis);
    }

    /// These analyses and another set's (an analysis of the same name is replaced).
    pub fn merged(mut self, other: Analyses) -> Self {
        for analysis in other.known {
            self.register(analysis);
        }
        self
    }

    /// The analysis of this name.
    pub fn find(&self, name: &str) -> Option<&dyn Analysis> {
        self.known
            .iter()
            .find(|analysis| analysis.name() == name)
            .map(|analysis| analysis.as_ref())
    }

    /// Every known analysis's name.
    pub fn names(&self) -> Vec<&'static str> {
        self.known.iter().map(|analysis| analysis.name()).collect()
    }

    /// Every known analysis.
    pub fn all(&self) -> impl Iterator<Item = &dyn Analysis> {
        self.known.iter().map(|analysis| analysis.as_ref())
    }

    /// The analyses that run: those a config names, in its order (unknown names are skipped:
    /// the config check reports them), or, when the config has no `analyses` key, every
    /// analysis that is on by default for the plan.
    pub fn selected<'a>(
        &'a self,
        config: &'a ExperimentConfig,
        plan: &Plan,
    ) -> Vec<&'a dyn Analysis> {
        match &config.analyses {
            Some(names) => names.iter().filter_map(|name| self.find(name)).collect(),
            None => self
                .all()
                .filter(|analysis| analysis.needs_data() && analysis.on_by_default(plan))
                .collect(),
        }
    }

    /// The names and data needs of every known analysis, for the config check.
    pub fn known(&self) -> Vec<KnownAnalysis> {
        self.all()
            .map(|analysis| KnownAnalysis {
                name: analysis.name(),
                needs_data: analysis.needs_data(),
            })
            .collect()
    }

    /// True when a config names analyses and none of them needs data.
    pub fn is_standalone(&self, config: &ExperimentConfig) -> bool {
        config.is_standalone(&self.known())
    }
}

/// What an analysis computes from: the config, the plan, the run's results, and the folder it
/// writes into.
pub struct AnalysisContext<'a> {
    /// The config as run.
    pub config: &'a ExperimentConfig,
    /// The plan (empty for an experiment without data).
    pub plan: &'a Plan,
    /// The per-fold results.
    pub results: &'a RunResults,
    /// The folder the analysis writes its tables and figures under (the run's outputs).
    pub folder: &'a Path,
    /// The results folder whose `predictions/` holds the cached units.
    pub cache: &'a Path,
}

impl AnalysisContext<'_> {
    /// A unit's predictions, read back from the cache; `None` if it failed or its entry is
    /// missing or damaged.
    pub fn predictions(&self, unit: Unit) -> Option<UnitPredictions> {
        crate::cache::cached_predictions(self.cache, &self.plan.spec(unit))
    }

    /// The test-set predictions of the model of `learner` fitted on the whole training part of
    /// `dataset` (protocols with one fixed test set, such as Aslan's): read from the cache, or
    /// fitted and cached now. The error says why there are none (no fixed test set, or the
    /// learner failed).
    pub fn whole_training_predictions(
        &self,
        dataset: usize,
        learner: usize,
    ) -> std::result::Result<UnitPredictions, String> {
        crate::test_set::whole_training_predictions(self.plan, self.cache, dataset, learner)
    }

    /// A binary task's test-set scores (positive-class probabilities) of the whole-training-set
    /// model of (`dataset`, `learner`); the error says why there are none.
    pub fn whole_training_test_scores(
        &self,
        dataset: usize,
        learner: usize,
    ) -> std::result::Result<evaluate::BinaryScores, String> {
        let positive = self.plan.datasets[dataset].positive.ok_or_else(|| {
            format!(
                "dataset '{}' is not a two-class task",
                self.plan.datasets[dataset].name
            )
        })?;
        let (truth, probabilities) = self
            .whole_training_predictions(dataset, learner)?
            .part(Part::Test);
        crate::measures::binary_scores(&probabilities, &truth, positive)
            .ok_or_else(|| "the test set has one class only".to_string())
    }

    /// A binary task's test scores (positive-class probabilities) of a unit; `None` if the
    /// task is not binary or the unit has no predictions.
    pub fn test_scores(&self, unit: Unit) -> Option<evaluate::BinaryScores> {
        let positive = self.plan.datasets[unit.dataset].positive?;
        let (truth, probabilities) = self.predictions(unit)?.part(Part::Test);
        crate::measures::binary_scores(&probabilities, &truth, positive)
    }
}
