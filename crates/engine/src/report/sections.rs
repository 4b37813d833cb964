//! The report sections every run has, whatever its analyses, as data: the units a merge did
//! not find, the failed units, the datasets as run, and the results per dataset (the summary,
//! the paired tests and the tests on the test set). The figures are [`crate::report::figures`]'.

use report::{Cell, Table};

use crate::error::Result;
use crate::record::run_record::RunRecord;
use crate::report::section::{Section, SectionTable};

/// Tables with more rows than this are linked from the HTML page rather than shown.
const LONGEST_TABLE_ON_PAGE: usize = 120;

/// The report's section on units a merge with --allow-missing did not find, per learner and
/// dataset with their shards (`tables/missing.*`); `None` when none is missing.
pub fn missing(record: &RunRecord) -> Option<Section> {
    let (plan, missing) = (&record.plan, &record.missing);
    if missing.is_empty() {
        return None;
    }
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
            Cell::text(&plan.learners[learner].name),
            Cell::text(&plan.datasets[dataset].name),
            Cell::integer(positions.len() as i64),
            Cell::integer(plan.datasets[dataset].plan.splits.len() as i64),
            Cell::text(shards),
        ]);
    }
    let mut section = Section::new(
        "Missing units",
        format!(
            "This report was merged with --allow-missing: {} of {} units were not in the \
             cache, and every table below leaves them out. Run their shards and merge again \
             for the full report.",
            missing.units.len(),
            plan.units.len()
        ),
    );
    section.table("missing", table);
    Some(section)
}

/// Failed units per learner and dataset, with the first message of each; `None` when none
/// failed.
pub fn failures(record: &RunRecord) -> Option<Section> {
    let (plan, folds) = (&record.plan, &record.results.folds);
    if folds.failures.is_empty() {
        return None;
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
            Cell::text(&plan.learners[*learner].name),
            Cell::text(&plan.datasets[*dataset].name),
            Cell::integer(count as i64),
            Cell::integer(plan.datasets[*dataset].plan.splits.len() as i64),
            Cell::text(message),
        ]);
    }
    let mut section = Section::new(
        "Failed units",
        format!(
            "{} units failed; their results are missing from every table below (units.csv has \
             every message). Failed units are tried again on the next run.",
            folds.failures.len()
        ),
    );
    section.table("failures", table);
    Some(section)
}

/// The table of datasets as run: sizes, classes and what each transform did.
pub fn datasets(record: &RunRecord) -> Section {
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
    for dataset in &record.plan.datasets {
        let names = &dataset.dataset.schema().class_values;
        let counts = dataset.dataset.class_counts();
        let classes: Vec<String> = class_order(names)
            .into_iter()
            .map(|class| format!("{} {}", names[class], counts[class]))
            .collect();
        table.push_row(vec![
            Cell::text(&dataset.name),
            Cell::integer(dataset.dataset.len() as i64),
            Cell::integer(dataset.dataset.schema().num_attributes() as i64),
            Cell::text(classes.join(", ")),
            Cell::integer(dataset.plan.splits.len() as i64),
            Cell::text(if dataset.notes.is_empty() {
                "none".to_string()
            } else {
                dataset.notes.join("; ")
            }),
        ]);
    }
    let mut section = Section::new(
        "Datasets",
        "Each dataset after its transforms, with its class counts and number of splits.",
    );
    section.table("datasets", table);
    section
}

/// The classes in the order a reader expects them: by value when every name is a number
/// (`0, 1, 2`, not the file's `0, 2, 1`), else by name.
fn class_order(names: &[String]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    let numbers: Option<Vec<f64>> = names.iter().map(|name| name.trim().parse().ok()).collect();
    match numbers {
        Some(numbers) => order.sort_by(|&a, &b| numbers[a].total_cmp(&numbers[b])),
        None => order.sort_by(|&a, &b| names[a].cmp(&names[b])),
    }
    order
}

/// The results per dataset: the summary over the folds, the paired tests between learners,
/// and the tests on the test set when any is selected (long tables linked, not shown).
pub fn results(record: &RunRecord) -> Result<Section> {
    let (plan, folds, alpha) = (&record.plan, &record.results.folds, record.config.alpha);
    let mut counts: Vec<usize> = plan.datasets.iter().map(|d| d.plan.splits.len()).collect();
    counts.dedup();
    let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
    let mut section = Section::new(
        "Results per dataset",
        format!(
            "Mean and standard deviation of each measure over the {} splits of each dataset, \
             and the paired tests between every two learners at alpha = {alpha}.",
            counts.join("/")
        ),
    );
    section.table(
        "summary",
        crate::record::results::summary_table(plan, folds),
    );
    let tests = crate::record::results::tests_table(plan, folds, &record.tests, alpha)?;
    let test_set = (!record.test_set_tests.is_empty())
        .then(|| {
            crate::record::test_set_run::test_set_table(
                plan,
                &plan.test_set_tests,
                &record.test_set_tests,
                alpha,
            )
        })
        .transpose()?;
    for (table, file) in
        std::iter::once((tests, "tests")).chain(test_set.map(|table| (table, "test_set_tests")))
    {
        let shown = table.rows.len() <= LONGEST_TABLE_ON_PAGE;
        if !shown {
            section.links.push((
                format!("tables/{file}.csv"),
                format!("{} (CSV)", table.title),
            ));
            section.links.push((
                format!("tables/{file}.md"),
                format!("{} (Markdown)", table.title),
            ));
        }
        section.tables.push(SectionTable {
            table,
            file: Some(file.to_string()),
            shown,
        });
    }
    Ok(section)
}

#[cfg(test)]
mod tests {
    use super::class_order;

    #[test]
    fn classes_are_listed_by_value_or_by_name() {
        let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(class_order(&names(&["0", "2", "1"])), [0, 2, 1]);
        assert_eq!(class_order(&names(&["10", "9", "-1"])), [2, 1, 0]);
        assert_eq!(class_order(&names(&["pos", "neg", "2"])), [2, 1, 0]);
    }
}
