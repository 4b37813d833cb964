//! The tests on the fixed test set of a plan, run on the whole-training models' predictions
//! read from the cache, and their table. The tests themselves are [`crate::measures::test_set`]'s;
//! what they ask of a plan is [`crate::plan::test_set_needs`]'s.

use learners::Probabilities;
use report::{Cell, Table};

use crate::error::Result;
use crate::measures::test_set::{Measured, TestSetFn, TestSetInput, TestSetRecord, TestSetTest};
use crate::plan::units::Plan;
use crate::run::unit::{Part, UnitPredictions};

/// Every selected test on the test set, for every dataset whose protocol has one, in order of
/// dataset, test, learner pair; `predictions` gives the test-set predictions of a (dataset,
/// learner)'s whole-training model, read from the cache, or why there are none. Each dataset's
/// models are read once, one dataset at a time. Empty when no test on the test set is selected.
pub fn test_set_tests(
    plan: &Plan,
    tests: &[TestSetTest],
    alpha: f64,
    predictions: impl Fn(usize, usize) -> std::result::Result<UnitPredictions, String>,
) -> Vec<TestSetRecord> {
    if tests.is_empty() {
        return Vec::new();
    }
    let learners = plan.learners.len();
    let mut records = Vec::new();
    for (dataset, prepared) in plan.datasets.iter().enumerate() {
        let models: Vec<Model> = (0..learners)
            .map(|learner| predictions(dataset, learner).map(|p| p.part(Part::Test)))
            .collect();
        for test in tests {
            let compared = compared(test.run(), plan);
            let outcomes = outcomes(test.run(), &models, prepared.positive, alpha);
            records.extend(
                outcomes
                    .into_iter()
                    .map(|(a, b, all, outcome)| TestSetRecord {
                        dataset,
                        a,
                        b,
                        all: all.then(|| compared.clone()),
                        test: test.name(),
                        measure: test.spec().measure,
                        outcome,
                    }),
            );
        }
    }
    records
}

/// A learner's test-set truth and probabilities, or why there are none.
type Model = std::result::Result<(Vec<usize>, Probabilities), String>;

/// What a test over all learners compares, as the table shows it: "all: a, b, c", or the
/// contrast's rows as "contrast: +1 a -0.5 b -0.5 c" (zero terms left out; rows joined by
/// "; "). Empty for the other tests.
fn compared(run: &TestSetFn, plan: &Plan) -> String {
    let names: Vec<&str> = plan.learners.iter().map(|l| l.name.as_str()).collect();
    match run {
        TestSetFn::All {
            contrast: Some(rows),
            ..
        } => {
            let row = |row: &Vec<f64>| {
                let terms: Vec<String> = row
                    .iter()
                    .zip(&names)
                    .filter(|(c, _)| **c != 0.0)
                    .map(|(c, name)| format!("{c:+} {name}"))
                    .collect();
                terms.join(" ")
            };
            let rows: Vec<String> = rows.iter().map(row).collect();
            format!("contrast: {}", rows.join("; "))
        }
        TestSetFn::All { .. } => format!("all: {}", names.join(", ")),
        _ => String::new(),
    }
}

/// One test's outcomes on one dataset's `models`: (a, b, over all learners, outcome) for each
/// learner, each pair, or all learners at once.
#[allow(clippy::type_complexity)]
fn outcomes(
    run: &TestSetFn,
    models: &[Model],
    positive: Option<usize>,
    alpha: f64,
) -> Vec<(
    usize,
    Option<usize>,
    bool,
    std::result::Result<Measured, String>,
)> {
    let input = |truth| TestSetInput {
        truth,
        positive,
        alpha,
    };
    let learners = models.len();
    match run {
        TestSetFn::Single(run) => (0..learners)
            .map(|a| {
                let outcome = match &models[a] {
                    Err(why) => Err(why.clone()),
                    Ok((truth, probabilities)) => run(&input(truth), probabilities),
                };
                (a, None, false, outcome)
            })
            .collect(),
        TestSetFn::Pairwise(run) => (0..learners)
            .flat_map(|a| (a + 1..learners).map(move |b| (a, b)))
            .map(|(a, b)| {
                let outcome = match (&models[a], &models[b]) {
                    (Err(why), _) | (_, Err(why)) => Err(why.clone()),
                    (Ok((truth, first)), Ok((_, second))) => run(&input(truth), first, second),
                };
                (a, Some(b), false, outcome)
            })
            .collect(),
        TestSetFn::All { run, .. } => {
            let ready: std::result::Result<Vec<&(Vec<usize>, Probabilities)>, String> = models
                .iter()
                .map(|model| model.as_ref().map_err(Clone::clone))
                .collect();
            let outcome = ready.and_then(|ready| match ready.first() {
                None => Err("no learner".to_string()),
                Some((truth, _)) => {
                    let all: Vec<&Probabilities> = ready.iter().map(|(_, p)| p).collect();
                    run(&input(truth), &all)
                }
            });
            vec![(0, None, true, outcome)]
        }
    }
}

/// The tests on the test set as a table (the columns of the per-fold tests table, with "rows"
/// for "folds" and the interval's limits added); the note reads each selected test.
pub fn test_set_table(
    plan: &Plan,
    tests: &[TestSetTest],
    records: &[TestSetRecord],
    alpha: f64,
) -> Result<Table> {
    let header = [
        "dataset",
        "measure",
        "learner a",
        "learner b",
        "test",
        "test rows",
        "value a",
        "value b",
        "statistic",
        "p-value",
        "interval low",
        "interval high",
        "decision",
    ]
    .map(String::from)
    .to_vec();
    let mut table = Table::new(
        format!(
            "Tests on the fixed test set, one model per learner fitted on the whole training \
             part (alpha = {alpha})"
        ),
        header,
    );
    let not_run = Measured {
        n: 0,
        values: (f64::NAN, f64::NAN),
        statistic: f64::NAN,
        pvalue: f64::NAN,
        interval: None,
        reject: false,
        df: None,
    };
    for record in records {
        let measured = record.outcome.as_ref().unwrap_or(&not_run);
        let decision = match (&record.outcome, record.b) {
            (Err(problem), _) => Cell::text(format!("not run: {problem}")),
            (Ok(measured), None) if record.all.is_some() => all_decision(measured),
            (Ok(_), None) => Cell::text(format!("{:.0}% interval", 100.0 * (1.0 - alpha))),
            (Ok(measured), Some(_)) if measured.reject => Cell::text("differ").bold(),
            (Ok(_), Some(_)) => Cell::text("no difference"),
        };
        let (low, high) = measured.interval.unwrap_or((f64::NAN, f64::NAN));
        table.push_row(vec![
            Cell::text(&plan.datasets[record.dataset].name),
            Cell::text(record.measure),
            Cell::text(match &record.all {
                Some(compared) => compared.clone(),
                None => plan.learners[record.a].name.clone(),
            }),
            Cell::text(record.b.map_or("", |b| plan.learners[b].name.as_str())),
            Cell::text(record.test),
            Cell::integer(measured.n as i64),
            Cell::number(measured.values.0).with_decimals(4),
            Cell::number(measured.values.1).with_decimals(4),
            Cell::number(measured.statistic).with_decimals(4),
            Cell::number(measured.pvalue).with_decimals(4),
            Cell::number(low).with_decimals(4),
            Cell::number(high).with_decimals(4),
            decision,
        ]);
    }
    // One note per kind of test: the bootstrap tests of several measures share theirs.
    let mut notes: Vec<&str> = Vec::new();
    for note in tests.iter().map(|test| test.spec().note) {
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    table.push_note(format!(
        "{}. The whole-training-set models have no validation part: a learner that selects a \
         parameter on the protocol's validation fold uses its own inner split instead.",
        notes.join("; ")
    ));
    table.check()?;
    Ok(table)
}

/// The decision cell of a test over all learners: its verdict and the chi-square's df.
fn all_decision(measured: &Measured) -> Cell {
    let df = measured.df.unwrap_or(0);
    if measured.reject {
        Cell::text(format!("differ ({df} df)")).bold()
    } else {
        Cell::text(format!("no difference ({df} df)"))
    }
}
