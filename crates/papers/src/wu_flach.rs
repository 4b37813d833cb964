//! Wu & Flach (2005): select a model on each validation fold by its AUC and by its scored AUC
//! (sAUC), and compare the test AUC of the two selected models (their Tables 4 and 5), each
//! beside the published table; on the full datasets also their Table 3 (the datasets) beside
//! ours.

use engine::config::experiment::ExperimentConfig;
use engine::{Analysis, AnalysisError, Plan, RunRecord, Section, SectionTable};
use report::{Cell, Table};
use stats::TTestResult;

use crate::envelope::{SeedRuns, WU_FLACH_SEEDS};
use crate::error::{Error, Result};
use crate::published::{wu_flach, WuFlach, WuFlachDataset, WuFlachSelection, WuFlachTable};

/// Wu & Flach's model selection by validation AUC against validation sAUC.
pub struct Selection;

impl Analysis for Selection {
    fn name(&self) -> &'static str {
        "wu_flach_selection"
    }

    fn description(&self) -> &'static str {
        "Wu & Flach (2005): on each validation fold, select a model by AUC and by scored AUC, \
         and compare the test AUC of the two selected models (their Tables 4 and 5, set beside \
         the published ones, and their Table 3 beside our datasets)"
    }

    fn check(&self, _config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        for wanted in ["auc", "sauc"] {
            if !plan.measures.iter().any(|measure| measure.name() == wanted) {
                return Err(format!(
                    "it needs the measures auc and sauc (key 'measures'; '{wanted}' is missing)"
                ));
            }
        }
        if plan
            .datasets
            .iter()
            .any(|d| d.plan.splits.iter().any(|s| s.validation.is_none()))
        {
            return Err(
                "it needs a protocol with validation folds (e.g. kind = \"wu_flach\")".into(),
            );
        }
        if plan.learners.len() < 2 {
            return Err("it selects among learners: name at least two".into());
        }
        Ok(())
    }

    fn sections(&self, record: &RunRecord) -> Result<Vec<Section>, AnalysisError> {
        self.check(&record.config, &record.plan)
            .map_err(Error::Needs)?;
        Ok(sections(record)?)
    }

    fn opening_sections(&self) -> usize {
        1
    }
}

/// How the selected model is found when several learners tie at the best validation value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieRule {
    /// The paper's rule, "the model with maximum values of sAUC or AUC on the validation set",
    /// taken literally: a scan over their list of learners (naive Bayes, logistic, decision
    /// tree, KStar, VFI; our config's order) that keeps the first maximum.
    FirstListed,
    /// The mean test AUC over the tied learners: the expected value when ties are broken at
    /// random (a check that the verdicts do not hang on the order of the list).
    RandomMean,
}

/// Indices of the largest finite value (all of them when several tie); empty if none is finite.
fn best_set(values: &[Option<f64>]) -> Vec<usize> {
    let top = values
        .iter()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    values
        .iter()
        .enumerate()
        .filter(|(_, value)| **value == Some(top))
        .map(|(index, _)| index)
        .collect()
}

/// The test AUC of the model selected among `tied` (learners tied at the best validation value,
/// in config order) by `rule`; `None` if a learner it needs lacks a finite test AUC.
fn selected_test_auc(tied: &[usize], test: &[Option<f64>], rule: TieRule) -> Option<f64> {
    let finite = |l: usize| test[l].filter(|v| v.is_finite());
    match rule {
        TieRule::FirstListed => finite(*tied.first()?),
        TieRule::RandomMean => {
            let values: Vec<f64> = tied.iter().map(|&l| finite(l)).collect::<Option<_>>()?;
            (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
        }
    }
}

/// Which selection the paired t-test favours on one dataset.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// sAUC-selection significantly better.
    Win,
    /// sAUC-selection significantly worse.
    Loss,
    /// No significant difference.
    Tie,
    /// The test could not be computed (the reason).
    NotTested(String),
}

/// One dataset's selections under one tie rule.
#[derive(Clone, Debug)]
pub struct DatasetOutcome {
    /// Test AUC (x100) of the AUC-selected model, per test fold.
    pub by_auc: Vec<f64>,
    /// Test AUC (x100) of the sAUC-selected model, per test fold.
    pub by_sauc: Vec<f64>,
    /// The paired t-test of sAUC-selected against AUC-selected.
    pub test: Option<TTestResult>,
    /// The verdict at the config's alpha.
    pub verdict: Verdict,
    /// How often each learner was chosen by AUC and by sAUC (a tie counts 1/t under
    /// [`TieRule::RandomMean`]).
    pub chosen: (Vec<f64>, Vec<f64>),
    /// Folds with a tie at the best validation AUC / sAUC.
    pub tied: (usize, usize),
    /// Folds where AUC and sAUC selected the same model(s).
    pub same: usize,
    /// Folds skipped (no learner with a finite validation value, or no test AUC).
    pub skipped: usize,
}

/// Mean and sample standard deviation (NaN where undefined).
fn mean_sd(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = stats::summary::mean(values);
    let sd = if values.len() > 1 {
        stats::summary::sample_variance(values).sqrt()
    } else {
        f64::NAN
    };
    (mean, sd)
}

impl DatasetOutcome {
    /// Mean, standard deviation and standard error of the mean of a selection's test AUCs.
    pub fn summary(values: &[f64]) -> (f64, f64, f64) {
        let (mean, sd) = mean_sd(values);
        (mean, sd, sd / (values.len() as f64).sqrt())
    }

    /// Mean test AUC (x100) of the sAUC-selected minus that of the AUC-selected models.
    pub fn mean_difference(&self) -> f64 {
        mean_sd(&self.by_sauc).0 - mean_sd(&self.by_auc).0
    }
}

/// Selects on every split of dataset `d` by validation AUC and by validation sAUC.
fn select(record: &RunRecord, d: usize, rule: TieRule) -> DatasetOutcome {
    let (plan, folds) = (&record.plan, &record.results.folds);
    let position = |wanted: &str| folds.measures.iter().position(|m| m.name() == wanted);
    let (auc, sauc) = (
        position("auc").unwrap_or_default(),
        position("sauc").unwrap_or_default(),
    );
    let learners = plan.learners.len();
    let per_learner = |values: &dyn Fn(usize) -> Vec<Option<f64>>| -> Vec<Vec<Option<f64>>> {
        (0..learners).map(values).collect()
    };
    let validation_auc = per_learner(&|l| folds.validation_values(d, l, auc));
    let validation_sauc = per_learner(&|l| folds.validation_values(d, l, sauc));
    let test_auc = per_learner(&|l| folds.values(d, l, auc));
    let mut outcome = DatasetOutcome {
        by_auc: Vec::new(),
        by_sauc: Vec::new(),
        test: None,
        verdict: Verdict::NotTested("no folds".into()),
        chosen: (vec![0.0; learners], vec![0.0; learners]),
        tied: (0, 0),
        same: 0,
        skipped: 0,
    };
    for split in 0..plan.datasets[d].plan.splits.len() {
        let column = |table: &Vec<Vec<Option<f64>>>| -> Vec<Option<f64>> {
            (0..learners).map(|l| table[l][split]).collect()
        };
        let by_validation_auc = best_set(&column(&validation_auc));
        let by_validation_sauc = best_set(&column(&validation_sauc));
        let test = column(&test_auc);
        let (Some(test_a), Some(test_s)) = (
            selected_test_auc(&by_validation_auc, &test, rule),
            selected_test_auc(&by_validation_sauc, &test, rule),
        ) else {
            outcome.skipped += 1;
            continue;
        };
        outcome.by_auc.push(100.0 * test_a);
        outcome.by_sauc.push(100.0 * test_s);
        for (set, counts) in [
            (&by_validation_auc, &mut outcome.chosen.0),
            (&by_validation_sauc, &mut outcome.chosen.1),
        ] {
            match rule {
                TieRule::FirstListed => counts[set[0]] += 1.0,
                TieRule::RandomMean => {
                    for &l in set.iter() {
                        counts[l] += 1.0 / set.len() as f64;
                    }
                }
            }
        }
        outcome.tied.0 += usize::from(by_validation_auc.len() > 1);
        outcome.tied.1 += usize::from(by_validation_sauc.len() > 1);
        outcome.same += usize::from(match rule {
            TieRule::FirstListed => by_validation_auc[0] == by_validation_sauc[0],
            TieRule::RandomMean => by_validation_auc == by_validation_sauc,
        });
    }
    let alpha = record.config.alpha;
    match stats::paired_t_test(&outcome.by_sauc, &outcome.by_auc, alpha) {
        Ok(result) => {
            outcome.verdict = if result.reject && result.mean_difference > 0.0 {
                Verdict::Win
            } else if result.reject {
                Verdict::Loss
            } else {
                Verdict::Tie
            };
            outcome.test = Some(result);
        }
        Err(error) => outcome.verdict = Verdict::NotTested(error.to_string()),
    }
    outcome
}

/// Wins and losses of sAUC-selection over the outcomes.
fn totals(outcomes: &[DatasetOutcome]) -> (usize, usize) {
    let count = |wanted: Verdict| outcomes.iter().filter(|o| o.verdict == wanted).count();
    (count(Verdict::Win), count(Verdict::Loss))
}

/// "2 wins, 1 loss".
fn wins_losses_text((wins, losses): (usize, usize)) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "es" };
    format!(
        "{wins} win{}, {losses} loss{}",
        if wins == 1 { "" } else { "s" },
        plural(losses)
    )
}

/// The mean over datasets of the mean test AUC of the AUC- or the sAUC-selected models.
fn mean_of_means(outcomes: &[DatasetOutcome], sauc: bool) -> f64 {
    let means: Vec<f64> = outcomes
        .iter()
        .map(|o| mean_sd(if sauc { &o.by_sauc } else { &o.by_auc }).0)
        .filter(|m| m.is_finite())
        .collect();
    mean_sd(&means).0
}

fn verdict_cell(verdict: &Verdict) -> Cell {
    match verdict {
        Verdict::Win => Cell::text("win").bold(),
        Verdict::Loss => Cell::text("loss").bold(),
        Verdict::Tie => Cell::text("tie"),
        Verdict::NotTested(reason) => Cell::text(format!("not tested: {reason}")),
    }
}

/// The verdict and its p-value: "loss (p = 0.0069)", bold for a win or a loss.
fn verdict_with_p(verdict: &Verdict, pvalue: f64) -> Cell {
    match verdict {
        Verdict::Win | Verdict::Loss | Verdict::Tie => {
            let cell = Cell::text(format!(
                "{} (p = {pvalue:.4})",
                verdict_cell(verdict).value_text(0)
            ));
            if *verdict == Verdict::Tie {
                cell
            } else {
                cell.bold()
            }
        }
        Verdict::NotTested(_) => verdict_cell(verdict),
    }
}

/// "a ± b" with two decimals.
fn mean_se_text(mean: f64, se: f64) -> String {
    format!("{mean:.2} ± {se:.2}")
}

/// Every reading of a published cell: "90.15 or 90.51".
fn readings_text(values: &[f64], decimals: usize) -> String {
    values
        .iter()
        .map(|v| format!("{v:.decimals$}"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Decimals a published standard error was printed with (0.0083 has 4).
fn se_decimals(values: &[f64]) -> usize {
    values
        .iter()
        .map(|v| {
            let text = format!("{v}");
            text.split_once('.').map_or(0, |(_, f)| f.len())
        })
        .max()
        .unwrap_or(2)
        .max(2)
}

/// Which selection has the higher mean test AUC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// sAUC-selection's mean is higher.
    Sauc,
    /// AUC-selection's mean is higher.
    Auc,
    /// Equal to the printed two decimals.
    Equal,
    /// The lost digits allow readings with different winners.
    Undetermined,
}

impl Winner {
    fn text(self) -> &'static str {
        match self {
            Winner::Sauc => "sAUC",
            Winner::Auc => "AUC",
            Winner::Equal => "equal",
            Winner::Undetermined => "undetermined (lost digit)",
        }
    }

    fn of_difference(difference: f64) -> Winner {
        if difference.abs() < 0.005 {
            Winner::Equal
        } else if difference > 0.0 {
            Winner::Sauc
        } else {
            Winner::Auc
        }
    }
}

/// The published winner: the same for every reading of the lost digits, or undetermined.
pub fn published_winner(row: &WuFlachSelection) -> Winner {
    let mut winners = row
        .auc
        .iter()
        .flat_map(|a| row.sauc.iter().map(move |s| Winner::of_difference(s - a)));
    let first = winners.next().unwrap_or(Winner::Undetermined);
    if winners.all(|w| w == first) {
        first
    } else {
        Winner::Undetermined
    }
}

/// The range of a published cell's readings minus ours: "-0.30" or "-0.30 to +0.06".
fn difference_text(published: &[f64], ours: f64) -> String {
    let differences: Vec<f64> = published.iter().map(|p| ours - p).collect();
    let low = differences.iter().copied().fold(f64::INFINITY, f64::min);
    let high = differences
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    if (high - low).abs() < 0.005 {
        format!("{low:+.2}")
    } else {
        format!("{low:+.2} to {high:+.2}")
    }
}

/// Our dataset as run, described as Table 3 does: attributes, size, majority share (%).
fn describe(dataset: &engine::plan::units::PreparedDataset) -> (usize, usize, f64) {
    let data = &dataset.dataset;
    let counts = data.class_counts();
    let largest = counts.iter().copied().fold(0.0, f64::max);
    (
        data.schema().num_attributes(),
        data.len(),
        100.0 * largest / data.len() as f64,
    )
}

/// Whether our dataset matches a Table 3 row: (attributes, size, majority share).
fn table3_matches(paper: &WuFlachDataset, ours: (usize, usize, f64)) -> (bool, bool, bool) {
    let row = &paper.table3;
    (
        row.attributes == ours.0,
        row.size == ours.1,
        row.majority
            .iter()
            .any(|m| (m - ours.2).abs() < 0.005 + 1e-9),
    )
}

/// Table 3 beside our datasets; returns the table and how many datasets match in full.
fn table3(published: &WuFlach, plan: &Plan) -> (Table, usize) {
    let mut table = Table::new(
        "Wu & Flach Table 3 (datasets) beside ours",
        [
            "#",
            "dataset",
            "extracted text",
            "attributes: paper",
            "ours",
            "size: paper",
            "ours",
            "majority %: paper",
            "ours",
            "our dataset",
            "matches",
            "why ours differs",
        ]
        .map(String::from)
        .to_vec(),
    );
    let mut matching = 0;
    for (number, paper) in published.datasets.iter().enumerate() {
        let Some(dataset) = plan.datasets.iter().find(|d| d.name == paper.ours) else {
            table.push_row(vec![
                Cell::integer(number as i64 + 1),
                Cell::text(&paper.paper),
                Cell::text(&paper.table3.extracted),
                Cell::integer(paper.table3.attributes as i64),
                Cell::empty(),
                Cell::integer(paper.table3.size as i64),
                Cell::empty(),
                Cell::text(readings_text(&paper.table3.majority, 2)),
                Cell::empty(),
                Cell::text(&paper.ours),
                Cell::text("not run"),
                Cell::empty(),
            ]);
            continue;
        };
        let ours = describe(dataset);
        let (attributes, size, majority) = table3_matches(paper, ours);
        let mut differing = Vec::new();
        for (same, name) in [
            (attributes, "attributes"),
            (size, "size"),
            (majority, "majority"),
        ] {
            if !same {
                differing.push(name);
            }
        }
        let verdict = if differing.is_empty() {
            matching += 1;
            Cell::text("yes")
        } else {
            Cell::text(format!("no: {}", differing.join(", "))).bold()
        };
        let why = if differing.is_empty() {
            String::new()
        } else {
            paper
                .explanation
                .clone()
                .unwrap_or_else(|| "unexplained".to_string())
        };
        let mark = |same: bool, cell: Cell| if same { cell } else { cell.bold() };
        table.push_row(vec![
            Cell::integer(number as i64 + 1),
            Cell::text(&paper.paper),
            Cell::text(&paper.table3.extracted),
            Cell::integer(paper.table3.attributes as i64),
            mark(attributes, Cell::integer(ours.0 as i64)),
            Cell::integer(paper.table3.size as i64),
            mark(size, Cell::integer(ours.1 as i64)),
            Cell::text(readings_text(&paper.table3.majority, 2)),
            mark(majority, Cell::number(ours.2).with_decimals(2)),
            Cell::text(format!("{} ({})", paper.ours, dataset.notes.join("; "))),
            verdict,
            Cell::text(why),
        ]);
    }
    table.push_note(
        "'extracted text': the row's numbers as in our copy of the paper, whose PDF extraction \
         dropped every digit 1 ('20 000' is 20 attributes and 1000 instances); 'paper' is our \
         reading with the 1s restored, every reading listed where a 1 could sit in more than one \
         place. 'ours': the dataset as run, after its transforms (the majority share is that of \
         the binary task). A majority share matches when ours rounds to a reading.",
    );
    (table, matching)
}

/// The published table (4 or 5) beside ours: per dataset the two means, the winner and our
/// significance, with a cause where the winner differs or the level is far from theirs.
struct Comparison {
    table: Table,
    same_winner: usize,
    comparable: usize,
}

/// The comparison table's header.
fn comparison_header(title: &str) -> Table {
    Table::new(
        title,
        [
            "#",
            "dataset",
            "use AUC: paper",
            "ours",
            "difference",
            "use sAUC: paper",
            "ours",
            "difference",
            "higher: paper",
            "ours",
            "same winner",
            "our S? (paired t, p)",
            "our S?, random tie-break",
            "cause",
        ]
        .map(String::from)
        .to_vec(),
    )
}

/// The published table's row of a dataset (Table 5 on samples, Table 4 otherwise).
fn published_row(paper: &WuFlachDataset, sampled: bool) -> &WuFlachSelection {
    if sampled {
        &paper.table5
    } else {
        &paper.table4
    }
}

/// Why our reading of a dataset differs from the paper's, when the winner differs or our level
/// is more than 5 points from theirs ("" otherwise).
fn causes(
    row: &WuFlachSelection,
    same: Option<bool>,
    (first, auc_mean, sauc_mean): (&DatasetOutcome, f64, f64),
    task_differs: bool,
    (alpha, sampled): (f64, bool),
) -> String {
    let pvalue = first.test.as_ref().map_or(f64::NAN, |t| t.pvalue);
    let mut causes = Vec::new();
    if row.auc == row.sauc && row.auc_se == row.sauc_se {
        causes.push(format!(
            "their two columns are identical, which requires the same model in every fold; ours \
             chooses the same learner in {} of {} folds",
            first.same,
            first.by_auc.len()
        ));
    }
    let identical_columns = causes.len();
    if same == Some(false) {
        if pvalue >= alpha || pvalue.is_nan() {
            causes.push(format!(
                "our difference {:+.2} is not significant (p = {pvalue:.2})",
                sauc_mean - auc_mean
            ));
        }
        let paper_difference = row.sauc[0] - row.auc[0];
        let paper_se = row.auc_se[0].hypot(row.sauc_se[0]);
        if paper_difference.abs() <= 2.0 * paper_se {
            causes.push(format!(
                "theirs ({paper_difference:+.2}) is within twice its standard errors ({:.2})",
                2.0 * paper_se
            ));
        }
    }
    let level_gap = row
        .auc
        .iter()
        .map(|p| (auc_mean - p).abs())
        .fold(f64::INFINITY, f64::min);
    if !(same == Some(false) || level_gap > 5.0) {
        return causes.join("; ");
    }
    let unexplained_winner = same == Some(false) && causes.len() == identical_columns;
    if level_gap > 5.0 {
        causes.push(format!(
            "our test AUCs are {level_gap:.1} points from theirs"
        ));
    }
    if task_differs {
        causes.push("our task differs from theirs (Table 3 beside ours)".to_string());
    }
    if unexplained_winner {
        causes.push(
            "both differences are clear (ours significant, theirs beyond twice its standard \
             errors)"
                .to_string(),
        );
    }
    if !task_differs && (unexplained_winner || level_gap > 5.0) {
        causes.push(if sampled {
            "the learners (ours are not their Weka builds) or the samples differ".to_string()
        } else {
            "our task matches their Table 3, so the learners (ours are not their Weka builds) \
             or the data versions differ"
                .to_string()
        });
    }
    causes.join("; ")
}

/// A dataset's row of the comparison table, and whether our winner is the paper's (`None`
/// when the paper's lost digits leave its winner undetermined, or the dataset was not run).
fn comparison_row(
    number: usize,
    paper: &WuFlachDataset,
    record: &RunRecord,
    outcomes: &[(usize, DatasetOutcome, DatasetOutcome)],
    sampled: bool,
) -> (Vec<Cell>, Option<bool>) {
    let plan = &record.plan;
    let row = published_row(paper, sampled);
    let paper_auc = format!(
        "{} ± {}",
        readings_text(&row.auc, 2),
        readings_text(&row.auc_se, se_decimals(&row.auc_se))
    );
    let paper_sauc = format!(
        "{} ± {}",
        readings_text(&row.sauc, 2),
        readings_text(&row.sauc_se, se_decimals(&row.sauc_se))
    );
    let found = outcomes
        .iter()
        .find(|(d, _, _)| plan.datasets[*d].name == paper.ours);
    let Some((d, first, random)) = found else {
        let mut cells = vec![
            Cell::integer(number as i64 + 1),
            Cell::text(format!("{} ({} not run)", paper.paper, paper.ours)),
            Cell::text(paper_auc),
            Cell::empty(),
            Cell::empty(),
            Cell::text(paper_sauc),
        ];
        cells.extend((0..8).map(|_| Cell::empty()));
        return (cells, None);
    };
    let (auc_mean, _, auc_se) = DatasetOutcome::summary(&first.by_auc);
    let (sauc_mean, _, sauc_se) = DatasetOutcome::summary(&first.by_sauc);
    let paper_winner = published_winner(row);
    let our_winner = Winner::of_difference(sauc_mean - auc_mean);
    let same = match paper_winner {
        Winner::Undetermined => None,
        winner => Some(winner == our_winner),
    };
    let task_differs = !sampled && {
        let m = table3_matches(paper, describe(&plan.datasets[*d]));
        !(m.0 && m.1 && m.2)
    };
    let why = causes(
        row,
        same,
        (first, auc_mean, sauc_mean),
        task_differs,
        (record.config.alpha, sampled),
    );
    let pvalue = first.test.as_ref().map_or(f64::NAN, |t| t.pvalue);
    let cells = vec![
        Cell::integer(number as i64 + 1),
        Cell::text(if paper.paper == paper.ours {
            paper.paper.clone()
        } else {
            format!("{} ({})", paper.paper, paper.ours)
        }),
        Cell::text(paper_auc),
        Cell::text(mean_se_text(auc_mean, auc_se)),
        Cell::text(difference_text(&row.auc, auc_mean)),
        Cell::text(paper_sauc),
        Cell::text(mean_se_text(sauc_mean, sauc_se)),
        Cell::text(difference_text(&row.sauc, sauc_mean)),
        Cell::text(paper_winner.text()),
        Cell::text(our_winner.text()),
        match same {
            Some(true) => Cell::text("yes"),
            Some(false) => Cell::text("no").bold(),
            None => Cell::text("–"),
        },
        verdict_with_p(&first.verdict, pvalue),
        verdict_cell(&random.verdict),
        Cell::text(why),
    ];
    (cells, same)
}

/// The published table (4 or 5) beside ours, per dataset, then the averages, the totals and
/// the note.
fn comparison_table(
    title: &str,
    published: &WuFlach,
    which: &WuFlachTable,
    sampled: bool,
    record: &RunRecord,
    outcomes: &[(usize, DatasetOutcome, DatasetOutcome)],
) -> Comparison {
    let mut table = comparison_header(title);
    let (mut same_winner, mut comparable) = (0, 0);
    for (number, paper) in published.datasets.iter().enumerate() {
        let (cells, same) = comparison_row(number, paper, record, outcomes, sampled);
        if let Some(same) = same {
            comparable += 1;
            same_winner += usize::from(same);
        }
        table.push_row(cells);
    }
    let paper_means = (
        published
            .datasets
            .iter()
            .map(|paper| published_row(paper, sampled).auc.clone())
            .collect::<Vec<_>>(),
        published
            .datasets
            .iter()
            .map(|paper| published_row(paper, sampled).sauc.clone())
            .collect::<Vec<_>>(),
    );
    add_totals(
        &mut table,
        which,
        outcomes,
        &paper_means,
        (same_winner, comparable, record.config.alpha),
    );
    Comparison {
        table,
        same_winner,
        comparable,
    }
}

/// The comparison table's rows of averages and totals, and its note.
fn add_totals(
    table: &mut Table,
    which: &WuFlachTable,
    outcomes: &[(usize, DatasetOutcome, DatasetOutcome)],
    paper_means: &(Vec<Vec<f64>>, Vec<Vec<f64>>),
    (same_winner, comparable, alpha): (usize, usize, f64),
) {
    let ours_first: Vec<DatasetOutcome> = outcomes.iter().map(|(_, f, _)| f.clone()).collect();
    let ours_random: Vec<DatasetOutcome> = outcomes.iter().map(|(_, _, r)| r.clone()).collect();
    let (wins, losses) = totals(&ours_first);
    let (wins_random, losses_random) = totals(&ours_random);
    // the paper's column means over every reading of the lost digits: their smallest and largest
    let column_range = |columns: &[Vec<f64>]| {
        let low: f64 = columns
            .iter()
            .map(|c| c.iter().copied().fold(f64::INFINITY, f64::min))
            .sum::<f64>()
            / columns.len() as f64;
        let high: f64 = columns
            .iter()
            .map(|c| c.iter().copied().fold(f64::NEG_INFINITY, f64::max))
            .sum::<f64>()
            / columns.len() as f64;
        if (high - low).abs() < 0.005 {
            format!("{low:.2}")
        } else {
            format!("{low:.2} to {high:.2}")
        }
    };
    let printed = |value: Option<f64>| value.map_or("–".to_string(), |v| format!("{v:.2}"));
    for (name, value, columns) in [
        ("AUC", which.auc_selected_mean, &paper_means.0),
        ("sAUC", which.sauc_selected_mean, &paper_means.1),
    ] {
        if let Some(note) = average_note(name, value, columns, &column_range(columns)) {
            table.push_note(note);
        }
    }
    let mut average = vec![
        Cell::empty(),
        Cell::text("average"),
        Cell::text(format!(
            "{} (the column's mean: {})",
            printed(which.auc_selected_mean),
            column_range(&paper_means.0)
        )),
        Cell::number(mean_of_means(&ours_first, false)).with_decimals(2),
        Cell::empty(),
        Cell::text(format!(
            "{} (the column's mean: {})",
            printed(which.sauc_selected_mean),
            column_range(&paper_means.1)
        )),
        Cell::number(mean_of_means(&ours_first, true)).with_decimals(2),
    ];
    average.extend((0..7).map(|_| Cell::empty()));
    table.push_row(average);
    let mut total = vec![Cell::empty(), Cell::text("sAUC wins / losses")];
    total.extend((0..9).map(|_| Cell::empty()));
    total[8] = Cell::text(format!("paper: {} / {}", which.wins, which.losses));
    total.push(Cell::text(wins_losses_text((wins, losses))));
    total.push(Cell::text(wins_losses_text((wins_random, losses_random))));
    total.push(Cell::text(format!(
        "same winner (higher mean) on {same_winner} of {comparable} datasets whose published \
         winner the lost digits leave determined"
    )));
    table.push_row(total);
    table.push_note(format!(
        "'paper': mean ± standard error of the test AUC (x100) over their 100 test folds, as \
         printed (the spreads are standard errors: standard deviations over 100 folds would be \
         ten times larger); 'ours': the same, mean ± sd / sqrt(folds). 'difference': ours minus \
         paper. 'higher': which selection has the higher mean (equal within 0.005). 'our S?': our \
         paired t-test at alpha = {alpha} of sAUC-selected against AUC-selected (win/loss for \
         sAUC), selecting by the paper's rule, the first listed of tied learners; the next column \
         breaks ties at random instead (the mean over the tied learners). The paper's own S? \
         marks are symbols our copy lost; only the totals survive, in its text. Cause: given \
         where the winner differs or our level is more than 5 points from theirs."
    ));
}

/// The comparison table's columns of levels: #, dataset, then the two selections' paper, ours
/// and difference.
const LEVEL_COLUMNS: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The comparison table's columns of winners: #, dataset, then the higher selection, the
/// significance and the cause.
const WINNER_COLUMNS: [usize; 8] = [0, 1, 8, 9, 10, 11, 12, 13];

/// The comparison table split in two that fit a page: the levels ([`LEVEL_COLUMNS`]) and the
/// winners with their causes ([`WINNER_COLUMNS`]). A row left with nothing but its number and
/// name is dropped from a part; the note that explains the columns goes under the second, the
/// other notes (averages, sample size) under the first.
fn split_comparison(table: Table) -> (Table, Table) {
    let part = |title: String, columns: &[usize]| {
        let header = columns.iter().map(|&c| table.header[c].clone()).collect();
        let mut part = Table::new(title, header);
        for row in &table.rows {
            let cells: Vec<Cell> = columns.iter().map(|&c| row[c].clone()).collect();
            if cells[2..].iter().any(|cell| cell != &Cell::empty()) {
                part.push_row(cells);
            }
        }
        part
    };
    let mut levels = part(
        format!("{}: the mean test AUC of each selection", table.title),
        &LEVEL_COLUMNS,
    );
    let mut winners = part(
        format!(
            "{}: which selection is higher, and why ours differs",
            table.title
        ),
        &WINNER_COLUMNS,
    );
    for note in &table.notes {
        if note.starts_with("'paper':") {
            winners.push_note(note.clone());
        } else {
            levels.push_note(note.clone());
        }
    }
    (levels, winners)
}

/// A note when a printed average is not the mean of its column under any reading of the lost
/// digits ("their printed AUC average, 89.36, is not the mean of its column (89.10 to 89.14)").
fn average_note(
    name: &str,
    printed: Option<f64>,
    columns: &[Vec<f64>],
    range: &str,
) -> Option<String> {
    let printed = printed?;
    let low: f64 = columns
        .iter()
        .map(|c| c.iter().copied().fold(f64::INFINITY, f64::min))
        .sum::<f64>()
        / columns.len() as f64;
    let high: f64 = columns
        .iter()
        .map(|c| c.iter().copied().fold(f64::NEG_INFINITY, f64::max))
        .sum::<f64>()
        / columns.len() as f64;
    let inside = printed >= low - 0.005 && printed <= high + 0.005;
    (!inside).then(|| {
        format!(
            "Their printed {name}-selected average, {printed:.2}, is not the mean of its column \
             ({range} under every reading of the lost digits)."
        )
    })
}

/// Our selection detail per dataset under the paper's rule, with the random tie-break beside.
fn selection_table(
    title: &str,
    record: &RunRecord,
    outcomes: &[(usize, DatasetOutcome, DatasetOutcome)],
) -> Table {
    let plan = &record.plan;
    let mut table = Table::new(
        title,
        [
            "dataset",
            "AUC-selected mean",
            "sd",
            "sAUC-selected mean",
            "sd",
            "p-value",
            "sAUC",
            "sAUC, random tie-break",
            "folds",
            "same model chosen",
            "chosen by AUC / by sAUC",
            "folds with a tie, AUC / sAUC",
        ]
        .map(String::from)
        .to_vec(),
    );
    for (d, first, random) in outcomes {
        let (mean_a, sd_a) = mean_sd(&first.by_auc);
        let (mean_s, sd_s) = mean_sd(&first.by_sauc);
        let chosen_text = |counts: &[f64]| -> String {
            counts
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0.0)
                .map(|(l, n)| {
                    format!(
                        "{} {}",
                        plan.learners[l].name,
                        report::table::format_number(*n, 0)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut folds_cell = Cell::integer(first.by_auc.len() as i64);
        if first.skipped > 0 {
            folds_cell = folds_cell.with_marker(format!("{} skipped", first.skipped));
        }
        table.push_row(vec![
            Cell::text(&plan.datasets[*d].name),
            Cell::number(mean_a).with_decimals(2),
            Cell::number(sd_a).with_decimals(2),
            Cell::number(mean_s).with_decimals(2),
            Cell::number(sd_s).with_decimals(2),
            Cell::number(first.test.as_ref().map_or(f64::NAN, |t| t.pvalue)).with_decimals(4),
            verdict_cell(&first.verdict),
            verdict_cell(&random.verdict),
            folds_cell,
            Cell::integer(first.same as i64),
            Cell::text(format!(
                "{} / {}",
                chosen_text(&first.chosen.0),
                chosen_text(&first.chosen.1)
            )),
            Cell::text(format!("{} / {}", first.tied.0, first.tied.1)),
        ]);
    }
    let firsts: Vec<DatasetOutcome> = outcomes.iter().map(|(_, f, _)| f.clone()).collect();
    let randoms: Vec<DatasetOutcome> = outcomes.iter().map(|(_, _, r)| r.clone()).collect();
    let mut average = vec![
        Cell::text("average"),
        Cell::number(mean_of_means(&firsts, false)).with_decimals(2),
        Cell::empty(),
        Cell::number(mean_of_means(&firsts, true)).with_decimals(2),
        Cell::empty(),
        Cell::empty(),
        Cell::text(wins_losses_text(totals(&firsts))),
        Cell::text(wins_losses_text(totals(&randoms))),
    ];
    average.extend((0..4).map(|_| Cell::empty()));
    table.push_row(average);
    table.push_note(
        "Selection by the paper's rule: on each test fold, the learner with the highest \
         validation AUC (or sAUC); when several tie, the first of them in the paper's list \
         (naive Bayes, logistic, decision tree, KStar, VFI). Paired t-test over the test folds of \
         the sAUC-selected against the AUC-selected model's test AUC; win/loss is for sAUC. \
         'random tie-break': the verdict when a tie's test AUC is the mean over the tied \
         learners instead. A fold is skipped when no learner has a finite validation value (a \
         validation fold with one class).",
    );
    table
}

/// The largest subsample of a run's datasets, if any is subsampled.
fn largest_sample(plan: &Plan) -> Option<usize> {
    let datasets = plan.datasets.iter();
    datasets.filter_map(|d| d.transforms.subsample).max()
}

/// The sample size of a run: the subsample of its datasets, if any ("50", or "150 (3 datasets
/// whole)").
fn sample_sizes(plan: &Plan) -> Option<String> {
    let size = largest_sample(plan)?;
    let datasets = plan.datasets.iter();
    let whole = datasets
        .filter(|d| d.transforms.subsample.is_none())
        .count();
    Some(if whole == 0 {
        size.to_string()
    } else {
        format!("{size} ({whole} datasets whole)")
    })
}

/// The selection analysis as a report section.
fn sections(record: &RunRecord) -> Result<Vec<Section>> {
    let plan = &record.plan;
    let published = wu_flach()?;
    let sample = sample_sizes(plan);
    let largest_sample = largest_sample(plan);
    let sampled = sample.is_some();
    let which = if sampled {
        &published.samples
    } else {
        &published.full
    };
    let outcomes = outcomes(record);
    let (table_name, stem) = table_names(largest_sample);
    let sample_words = sample.as_ref().map_or(String::new(), |s| {
        format!(", stratified samples of {s} instances")
    });
    let selection = selection_table(
        &format!(
            "Test AUC (x100) of the model selected by validation AUC and by validation sAUC \
             (Wu & Flach {table_name}{sample_words})"
        ),
        record,
        &outcomes,
    );
    let comparison = comparison_table(
        &format!("Wu & Flach {table_name} beside ours{sample_words}"),
        &published,
        which,
        sampled,
        record,
        &outcomes,
    );
    let mut comparison_table = comparison.table;
    if let Some(note) = sample_size_note(largest_sample, which) {
        comparison_table.push_note(note);
    }
    let (levels, winners) = split_comparison(comparison_table);
    let mut tables = vec![
        SectionTable::new(format!("{stem}_beside_paper"), levels),
        SectionTable::new(format!("{stem}_beside_paper_winners"), winners),
    ];
    let mut table3_sentence = String::new();
    if !sampled {
        let (table, sentence) = table3_beside_paper(&published, plan);
        tables.push(table);
        table3_sentence = sentence;
    }
    tables.push(SectionTable::new(stem, selection));
    // the seeds are runs of the shipped configs: they speak for a run of all 20 datasets only
    if plan.datasets.len() == published.datasets.len() {
        table3_sentence.push_str(&envelope_sentence(largest_sample, which)?);
    }
    let reading = reading(
        record,
        (&table_name, &table3_sentence),
        which,
        &outcomes,
        (comparison.same_winner, comparison.comparable),
    );
    Ok(vec![Section {
        title: format!("Wu & Flach (2005): model selection by AUC and by sAUC{sample_words}"),
        reading,
        tables,
        ..Section::default()
    }])
}

/// Table 3 beside ours (a run of whole datasets), and the reading's sentence on it.
fn table3_beside_paper(published: &WuFlach, plan: &Plan) -> (SectionTable, String) {
    let (table, matching) = table3(published, plan);
    let sentence = format!(
        " Table 3: {matching} of {} datasets match in attributes, size and majority share; \
         every other is explained in the Table 3 comparison.",
        published.datasets.len()
    );
    (
        SectionTable::new("wu_flach_table3_beside_paper", table),
        sentence,
    )
}

/// Each dataset with the selections under both tie rules (first listed, random mean).
fn outcomes(record: &RunRecord) -> Vec<(usize, DatasetOutcome, DatasetOutcome)> {
    (0..record.plan.datasets.len())
        .map(|d| {
            (
                d,
                select(record, d, TieRule::FirstListed),
                select(record, d, TieRule::RandomMean),
            )
        })
        .collect()
}

/// The paper's table a run reproduces and the stem of its files: Table 4 on whole datasets,
/// Table 5 on samples (the stem naming a size other than 50).
fn table_names(largest_sample: Option<usize>) -> (String, String) {
    match largest_sample {
        None => ("Table 4".to_string(), "wu_flach_selection".to_string()),
        Some(50) => (
            "Table 5".to_string(),
            "wu_flach_selection_samples".to_string(),
        ),
        Some(size) => (
            "Table 5".to_string(),
            format!("wu_flach_selection_samples_{size}"),
        ),
    }
}

/// For a run on samples of a table whose text gives a sample size: the note on that size.
fn sample_size_note(largest_sample: Option<usize>, which: &WuFlachTable) -> Option<String> {
    let (Some(size), Some(text_size)) = (largest_sample, which.text_sample_size) else {
        return None;
    };
    Some(format!(
        "Sample size: Table 5 is reproduced at 150 instances (wu_flach_samples_150.toml). The \
         text's '{text_size} instances' lost a digit 1, as every 1 of our copy did (the same \
         paragraph prints '00 pairs' for 100): the table marks {} as having 'less than 50 \
         instances' and repeats their Table 4 rows, though they have 148, 133 and 108, and \
         every other dataset has at least 155. This run draws {size}{}. Hepatitis (155 \
         instances) is also printed identical to Table 4, unstarred.",
        which.starred.join(", "),
        if size == 150 {
            ""
        } else {
            ", a side note: at the text's 50 the rows are about twice as far from theirs as \
             at 150"
        }
    ))
}

/// Where the paper's wins, losses and averages lie among our seed runs
/// (docs/reproductions/wu_flach/seeds.csv), and, for Table 4, the tied-scores reading tested.
fn envelope_sentence(largest_sample: Option<usize>, which: &WuFlachTable) -> Result<String> {
    let seeds = SeedRuns::parse("docs/reproductions/wu_flach/seeds.csv", WU_FLACH_SEEDS)?;
    let prefix = match largest_sample {
        None => "t4",
        Some(150) => "t5_150",
        Some(50) => "t5_50",
        Some(_) => return Ok(String::new()),
    };
    let mut parts = vec![
        ("sAUC wins", "wins", Some(which.wins as f64), 0),
        ("sAUC losses", "losses", Some(which.losses as f64), 0),
        (
            "AUC-selected average",
            "auc_mean",
            which.auc_selected_mean,
            2,
        ),
        (
            "sAUC-selected average",
            "sauc_mean",
            which.sauc_selected_mean,
            2,
        ),
    ];
    if let (Some(auc), Some(sauc)) = (which.auc_selected_mean, which.sauc_selected_mean) {
        parts.push((
            "sAUC minus AUC average",
            "sauc_minus_auc",
            Some(sauc - auc),
            2,
        ));
    }
    let mut placed = Vec::new();
    for (label, column, published, decimals) in parts {
        let Some(published) = published else { continue };
        let envelope = seeds.envelope(&format!("{prefix}_{column}"), published)?;
        placed.push(format!("{label}: {}", envelope.sentence(decimals)));
    }
    let mut text = format!(
        " Over {} seeds of this config with only the seed changed (docs/reproductions/wu_flach/\
         seeds.csv; scripts/fidelity/run_seeds.py and seeds_collect.py): {}.",
        seeds.seeds(),
        placed.join("; ")
    );
    if largest_sample.is_none() {
        text.push_str(
            " Tested and dropped as a cause of German's and Breast Cancer's levels: their AUC \
             algorithm (their Table 1) has no rule for tied scores, but counting tied pairs as \
             correct, recomputed on our cached predictions, leaves German where it is and puts \
             Breast Cancer's sAUC-selected mean far below its AUC-selected one, against the \
             paper's pattern (scripts/fidelity/wu_flach_ties.py, \
             docs/reproductions/wu_flach/ties.csv).",
        );
    }
    Ok(text)
}

/// The section's reading: the winners beside the paper's, and the wins and losses of
/// sAUC-selection under both tie rules.
fn reading(
    record: &RunRecord,
    (table_name, table3_sentence): (&str, &str),
    which: &WuFlachTable,
    outcomes: &[(usize, DatasetOutcome, DatasetOutcome)],
    (same_winner, comparable): (usize, usize),
) -> String {
    let alpha = record.config.alpha;
    let firsts: Vec<DatasetOutcome> = outcomes.iter().map(|(_, f, _)| f.clone()).collect();
    let randoms: Vec<DatasetOutcome> = outcomes.iter().map(|(_, _, r)| r.clone()).collect();
    let (wins, losses) = totals(&firsts);
    let (wins_random, losses_random) = totals(&randoms);
    let skipped: usize = firsts.iter().map(|o| o.skipped).sum();
    format!(
        "{table_name}: same winner (the selection with the higher mean test AUC) on {} of {} \
         datasets whose published winner the extraction's lost digits leave determined. sAUC-\
         selection wins on {wins} and loses on {losses} of {} datasets (paired t-test, alpha = \
         {alpha}, ties broken by the paper's rule, the first listed learner; {wins_random} and \
         {losses_random} when ties are broken at random); the paper reports {} wins and {} \
         losses.{table3_sentence} On every test fold, the learner with the highest AUC on the \
         validation fold and the one with the highest sAUC are selected and their test AUCs \
         compared.{}",
        same_winner,
        comparable,
        record.plan.datasets.len(),
        which.wins,
        which.losses,
        if skipped > 0 {
            format!(" {skipped} folds were skipped (see the table note).")
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_follow_the_rule() {
        let validation = [Some(0.9), Some(0.95), None, Some(0.95)];
        assert_eq!(best_set(&validation), vec![1, 3]);
        let test = [Some(0.5), Some(0.8), Some(0.1), Some(0.6)];
        assert_eq!(
            selected_test_auc(&[1, 3], &test, TieRule::FirstListed),
            Some(0.8)
        );
        let mean = selected_test_auc(&[1, 3], &test, TieRule::RandomMean).unwrap();
        assert!((mean - 0.7).abs() < 1e-12);
        assert_eq!(selected_test_auc(&[], &test, TieRule::FirstListed), None);
        assert_eq!(wins_losses_text((2, 1)), "2 wins, 1 loss");
        assert_eq!(wins_losses_text((1, 0)), "1 win, 0 losses");
    }

    #[test]
    fn printed_averages_are_checked_against_their_columns() {
        // The paper prints 93.05 / 93.45 (Table 4) and 89.36 / 89.97 (Table 5) as averages;
        // its own rows average 93.27-93.32 / 93.45-93.52 and 89.09-89.14 / 89.96-90.02 under
        // every reading of the lost digits (issue 31): the AUC averages are not the means.
        let published = wu_flach().unwrap();
        for (sampled, which) in [(false, &published.full), (true, &published.samples)] {
            let column = |sauc: bool| -> Vec<Vec<f64>> {
                published
                    .datasets
                    .iter()
                    .map(|d| {
                        let row = published_row(d, sampled);
                        if sauc {
                            row.sauc.clone()
                        } else {
                            row.auc.clone()
                        }
                    })
                    .collect()
            };
            let auc = average_note("AUC", which.auc_selected_mean, &column(false), "range");
            let sauc = average_note("sAUC", which.sauc_selected_mean, &column(true), "range");
            assert!(auc.is_some(), "sampled {sampled}");
            assert!(sauc.is_none(), "sampled {sampled}: {sauc:?}");
        }
    }

    #[test]
    fn published_winners_follow_the_printed_means() {
        let published = wu_flach().unwrap();
        let winner = |paper: &str, sampled: bool| {
            let row = published
                .datasets
                .iter()
                .find(|d| d.paper == paper)
                .unwrap();
            published_winner(if sampled { &row.table5 } else { &row.table4 })
        };
        // Table 4: Glass 95.23 against 97.16 or 97.61; German 92.34 both; Monk2 97.05 against
        // 94.06; Tic-tac-toe 99.68 against 99.71 or 99.17 (the lost 1 decides).
        assert_eq!(winner("Glass", false), Winner::Sauc);
        assert_eq!(winner("German", false), Winner::Equal);
        assert_eq!(winner("Monk2", false), Winner::Auc);
        assert_eq!(winner("Tic-tac-toe", false), Winner::Undetermined);
        // Table 5: German 70.39 against 68.80.
        assert_eq!(winner("German", true), Winner::Auc);
        // the starred rows repeat Table 4
        for paper in &published.samples.starred {
            let row = published
                .datasets
                .iter()
                .find(|d| &d.paper == paper)
                .unwrap();
            assert_eq!(row.table4, row.table5, "{paper}");
        }
    }
}
