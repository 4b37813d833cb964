//! Aslan, Yildiz & Alpaydin (2009): does the paired t-test on per-fold AUC agree with the one on
//! per-fold error? The four-case table beside the paper's, the comparisons the paper names in
//! its figures beside ours, one example figure per case, and their Figures 6-7: AUC confidence
//! intervals of one model trained on all of train-all, beside the spread of the 30 models.

use engine::config::experiment::ExperimentConfig;
use engine::file_safe;
use engine::record::results::{mean_sizes, FoldTable};
use engine::{Analysis, AnalysisError, PairedTest, Plan, RunRecord};
use engine::{Figure, Section, SectionTable, TestOptions, Unit};
use report::{Cell, Curve, Distribution, PlotOptions, Rgb, Table};

use crate::envelope::{Envelope, SeedRuns, ASLAN_SEEDS};
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

/// The measures both Aslan analyses need.
pub(crate) fn check_measures(name: &str, plan: &Plan) -> Result<(), String> {
    for wanted in ["error", "auc"] {
        if !plan.measures.iter().any(|measure| measure.name() == wanted) {
            return Err(format!(
                "it needs the measures error and auc (key 'measures'; '{wanted}' is missing) for \
                 analysis '{name}'"
            ));
        }
    }
    Ok(())
}

/// The columns of error and AUC in the fold table.
pub(crate) fn error_and_auc(record: &RunRecord, name: &str) -> Result<(usize, usize)> {
    let measures = &record.results.folds.measures;
    let position = |wanted: &str| measures.iter().position(|m| m.name() == wanted);
    match (position("error"), position("auc")) {
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

    fn check(&self, _config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        check_measures(self.name(), plan)?;
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
pub(crate) struct Comparison {
    /// The dataset.
    pub(crate) dataset: usize,
    /// The first learner.
    pub(crate) a: usize,
    /// The second learner.
    pub(crate) b: usize,
    /// Whether the plain t-test rejects, on error and on AUC.
    pub(crate) plain: [bool; 2],
    /// Whether the corrected t-test rejects, on error and on AUC.
    pub(crate) corrected: [bool; 2],
    /// The plain t-test's p-values.
    pub(crate) plain_p: [f64; 2],
    /// The corrected t-test's p-values.
    pub(crate) corrected_p: [f64; 2],
    /// Whether every paired difference is zero (t = 0/0), on error and on AUC.
    pub(crate) degenerate: [bool; 2],
}

impl Comparison {
    /// The case under the plain (false) or the corrected (true) t-test.
    pub(crate) fn case(&self, corrected: bool) -> usize {
        let decisions = if corrected {
            self.corrected
        } else {
            self.plain
        };
        case_of(decisions[0], decisions[1])
    }

    /// The case with 0/0 read as `zero_rejects` says: false scores it p = 1, "accept" (Weka's
    /// convention, `stats::paired_t_test`'s, [`Comparison::case`]'s); true reads the paper's
    /// rule literally (0/0 is in no acceptance interval, so the hypothesis is not accepted).
    pub(crate) fn case_read(&self, corrected: bool, zero_rejects: bool) -> usize {
        let mut decisions = if corrected {
            self.corrected
        } else {
            self.plain
        };
        for (decision, degenerate) in decisions.iter_mut().zip(self.degenerate) {
            *decision |= zero_rejects && degenerate;
        }
        case_of(decisions[0], decisions[1])
    }

    /// True when every paired difference is zero on error or on AUC.
    pub(crate) fn is_degenerate(&self) -> bool {
        self.degenerate.iter().any(|&d| d)
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
pub(crate) fn compare(
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
        degenerate: [false; 2],
    };
    for (slot, measure) in [error, auc].into_iter().enumerate() {
        let (x, y) = folds.paired(d, measure, a, b);
        comparison.degenerate[slot] = !x.is_empty() && x.iter().zip(&y).all(|(p, q)| p == q);
        let plain = PairedTest::PairedT.run(&x, &y, &options)?;
        let corrected = PairedTest::CorrectedT.run(&x, &y, &options)?;
        comparison.plain[slot] = plain.reject();
        comparison.plain_p[slot] = plain.pvalue();
        comparison.corrected[slot] = corrected.reject();
        comparison.corrected_p[slot] = corrected.pvalue();
    }
    Ok(comparison)
}

/// Counts of the four cases under the plain or the corrected t-test (0/0 scored accept).
fn counts(comparisons: &[Comparison], corrected: bool) -> [usize; 4] {
    counts_read(comparisons, corrected, false)
}

/// Counts of the four cases with 0/0 read as reject (`zero_rejects`) or accept.
fn counts_read(comparisons: &[Comparison], corrected: bool, zero_rejects: bool) -> [usize; 4] {
    let mut counts = [0usize; 4];
    for comparison in comparisons {
        counts[comparison.case_read(corrected, zero_rejects)] += 1;
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
    let beside = beside_paper_table(plan, paper, &comparisons, alpha, &skipped)?;
    let named = named_table(record, columns, paper);
    let opening = opening_section(record, paper, &comparisons, [beside, named]);
    let corrected_table = corrected_table(paper, &comparisons, alpha);
    let per_dataset = per_dataset_table(plan, &comparisons);
    let beyond = beyond_section(plan, &comparisons, [corrected_table, per_dataset]);
    let examples = example_figures(record, &comparisons, columns.0, columns.1)?;
    let normality = crate::aslan_normality::section(record, columns)?;
    Ok(vec![opening, beyond, normality, examples])
}

/// The section that opens the report: the four cases beside the paper's, and the comparisons
/// the paper names beside ours (`tables`), with a reading of what matches and what differs.
fn opening_section(
    record: &RunRecord,
    paper: &AslanCases,
    comparisons: &[Comparison],
    [beside, named]: [Table; 2],
) -> Section {
    let (plan, alpha) = (&record.plan, record.config.alpha);
    let plain = counts_read(comparisons, false, true);
    let weka = counts(comparisons, false);
    let degenerate = comparisons.iter().filter(|c| c.is_degenerate()).count();
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
    Section {
        title: "Aslan et al. (2009) beside the paper: t-test on error against t-test on AUC".into(),
        reading: format!(
            "Of {} comparisons (every pair of the {} learners on each of the {} datasets), the \
             paired t-test at alpha = {alpha} gives {} / {} / {} / {} (both accept / only AUC \
             rejects / only error rejects / both reject) with 0/0 read as reject, the paper's \
             rule read literally, and {} / {} / {} / {} with 0/0 scored p = 1, accept (Weka's \
             convention, used by tests.md and the rest of this report): {degenerate} \
             comparisons have every paired difference zero. The paper reports {} of {}: \
             {equal} of the 4 counts are equal (0/0 read as reject). What matches: {}; the AUC \
             test rejects {} times against the error test's {} (the paper: {} against {}). \
             What differs, and the tested causes: the splits (the table places each published \
             count among our seed runs: {near} of our comparisons have a p-value in [{}, {}] \
             on error or on AUC, where a new split can flip the decision); our learners are \
             not theirs (C4.5, naive Bayes and RIPPER follow Weka 3.6; the paper gives neither \
             the perceptron's learning rate, epochs nor batch size); 5 of the 15 datasets are \
             substitutes and the others may be other versions; the paper does not say how \
             1-NN chose the two classes kept of a multi-class dataset (other readings change \
             the pair on page-blocks, nursery and shuttle and move the table by at most 3 per case). \
             Which class is positive is not a cause: it cannot change AUC or error in exact \
             arithmetic, and in ours it moves 2 comparisons through exact score ties \
             (scripts/fidelity/aslan_positive_class.py). The second table sets the comparisons \
             the paper names in its figures beside ours, the only cells of the paper's table \
             that can be compared one by one.",
            comparisons.len(),
            plan.learners.len(),
            plan.datasets.len(),
            plain[0],
            plain[1],
            plain[2],
            plain[3],
            weka[0],
            weka[1],
            weka[2],
            weka[3],
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
        headline: Some(engine::Headline {
            measure: None,
            verdict: format!(
                "Of {} comparisons, the t-test rejects on AUC {} times against {} on error (the \
                 paper: {} against {}); {equal} of the four counts equal the paper's.",
                comparisons.len(),
                rejects(&plain, 1),
                rejects(&plain, 0),
                rejects(&published, 1),
                rejects(&published, 0),
            ),
            figure: None,
            table: Some(headline_table(&published, &plain)),
        }),
        ..Section::default()
    }
}

/// The four cases' counts, the paper's beside ours (0/0 read as reject, the paper's rule) and
/// the difference: the table of the summary screen.
fn headline_table(published: &[usize], ours: &[usize; 4]) -> Table {
    let header = ["case", "paper", "ours", "difference"]
        .map(String::from)
        .to_vec();
    let mut table = Table::new("The four cases: the paper's counts beside ours", header);
    for (case, name) in CASES.iter().enumerate() {
        let (theirs, mine) = (published[case] as i64, ours[case] as i64);
        table.push_row(vec![
            Cell::text(*name),
            Cell::integer(theirs),
            Cell::integer(mine),
            Cell::integer(mine - theirs),
        ]);
    }
    table
}

/// The section beyond the paper: the corrected resampled t-test's four cases and the cases per
/// dataset (`tables`), with a reading of what the correction changes.
fn beyond_section(
    plan: &Plan,
    comparisons: &[Comparison],
    [corrected_table, per_dataset]: [Table; 2],
) -> Section {
    let corrected = counts(comparisons, true);
    let k = plan.datasets.first().map_or(0, |d| d.plan.splits.len());
    let factor = plan.datasets.first().map_or(f64::NAN, |_| {
        let (train, test) = mean_sizes(plan, 0);
        1.0 + k as f64 * test / train
    });
    Section {
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
    }
}

/// The columns of `docs/reproductions/aslan/seeds.csv` for each case, in the order of
/// [`CASES`], then the disagreements.
const SEED_COLUMNS: [&str; 5] = [
    "both_accept",
    "error_accepts_auc_rejects",
    "error_rejects_auc_accepts",
    "both_reject",
    "disagree",
];

/// Where the paper's count lies among our seeds (plain t-test, 0/0 read as reject), when the
/// run is one the seeds speak for.
fn seed_envelope(
    seeds: Option<&SeedRuns>,
    column: usize,
    paper: usize,
) -> Result<Option<Envelope>> {
    seeds
        .map(|seeds| {
            seeds.envelope(
                &format!("t_reject00_{}", SEED_COLUMNS[column]),
                paper as f64,
            )
        })
        .transpose()
}

/// The cause of one row's difference: where the paper's count lies among our seeds, the
/// p-values near the threshold and, for case 1, the degenerate comparisons.
fn case_cause(
    envelope: Option<&Envelope>,
    near: usize,
    in_case: usize,
    degenerate: usize,
) -> String {
    let Some(envelope) = envelope else {
        let mut cause = "our learners, dataset versions and splits are not theirs".to_string();
        if near > 0 || degenerate > 0 {
            cause = format!(
                "{}; {cause}",
                near_and_degenerate(near, in_case, degenerate)
            );
        }
        return cause;
    };
    let published = envelope.published;
    let mut cause = if envelope.percentile > 0.0 && envelope.percentile < 100.0 {
        format!(
            "the splits: their {published} lies {} of {} seeds",
            envelope.place(),
            envelope.seeds
        )
    } else {
        format!(
            "not the splits alone: their {published} lies {} of {}; our learners and data \
             are not theirs",
            envelope.place(),
            envelope.seeds
        )
    };
    if near > 0 || degenerate > 0 {
        cause = format!(
            "{cause}; {}",
            near_and_degenerate(near, in_case, degenerate)
        );
    }
    cause
}

/// "6 of our 13 have a p-value in [0.01, 0.2]; 6 are 0/0 and ...".
fn near_and_degenerate(near: usize, in_case: usize, degenerate: usize) -> String {
    let mut parts = Vec::new();
    if near > 0 {
        parts.push(format!(
            "{near} of our {in_case} have a p-value in [{}, {}]",
            NEAR_THRESHOLD.0, NEAR_THRESHOLD.1
        ));
    }
    if degenerate > 0 {
        parts.push(format!(
            "{degenerate} are 0/0 and count here only when 0/0 is scored accept"
        ));
    }
    parts.join("; ")
}

/// "mushroom c45 vs lp" for every comparison whose paired differences are all zero.
fn degenerate_labels(plan: &Plan, comparisons: &[Comparison]) -> Vec<String> {
    comparisons
        .iter()
        .filter(|c| c.is_degenerate())
        .map(|c| {
            format!(
                "{} {} vs {}",
                plan.datasets[c.dataset].name, plan.learners[c.a].name, plan.learners[c.b].name
            )
        })
        .collect()
}

/// The four-case table of the plain t-test, ours (0/0 read both ways) beside the paper's, with
/// the seeds' spread and the cause per row, and the rows derived from the four cases.
fn beside_paper_table(
    plan: &Plan,
    paper: &AslanCases,
    comparisons: &[Comparison],
    alpha: f64,
    skipped: &[String],
) -> Result<Table> {
    // the seeds are runs of aslan.toml: they speak for a run of the whole protocol only
    let seeds = SeedRuns::parse("docs/reproductions/aslan/seeds.csv", ASLAN_SEEDS)?;
    let seeds = (comparisons.len() == paper.comparisons).then_some(seeds);
    let ours = [
        counts_read(comparisons, false, true),
        counts_read(comparisons, false, false),
    ];
    let theirs: Vec<usize> = paper.cases.iter().map(|case| case.count).collect();
    let mut table = beside_paper_header();
    case_rows(&mut table, comparisons, seeds.as_ref(), &theirs, ours)?;
    sum_rows(&mut table, seeds.as_ref(), &theirs, ours)?;
    let degenerate = degenerate_labels(plan, comparisons);
    push_beside_row(
        &mut table,
        "0/0: all paired differences zero (error and AUC constant alike)",
        0,
        [degenerate.len(), degenerate.len()],
        String::new(),
        if degenerate.is_empty() {
            "none".to_string()
        } else {
            degenerate.join(", ")
        },
    );
    push_beside_row(
        &mut table,
        "total",
        paper.comparisons,
        [comparisons.len(), comparisons.len()],
        String::new(),
        String::new(),
    );
    // the paper reports no 0/0 count: its cell is left empty, not 0
    let zero_row = table.rows.len() - 2;
    table.rows[zero_row][1] = Cell::text("not reported");
    table.rows[zero_row][3] = Cell::empty();
    beside_notes(
        &mut table,
        paper,
        alpha,
        seeds.as_ref().map(SeedRuns::seeds),
        skipped,
    );
    Ok(table)
}

/// The four-case table's title and header, without rows.
fn beside_paper_header() -> Table {
    let header = [
        "case",
        "paper",
        "ours, 0/0 read as reject (the paper's rule)",
        "difference (ours, 0/0 rejected - paper)",
        "ours, 0/0 scored accept (Weka's p = 1)",
        "our seeds, 0/0 read as reject: range (median)",
        "cause of the difference, and where the paper's count lies",
    ]
    .map(String::from)
    .to_vec();
    Table::new(
        "The four cases of the paired t-test on error and on AUC: ours beside the paper's",
        header,
    )
}

/// One row of the four-case table: the paper's count, ours with 0/0 read as reject and as
/// accept, the difference, the seeds' range and the cause.
fn push_beside_row(
    table: &mut Table,
    name: &str,
    theirs: usize,
    ours: [usize; 2],
    seeds: String,
    cause: String,
) {
    table.push_row(vec![
        Cell::text(name),
        Cell::integer(theirs as i64),
        Cell::integer(ours[0] as i64),
        Cell::integer(ours[0] as i64 - theirs as i64),
        Cell::integer(ours[1] as i64),
        Cell::text(seeds),
        Cell::text(cause),
    ]);
}

/// The rows of the four cases: the paper's count, ours (`ours[0]` with 0/0 read as reject,
/// `ours[1]` as accept), the seeds' range and the cause of the difference.
fn case_rows(
    table: &mut Table,
    comparisons: &[Comparison],
    seeds: Option<&SeedRuns>,
    theirs: &[usize],
    ours: [[usize; 4]; 2],
) -> Result<()> {
    for (case, name) in CASES.iter().enumerate() {
        let in_case: Vec<&Comparison> = comparisons
            .iter()
            .filter(|c| c.case_read(false, true) == case)
            .collect();
        let near = in_case.iter().filter(|c| c.near_threshold()).count();
        let degenerate = comparisons
            .iter()
            .filter(|c| c.is_degenerate() && c.case_read(false, false) == case)
            .count();
        let envelope = seed_envelope(seeds, case, theirs[case])?;
        let cause = case_cause(envelope.as_ref(), near, in_case.len(), degenerate);
        let range = envelope.as_ref().map_or(String::new(), |e| e.range(0));
        let counts = [ours[0][case], ours[1][case]];
        push_beside_row(table, name, theirs[case], counts, range, cause);
    }
    Ok(())
}

/// The rows derived from two cases each: the error test rejects, the AUC test rejects, the
/// tests disagree (with the seeds' range of the last).
fn sum_rows(
    table: &mut Table,
    seeds: Option<&SeedRuns>,
    theirs: &[usize],
    ours: [[usize; 4]; 2],
) -> Result<()> {
    let disagree = seed_envelope(seeds, 4, theirs[1] + theirs[2])?;
    for (name, pick) in [
        ("error test rejects (cases 3 + 4)", [2, 3]),
        ("AUC test rejects (cases 2 + 4)", [1, 3]),
        ("the tests disagree (cases 2 + 3)", [1, 2]),
    ] {
        let sum = |counts: &[usize]| counts[pick[0]] + counts[pick[1]];
        let (seeds_text, cause) = if pick == [1, 2] {
            (
                disagree.as_ref().map_or(String::new(), |e| e.range(0)),
                case_cause(disagree.as_ref(), 0, 0, 0),
            )
        } else {
            (
                String::new(),
                "the sum of the two rows above it".to_string(),
            )
        };
        let counts = [sum(&ours[0]), sum(&ours[1])];
        push_beside_row(table, name, sum(theirs), counts, seeds_text, cause);
    }
    Ok(())
}

/// The notes under the four-case table: the tests and the 0/0 conventions, the seeds and the
/// commands behind the other causes, the comparisons left out.
fn beside_notes(
    table: &mut Table,
    paper: &AslanCases,
    alpha: f64,
    seeds: Option<usize>,
    skipped: &[String],
) {
    table.push_note(format!(
        "Two-sided paired t-tests at alpha = {alpha} on the per-model test-set values; \
         \"accept\" means the test does not reject equal means. Where every paired difference \
         is zero the statistic is 0/0: the paper's rule (\"accepted if the test statistic is in \
         the interval (-t, t)\") does not accept it, Weka and stats::paired_t_test score it \
         p = 1, accept. The paper's 0/0 row is unknown (it reports no degenerate pair; its one \
         \"both accept\" is chess, Figure 2). Paper: {}.",
        paper.source
    ));
    let seeds_text = match seeds {
        Some(seeds) => format!(
            "Our seeds: {seeds} runs of aslan.toml with only the seed changed \
             (docs/reproductions/aslan/seeds.csv, made by scripts/fidelity/run_seeds.py aslan \
             --seeds 1-20 and scripts/fidelity/seeds_collect.py aslan); a percentile is the \
             mid-rank one."
        ),
        None => "The seed runs of docs/reproductions/aslan/seeds.csv are of aslan.toml's 150 \
                 comparisons and are not shown beside this run's."
            .to_string(),
    };
    table.push_note(format!(
        "{seeds_text} Other causes and the commands that show them: the two classes kept of \
         each multi-class dataset (scripts/fidelity/aslan_class_pairs.py and aslan_alt_pairs.py, \
         docs/reproductions/FINDINGS.md A3: the alternatives move the table by at most 3 per \
         case); the learners (docs/weka-comparison.md, scripts/weka_compare.py); the substitute \
         datasets (datasets/SOURCES.md)."
    ));
    if !skipped.is_empty() {
        table.push_note(format!(
            "{} comparisons could not be tested and are left out: {}",
            skipped.len(),
            skipped.join("; ")
        ));
    }
}

/// The four cases of the corrected t-test beside the plain one's and the paper's.
fn corrected_table(paper: &AslanCases, comparisons: &[Comparison], alpha: f64) -> Table {
    let (plain, corrected) = (counts(comparisons, false), counts(comparisons, true));
    let corrected_literal = counts_read(comparisons, true, true);
    let header = [
        "case",
        "paper (plain t)",
        "ours (plain t, 0/0 accept)",
        "ours (corrected t, 0/0 accept)",
        "ours (corrected t, 0/0 reject)",
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
            Cell::integer(corrected_literal[case] as i64),
        ]);
    }
    table.push_note(format!(
        "Two-sided tests at alpha = {alpha}. The paper writes out the plain t-test \
         (t = sqrt(K) m / S, K - 1 degrees of freedom); the corrected test is ours. Its totals \
         are far from the paper's, so that the paper's named comparisons all fall in their case \
         under it (second table above) is not evidence that they used it."
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
        "{same} of the {compared} comparisons we could run fall in the paper's case under the \
         plain t-test the paper uses. A comparison whose p-value is near alpha on either \
         measure can change case with the split; the learners and the data are not the \
         paper's (see the reading). The corrected column is no evidence that the paper used \
         that test: its four-case totals are far from the paper's (next section)."
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
pub(crate) const COLOURS: [Rgb; 2] = [report::PALETTE[0], report::PALETTE[1]];

/// One example comparison per case (the first in dataset and learner order): error and AUC
/// distributions over the models, and the ROC curves of all models of both learners.
fn example_figures(
    record: &RunRecord,
    comparisons: &[Comparison],
    error: usize,
    auc: usize,
) -> Result<Section> {
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    for (case, case_name) in CASES.iter().enumerate() {
        let in_case = || comparisons.iter().filter(|c| c.case(false) == case);
        let Some(example) = in_case().find(|c| !c.is_degenerate()) else {
            let degenerate = in_case().count();
            notes.push(if degenerate > 0 {
                format!(
                    "the case '{case_name}' holds only {degenerate} comparisons whose paired \
                     differences are all zero (0/0, scored accept; read as reject they leave \
                     the case): none is drawn"
                )
            } else {
                format!("no comparison fell in the case '{case_name}'")
            });
            continue;
        };
        figures.extend(case_figures(record, case, example, error, auc)?);
    }
    Ok(Section {
        title: "Aslan et al.: one example comparison per case (their Figures 2 to 5)".into(),
        reading: if notes.is_empty() {
            "For each of the four cases, the first comparison in dataset and learner order \
             whose paired differences are not all zero."
                .into()
        } else {
            format!(
                "For each of the four cases, the first comparison in dataset and learner order \
                 whose paired differences are not all zero ({}).",
                notes.join("; ")
            )
        },
        figures,
        ..Section::default()
    })
}

/// The figures of one case's example comparison: the error and the AUC distributions over the
/// models, and the ROC curves of all models of both learners.
fn case_figures(
    record: &RunRecord,
    case: usize,
    example: &Comparison,
    error: usize,
    auc: usize,
) -> Result<Vec<Figure>> {
    let (plan, folds) = (&record.plan, &record.results.folds);
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
        CASES[case], dataset.name, names[0], names[1], example.plain_p[0], example.plain_p[1]
    );
    let mut figures = Vec::new();
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
    let svg = report::roc_plot(
        &PlotOptions::roc(format!("ROC curves of all models: {}", dataset.name)),
        &example_curves(record, example),
    )?;
    figures.push(Figure {
        file: format!("figures/{stem}_roc.svg"),
        caption: format!(
            "ROC curves of every model, the threshold-0.5 point marked. {description}"
        ),
        svg,
    });
    Ok(figures)
}

/// The ROC curves of every model of both learners of a comparison, each learner's colour
/// named once by an empty curve, the threshold-0.5 points marked.
fn example_curves(record: &RunRecord, example: &Comparison) -> Vec<Curve> {
    let plan = &record.plan;
    let splits = plan.datasets[example.dataset].plan.splits.len();
    let mut curves = Vec::new();
    for (&learner, color) in [example.a, example.b].iter().zip(COLOURS) {
        curves.push(Curve::new(
            plan.learners[learner].name.clone(),
            Vec::new(),
            color,
        ));
        for split in 0..splits {
            let unit = Unit::on_split(example.dataset, learner, split);
            let Some((points, marked)) = roc_points(record, unit) else {
                continue;
            };
            let mut curve = Curve::faint(points, color);
            curve.marked = vec![marked];
            curves.push(curve);
        }
    }
    curves
}

/// The values of a measure over the models of each of two learners on one dataset, coloured
/// for a comparison figure.
pub(crate) fn distributions(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A comparison whose 30 paired differences are all zero (t = 0/0): scipy's ttest_rel
    /// gives statistic and p-value NaN, Weka and stats::paired_t_test p = 1 ("accept"); the
    /// paper's rule accepts only a statistic inside (-t, t), so read literally 0/0 rejects.
    #[test]
    fn zero_over_zero_is_counted_both_ways() {
        let degenerate = Comparison {
            dataset: 0,
            a: 0,
            b: 1,
            plain: [false; 2],
            corrected: [false; 2],
            plain_p: [1.0; 2],
            corrected_p: [1.0; 2],
            degenerate: [true; 2],
        };
        assert_eq!(CASES[degenerate.case(false)], "both accept");
        assert_eq!(CASES[degenerate.case_read(false, false)], "both accept");
        assert_eq!(CASES[degenerate.case_read(false, true)], "both reject");
        assert_eq!(CASES[degenerate.case_read(true, true)], "both reject");
        let only_auc = Comparison {
            degenerate: [false, true],
            plain: [true, false],
            ..degenerate.clone()
        };
        assert_eq!(
            CASES[only_auc.case_read(false, false)],
            "error rejects, AUC accepts"
        );
        assert_eq!(CASES[only_auc.case_read(false, true)], "both reject");
        let sample = [degenerate, only_auc];
        assert_eq!(counts_read(&sample, false, true), [0, 0, 0, 2]);
        assert_eq!(counts(&sample, false), [1, 0, 1, 0]);
    }
}
