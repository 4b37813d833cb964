//! `experiments datasets`: the shipped datasets, checked against the catalog, and any of the
//! user's own files, read as a config would read them, with the column types the reader
//! inferred rather than was told.

use std::path::Path;

use anyhow::{bail, Context, Result};
use clap::Args;
use data::catalog::{Catalog, Summary};
use data::{ColumnType, LoadOptions};

/// Options of the `datasets` subcommand.
#[derive(Args, Debug)]
pub struct DatasetsArgs {
    /// Only list these datasets, collections or files (default: all shipped datasets). A path to
    /// a .csv, .arff or KEEL .dat file is read with the options below and its inferred column
    /// types are listed.
    #[arg(value_name = "NAME")]
    names: Vec<String>,
    /// For files: declare this column nominal (repeatable).
    #[arg(long = "nominal", value_name = "COLUMN")]
    nominal: Vec<String>,
    /// For files: declare this column numeric (repeatable).
    #[arg(long = "numeric", value_name = "COLUMN")]
    numeric: Vec<String>,
    /// For files: also read this spelling as a missing value, besides the empty field and `?`
    /// (repeatable).
    #[arg(long = "missing", value_name = "MARKER")]
    missing: Vec<String>,
    /// For files: accept a class column of numbers with many distinct values (labels, not a
    /// regression target).
    #[arg(long)]
    allow_numeric_class: bool,
}

impl DatasetsArgs {
    /// The reading options the flags give for a user's file.
    fn file_options(&self) -> LoadOptions {
        let mut options = LoadOptions {
            allow_numeric_class: self.allow_numeric_class,
            ..LoadOptions::default()
        };
        for column in &self.nominal {
            options = options.declare(column, ColumnType::Nominal);
        }
        for column in &self.numeric {
            options = options.declare(column, ColumnType::Numeric);
        }
        for marker in &self.missing {
            options = options.with_missing_marker(marker);
        }
        options
    }
}

/// One table row: the counts of a dataset, or blanks.
fn row(name: &str, summary: Option<&Summary>, collections: &str, check: &str) {
    let collections = if collections.is_empty() {
        "-"
    } else {
        collections
    };
    match summary {
        Some(summary) => println!(
            "{:<24} {:>9} {:>7} {:>7} {:>7} {:>8}  {:<22} {check}",
            name,
            summary.instances,
            summary.numeric_attributes,
            summary.nominal_attributes,
            summary.class_counts.len(),
            summary.missing_values,
            collections,
        ),
        None => println!(
            "{name:<24} {:>9} {:>7} {:>7} {:>7} {:>8}  {collections:<22} {check}",
            "", "", "", "", ""
        ),
    }
}

/// Lists the shipped datasets and checks each file against the catalog's counts and checksum;
/// reads any named files and lists the column types inferred for them; fails if any shipped
/// file does not match or any named file cannot be read.
pub fn run(args: &DatasetsArgs) -> Result<()> {
    let catalog = Catalog::locate().context("cannot find the shipped datasets")?;
    let names: Vec<String> = if args.names.is_empty() {
        catalog.names().into_iter().map(str::to_string).collect()
    } else {
        let mut names = Vec::new();
        for name in &args.names {
            for expanded in catalog.expand(name)? {
                if !names.contains(&expanded) {
                    names.push(expanded);
                }
            }
        }
        names
    };
    println!(
        "{:<24} {:>9} {:>7} {:>7} {:>7} {:>8}  {:<22} check",
        "dataset", "instances", "numeric", "nominal", "classes", "missing", "collections"
    );
    let mut failures = Vec::new();
    let mut inferred = Vec::new();
    let mut files = 0;
    let mut matched = 0;
    for name in &names {
        if catalog.entry(name).is_none() && Path::new(name).is_file() {
            // A user's file: no catalog entry declares its column types.
            files += 1;
            match data::load_with_report(name, &args.file_options()) {
                Ok((dataset, report)) => {
                    row(name, Some(&Summary::of(&dataset)), "", "file");
                    let nominal = if report.inferred_nominal.is_empty() {
                        "none".to_string()
                    } else {
                        report.inferred_nominal.join(", ")
                    };
                    inferred.push(format!(
                        "{name}: inferred nominal: {nominal}; inferred numeric: {}",
                        report.inferred_numeric.len()
                    ));
                    let notices = report.notices.iter();
                    inferred.extend(notices.map(|notice| format!("{name}: notice: {notice}")));
                }
                Err(error) => {
                    row(name, None, "", "ERROR");
                    failures.push(format!("{name}: {error}"));
                }
            }
            continue;
        }
        let collections = catalog.collections_of(name).join(",");
        match catalog.verify(name) {
            Ok(verified) => {
                matched += 1;
                row(name, Some(&verified.summary), &collections, "ok");
            }
            Err(error) => {
                row(name, None, &collections, "MISMATCH");
                failures.push(format!("{name}: {error}"));
            }
        }
    }
    let shipped = names.len() - files;
    if shipped > 0 {
        println!(
            "{shipped} datasets, {matched} match the catalog (their column types are declared there)"
        );
    }
    if !inferred.is_empty() {
        println!("Column types of files without a catalog entry (the class excluded):");
        for line in &inferred {
            println!("  {line}");
        }
    }
    if !failures.is_empty() {
        bail!(
            "{} dataset(s) do not match the catalog or cannot be read:\n  {}",
            failures.len(),
            failures.join("\n  ")
        );
    }
    Ok(())
}
