//! Analyses: the parts of a report beyond the per-dataset tables, such as a paper's
//! reproduction. Each says what it needs from a plan (checked before any fit, with the models
//! on the whole training part it asks for) and computes its sections, as data, from a run's
//! record.

use crate::config::{ExperimentConfig, KnownAnalysis};
use crate::error::AnalysisError;
use crate::plan::Plan;
use crate::record::RunRecord;
use crate::section::Section;

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

    /// The (dataset, learner) pairs whose model fitted on the whole training part (of a
    /// protocol with one fixed test set) the analysis reads: the plan runs them as units, so
    /// that [`RunRecord::whole_training_predictions`] finds them. None by default.
    fn whole_training(&self, _config: &ExperimentConfig, _plan: &Plan) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// Computes the analysis from a run's record and returns its report sections (tables and
    /// figures as data; the report writes them).
    fn sections(&self, record: &RunRecord) -> Result<Vec<Section>, AnalysisError>;

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
