//! Runs one experiment end to end: check the config, prepare the datasets and splits, run the
//! units (reusing cached ones), compute measures and tests, run the analyses, and write the
//! results folder with its report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use data::catalog::Catalog;
use rayon::prelude::*;
use report::{HtmlPage, Table, TableFormat};

use crate::config::{self, Analysis, ExperimentConfig};
use crate::plan::{self, Plan};
use crate::results::{self, FoldTable};
use crate::runner;
pub use crate::section::Section;

/// Tables with more rows than this are linked from the HTML page rather than shown.
const LONGEST_TABLE_ON_PAGE: usize = 120;

/// How to run: where results go and on how many threads.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The folder under which `<experiment name>/` is written.
    pub results_root: PathBuf,
    /// Worker threads (results do not depend on it).
    pub threads: usize,
}

/// Writes a table as Markdown, CSV and LaTeX under `folder/stem.{md,csv,tex}`.
pub fn write_table(folder: &Path, stem: &str, table: &Table) -> Result<()> {
    for format in [TableFormat::Markdown, TableFormat::Csv, TableFormat::Latex] {
        let path = folder.join(format!("{stem}.{}", format.extension()));
        report::write_file(&path, &table.render(format)?)?;
    }
    Ok(())
}

/// The experiment loaded and checked, before anything heavy is done.
pub struct CheckedExperiment {
    /// The config as parsed.
    pub config: ExperimentConfig,
    /// The config file's text, saved with the results.
    pub text: String,
    /// The catalog of shipped datasets, if found.
    pub catalog: Option<Catalog>,
    /// The datasets to prepare.
    pub requests: Vec<plan::DatasetRequest>,
    /// The learners.
    pub learners: Vec<plan::ConfiguredLearner>,
    /// The resampling protocol (none for an experiment that needs no data).
    pub strategy: Option<cv::Strategy>,
}

/// Loads a config and checks every name in it without loading data (fast).
pub fn check(path: &Path) -> Result<CheckedExperiment> {
    let config = config::load(path)?;
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config {}", path.display()))?;
    let catalog = Catalog::locate().ok();
    let (requests, learners, strategy) = if config.is_standalone() {
        (Vec::new(), Vec::new(), None)
    } else {
        let (requests, learners, strategy) = plan::check_names(&config, catalog.as_ref())
            .map_err(|error| anyhow::anyhow!("{}: {error:#}", path.display()))?;
        (requests, learners, Some(strategy))
    };
    Ok(CheckedExperiment {
        config,
        text,
        catalog,
        requests,
        learners,
        strategy,
    })
}

/// Runs a checked experiment and writes `results_root/<name>/`.
pub fn run(experiment: CheckedExperiment, options: &RunOptions) -> Result<PathBuf> {
    let started = Instant::now();
    let config = &experiment.config;
    let folder = options.results_root.join(&config.name);
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("cannot create the results folder {}", folder.display()))?;
    report::write_file(&folder.join("config.toml"), &experiment.text)?;

    if config.is_standalone() {
        let mut sections = Vec::new();
        for analysis in &config.analyses {
            if *analysis == Analysis::HuangLing {
                sections.push(huang_ling_section(&folder)?);
            }
        }
        write_html(&folder, config, &sections, runner::RunCounts::default())?;
        eprintln!(
            "done in {:.1}s: {}",
            started.elapsed().as_secs_f64(),
            folder.join("index.html").display()
        );
        return Ok(folder);
    }
    let strategy = experiment
        .strategy
        .clone()
        .context("an experiment with datasets has a protocol")?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .context("cannot start the worker threads")?;
    eprintln!(
        "experiment '{}': preparing {} datasets",
        config.name,
        experiment.requests.len()
    );
    let prepared: Vec<Result<plan::PreparedDataset>> = pool.install(|| {
        experiment
            .requests
            .par_iter()
            .map(|request| {
                plan::prepare_dataset(
                    request,
                    experiment.catalog.as_ref(),
                    &strategy,
                    &config.measures,
                    config.seed,
                )
            })
            .collect()
    });
    let datasets = prepared.into_iter().collect::<Result<Vec<_>>>()?;
    for dataset in &datasets {
        let json = serde_json::to_string(&dataset.plan)?;
        report::write_file(
            &folder
                .join("splits")
                .join(format!("{}.json", runner::file_safe(&dataset.name))),
            &json,
        )?;
    }
    let plan = Plan::new(datasets, experiment.learners);
    eprintln!(
        "{} datasets ready in {:.1}s; {} units ({} learners)",
        plan.datasets.len(),
        started.elapsed().as_secs_f64(),
        plan.units.len(),
        plan.learners.len()
    );

    let measures = config.measures.clone();
    let (records, counts) =
        runner::run_all(&folder, &plan, options.threads, |unit, probabilities| {
            let dataset = &plan.datasets[unit.dataset];
            let split = &dataset.plan.splits[unit.split];
            let truth: Vec<usize> = split
                .test
                .iter()
                .map(|&row| dataset.dataset.class(row))
                .collect();
            let test_part = runner::part_of(probabilities, truth.len(), false);
            let test =
                crate::measures::measure_values(&measures, &test_part, &truth, dataset.positive);
            let validation = split.validation.as_ref().map(|rows| {
                let truth: Vec<usize> =
                    rows.iter().map(|&row| dataset.dataset.class(row)).collect();
                let part = runner::part_of(probabilities, split.test.len(), true);
                crate::measures::measure_values(&measures, &part, &truth, dataset.positive)
            });
            crate::measures::UnitMeasures { test, validation }
        })?;
    eprintln!(
        "units: {} computed, {} reused from the cache, {} failed ({:.1}s so far)",
        counts.computed,
        counts.reused,
        counts.failed,
        started.elapsed().as_secs_f64()
    );
    write_units_table(&folder, &plan, &records)?;
    let folds = FoldTable::new(&plan, &measures, records);
    report::write_file(&folder.join("per_fold.csv"), &folds.to_csv(&plan))?;
    report::write_bytes(&folder.join("per_fold.parquet"), &folds.to_parquet(&plan)?)?;

    let mut sections = Vec::new();
    sections.push(datasets_section(&folder, &plan)?);
    let summary = results::summary_table(&plan, &folds);
    write_table(&folder.join("tables"), "summary", &summary)?;
    let tests = results::paired_tests(&plan, &folds, &config.tests, config.alpha);
    let tests_table = results::tests_table(&plan, &folds, &tests, config.alpha)?;
    write_table(&folder.join("tables"), "tests", &tests_table)?;
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
        links: if tests_table.rows.len() > LONGEST_TABLE_ON_PAGE {
            vec![
                (
                    "tables/tests.csv".into(),
                    format!("{} (CSV)", tests_table.title),
                ),
                (
                    "tables/tests.md".into(),
                    format!("{} (Markdown)", tests_table.title),
                ),
            ]
        } else {
            Vec::new()
        },
        tables: if tests_table.rows.len() > LONGEST_TABLE_ON_PAGE {
            vec![summary]
        } else {
            vec![summary, tests_table]
        },
        figures: Vec::new(),
    });
    for analysis in &config.analyses {
        match analysis {
            Analysis::AslanAgreement => sections.extend(crate::aslan::sections(
                &folder,
                &plan,
                &folds,
                config.alpha,
            )?),
            Analysis::AslanIntervals => sections.extend(crate::aslan::interval_sections(
                &folder,
                &plan,
                &folds,
                &config.interval_figures,
                config.alpha,
            )?),
            Analysis::ProvostRoc => {
                sections.extend(crate::provost::sections(&folder, &plan, config.alpha)?)
            }
            Analysis::WuFlachSelection => sections.extend(crate::wu_flach::sections(
                &folder,
                &plan,
                &folds,
                config.alpha,
            )?),
            Analysis::HuangLing => sections.push(huang_ling_section(&folder)?),
        }
    }
    write_html(&folder, config, &sections, counts)?;
    eprintln!(
        "done in {:.1}s: {}",
        started.elapsed().as_secs_f64(),
        folder.join("index.html").display()
    );
    Ok(folder)
}

/// The Huang & Ling section (written by its own module).
fn huang_ling_section(folder: &Path) -> Result<Section> {
    let mut section = crate::huang_ling_report::write_report(&folder.join("huang_ling"))?;
    for (file, _) in &mut section.figures {
        *file = format!("huang_ling/{file}");
    }
    Ok(section)
}

/// units.csv: every unit's status, time and cache file (failed units with their message).
fn write_units_table(
    folder: &Path,
    plan: &Plan,
    records: &[runner::UnitRecord<crate::measures::UnitMeasures>],
) -> Result<()> {
    let mut text =
        String::from("dataset,learner,repetition,fold,status,seconds,predictions,message\n");
    for (unit, record) in plan.units.iter().zip(records) {
        let dataset = &plan.datasets[unit.dataset];
        let split = &dataset.plan.splits[unit.split];
        let (status, message) = match &record.status {
            runner::Status::Computed => ("computed", ""),
            runner::Status::Reused => ("reused", ""),
            runner::Status::Failed(message) => ("failed", message.as_str()),
        };
        let relative = record.path.strip_prefix(folder).unwrap_or(&record.path);
        text.push_str(&format!(
            "{},{},{},{},{status},{:.4},{},{}\n",
            report::table::quote_csv(&dataset.name),
            report::table::quote_csv(&plan.learners[unit.learner].name),
            split.repetition,
            split.fold,
            record.seconds,
            report::table::quote_csv(&relative.to_string_lossy()),
            report::table::quote_csv(message)
        ));
    }
    report::write_file(&folder.join("units.csv"), &text)?;
    Ok(())
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
        "Written by experiments {} ({} units computed, {} reused from the cache, {} failed). \
         Seed {}.",
        env!("CARGO_PKG_VERSION"),
        counts.computed,
        counts.reused,
        counts.failed,
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
    page.preformatted(&std::fs::read_to_string(folder.join("config.toml"))?);
    report::write_file(&folder.join("index.html"), &page.render())?;
    Ok(())
}
