//! Aslan, Yildiz & Alpaydin (2009), their Figures 6 and 7: the Cortes-Mohri (2004) and
//! Agarwal et al. AUC confidence intervals of one model trained on all of train-all (the
//! engine's whole-training unit), beside the spread of the error and the AUC of the models of
//! the protocol's splits, with the paper's reading of the tests beside ours. The comparisons
//! drawn are the config's `interval_figures`, an option this analysis declares.

use engine::config::experiment::ExperimentConfig;
use engine::file_safe;
use engine::SectionTable;
use engine::{Analysis, AnalysisError, Figure, ParameterSpec, Plan, RunRecord, Section};
use report::{Cell, PlotOptions, Table};
use serde::Deserialize;
use stats::{CortesMohriInterval, ErrorRateBound};

use crate::aslan::{
    check_measures, compare, distributions, error_and_auc, Comparison, CASES, COLOURS,
};
use crate::error::{Error, Result};
use crate::published::{aslan_cases, AslanCases, AslanNamedComparison};

/// Aslan et al.'s Figures 6 and 7: AUC confidence intervals of one model beside the models.
pub struct Intervals;

impl Analysis for Intervals {
    fn name(&self) -> &'static str {
        "aslan_intervals"
    }

    fn description(&self) -> &'static str {
        "Aslan et al. (2009) Figures 6-7: the Cortes-Mohri and Agarwal et al. AUC confidence \
         intervals of a model trained on all of train-all, beside the spread of the models' \
         error and AUC, with the paper's reading of the tests beside ours (key \
         'interval_figures')"
    }

    fn options(&self) -> &'static [ParameterSpec] {
        const OPTIONS: &[ParameterSpec] = &[ParameterSpec::tables(
            "interval_figures",
            "none (the analysis needs at least one)",
            "the comparisons drawn by aslan_intervals (Aslan et al. Figures 6-7): \
             { dataset = ..., learners = [a, b] } per figure",
        )];
        OPTIONS
    }

    fn check(&self, config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        check_measures(self.name(), plan)?;
        let figures = interval_figures(config, plan)?;
        if figures.is_empty() {
            return Err(
                "it needs at least one comparison in the key 'interval_figures', e.g. \
                 [{ dataset = \"ada\", learners = [\"ripper\", \"lp\"] }]"
                    .into(),
            );
        }
        for figure in &figures {
            let dataset = &plan.datasets[figure.dataset];
            if dataset.positive.is_none() {
                return Err(format!(
                    "its confidence intervals need a two-class task, but '{}' has {} classes: \
                     set two_most_confused, or positive_class with one_vs_rest",
                    dataset.name,
                    dataset.dataset.num_classes()
                ));
            }
        }
        Ok(())
    }

    fn whole_training(&self, config: &ExperimentConfig, plan: &Plan) -> Vec<(usize, usize)> {
        let figures = interval_figures(config, plan).unwrap_or_default();
        figures
            .iter()
            .flat_map(|figure| figure.learners.map(|learner| (figure.dataset, learner)))
            .collect()
    }

    fn sections(&self, record: &RunRecord) -> Result<Vec<Section>, AnalysisError> {
        let figures = interval_figures(&record.config, &record.plan).map_err(Error::Needs)?;
        Ok(vec![interval_section(record, &figures, &aslan_cases()?)?])
    }

    fn opening_sections(&self) -> usize {
        1
    }
}

/// One comparison figure with AUC confidence intervals, as a config names it: a dataset and
/// two learners.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct IntervalFigure {
    /// The dataset's name as in the results.
    pub dataset: String,
    /// The two learners' display names.
    pub learners: [String; 2],
}

/// A comparison figure of the plan: its dataset and two learners (indices).
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedFigure {
    /// The dataset.
    pub dataset: usize,
    /// The two learners.
    pub learners: [usize; 2],
}

/// The comparisons of the config's `interval_figures`, found in the plan; the error names the
/// entry and what it names that the plan does not have.
pub fn interval_figures(
    config: &ExperimentConfig,
    plan: &Plan,
) -> Result<Vec<PlannedFigure>, String> {
    let tables = engine::report::analysis::options(&Intervals, config, |options| {
        options.tables("interval_figures")
    })?
    .unwrap_or_default();
    let names = |names: Vec<&str>| names.join(", ");
    let mut figures = Vec::new();
    for (position, table) in tables.into_iter().enumerate() {
        let entry = format!("key 'interval_figures' entry {}", position + 1);
        let figure = IntervalFigure::deserialize(toml::Value::Table(table))
            .map_err(|error| format!("{entry}: {}", error.message()))?;
        let dataset = plan
            .datasets
            .iter()
            .position(|d| d.name == figure.dataset)
            .ok_or_else(|| {
                format!(
                    "{entry}: dataset '{}' is not among the datasets ({})",
                    figure.dataset,
                    names(plan.datasets.iter().map(|d| d.name.as_str()).collect())
                )
            })?;
        let learner = |name: &String| {
            plan.learners
                .iter()
                .position(|l| &l.name == name)
                .ok_or_else(|| {
                    format!(
                        "{entry}: learner '{name}' is not among the learners ({})",
                        names(plan.learners.iter().map(|l| l.name.as_str()).collect())
                    )
                })
        };
        figures.push(PlannedFigure {
            dataset,
            learners: [learner(&figure.learners[0])?, learner(&figure.learners[1])?],
        });
    }
    Ok(figures)
}

/// One learner's intervals in a Figures 6-7 comparison, from its whole-train-all model.
struct LearnerIntervals {
    learner: usize,
    auc: f64,
    errors: usize,
    rows: usize,
    plain: stats::Interval,
    full: CortesMohriInterval,
    agarwal: stats::Interval,
}

/// The Cortes-Mohri and Agarwal et al. intervals of a learner's whole-train-all model.
fn learner_intervals(
    record: &RunRecord,
    dataset: usize,
    learner: usize,
) -> Result<LearnerIntervals> {
    let alpha = record.config.alpha;
    // As Aslan et al. compute their Figures 6-7 intervals ("we trained and tested the
    // classification algorithms without cross-validation"): the model fitted on all of
    // train-all, scored on the test set.
    let scores = record
        .whole_training_test_scores(dataset, learner)
        .map_err(|why| {
            Error::Needs(format!(
                "{} on all of train-all of '{}': {why}",
                record.plan.learners[learner].name, record.plan.datasets[dataset].name
            ))
        })?;
    let (positives, negatives) = scores.class_totals();
    let (positives, negatives) = (positives.round() as usize, negatives.round() as usize);
    let auc = evaluate::auc_or_nan(&scores);
    let errors = scores
        .scores()
        .iter()
        .zip(scores.labels())
        .filter(|&(&score, &label)| (score > 0.5) != label)
        .count();
    Ok(LearnerIntervals {
        learner,
        auc,
        errors,
        rows: scores.len(),
        plain: stats::cortes_mohri_interval(positives, negatives, errors, alpha)?,
        full: stats::cortes_mohri_full_interval(
            positives,
            negatives,
            errors,
            alpha,
            ErrorRateBound::Normal,
        )?,
        agarwal: stats::agarwal_interval(auc, positives, negatives, alpha)?,
    })
}

/// How many of `values` lie in `interval`, as "k of n".
fn held(values: &[f64], interval: stats::Interval) -> String {
    let inside = values
        .iter()
        .filter(|&&v| v >= interval.low && v <= interval.high)
        .count();
    format!("{inside} of {}", values.len())
}

/// A test's decision and p-value.
fn decision(rejects: bool, pvalue: f64) -> String {
    format!(
        "{} (p = {pvalue:.3})",
        if rejects { "rejects" } else { "accepts" }
    )
}

/// The intervals table of one comparison figure: one row per learner.
fn intervals_table() -> Table {
    Table::new(
        "AUC confidence intervals of a model trained on all of train-all, beside the spread of \
         the models",
        [
            "dataset",
            "learner",
            "test AUC",
            "errors / test rows",
            "error rate interval",
            "error counts",
            "expected AUC at the errors",
            "Cortes-Mohri at the errors (+- z sd)",
            "Cortes-Mohri (2004)",
            "Agarwal et al.",
            "AUC of the models: min",
            "max",
        ]
        .map(String::from)
        .to_vec(),
    )
}

/// The readings table: the paper's reading of each figure beside ours.
fn readings_table() -> Table {
    Table::new(
        "Figures 6 and 7: the paper's reading beside ours",
        [
            "figure",
            "dataset",
            "learners",
            "paper: error test",
            "paper: AUC test",
            "ours: error test (plain t)",
            "ours: AUC test (plain t)",
            "same reading",
            "paper on the intervals",
            "ours on the intervals: model AUCs inside Cortes-Mohri / Agarwal",
        ]
        .map(String::from)
        .to_vec(),
    )
}

/// "0.1234 - 0.5678".
fn range(interval: stats::Interval) -> String {
    format!("{:.4} - {:.4}", interval.low, interval.high)
}

/// The intervals drawn in one figure's plots, per measure.
#[derive(Default)]
struct Drawn {
    /// The AUC intervals (Cortes-Mohri and Agarwal et al. of each learner).
    auc: Vec<report::Interval>,
    /// The error-rate intervals.
    error: Vec<report::Interval>,
}

/// One learner's row of the intervals table, its intervals drawn in the plots, and the share
/// of the models' AUCs inside them ("name: k of n / k of n").
fn learner_row(
    record: &RunRecord,
    dataset: usize,
    found: &LearnerIntervals,
    color: report::Rgb,
    (table, drawn): (&mut Table, &mut Drawn),
) -> String {
    let name = &record.plan.learners[found.learner].name;
    let all = record
        .results
        .folds
        .finite_values(dataset, found.learner, auc_column(record));
    let min = all.iter().copied().fold(f64::INFINITY, f64::min);
    let max = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    table.push_row(vec![
        Cell::text(&record.plan.datasets[dataset].name),
        Cell::text(name),
        Cell::number(found.auc).with_decimals(4),
        Cell::text(format!("{} / {}", found.errors, found.rows)),
        Cell::text(range(found.full.error_rate)),
        Cell::text(format!(
            "{} - {}",
            found.full.error_counts.0, found.full.error_counts.1
        )),
        Cell::number(found.full.expected_auc).with_decimals(4),
        Cell::text(range(found.plain)),
        Cell::text(range(found.full.auc)),
        Cell::text(range(found.agarwal)),
        Cell::number(min).with_decimals(4),
        Cell::number(max).with_decimals(4),
    ]);
    let interval = |label: String, interval: stats::Interval, center: f64| report::Interval {
        label: Some(label),
        low: interval.low,
        high: interval.high,
        center: Some(center),
        color,
    };
    drawn.auc.push(interval(
        format!("{name}: Cortes-Mohri"),
        found.full.auc,
        found.full.expected_auc,
    ));
    drawn.auc.push(interval(
        format!("{name}: Agarwal et al."),
        found.agarwal,
        found.auc,
    ));
    drawn.error.push(interval(
        format!("{name}: error rate"),
        found.full.error_rate,
        found.errors as f64 / found.rows.max(1) as f64,
    ));
    format!(
        "{name}: {} / {}",
        held(&all, found.full.auc),
        held(&all, found.agarwal)
    )
}

/// The column of AUC in the fold table (checked before any fit).
fn auc_column(record: &RunRecord) -> usize {
    error_and_auc(record, "aslan_intervals").map_or(0, |(_, auc)| auc)
}

/// The paper's decisions of the error test and the AUC test on a comparison it names.
fn paper_reading(named: Option<&AslanNamedComparison>) -> (String, String) {
    let decisions = named.and_then(|named| {
        CASES
            .iter()
            .position(|&case| case == named.case)
            .map(|case| (case >= 2, case % 2 == 1))
    });
    let word = |rejects: bool| if rejects { "rejects" } else { "accepts" }.to_string();
    match decisions {
        Some((error_rejects, auc_rejects)) => (word(error_rejects), word(auc_rejects)),
        None => (
            "not in the paper".to_string(),
            "not in the paper".to_string(),
        ),
    }
}

/// Our decisions of the error test and the AUC test, and whether they fall in the paper's case.
fn our_reading(
    ours: &std::result::Result<Comparison, String>,
    named: Option<&AslanNamedComparison>,
) -> (String, String, String) {
    match ours {
        Ok(comparison) => (
            decision(comparison.plain[0], comparison.plain_p[0]),
            decision(comparison.plain[1], comparison.plain_p[1]),
            match named {
                Some(named) if CASES[comparison.case(false)] == named.case => "yes".to_string(),
                Some(_) => "no".to_string(),
                None => "-".to_string(),
            },
        ),
        Err(why) => (why.clone(), why.clone(), "-".to_string()),
    }
}

/// The readings table's row of one figure.
fn reading_row(
    record: &RunRecord,
    figure: &PlannedFigure,
    paper: &AslanCases,
    inside: &[String],
) -> Vec<Cell> {
    let (plan, [a, b]) = (&record.plan, figure.learners);
    let dataset = &plan.datasets[figure.dataset];
    let names = [&plan.learners[a].name, &plan.learners[b].name];
    let named = paper.named.iter().find(|named| {
        named.dataset.as_deref() == Some(dataset.name.as_str())
            && named.learners == [names[0].clone(), names[1].clone()]
    });
    let columns = error_and_auc(record, "aslan_intervals").unwrap_or((0, 0));
    let ours = compare(record, columns, figure.dataset, a, b);
    let (paper_error, paper_auc) = paper_reading(named);
    let (our_error, our_auc, same) = our_reading(&ours, named);
    vec![
        Cell::text(named.map_or("-", |named| named.figure.as_str())),
        Cell::text(&dataset.name),
        Cell::text(format!("{} vs {}", names[0], names[1])),
        Cell::text(paper_error),
        Cell::text(match named.and_then(|named| named.note.as_ref()) {
            Some(note) => format!("{paper_auc} ({note})"),
            None => paper_auc,
        }),
        Cell::text(our_error),
        Cell::text(our_auc),
        Cell::text(same),
        Cell::text(
            named
                .and_then(|named| named.intervals.clone())
                .unwrap_or_default(),
        ),
        Cell::text(inside.join("; ")),
    ]
}

/// The two plots of one figure: the error and the AUC of the models of its two learners,
/// with each learner's intervals.
fn figure_plots(record: &RunRecord, figure: &PlannedFigure, drawn: &Drawn) -> Result<Vec<Figure>> {
    let (plan, folds) = (&record.plan, &record.results.folds);
    let (error, auc) = error_and_auc(record, "aslan_intervals")?;
    let dataset = &plan.datasets[figure.dataset];
    let names = figure.learners.map(|l| plan.learners[l].name.as_str());
    let stem = format!(
        "aslan_intervals_{}_{}_{}",
        file_safe(&dataset.name),
        file_safe(names[0]),
        file_safe(names[1])
    );
    let mut plots = Vec::new();
    for (measure, label, suffix, intervals) in [
        (error, "Error", "error", &drawn.error[..]),
        (auc, "AUC", "auc", &drawn.auc[..]),
    ] {
        let distributions = distributions(plan, folds, figure.dataset, &figure.learners, measure);
        let options = PlotOptions::new(
            format!("{label}: {} vs {} on {}", names[0], names[1], dataset.name),
            label,
            "models",
        );
        let what = if measure == error {
            "the error-rate interval at level sqrt(1 - alpha) that the Cortes-Mohri \
             construction starts from (dots: the observed error rate)"
        } else {
            "the Cortes-Mohri (2004) interval (dots: the expected AUC at the observed error \
             count) and the Agarwal et al. interval (dots: the test AUC)"
        };
        plots.push(Figure {
            file: format!("figures/{stem}_{suffix}.svg"),
            caption: format!(
                "{label} of the {} models of {} and {} on {}, with {what} of each learner's \
                 model trained on all of train-all, at {:.0}%",
                dataset.plan.splits.len(),
                names[0],
                names[1],
                dataset.name,
                100.0 * (1.0 - record.config.alpha)
            ),
            svg: report::distribution_plot(&options, &distributions, intervals, 15)?,
        });
    }
    Ok(plots)
}

/// One comparison figure: its rows in the two tables and its plots. A model the record lacks
/// (a merge with --allow-missing) leaves the figure out, with a note saying so.
fn one_figure(
    record: &RunRecord,
    figure: &PlannedFigure,
    paper: &AslanCases,
    (table, readings): (&mut Table, &mut Table),
) -> Result<Vec<Figure>> {
    let mut computed = Vec::new();
    for learner in figure.learners {
        match learner_intervals(record, figure.dataset, learner) {
            Ok(found) => computed.push(found),
            Err(Error::Needs(why)) => {
                let names = figure
                    .learners
                    .map(|l| record.plan.learners[l].name.as_str());
                table.push_note(format!(
                    "{} vs {} on {}: not drawn: {why}",
                    names[0], names[1], record.plan.datasets[figure.dataset].name
                ));
                return Ok(Vec::new());
            }
            Err(other) => return Err(other),
        }
    }
    let mut drawn = Drawn::default();
    let inside: Vec<String> = computed
        .iter()
        .zip(COLOURS)
        .map(|(found, color)| {
            learner_row(
                record,
                figure.dataset,
                found,
                color,
                (&mut *table, &mut drawn),
            )
        })
        .collect();
    readings.push_row(reading_row(record, figure, paper, &inside));
    figure_plots(record, figure, &drawn)
}

/// Aslan et al. Figures 6 and 7: for each configured comparison, the paper's reading of the
/// tests beside ours, the error and the AUC of the models of two learners, with the
/// Cortes-Mohri (2004) and Agarwal et al. AUC confidence intervals of each learner's model
/// trained on all of train-all, as the paper computes them.
fn interval_section(
    record: &RunRecord,
    figures: &[PlannedFigure],
    paper: &AslanCases,
) -> Result<Section> {
    Intervals
        .check(&record.config, &record.plan)
        .map_err(Error::Needs)?;
    let (mut table, mut readings) = (intervals_table(), readings_table());
    let mut plots = Vec::new();
    for figure in figures {
        plots.extend(one_figure(
            record,
            figure,
            paper,
            (&mut table, &mut readings),
        )?);
    }
    table.push_note(
        "Each learner's model is trained on all of train-all and scored on the test set, as the \
         paper computes its intervals. Cortes-Mohri at the errors: expected AUC +- z sd over \
         all rankings with the observed number of errors at threshold 0.5. Cortes-Mohri \
         (2004): the error rate's interval at level sqrt(1 - alpha) (normal approximation, \
         worst-case variance), then the expected AUC +- sd/sqrt(alpha) (Chebyshev) over every \
         error count in it (stats::cortes_mohri_full_interval; the construction as two public \
         implementations of the paper and Aslan et al.'s description give it, the paper's own \
         text being unavailable to us). Agarwal et al.: distribution-free large-deviation \
         bound around the test AUC.",
    );
    readings.push_note(
        "The paper's readings are from its Section V and the captions of Figures 6 and 7; ours \
         are the paired t-tests on the 30 models' error and AUC. The last column counts the \
         30 models' AUCs inside each learner's Cortes-Mohri (2004) and Agarwal et al. \
         intervals.",
    );
    Ok(Section {
        title: "Aslan et al. beside the paper: AUC confidence intervals against the spread of \
                30 models (their Figures 6 and 7)"
            .into(),
        reading: "Each interval is computed from one model trained on all of train-all and \
                  scored on the test set, as the paper does and as a user with a single split \
                  would; the histograms show how far the error and the AUC of the 30 models, \
                  trained on overlapping sets and tested on one test set, actually spread. The \
                  Cortes-Mohri interval depends on the error count and the class sizes alone, \
                  so two learners with close error rates get close intervals whatever their \
                  ranking quality."
            .into(),
        tables: vec![
            SectionTable::new("aslan_interval_readings", readings),
            SectionTable::new("aslan_intervals", table),
        ],
        figures: plots,
        ..Section::default()
    })
}
