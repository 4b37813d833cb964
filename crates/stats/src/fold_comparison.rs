//! Every paired test between two learners' per-fold results at once, as the `compare` command
//! prints them: Student's paired t-test, Nadeau & Bengio's corrected resampled t-test (given
//! n_test / n_train), the Wilcoxon signed-rank and sign tests, Dietterich's 5x2cv t-test and
//! Alpaydin's 5x2cv F-test (when the folds are 5 repetitions x 2 folds), and the Bayesian
//! correlated t-test (Corani & Benavoli 2015). A test that cannot be computed is `None`, and a
//! note says why.

use serde::Serialize;

use crate::bayes::bayesian::{correlated_bayesian_t_test, CorrelatedTTestResult};
use crate::paired::cv5x2::{cv5x2_f_test, cv5x2_t_test, Cv5x2Result};
use crate::paired::sign_test::{sign_test, win_tie_loss, SignTestResult};
use crate::paired::ttest::{corrected_resampled_t_test, paired_t_test, TTestResult};
use crate::paired::wilcoxon::{wilcoxon_signed_rank, WilcoxonMethod, WilcoxonResult, ZeroMethod};

/// Settings of [`compare_folds`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FoldOptions {
    /// Significance level of the frequentist tests.
    pub alpha: f64,
    /// n_test / n_train of one split, for the corrected resampled t-test (skipped without).
    pub test_fraction: Option<f64>,
    /// Half-width of the Bayesian test's region of practical equivalence (0 for none).
    pub rope: f64,
    /// Continuity correction in the Wilcoxon test's normal approximation (off, as scipy).
    pub wilcoxon_correction: bool,
}

/// Every test of [`compare_folds`] (`None` when not computed; `notes` say why).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoldComparison {
    /// Number of paired results.
    pub n: usize,
    /// Number of repetitions (distinct repetition values; 1 without them).
    pub runs: usize,
    /// Significance level of the frequentist tests.
    pub alpha: f64,
    /// The Bayesian test's rope.
    pub rope: f64,
    /// n_test / n_train of the corrected t-test, when given.
    pub test_fraction: Option<f64>,
    /// Mean of a.
    pub mean_a: f64,
    /// Mean of b.
    pub mean_b: f64,
    /// Student's paired t-test on d = a - b.
    pub paired_t: Option<TTestResult>,
    /// Nadeau & Bengio's corrected resampled t-test.
    pub corrected_t: Option<TTestResult>,
    /// Wilcoxon signed-rank test (zero differences dropped, exact up to 50 non-zero ones).
    pub wilcoxon: Option<WilcoxonResult>,
    /// Two-sided sign test on wins and losses (ties dropped).
    pub sign: Option<SignTestResult>,
    /// Dietterich's 5x2cv paired t-test.
    pub cv5x2_t: Option<Cv5x2Result>,
    /// Alpaydin's combined 5x2cv F-test.
    pub cv5x2_f: Option<Cv5x2Result>,
    /// The Bayesian correlated t-test (`right`: a better, `left`: b better).
    pub bayesian_correlated_t: Option<CorrelatedTTestResult>,
    /// Why each test that is `None` was not computed.
    pub notes: Vec<String>,
}

/// Runs every test on paired results `a` and `b` (one per fold), with optional repetition and
/// fold indices per row: the repetition values count the runs of the Bayesian test, and the 5x2cv
/// tests need exactly 10 rows, 5 repetition values x 2 fold values, each pair once (replication
/// i = the i-th smallest repetition value, fold j = the j-th smallest fold value).
pub fn compare_folds(
    a: &[f64],
    b: &[f64],
    repetition: Option<&[f64]>,
    fold: Option<&[f64]>,
    options: &FoldOptions,
) -> FoldComparison {
    let alpha = options.alpha;
    let mut notes = Vec::new();
    let paired_t = keep(&mut notes, "paired t-test", paired_t_test(a, b, alpha));
    let corrected_t = match options.test_fraction {
        Some(fraction) => keep(
            &mut notes,
            "corrected resampled t-test",
            corrected_resampled_t_test(a, b, 1.0, fraction, alpha),
        ),
        None => {
            notes.push(
                "corrected resampled t-test: not computed: give --test-fraction (n_test / \
                 n_train of one split)"
                    .to_string(),
            );
            None
        }
    };
    let wilcoxon = keep(
        &mut notes,
        "Wilcoxon signed-rank test",
        wilcoxon_signed_rank(
            a,
            b,
            ZeroMethod::Wilcox,
            options.wilcoxon_correction,
            WilcoxonMethod::Auto,
            alpha,
        ),
    );
    let sign = keep(
        &mut notes,
        "sign test",
        win_tie_loss(a, b).and_then(|count| sign_test(count.wins, count.losses, count.ties, alpha)),
    );
    let differences: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let (cv5x2_t, cv5x2_f) = match five_by_two(&differences, repetition, fold) {
        Ok(matrix) => (
            keep(&mut notes, "5x2cv t-test", cv5x2_t_test(&matrix, alpha)),
            keep(&mut notes, "5x2cv F-test", cv5x2_f_test(&matrix, alpha)),
        ),
        Err(reason) => {
            notes.push(format!("5x2cv t and F tests: not computed: {reason}"));
            (None, None)
        }
    };
    let runs = repetition.map_or(1, |r| sorted_distinct(r).len());
    let bayesian_correlated_t = keep(
        &mut notes,
        "Bayesian correlated t-test",
        correlated_bayesian_t_test(a, b, options.rope, runs),
    );
    let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    FoldComparison {
        n: a.len(),
        runs,
        alpha,
        rope: options.rope,
        test_fraction: options.test_fraction,
        mean_a: mean(a),
        mean_b: mean(b),
        paired_t,
        corrected_t,
        wilcoxon,
        sign,
        cv5x2_t,
        cv5x2_f,
        bayesian_correlated_t,
        notes,
    }
}

/// Keeps a test's result, or records why it failed.
fn keep<T, E: std::fmt::Display>(
    notes: &mut Vec<String>,
    test: &str,
    result: Result<T, E>,
) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            notes.push(format!("{test}: not computed: {error}"));
            None
        }
    }
}

/// Distinct values in increasing order.
fn sorted_distinct(values: &[f64]) -> Vec<f64> {
    let mut distinct = values.to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    distinct
}

/// The 5x2 matrix of differences when the rows are 5 repetitions x 2 folds, or why not.
fn five_by_two(
    differences: &[f64],
    repetition: Option<&[f64]>,
    fold: Option<&[f64]>,
) -> Result<[[f64; 2]; 5], String> {
    let (Some(repetition), Some(fold)) = (repetition, fold) else {
        return Err("needs a repetition column and a fold column".to_string());
    };
    if differences.len() != 10 {
        return Err(format!(
            "needs 10 rows (5 repetitions x 2 folds), the file has {}",
            differences.len()
        ));
    }
    let repetitions = sorted_distinct(repetition);
    let folds = sorted_distinct(fold);
    if repetitions.len() != 5 || folds.len() != 2 {
        return Err(format!(
            "needs 5 repetition values x 2 fold values, the file has {} x {}",
            repetitions.len(),
            folds.len()
        ));
    }
    let mut matrix = [[f64::NAN; 2]; 5];
    for row in 0..10 {
        let i = repetitions
            .iter()
            .position(|&r| r == repetition[row])
            .expect("a value");
        let j = folds.iter().position(|&f| f == fold[row]).expect("a value");
        if !matrix[i][j].is_nan() {
            return Err(format!(
                "repetition {} fold {} appears twice",
                repetition[row], fold[row]
            ));
        }
        matrix[i][j] = differences[row];
    }
    Ok(matrix)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTIONS: FoldOptions = FoldOptions {
        alpha: 0.05,
        test_fraction: None,
        rope: 0.0,
        wilcoxon_correction: false,
    };

    #[test]
    fn five_by_two_needs_five_repetitions_of_two_folds_each_once() {
        let differences: Vec<f64> = (0..10).map(f64::from).collect();
        let repetition: Vec<f64> = (0..10).map(|row| f64::from(5 - row / 2)).collect();
        let fold: Vec<f64> = (0..10).map(|row| f64::from(row % 2)).collect();
        let matrix = five_by_two(&differences, Some(&repetition), Some(&fold)).unwrap();
        // Replication 0 is the smallest repetition value (1: the last two rows).
        assert_eq!(matrix[0], [8.0, 9.0]);
        assert_eq!(matrix[4], [0.0, 1.0]);
        // Rows 0 and 1 are both repetition 5; with fold 0 twice that pair appears twice.
        let mut twice = fold.clone();
        twice[1] = 0.0;
        let error = five_by_two(&differences, Some(&repetition), Some(&twice)).unwrap_err();
        assert_eq!(error, "repetition 5 fold 0 appears twice");
        let one_fold = vec![0.0; 10];
        let error = five_by_two(&differences, Some(&repetition), Some(&one_fold)).unwrap_err();
        assert!(error.ends_with("the file has 5 x 1"), "{error}");
        let error = five_by_two(&differences[..4], Some(&repetition[..4]), Some(&fold[..4]));
        assert!(error.unwrap_err().contains("needs 10 rows"));
        assert!(five_by_two(&differences, None, Some(&fold)).is_err());
    }

    #[test]
    fn tests_that_cannot_run_are_none_with_a_note() {
        // Two folds, no repetition column: no corrected t (no fraction), no 5x2cv.
        let comparison = compare_folds(&[0.8, 0.9], &[0.7, 0.85], None, None, &OPTIONS);
        assert_eq!((comparison.n, comparison.runs), (2, 1));
        assert!(comparison.corrected_t.is_none() && comparison.cv5x2_t.is_none());
        assert!(comparison.paired_t.is_some() && comparison.sign.is_some());
        assert_eq!(comparison.notes.len(), 2, "{:?}", comparison.notes);
        assert!(comparison.notes[0].starts_with("corrected resampled t-test: not computed"));
        // Hand count: one win for a on each fold, no loss.
        let sign = comparison.sign.unwrap();
        assert_eq!((sign.wins, sign.losses, sign.ties), (2, 0, 0));
    }
}
