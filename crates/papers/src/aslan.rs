//! Aslan, Yildiz & Alpaydin (2009): does the paired t-test on per-fold AUC agree with the one on
//! per-fold error? The four-case table (plain and corrected t-test) and one example figure per
//! case (error and AUC distributions, the ROC curves of all models).

use engine::cache::file_safe;
use engine::config::{ExperimentConfig, IntervalFigure};
use engine::results::{mean_sizes, FoldTable};
use engine::{bail, write_table, Analysis, AnalysisContext, Measure, PairedTest, Plan, Result};
use engine::{Section, TestOptions, Unit};
use report::{Cell, Curve, Distribution, PlotOptions, Rgb, Table};

use crate::published::{aslan_cases, AslanCases};

/// The four cases, in the paper's order (the published counts are in `data/aslan.toml`).
pub const CASES: [&str; 4] = [
    "both accept",
    "error accepts, AUC rejects",
    "error rejects, AUC accepts",
    "both reject",
];

/// Aslan et al.'s four-case table of the t-test on error against the t-test on AUC.
pub struct Agreement;

/// Aslan et al.'s Figures 6 and 7: AUC confidence intervals from one run beside the models.
pub struct Intervals;

/// The measures both Aslan analyses need.
fn check_measures(name: &str, config: &ExperimentConfig) -> Result<(), String> {
    for wanted in [Measure::Error, Measure::Auc] {
        if !config.measures.contains(&wanted) {
            return Err(format!(
                "it needs the measures error and auc (key 'measures'; '{}' is missing) for \
                 analysis '{name}'",
                wanted.name()
            ));
        }
    }
    Ok(())
}

impl Analysis for Agreement {
    fn name(&self) -> &'static str {
        "aslan_agreement"
    }

    fn description(&self) -> &'static str {
        "Aslan et al. (2009): how often the paired t-test on per-fold error and on per-fold \
         AUC agree (the four-case table, plain and corrected t-test), with an example per case"
    }

    fn check(&self, config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        check_measures(self.name(), config)?;
        if plan.learners.len() < 2 {
            return Err("it compares pairs of learners: name at least two".into());
        }
        Ok(())
    }

    fn sections(&self, context: &AnalysisContext) -> Result<Vec<Section>> {
        sections(context, &aslan_cases()?)
    }
}

impl Analysis for Intervals {
    fn name(&self) -> &'static str {
        "aslan_intervals"
    }

    fn description(&self) -> &'static str {
        "Aslan et al. (2009) Figures 6-7: AUC confidence intervals of one train/test run beside \
         the spread of the models' error and AUC (key 'interval_figures')"
    }

    fn check(&self, config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        check_measures(self.name(), config)?;
        if config.interval_figures.is_empty() {
            return Err(
                "it needs at least one comparison in the key 'interval_figures', e.g. \
                 [{ dataset = \"ada\", learners = [\"ripper\", \"lp\"] }]"
                    .into(),
            );
        }
        for figure in &config.interval_figures {
            if let Some(dataset) = plan.datasets.iter().find(|d| d.name == figure.dataset) {
                if dataset.positive.is_none() {
                    return Err(format!(
                        "its confidence intervals need a two-class task, but '{}' has {} \
                         classes: set two_most_confused, or positive_class with one_vs_rest",
                        dataset.name,
                        dataset.dataset.num_classes()
                    ));
                }
            }
        }
        Ok(())
    }

    fn sections(&self, context: &AnalysisContext) -> Result<Vec<Section>> {
        interval_sections(context, &context.config.interval_figures)
    }
}

/// Which of the four cases a pair of decisions (error test rejects, AUC test rejects) is.
fn case_of(error_rejects: bool, auc_rejects: bool) -> usize {
    match (error_rejects, auc_rejects) {
        (false, false) => 0,
        (false, true) => 1,
        (true, false) => 2,
        (true, true) => 3,
    }
}

/// One comparison: a pair of learners on one dataset, with both tests' decisions.
#[derive(Clone, Debug)]
struct Comparison {
    dataset: usize,
    a: usize,
    b: usize,
    plain: [bool; 2],
    corrected: [bool; 2],
    plain_p: [f64; 2],
}

/// The Aslan analysis: tables and figures written under `folder`, returned as report sections.
fn sections(context: &AnalysisContext, paper: &AslanCases) -> Result<Vec<Section>> {
    let (folder, plan, folds) = (context.folder, context.plan, &context.results.folds);
    let alpha = context.config.alpha;
    let position = |wanted: Measure| folds.measures.iter().position(|&m| m == wanted);
    let (Some(error), Some(auc)) = (position(Measure::Error), position(Measure::Auc)) else {
        bail!("analysis 'aslan_agreement' needs the measures error and auc (key 'measures')");
    };
    let mut comparisons = Vec::new();
    let mut skipped = Vec::new();
    for d in 0..plan.datasets.len() {
        let sizes = mean_sizes(plan, d);
        for a in 0..plan.learners.len() {
            for b in a + 1..plan.learners.len() {
                let mut plain = [false; 2];
                let mut corrected = [false; 2];
                let mut plain_p = [f64::NAN; 2];
                let mut ok = true;
                for (slot, measure) in [error, auc].into_iter().enumerate() {
                    let (x, y) = folds.paired(d, measure, a, b);
                    let options = TestOptions {
                        sizes: Some(sizes),
                        ..context.config.test_options(None)
                    };
                    match (
                        PairedTest::PairedT.run(&x, &y, &options),
                        PairedTest::CorrectedT.run(&x, &y, &options),
                    ) {
                        (Ok(p), Ok(c)) => {
                            plain[slot] = p.reject();
                            corrected[slot] = c.reject();
                            plain_p[slot] = p.pvalue();
                        }
                        (Err(problem), _) | (_, Err(problem)) => {
                            ok = false;
                            skipped.push(format!(
                                "{}: {} vs {}: {problem}",
                                plan.datasets[d].name, plan.learners[a].name, plan.learners[b].name
                            ));
                        }
                    }
                }
                if ok {
                    comparisons.push(Comparison {
                        dataset: d,
                        a,
                        b,
                        plain,
                        corrected,
                        plain_p,
                    });
                }
            }
        }
    }
    let tables_folder = folder.join("tables");
    let mut tables = Vec::new();
    for (corrected, stem, title) in [
        (
            false,
            "aslan_four_cases",
            "Paired t-test on error and on AUC: the four cases",
        ),
        (
            true,
            "aslan_four_cases_corrected",
            "Corrected resampled t-test (Nadeau & Bengio) on error and on AUC: the four cases",
        ),
    ] {
        let table = four_case_table(paper, title, &comparisons, corrected, alpha, &skipped);
        write_table(&tables_folder, stem, &table)?;
        tables.push(table);
    }
    let per_dataset = per_dataset_table(plan, &comparisons);
    write_table(&tables_folder, "aslan_cases_per_dataset", &per_dataset)?;
    tables.push(per_dataset);

    let counts = |corrected: bool| {
        let mut counts = [0usize; 4];
        for comparison in &comparisons {
            let decisions = if corrected {
                comparison.corrected
            } else {
                comparison.plain
            };
            counts[case_of(decisions[0], decisions[1])] += 1;
        }
        counts
    };
    let (plain, corrected) = (counts(false), counts(true));
    let k = plan.datasets.first().map_or(0, |d| d.plan.splits.len());
    let factor = plan.datasets.first().map_or(f64::NAN, |_| {
        let (train, test) = mean_sizes(plan, 0);
        1.0 + k as f64 * test / train
    });
    let reading = format!(
        "Of {} comparisons (every pair of the {} learners on each of the {} datasets), the \
         paired t-test at alpha = {alpha} on the {k} test-set values of each learner gives {} / \
         {} / {} / {} (both accept / only AUC rejects / only error rejects / both reject); the \
         paper reports {} of {}. The {k} models are trained on sets that share \
         most of their instances and are tested on one test set, so their values are strongly \
         correlated and the plain t-test treats {k} dependent values as independent. The \
         corrected resampled t-test, which multiplies the variance of the mean difference by \
         1 + k·n_test/n_train (here about {factor:.1}), gives {} / {} / {} / {}: {} comparisons \
         that the plain test calls significant on error, and {} on AUC, are no longer \
         significant.",
        comparisons.len(),
        plan.learners.len(),
        plan.datasets.len(),
        plain[0],
        plain[1],
        plain[2],
        plain[3],
        paper
            .cases
            .iter()
            .map(|case| case.count.to_string())
            .collect::<Vec<_>>()
            .join(" / "),
        paper.comparisons,
        corrected[0],
        corrected[1],
        corrected[2],
        corrected[3],
        comparisons
            .iter()
            .filter(|c| c.plain[0] && !c.corrected[0])
            .count(),
        comparisons
            .iter()
            .filter(|c| c.plain[1] && !c.corrected[1])
            .count(),
    );
    let mut sections = vec![Section {
        title: "Aslan et al. (2009): t-test on error against t-test on AUC".into(),
        reading,
        tables,
        figures: Vec::new(),
        links: Vec::new(),
    }];
    sections.push(example_figures(context, &comparisons, error, auc)?);
    Ok(sections)
}

fn four_case_table(
    paper: &AslanCases,
    title: &str,
    comparisons: &[Comparison],
    corrected: bool,
    alpha: f64,
    skipped: &[String],
) -> Table {
    let mut counts = [0usize; 4];
    for comparison in comparisons {
        let decisions = if corrected {
            comparison.corrected
        } else {
            comparison.plain
        };
        counts[case_of(decisions[0], decisions[1])] += 1;
    }
    let header = ["case", "ours", "ours %", "paper (plain t)", "paper %"]
        .map(String::from)
        .to_vec();
    let mut table = Table::new(title, header);
    let total = comparisons.len().max(1) as f64;
    let published = paper.comparisons as f64;
    for (case, (name, paper)) in CASES.iter().zip(&paper.cases).enumerate() {
        table.push_row(vec![
            Cell::text(*name),
            Cell::integer(counts[case] as i64),
            Cell::number(100.0 * counts[case] as f64 / total).with_decimals(1),
            Cell::integer(paper.count as i64),
            Cell::number(100.0 * paper.count as f64 / published).with_decimals(1),
        ]);
    }
    table.push_row(vec![
        Cell::text("total"),
        Cell::integer(comparisons.len() as i64),
        Cell::number(100.0).with_decimals(1),
        Cell::integer(paper.comparisons as i64),
        Cell::number(100.0).with_decimals(1),
    ]);
    table.push_note(format!(
        "Two-sided tests at alpha = {alpha} on the per-model test-set values; \"accept\" means \
         the test does not reject equal means."
    ));
    if !skipped.is_empty() {
        table.push_note(format!(
            "{} comparisons could not be tested and are left out: {}",
            skipped.len(),
            skipped.join("; ")
        ));
    }
    table
}

fn per_dataset_table(plan: &Plan, comparisons: &[Comparison]) -> Table {
    let mut header = vec!["dataset".to_string()];
    for corrected in ["t", "corrected t"] {
        for name in CASES {
            header.push(format!("{name} ({corrected})"));
        }
    }
    let mut table = Table::new("The four cases per dataset", header);
    for (d, dataset) in plan.datasets.iter().enumerate() {
        let mut plain = [0i64; 4];
        let mut corrected = [0i64; 4];
        for comparison in comparisons.iter().filter(|c| c.dataset == d) {
            plain[case_of(comparison.plain[0], comparison.plain[1])] += 1;
            corrected[case_of(comparison.corrected[0], comparison.corrected[1])] += 1;
        }
        let mut row = vec![Cell::text(&dataset.name)];
        row.extend(plain.iter().chain(&corrected).map(|&n| Cell::integer(n)));
        table.push_row(row);
    }
    table
}

/// A polyline of (false positive rate, true positive rate) points.
type Points = Vec<(f64, f64)>;

/// Colours of the two learners of a comparison figure.
const COLOURS: [Rgb; 2] = [report::PALETTE[0], report::PALETTE[1]];

/// One example comparison per case (the first in dataset and learner order): error and AUC
/// distributions over the models, and the ROC curves of all models of both learners.
fn example_figures(
    context: &AnalysisContext,
    comparisons: &[Comparison],
    error: usize,
    auc: usize,
) -> Result<Section> {
    let (folder, plan, folds) = (context.folder, context.plan, &context.results.folds);
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    for (case, case_name) in CASES.iter().enumerate() {
        let Some(example) = comparisons
            .iter()
            .find(|c| case_of(c.plain[0], c.plain[1]) == case)
        else {
            notes.push(format!("no comparison fell in the case '{case_name}'"));
            continue;
        };
        let dataset = &plan.datasets[example.dataset];
        let names = [
            &plan.learners[example.a].name,
            &plan.learners[example.b].name,
        ];
        let stem = format!(
            "aslan_case{}_{}_{}_{}",
            case + 1,
            file_safe(&dataset.name),
            file_safe(names[0]),
            file_safe(names[1])
        );
        let description = format!(
            "{} on {}: {} vs {} (t-test p = {:.3} on error, {:.3} on AUC)",
            case_name, dataset.name, names[0], names[1], example.plain_p[0], example.plain_p[1]
        );
        for (measure, label, suffix) in [(error, "Error", "error"), (auc, "AUC", "auc")] {
            let distributions = distributions(
                plan,
                folds,
                example.dataset,
                &[example.a, example.b],
                measure,
            );
            let options = PlotOptions::new(
                format!("{label} of the models: {}", dataset.name),
                label,
                "models",
            );
            let svg = report::distribution_plot(&options, &distributions, &[], 15)?;
            let file = format!("figures/{stem}_{suffix}.svg");
            report::write_file(&folder.join(&file), &svg)?;
            figures.push((file, format!("{label} distributions. {description}")));
        }
        let mut curves = Vec::new();
        for (&learner, color) in [example.a, example.b].iter().zip(COLOURS) {
            curves.push(Curve::new(
                plan.learners[learner].name.clone(),
                Vec::new(),
                color,
            ));
            for split in 0..dataset.plan.splits.len() {
                let unit = Unit {
                    dataset: example.dataset,
                    learner,
                    split,
                };
                let Some((points, marked)) = roc_points(context, unit) else {
                    continue;
                };
                let mut curve = Curve::faint(points, color);
                curve.marked = vec![marked];
                curves.push(curve);
            }
        }
        let svg = report::roc_plot(
            &PlotOptions::roc(format!("ROC curves of all models: {}", dataset.name)),
            &curves,
        )?;
        let file = format!("figures/{stem}_roc.svg");
        report::write_file(&folder.join(&file), &svg)?;
        figures.push((
            file,
            format!("ROC curves of every model, the threshold-0.5 point marked. {description}"),
        ));
    }
    Ok(Section {
        title: "Aslan et al.: one example comparison per case (their Figures 2 to 5)".into(),
        reading: if notes.is_empty() {
            "For each of the four cases, the first comparison in dataset and learner order.".into()
        } else {
            format!(
                "For each of the four cases, the first comparison in dataset and learner order \
                 ({}).",
                notes.join("; ")
            )
        },
        tables: Vec::new(),
        figures,
        links: Vec::new(),
    })
}

/// The values of a measure over the models of each of two learners on one dataset, coloured
/// for a comparison figure.
fn distributions(
    plan: &Plan,
    folds: &FoldTable,
    dataset: usize,
    learners: &[usize],
    measure: usize,
) -> Vec<Distribution> {
    learners
        .iter()
        .zip(COLOURS)
        .map(|(&learner, color)| Distribution {
            label: plan.learners[learner].name.clone(),
            values: folds
                .values(dataset, learner, measure)
                .into_iter()
                .flatten()
                .filter(|v| v.is_finite())
                .collect(),
            color,
        })
        .collect()
}

/// The ROC curve of a unit (read back from the cache), thinned to the points a plot can show,
/// and its threshold-0.5 operating point.
fn roc_points(context: &AnalysisContext, unit: Unit) -> Option<(Points, (f64, f64))> {
    let scores = context.test_scores(unit)?;
    let curve = evaluate::roc_curve(&scores).ok()?;
    let points = curve.fpr_tpr();
    let marked = points[curve.operating_point(0.5)];
    Some((thin(&points, 0.002), marked))
}

/// Drops points closer than `tolerance` (in both coordinates) to the last point kept; the first
/// and last points are always kept. Visually identical at plot resolution, and the SVG stays
/// small.
pub fn thin(points: &[(f64, f64)], tolerance: f64) -> Vec<(f64, f64)> {
    let mut kept: Vec<(f64, f64)> = Vec::new();
    for (index, &point) in points.iter().enumerate() {
        let last = index + 1 == points.len();
        match kept.last() {
            Some(&(x, y))
                if !last && (point.0 - x).abs() < tolerance && (point.1 - y).abs() < tolerance => {}
            _ => kept.push(point),
        }
    }
    kept
}

/// Aslan et al. Figures 6 and 7: for each configured comparison, the error and the AUC of the
/// models of two learners, with the Cortes-Mohri and Agarwal et al. AUC confidence intervals
/// of each learner computed from a single train/test run (the first model), as they did.
fn interval_sections(
    context: &AnalysisContext,
    figures: &[IntervalFigure],
) -> Result<Vec<Section>> {
    let (folder, plan, folds) = (context.folder, context.plan, &context.results.folds);
    let alpha = context.config.alpha;
    if let Err(problem) = Intervals.check(context.config, plan) {
        bail!("analysis 'aslan_intervals': {problem}");
    }
    let position = |wanted: Measure| folds.measures.iter().position(|&m| m == wanted);
    let (Some(error), Some(auc)) = (position(Measure::Error), position(Measure::Auc)) else {
        bail!("analysis 'aslan_intervals' needs the measures error and auc (key 'measures')");
    };
    let mut files = Vec::new();
    let mut table = Table::new(
        "AUC confidence intervals from one train/test run beside the spread of the models",
        [
            "dataset",
            "learner",
            "test AUC (model 1)",
            "errors (model 1)",
            "Cortes-Mohri low",
            "Cortes-Mohri high",
            "Agarwal low",
            "Agarwal high",
            "AUC of the models: min",
            "max",
        ]
        .map(String::from)
        .to_vec(),
    );
    for figure in figures {
        let Some(d) = plan.datasets.iter().position(|x| x.name == figure.dataset) else {
            bail!("interval_figures: no dataset '{}'", figure.dataset);
        };
        let dataset = &plan.datasets[d];
        let learners: Vec<usize> = figure
            .learners
            .iter()
            .map(|name| plan.learners.iter().position(|l| &l.name == name))
            .collect::<Option<_>>()
            .ok_or_else(|| engine::Error::message("interval_figures: unknown learner"))?;
        let mut intervals = Vec::new();
        for (&learner, color) in learners.iter().zip(COLOURS) {
            let unit = Unit {
                dataset: d,
                learner,
                split: 0,
            };
            let Some(scores) = context.test_scores(unit) else {
                continue;
            };
            let (positives, negatives) = scores.class_totals();
            let (positives, negatives) = (positives.round() as usize, negatives.round() as usize);
            let single_auc = evaluate::auc_or_nan(&scores);
            let errors = (0..scores.len())
                .filter(|&i| (scores.scores()[i] > 0.5) != scores.labels()[i])
                .count();
            let cortes = stats::cortes_mohri_interval(positives, negatives, errors, alpha)?;
            let agarwal = stats::agarwal_interval(single_auc, positives, negatives, alpha)?;
            let name = &plan.learners[learner].name;
            let all: Vec<f64> = folds
                .values(d, learner, auc)
                .into_iter()
                .flatten()
                .filter(|v| v.is_finite())
                .collect();
            let min = all.iter().copied().fold(f64::INFINITY, f64::min);
            let max = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            table.push_row(vec![
                Cell::text(&dataset.name),
                Cell::text(name),
                Cell::number(single_auc).with_decimals(4),
                Cell::integer(errors as i64),
                Cell::number(cortes.low).with_decimals(4),
                Cell::number(cortes.high).with_decimals(4),
                Cell::number(agarwal.low).with_decimals(4),
                Cell::number(agarwal.high).with_decimals(4),
                Cell::number(min).with_decimals(4),
                Cell::number(max).with_decimals(4),
            ]);
            // The Cortes-Mohri interval is centred on the expected AUC given the error count,
            // not on the observed AUC.
            let expected = stats::cortes_mohri_moments(positives, negatives, errors)?.mean;
            intervals.push(report::Interval {
                label: Some(format!("{name}: Cortes-Mohri")),
                low: cortes.low,
                high: cortes.high,
                center: Some(expected),
                color,
            });
            intervals.push(report::Interval {
                label: Some(format!("{name}: Agarwal et al.")),
                low: agarwal.low,
                high: agarwal.high,
                center: Some(single_auc),
                color,
            });
        }
        let stem = format!(
            "aslan_intervals_{}_{}_{}",
            file_safe(&dataset.name),
            file_safe(&figure.learners[0]),
            file_safe(&figure.learners[1])
        );
        for (measure, label, suffix, drawn) in [
            (error, "Error", "error", &[][..]),
            (auc, "AUC", "auc", &intervals[..]),
        ] {
            let distributions = distributions(plan, folds, d, &learners, measure);
            let options = PlotOptions::new(
                format!(
                    "{label}: {} vs {} on {}",
                    figure.learners[0], figure.learners[1], dataset.name
                ),
                label,
                "models",
            );
            let svg = report::distribution_plot(&options, &distributions, drawn, 15)?;
            let file = format!("figures/{stem}_{suffix}.svg");
            report::write_file(&folder.join(&file), &svg)?;
            files.push((
                file,
                format!(
                    "{label} of the {} models of {} and {} on {}{}",
                    dataset.plan.splits.len(),
                    figure.learners[0],
                    figure.learners[1],
                    dataset.name,
                    if drawn.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", with the {:.0}% Cortes-Mohri and Agarwal et al. intervals of each \
                             learner's AUC from its first model alone",
                            100.0 * (1.0 - alpha)
                        )
                    }
                ),
            ));
        }
    }
    table.push_note(
        "Cortes-Mohri: expected AUC +- z sd over all rankings with the observed number of errors \
         at threshold 0.5, from the error count and the class sizes of the test set (the moments \
         of Cortes & Mohri 2003/2004; how their 2004 paper widens this for the error rate's own \
         uncertainty could not be read, see crates/stats/README.md); dots mark the expected \
         AUC. Agarwal et al.: distribution-free large-deviation bound around the test AUC (dots: \
         the test AUC).",
    );
    write_table(&folder.join("tables"), "aslan_intervals", &table)?;
    Ok(vec![Section {
        title: "Aslan et al.: AUC confidence intervals against the spread of 30 models (their \
                Figures 6 and 7)"
            .into(),
        reading: "Each interval is computed from one train/test run, as a user with a single \
                  split would; the histograms show how far the AUC of the 30 models, trained on \
                  overlapping sets and tested on one test set, actually spreads."
            .into(),
        tables: vec![table],
        figures: files,
        links: Vec::new(),
    }])
}
