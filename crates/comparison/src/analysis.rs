//! The engine analysis `across_datasets`: per measure, the datasets x learners table of means
//! over the folds, and every statistic of [`stats::across_datasets::compare`] (the function
//! the `compare` command also calls) as tables, a JSON file, a critical-difference diagram and
//! the Bayesian simplexes of the control against each other learner.

use engine::cache::file_safe;
use engine::config::ExperimentConfig;
use engine::{bail, write_table, Analysis, AnalysisContext, Plan, Result, Section};
use report::{Cell, Table};
use serde::Serialize;
use stats::across_datasets::{self, AcrossDatasetsOptions, AcrossDatasetsResult};

/// One measure's means over the folds of a run: the matrix the analysis compares.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreTable {
    /// The measure's name.
    pub measure: String,
    /// True when lower values are better (error, Brier score, log-loss).
    pub lower_is_better: bool,
    /// The datasets (rows).
    pub datasets: Vec<String>,
    /// The learners (columns).
    pub learners: Vec<String>,
    /// `values[dataset][learner]`, all finite.
    pub values: Vec<Vec<f64>>,
}

/// The JSON file `tables/across_<measure>.json`: the table and every statistic of it.
#[derive(Serialize)]
struct MeasureReport<'a> {
    table: &'a ScoreTable,
    result: &'a AcrossDatasetsResult,
}

/// The comparison of learners across datasets (Demšar 2006; García & Herrera 2008; Benavoli
/// et al. 2017).
pub struct AcrossDatasets;

/// Fewest datasets and learners for which the analysis is on by default.
const DEFAULT_DATASETS: usize = 3;
const DEFAULT_LEARNERS: usize = 2;

impl Analysis for AcrossDatasets {
    fn name(&self) -> &'static str {
        "across_datasets"
    }

    fn description(&self) -> &'static str {
        "learners compared across datasets, per measure (Demšar 2006; García & Herrera 2008; \
         Benavoli et al. 2017): average ranks, Friedman with Iman-Davenport, Nemenyi's critical \
         difference and CD diagram, Holm and Bonferroni-Dunn against the control, pairwise \
         Wilcoxon with Holm's correction, win/tie/loss with the sign test, and the Bayesian \
         signed-rank test with a rope and its simplex; on by default with >= 3 datasets and >= 2 \
         learners"
    }

    fn on_by_default(&self, plan: &Plan) -> bool {
        plan.datasets.len() >= DEFAULT_DATASETS && plan.learners.len() >= DEFAULT_LEARNERS
    }

    fn check(&self, _config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        if plan.datasets.len() < 2 || plan.learners.len() < 2 {
            return Err(format!(
                "it needs at least 2 datasets and 2 learners, and the experiment has {} and {}",
                plan.datasets.len(),
                plan.learners.len()
            ));
        }
        Ok(())
    }

    fn sections(&self, context: &AnalysisContext) -> Result<Vec<Section>> {
        if let Err(problem) = self.check(context.config, context.plan) {
            bail!("analysis 'across_datasets': {problem}");
        }
        let mut sections = Vec::new();
        for measure in 0..context.results.folds.measures.len() {
            sections.push(measure_section(context, measure)?);
        }
        Ok(sections)
    }
}

/// One measure's table of means over the folds (finite values only), and the datasets left
/// out because some learner has no finite value on them.
pub fn score_table(context: &AnalysisContext, measure: usize) -> (ScoreTable, Vec<String>) {
    let (plan, folds) = (context.plan, &context.results.folds);
    let kind = folds.measures[measure];
    let mut table = ScoreTable {
        measure: kind.name().to_string(),
        lower_is_better: kind.lower_is_better(),
        datasets: Vec::new(),
        learners: plan.learners.iter().map(|l| l.name.clone()).collect(),
        values: Vec::new(),
    };
    let mut left_out = Vec::new();
    for (d, dataset) in plan.datasets.iter().enumerate() {
        let row: Vec<f64> = (0..plan.learners.len())
            .map(|l| engine::results::mean_and_sd(&folds.values(d, l, measure)).0)
            .collect();
        if row.iter().all(|value| value.is_finite()) {
            table.datasets.push(dataset.name.clone());
            table.values.push(row);
        } else {
            left_out.push(dataset.name.clone());
        }
    }
    (table, left_out)
}

/// The section of one measure: tables and figures written under the results folder.
fn measure_section(context: &AnalysisContext, measure: usize) -> Result<Section> {
    let config = context.config;
    let (table, left_out) = score_table(context, measure);
    let name = table.measure.clone();
    let title = format!("Across datasets: {name}");
    let mut notes = Vec::new();
    if !left_out.is_empty() {
        notes.push(format!(
            "Left out, because a learner has no finite {name} on them (failed units or an \
             undefined measure): {}.",
            left_out.join(", ")
        ));
    }
    if table.datasets.len() < 2 {
        return Ok(Section {
            title,
            reading: format!(
                "Fewer than 2 datasets have a {name} for every learner, so nothing is compared. {}",
                notes.join(" ")
            ),
            ..Section::default()
        });
    }
    // The config's `control` was checked to name a learner; without it, the first learner
    // (the stats default). Each pair's Bayesian seed derives from the config seed and names.
    let options = AcrossDatasetsOptions {
        control: config.control.clone(),
        alpha: config.alpha,
        rope: config.rope(),
        higher_is_better: !table.lower_is_better,
        wilcoxon_correction: config.wilcoxon_correction,
        seed: config.seed,
        measure: name.clone(),
        ..AcrossDatasetsOptions::default()
    };
    let failed = |error: stats::StatsError| {
        engine::Error::message(format!(
            "analysis 'across_datasets', measure '{name}': {error}"
        ))
    };
    let result =
        across_datasets::compare(&table.values, &table.learners, &options).map_err(failed)?;
    let stem = format!("across_{}", file_safe(&name));
    let tables_folder = context.folder.join("tables");
    let json = MeasureReport {
        table: &table,
        result: &result,
    };
    report::write_file(
        &tables_folder.join(format!("{stem}.json")),
        &serde_json::to_string_pretty(&json).map_err(|error| {
            engine::Error::message(format!("cannot write {stem}.json: {error}"))
        })?,
    )?;
    let mut tables = measure_tables(&table, &result);
    if let Some(first) = tables.first_mut() {
        for note in &notes {
            first.push_note(note.clone());
        }
    }
    for (table, suffix) in tables
        .iter()
        .zip(["means", "friedman", "control", "pairs", "bayesian"])
    {
        write_table(&tables_folder, &format!("{stem}_{suffix}"), table)?;
    }
    let mut figures = Vec::new();
    let diagram = report::CriticalDifferenceDiagram {
        title: format!(
            "{name}: average ranks over {} datasets",
            table.datasets.len()
        ),
        labels: table.learners.clone(),
        ranks: result.average_ranks.clone(),
        critical_difference: (result.nemenyi.critical_difference, "CD (Nemenyi)".into()),
        groups: result
            .nemenyi
            .groups
            .iter()
            .map(|group| {
                group
                    .iter()
                    .map(|name| learner_index(&result, name))
                    .collect()
            })
            .collect(),
        control: Some((
            result.control.control_index,
            result.control.bonferroni_dunn_critical_difference,
        )),
    };
    let file = format!("figures/{stem}_cd.svg");
    report::write_file(
        &context.folder.join(&file),
        &report::critical_difference_diagram(&diagram)?,
    )?;
    figures.push((
        file,
        format!(
            "Critical-difference diagram (Demšar 2006) of {name}: average ranks (1 = best); \
             learners joined by a thick bar do not differ by Nemenyi's test at alpha = {}; the \
             coloured bar is the control's interval of ± the Bonferroni-Dunn critical \
             difference.",
            config.alpha
        ),
    ));
    let control = result.control.control_index;
    for other in (0..table.learners.len()).filter(|&l| l != control) {
        let (first, second) = (control.min(other), control.max(other));
        let posterior = across_datasets::bayesian_posterior(&table.values, &result, first, second)
            .map_err(failed)?;
        let pair = result
            .pairs
            .iter()
            .find(|pair| {
                (pair.first.as_str(), pair.second.as_str())
                    == (
                        table.learners[first].as_str(),
                        table.learners[second].as_str(),
                    )
            })
            .expect("every pair is compared");
        // Oriented so that the control's better region is on the right (`right` of a pair is
        // "the first is better").
        let shares = pair.bayesian_signed_rank.probabilities;
        let control_is_first = first == control;
        let (control_better, other_better) = if control_is_first {
            (shares.right, shares.left)
        } else {
            (shares.left, shares.right)
        };
        let samples: Vec<[f64; 3]> = posterior
            .iter()
            .map(|p| {
                if control_is_first {
                    [p.left, p.rope, p.right]
                } else {
                    [p.right, p.rope, p.left]
                }
            })
            .collect();
        let simplex = report::Simplex {
            title: format!(
                "{name}: {} vs {} (rope {})",
                table.learners[control], table.learners[other], options.rope
            ),
            corners: [
                format!("{} better", table.learners[other]),
                "equivalent".to_string(),
                format!("{} better", table.learners[control]),
            ],
            probabilities: [other_better, shares.rope, control_better],
            samples,
        };
        let file = format!(
            "figures/{stem}_simplex_{}_{}.svg",
            file_safe(&table.learners[control]),
            file_safe(&table.learners[other])
        );
        report::write_file(
            &context.folder.join(&file),
            &report::simplex_plot(&simplex)?,
        )?;
        figures.push((
            file,
            format!(
                "Bayesian signed-rank test (Benavoli et al. 2017) of {} against {} on {name} over \
                 {} datasets, rope = {}: each dot is a posterior sample of the probabilities of \
                 the three regions; the numbers are the shares of samples in which each region \
                 is the most probable.",
                table.learners[control],
                table.learners[other],
                table.datasets.len(),
                options.rope
            ),
        ));
    }
    Ok(Section {
        title,
        reading: reading(&table, &result),
        tables,
        figures,
        links: vec![(
            format!("tables/{stem}.json"),
            format!("every statistic of {name} as JSON"),
        )],
    })
}

/// The index of the learner `name` of `result` (a name from the result itself).
fn learner_index(result: &AcrossDatasetsResult, name: &str) -> usize {
    result
        .learners
        .iter()
        .position(|learner| learner == name)
        .expect("the result names its own learners")
}

/// A few sentences on what the tests say.
fn reading(table: &ScoreTable, result: &AcrossDatasetsResult) -> String {
    let best_rank = result
        .average_ranks
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    let best: Vec<&str> = (0..table.learners.len())
        .filter(|&l| result.average_ranks[l] == best_rank)
        .map(|l| table.learners[l].as_str())
        .collect();
    let control = &result.control.control;
    let beaten: Vec<&str> = result
        .control
        .comparisons
        .iter()
        .filter(|row| row.holm_reject)
        .map(|row| table.learners[row.learner].as_str())
        .collect();
    format!(
        "{} datasets, {} learners, {} ({}). Best average rank: {} ({:.2}). The Friedman test \
         with the Iman-Davenport correction gives p = {:.4}: {} at alpha = {}. Against the \
         control {control}, Holm's procedure finds a difference with {}. Demšar (2006) \
         recommends reading the post-hoc tests only when the Friedman test rejects; the \
         pairwise Wilcoxon tests are corrected by Holm over all {} pairs.",
        table.datasets.len(),
        table.learners.len(),
        table.measure,
        if table.lower_is_better {
            "lower is better"
        } else {
            "higher is better"
        },
        best.join(", "),
        best_rank,
        result.friedman.iman_davenport_pvalue,
        if result.friedman.reject {
            "the learners differ"
        } else {
            "no difference is shown"
        },
        result.options.alpha,
        if beaten.is_empty() {
            "none".to_string()
        } else {
            beaten.join(", ")
        },
        result.pairs.len()
    )
}

/// The five tables of one measure's comparison (means and ranks, Friedman and the critical
/// differences, the control, every pair, the Bayesian test): the report's and the `compare`
/// command's.
pub fn measure_tables(table: &ScoreTable, result: &AcrossDatasetsResult) -> Vec<Table> {
    vec![
        means_table(table, result),
        tests_table(table, result),
        control_table(table, result),
        pairs_table(table, result),
        bayesian_table(table, result),
    ]
}

fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

/// The datasets x learners means, each with its rank on the dataset, and the average ranks.
fn means_table(table: &ScoreTable, result: &AcrossDatasetsResult) -> Table {
    let mut columns = vec!["dataset".to_string()];
    columns.extend(table.learners.iter().cloned());
    let mut out = Table::new(
        format!(
            "{}: mean over the folds per dataset, with the rank on the dataset (1 = best)",
            table.measure
        ),
        columns,
    );
    for (d, dataset) in table.datasets.iter().enumerate() {
        let mut row = vec![Cell::text(dataset)];
        for (l, value) in table.values[d].iter().enumerate() {
            let rank = result.ranks[d][l];
            let mut cell =
                Cell::number(*value)
                    .with_decimals(4)
                    .with_marker(if rank.fract() == 0.0 {
                        format!(" ({rank:.0})")
                    } else {
                        format!(" ({rank})")
                    });
            if rank == 1.0 {
                cell = cell.bold();
            }
            row.push(cell);
        }
        out.push_row(row);
    }
    let mut row = vec![Cell::text("average rank")];
    row.extend(
        result
            .average_ranks
            .iter()
            .map(|rank| Cell::number(*rank).with_decimals(3)),
    );
    out.push_row(row);
    out
}

/// Friedman, Iman-Davenport and the critical differences.
fn tests_table(table: &ScoreTable, result: &AcrossDatasetsResult) -> Table {
    let friedman = &result.friedman;
    let alpha = result.options.alpha;
    let (n, k) = (table.datasets.len(), table.learners.len());
    let mut out = Table::new(
        format!(
            "{}: Friedman test with the Iman-Davenport correction, and the critical differences \
             (alpha = {alpha})",
            table.measure
        ),
        header(&["statistic", "value", "df", "p-value"]),
    );
    let rows = [
        (
            "Friedman chi-square (tie-corrected)",
            Cell::number(friedman.chi_square).with_decimals(4),
            format!("{}", friedman.df),
            Cell::number(friedman.pvalue).with_decimals(4),
        ),
        (
            "Iman-Davenport F",
            Cell::number(friedman.iman_davenport_f).with_decimals(4),
            format!(
                "{}, {}",
                friedman.iman_davenport_df.0, friedman.iman_davenport_df.1
            ),
            Cell::number(friedman.iman_davenport_pvalue).with_decimals(4),
        ),
        (
            "Nemenyi critical difference",
            Cell::number(result.nemenyi.critical_difference).with_decimals(4),
            format!("q = {:.4}", result.nemenyi.q),
            Cell::empty(),
        ),
        (
            "Bonferroni-Dunn critical difference (vs control)",
            Cell::number(result.control.bonferroni_dunn_critical_difference).with_decimals(4),
            String::new(),
            Cell::empty(),
        ),
    ];
    for (label, value, df, pvalue) in rows {
        out.push_row(vec![Cell::text(label), value, Cell::text(df), pvalue]);
    }
    out.push_note(format!(
        "N = {n} datasets, k = {k} learners. Decision at alpha = {alpha}: {}.",
        if friedman.reject {
            "the learners' ranks differ"
        } else {
            "no difference among the learners' ranks"
        }
    ));
    out
}

/// Holm and Bonferroni-Dunn against the control.
fn control_table(table: &ScoreTable, result: &AcrossDatasetsResult) -> Table {
    let control = result.control.control_index;
    let mut out = Table::new(
        format!(
            "{}: each learner against the control {} (z-test on average ranks; Holm and \
             Bonferroni-Dunn over {} comparisons)",
            table.measure,
            table.learners[control],
            table.learners.len() - 1
        ),
        header(&[
            "learner",
            "average rank",
            "rank - control's",
            "z",
            "p-value",
            "Holm p",
            "Holm",
            "Bonferroni-Dunn p",
            "Bonferroni-Dunn",
        ]),
    );
    let decision = |reject: bool| {
        if reject {
            Cell::text("differ").bold()
        } else {
            Cell::text("no difference")
        }
    };
    for row in &result.control.comparisons {
        out.push_row(vec![
            Cell::text(&table.learners[row.learner]),
            Cell::number(result.average_ranks[row.learner]).with_decimals(3),
            Cell::number(row.rank_difference).with_decimals(3),
            Cell::number(row.z).with_decimals(3),
            Cell::number(row.pvalue).with_decimals(4),
            Cell::number(row.holm_pvalue).with_decimals(4),
            decision(row.holm_reject),
            Cell::number(row.bonferroni_dunn_pvalue).with_decimals(4),
            decision(row.bonferroni_dunn_reject),
        ]);
    }
    out.push_note(format!(
        "The control's average rank is {:.3}; a positive difference means the control ranks \
         better.",
        result.average_ranks[control]
    ));
    out
}

/// Every pair: win/tie/loss with the sign test, Wilcoxon with Holm, and Nemenyi.
fn pairs_table(table: &ScoreTable, result: &AcrossDatasetsResult) -> Table {
    let mut out = Table::new(
        format!(
            "{}: every pair of learners over the {} datasets",
            table.measure,
            table.datasets.len()
        ),
        header(&[
            "a",
            "b",
            "a wins/ties/losses",
            "sign p",
            "wins needed",
            "Wilcoxon W",
            "Wilcoxon p",
            "Holm p",
            "Nemenyi p",
        ]),
    );
    for pair in &result.pairs {
        let holm = Cell::number(pair.wilcoxon_holm_pvalue).with_decimals(4);
        let count = pair.win_tie_loss;
        out.push_row(vec![
            Cell::text(&pair.first),
            Cell::text(&pair.second),
            Cell::text(format!("{}/{}/{}", count.wins, count.ties, count.losses)),
            Cell::number(pair.sign_test.pvalue).with_decimals(4),
            match pair.sign_test_critical_wins {
                Some(needed) if pair.sign_test_demsar_reject => Cell::integer(needed as i64).bold(),
                Some(needed) => Cell::integer(needed as i64),
                None => Cell::text("none"),
            },
            Cell::number(pair.wilcoxon.statistic).with_decimals(1),
            Cell::number(pair.wilcoxon.pvalue).with_decimals(4),
            if pair.wilcoxon_holm_reject {
                holm.bold()
            } else {
                holm
            },
            Cell::number(pair.nemenyi_pvalue).with_decimals(4),
        ]);
    }
    out.push_note(format!(
        "Wins count the datasets where a is better. Sign p: exact two-sided binomial test with \
         ties dropped; wins needed: Demšar's (2006) critical value at alpha = {} with ties split \
         evenly (bold when a or b reaches it). Wilcoxon: signed-rank test of the per-dataset \
         differences (zeros dropped; exact up to 50 datasets), its p-value Holm-corrected over \
         the {} pairs (bold when rejected).",
        result.options.alpha,
        result.pairs.len(),
    ));
    out
}

/// Every pair: the Bayesian signed-rank test's probabilities.
fn bayesian_table(table: &ScoreTable, result: &AcrossDatasetsResult) -> Table {
    let options = &result.options;
    let mut out = Table::new(
        format!(
            "{}: Bayesian signed-rank test of every pair (rope {})",
            table.measure, options.rope
        ),
        header(&["a", "b", "P(a better)", "P(equivalent)", "P(b better)"]),
    );
    for pair in &result.pairs {
        let shares = pair.bayesian_signed_rank.probabilities;
        out.push_row(vec![
            Cell::text(&pair.first),
            Cell::text(&pair.second),
            Cell::number(shares.right).with_decimals(3),
            Cell::number(shares.rope).with_decimals(3),
            Cell::number(shares.left).with_decimals(3),
        ]);
    }
    out.push_note(format!(
        "Benavoli et al. (2017), as baycomp: a Dirichlet process posterior of the per-dataset \
         differences a - b with a prior pseudo-observation of weight {} at 0, {} Monte Carlo \
         samples; each probability is the share of samples in which that region (a better by \
         more than {} {}, within it, b better) is the most probable.",
        options.bayesian_prior, options.bayesian_samples, options.rope, table.measure
    ));
    out
}
