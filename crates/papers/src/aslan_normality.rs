//! Aslan et al.'s Discussion, counted: "the distributions for error or AUC are sometimes not
//! normal". The Shapiro-Wilk test (`stats::normality::shapiro_wilk`, scipy's `shapiro`) on each
//! learner's 30 test values and on each pair's 30 paired differences, the sample the paired
//! t-test assumes normal.

use engine::{RunRecord, Section, SectionTable};
use report::{Cell, Table};

use crate::error::Result;

/// Shapiro-Wilk over a family of samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NormalityCounts {
    /// Samples in the family.
    pub samples: usize,
    /// Samples whose values are all equal (no test).
    pub constant: usize,
    /// Samples tested (`samples - constant`).
    pub tested: usize,
    /// Tested samples whose p-value is below alpha.
    pub rejected: usize,
    /// Tested samples whose p-value is below alpha / tested (Bonferroni).
    pub rejected_bonferroni: usize,
}

/// Shapiro-Wilk counts over `samples` at level `alpha` (each sample needs 3 values or more).
pub fn shapiro_counts(samples: &[Vec<f64>], alpha: f64) -> Result<NormalityCounts> {
    let mut pvalues = Vec::new();
    let mut constant = 0;
    for sample in samples {
        let first = sample.first().copied().unwrap_or(f64::NAN);
        if sample.iter().all(|&v| v == first) {
            constant += 1;
        } else {
            pvalues.push(stats::normality::shapiro_wilk(sample)?.pvalue);
        }
    }
    let tested = pvalues.len();
    let below = |level: f64| pvalues.iter().filter(|&&p| p < level).count();
    Ok(NormalityCounts {
        samples: samples.len(),
        constant,
        tested,
        rejected: below(alpha),
        rejected_bonferroni: below(alpha / tested.max(1) as f64),
    })
}

/// Each learner's test values of `measure` on every dataset, and each pair's differences
/// (first learner minus second, learners in config order); samples of fewer than 3 values (a
/// learner that failed on most splits) are left out.
fn families(record: &RunRecord, measure: usize) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let folds = &record.results.folds;
    let (datasets, learners) = (record.plan.datasets.len(), record.plan.learners.len());
    let mut values = Vec::new();
    let mut differences = Vec::new();
    for d in 0..datasets {
        for a in 0..learners {
            values.push(folds.finite_values(d, a, measure));
            for b in a + 1..learners {
                let (x, y) = folds.paired(d, measure, a, b);
                differences.push(x.iter().zip(&y).map(|(p, q)| p - q).collect());
            }
        }
    }
    let enough = |samples: Vec<Vec<f64>>| samples.into_iter().filter(|s| s.len() >= 3).collect();
    (enough(values), enough(differences))
}

/// The normality section of the Aslan report: the counts for error and AUC, values and
/// differences.
pub(crate) fn section(record: &RunRecord, (error, auc): (usize, usize)) -> Result<Section> {
    let alpha = record.config.alpha;
    let mut table = Table::new(
        "Shapiro-Wilk normality of the per-model values and of the paired differences",
        [
            "sample",
            "samples",
            "constant (no test)",
            "rejected at alpha",
            "rejected at alpha / m (Bonferroni)",
        ]
        .map(String::from)
        .to_vec(),
    );
    let mut rejected = Vec::new();
    for (name, measure) in [("error", error), ("AUC", auc)] {
        let (values, differences) = families(record, measure);
        for (kind, family) in [
            ("each learner's", values),
            ("paired differences of", differences),
        ] {
            let counts = shapiro_counts(&family, alpha)?;
            let share = counts.rejected as f64 / counts.tested.max(1) as f64;
            rejected.push(format!("{:.0}%", 100.0 * share));
            table.push_row(vec![
                Cell::text(format!("{kind} {name}")),
                Cell::integer(counts.samples as i64),
                Cell::integer(counts.constant as i64),
                Cell::text(format!(
                    "{} of {} ({:.0}%)",
                    counts.rejected,
                    counts.tested,
                    100.0 * share
                )),
                Cell::integer(counts.rejected_bonferroni as i64),
            ]);
        }
    }
    table.push_note(format!(
        "Each sample is the test values of the models of one learner on one dataset, or their \
         paired differences between two learners (what the paired t-test assumes normal). A \
         sample whose values are all equal has no Shapiro-Wilk statistic and is counted apart. \
         m is the number of samples tested in the row; at alpha = {alpha} about {:.0}% would \
         be rejected if every sample were normal. Error takes few distinct values on a fixed \
         test set, which alone makes the test reject; AUC takes almost as many values as there \
         are models.",
        100.0 * alpha
    ));
    Ok(Section {
        title: "Beyond the paper: are the per-model values normal?".into(),
        reading: format!(
            "The paper's Discussion says that \"the distributions for error or AUC are \
             sometimes not normal\". Counted with the Shapiro-Wilk test at alpha = {alpha}: it \
             rejects normality for {} of each learner's error samples, {} of the paired \
             differences of error, {} of each learner's AUC samples and {} of the paired \
             differences of AUC. Normality fails for much of the table, so the t-test's \
             p-values are approximate: one more reason to read the corrected and the \
             rank-based tests beside it.",
            rejected[0], rejected[1], rejected[2], rejected[3]
        ),
        tables: vec![SectionTable::new("aslan_normality", table)],
        ..Section::default()
    })
}
