//! The one across-data-set computation of a measure, shared by a run's `across_datasets`
//! analysis and the `compare` command on a results table: both turn their choices into
//! [`Settings`], their table into a [`stats::across_analysis::ResultsTable`], and call
//! [`analyse`], a thin layer over [`stats::across_analysis::analyse`] (the Demšar core, the
//! missing-results policy with Skillings-Mack, Quade and aligned ranks with post-hocs, every
//! adjustment, the CD diagram's cliques from a chosen procedure, effect sizes, autorank's
//! analysis and write-up, Plackett-Luce and the hierarchical Bayesian test). So every number
//! the report shows is the one `compare` prints for the same table, settings and seed.

use stats::across_analysis::{
    self, AcrossAnalysis, Adjustment, AnalysisOptions, CdProcedure, PairwiseTest, ResultsTable,
};
use stats::across_datasets::AcrossDatasetsOptions;
use stats::hierarchical::HierarchicalOptions;
use stats::skillings_mack::MissingPolicy;
use stats::StatsError;

/// Names of the missing-results policies, as configs and flags spell them.
pub const MISSING_POLICIES: &[&str] = &["skillings_mack", "drop_datasets", "drop_learners"];

/// Names of the pairwise tests that can draw the CD diagram.
pub const CD_TESTS: &[&str] = &[
    "wilcoxon",
    "nemenyi",
    "friedman_z",
    "quade_t",
    "quade_z",
    "aligned_ranks_z",
];

/// Names of the adjustments of the CD diagram's pairwise test.
pub const CD_ADJUSTMENTS: &[&str] = &[
    "holm",
    "bonferroni",
    "hochberg",
    "hommel",
    "finner",
    "li",
    "shaffer",
    "bergmann_hommel",
];

/// Default draws kept per chain of the hierarchical test (4 chains; a quarter as many
/// warm-up draws); its time grows with the draws, the datasets and the pairs (docs/compare.md).
pub const HIERARCHICAL_SAMPLES: usize = 2000;

/// The most draws kept per chain of the hierarchical test, in a config and in `compare`.
pub const MAX_HIERARCHICAL_SAMPLES: usize = 1_000_000;

/// The choices of the analysis, as a config's options or `compare`'s flags give them.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Significance level.
    pub alpha: f64,
    /// Half-width of the rope of the Bayesian tests, in the measure's units.
    pub rope: f64,
    /// The control learner (default: the first).
    pub control: Option<String>,
    /// The seed every Monte Carlo part derives its own from (with the measure and names).
    pub seed: u64,
    /// Continuity correction of Wilcoxon's normal approximation.
    pub wilcoxon_correction: bool,
    /// Monte Carlo samples of the Bayesian signed-rank test.
    pub bayesian_samples: usize,
    /// What to do with missing or failed results.
    pub missing: MissingPolicy,
    /// The procedure that draws the CD diagram.
    pub cd_procedure: CdProcedure,
    /// The hierarchical test's correlation (test fraction); `None` skips it.
    pub correlation: Option<f64>,
    /// Draws kept per chain of the hierarchical test; 0 skips it.
    pub hierarchical_samples: usize,
}

impl Default for Settings {
    fn default() -> Self {
        let core = AcrossDatasetsOptions::default();
        Self {
            alpha: core.alpha,
            rope: core.rope,
            control: None,
            seed: core.seed,
            wilcoxon_correction: core.wilcoxon_correction,
            bayesian_samples: core.bayesian_samples,
            missing: MissingPolicy::default(),
            cd_procedure: CdProcedure::default(),
            correlation: None,
            hierarchical_samples: HIERARCHICAL_SAMPLES,
        }
    }
}

/// The policy named `name` (one of [`MISSING_POLICIES`]).
pub fn missing_policy(name: &str) -> Result<MissingPolicy, String> {
    match name.replace('-', "_").as_str() {
        "skillings_mack" => Ok(MissingPolicy::SkillingsMack),
        "drop_datasets" => Ok(MissingPolicy::DropDatasets),
        "drop_learners" => Ok(MissingPolicy::DropLearners),
        _ => Err(format!(
            "'{name}' is no missing-results policy; allowed: {}",
            MISSING_POLICIES.join(", ")
        )),
    }
}

/// The policy's name as [`MISSING_POLICIES`] spells it.
pub fn missing_policy_name(policy: MissingPolicy) -> &'static str {
    match policy {
        MissingPolicy::SkillingsMack => "skillings_mack",
        MissingPolicy::DropDatasets => "drop_datasets",
        MissingPolicy::DropLearners => "drop_learners",
    }
}

/// The CD procedure of a test (one of [`CD_TESTS`]) and an adjustment (one of
/// [`CD_ADJUSTMENTS`]; ignored for Nemenyi).
pub fn cd_procedure(test: &str, adjustment: &str) -> Result<CdProcedure, String> {
    let test = match test.replace('-', "_").as_str() {
        "wilcoxon" => PairwiseTest::Wilcoxon,
        "nemenyi" => PairwiseTest::Nemenyi,
        "friedman_z" => PairwiseTest::FriedmanZ,
        "quade_t" => PairwiseTest::QuadeT,
        "quade_z" => PairwiseTest::QuadeZ,
        "aligned_ranks_z" => PairwiseTest::AlignedRanksZ,
        _ => {
            return Err(format!(
                "'{test}' is no pairwise test of the CD diagram; allowed: {}",
                CD_TESTS.join(", ")
            ))
        }
    };
    let adjustment = match adjustment.replace('-', "_").as_str() {
        "holm" => Adjustment::Holm,
        "bonferroni" => Adjustment::Bonferroni,
        "hochberg" => Adjustment::Hochberg,
        "hommel" => Adjustment::Hommel,
        "finner" => Adjustment::Finner,
        "li" => Adjustment::Li,
        "shaffer" => Adjustment::Shaffer,
        "bergmann_hommel" => Adjustment::BergmannHommel,
        _ => {
            return Err(format!(
                "'{adjustment}' is no adjustment; allowed: {}",
                CD_ADJUSTMENTS.join(", ")
            ))
        }
    };
    Ok(CdProcedure { test, adjustment })
}

/// The options of [`stats::across_analysis::analyse`] for one measure.
pub fn analysis_options(
    measure: &str,
    higher_is_better: bool,
    settings: &Settings,
) -> AnalysisOptions {
    let samples = settings.hierarchical_samples;
    AnalysisOptions {
        core: AcrossDatasetsOptions {
            control: settings.control.clone(),
            alpha: settings.alpha,
            rope: settings.rope,
            higher_is_better,
            bayesian_samples: settings.bayesian_samples,
            wilcoxon_correction: settings.wilcoxon_correction,
            seed: settings.seed,
            measure: measure.to_string(),
            ..AcrossDatasetsOptions::default()
        },
        missing: settings.missing,
        cd_procedure: settings.cd_procedure,
        correlation: settings.correlation.filter(|_| samples > 0),
        hierarchical: HierarchicalOptions {
            samples,
            warmup: samples / 4,
            ..HierarchicalOptions::default()
        },
        ..AnalysisOptions::default()
    }
}

/// The whole analysis of `table` for one measure: [`stats::across_analysis::analyse`] with
/// the options of `settings`. With `hierarchical_samples` 0 the hierarchical test is skipped
/// and the reason says so.
pub fn analyse(
    table: &ResultsTable,
    measure: &str,
    higher_is_better: bool,
    settings: &Settings,
) -> Result<AcrossAnalysis, StatsError> {
    let options = analysis_options(measure, higher_is_better, settings);
    let mut analysis = across_analysis::analyse(table, &options)?;
    if settings.hierarchical_samples == 0 && !table.folds.is_empty() {
        for skipped in &mut analysis.skipped {
            if skipped.part == "hierarchical test" {
                skipped.reason = "turned off (0 samples asked for)".to_string();
            }
        }
    }
    Ok(analysis)
}

/// The nearest thing to an answer when nothing could be compared: the missing cells.
pub fn missing_cells(table: &ResultsTable) -> Vec<String> {
    let mut cells = Vec::new();
    for (d, row) in table.values.iter().enumerate() {
        for (l, value) in row.iter().enumerate() {
            if value.is_none() {
                cells.push(format!(
                    "no value for dataset '{}' and learner '{}'",
                    table.datasets[d], table.learners[l]
                ));
            }
        }
    }
    cells
}
