//! Check a config and prepare its plan: everything that can fail before a fit. Names, keys and
//! ranges first (fast, every problem reported), then the datasets are loaded, transformed and
//! split on the worker threads, every learner is checked against every dataset, and every
//! selected test and analysis against the plan. The plan also gets the whole-training units the
//! tests on the test set and the analyses ask for.

use std::path::Path;

use data::catalog::Catalog;
use rayon::prelude::*;

use crate::analysis::Analyses;
use crate::bounds::Limits;
use crate::config::{self, ExperimentConfig};
use crate::error::{Error, Result};
use crate::plan::{self, Plan};
use crate::registries::Registries;

/// The experiment loaded, checked and planned: everything that can fail before a fit has been
/// checked.
pub struct CheckedExperiment {
    /// The config as parsed.
    pub config: ExperimentConfig,
    /// The config file's text, saved with the results.
    pub text: String,
    /// The plan: prepared datasets (loaded, transformed, split), learners and units; empty for
    /// an experiment without data.
    pub plan: Plan,
}

/// What a config is checked against: the learner kinds and analyses it may name, the worker
/// threads that prepare the datasets, and the largest plan accepted.
pub struct Checker<'a> {
    /// The learner kinds.
    pub learners: &'a learners::Registry,
    /// The measures, tests and protocols.
    pub registries: &'a Registries,
    /// The analyses.
    pub analyses: &'a Analyses,
    /// Worker threads.
    pub threads: usize,
    /// The largest plan accepted.
    pub limits: &'a Limits,
}

impl Checker<'_> {
    /// Checks config text (`origin` names it in messages), with relative dataset paths looked
    /// for in `base` first. A config that passes does not fail later for a reason seen here.
    pub fn check(
        &self,
        text: &str,
        origin: &str,
        base: Option<&Path>,
    ) -> Result<CheckedExperiment> {
        let at_origin = |error: Error| error.in_config(origin);
        let config = config::parse(text, &self.analyses.known()).map_err(at_origin)?;
        let text = text.to_string();
        if self.analyses.is_standalone(&config) {
            return Ok(CheckedExperiment {
                config,
                text,
                plan: Plan::new(Vec::new(), Vec::new()),
            });
        }
        let mut plan = self.prepare(&config, base).map_err(at_origin)?;
        plan::check_capabilities(&plan).map_err(at_origin)?;
        crate::test_set::check(&plan.test_set_tests, &plan).map_err(at_origin)?;
        let selected = self.analyses.selected(&config, &plan);
        for analysis in &selected {
            analysis.check(&config, &plan).map_err(|problem| {
                Error::config(format!(
                    "analysis '{}' cannot run on this experiment: {problem}",
                    analysis.name()
                ))
                .in_config(origin)
            })?;
        }
        let mut wanted = crate::test_set::needed_models(&plan.test_set_tests, &plan);
        for analysis in &selected {
            wanted.extend(analysis.whole_training(&config, &plan));
        }
        plan.add_whole_training(wanted);
        Ok(CheckedExperiment { config, text, plan })
    }

    /// Checks the names of the config, then loads, transforms and splits its datasets on the
    /// worker threads, within the limits.
    fn prepare(&self, config: &ExperimentConfig, base: Option<&Path>) -> Result<Plan> {
        let catalog = Catalog::locate().ok();
        let (requests, learners, evaluation) = plan::check_names(
            config,
            catalog.as_ref(),
            (self.learners, self.registries),
            base,
        )?;
        let protocol = evaluation.protocol.as_ref();
        let pool = crate::runner::thread_pool(self.threads)?;
        let prepared: Vec<Result<plan::PreparedDataset>> = pool.install(|| {
            requests
                .par_iter()
                .map(|request| {
                    plan::prepare_dataset(
                        request,
                        catalog.as_ref(),
                        (protocol, &evaluation.measures),
                        config.seed,
                        self.limits,
                    )
                })
                .collect()
        });
        let datasets = prepared.into_iter().collect::<Result<Vec<_>>>()?;
        let units: u64 = datasets
            .iter()
            .map(|dataset| dataset.plan.splits.len() as u64 * learners.len() as u64)
            .sum();
        crate::bounds::check_units(units, protocol, self.limits)?;
        let mut plan = Plan::new(datasets, learners);
        plan.measures = evaluation.measures;
        plan.fold_tests = evaluation.fold_tests;
        plan.test_set_tests = evaluation.test_set_tests;
        Ok(plan)
    }
}
