//! Unadjusted pairwise post-hoc comparisons of k learners, in the pair order of
//! [`crate::corrections::adjust::pair_list`], ready for any adjustment of [`crate::adjust`] or
//! [`crate::multitest`].

use serde::Serialize;

use crate::corrections::adjust::pair_list;

/// Which distribution a pairwise statistic is referred to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reference {
    /// Standard normal (two-sided).
    Normal,
    /// Student t with the comparisons' `df` (two-sided).
    StudentT,
}

/// Statistics and two-sided p-values of every pair (i, j), i < j, of k learners.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairwiseComparisons {
    /// Name of the post-hoc test, e.g. "quade_t".
    pub test: &'static str,
    /// The pairs (i, j), i < j, in order (0,1), (0,2), ..., (1,2), ...
    pub pairs: Vec<(usize, usize)>,
    /// |statistic| of each pair.
    pub statistics: Vec<f64>,
    /// Unadjusted two-sided p-value of each pair.
    pub pvalues: Vec<f64>,
    /// Reference distribution of the statistics.
    pub reference: Reference,
    /// Degrees of freedom when the reference is Student's t.
    pub df: Option<f64>,
}

impl PairwiseComparisons {
    /// Builds the comparisons of k learners from `statistic(i, j)` (already absolute) and the
    /// reference distribution.
    pub(crate) fn from_statistic(
        test: &'static str,
        k: usize,
        reference: Reference,
        df: Option<f64>,
        statistic: impl Fn(usize, usize) -> f64,
    ) -> Self {
        let pairs = pair_list(k);
        let statistics: Vec<f64> = pairs.iter().map(|&(i, j)| statistic(i, j)).collect();
        let pvalues = statistics
            .iter()
            .map(|&s| match reference {
                Reference::Normal => crate::distributions::normal_two_sided_pvalue(s),
                Reference::StudentT => {
                    crate::distributions::student_t_two_sided_pvalue(s, df.unwrap_or(f64::INFINITY))
                }
            })
            .collect();
        Self {
            test,
            pairs,
            statistics,
            pvalues,
            reference,
            df,
        }
    }

    /// The p-values as a symmetric k x k matrix with 1 on the diagonal.
    pub fn matrix(&self, k: usize) -> Vec<Vec<f64>> {
        let mut matrix = vec![vec![1.0; k]; k];
        for (&(i, j), &p) in self.pairs.iter().zip(&self.pvalues) {
            matrix[i][j] = p;
            matrix[j][i] = p;
        }
        matrix
    }
}
