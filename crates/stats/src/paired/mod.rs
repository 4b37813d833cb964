//! Two learners compared on paired values: the paired and corrected t-tests, Wilcoxon's
//! signed-rank test, the sign test, Dietterich's 5x2cv tests and McNemar's test.

pub mod cv5x2;
pub mod mcnemar;
pub mod sign_test;
pub mod ttest;
pub mod wilcoxon;
