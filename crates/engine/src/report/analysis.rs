//! Analyses: the parts of a report beyond the per-dataset tables, such as a paper's
//! reproduction. Each says what it needs from a plan (checked before any fit, with the models
//! on the whole training part it asks for) and computes its sections, as data, from a run's
//! record. An analysis declares the options it reads from the config's top level as learners
//! declare their parameters, so that the engine's config knows no analysis by name.

use learners::{ParamError, ParameterSpec, Params};

use crate::config::experiment::{ExperimentConfig, KnownAnalysis};
use crate::error::AnalysisError;
use crate::measures::registry::RegisterError;
use crate::plan::check::AnalysisNeeds;
use crate::plan::units::Plan;
use crate::record::run_record::RunRecord;
use crate::report::section::Section;

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

    /// The options it reads from the top level of a config (type, range, default, one line
    /// of documentation), checked with the config; read them with [`options`]. None by
    /// default.
    fn options(&self) -> &'static [ParameterSpec] {
        &[]
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

    /// Adds an analysis (one call); an analysis of the same name is replaced. Its options are
    /// checked as a learner's parameters are, and an option another analysis declares too must
    /// be declared alike (the config has one value for both).
    pub fn register(&mut self, analysis: Box<dyn Analysis>) -> Result<(), RegisterError> {
        let refuse = |problem: String| RegisterError {
            noun: "analysis",
            name: analysis.name().to_string(),
            problem,
        };
        crate::measures::registry::validate("analysis", analysis.name(), analysis.options())
            .map_err(refuse)?;
        for option in analysis.options() {
            let clash = self
                .all()
                .filter(|other| other.name() != analysis.name())
                .flat_map(|other| other.options().iter().map(move |o| (other.name(), o)))
                .find(|(_, other)| other.name() == option.name() && *other != option);
            if let Some((other, _)) = clash {
                return Err(refuse(format!(
                    "option '{}' is declared otherwise by analysis '{other}'",
                    option.name()
                )));
            }
        }
        self.known.retain(|known| known.name() != analysis.name());
        self.known.push(analysis);
        Ok(())
    }

    /// These analyses and another set's (an analysis of the same name is replaced).
    pub fn merged(mut self, other: Analyses) -> Result<Self, RegisterError> {
        for analysis in other.known {
            self.register(analysis)?;
        }
        Ok(self)
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

    /// The names, data needs and options of every known analysis, for the config check.
    pub fn known(&self) -> Vec<KnownAnalysis> {
        self.all()
            .map(|analysis| KnownAnalysis {
                name: analysis.name(),
                needs_data: analysis.needs_data(),
                options: analysis.options(),
            })
            .collect()
    }

    /// True when a config names analyses and none of them needs data.
    pub fn is_standalone(&self, config: &ExperimentConfig) -> bool {
        config.is_standalone(&self.known())
    }
}

impl AnalysisNeeds for Analyses {
    fn known(&self) -> Vec<KnownAnalysis> {
        Analyses::known(self)
    }

    fn is_standalone(&self, config: &ExperimentConfig) -> bool {
        Analyses::is_standalone(self, config)
    }

    fn needs(
        &self,
        config: &ExperimentConfig,
        plan: &Plan,
    ) -> Result<Vec<(usize, usize)>, (&'static str, String)> {
        let selected = self.selected(config, plan);
        for analysis in &selected {
            analysis
                .check(config, plan)
                .map_err(|problem| (analysis.name(), problem))?;
        }
        Ok(selected
            .iter()
            .flat_map(|analysis| analysis.whole_training(config, plan))
            .collect())
    }
}

/// The options `analysis` declares as `config` gives them (or their defaults), read by `read`
/// (e.g. `|options| options.real("rope")`). The config's check has checked their types and
/// ranges; the error names the analysis and the key.
pub fn options<T>(
    analysis: &dyn Analysis,
    config: &ExperimentConfig,
    read: impl FnOnce(&Params<'_>) -> Result<T, ParamError>,
) -> Result<T, String> {
    crate::measures::registry::with_options(
        analysis.name(),
        analysis.options(),
        &config.options,
        read,
    )?
    .map_err(|error| format!("analysis '{}': {error}", analysis.name()))
}
