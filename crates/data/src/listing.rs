//! `experiments datasets`' listing: the shipped datasets checked against the catalog, and any
//! of a user's own files read as a config would read them, with the column types the reader
//! inferred rather than was told.

use std::path::Path;

use crate::catalog::{Catalog, Summary};
use crate::{DataError, LoadOptions};

/// One row of the listing: the name, its summary (none when it failed), its collections and
/// the check's word.
fn row(name: &str, summary: Option<&Summary>, collections: &str, check: &str) -> String {
    let collections = if collections.is_empty() {
        "-"
    } else {
        collections
    };
    match summary {
        Some(summary) => format!(
            "{:<24} {:>9} {:>7} {:>7} {:>7} {:>8}  {:<22} {check}",
            name,
            summary.instances,
            summary.numeric_attributes,
            summary.nominal_attributes,
            summary.class_counts.len(),
            summary.missing_values,
            collections,
        ),
        None => format!(
            "{name:<24} {:>9} {:>7} {:>7} {:>7} {:>8}  {collections:<22} {check}",
            "", "", "", "", ""
        ),
    }
}

/// The datasets `requested` names (every shipped one when empty; names of collections
/// expanded, each once).
fn expand(catalog: &Catalog, requested: &[String]) -> Result<Vec<String>, DataError> {
    if requested.is_empty() {
        return Ok(catalog.names().into_iter().map(str::to_string).collect());
    }
    let mut names = Vec::new();
    for name in requested {
        for expanded in catalog.expand(name)? {
            if !names.contains(&expanded) {
                names.push(expanded);
            }
        }
    }
    Ok(names)
}

/// Lists and checks the datasets `requested` names (user files read with `options`), giving
/// each line to `emit` as it is ready; returns the failures (`name: why`).
pub fn list_datasets(
    catalog: &Catalog,
    requested: &[String],
    options: &LoadOptions,
    emit: &mut dyn FnMut(&str),
) -> Result<Vec<String>, DataError> {
    let names = expand(catalog, requested)?;
    emit(&format!(
        "{:<24} {:>9} {:>7} {:>7} {:>7} {:>8}  {:<22} check",
        "dataset", "instances", "numeric", "nominal", "classes", "missing", "collections"
    ));
    let mut failures = Vec::new();
    let mut inferred = Vec::new();
    let mut files = 0;
    let mut matched = 0;
    for name in &names {
        if catalog.entry(name).is_none() && Path::new(name).is_file() {
            // A user's file: no catalog entry declares its column types.
            files += 1;
            match crate::load_with_report(name, options) {
                Ok((dataset, report)) => {
                    emit(&row(name, Some(&Summary::of(&dataset)), "", "file"));
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
                    inferred.extend(
                        notices.map(|notice| {
                            format!("{name}: notice: {}", notice.sentence(Some(name)))
                        }),
                    );
                }
                Err(error) => {
                    emit(&row(name, None, "", "ERROR"));
                    failures.push(format!("{name}: {error}"));
                }
            }
            continue;
        }
        let collections = catalog.collections_of(name).join(",");
        match catalog.verify(name) {
            Ok(verified) => {
                matched += 1;
                emit(&row(name, Some(&verified.summary), &collections, "ok"));
            }
            Err(error) => {
                emit(&row(name, None, &collections, "MISMATCH"));
                failures.push(format!("{name}: {error}"));
            }
        }
    }
    let shipped = names.len() - files;
    if shipped > 0 {
        emit(&format!(
            "{shipped} datasets, {matched} match the catalog (their column types are declared there)"
        ));
    }
    if !inferred.is_empty() {
        emit("Column types of files without a catalog entry (the class excluded):");
        for line in &inferred {
            emit(&format!("  {line}"));
        }
    }
    Ok(failures)
}
