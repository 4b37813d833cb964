//! `experiments datasets`: the shipped datasets, checked against the catalog, and any of the
//! user's own files, read as a config would read them (`data::listing`).

use anyhow::{bail, Context, Result};
use clap::Args;
use data::catalog::Catalog;
use data::listing::list_datasets;
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
    /// For files: the class column, by name (default: the last column).
    #[arg(long = "class", value_name = "COLUMN")]
    class: Option<String>,
}

impl DatasetsArgs {
    /// The reading options the flags give for a user's file.
    fn file_options(&self) -> LoadOptions {
        let mut options = LoadOptions {
            allow_numeric_class: self.allow_numeric_class,
            class_column: self.class.clone().map(data::ClassColumn::Name),
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

/// Lists the shipped datasets and checks each file against the catalog's counts and checksum;
/// reads any named files and lists the column types inferred for them; fails if any shipped
/// file does not match or any named file cannot be read.
pub fn run(args: &DatasetsArgs) -> Result<()> {
    let catalog = Catalog::locate().context("cannot find the shipped datasets")?;
    let options = args.file_options();
    // The first line the reader refuses stops the listing (`output::Closed`).
    let mut printed = Ok(());
    let failures = list_datasets(&catalog, &args.names, &options, &mut |line| {
        if printed.is_ok() {
            printed = crate::output::print(format!("{line}\n"));
        }
    })?;
    printed?;
    if !failures.is_empty() {
        bail!(
            "{} dataset(s) do not match the catalog or cannot be read:\n  {}",
            failures.len(),
            failures.join("\n  ")
        );
    }
    Ok(())
}
