//! Runs one experiment end to end: check the config and prepare the plan (everything that can
//! fail before a fit), run the units (reusing cached ones), compute measures and tests, run the
//! analyses, and write the results folder with its report. A shard runs only its slice of the
//! units into the cache ([`Engine::run_shard`]); a merge builds the report from the cache
//! without fitting ([`Engine::merge`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use data::catalog::Catalog;
use rayon::prelude::*;
use report::{HtmlPage, Table};

use crate::analysis::{Analyses, AnalysisContext};
use crate::config::{self, ExperimentConfig};
use crate::error::{Context, Error, Result};
use crate::plan::{self, Plan};
use crate::results::{self, RunResults, UnitMeasures};
use crate::runner::{self, Fitting};
use crate::section::{write_table, Section};
use crate::shard::{Assignment, Shard};
use crate::unit::Part;

/// The folder of a results folder where each shard records what it did
/// (`shards/<I>-of-<N>.toml`); runs and merges keep it.
pub const SHARDS_FOLDER: &str = "shards";

/// The folder of a results folder holding a cluster's job scripts and logs; runs and merges
/// keep it.
pub const SLURM_FOLDER: &str = "slurm";

/// The folders of a results folder that a finished run leaves in place: the cache, the shard
/// records and the cluster's scripts and logs.
const KEPT_FOLDERS: [&str; 3] = ["predictions", SHARDS_FOLDER, SLURM_FOLDER];

/// Tables with more rows than this are linked from the HTML page rather than shown.
const LONGEST_TABLE_ON_PAGE: usize = 120;

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

/// What checks and runs experiments: the learner kinds and analyses a config may name, and the
/// number of worker threads.
pub struct Engine {
    /// The learner kinds configs may name (the built-in ones, plus any registered).
    pub learners: learners::Registry,
    /// The analyses configs may name in `analyses`.
    pub analyses: Analyses,
    /// Worker threads (results do not depend on it).
    pub threads: usize,
    /// The largest plan accepted.
    pub limits: crate::bounds::Limits,
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
    /// Its expected cost (see [`crate::shard`]).
    pub expected_cost: f64,
    /// The record it wrote, `shards/<I>-of-<N>.toml` in the results folder.
    pub record: PathBuf,
}

/// What a run produced: its folder, its results and its paired tests.
pub struct RunOutput {
    /// The results folder written.
    pub folder: PathBuf,
    /// The per-fold results (tidy table and indexed view).
    pub results: RunResults,
    /// Every configured paired test between every two learners, per dataset and measure.
    pub tests: Vec<results::TestRecord>,
    /// What the runner did.
    pub counts: runner::RunCounts,
    /// The plan as run (the indices of the tests and results refer to it).
    pub plan: Plan,
    /// The significance level of the tests.
    pub alpha: f64,
}

impl RunOutput {
    /// The paired tests as a table (as in `tables/tests.*`).
    pub fn tests_table(&self) -> Result<Table> {
        results::tests_table(&self.plan, &self.results.folds, &self.tests, self.alpha)
    }
}

impl Engine {
    /// The built-in learners, no analyses, and one thread per core.
    pub fn new() -> Self {
        Engine {
            learners: learners::Registry::builtin(),
            analyses: Analyses::none(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            limits: crate::bounds::Limits::default(),
        }
    }

    /// This engine with these analyses.
    pub fn with_analyses(mut self, analyses: Analyses) -> Self {
        self.analyses = analyses;
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
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config {}", path.display()))?;
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
        let at_origin = |error: Error| {
            let lines: Vec<String> = error
                .to_string()
                .lines()
                .map(|line| format!("{origin}: {line}"))
                .collect();
            Error::message(lines.join("\n"))
        };
        let config = config::parse(text, &self.analyses.known()).map_err(at_origin)?;
        let text = text.to_string();
        if self.analyses.is_standalone(&config) {
            return Ok(CheckedExperiment {
                config,
                text,
                plan: Plan::new(Vec::new(), Vec::new()),
            });
        }
        let catalog = Catalog::locate().ok();
        let (requests, learners, strategy) =
            plan::check_names(&config, catalog.as_ref(), &self.learners, base)
                .map_err(at_origin)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.max(1))
            .build()
            .context("cannot start the worker threads")?;
        let prepared: Vec<Result<plan::PreparedDataset>> = pool.install(|| {
            requests
                .par_iter()
                .map(|request| {
                    plan::prepare_dataset(
                        request,
                        catalog.as_ref(),
                        &strategy,
                        &config.measures,
                        config.seed,
                        &self.limits,
                    )
                })
                .collect()
        });
        let datasets = prepared
            .into_iter()
            .collect::<Result<Vec<_>>>()
            .map_err(at_origin)?;
        let units: u64 = datasets
            .iter()
            .map(|dataset| dataset.plan.splits.len() as u64 * learners.len() as u64)
            .sum();
        crate::bounds::check_units(units, &strategy, &self.limits).map_err(at_origin)?;
        let plan = Plan::new(datasets, learners);
        plan::check_capabilities(&plan).map_err(at_origin)?;
        crate::test_set::check(&config.tests, &plan).map_err(at_origin)?;
        for analysis in self.analyses.selected(&config, &plan) {
            analysis.check(&config, &plan).map_err(|problem| {
                Error::message(format!(
                    "{origin}: analysis '{}' cannot run on this experiment: {problem}",
                    analysis.name()
                ))
            })?;
        }
        Ok(CheckedExperiment { config, text, plan })
    }

    /// Runs a checked experiment and writes `results_root/<name>/`.
    pub fn run(&self, experiment: CheckedExperiment, results_root: &Path) -> Result<RunOutput> {
        run(
            experiment,
            &self.analyses,
            results_root,
            self.threads,
            Fitting::Compute,
        )
    }

    /// Runs one shard of a checked experiment: only its slice of the units (see
    /// [`crate::shard`]), into the cache of `results_root/<name>/`, and a record of what it did
    /// in `shards/<I>-of-<N>.toml` there. It writes no tables or report: [`Engine::merge`] does
    /// once every shard has run. Any number of shards may run at once on machines sharing the
    /// results folder.
    pub fn run_shard(
        &self,
        experiment: &CheckedExperiment,
        results_root: &Path,
        shard: Shard,
    ) -> Result<ShardOutput> {
        let started = Instant::now();
        let plan = &experiment.plan;
        let folder = results_root.join(&experiment.config.name);
        let assignment = Assignment::new(plan, &folder, shard.count);
        let units = assignment.units(plan, shard.index);
        let expected_cost = assignment.shard_cost(shard.index);
        eprintln!(
            "experiment '{}': shard {shard}: {} of its {} units, {:.0}% of the expected cost ({})",
            experiment.config.name,
            units.len(),
            plan.units.len(),
            100.0 * expected_cost / assignment.costs.iter().sum::<f64>().max(f64::MIN_POSITIVE),
            assignment.describe_source()
        );
        let (_, counts) = runner::run_units(
            &folder,
            plan,
            &units,
            Fitting::Compute,
            self.threads,
            |_, _| (),
        )?;
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
            experiment.config.name,
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

    /// Builds the tables, tests and report of a checked experiment from the cache of
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
        run(
            experiment,
            &self.analyses,
            results_root,
            self.threads,
            Fitting::CacheOnly { allow_missing },
        )
    }
}

/// The number of shards named by the most recently written shard record under the results
/// folder `folder` (`shards/<I>-of-<N>.toml`), if any.
pub fn recorded_shard_count(folder: &Path) -> Option<usize> {
    let entries = std::fs::read_dir(folder.join(SHARDS_FOLDER)).ok()?;
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let (_, count) = name.strip_suffix(".toml")?.split_once("-of-")?;
            let count: usize = count.parse().ok()?;
            let modified = entry.metadata().ok()?.modified().ok()?;
            Some((modified, count))
        })
        .max()
        .map(|(_, count)| count)
}

/// Runs a checked experiment with the given analyses on `threads` worker threads and writes
/// `results_root/<name>/`; `fitting` says whether missing units are computed or only read from
/// the cache (a merge).
fn run(
    experiment: CheckedExperiment,
    analyses: &Analyses,
    results_root: &Path,
    threads: usize,
    fitting: Fitting,
) -> Result<RunOutput> {
    let started = Instant::now();
    let config = &experiment.config;
    let plan = &experiment.plan;
    let target = results_root.join(&config.name);
    let cache = target.as_path();

    if analyses.is_standalone(config) {
        let staging = Staging::start(&target)?;
        let folder = staging.path.clone();
        report::write_file(&folder.join("config.toml"), &experiment.text)?;
        let results = RunResults::empty();
        let context = AnalysisContext {
            config,
            plan,
            results: &results,
            folder: &folder,
            cache,
        };
        let folder = finish(
            staging,
            &context,
            analyses,
            Vec::new(),
            0,
            runner::RunCounts::default(),
            started,
        )?;
        return Ok(RunOutput {
            folder,
            results,
            tests: Vec::new(),
            counts: runner::RunCounts::default(),
            plan: experiment.plan,
            alpha: config.alpha,
        });
    }
    eprintln!(
        "experiment '{}': {} datasets, {} learners, {} units{}",
        config.name,
        plan.datasets.len(),
        plan.learners.len(),
        plan.units.len(),
        match fitting {
            Fitting::Compute => "",
            Fitting::CacheOnly { .. } => ", merged from the cache",
        }
    );

    let measures = config.measures.clone();
    let (records, counts) = runner::run_units(
        cache,
        plan,
        &plan.units,
        fitting,
        threads,
        |spec, result| {
            let positive = spec.dataset.positive;
            let predictions = result
                .predictions
                .as_ref()
                .expect("summaries are made of successful units");
            let (truth, probabilities) = predictions.part(Part::Test);
            let test = crate::measures::measure_values(&measures, &probabilities, &truth, positive);
            let validation = predictions.has_part(Part::Validation).then(|| {
                let (truth, probabilities) = predictions.part(Part::Validation);
                crate::measures::measure_values(&measures, &probabilities, &truth, positive)
            });
            UnitMeasures { test, validation }
        },
    )?;
    let missing = missing_units(cache, plan, &records);
    if let Fitting::CacheOnly {
        allow_missing: false,
    } = fitting
    {
        if !missing.is_empty() {
            return Err(Error::message(format!(
                "experiment '{}': cannot merge: {}. Run those shards again (rerunning \
                 `experiments slurm` resubmits just them), or give --merge --allow-missing to \
                 report on what is there",
                config.name,
                describe_missing(plan, &missing)
            )));
        }
    }
    eprintln!(
        "units: {} computed, {} reused from the cache, {} failed{} ({:.1}s so far)",
        counts.computed,
        counts.reused,
        counts.failed,
        if counts.missing > 0 {
            format!(", {} missing", counts.missing)
        } else {
            String::new()
        },
        started.elapsed().as_secs_f64()
    );
    let staging = Staging::start(&target)?;
    let folder = staging.path.clone();
    report::write_file(&folder.join("config.toml"), &experiment.text)?;
    for dataset in &plan.datasets {
        let json = serde_json::to_string(&dataset.plan).context("cannot write the splits")?;
        report::write_file(
            &folder
                .join("splits")
                .join(format!("{}.json", crate::cache::file_safe(&dataset.name))),
            &json,
        )?;
    }
    write_units_table(&folder, cache, plan, &records)?;
    let results = RunResults::new(plan, &measures, records)?;
    report::write_file(&folder.join("per_fold.csv"), &results.to_csv(plan))?;
    report::write_bytes(&folder.join("per_fold.parquet"), &results.to_parquet()?)?;
    let folds = &results.folds;

    // The missing units and the failures come first; the analyses' opening sections follow.
    let mut sections = Vec::new();
    if !missing.is_empty() {
        sections.push(missing_section(&folder, plan, &missing)?);
    }
    if let Some(section) = failures_section(&folder, plan, folds)? {
        sections.push(section);
    }
    let opening_at = sections.len();
    sections.push(datasets_section(&folder, plan)?);
    let summary = results::summary_table(plan, folds);
    write_table(&folder.join("tables"), "summary", &summary)?;
    let tests = results::paired_tests(plan, folds, &config.tests, &config.test_options(None));
    let tests_table = results::tests_table(plan, folds, &tests, config.alpha)?;
    write_table(&folder.join("tables"), "tests", &tests_table)?;
    let test_set_records =
        crate::test_set::test_set_tests(plan, cache, &config.tests, config.alpha, threads)?;
    let test_set_table = (!test_set_records.is_empty())
        .then(|| crate::test_set::test_set_table(plan, &test_set_records, config.alpha))
        .transpose()?;
    if let Some(table) = &test_set_table {
        write_table(&folder.join("tables"), "test_set_tests", table)?;
    }
    // Long tables are linked (CSV and Markdown) rather than shown on the page.
    let mut links = Vec::new();
    let mut tables = vec![summary];
    for (table, file) in std::iter::once((tests_table, "tests"))
        .chain(test_set_table.map(|table| (table, "test_set_tests")))
    {
        if table.rows.len() > LONGEST_TABLE_ON_PAGE {
            links.push((
                format!("tables/{file}.csv"),
                format!("{} (CSV)", table.title),
            ));
            links.push((
                format!("tables/{file}.md"),
                format!("{} (Markdown)", table.title),
            ));
        } else {
            tables.push(table);
        }
    }
    sections.push(Section {
        title: "Results per dataset".into(),
        reading: format!(
            "Mean and standard deviation of each measure over the {} splits of each dataset, \
             and the paired tests between every two learners at alpha = {}.",
            {
                let mut counts: Vec<usize> =
                    plan.datasets.iter().map(|d| d.plan.splits.len()).collect();
                counts.dedup();
                counts
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join("/")
            },
            config.alpha
        ),
        links,
        tables,
        figures: Vec::new(),
    });
    let context = AnalysisContext {
        config,
        plan,
        results: &results,
        folder: &folder,
        cache,
    };
    sections.push(crate::figures::section(&context)?);
    let folder = finish(
        staging, &context, analyses, sections, opening_at, counts, started,
    )?;
    Ok(RunOutput {
        folder,
        results,
        tests,
        counts,
        alpha: config.alpha,
        plan: experiment.plan,
    })
}

/// The end of a run: the analyses' opening sections inserted into `sections` at `opening_at`
/// (after the failures, before the per-dataset tables), their other sections at the end, the
/// HTML page, and the outputs moved into place; returns the results folder.
fn finish(
    staging: Staging,
    context: &AnalysisContext,
    analyses: &Analyses,
    mut sections: Vec<Section>,
    opening_at: usize,
    counts: runner::RunCounts,
    started: Instant,
) -> Result<PathBuf> {
    let mut opening = Vec::new();
    for analysis in analyses.selected(context.config, context.plan) {
        let mut own = analysis.sections(context)?;
        let rest = own.split_off(analysis.opening_sections().min(own.len()));
        opening.extend(own);
        sections.extend(rest);
    }
    sections.splice(opening_at..opening_at, opening);
    write_html(context.folder, context.config, &sections, counts)?;
    let folder = staging.publish()?;
    eprintln!(
        "done in {:.1}s: {}",
        started.elapsed().as_secs_f64(),
        folder.join("index.html").display()
    );
    Ok(folder)
}

/// The outputs of a run being written: a hidden folder inside the results folder, whose
/// entries replace the previous run's when the run has finished, so that the folder never
/// holds a mix of two runs' tables. The cache (`predictions/`) stays where it is.
struct Staging {
    /// The results folder.
    target: PathBuf,
    /// The hidden folder the outputs are written to.
    path: PathBuf,
}

/// The prefix of a staging folder's name (leftovers of a killed run are removed).
const STAGING_PREFIX: &str = ".staging-";

impl Staging {
    /// Creates the results folder if needed, removes staging folders left by killed runs, and
    /// makes a new one.
    fn start(target: &Path) -> Result<Staging> {
        std::fs::create_dir_all(target)
            .with_context(|| format!("cannot create the results folder {}", target.display()))?;
        let entries = std::fs::read_dir(target)
            .with_context(|| format!("cannot read the results folder {}", target.display()))?;
        for entry in entries.flatten() {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(STAGING_PREFIX)
            {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        let path = target.join(format!("{STAGING_PREFIX}{}", std::process::id()));
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Staging {
            target: target.to_path_buf(),
            path,
        })
    }

    /// Moves every output into the results folder, replacing the previous run's entry of the
    /// same name (file or folder) and removing the previous run's outputs this run did not
    /// write (the cache excepted); returns the results folder.
    fn publish(self) -> Result<PathBuf> {
        let written: Vec<std::ffi::OsString> = std::fs::read_dir(&self.path)
            .with_context(|| format!("cannot read {}", self.path.display()))?
            .flatten()
            .map(|entry| entry.file_name())
            .collect();
        let previous = std::fs::read_dir(&self.target)
            .with_context(|| format!("cannot read {}", self.target.display()))?;
        for entry in previous.flatten() {
            let name = entry.file_name();
            let text = name.to_string_lossy();
            if KEPT_FOLDERS.contains(&text.as_ref())
                || text.starts_with(STAGING_PREFIX)
                || written.contains(&name)
            {
                continue;
            }
            remove_entry(&entry.path())?;
        }
        for name in &written {
            let destination = self.target.join(name);
            if destination.exists() {
                remove_entry(&destination)?;
            }
            std::fs::rename(self.path.join(name), &destination)
                .with_context(|| format!("cannot move the new {}", destination.display()))?;
        }
        std::fs::remove_dir(&self.path)
            .with_context(|| format!("cannot remove {}", self.path.display()))?;
        Ok(self.target)
    }
}

/// Removes a file or a folder with its contents.
fn remove_entry(path: &Path) -> Result<()> {
    let removed = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    removed.with_context(|| format!("cannot remove the previous {}", path.display()))
}

/// units.csv: every unit's status, time and cache file (failed units with their message).
fn write_units_table(
    folder: &Path,
    cache: &Path,
    plan: &Plan,
    records: &[runner::UnitRecord<UnitMeasures>],
) -> Result<()> {
    let mut text = String::from(
        "dataset,learner,repetition,fold,status,fit_seconds,predict_seconds,predictions,message\n",
    );
    for (unit, record) in plan.units.iter().zip(records) {
        let dataset = &plan.datasets[unit.dataset];
        let split = &dataset.plan.splits[unit.split];
        let (status, message) = match &record.status {
            runner::Status::Computed => ("computed", ""),
            runner::Status::Reused => ("reused", ""),
            runner::Status::Repaired(why) => ("repaired", why.as_str()),
            runner::Status::Failed(message) => ("failed", message.as_str()),
            runner::Status::Missing(why) => ("missing", why.as_str()),
        };
        let relative = record.path.strip_prefix(cache).unwrap_or(&record.path);
        text.push_str(&format!(
            "{},{},{},{},{status},{:.4},{:.4},{},{}\n",
            report::table::quote_csv(&dataset.name),
            report::table::quote_csv(&plan.learners[unit.learner].name),
            split.repetition,
            split.fold,
            record.fit_seconds,
            record.predict_seconds,
            report::table::quote_csv(&relative.to_string_lossy()),
            report::table::quote_csv(message)
        ));
    }
    report::write_file(&folder.join("units.csv"), &text)?;
    Ok(())
}

/// The units a merge did not find in the cache, each with the shard it belongs to when the
/// shard records say how many shards ran.
struct MissingUnits {
    /// The units, in plan order.
    units: Vec<plan::Unit>,
    /// The shard of each unit, and the number of shards, when known.
    shards: Option<(Vec<usize>, usize)>,
}

impl MissingUnits {
    fn is_empty(&self) -> bool {
        self.units.is_empty()
    }
}

/// The units whose records say they are missing, with their shards (from the assignment the
/// most recent shard records under `folder` were made with).
fn missing_units<T>(folder: &Path, plan: &Plan, records: &[runner::UnitRecord<T>]) -> MissingUnits {
    let positions: Vec<usize> = records
        .iter()
        .enumerate()
        .filter(|(_, record)| matches!(record.status, runner::Status::Missing(_)))
        .map(|(position, _)| position)
        .collect();
    let shards = if positions.is_empty() {
        None
    } else {
        recorded_shard_count(folder).map(|count| {
            let assignment = Assignment::new(plan, folder, count);
            let shard_of = positions
                .iter()
                .map(|&position| assignment.shard_of[position])
                .collect();
            (shard_of, count)
        })
    };
    MissingUnits {
        units: positions
            .iter()
            .map(|&position| plan.units[position])
            .collect(),
        shards,
    }
}

/// A unit in words: dataset / learner / repetition and fold.
fn unit_words(plan: &Plan, unit: plan::Unit) -> String {
    let dataset = &plan.datasets[unit.dataset];
    let split = &dataset.plan.splits[unit.split];
    format!(
        "{} / {} / repetition {} fold {}",
        dataset.name, plan.learners[unit.learner].name, split.repetition, split.fold
    )
}

/// How many units are missing and which shards they belong to (a few named each).
fn describe_missing(plan: &Plan, missing: &MissingUnits) -> String {
    const NAMED: usize = 3;
    let listed = |units: &[plan::Unit]| {
        let mut words: Vec<String> = units
            .iter()
            .take(NAMED)
            .map(|&unit| unit_words(plan, unit))
            .collect();
        if units.len() > NAMED {
            words.push(format!("and {} more", units.len() - NAMED));
        }
        words.join(", ")
    };
    let head = format!(
        "{} of {} units are not in the cache",
        missing.units.len(),
        plan.units.len()
    );
    match &missing.shards {
        Some((shard_of, count)) => {
            let mut shards: Vec<usize> = shard_of.clone();
            shards.sort_unstable();
            shards.dedup();
            let parts: Vec<String> = shards
                .iter()
                .map(|&shard| {
                    let units: Vec<plan::Unit> = missing
                        .units
                        .iter()
                        .zip(shard_of)
                        .filter(|(_, &of)| of == shard)
                        .map(|(&unit, _)| unit)
                        .collect();
                    format!(
                        "shard {shard}/{count}: {} units ({})",
                        units.len(),
                        listed(&units)
                    )
                })
                .collect();
            format!("{head}, of {} shards: {}", shards.len(), parts.join("; "))
        }
        None => format!(
            "{head} ({}; no shard records in {SHARDS_FOLDER}/ say how many shards ran)",
            listed(&missing.units)
        ),
    }
}

/// The report's section on units a merge with --allow-missing did not find, per learner and
/// dataset with their shards (`tables/missing.*`).
fn missing_section(folder: &Path, plan: &Plan, missing: &MissingUnits) -> Result<Section> {
    let header = ["learner", "dataset", "missing units", "of", "shards"]
        .map(String::from)
        .to_vec();
    let mut table = Table::new("Missing units", header);
    let mut pairs: Vec<(usize, usize)> = missing
        .units
        .iter()
        .map(|unit| (unit.learner, unit.dataset))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    for (learner, dataset) in pairs {
        let positions: Vec<usize> = (0..missing.units.len())
            .filter(|&position| {
                let unit = missing.units[position];
                unit.learner == learner && unit.dataset == dataset
            })
            .collect();
        let shards = match &missing.shards {
            Some((shard_of, count)) => {
                let mut shards: Vec<usize> = positions.iter().map(|&p| shard_of[p]).collect();
                shards.sort_unstable();
                shards.dedup();
                let shards: Vec<String> = shards.iter().map(|s| format!("{s}/{count}")).collect();
                shards.join(", ")
            }
            None => "unknown".to_string(),
        };
        table.push_row(vec![
            report::Cell::text(&plan.learners[learner].name),
            report::Cell::text(&plan.datasets[dataset].name),
            report::Cell::integer(positions.len() as i64),
            report::Cell::integer(plan.datasets[dataset].plan.splits.len() as i64),
            report::Cell::text(shards),
        ]);
    }
    write_table(&folder.join("tables"), "missing", &table)?;
    Ok(Section {
        title: "Missing units".into(),
        reading: format!(
            "This report was merged with --allow-missing: {} of {} units were not in the \
             cache, and every table below leaves them out. Run their shards and merge again \
             for the full report.",
            missing.units.len(),
            plan.units.len()
        ),
        tables: vec![table],
        figures: Vec::new(),
        links: Vec::new(),
    })
}

/// Failed units per learner and dataset, with the first message of each, when any failed.
fn failures_section(
    folder: &Path,
    plan: &Plan,
    folds: &results::FoldTable,
) -> Result<Option<Section>> {
    if folds.failures.is_empty() {
        return Ok(None);
    }
    let header = ["learner", "dataset", "failed units", "of", "first message"]
        .map(String::from)
        .to_vec();
    let mut table = Table::new("Failed units", header);
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for (dataset, learner, _, message) in &folds.failures {
        if seen.contains(&(*learner, *dataset)) {
            continue;
        }
        seen.push((*learner, *dataset));
        let count = folds
            .failures
            .iter()
            .filter(|(d, l, _, _)| d == dataset && l == learner)
            .count();
        table.push_row(vec![
            report::Cell::text(&plan.learners[*learner].name),
            report::Cell::text(&plan.datasets[*dataset].name),
            report::Cell::integer(count as i64),
            report::Cell::integer(plan.datasets[*dataset].plan.splits.len() as i64),
            report::Cell::text(message),
        ]);
    }
    write_table(&folder.join("tables"), "failures", &table)?;
    Ok(Some(Section {
        title: "Failed units".into(),
        reading: format!(
            "{} units failed; their results are missing from every table below (units.csv has \
             every message). Failed units are tried again on the next run.",
            folds.failures.len()
        ),
        tables: vec![table],
        figures: Vec::new(),
        links: Vec::new(),
    }))
}

/// The table of datasets as run: sizes, classes and what each transform did.
fn datasets_section(folder: &Path, plan: &Plan) -> Result<Section> {
    let header = [
        "dataset",
        "instances",
        "attributes",
        "classes",
        "splits",
        "transforms",
    ]
    .map(String::from)
    .to_vec();
    let mut table = Table::new("Datasets as run", header);
    for dataset in &plan.datasets {
        let classes: Vec<String> = dataset
            .dataset
            .schema()
            .class_values
            .iter()
            .zip(dataset.dataset.class_counts())
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        table.push_row(vec![
            report::Cell::text(&dataset.name),
            report::Cell::integer(dataset.dataset.len() as i64),
            report::Cell::integer(dataset.dataset.schema().num_attributes() as i64),
            report::Cell::text(classes.join(", ")),
            report::Cell::integer(dataset.plan.splits.len() as i64),
            report::Cell::text(if dataset.notes.is_empty() {
                "none".to_string()
            } else {
                dataset.notes.join("; ")
            }),
        ]);
    }
    write_table(&folder.join("tables"), "datasets", &table)?;
    Ok(Section {
        title: "Datasets".into(),
        reading: "Each dataset after its transforms, with its class counts and number of splits."
            .into(),
        tables: vec![table],
        figures: Vec::new(),
        links: Vec::new(),
    })
}

/// index.html: every section's tables and figures (inlined), the config and the version.
fn write_html(
    folder: &Path,
    config: &ExperimentConfig,
    sections: &[Section],
    counts: runner::RunCounts,
) -> Result<()> {
    let mut page = HtmlPage::new(format!("Experiment '{}'", config.name));
    page.paragraph(&format!(
        "Written by experiments {} ({} units computed, {} reused from the cache, {} failed{}). \
         Seed {}.",
        env!("CARGO_PKG_VERSION"),
        counts.computed,
        counts.reused,
        counts.failed,
        if counts.missing > 0 {
            format!(", {} missing: merged with --allow-missing", counts.missing)
        } else {
            String::new()
        },
        config.seed
    ));
    for section in sections {
        page.heading(&section.title);
        if !section.reading.is_empty() {
            page.paragraph(&section.reading);
        }
        for table in &section.tables {
            page.table(table)?;
        }
        for (file, text) in &section.links {
            page.link(file, text);
        }
        for (file, caption) in &section.figures {
            let svg = std::fs::read_to_string(folder.join(file))
                .with_context(|| format!("cannot read figure {file}"))?;
            page.inline_svg(&svg, caption);
        }
    }
    page.heading("Config as run");
    let config_text = std::fs::read_to_string(folder.join("config.toml"))
        .with_context(|| format!("cannot read {}", folder.join("config.toml").display()))?;
    page.preformatted(&config_text);
    report::write_file(&folder.join("index.html"), &page.render())?;
    Ok(())
}
