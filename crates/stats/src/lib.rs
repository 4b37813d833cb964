//! Statistical tests for comparing learners: paired and corrected t-tests, 5x2cv tests,
//! sign and Wilcoxon tests, Friedman with Nemenyi, multiple-comparison corrections,
//! McNemar, DeLong, AUC confidence intervals, binomial proportion intervals and the
//! Bayesian tests of Benavoli et al.; beyond Demsar's core (issue 30): Quade and Friedman
//! aligned-ranks tests, Hochberg/Hommel/Finner/Li/Shaffer/Bergmann-Hommel adjustments, CD
//! cliques from any procedure, Skillings-Mack, effect sizes, autorank's automatic analysis with
//! its written report, the Plackett-Luce posterior and the hierarchical Bayesian t-test, all in
//! one call by `across_analysis::analyse`; bootstrap intervals (percentile and BCa, stratified,
//! O(n) per AUC resample), DeLong for k correlated AUCs and Clopper-Pearson intervals (issue 29).
//! Pure functions over slices, grouped by what they compare: [`intervals`] (one model on a test
//! set), [`paired`] (two learners on paired values), [`bayes`] (the Bayesian comparisons of two
//! learners), [`corrections`] (multiple comparisons), [`across`] (k learners over data sets),
//! [`sequential`] (anytime-valid decisions over repetitions, issue 44);
//! every module is also at its path of before the grouping (`stats::wilcoxon`). Every result is checked
//! against a reference implementation (see README.md).
//! [`fold_comparison`] runs every paired test on two learners' per-fold results at once and
//! [`bundles`] the tests of one input together, as the `compare` command prints them; [`json`]
//! is the one writer of non-finite floats in JSON ("inf", "-inf", "nan").

#![warn(missing_docs)]

pub mod across;
pub mod bayes;
pub mod bundles;
pub mod corrections;
pub mod distributions;
pub mod error;
pub mod fold_comparison;
pub mod intervals;
pub mod json;
pub mod paired;
pub mod sequential;
pub mod summary;

pub use across::across_datasets::{
    AcrossDatasetsOptions, AcrossDatasetsResult, ControlChoice, ControlSummary, NemenyiSummary,
    PairSummary,
};
pub use across::friedman::{
    bonferroni_dunn_critical_difference, bonferroni_dunn_q, compare_with_control,
    critical_difference, friedman_from_average_ranks, friedman_test, nemenyi_critical_difference,
    nemenyi_critical_difference_demsar_table, nemenyi_pvalues, nemenyi_q, nemenyi_q_demsar_table,
    rank_rows_descending, rank_standard_error, ControlComparison, FriedmanResult,
    MAX_RANKED_DATASETS, MAX_RANKED_LEARNERS,
};
pub use bayes::bayesian::{
    bayesian_signed_rank_posterior, bayesian_signed_rank_test, correlated_bayesian_t_test,
    CorrelatedTTestResult, RegionProbabilities, SignedRankResult,
};
pub use bundles::{
    auc_intervals, binomial_summary, corrections, delong_summary, ranks_summary, sign_summary,
    AucIntervals, BinomialSummary, Corrections, DelongSummary, RanksSummary, ScoredAucIntervals,
    SignSummary,
};
pub use corrections::multitest::{bonferroni, holm, CorrectionResult};
pub use error::StatsError;
pub use fold_comparison::{compare_folds, FoldComparison, FoldOptions};
pub use intervals::auc::{
    agarwal_half_width, agarwal_interval, auc, bootstrap_auc_interval, cortes_mohri_interval,
    cortes_mohri_moments, cortes_mohri_moments_given_split, delong_test, hanley_mcneil,
    hanley_mcneil_interval, structural_components, DeLongResult, FixedErrorAucMoments,
    HanleyMcNeil, StructuralComponents, MAX_CORTES_MOHRI_INSTANCES,
};
pub use intervals::bootstrap::{
    acceleration, bca_interval, grouped_jackknife, quantile_linear, replicates, resample_counts,
    summarize, BcaInterval, BootstrapInterval, BootstrapOptions, Strata,
};
pub use intervals::bootstrap_auc::{
    auc_jackknife, bootstrap_auc, paired_bootstrap_auc, PairedBootstrap, RankedScores,
};
pub use intervals::clopper_pearson::{beta_quantile, clopper_pearson_interval};
pub use intervals::cortes_mohri::{
    cortes_mohri_full_interval, CortesMohriInterval, ErrorRateBound,
};
pub use intervals::delong_k::{
    delong_contrast_test, delong_covariance, equality_contrast, DeLongContrastResult,
    DeLongCovariance,
};
pub use intervals::proportion::{normal_interval, normal_quantile, wilson_interval, Interval};
pub use paired::cv5x2::{cv5x2_f_test, cv5x2_t_test, Cv5x2Result};
pub use paired::mcnemar::{mcnemar_test, McNemarResult, StatisticPvalue};
pub use paired::sign_test::{
    sign_test, sign_test_critical_losses, sign_test_max_losses, sign_test_min_wins, sign_test_with,
    win_tie_loss, SignAlternative, SignMethod, SignTestResult, Tails, WinTieLoss, MAX_EXACT_COUNT,
};
pub use paired::ttest::{corrected_resampled_t_test, paired_t_test, t_critical_value, TTestResult};
pub use paired::wilcoxon::{wilcoxon_signed_rank, WilcoxonMethod, WilcoxonResult, ZeroMethod};
pub use sequential::confidence_sequence::{
    empirical_bernstein_sequence, polynomial_stitching_bound, SequenceBounds, StitchingOptions,
};
pub use sequential::decision::{
    sequential_decision, Decision, PairDecision, SequentialRule, SequentialSettings, SequentialStep,
};
pub use sequential::noncentral_t::{noncentral_t_density, noncentral_t_log_density};
pub use sequential::safe_t::{safe_t_log_e_value, safe_t_log_e_value_from_t};
pub use summary::midranks;

// The modules at their paths before the grouping into folders, for users of the crate.
pub use across::{
    across_analysis, across_datasets, aligned_ranks, anova, autorank, autorank_report, effect_size,
    elo, friedman, leaderboard, normality, plackett_luce, posthoc, quade, skillings_mack,
};
pub use bayes::{bayesian, hierarchical, mcmc};
pub use corrections::{adjust, cliques, multitest};
pub use intervals::{
    auc, bootstrap, bootstrap_auc, clopper_pearson, cortes_mohri, delong_k, proportion,
};
pub use paired::{cv5x2, mcnemar, sign_test, ttest, wilcoxon};
