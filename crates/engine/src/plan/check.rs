//! Check a config and prepare its plan: everything that can fail before a fit. Names, keys and
//! ranges first (fast, every problem reported), then the datasets are loaded, transformed and
//! split on the worker threads, every learner is checked against every dataset, and every
//! selected test and analysis against the plan. The plan also gets the whole-training units the
//! tests on the test set and the analyses ask for.

use std::path::Path;

use data::catalog::Catalog;
use rayon::prelude::*;

use crate::config::experiment::{self as config, DatasetEntry, ExperimentConfig, KnownAnalysis};
use crate::error::{Error, Result};
use crate::plan::bounds::Limits;
use crate::plan::huge_integers;
use crate::plan::registries::{Evaluation, Registries};
use crate::plan::tuning::{TunedLearner, TuningSettings};
use crate::plan::tuning_plan as tuning;
use crate::plan::units::{self as plan, display_name, ConfiguredLearner, DatasetRequest, Plan};

/// What the check asks of the analyses a program knows: the plan stage knows them through this
/// alone (the engine's [`crate::report::analysis::Analyses`] implements it).
pub trait AnalysisNeeds: Sync {
    /// The names, data needs and options of every known analysis, for the config check.
    fn known(&self) -> Vec<KnownAnalysis>;

    /// True when a config names analyses and none of them needs data.
    fn is_standalone(&self, config: &ExperimentConfig) -> bool;

    /// Checks, before any fit, each analysis the config selects against the plan, and gives
    /// the (dataset, learner) pairs whose whole-training models they read, in their order; the
    /// error is the first analysis that cannot run and why.
    fn needs(
        &self,
        config: &ExperimentConfig,
        plan: &Plan,
    ) -> std::result::Result<Vec<(usize, usize)>, (&'static str, String)>;
}

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
    /// The analyses, as far as the check needs them.
    pub analyses: &'a dyn AnalysisNeeds,
    /// Worker threads.
    pub threads: usize,
    /// The largest plan accepted.
    pub limits: &'a Limits,
    /// The folder under which the results folder is written, if known: the slow transforms'
    /// results are kept in its cache ([`crate::plan::transform_cache`]).
    pub results_root: Option<&'a Path>,
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
        let config = config::parse(text, &self.analyses.known())
            .map_err(|error| at_origin(self.explain_huge_integer(error, text, base)))?;
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
        crate::plan::summary_check::check(&config, &plan).map_err(at_origin)?;
        crate::plan::test_set_needs::check(&plan.test_set_tests, &plan).map_err(at_origin)?;
        crate::plan::stopping::resolve(&config, &plan).map_err(at_origin)?;
        let analysed = self
            .analyses
            .needs(&config, &plan)
            .map_err(|(name, problem)| {
                Error::config(format!(
                    "analysis '{name}' cannot run on this experiment: {problem}"
                ))
                .in_config(origin)
            })?;
        let mut wanted = crate::plan::test_set_needs::needed_models(&plan.test_set_tests, &plan);
        wanted.extend(analysed);
        plan.add_whole_training(wanted);
        tuning::attach_whole_training(&mut plan, config.seed).map_err(at_origin)?;
        Ok(CheckedExperiment { config, text, plan })
    }

    /// `error`, or, when it is TOML's refusal of a whole number beyond its integers, what the
    /// key allows (its own check of the number at the other end of TOML's range says it).
    fn explain_huge_integer(&self, error: Error, text: &str, base: Option<&Path>) -> Error {
        let Some(huge) = huge_integers::find(text) else {
            return error;
        };
        let known = self.analyses.known();
        let complaint = match config::parse(&huge.replaced, &known) {
            Err(error) => Some(error.to_string()),
            Ok(config) => {
                let names = check_names(
                    &config,
                    Catalog::locate().ok().as_ref(),
                    (self.learners, self.registries),
                    base,
                );
                names.err().map(|error| error.to_string())
            }
        };
        let allowed = complaint.and_then(|message| huge_integers::allowed_in(&message, &huge.key));
        Error::config(huge.message(allowed.as_deref()))
    }

    /// Checks the names of the config, then loads, transforms and splits its datasets on the
    /// worker threads, within the limits.
    fn prepare(&self, config: &ExperimentConfig, base: Option<&Path>) -> Result<Plan> {
        let catalog = Catalog::locate().ok();
        let (requests, learners, evaluation) = check_names(
            config,
            catalog.as_ref(),
            (self.learners, self.registries),
            base,
        )?;
        let protocol = evaluation.protocol.as_ref();
        let cache = self
            .results_root
            .map(|root| crate::plan::transform_cache::folder(&root.join(&config.name)));
        let pool = crate::threads::thread_pool(self.threads)?;
        // Said at once: loading large files or a transform's first run can take seconds.
        match requests.len() {
            0 => {}
            1 => eprintln!("preparing 1 dataset: loading, transforms, splits"),
            count => eprintln!("preparing {count} datasets: loading, transforms, splits"),
        }
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
                        cache.as_deref(),
                    )
                })
                .collect()
        });
        let datasets = prepared.into_iter().collect::<Result<Vec<_>>>()?;
        let copies = crate::plan::dataset_names::same_content(&datasets);
        if !copies.is_empty() {
            return Err(Error::config_problems(copies));
        }
        for line in crate::plan::notices::log_lines(&requests, &datasets) {
            eprintln!("{line}");
        }
        for (position, learner) in learners.iter().enumerate() {
            for dataset in &datasets {
                crate::plan::bounds::check_unit_cost(
                    position,
                    (&learner.name, learner.learner.as_ref(), &learner.table),
                    (
                        &dataset.name,
                        dataset.dataset.len(),
                        dataset.dataset.schema().num_attributes(),
                    ),
                )?;
            }
        }
        let units: u64 = datasets
            .iter()
            .map(|dataset| dataset.plan.splits.len() as u64 * learners.len() as u64)
            .sum();
        crate::plan::bounds::check_units(units, protocol, self.limits)?;
        let mut plan = Plan::new(datasets, learners);
        plan.measures = evaluation.measures;
        plan.fold_tests = evaluation.fold_tests;
        plan.test_set_tests = evaluation.test_set_tests;
        if let Some((settings, tuned)) = evaluation.tuning {
            tuning::attach(&mut plan, settings, tuned, config.seed)?;
        }
        Ok(plan)
    }
}

/// Checks every name of the config without loading data: datasets exist, learners are known
/// and their parameters valid, the measures, tests and protocol are in their registries with
/// valid options. Fast, so a typo fails at once; every problem found is reported, one per
/// line, not just the first. A dataset given as a relative path is looked for in `base` (the
/// config file's folder) first, then as given.
pub fn check_names(
    config: &ExperimentConfig,
    catalog: Option<&Catalog>,
    (learner_kinds, registries): (&learners::Registry, &Registries),
    base: Option<&std::path::Path>,
) -> Result<(Vec<DatasetRequest>, Vec<ConfiguredLearner>, Evaluation)> {
    let mut problems: Vec<String> = Vec::new();
    let protocol = config.protocol.clone().unwrap_or_default();
    let evaluation = registries.evaluation(
        &config.measures,
        &config.tests,
        &protocol,
        learner_kinds,
        &mut problems,
    );
    let requests = dataset_requests(config, catalog, base, &mut problems);
    // Learners that name files (a worker's program, a user's module) read them from the
    // config's folder first, as datasets do; worker learners take the config's unit time limit.
    let learner_kinds = learner_kinds
        .clone()
        .with_base_dir(base)
        .with_worker_timeout(config.worker_timeout_seconds);
    let mut learners = configure_learners(&config.learners, &learner_kinds, &mut problems);
    let mut tuning = tuned_learners(
        config,
        &learners,
        (&learner_kinds, registries),
        &mut problems,
    );
    check_learners_ready(&learners, config.learners.len(), &mut problems);
    if let Some((settings, tuned)) = &mut tuning {
        if settings.compare_default {
            add_defaults(&mut learners, tuned, &learner_kinds, &mut problems);
        }
    }
    match evaluation {
        Some(mut evaluation) if problems.is_empty() => {
            evaluation.tuning = tuning;
            Ok((requests, learners, evaluation))
        }
        _ => Err(Error::config_problems(problems)),
    }
}

/// The tuning settings and every tuned learner's candidates, when some learner has a `tune`
/// key (a `[tuning]` table alone is refused: it would tune nothing); each problem is added to
/// `problems`, naming the learner's entry.
fn tuned_learners(
    config: &ExperimentConfig,
    learners: &[ConfiguredLearner],
    (kinds, registries): (&learners::Registry, &Registries),
    problems: &mut Vec<String>,
) -> Option<(TuningSettings, Vec<Option<TunedLearner>>)> {
    if learners.iter().all(|learner| learner.tune.is_none()) {
        if config.tuning.is_some() {
            problems.push(
                "key 'tuning': no learner has a `tune` key (e.g. tune = { k = [1, 3, 5] }, or \
                 tune = \"declared\"): remove [tuning] or tune a learner"
                    .to_string(),
            );
        }
        return None;
    }
    let empty = toml::Table::new();
    let table = config.tuning.as_ref().unwrap_or(&empty);
    let settings = tuning::settings(Some(table), registries, kinds, problems)?;
    let tuned = learners
        .iter()
        .enumerate()
        .map(|(position, learner)| {
            let tune = learner.tune.as_ref()?;
            let seed = seeds::derive_seed(config.seed, &[TUNING_TAG, position as u64]);
            tuned_learner(learner, tune, (&settings, seed), kinds)
                .map_err(|problem| {
                    problems.push(format!("key 'learners' entry {}: {problem}", position + 1))
                })
                .ok()
        })
        .collect();
    Some((settings, tuned))
}

/// Adds each tuned learner's default configuration as an untuned learner of its own, named
/// `<name>_default`, after the config's learners (`compare_default = true`).
fn add_defaults(
    learners: &mut Vec<ConfiguredLearner>,
    tuned: &mut Vec<Option<TunedLearner>>,
    kinds: &learners::Registry,
    problems: &mut Vec<String>,
) {
    let defaults: Vec<(String, toml::Table)> = learners
        .iter()
        .zip(tuned.iter())
        .filter(|(_, tuned)| tuned.is_some())
        .map(|(learner, _)| (format!("{}_default", learner.name), learner.table.clone()))
        .collect();
    for (name, table) in defaults {
        if learners.iter().any(|other| other.name == name) {
            problems.push(format!(
                "key 'tuning': compare_default names the default of a tuned learner '{name}', a \
                 name another learner has: rename that learner"
            ));
            continue;
        }
        match kinds.build(&table) {
            Ok(learner) => {
                learners.push(ConfiguredLearner {
                    name,
                    table,
                    learner,
                    tune: None,
                });
                tuned.push(None);
            }
            Err(error) => problems.push(format!("key 'tuning': compare_default: {error}")),
        }
    }
}

/// The seed label of the candidates' sampling, apart from every other seed of a plan.
const TUNING_TAG: u64 = 0x6361_6e64; // "cand"

/// One tuned learner's candidates, or the problem with its `tune` key.
fn tuned_learner(
    learner: &ConfiguredLearner,
    tune: &toml::Value,
    (settings, seed): (&TuningSettings, u64),
    kinds: &learners::Registry,
) -> std::result::Result<TunedLearner, String> {
    let kind = learner
        .table
        .get("kind")
        .and_then(toml::Value::as_str)
        .unwrap_or_default();
    let spec = kinds
        .spec(kind)
        .ok_or_else(|| format!("'tune': learner kind '{kind}' is not registered"))?;
    let spaces = tuning::spaces(tune, spec)?;
    tuning::candidates(
        (&learner.name, &learner.table),
        &spaces,
        settings,
        seed,
        kinds,
    )
}

/// The config's dataset entries as requests, collections expanded, each with its display
/// name; each problem (a name found nowhere, a dataset listed twice alike) is added to
/// `problems`. A relative path is looked for in `base` (the config's folder), then in the
/// current folder; a missing one is named with every path tried and the closest shipped names.
fn dataset_requests(
    config: &ExperimentConfig,
    catalog: Option<&Catalog>,
    base: Option<&Path>,
    problems: &mut Vec<String>,
) -> Vec<DatasetRequest> {
    let folders = search_folders(base);
    let mut requests = Vec::new();
    for (position, entry) in config.datasets.iter().enumerate() {
        if let DatasetEntry::Detailed(detailed) = entry {
            if let Some(tasks) = unnamed_entry(config, (position + 1, detailed), base, problems) {
                requests.extend(tasks);
                continue;
            }
        }
        let (word, transforms, options, label) = entry_parts(config, entry);
        let word = relative_to(base, &word);
        let members = match catalog {
            Some(catalog) => catalog
                .expand_in(&word, &folders)
                .map_err(|error| error.to_string()),
            None => folders
                .iter()
                .map(|folder| folder.join(&word))
                .find(|path| path.is_file())
                .map(|path| vec![path.display().to_string()])
                .ok_or_else(|| {
                    format!(
                        "not a file (looked for {}), and no shipped catalog \
                         (datasets/catalog.toml) was found to look the name up",
                        tried(&folders, &word)
                    )
                }),
        };
        let members = members.and_then(|members| {
            declarations_for_files(&members, &options, catalog).map(|()| members)
        });
        match members {
            Ok(members) => requests.extend(members.into_iter().map(|source| DatasetRequest {
                name: label.clone().unwrap_or_else(|| display_name(&source)),
                labelled: label.is_some(),
                entry: position + 1,
                notes: Vec::new(),
                source,
                transforms: transforms.clone(),
                options: options.clone(),
                openml: None,
            })),
            Err(problem) => problems.push(format!(
                "key 'datasets' entry {} ('{}'): {problem}",
                position + 1,
                data::shown(&word)
            )),
        }
    }
    crate::plan::dataset_names::distinct_names(&mut requests, problems);
    requests
}

/// A named entry's name, transforms, reading options and label.
fn entry_parts(
    config: &ExperimentConfig,
    entry: &DatasetEntry,
) -> (
    String,
    config::Transforms,
    data::LoadOptions,
    Option<String>,
) {
    match entry {
        DatasetEntry::Name(name) => (
            name.clone(),
            config.transforms.clone(),
            data::LoadOptions::default(),
            None,
        ),
        DatasetEntry::Detailed(detailed) => (
            detailed.name.clone(),
            config.transforms.with(&detailed.transforms()),
            detailed.load_options(),
            detailed.label.clone(),
        ),
    }
}

/// The requests of a table entry without `name`: its OpenML tasks, or none with a problem
/// added; `None` for an entry with a name (a dataset, collection or file).
fn unnamed_entry(
    config: &ExperimentConfig,
    (entry, detailed): (usize, &config::DetailedDataset),
    base: Option<&Path>,
    problems: &mut Vec<String>,
) -> Option<Vec<DatasetRequest>> {
    if detailed.names_openml_tasks() {
        let transforms = config.transforms.with(&detailed.transforms());
        return Some(crate::plan::openml_requests::openml_requests(
            entry,
            detailed,
            &transforms,
            base,
            problems,
        ));
    }
    if !detailed.name.is_empty() {
        return None;
    }
    problems.push(format!(
        "key 'datasets' entry {entry}: give `name` (a shipped dataset, a collection or a file), \
         or openml_task / openml_cache for OpenML tasks"
    ));
    Some(Vec::new())
}

/// Refuses column settings (`nominal_columns`, `numeric_columns`, `missing_markers`,
/// `class_column`, `allow_numeric_class`) on a shipped dataset, whose reading the catalog declares: they would
/// be ignored.
fn declarations_for_files(
    members: &[String],
    options: &data::LoadOptions,
    catalog: Option<&Catalog>,
) -> std::result::Result<(), String> {
    let shipped: Vec<&str> = members
        .iter()
        .map(String::as_str)
        .filter(|member| !Path::new(member).is_file())
        .collect();
    if shipped.is_empty() || *options == data::LoadOptions::default() {
        return Ok(());
    }
    let file = catalog
        .and_then(|catalog| Some(catalog.path_of(catalog.entry(shipped[0])?)))
        .map_or_else(|| "its file".to_string(), |path| path.display().to_string());
    let what = match shipped.len() {
        1 => format!("'{}' is a shipped dataset", shipped[0]),
        count => format!(
            "these {count} are shipped datasets ({})",
            data::shown_list(&shipped, 3)
        ),
    };
    Err(format!(
        "nominal_columns, numeric_columns, missing_markers, class_column and \
         allow_numeric_class are for a file of your own, but {what}, read with the column types the catalog declares; to \
         read a shipped file otherwise, give its path (as {file}) instead"
    ))
}

/// The folders a relative dataset path is looked for in: the config's folder `base` (made
/// absolute), then the current folder.
fn search_folders(base: Option<&Path>) -> Vec<std::path::PathBuf> {
    let here = std::env::current_dir().unwrap_or_default();
    let mut folders: Vec<std::path::PathBuf> =
        base.map(|base| here.join(base)).into_iter().collect();
    if !folders.contains(&here) {
        folders.push(here);
    }
    folders
}

/// The paths `word` was looked for at in `folders`, for a message.
fn tried(folders: &[std::path::PathBuf], word: &str) -> String {
    let paths: Vec<String> = folders
        .iter()
        .map(|folder| folder.join(word).display().to_string())
        .collect();
    paths.join(", ")
}

/// A dataset entry's text: a relative path that names a file in `base` becomes that file's
/// path; anything else (a shipped name, an absolute path, a path from the current folder) is
/// kept.
fn relative_to(base: Option<&std::path::Path>, word: &str) -> String {
    let path = std::path::Path::new(word);
    match base {
        Some(base) if path.is_relative() && base.join(path).is_file() => {
            base.join(path).to_string_lossy().into_owned()
        }
        _ => word.to_string(),
    }
}

/// Builds the learners of the config, checking kinds, parameters and display names; each
/// problem is added to `problems` and that learner left out.
pub fn configure_learners(
    tables: &[toml::Table],
    registry: &learners::Registry,
    problems: &mut Vec<String>,
) -> Vec<ConfiguredLearner> {
    let mut learners: Vec<ConfiguredLearner> = Vec::new();
    for (position, table) in tables.iter().enumerate() {
        let mut table = table.clone();
        let tune = table.remove("tune");
        let name = match table.remove("name") {
            None => None,
            Some(toml::Value::String(name)) if !name.trim().is_empty() => Some(name),
            Some(other) => {
                problems.push(format!(
                    "key 'learners' entry {}: 'name' must be a non-empty string, got {other}",
                    position + 1
                ));
                continue;
            }
        };
        let learner = match registry.build(&table) {
            Ok(learner) => learner,
            Err(error) => {
                problems.push(format!("key 'learners' entry {}: {error}", position + 1));
                continue;
            }
        };
        let name = name.unwrap_or_else(|| learner.name().to_string());
        if learners.iter().any(|other| other.name == name) {
            problems.push(format!(
                "key 'learners' entry {}: the name '{name}' is already used; give each learner \
                 a distinct `name = \"...\"`",
                position + 1
            ));
            continue;
        }
        learners.push(ConfiguredLearner {
            name,
            table,
            learner,
            tune,
        });
    }
    learners
}

/// Asks every configured learner, in parallel, whether it can run at all
/// ([`learners::Learner::check_ready`]: a worker learner starts its first worker, kept for the
/// run, and completes its handshake), when all `entries` of the config were configured (so that
/// a learner's position is its entry). A learner that cannot run is a problem naming its entry,
/// its name and the learner's own message; what the others say goes to the log.
fn check_learners_ready(
    learners: &[ConfiguredLearner],
    entries: usize,
    problems: &mut Vec<String>,
) {
    if learners.len() != entries {
        return;
    }
    let answers: Vec<_> = std::thread::scope(|scope| {
        let asked: Vec<_> = learners
            .iter()
            .map(|learner| scope.spawn(|| learner.learner.check_ready()))
            .collect();
        asked.into_iter().map(|asked| asked.join()).collect()
    });
    for (position, (learner, answer)) in learners.iter().zip(answers).enumerate() {
        let problem = match answer {
            Ok(Ok(note)) => {
                if let Some(note) = note {
                    eprintln!("learner '{}': {note}", learner.name);
                }
                continue;
            }
            Ok(Err(error)) => format!("cannot run: {error}"),
            Err(panic) => format!(
                "panicked while checking that it can run: {}",
                learners::panic_message(&*panic)
            ),
        };
        problems.push(format!(
            "key 'learners' entry {} ('{}') {problem}",
            position + 1,
            learner.name
        ));
    }
}
