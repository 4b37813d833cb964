//! The one writer of a run's outputs: [`report`] writes the record (config, splits, units,
//! per-fold table) and every section's tables, figures and files into a hidden staging folder,
//! then the HTML page, and switches it in as the results folder in one step (see
//! [`crate::run::publish`]), so that the folder never holds a mix of two runs' outputs or half of
//! one. The cache (`predictions/`), the shard records and the cluster's files are kept.

use std::path::{Path, PathBuf};

use report::{HtmlPage, SummaryBlock, TableFormat};

use crate::error::{Error, Result};
use crate::record::run_record::RunRecord;
use crate::report::section::Section;
use crate::run::publish::Staging;
use crate::run::runner::{RunCounts, Status};

pub use crate::run::publish::SLURM_FOLDER;

/// Writes a run's results folder `target` from its record and its report's sections (in page
/// order), replacing the previous run's outputs whole; returns the folder.
pub fn report(record: &RunRecord, sections: &[Section], target: &Path) -> Result<PathBuf> {
    let staging = Staging::start(target)?;
    match write_all(record, sections, &staging.path) {
        Ok(()) => staging.publish(),
        Err(error) => {
            staging.abandon();
            Err(error)
        }
    }
}

/// Every output of the run into `folder`.
fn write_all(record: &RunRecord, sections: &[Section], folder: &Path) -> Result<()> {
    report::write_file(&folder.join("config.toml"), &record.text)?;
    if !record.without_data() {
        write_record(record, folder)?;
    }
    for section in sections {
        write_section(section, folder)?;
    }
    write_html(folder, record, sections)
}

/// The record's own files: the splits, units.csv and the per-fold table (CSV and Parquet).
fn write_record(record: &RunRecord, folder: &Path) -> Result<()> {
    for dataset in &record.plan.datasets {
        let stem = crate::plan::dataset_names::file_safe(&dataset.name);
        write_json(
            folder,
            &format!("{stem}.json"),
            &dataset.plan,
            &dataset.name,
        )?;
        if !dataset.inner_splits.is_empty() {
            let file = format!("{stem}.inner.json");
            write_json(folder, &file, &dataset.inner_splits, &dataset.name)?;
        }
    }
    write_units_table(folder, record)?;
    report::write_file(
        &folder.join("per_fold.csv"),
        &record.results.to_csv(&record.plan),
    )?;
    report::write_bytes(
        &folder.join("per_fold.parquet"),
        &record.results.to_parquet()?,
    )?;
    Ok(())
}

/// Writes `splits/<file>`: a dataset's splits (or, `.inner.json`, the tuning's inner splits of
/// each outer split, in the outer splits' order) as JSON.
fn write_json(
    folder: &Path,
    file: &str,
    splits: &impl serde::Serialize,
    dataset: &str,
) -> Result<()> {
    let json = serde_json::to_string(splits).map_err(|source| Error::Json {
        what: format!("the splits of '{dataset}'"),
        source,
    })?;
    report::write_file(&folder.join("splits").join(file), &json)?;
    Ok(())
}

/// A section's tables (Markdown, CSV and LaTeX under `tables/`), figures and other files.
fn write_section(section: &Section, folder: &Path) -> Result<()> {
    for table in &section.tables {
        if let Some(stem) = &table.file {
            write_table(&folder.join("tables"), stem, &table.table)?;
        }
    }
    for figure in &section.figures {
        report::write_file(&folder.join(&figure.file), &figure.svg)?;
    }
    for (file, text) in &section.files {
        report::write_file(&folder.join(file), text)?;
    }
    Ok(())
}

/// Writes a table as Markdown, CSV and LaTeX under `folder/stem.{md,csv,tex}`.
pub fn write_table(folder: &Path, stem: &str, table: &report::Table) -> Result<()> {
    for format in [TableFormat::Markdown, TableFormat::Csv, TableFormat::Latex] {
        let path = folder.join(format!("{stem}.{}", format.extension()));
        report::write_file(&path, &table.render(format)?)?;
    }
    Ok(())
}

/// units.csv: every unit's status, time and cache file (failed units with their message); a
/// whole-training unit has no repetition and the fold `whole training`.
fn write_units_table(folder: &Path, record: &RunRecord) -> Result<()> {
    let plan = &record.plan;
    let mut text = String::from(
        "dataset,learner,repetition,fold,status,fit_seconds,predict_seconds,predictions,message\n",
    );
    for (unit, unit_record) in plan.units.iter().zip(&record.units) {
        let dataset = &plan.datasets[unit.dataset];
        let (repetition, fold) = match unit.split() {
            Some(index) => {
                let split = &dataset.plan.splits[index];
                (split.repetition.to_string(), split.fold.to_string())
            }
            None => (String::new(), "whole training".to_string()),
        };
        let (status, message) = match &unit_record.status {
            Status::Computed => ("computed", ""),
            Status::Reused => ("reused", ""),
            Status::Repaired(why) => ("repaired", why.as_str()),
            Status::Failed(message) => ("failed", message.as_str()),
            Status::Missing(why) => ("missing", why.as_str()),
        };
        let path = &unit_record.path;
        let relative = path.strip_prefix(record.cache_folder()).unwrap_or(path);
        text.push_str(&format!(
            "{},{},{repetition},{fold},{status},{:.4},{:.4},{},{}\n",
            report::table::quote_csv(&dataset.name),
            report::table::quote_csv(&plan.learners[unit.learner].name),
            unit_record.fit_seconds,
            unit_record.predict_seconds,
            report::table::quote_csv(&relative.to_string_lossy()),
            report::table::quote_csv(message)
        ));
    }
    report::write_file(&folder.join("units.csv"), &text)?;
    Ok(())
}

/// The first line of the page: the version, what the runner did, and the seed, or that no
/// random number is drawn (`seed` is `None`: a plan with no datasets has no splits, samples or
/// fits to seed).
fn provenance(counts: RunCounts, seed: Option<u64>) -> String {
    format!(
        "Written by experiments {} ({} units computed, {} reused from the cache, {} failed{}). \
         {}.",
        env!("CARGO_PKG_VERSION"),
        counts.computed,
        counts.reused,
        counts.failed,
        if counts.missing > 0 {
            format!(", {} missing: merged with --allow-missing", counts.missing)
        } else {
            String::new()
        },
        seed.map_or_else(
            || "No random numbers are drawn: the experiment has no datasets".to_string(),
            |seed| format!("Seed {seed}")
        )
    )
}

/// Tables with more rows than this are folded (`<details>`) on the page.
const FOLD_AFTER: usize = 15;

/// index.html: the header, the summary screen, the contents, then every section's tables
/// (long ones folded, each with its CSV) and figures (inlined), and the config as run.
fn write_html(folder: &Path, record: &RunRecord, sections: &[Section]) -> Result<()> {
    let mut page = HtmlPage::new(format!("Experiment '{}'", record.config.name));
    let facts = crate::report::run_facts::facts();
    let parquet = [
        ("per_fold.parquet", "per_fold.parquet"),
        ("per_fold.csv", "CSV"),
    ];
    let links: &[(&str, &str)] = if record.without_data() { &[] } else { &parquet };
    page.run_header(&facts, links);
    if let Some(summary) = crate::report::summary::summary(sections) {
        let csv = format!("tables/{}.csv", crate::report::leaderboard_section::STEM);
        page.summary(&SummaryBlock {
            verdict: summary.verdict,
            leaderboard: summary.leaderboard,
            csv: Some(&csv),
            side_table: summary.side_table,
            figure: summary.figure.map(|f| (f.svg.as_str(), f.caption.as_str())),
        })?;
    }
    let seed = (!record.plan.datasets.is_empty()).then_some(record.config.seed);
    page.paragraph(&provenance(record.counts, seed));
    let ids: Vec<(String, String)> = sections
        .iter()
        .enumerate()
        .map(|(i, section)| (format!("section-{}", i + 1), section.title.clone()))
        .chain([("config".to_string(), "Config as run".to_string())])
        .collect();
    page.contents(&ids);
    for (section, (id, _)) in sections.iter().zip(&ids) {
        write_section_html(&mut page, section, id)?;
    }
    page.heading_with_id("Config as run", "config");
    page.preformatted(&record.text);
    report::write_file(&folder.join("index.html"), &page.render())?;
    Ok(())
}

/// One section on the page: its heading, reading, shown tables, links and figures.
fn write_section_html(page: &mut HtmlPage, section: &Section, id: &str) -> Result<()> {
    page.heading_with_id(&section.title, id);
    if !section.reading.is_empty() {
        page.paragraph(&section.reading);
    }
    for table in section.tables.iter().filter(|table| table.shown) {
        let csv = table.file.as_ref().map(|stem| format!("tables/{stem}.csv"));
        page.table_in_page(&table.table, csv.as_deref(), FOLD_AFTER)?;
    }
    for (file, text) in &section.links {
        page.link(file, text);
    }
    for figure in &section.figures {
        page.inline_svg(&figure.svg, &figure.caption);
    }
    Ok(())
}
