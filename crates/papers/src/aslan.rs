//! Aslan, Yildiz & Alpaydin (2009): does the paired t-test on per-fold AUC agree with the one on
//! per-fold error? The four-case table beside the paper's, the comparisons the paper names in
//! its figures beside ours, one example figure per case, and their Figures 6-7: AUC confidence
//! intervals of one model trained on all of train-all, beside the spread of the 30 models.

use engine::cache::file_safe;
use engine::config::{ExperimentConfig, IntervalFigure};
use engine::results::{mean_sizes, FoldTable};
use engine::{Analysis, AnalysisError, Measure, PairedTest, Plan, RunRecord};
use engine::{Figure, Section, SectionTable, TestOptions, Unit};
use report::{Cell, Curve, Distribution, PlotOptions, Rgb, Table};
use stats::{CortesMohriInterval, ErrorRateBound};

use crate::error::{Error, Result};
use crate::published::{aslan_cases, AslanCases, AslanNamedComparison};

/// The four cases, in the paper's order (the published counts are in `data/aslan.toml`).
pub const CASES: [&str; 4] = [
    "both accept",
    "error accepts, AUC rejects",
    "error rejects, AUC accepts",
    "both reject",
];

/// P-values in this range are called near the threshold: another split can flip the decision.
const NEAR_THRESHOLD: (f64, f64) = (0.01, 0.2);

/// Aslan et al.'s four-case table of the t-test on error against the t-test on AUC.
pub struct Agreement;

/// Aslan et al.'s Figures 6 and 7: AUC confidence intervals of one model beside the models.
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

/// The columns of error and AUC in the fold table.
fn error_and_auc(record: &RunRecord, name: &str) -> Result<(usize, usize)> {
    let measures = &record.results.folds.measures;
    let position = |wanted: Measure| measures.iter().position(|&m| m == wanted);
    match (position(Measure::Error), position(Measure::Auc)) {
        (Some(error), Some(auc)) => Ok((error, auc)),
        _ => Err(Error::Needs(format!(
            "analysis '{name}' needs the measures error and auc (key 'measures')"
        ))),
    }
}

impl Analysis for Agreement {
    fn name(&self) -> &'static str {
        "aslan_agreement"
    }

    fn description(&self) -> &'static str {
        "Aslan et al. (2009): how often the paired t-test on per-fold error and on per-fold \
         AUC agree (the four-case table beside the paper's, plain and corrected t-test), the \
         comparisons the paper names beside ours, and an example per case"
    }

    fn check(&self, config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        check_measures(self.name(), config)?;
        if plan.learners.len() < 2 {
            return Err("it compares pairs of learners: name at least two".into());
        }
        Ok(())
    }

    fn sections(&self, record: &RunRecord) -> Result<Vec<Section>, AnalysisError> {
        Ok(sections(record, &aslan_cases()?)?)
    }

    fn opening_sections(&self) -> usize {
        1
    }
}

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

    fn whole_training(&self, config: &ExperimentConfig, plan: &Plan) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for figure in &config.interval_figures {
            let dataset = plan.datasets.iter().position(|d| d.name == figure.dataset);
            for name in &figure.learners {
                let learner = plan.learners.iter().position(|l| &l.name == name);
                if let (Some(dataset), Some(learner)) = (dataset, learner) {
                    pairs.push((dataset, learner));
                }
            }
        }
        pairs
    }

    fn sections(&self, record: &RunRecord) -> Result<Vec<Section>, AnalysisError> {
        Ok(interval_sections(
            record,
            &record.config.interval_figures,
            &aslan_cases()?,
        )?)
    }

    fn opening_sections(&self) -> usize {
        1
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

/// One comparison: a pair of learners on one dataset, with both tests' decisions on error
/// (index 0) and on AUC (index 1).
#[derive(Clone, Debug)]
struct Comparison {
    dataset: usize,
    a: usize,
    b: usize,
    plain: [bool; 2],
    corrected: [bool; 2],
    plain_p: [f64; 2],
    corrected_p: [f64; 2],
}

impl Comparison {
    /// The case under the plain (false) or the corrected (true) t-test.
    fn case(&self, corrected: bool) -> usize {
        let decisions = if corrected {
            self.corrected
        } else {
            self.plain
        };
        case_of(decisions[0], decisions[1])
    }

    /// True when a plain-t p-value on error or on AUC is near the threshold.
    fn near_threshold(&self) -> bool {
        self.plain_p
            .iter()
            .any(|&p| (NEAR_THRESHOLD.0..=NEAR_THRESHOLD.1).contains(&p))
    }
}

/// The plain and corrected t-tests on error and on AUC of learners `a` and `b` on dataset `d`;
/// why not, when a test cannot be computed.
fn compare(
    record: &RunRecord,
    (error, auc): (usize, usize),
    d: usize,
    a: usize,
    b: usize,
) -> Result<Comparison, String> {
    let folds = &record.results.folds;
    let options = TestOptions {
        sizes: Some(mean_sizes(&record.plan, d)),
        ..record.config.test_options(None)
    };
    let mut comparison = Comparison {
        dataset: d,
        a,
        b,
        plain: [false; 2],
        corrected: [false; 2],
        plain_p: [f64::NAN; 2],
        corrected_p: [f64::NAN; 2],
    };
    for (slot, measure) in [error, auc].into_iter().enumerate() {
        let (x, y) = folds.paired(d, measure, a, b);
        let plain = PairedTest::PairedT.run(&x, &y, &options)?;
        let corrected = PairedTest::CorrectedT.run(&x, &y, &options)?;
        comparison.plain[slot] = plain.reject();
        comparison.plain_p[slot] = plain.pvalue();
        comparison.corrected[slot] = corrected.reject();
        comparison.corrected_p[slot] = corrected.pvalue();
    }
    Ok(comparison)
}

/// Counts of the four cases under the plain or the corrected t-test.
fn counts(comparisons: &[Comparison], corrected: bool) -> [usize; 4] {
    let mut counts = [0usize; 4];
    for comparison in comparisons {
        counts[comparison.case(corrected)] += 1;
    }
    counts
}

/// The Aslan analysis as report sections (the first, the side-by-side with the paper, opens
/// the report).
fn sections(record: &RunRecord, paper: &AslanCases) -> Result<Vec<Section>> {
    let plan = &record.plan;
    let alpha = record.config.alpha;
    let columns = error_and_auc(record, "aslan_agreement")?;
    let mut comparisons = Vec::new();
    let mut skipped = Vec::new();
    for d in 0..plan.datasets.len() {
        for a in 0..plan.learners.len() {
            for b in a + 1..plan.learners.len() {
                match compare(record, columns, d, a, b) {
                    Ok(comparison) => comparisons.push(comparison),
                    Err(problem) => skipped.push(format!(
                        "{}: {} vs {}: {problem}",
                        plan.datasets[d].name, plan.learners[a].name, plan.learners[b].name
                    )),
                }
            }
        }
    }
    let beside = beside_paper_table(paper, &comparisons, alpha, &skipped);
    let named = named_table(record, columns, paper);
    let corrected_table = corrected_table(paper, &comparisons, alpha);
    let per_dataset = per_dataset_table(plan, &comparisons);

    let (plain, corrected) = (counts(&comparisons, false), counts(&comparisons, true));
    let published: Vec<usize> = paper.cases.iter().map(|case| case.count).collect();
    let order = |counts: &[usize]| {
        let mut order: Vec<usize> = (0..counts.len()).collect();
        order.sort_by_key(|&case| std::cmp::Reverse(counts[case]));
        order
    };
    let same_order = order(&plain) == order(&published);
    let equal = (0..4)
        .filter(|&case| plain[case] == published[case])
        .count();
    let rejects = |counts: &[usize], slot: usize| {
        if slot == 0 {
            counts[2] + counts[3]
        } else {
            counts[1] + counts[3]
        }
    };
    let near = comparisons.iter().filter(|c| c.near_threshold()).count();
    let opening = Section {
        title: "Aslan et al. (2009) beside the paper: t-test on error against t-test on AUC".into(),
        reading: format!(
            "Of {} comparisons (every pair of the {} learners on each of the {} datasets), the \
             paired t-test at alpha = {alpha} gives {} / {} / {} / {} (both accept / only AUC \
             rejects / only error rejects / both reject); the paper reports {} of {}: {equal} \
             of the 4 counts are equal. What matches: {}; the AUC test rejects {} times \
             against the error test's {} (the paper: {} against {}). What differs: the \
             counts, by the difference column. Our learners are not theirs (C4.5, naive Bayes \
             and RIPPER follow Weka 3.6; the paper gives neither the perceptron's learning \
             rate, epochs nor batch size), 5 of the 15 datasets are substitutes and the others \
             may be other versions, the positive class after the two-class reduction is our \
             choice (the minority class), and the splits are ours: {near} of our comparisons \
             have a p-value in [{}, {}] on error or on AUC, where a new split can flip the \
             decision. The second table sets the comparisons the paper names in its figures \
             beside ours, the only cells of the paper's table that can be compared one by \
             one.",
            comparisons.len(),
            plan.learners.len(),
            plan.datasets.len(),
            plain[0],
            plain[1],
            plain[2],
            plain[3],
            published
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" / "),
            paper.comparisons,
            if same_order {
                "the four cases rank in the same order (both reject most often, both accept \
                 least often)"
            } else {
                "the four cases do not rank in the same order as the paper's"
            },
            rejects(&plain, 1),
            rejects(&plain, 0),
            rejects(&published, 1),
            rejects(&published, 0),
            NEAR_THRESHOLD.0,
            NEAR_THRESHOLD.1,
        ),
        tables: vec![
            SectionTable::new("aslan_four_cases", beside),
            SectionTable::new("aslan_named_comparisons", named),
        ],
        ..Section::default()
    };
    let k = plan.datasets.first().map_or(0, |d| d.plan.splits.len());
    let factor = plan.datasets.first().map_or(f64::NAN, |_| {
        let (train, test) = mean_sizes(plan, 0);
        1.0 + k as f64 * test / train
    });
    let beyond = Section {
        title: "Beyond the paper: the corrected resampled t-test, and the cases per dataset".into(),
        reading: format!(
            "The {k} models are trained on sets that share most of their instances and are \
             tested on one test set, so their values are strongly correlated and the plain \
             t-test treats {k} dependent values as independent. The corrected resampled t-test, \
             which multiplies the variance of the mean difference by 1 + k·n_test/n_train (here \
             about {factor:.1}), gives {} / {} / {} / {}: {} comparisons that the plain test \
             calls significant on error, and {} on AUC, are no longer significant.",
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
        ),
        tables: vec![
            SectionTable::new("aslan_four_cases_corrected", corrected_table),
            SectionTable::new("aslan_cases_per_dataset", per_dataset),
        ],
        ..Section::default()
    };
    let examples = example_figures(record, &comparisons, columns.0, columns.1)?;
    Ok(vec![opening, beyond, examples])
}

/// The four-case table of the plain t-test, ours beside the paper's, with the difference and
/// its cause per row, and the rows derived from the four cases.
fn beside_paper_table(
    paper: &AslanCases,
    comparisons: &[Comparison],
    alpha: f64,
    skipped: &[String],
) -> Table {
    let ours = counts(comparisons, false);
    let header = [
        "case",
        "paper",
        "ours",
        "difference (ours - paper)",
        "paper %",
        "ours %",
        "cause of the difference",
    ]
    .map(String::from)
    .to_vec();
    let mut table = Table::new(
        "The four cases of the paired t-test on error and on AUC: ours beside the paper's",
        header,
    );
    let total = comparisons.len().max(1) as f64;
    let published = paper.comparisons.max(1) as f64;
    let mut row = |name: &str, theirs: usize, ours: usize, cause: String| {
        table.push_row(vec![
            Cell::text(name),
            Cell::integer(theirs as i64),
            Cell::integer(ours as i64),
            Cell::integer(ours as i64 - theirs as i64),
            Cell::number(100.0 * theirs as f64 / published).with_decimals(1),
            Cell::number(100.0 * ours as f64 / total).with_decimals(1),
            Cell::text(cause),
        ]);
    };
    for (case, (name, published_case)) in CASES.iter().zip(&paper.cases).enumerate() {
        let in_case: Vec<&Comparison> = comparisons
            .iter()
            .filter(|c| c.case(false) == case)
            .collect();
        let near = in_case.iter().filter(|c| c.near_threshold()).count();
        let cause = if ours[case] == published_case.count {
            "same count".to_string()
        } else {
            format!(
                "{near} of our {} have a p-value in [{}, {}] on error or AUC (a new split can \
                 flip them); our learners, dataset versions and splits are not theirs",
                in_case.len(),
                NEAR_THRESHOLD.0,
                NEAR_THRESHOLD.1
            )
        };
        row(name, published_case.count, ours[case], cause);
    }
    let theirs: Vec<usize> = paper.cases.iter().map(|case| case.count).collect();
    for (name, pick) in [
        ("error test rejects (cases 3 + 4)", [2, 3]),
        ("AUC test rejects (cases 2 + 4)", [1, 3]),
        ("the tests disagree (cases 2 + 3)", [1, 2]),
    ] {
        let (theirs, ours) = (
            theirs[pick[0]] + theirs[pick[1]],
            ours[pick[0]] + ours[pick[1]],
        );
        let cause = if theirs == ours {
            "same count".to_string()
        } else {
            "the sum of the two rows above it".to_string()
        };
        row(name, theirs, ours, cause);
    }
    row(
        "total",
        paper.comparisons,
        comparisons.len(),
        if paper.comparisons == comparisons.len() {
            "same count".to_string()
        } else {
            "the run has another number of datasets or learners".to_string()
        },
    );
    table.push_note(format!(
        "Two-sided paired t-tests at alpha = {alpha} on the per-model test-set values; \
         \"accept\" means the test does not reject equal means. Paper: {}.",
        paper.source
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

/// The four cases of the corrected t-test beside the plain one's and the paper's.
fn corrected_table(paper: &AslanCases, comparisons: &[Comparison], alpha: f64) -> Table {
    let (plain, corrected) = (counts(comparisons, false), counts(comparisons, true));
    let header = [
        "case",
        "paper (plain t)",
        "ours (plain t)",
        "ours (corrected t)",
    ]
    .map(String::from)
    .to_vec();
    let mut table = Table::new(
        "Corrected resampled t-test (Nadeau & Bengio) on error and on AUC: the four cases",
        header,
    );
    for (case, (name, published)) in CASES.iter().zip(&paper.cases).enumerate() {
        table.push_row(vec![
            Cell::text(*name),
            Cell::integer(published.count as i64),
            Cell::integer(plain[case] as i64),
            Cell::integer(corrected[case] as i64),
        ]);
    }
    table.push_note(format!(
        "Two-sided tests at alpha = {alpha}. The paper used the plain t-test only; the \
         corrected test is ours."
    ));
    table
}

/// A case's name, with the p-values behind it.
fn case_with_pvalues(case: usize, pvalues: [f64; 2]) -> String {
    format!(
        "{} (p = {:.3} on error, {:.3} on AUC)",
        CASES[case], pvalues[0], pvalues[1]
    )
}

/// The comparisons the paper names in its figures, their case beside ours.
fn named_table(record: &RunRecord, columns: (usize, usize), paper: &AslanCases) -> Table {
    let header = [
        "figure",
        "dataset (paper / ours)",
        "learners",
        "paper's case",
        "ours (plain t)",
        "same case",
        "ours (corrected t)",
    ]
    .map(String::from)
    .to_vec();
    let mut table = Table::new(
        "The comparisons the paper names in its figures, beside ours",
        header,
    );
    let mut same = 0;
    let mut compared = 0;
    for named in &paper.named {
        let (ours, agree, corrected) = match named_comparison(record, columns, named) {
            Ok(comparison) => {
                let case = comparison.case(false);
                let agree = CASES[case] == named.case;
                compared += 1;
                same += usize::from(agree);
                (
                    case_with_pvalues(case, comparison.plain_p),
                    if agree { "yes" } else { "no" }.to_string(),
                    case_with_pvalues(comparison.case(true), comparison.corrected_p),
                )
            }
            Err(why) => (why, "-".to_string(), "-".to_string()),
        };
        let mut paper_case = named.case.clone();
        if let Some(note) = &named.note {
            paper_case.push_str(&format!(" ({note})"));
        }
        table.push_row(vec![
            Cell::text(&named.figure),
            Cell::text(format!(
                "{} / {}",
                named.paper_dataset,
                named.dataset.as_deref().unwrap_or("none")
            )),
            Cell::text(named.learners.join(" vs ")),
            Cell::text(paper_case),
            Cell::text(ours),
            Cell::text(agree),
            Cell::text(corrected),
        ]);
    }
    table.push_note(format!(
        "{same} of the {compared} comparisons we could run fall in the paper's case. A \
         comparison whose p-value is near alpha on either measure can change case with the \
         split; the learners and the data are not the paper's (see the reading)."
    ));
    table
}

/// Our comparison of a comparison the paper names; why not, when the run does not have it.
fn named_comparison(
    record: &RunRecord,
    columns: (usize, usize),
    named: &AslanNamedComparison,
) -> Result<Comparison, String> {
    let plan = &record.plan;
    let Some(dataset) = &named.dataset else {
        return Err(format!(
            "no copy of '{}' (not available; see datasets/SOURCES.md)",
            named.paper_dataset
        ));
    };
    let d = plan
        .datasets
        .iter()
        .position(|x| &x.name == dataset)
        .ok_or_else(|| format!("'{dataset}' is not in this run"))?;
    let learner = |name: &String| {
        plan.learners
            .iter()
            .position(|l| &l.name == name)
            .ok_or_else(|| format!("no learner named '{name}' in this run"))
    };
    let (a, b) = (learner(&named.learners[0])?, learner(&named.learners[1])?);
    compare(record, columns, d, a, b)
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
            plain[comparison.case(false)] += 1;
            corrected[comparison.case(true)] += 1;
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
    record: &RunRecord,
    comparisons: &[Comparison],
    error: usize,
    auc: usize,
) -> Result<Section> {
    let (plan, folds) = (&record.plan, &record.results.folds);
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
            figures.push(Figure {
                file: format!("figures/{stem}_{suffix}.svg"),
                caption: format!("{label} distributions. {description}"),
                svg,
            });
        }
        let mut curves = Vec::new();
        for (&learner, color) in [example.a, example.b].iter().zip(COLOURS) {
            curves.push(Curve::new(
                plan.learners[learner].name.clone(),
                Vec::new(),
                color,
            ));
            for split in 0..dataset.plan.splits.len() {
                let unit = Unit::on_split(example.dataset, learner, split);
                let Some((points, marked)) = roc_points(record, unit) else {
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
        figures.push(Figure {
            file: format!("figures/{stem}_roc.svg"),
            caption: format!(
                "ROC curves of every model, the threshold-0.5 point marked. {description}"
            ),
            svg,
        });
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
        figures,
        ..Section::default()
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
fn roc_points(record: &RunRecord, unit: Unit) -> Option<(Points, (f64, f64))> {
    let scores = record.test_scores(unit)?;
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

/// Aslan et al. Figures 6 and 7: for each configured comparison, the paper's reading of the
/// tests beside ours, the error and the AUC of the models of two learners, with the
/// Cortes-Mohri (2004) and Agarwal et al. AUC confidence intervals of each learner's model
/// trained on all of train-all, as the paper computes them.
fn interval_sections(
    record: &RunRecord,
    figures: &[IntervalFigure],
    paper: &AslanCases,
) -> Result<Vec<Section>> {
    let (plan, folds) = (&record.plan, &record.results.folds);
    let alpha = record.config.alpha;
    Intervals
        .check(&record.config, plan)
        .map_err(Error::Needs)?;
    let columns = error_and_auc(record, "aslan_intervals")?;
    let (error, auc) = columns;
    let mut files = Vec::new();
    let mut readings = Table::new(
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
    );
    let mut table = Table::new(
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
    );
    let range = |interval: stats::Interval| format!("{:.4} - {:.4}", interval.low, interval.high);
    for figure in figures {
        let Some(d) = plan.datasets.iter().position(|x| x.name == figure.dataset) else {
            return Err(Error::Needs(format!(
                "interval_figures: no dataset '{}'",
                figure.dataset
            )));
        };
        let dataset = &plan.datasets[d];
        let learners: Vec<usize> = figure
            .learners
            .iter()
            .map(|name| plan.learners.iter().position(|l| &l.name == name))
            .collect::<Option<_>>()
            .ok_or_else(|| Error::Needs("interval_figures: unknown learner".to_string()))?;
        let computed: Result<Vec<LearnerIntervals>> = learners
            .iter()
            .map(|&learner| learner_intervals(record, d, learner))
            .collect();
        let computed = match computed {
            Ok(computed) => computed,
            Err(why) => {
                // A merge with --allow-missing may lack a model: the figure is left out.
                table.push_note(format!(
                    "{} vs {} on {}: not drawn: {why}",
                    figure.learners[0], figure.learners[1], dataset.name
                ));
                continue;
            }
        };
        let model_aucs = |learner: usize| -> Vec<f64> {
            folds
                .values(d, learner, auc)
                .into_iter()
                .flatten()
                .filter(|v| v.is_finite())
                .collect()
        };
        let mut inside = Vec::new();
        let mut intervals = Vec::new();
        let mut error_intervals = Vec::new();
        for (found, color) in computed.iter().zip(COLOURS) {
            let name = &plan.learners[found.learner].name;
            let all = model_aucs(found.learner);
            let min = all.iter().copied().fold(f64::INFINITY, f64::min);
            let max = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            table.push_row(vec![
                Cell::text(&dataset.name),
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
            inside.push(format!(
                "{name}: {} / {}",
                held(&all, found.full.auc),
                held(&all, found.agarwal)
            ));
            intervals.push(report::Interval {
                label: Some(format!("{name}: Cortes-Mohri")),
                low: found.full.auc.low,
                high: found.full.auc.high,
                center: Some(found.full.expected_auc),
                color,
            });
            intervals.push(report::Interval {
                label: Some(format!("{name}: Agarwal et al.")),
                low: found.agarwal.low,
                high: found.agarwal.high,
                center: Some(found.auc),
                color,
            });
            error_intervals.push(report::Interval {
                label: Some(format!("{name}: error rate")),
                low: found.full.error_rate.low,
                high: found.full.error_rate.high,
                center: Some(found.errors as f64 / found.rows.max(1) as f64),
                color,
            });
        }
        let named = paper.named.iter().find(|named| {
            named.dataset.as_deref() == Some(figure.dataset.as_str())
                && named.learners == [figure.learners[0].clone(), figure.learners[1].clone()]
        });
        let ours = compare(record, columns, d, learners[0], learners[1]);
        let (paper_error, paper_auc) = match named.and_then(|named| {
            CASES
                .iter()
                .position(|&case| case == named.case)
                .map(|case| (case >= 2, case % 2 == 1))
        }) {
            Some((error_rejects, auc_rejects)) => (
                if error_rejects { "rejects" } else { "accepts" }.to_string(),
                if auc_rejects { "rejects" } else { "accepts" }.to_string(),
            ),
            None => (
                "not in the paper".to_string(),
                "not in the paper".to_string(),
            ),
        };
        let (our_error, our_auc, same) = match &ours {
            Ok(comparison) => (
                decision(comparison.plain[0], comparison.plain_p[0]),
                decision(comparison.plain[1], comparison.plain_p[1]),
                match named {
                    Some(named) => if CASES[comparison.case(false)] == named.case {
                        "yes"
                    } else {
                        "no"
                    }
                    .to_string(),
                    None => "-".to_string(),
                },
            ),
            Err(why) => (why.clone(), why.clone(), "-".to_string()),
        };
        readings.push_row(vec![
            Cell::text(named.map_or("-", |named| named.figure.as_str())),
            Cell::text(&dataset.name),
            Cell::text(figure.learners.join(" vs ")),
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
        ]);
        let stem = format!(
            "aslan_intervals_{}_{}_{}",
            file_safe(&dataset.name),
            file_safe(&figure.learners[0]),
            file_safe(&figure.learners[1])
        );
        for (measure, label, suffix, drawn) in [
            (error, "Error", "error", &error_intervals[..]),
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
            let what = if measure == error {
                "the error-rate interval at level sqrt(1 - alpha) that the Cortes-Mohri \
                 construction starts from (dots: the observed error rate)"
            } else {
                "the Cortes-Mohri (2004) interval (dots: the expected AUC at the observed \
                 error count) and the Agarwal et al. interval (dots: the test AUC)"
            };
            files.push(Figure {
                file: format!("figures/{stem}_{suffix}.svg"),
                caption: format!(
                    "{label} of the {} models of {} and {} on {}, with {what} of each \
                     learner's model trained on all of train-all, at {:.0}%",
                    dataset.plan.splits.len(),
                    figure.learners[0],
                    figure.learners[1],
                    dataset.name,
                    100.0 * (1.0 - alpha)
                ),
                svg,
            });
        }
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
    Ok(vec![Section {
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
        figures: files,
        ..Section::default()
    }])
}
