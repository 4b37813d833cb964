//! The whole across-data-set analysis of one measure in one call: from a data sets x learners
//! table (cells may be missing) and, where the method needs them, each cell's per-fold
//! values, [`analyse`] computes everything issue 30 lists beside [`crate::across_datasets`]'s
//! Demsar core: the declared missing-results policy and the Skillings-Mack test, Quade's and
//! the Friedman aligned-ranks tests, every pairwise test with every adjustment (Holm,
//! Hochberg, Hommel, Finner, Li, Shaffer, Bergmann-Hommel, Bonferroni), the CD diagram's
//! cliques from a chosen procedure, effect sizes of every pair, autorank's automatic analysis
//! with its paragraph and LaTeX table, the Plackett-Luce posterior and the hierarchical
//! Bayesian t-test of every pair. The run's report and `compare --json` both print this one
//! serialisable result, so they show the same numbers for the same table, options and seed.

use serde::{Deserialize, Serialize};

use crate::across::across_datasets::{compare, AcrossDatasetsOptions, AcrossDatasetsResult};
use crate::across::aligned_ranks::{
    friedman_aligned_ranks_posthoc, friedman_aligned_ranks_test, AlignedRanksResult,
};
use crate::across::autorank::{autorank, AutoRankOptions, AutoRankResult};
use crate::across::autorank_report::{latex_table, paragraph};
use crate::across::effect_size::{effect_size, EffectSize, EffectSizeKind};
use crate::across::plackett_luce::{plackett_luce, PlackettLuceOptions, PlackettLuceResult};
use crate::across::posthoc::{PairwiseComparisons, Reference};
use crate::across::quade::{quade_posthoc_t, quade_posthoc_z, quade_test, QuadeResult};
use crate::across::skillings_mack::{
    apply_missing_policy, skillings_mack, MissingOutcome, MissingPolicy, SkillingsMackResult,
};
use crate::bayes::hierarchical::{hierarchical_t_test, HierarchicalOptions, HierarchicalResult};
use crate::corrections::adjust::{
    bergmann_hommel, finner, hochberg, hommel, li, pair_list, shaffer_static,
    BERGMANN_HOMMEL_MAX_LEARNERS,
};
use crate::corrections::cliques::{cliques, rank_order, Clique};
use crate::corrections::multitest::{bonferroni, holm, CorrectionResult};
use crate::error::StatsError;

/// A results table of one measure: `values[dataset][learner]` (None = missing or failed) and,
/// optionally, `folds[dataset][learner]` = that cell's per-fold values (the same folds, in the
/// same order, for every learner of a data set; empty when unknown).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultsTable {
    /// Data set names (rows).
    pub datasets: Vec<String>,
    /// Learner names (columns).
    pub learners: Vec<String>,
    /// One value per data set and learner (e.g. the mean over folds), None when missing.
    pub values: Vec<Vec<Option<f64>>>,
    /// Per-fold values of each cell, for the hierarchical test; empty when not available.
    #[serde(default)]
    pub folds: Vec<Vec<Vec<f64>>>,
}

/// The pairwise tests whose p-values the adjustments and the CD diagram can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairwiseTest {
    /// Nemenyi (family-wise already; adjustments are not applied).
    Nemenyi,
    /// Wilcoxon signed-rank over data sets.
    Wilcoxon,
    /// Friedman's z-test on average ranks (Demsar 2006; Garcia & Herrera 2008).
    FriedmanZ,
    /// Conover's t-test after Quade's test.
    QuadeT,
    /// Garcia et al.'s z-test after Quade's test.
    QuadeZ,
    /// The Friedman aligned-ranks z-test.
    AlignedRanksZ,
}

/// A multiple-comparison adjustment of a family of pairwise p-values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Adjustment {
    /// Bonferroni.
    Bonferroni,
    /// Holm's step-down.
    Holm,
    /// Hochberg's step-up.
    Hochberg,
    /// Hommel's.
    Hommel,
    /// Finner's.
    Finner,
    /// Li's.
    Li,
    /// Shaffer's static.
    Shaffer,
    /// Bergmann-Hommel's (up to 9 learners).
    BergmannHommel,
}

impl Adjustment {
    /// The name a table or figure shows, e.g. "Bergmann-Hommel".
    pub fn label(self) -> &'static str {
        match self {
            Adjustment::Bonferroni => "Bonferroni",
            Adjustment::Holm => "Holm",
            Adjustment::Hochberg => "Hochberg",
            Adjustment::Hommel => "Hommel",
            Adjustment::Finner => "Finner",
            Adjustment::Li => "Li",
            Adjustment::Shaffer => "Shaffer",
            Adjustment::BergmannHommel => "Bergmann-Hommel",
        }
    }
}

/// The procedure whose decisions draw the CD diagram: a test and (except Nemenyi) an
/// adjustment. `Default`: Wilcoxon with Holm's adjustment, as aeon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CdProcedure {
    /// The pairwise test.
    pub test: PairwiseTest,
    /// Its adjustment (ignored for Nemenyi).
    pub adjustment: Adjustment,
}

impl Default for CdProcedure {
    fn default() -> Self {
        Self {
            test: PairwiseTest::Wilcoxon,
            adjustment: Adjustment::Holm,
        }
    }
}

impl CdProcedure {
    /// The name a figure shows, e.g. "Wilcoxon signed-rank + Holm".
    pub fn label(&self) -> String {
        let test = match self.test {
            PairwiseTest::Nemenyi => return "Nemenyi".to_string(),
            PairwiseTest::Wilcoxon => "Wilcoxon signed-rank",
            PairwiseTest::FriedmanZ => "Friedman z",
            PairwiseTest::QuadeT => "Quade t",
            PairwiseTest::QuadeZ => "Quade z",
            PairwiseTest::AlignedRanksZ => "Friedman aligned ranks z",
        };
        format!("{test} + {}", self.adjustment.label())
    }
}

/// Settings of [`analyse`]; `Default`: the defaults of each part, Wilcoxon + Holm for the CD
/// diagram, Skillings-Mack for missing cells, no correlation (no hierarchical test).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnalysisOptions {
    /// Options of the Demsar core ([`compare`]): alpha, rope, direction, control, seed, ...
    pub core: AcrossDatasetsOptions,
    /// What to do with missing or failed cells.
    pub missing: MissingPolicy,
    /// The procedure that draws the CD diagram.
    pub cd_procedure: CdProcedure,
    /// Cross-validation correlation (test fraction, 1/folds) for the hierarchical test; `None`
    /// skips it (named in `skipped`).
    pub correlation: Option<f64>,
    /// Chains and draws of the hierarchical test (its rope and seed come from `core`).
    pub hierarchical: HierarchicalOptions,
    /// Chains and draws of the Plackett-Luce model (direction and seed come from `core`).
    pub plackett_luce: PlackettLuceOptions,
}

/// One family of pairwise p-values with every adjustment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairwiseFamily {
    /// The test.
    pub test: PairwiseTest,
    /// Its statistics and unadjusted p-values (pairs in [`pair_list`] order of the kept
    /// learners).
    pub comparisons: PairwiseComparisons,
    /// Adjusted p-values and decisions at alpha (none for Nemenyi).
    pub adjusted: Vec<(Adjustment, CorrectionResult)>,
}

/// The CD diagram: average ranks, order and the bars of the chosen procedure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CdDiagram {
    /// The procedure, as the figure names it.
    pub procedure: String,
    /// Average rank of each kept learner (1 = best).
    pub average_ranks: Vec<f64>,
    /// Kept learner indices, best first.
    pub order: Vec<usize>,
    /// The bars.
    pub cliques: Vec<Clique>,
}

/// The three effect sizes of one pair (first against second, positive = first better).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairEffectSizes {
    /// First learner (index among the kept learners).
    pub first: usize,
    /// Second learner.
    pub second: usize,
    /// Cohen's d.
    pub cohen_d: EffectSize,
    /// Cliff's delta.
    pub cliff_delta: EffectSize,
    /// Akinshin's gamma.
    pub akinshin_gamma: EffectSize,
}

/// The hierarchical test of one pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HierarchicalPair {
    /// First learner (index among all learners of the table).
    pub first: usize,
    /// Second learner.
    pub second: usize,
    /// Data sets (indices) whose folds entered the test.
    pub datasets: Vec<usize>,
    /// The seed of its chains.
    pub seed: u64,
    /// The posterior (right = the first is better).
    pub result: HierarchicalResult,
}

/// A part of the analysis that could not be computed, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    /// Which part.
    pub part: String,
    /// Why, as a sentence.
    pub reason: String,
}

/// Everything [`analyse`] computes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcrossAnalysis {
    /// The missing-results policy applied and what it dropped.
    pub missing: MissingOutcome,
    /// Names of the kept learners (columns of every complete-table result below).
    pub learners: Vec<String>,
    /// Names of the kept data sets.
    pub datasets: Vec<String>,
    /// The Skillings-Mack test on the whole table (when some cell is missing).
    pub skillings_mack: Option<SkillingsMackResult>,
    /// Demsar's core on the complete table.
    pub core: Option<AcrossDatasetsResult>,
    /// Quade's test.
    pub quade: Option<QuadeResult>,
    /// The Friedman aligned-ranks test.
    pub aligned_ranks: Option<AlignedRanksResult>,
    /// Every pairwise family with its adjustments.
    pub pairwise: Vec<PairwiseFamily>,
    /// The CD diagram of the chosen procedure.
    pub cd_diagram: Option<CdDiagram>,
    /// Effect sizes of every pair of kept learners.
    pub effect_sizes: Vec<PairEffectSizes>,
    /// autorank's automatic analysis.
    pub autorank: Option<AutoRankResult>,
    /// Its paragraph (3 decimals).
    pub autorank_paragraph: Option<String>,
    /// Its LaTeX table (3 decimals).
    pub autorank_latex: Option<String>,
    /// The Plackett-Luce posterior.
    pub plackett_luce: Option<PlackettLuceResult>,
    /// The hierarchical Bayesian test of every pair (when folds and a correlation are given).
    pub hierarchical: Vec<HierarchicalPair>,
    /// Parts not computed, with the reason.
    pub skipped: Vec<Skipped>,
}

/// Records `result` or, on error, a skipped part.
fn keep<T>(part: &str, result: Result<T, StatsError>, skipped: &mut Vec<Skipped>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            skipped.push(Skipped {
                part: part.to_string(),
                reason: error.to_string(),
            });
            None
        }
    }
}

/// Every adjustment of a family of pairwise p-values of k learners (Bergmann-Hommel only up to
/// 9 learners).
fn adjustments(
    pvalues: &[f64],
    k: usize,
    alpha: f64,
) -> Result<Vec<(Adjustment, CorrectionResult)>, StatsError> {
    let mut out = vec![
        (Adjustment::Bonferroni, bonferroni(pvalues, alpha)?),
        (Adjustment::Holm, holm(pvalues, alpha)?),
        (Adjustment::Hochberg, hochberg(pvalues, alpha)?),
        (Adjustment::Hommel, hommel(pvalues, alpha)?),
        (Adjustment::Finner, finner(pvalues, alpha)?),
        (Adjustment::Li, li(pvalues, alpha)?),
        (Adjustment::Shaffer, shaffer_static(pvalues, k, alpha)?),
    ];
    if k <= BERGMANN_HOMMEL_MAX_LEARNERS {
        out.push((
            Adjustment::BergmannHommel,
            bergmann_hommel(pvalues, k, alpha)?,
        ));
    }
    Ok(out)
}

/// Checks the table's shape: names unique, rows and fold lists consistent.
fn check_table(table: &ResultsTable) -> Result<(), StatsError> {
    if table.values.len() != table.datasets.len() {
        return Err(StatsError::LengthMismatch {
            first: "data set names",
            first_len: table.datasets.len(),
            second: "rows of values",
            second_len: table.values.len(),
        });
    }
    if let Some(row) = table
        .values
        .iter()
        .find(|r| r.len() != table.learners.len())
    {
        return Err(StatsError::LengthMismatch {
            first: "learner names",
            first_len: table.learners.len(),
            second: "a row of values",
            second_len: row.len(),
        });
    }
    if !table.folds.is_empty()
        && (table.folds.len() != table.datasets.len()
            || table.folds.iter().any(|r| r.len() != table.learners.len()))
    {
        return Err(StatsError::LengthMismatch {
            first: "folds (data sets x learners)",
            first_len: table.folds.len(),
            second: "data sets",
            second_len: table.datasets.len(),
        });
    }
    for names in [&table.learners, &table.datasets] {
        for (index, name) in names.iter().enumerate() {
            if names[..index].contains(name) {
                return Err(StatsError::UnknownName {
                    what: "name",
                    name: name.clone(),
                    reason: "appears twice".to_string(),
                });
            }
        }
    }
    Ok(())
}

/// The complete-table parts: core, Quade, aligned ranks, pairwise families, effect sizes.
fn complete_parts(analysis: &mut AcrossAnalysis, options: &AnalysisOptions) {
    let complete = analysis.missing.complete.clone();
    let alpha = options.core.alpha;
    let goodness: Vec<Vec<f64>> = complete
        .iter()
        .map(|r| {
            r.iter()
                .map(|&v| if options.core.higher_is_better { v } else { -v })
                .collect()
        })
        .collect();
    let skipped = &mut analysis.skipped;
    analysis.core = keep(
        "Demsar core (Friedman, Nemenyi, Wilcoxon, sign, Bayesian signed-rank)",
        compare(&complete, &analysis.learners, &options.core),
        skipped,
    );
    analysis.quade = keep("Quade test", quade_test(&goodness, alpha), skipped);
    analysis.aligned_ranks = keep(
        "Friedman aligned-ranks test",
        friedman_aligned_ranks_test(&goodness, alpha),
        skipped,
    );
    let k = analysis.learners.len();
    pairwise_families(analysis, alpha);
    let columns: Vec<Vec<f64>> = (0..k)
        .map(|j| goodness.iter().map(|r| r[j]).collect())
        .collect();
    for (first, second) in pair_list(k) {
        let sizes = [
            EffectSizeKind::CohenD,
            EffectSizeKind::CliffDelta,
            EffectSizeKind::AkinshinGamma,
        ]
        .map(|kind| effect_size(kind, &columns[first], &columns[second]));
        if let [Ok(cohen_d), Ok(cliff_delta), Ok(akinshin_gamma)] = sizes {
            analysis.effect_sizes.push(PairEffectSizes {
                first,
                second,
                cohen_d,
                cliff_delta,
                akinshin_gamma,
            });
        }
    }
}

/// Every pairwise family (Nemenyi, Wilcoxon, Friedman z, Quade t and z, aligned ranks z) with
/// every adjustment, from the complete-table results already computed.
fn pairwise_families(analysis: &mut AcrossAnalysis, alpha: f64) {
    let k = analysis.learners.len();
    let mut families = Vec::new();
    if let Some(core) = &analysis.core {
        let pairs = pair_list(k);
        let nemenyi: Vec<f64> = pairs
            .iter()
            .map(|&(i, j)| core.nemenyi.pvalues[i][j])
            .collect();
        let wilcoxon_p: Vec<f64> = core.pairs.iter().map(|p| p.wilcoxon.pvalue).collect();
        // Wilcoxon's W = min(R+, R-) of each pair, as the core's pairs table gives it.
        let wilcoxon = PairwiseComparisons {
            statistics: core.pairs.iter().map(|p| p.wilcoxon.statistic).collect(),
            ..from_pvalues("wilcoxon", &pairs, wilcoxon_p)
        };
        let scale =
            crate::across::friedman::rank_standard_error(k, core.n_datasets).unwrap_or(f64::NAN);
        let ranks = core.average_ranks.clone();
        families.push((
            PairwiseTest::Nemenyi,
            from_pvalues("nemenyi", &pairs, nemenyi),
        ));
        families.push((PairwiseTest::Wilcoxon, wilcoxon));
        families.push((
            PairwiseTest::FriedmanZ,
            PairwiseComparisons::from_statistic(
                "friedman_z",
                k,
                Reference::Normal,
                None,
                |i, j| (ranks[i] - ranks[j]).abs() / scale,
            ),
        ));
    }
    if let Some(quade) = &analysis.quade {
        families.push((PairwiseTest::QuadeT, quade_posthoc_t(quade)));
        families.push((PairwiseTest::QuadeZ, quade_posthoc_z(quade)));
    }
    if let Some(aligned) = &analysis.aligned_ranks {
        families.push((
            PairwiseTest::AlignedRanksZ,
            friedman_aligned_ranks_posthoc(aligned),
        ));
    }
    for (test, comparisons) in families {
        let adjusted = if test == PairwiseTest::Nemenyi {
            Some(Vec::new())
        } else {
            keep(
                &format!("adjustments of {test:?}"),
                adjustments(&comparisons.pvalues, k, alpha),
                &mut analysis.skipped,
            )
        };
        analysis.pairwise.push(PairwiseFamily {
            test,
            comparisons,
            adjusted: adjusted.unwrap_or_default(),
        });
    }
}

/// Pairwise comparisons from p-values computed elsewhere (statistics left NaN).
fn from_pvalues(
    test: &'static str,
    pairs: &[(usize, usize)],
    pvalues: Vec<f64>,
) -> PairwiseComparisons {
    PairwiseComparisons {
        test,
        pairs: pairs.to_vec(),
        statistics: vec![f64::NAN; pvalues.len()],
        pvalues,
        reference: Reference::Normal,
        df: None,
    }
}

/// The CD diagram of the chosen procedure.
fn cd_diagram(
    analysis: &AcrossAnalysis,
    procedure: CdProcedure,
    alpha: f64,
) -> Result<CdDiagram, StatsError> {
    let core = analysis.core.as_ref().ok_or(StatsError::Undefined {
        test: "CD diagram",
        reason: "the average ranks could not be computed",
    })?;
    let family = analysis
        .pairwise
        .iter()
        .find(|f| f.test == procedure.test)
        .ok_or(StatsError::Undefined {
            test: "CD diagram",
            reason: "the chosen pairwise test could not be computed",
        })?;
    let k = analysis.learners.len();
    let decisions: Vec<bool> = if procedure.test == PairwiseTest::Nemenyi {
        family
            .comparisons
            .pvalues
            .iter()
            .map(|p| *p <= alpha)
            .collect()
    } else {
        family
            .adjusted
            .iter()
            .find(|(a, _)| *a == procedure.adjustment)
            .map(|(_, c)| c.reject.clone())
            .ok_or(StatsError::OutOfRange {
                name: "cd_procedure.adjustment",
                value: k as f64,
                allowed:
                    "an adjustment computed for this table (Bergmann-Hommel: at most 9 learners)",
            })?
    };
    let mut significant = vec![vec![false; k]; k];
    for (&(i, j), &d) in family.comparisons.pairs.iter().zip(&decisions) {
        significant[i][j] = d;
        significant[j][i] = d;
    }
    Ok(CdDiagram {
        procedure: procedure.label(),
        average_ranks: core.average_ranks.clone(),
        order: rank_order(&core.average_ranks),
        cliques: cliques(&core.average_ranks, &significant)?,
    })
}

/// The hierarchical test of every pair of the table's learners, on the data sets where both
/// have folds of equal length (differences oriented so that `right` = the first is better).
fn hierarchical_pairs(
    table: &ResultsTable,
    options: &AnalysisOptions,
    correlation: f64,
    skipped: &mut Vec<Skipped>,
) -> Vec<HierarchicalPair> {
    let sign = if options.core.higher_is_better {
        1.0
    } else {
        -1.0
    };
    let mut pairs = Vec::new();
    for (first, second) in pair_list(table.learners.len()) {
        let mut datasets = Vec::new();
        let mut differences = Vec::new();
        for (d, row) in table.folds.iter().enumerate() {
            let (a, b) = (&row[first], &row[second]);
            if a.len() >= 2 && a.len() == b.len() {
                datasets.push(d);
                differences.push(
                    a.iter()
                        .zip(b)
                        .map(|(x, y)| sign * (x - y))
                        .collect::<Vec<f64>>(),
                );
            }
        }
        let (name_a, name_b) = (&table.learners[first], &table.learners[second]);
        let seed = seeds::derive_seed_from_label(
            options.core.seed,
            &format!(
                "across_analysis/hierarchical/{}/{name_a}/{name_b}",
                options.core.measure
            ),
        );
        let settings = HierarchicalOptions {
            rope: options.core.rope,
            correlation,
            seed,
            ..options.hierarchical.clone()
        };
        let part = format!("hierarchical test {name_a} vs {name_b}");
        if let Some(result) = keep(&part, hierarchical_t_test(&differences, &settings), skipped) {
            pairs.push(HierarchicalPair {
                first,
                second,
                datasets,
                seed,
                result,
            });
        }
    }
    pairs
}

/// Runs the whole analysis of `table` (see the module documentation). Parts that cannot be
/// computed on this table (too few data sets for autorank, a constant column, no folds, ...)
/// are listed in `skipped` with the reason instead of failing the whole analysis.
///
/// Errors: a malformed table (names and rows of different lengths, repeated names) ->
/// `LengthMismatch` / `UnknownName`; a NaN or infinite value -> `NonFinite`.
pub fn analyse(
    table: &ResultsTable,
    options: &AnalysisOptions,
) -> Result<AcrossAnalysis, StatsError> {
    check_table(table)?;
    let missing = apply_missing_policy(&table.values, options.missing)?;
    let mut skipped = Vec::new();
    let has_missing = table.values.iter().flatten().any(Option::is_none);
    let skillings_mack = if has_missing {
        keep(
            "Skillings-Mack test",
            skillings_mack(&table.values, options.core.alpha),
            &mut skipped,
        )
    } else {
        None
    };
    let mut analysis = AcrossAnalysis {
        learners: missing
            .kept_learners
            .iter()
            .map(|&j| table.learners[j].clone())
            .collect(),
        datasets: missing
            .kept_datasets
            .iter()
            .map(|&i| table.datasets[i].clone())
            .collect(),
        missing,
        skillings_mack,
        core: None,
        quade: None,
        aligned_ranks: None,
        pairwise: Vec::new(),
        cd_diagram: None,
        effect_sizes: Vec::new(),
        autorank: None,
        autorank_paragraph: None,
        autorank_latex: None,
        plackett_luce: None,
        hierarchical: Vec::new(),
        skipped,
    };
    complete_parts(&mut analysis, options);
    let diagram = cd_diagram(&analysis, options.cd_procedure, options.core.alpha);
    analysis.cd_diagram = keep("CD diagram", diagram, &mut analysis.skipped);
    let auto_options = AutoRankOptions {
        alpha: options.core.alpha,
        higher_is_better: options.core.higher_is_better,
        ..AutoRankOptions::default()
    };
    let complete = analysis.missing.complete.clone();
    analysis.autorank = keep(
        "autorank analysis",
        autorank(&complete, &analysis.learners, &auto_options),
        &mut analysis.skipped,
    );
    if let Some(result) = &analysis.autorank {
        analysis.autorank_paragraph = Some(paragraph(result, 3));
        analysis.autorank_latex = Some(latex_table(result, 3, "tab:across-datasets"));
    }
    let pl_seed = seeds::derive_seed_from_label(
        options.core.seed,
        &format!("across_analysis/plackett_luce/{}", options.core.measure),
    );
    let pl_options = PlackettLuceOptions {
        higher_is_better: options.core.higher_is_better,
        seed: pl_seed,
        ..options.plackett_luce.clone()
    };
    analysis.plackett_luce = keep(
        "Plackett-Luce model",
        plackett_luce(&complete, &pl_options),
        &mut analysis.skipped,
    );
    match (table.folds.is_empty(), options.correlation) {
        (true, _) => analysis.skipped.push(Skipped {
            part: "hierarchical test".into(),
            reason: "the table has no per-fold values".into(),
        }),
        (false, None) => analysis.skipped.push(Skipped {
            part: "hierarchical test".into(),
            reason: "no cross-validation correlation (test fraction 1/folds) was given".into(),
        }),
        (false, Some(correlation)) => {
            analysis.hierarchical =
                hierarchical_pairs(table, options, correlation, &mut analysis.skipped);
        }
    }
    Ok(analysis)
}
