//! `experiments datasets`: the shipped datasets, checked against the catalog.

use anyhow::{bail, Context, Result};
use clap::Args;
use data::catalog::Catalog;

/// Options of the `datasets` subcommand.
#[derive(Args, Debug)]
pub struct DatasetsArgs {
    /// Only list these datasets or collections (default: all).
    #[arg(value_name = "NAME")]
    names: Vec<String>,
}

/// Lists the shipped datasets and checks each file against the catalog's counts and checksum;
/// fails if any file does not match.
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
    for name in &names {
        let collections = catalog.collections_of(name).join(",");
        match catalog.verify(name) {
            Ok(verified) => {
                let summary = &verified.summary;
                println!(
                    "{:<24} {:>9} {:>7} {:>7} {:>7} {:>8}  {:<22} ok",
                    name,
                    summary.instances,
                    summary.numeric_attributes,
                    summary.nominal_attributes,
                    summary.class_counts.len(),
                    summary.missing_values,
                    if collections.is_empty() {
                        "-"
                    } else {
                        &collections
                    },
                );
            }
            Err(error) => {
                println!(
                    "{name:<24} {:>9} {:>7} {:>7} {:>7} {:>8}  {collections:<22} MISMATCH",
                    "", "", "", "", ""
                );
                failures.push(format!("{name}: {error}"));
            }
        }
    }
    println!(
        "{} datasets, {} match the catalog",
        names.len(),
        names.len() - failures.len()
    );
    if !failures.is_empty() {
        bail!(
            "{} dataset(s) do not match the catalog:\n  {}",
            failures.len(),
            failures.join("\n  ")
        );
    }
    Ok(())
}
