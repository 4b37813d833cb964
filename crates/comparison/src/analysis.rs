//! The engine analysis `across_datasets`: per measure, the datasets x learners table of means
//! over the folds (with each cell's fold values), and every statistic of
//! [`crate::across::analyse`] (the call the `compare` command also makes) as tables, a JSON
//! file, a critical-difference diagram with bars from the chosen procedure, the Bayesian
//! simplexes of the control against each other learner and autorank's write-up.

use engine::config::experiment::ExperimentConfig;
use engine::file_safe;
use engine::{Analysis, AnalysisError, ParameterSpec, Plan, RunRecord, Section, SectionTable};
use report::{Cell, Table};
use serde::Serialize;
use stats::across_analysis::{AcrossAnalysis, CdProcedure, ResultsTable as AnalysisTable};
use stats::across_datasets::{self, AcrossDatasetsResult};

use crate::across::{self, Settings};
use crate::across_tables::{self, missing_sentence};
use crate::error::{Error, Result};

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

/// The JSON file `tables/across_<measure>.json`: the run's table of the measure and every
/// statistic of it (`analysis`: what `compare --json` prints in its `analysis` for the run's
/// per-fold table with the same settings).
#[derive(Serialize)]
struct MeasureReport<'a> {
    measure: &'a str,
    higher_is_better: bool,
    table: &'a AnalysisTable,
    analysis: &'a AcrossAnalysis,
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
         Benavoli et al. 2017; Corani et al. 2017): average ranks, Friedman with Iman-Davenport, \
         Quade and Friedman aligned ranks with their post-hocs, Holm, Hochberg, Hommel, Finner, \
         Li, Shaffer and Bergmann-Hommel adjustments, the CD diagram with bars from a chosen \
         procedure, Holm and Bonferroni-Dunn against the control, Wilcoxon, win/tie/loss with \
         the sign test, effect sizes, autorank's write-up, the Bayesian signed-rank test, \
         Plackett-Luce and the hierarchical Bayesian t-test on the folds; a declared policy \
         for missing results (Skillings-Mack); on by default with >= 3 datasets and >= 2 \
         learners"
    }

    fn on_by_default(&self, plan: &Plan) -> bool {
        plan.datasets.len() >= DEFAULT_DATASETS && plan.learners.len() >= DEFAULT_LEARNERS
    }

    fn options(&self) -> &'static [ParameterSpec] {
        OPTIONS
    }

    fn check(&self, config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        if plan.datasets.len() < 2 || plan.learners.len() < 2 {
            return Err(format!(
                "it needs at least 2 datasets and 2 learners, and the experiment has {} and {}",
                plan.datasets.len(),
                plan.learners.len()
            ));
        }
        let settings = options(config)?;
        bergmann_hommel_fits(&settings, plan.learners.len())?;
        if let Some(control) = settings.control {
            if !plan.learners.iter().any(|learner| learner.name == control) {
                let names: Vec<&str> = plan.learners.iter().map(|l| l.name.as_str()).collect();
                return Err(format!(
                    "key 'control' = '{control}' names no learner; allowed: {}",
                    names.join(", ")
                ));
            }
        }
        Ok(())
    }

    fn sections(&self, record: &RunRecord) -> Result<Vec<Section>, AnalysisError> {
        self.check(&record.config, &record.plan)
            .map_err(Error::Needs)?;
        let options = options(&record.config).map_err(Error::Needs)?;
        let mut sections = Vec::new();
        for measure in 0..record.results.folds.measures.len() {
            sections.push(measure_section(record, measure, &options)?);
        }
        Ok(sections)
    }
}

/// Refuses `cd_adjustment = "bergmann_hommel"` (with a test other than Nemenyi's, which
/// ignores it) for more learners than it is computed for, naming the limit.
fn bergmann_hommel_fits(settings: &Settings, learners: usize) -> Result<(), String> {
    let procedure = settings.cd_procedure;
    let most = stats::adjust::BERGMANN_HOMMEL_MAX_LEARNERS;
    if procedure.adjustment == stats::across_analysis::Adjustment::BergmannHommel
        && procedure.test != stats::across_analysis::PairwiseTest::Nemenyi
        && learners > most
    {
        return Err(format!(
            "key 'cd_adjustment' = \"bergmann_hommel\" takes at most {most} learners (it \
             enumerates every exhaustive set of hypotheses), and the experiment has {learners}; \
             allowed: shaffer (its static relative), holm or another adjustment"
        ));
    }
    Ok(())
}

/// The analysis's options (checked by a config's check like a learner's parameters).
const OPTIONS: &[ParameterSpec] = &[
    ParameterSpec::optional_text(
        "control",
        "the first learner",
        "the control learner of across_datasets (Holm and Bonferroni-Dunn against it, and its \
         Bayesian simplexes against every other learner): a learner's display name",
    ),
    ParameterSpec::real(
        "rope",
        0.01,
        0.0,
        f64::MAX,
        "half-width of the region of practical equivalence of the Bayesian signed-rank and \
         hierarchical tests, in the units of each measure (0: no rope)",
    ),
    ParameterSpec::choice(
        "missing_results",
        "skillings_mack",
        across::MISSING_POLICIES,
        "what across_datasets does with a dataset on which some learner has no result (failed \
         units, an undefined measure), declared before the results are seen: skillings_mack \
         (the complete-table tests on the complete datasets, and the Skillings-Mack test on the \
         whole table), drop_datasets, or drop_learners",
    ),
    ParameterSpec::choice(
        "cd_test",
        "wilcoxon",
        across::CD_TESTS,
        "the pairwise test whose decisions draw the bars of the CD diagram (wilcoxon: \
         signed-rank over datasets, as aeon; nemenyi: Demšar's)",
    ),
    ParameterSpec::choice(
        "cd_adjustment",
        "holm",
        across::CD_ADJUSTMENTS,
        "the multiple-comparison adjustment of cd_test's p-values (ignored for nemenyi; \
         bergmann_hommel: up to 9 learners)",
    ),
    ParameterSpec::real(
        "hierarchical_correlation",
        0.0,
        0.0,
        0.999,
        "correlation of the fold differences in the hierarchical Bayesian t-test (baycomp's \
         rho, the test fraction); 0: the mean test fraction of the run's splits",
    ),
    ParameterSpec::integer(
        "hierarchical_samples",
        across::HIERARCHICAL_SAMPLES,
        0,
        across::MAX_HIERARCHICAL_SAMPLES,
        "draws kept per chain (4 chains, a quarter as many warm-up) of the hierarchical \
         Bayesian t-test of every pair (its time grows with the draws, datasets and pairs; see \
         docs/compare.md); 0: not run",
    ),
];

/// The analysis's settings, read from the config (alpha, seed and the Wilcoxon correction
/// are the config's own keys).
fn options(config: &ExperimentConfig) -> Result<Settings, String> {
    let read = |options: &engine::Params<'_>| {
        Ok((
            options.text("control")?,
            options.real("rope")?,
            [
                options.choice("missing_results")?,
                options.choice("cd_test")?,
                options.choice("cd_adjustment")?,
            ],
            options.real("hierarchical_correlation")?,
            options.integer("hierarchical_samples")?,
        ))
    };
    let (control, rope, [missing, test, adjustment], correlation, samples) =
        engine::report::analysis::options(&AcrossDatasets, config, read)?;
    Ok(Settings {
        control,
        rope,
        alpha: config.alpha,
        seed: config.seed,
        wilcoxon_correction: config.wilcoxon_correction,
        missing: across::missing_policy(missing)?,
        cd_procedure: across::cd_procedure(test, adjustment)?,
        correlation: (correlation > 0.0).then_some(correlation),
        hierarchical_samples: samples,
        ..Settings::default()
    })
}

/// The mean test fraction |test| / (|train| + |test|) of the run's splits: the correlation of
/// the hierarchical test when the config gives none.
fn test_fraction(record: &RunRecord) -> Option<f64> {
    let fractions: Vec<f64> = record
        .plan
        .datasets
        .iter()
        .flat_map(|dataset| &dataset.plan.splits)
        .map(|split| split.test.len() as f64 / (split.train_len() + split.test.len()) as f64)
        .collect();
    (!fractions.is_empty()).then(|| fractions.iter().sum::<f64>() / fractions.len() as f64)
}

/// One measure's results table of a run: each cell the mean of its finite fold values (`None`
/// when it has none) and those values, in split order.
pub fn run_table(record: &RunRecord, measure: usize) -> AnalysisTable {
    let (plan, folds) = (&record.plan, &record.results.folds);
    let mut values = Vec::new();
    let mut fold_values = Vec::new();
    for d in 0..plan.datasets.len() {
        let mut row = Vec::new();
        let mut fold_row = Vec::new();
        for l in 0..plan.learners.len() {
            let mean = engine::record::results::mean_and_sd(&folds.values(d, l, measure)).0;
            row.push(mean.is_finite().then_some(mean));
            fold_row.push(folds.finite_values(d, l, measure));
        }
        values.push(row);
        fold_values.push(fold_row);
    }
    AnalysisTable {
        datasets: plan.datasets.iter().map(|d| d.name.clone()).collect(),
        learners: plan.learners.iter().map(|l| l.name.clone()).collect(),
        values,
        folds: fold_values,
    }
}

/// The complete table the analysis compared (its kept datasets and learners).
pub fn complete_table(
    measure: &str,
    lower_is_better: bool,
    analysis: &AcrossAnalysis,
) -> ScoreTable {
    ScoreTable {
        measure: measure.to_string(),
        lower_is_better,
        datasets: analysis.datasets.clone(),
        learners: analysis.learners.clone(),
        values: analysis.missing.complete.clone(),
    }
}

/// The section of one measure: its tables, the JSON of every statistic, the CD diagram of the
/// chosen procedure, the Bayesian simplexes and autorank's write-up.
fn measure_section(record: &RunRecord, measure: usize, settings: &Settings) -> Result<Section> {
    let kind = &record.results.folds.measures[measure];
    let (name, lower_is_better) = (kind.name().to_string(), kind.lower_is_better());
    let mut settings = settings.clone();
    if settings.correlation.is_none() {
        settings.correlation = test_fraction(record);
    }
    let input = run_table(record, measure);
    let analysis = across::analyse(&input, &name, !lower_is_better, &settings)
        .map_err(|source| statistic_failed(&name, source))?;
    let table = complete_table(&name, lower_is_better, &analysis);
    let title = format!("Across datasets: {name}");
    let stem = format!("across_{}", file_safe(&name));
    let json = MeasureReport {
        measure: &name,
        higher_is_better: !lower_is_better,
        table: &input,
        analysis: &analysis,
    };
    let Some(result) = &analysis.core else {
        let mut section = Section::new(
            title,
            format!(
                "Fewer than 2 datasets have a {name} for every learner, so the complete-table \
                 tests compare nothing. {}",
                missing_sentence(&analysis, &input)
            ),
        );
        add_extra_tables(
            &mut section,
            &stem,
            &analysis,
            (&name, &input),
            settings.cd_procedure,
        );
        add_json(&mut section, &stem, &json)?;
        return Ok(section);
    };
    let mut section = Section::new(title, reading(&table, result, &analysis));
    add_json(&mut section, &stem, &json)?;
    let dropped = &analysis.missing;
    let note = (!dropped.dropped_datasets.is_empty() || !dropped.dropped_learners.is_empty())
        .then(|| missing_sentence(&analysis, &input));
    add_tables(&mut section, &stem, (&table, result), note.as_slice());
    add_extra_tables(
        &mut section,
        &stem,
        &analysis,
        (&name, &input),
        settings.cd_procedure,
    );
    add_autorank(&mut section, &stem, &analysis);
    section.figure(
        format!("figures/{stem}_cd.svg"),
        format!(
            "Critical-difference diagram of {name}: average ranks (1 = best); learners joined \
             by a thick bar do not differ by {} at alpha = {}; the scale bar is Nemenyi's \
             critical difference and the coloured bar the control's interval of ± the \
             Bonferroni-Dunn critical difference.",
            cd_label(&analysis, settings.cd_procedure),
            settings.alpha
        ),
        report::critical_difference_diagram(&diagram(&table, result, &analysis))?,
    );
    section.headline = Some(engine::Headline {
        measure: Some(name.clone()),
        verdict: verdict(&table, result),
        figure: Some(section.figures.len() - 1),
        table: None,
    });
    let control = result.control.control_index;
    for other in (0..table.learners.len()).filter(|&l| l != control) {
        add_simplex(&mut section, &stem, (&table, result), other)?;
    }
    section.links.push((
        format!("tables/{stem}.json"),
        format!("every statistic of {name} as JSON"),
    ));
    Ok(section)
}

/// The procedure the CD diagram's bars come from (Nemenyi's when the chosen one could not be
/// computed on this table).
fn cd_label(analysis: &AcrossAnalysis, chosen: CdProcedure) -> String {
    match &analysis.cd_diagram {
        Some(diagram) => diagram.procedure.clone(),
        None => format!("Nemenyi's test ({} could not be computed)", chosen.label()),
    }
}

/// The JSON of every statistic of a measure.
fn add_json(section: &mut Section, stem: &str, json: &MeasureReport) -> Result<()> {
    section.files.push((
        format!("tables/{stem}.json"),
        serde_json::to_string_pretty(json).map_err(|source| Error::Json {
            file: format!("tables/{stem}.json"),
            source,
        })?,
    ));
    Ok(())
}

/// The tables beyond Demšar's core: shown on the page the omnibus tests, the CD procedure's
/// post-hoc family, effect sizes, Plackett-Luce and the hierarchical test; linked the other
/// post-hoc families and the hierarchical test's datasets.
fn add_extra_tables(
    section: &mut Section,
    stem: &str,
    analysis: &AcrossAnalysis,
    (name, input): (&str, &AnalysisTable),
    procedure: CdProcedure,
) {
    let shown_family = format!("posthoc_{}", across_tables::test_key(procedure.test));
    for (suffix, table) in across_tables::extra_tables(name, analysis, input) {
        let shown = !suffix.starts_with("posthoc_") && suffix != "hierarchical_datasets"
            || suffix == shown_family;
        section.tables.push(SectionTable {
            table,
            file: Some(format!("{stem}_{suffix}")),
            shown,
        });
        if !shown {
            section.links.push((
                format!("tables/{stem}_{suffix}.md"),
                format!("{} (also .csv, .tex)", suffix.replace('_', " ")),
            ));
        }
    }
}

/// autorank's LaTeX table as a file and link (its paragraph is in the reading).
fn add_autorank(section: &mut Section, stem: &str, analysis: &AcrossAnalysis) {
    if let Some(latex) = &analysis.autorank_latex {
        let file = format!("tables/{stem}_autorank.tex");
        section.files.push((file.clone(), latex.clone()));
        section
            .links
            .push((file, "autorank-style LaTeX table of the result".to_string()));
    }
}

/// A statistic of `measure` that could not be computed.
fn statistic_failed(measure: &str, source: stats::StatsError) -> Error {
    Error::Statistic {
        measure: measure.to_string(),
        source,
    }
}

/// A measure's five tables of Demšar's core (the notes under the first).
fn add_tables(
    section: &mut Section,
    stem: &str,
    (table, result): (&ScoreTable, &AcrossDatasetsResult),
    notes: &[String],
) {
    let mut tables = measure_tables(table, result);
    if let Some(first) = tables.first_mut() {
        for note in notes {
            first.push_note(note.clone());
        }
    }
    for (table, suffix) in tables
        .into_iter()
        .zip(["means", "friedman", "control", "pairs", "bayesian"])
    {
        section.table(format!("{stem}_{suffix}"), table);
    }
}

/// The critical-difference diagram of a measure's average ranks, its bars from the chosen
/// procedure (Nemenyi's groups when that procedure could not be computed), named in the title.
fn diagram(
    table: &ScoreTable,
    result: &AcrossDatasetsResult,
    analysis: &AcrossAnalysis,
) -> report::CriticalDifferenceDiagram {
    let (procedure, groups) = match &analysis.cd_diagram {
        Some(diagram) => (
            diagram.procedure.clone(),
            diagram.cliques.iter().map(|c| c.members.clone()).collect(),
        ),
        None => (
            "Nemenyi".to_string(),
            result
                .nemenyi
                .groups
                .iter()
                .map(|group| {
                    group
                        .iter()
                        .map(|name| learner_index(result, name))
                        .collect()
                })
                .collect(),
        ),
    };
    report::CriticalDifferenceDiagram {
        title: format!(
            "{}: average ranks over {} datasets; bars: {procedure}",
            table.measure,
            table.datasets.len()
        ),
        labels: table.learners.clone(),
        ranks: result.average_ranks.clone(),
        critical_difference: (result.nemenyi.critical_difference, "CD (Nemenyi)".into()),
        groups,
        control: Some((
            result.control.control_index,
            result.control.bonferroni_dunn_critical_difference,
        )),
    }
}

/// The Bayesian simplex of the control against learner `other`.
fn add_simplex(
    section: &mut Section,
    stem: &str,
    (table, result): (&ScoreTable, &AcrossDatasetsResult),
    other: usize,
) -> Result<()> {
    let (name, rope) = (&table.measure, result.options.rope);
    let control = result.control.control_index;
    let (first, second) = (control.min(other), control.max(other));
    let posterior = across_datasets::bayesian_posterior(&table.values, result, first, second)
        .map_err(|source| statistic_failed(name, source))?;
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
    let (control_name, other_name) = (&table.learners[control], &table.learners[other]);
    let simplex = report::Simplex {
        title: format!("{name}: {control_name} vs {other_name} (rope {rope})"),
        corners: [
            format!("{other_name} better"),
            "equivalent".to_string(),
            format!("{control_name} better"),
        ],
        probabilities: [other_better, shares.rope, control_better],
        samples,
    };
    section.figure(
        format!(
            "figures/{stem}_simplex_{}_{}.svg",
            file_safe(control_name),
            file_safe(other_name)
        ),
        format!(
            "Bayesian signed-rank test (Benavoli et al. 2017) of {control_name} against \
             {other_name} on {name} over {} datasets, rope = {rope}: each dot is a posterior \
             sample of the probabilities of the three regions; the numbers are the shares of \
             samples in which each region is the most probable.",
            table.datasets.len()
        ),
        report::simplex_plot(&simplex)?,
    );
    Ok(())
}

/// The index of the learner `name` of `result` (a name from the result itself).
fn learner_index(result: &AcrossDatasetsResult, name: &str) -> usize {
    result
        .learners
        .iter()
        .position(|learner| learner == name)
        .expect("the result names its own learners")
}

/// A few sentences on what the tests say, then autorank's paragraph.
fn reading(table: &ScoreTable, result: &AcrossDatasetsResult, analysis: &AcrossAnalysis) -> String {
    let mut text = core_reading(table, result);
    if let Some(paragraph) = &analysis.autorank_paragraph {
        text.push_str(" autorank's automatic analysis: ");
        text.push_str(paragraph);
    }
    text
}

/// Demšar's core in one sentence: the summary screen's verdict.
fn verdict(table: &ScoreTable, result: &AcrossDatasetsResult) -> String {
    let best = (0..table.learners.len())
        .min_by(|&a, &b| result.average_ranks[a].total_cmp(&result.average_ranks[b]))
        .unwrap_or(0);
    let beaten: Vec<&str> = (result.control.comparisons.iter())
        .filter(|row| row.holm_reject)
        .map(|row| table.learners[row.learner].as_str())
        .collect();
    format!(
        "Over {} datasets, {} has the best average rank on {} ({:.2}); the Friedman test with \
         the Iman-Davenport correction gives p = {:.4} ({} at alpha = {}), and against the \
         control {} Holm's procedure finds {}.",
        table.datasets.len(),
        table.learners[best],
        table.measure,
        result.average_ranks[best],
        result.friedman.iman_davenport_pvalue,
        if result.friedman.reject {
            "the learners differ"
        } else {
            "no difference is shown"
        },
        result.options.alpha,
        result.control.control,
        if beaten.is_empty() {
            "no difference".to_string()
        } else {
            format!("a difference with {}", beaten.join(", "))
        }
    )
}

/// Demšar's core in a few sentences.
fn core_reading(table: &ScoreTable, result: &AcrossDatasetsResult) -> String {
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
    let holm = if beaten.is_empty() {
        "finds no difference with any other learner".to_string()
    } else {
        format!("finds a difference with {}", beaten.join(", "))
    };
    format!(
        "{} datasets, {} learners, {} ({}). Best average rank: {} ({:.2}). The Friedman test \
         with the Iman-Davenport correction gives p = {:.4}: {} at alpha = {}. Against the \
         control {control}, Holm's procedure {holm}. Demšar (2006) \
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
