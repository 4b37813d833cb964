//! Intervals and tests of one model on a test set: binomial proportions (normal, Wilson,
//! Clopper-Pearson), the AUC (Hanley-McNeil, Agarwal, Cortes & Mohri, DeLong for two and for k
//! correlated AUCs) and the stratified bootstrap (percentile and BCa).

pub mod auc;
pub mod bootstrap;
pub mod bootstrap_auc;
pub mod clopper_pearson;
pub mod cortes_mohri;
pub mod delong_k;
pub mod proportion;
