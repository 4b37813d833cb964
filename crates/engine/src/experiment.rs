//! The engine: what a program checks and runs experiments with (the learner kinds and analyses
//! a config may name, the worker threads, the limits). A run is three steps, each handing a
//! plain value to the next: check the config and prepare the plan
//! ([`crate::plan::check::Checker`]); execute every unit and compute measures and tests
//! ([`crate::record::execute::execute`], a [`RunRecord`]); and report ([`Engine::sections`] as data,
//! written by [`crate::report::write::report`]). A shard executes only its slice of the units into
//! the cache ([`Engine::run_shard`]); a merge builds the record from the cache without fitting
//! ([`Engine::merge`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use report::Table;

use crate::error::{Error, Result};
use crate::plan::check::{CheckedExperiment, Checker};
use crate::record::execute::{computed_before, execute, run_outer, spanned_units, tune_units};
use crate::record::run_record::RunRecord;
use crate::record::sequential::shard_units;
use crate::report::analysis::Analyses;
use crate::report::section::Section;
use crate::report::write::report;
use crate::run::runner::{self, Fitting};
use crate::run::shard::{Assignment, Shard, SHARDS_FOLDER};
use crate::run::shared::SharedStates;

pub use crate::report::write::SLURM_FOLDER;

/// What checks and runs experiments: the learner kinds and analyses a config may name, and the
/// number of worker threads.
pub struct Engine {
    /// The learner kinds configs may name (the built-in ones, plus any registered).
    pub learners: learners::Registry,
    /// The measures, tests and protocols configs may name (the built-in ones, plus any
    /// registered: `engine.registries.measures.register(spec)`).
    pub registries: crate::plan::registries::Registries,
    /// The analyses configs may name in `analyses`.
    pub analyses: Analyses,
    /// Worker threads (results do not depend on it).
    pub threads: usize,
    /// The largest plan accepted.
    pub limits: crate::plan::bounds::Limits,
    /// The folder under which results folders are written, when known before the check: the
    /// check keeps the slow transforms' results in its cache ([`crate::plan::transform_cache`]).
    pub results_root: Option<PathBuf>,
    /// The bytes the states a dataset's units share may take at once (see
    /// [`crate::run::shared`]); 0 shares nothing. Outputs do not depend on it.
    pub shared_memory: usize,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// What one shard did.
pub struct ShardOutput {
    /// Which shard.
    pub shard: Shard,
    /// Its units (computed, reused and failed).
    pub units: usize,
    /// What the runner did.
    pub counts: runner::RunCounts,
    /// Its expected cost (see [`crate::run::shard`]).
    pub expected_cost: f64,
    /// The record it wrote, `shards/<I>-of-<N>.toml` in the results folder.
    pub record: PathBuf,
}

/// What a run produced: its folder, its record (the plan, every unit, the measures per fold,
/// the paired tests and the tests on the test set) and its report's sections (every table and
/// figure of the report, as data).
pub struct RunOutput {
    /// The results folder written.
    pub folder: PathBuf,
    /// Everything the run computed.
    pub record: RunRecord,
    /// The report's sections, in page order.
    pub sections: Vec<Section>,
}

impl RunOutput {
    /// The paired tests as a table (as in `tables/tests.*`).
    pub fn tests_table(&self) -> Result<Table> {
        let record = &self.record;
        crate::record::results::tests_table(
            &record.plan,
            &record.results.folds,
            &record.tests,
            record.config.alpha,
        )
    }

    /// The report's table written to `tables/<stem>.*` (e.g. "summary", "tests",
    /// "test_set_tests", an analysis's own), if the report has it.
    pub fn table(&self, stem: &str) -> Option<&Table> {
        self.sections
            .iter()
            .flat_map(|section| &section.tables)
            .find(|table| table.file.as_deref() == Some(stem))
            .map(|table| &table.table)
    }
}

impl Engine {
    /// The built-in learners, no analyses, and one thread per core.
    pub fn new() -> Self {
        Engine {
            learners: learners::Registry::builtin(),
            registries: crate::plan::registries::Registries::builtin(),
            analyses: Analyses::none(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            limits: crate::plan::bounds::Limits::default(),
            results_root: None,
            shared_memory: crate::plan::units::DEFAULT_SHARED_MEMORY,
        }
    }

    /// This engine with these analyses.
    pub fn with_analyses(mut self, analyses: Analyses) -> Self {
        self.analyses = analyses;
        self
    }

    /// This engine with this memory budget for the states a dataset's units share (0: none).
    pub fn with_shared_memory(mut self, bytes: usize) -> Self {
        self.shared_memory = bytes;
        self
    }

    /// This engine with this many worker threads.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Loads a config file and checks it (see [`Engine::check_text`]); dataset paths in it are
    /// read from its folder.
    pub fn check_file(&self, path: &Path) -> Result<CheckedExperiment> {
        let text =
            std::fs::read_to_string(path).map_err(|error| Error::io("read config", path, error))?;
        self.check_text_in(&text, &path.display().to_string(), path.parent())
    }

    /// Checks config text (`origin` names it in messages): every name, key and range, then
    /// loads and prepares the datasets, and checks that every learner accepts every dataset
    /// and every analysis has what it needs. A config that passes does not fail later for a
    /// reason seen here.
    pub fn check_text(&self, text: &str, origin: &str) -> Result<CheckedExperiment> {
        self.check_text_in(text, origin, None)
    }

    /// [`Engine::check_text`], with relative dataset paths looked for in `base` first.
    pub fn check_text_in(
        &self,
        text: &str,
        origin: &str,
        base: Option<&Path>,
    ) -> Result<CheckedExperiment> {
        let checker = Checker {
            learners: &self.learners,
            registries: &self.registries,
            analyses: &self.analyses,
            threads: self.threads,
            limits: &self.limits,
            results_root: self.results_root.as_deref(),
        };
        checker.check(text, origin, base)
    }

    /// Runs a checked experiment and writes `results_root/<name>/`.
    pub fn run(&self, experiment: CheckedExperiment, results_root: &Path) -> Result<RunOutput> {
        self.execute_and_report(experiment, results_root, Fitting::Compute)
    }

    /// Builds the record, tables and report of a checked experiment from the cache of
    /// `results_root/<name>/`, fitting nothing (after its shards have run). A unit missing
    /// from the cache stops the merge with an error naming how many are missing and which
    /// shards they belong to, unless `allow_missing`: then the report is written without them
    /// and says so.
    pub fn merge(
        &self,
        experiment: CheckedExperiment,
        results_root: &Path,
        allow_missing: bool,
    ) -> Result<RunOutput> {
        self.execute_and_report(
            experiment,
            results_root,
            Fitting::CacheOnly { allow_missing },
        )
    }

    /// Executes the experiment into the cache of `results_root/<name>/` (computing or only
    /// reading units as `fitting` says) and writes its report there.
    fn execute_and_report(
        &self,
        experiment: CheckedExperiment,
        results_root: &Path,
        fitting: Fitting,
    ) -> Result<RunOutput> {
        let started = Instant::now();
        let target = results_root.join(&experiment.config.name);
        let mut experiment = experiment;
        experiment.plan.shared_memory = self.shared_memory;
        let record = execute(experiment, &target, fitting, self.threads)?;
        let sections = self.sections(&record)?;
        let folder = report(&record, &sections, &target)?;
        eprintln!(
            "done in {:.1}s: {}",
            started.elapsed().as_secs_f64(),
            folder.join("index.html").display()
        );
        Ok(RunOutput {
            folder,
            record,
            sections,
        })
    }

    /// The report's sections of a run, in page order: the missing and the failed units, the
    /// analyses' opening sections (a paper's side-by-side with its published tables), the
    /// datasets, the results per dataset and the figures, then the analyses' other sections.
    pub fn sections(&self, record: &RunRecord) -> Result<Vec<Section>> {
        // The figures read the units' predictions again: on the run's threads.
        crate::threads::thread_pool(self.threads)?.install(|| self.sections_on_threads(record))
    }

    /// [`Engine::sections`], within the run's thread pool.
    fn sections_on_threads(&self, record: &RunRecord) -> Result<Vec<Section>> {
        let mut sections = Vec::new();
        if !record.without_data() {
            sections.extend(crate::report::sections::missing(record));
            sections.extend(crate::report::sections::failures(record));
            sections.extend(crate::report::load_notices::section(record));
        }
        let opening_at = sections.len();
        if !record.without_data() {
            sections.extend(crate::report::leaderboard_section::section(record)?);
            sections.push(crate::report::sections::datasets(record));
            sections.push(crate::report::sections::results(record)?);
            sections.extend(crate::report::tuning::section(record));
            sections.extend(crate::report::stopping::section(record)?);
            let (figures, curves) = rayon::join(
                || crate::report::figures::section(record),
                || crate::report::curve_figures::section(record),
            );
            sections.push(figures?);
            sections.push(curves?);
        }
        let mut opening = Vec::new();
        for analysis in self.analyses.selected(&record.config, &record.plan) {
            let mut own = analysis
                .sections(record)
                .map_err(|source| Error::Analysis {
                    analysis: analysis.name().to_string(),
                    source,
                })?;
            let rest = own.split_off(analysis.opening_sections().min(own.len()));
            opening.extend(own);
            sections.extend(rest);
        }
        sections.splice(opening_at..opening_at, opening);
        Ok(sections)
    }

    /// Runs one shard of a checked experiment: only its slice of the units (see
    /// [`crate::run::shard`]), into the cache of `results_root/<name>/`, and a record of what it did
    /// in `shards/<I>-of-<N>.toml` there. It writes no tables or report: [`Engine::merge`] does
    /// once every shard has run. Any number of shards may run at once on machines sharing the
    /// results folder.
    pub fn run_shard(
        &self,
        experiment: CheckedExperiment,
        results_root: &Path,
        shard: Shard,
    ) -> Result<ShardOutput> {
        let started = Instant::now();
        let CheckedExperiment {
            config, mut plan, ..
        } = experiment;
        plan.shared_memory = self.shared_memory;
        let folder = results_root.join(&config.name);
        crate::run::publish::check_writable(&folder, &plan, true)?;
        let assignment = Assignment::new(&plan, &folder, shard.count);
        let units = assignment.units(&plan, shard.index);
        let expected_cost = assignment.shard_cost(shard.index);
        eprintln!(
            "experiment '{}': shard {shard}: {} of its {} units, {:.0}% of the expected cost ({})",
            config.name,
            units.len(),
            plan.units.len(),
            100.0 * expected_cost / assignment.costs.iter().sum::<f64>().max(f64::MIN_POSITIVE),
            assignment.describe_source()
        );
        let inner = assignment.inner_units(&plan, shard.index);
        let shared = SharedStates::new(&plan, &spanned_units(&plan, Some(&inner), &units));
        let fitting = (Fitting::Compute, self.threads, &shared);
        let tuning = tune_units(&folder, &mut plan, &inner, fitting)?;
        let (units, sequential) = shard_units(&folder, &plan, &config, (&units, self.threads))?;
        let outer = (&plan, &units[..]);
        let (mut records, mut counts) =
            run_outer(&folder, outer, &tuning.failed, fitting, |_, _| ())?;
        shared.log_summary();
        computed_before((&units, &sequential), (&mut records, &mut counts));
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "units: {} computed, {} reused from the cache, {} failed ({seconds:.1}s so far)",
            counts.computed, counts.reused, counts.failed,
        );
        let record = folder
            .join(SHARDS_FOLDER)
            .join(format!("{}-of-{}.toml", shard.index, shard.count));
        let text = format!(
            "# What shard {shard} of experiment '{}' did (written when it finished).\n\
             shard = \"{shard}\"\nunits = {}\ncomputed = {}\nreused = {}\nfailed = {}\n\
             expected_cost = {expected_cost}\ncosts = \"{}\"\nseconds = {seconds:.3}\n",
            config.name,
            units.len(),
            counts.computed,
            counts.reused,
            counts.failed,
            assignment.describe_source()
        );
        report::write_file(&record, &text)?;
        Ok(ShardOutput {
            shard,
            units: units.len(),
            counts,
            expected_cost,
            record,
        })
    }
}
