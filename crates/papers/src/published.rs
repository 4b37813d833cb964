//! Aslan et al.'s and Wu & Flach's published numbers, read from the data files in `data/` beside this crate's
//! sources (compiled in, so the binary needs no files at run time).

use engine::{Context, Result};
use serde::Deserialize;

/// Aslan et al.'s four-case table.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AslanCases {
    /// Where the numbers are printed.
    pub source: String,
    /// The number of comparisons the counts add up to.
    pub comparisons: usize,
    /// The four cases in the paper's order: name and count.
    pub cases: Vec<AslanCase>,
    /// The comparisons the paper names (Figures 2 to 7) with the case it reports.
    pub named: Vec<AslanNamedComparison>,
}

/// One comparison the paper names in a figure, with its reported case.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AslanNamedComparison {
    /// The figure, e.g. "Figure 6".
    pub figure: String,
    /// The dataset as the paper names it.
    pub paper_dataset: String,
    /// Our dataset of that name or its stand-in; `None` where we have no copy.
    pub dataset: Option<String>,
    /// The two learners, by their names in `experiments/configs/aslan.toml`.
    pub learners: [String; 2],
    /// The case the paper reports, one of the four case names.
    pub case: String,
    /// What the paper reads from the AUC intervals it draws (Figures 6 and 7).
    pub intervals: Option<String>,
    /// Where the paper's text is ambiguous, how we read it.
    pub note: Option<String>,
}

/// One of Aslan et al.'s four cases.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AslanCase {
    /// The case, e.g. "error accepts, AUC rejects".
    pub name: String,
    /// How many of the paper's comparisons fell in it.
    pub count: usize,
}

/// Wu & Flach's selection totals: full datasets (Table 4) and samples (Table 5).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WuFlachTotals {
    /// Table 4.
    pub full: WuFlachTable,
    /// Table 5.
    pub samples: WuFlachTable,
}

/// One of Wu & Flach's tables, summarised.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WuFlachTable {
    /// Where the numbers are printed.
    pub source: String,
    /// Datasets where the sAUC-selected model had the higher test AUC.
    pub wins: usize,
    /// Datasets where it had the lower one.
    pub losses: usize,
    /// Mean test AUC (x100) of the AUC-selected models, if quoted.
    pub auc_selected_mean: Option<f64>,
    /// Mean test AUC (x100) of the sAUC-selected models, if quoted.
    pub sauc_selected_mean: Option<f64>,
}

fn parse<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T> {
    toml::from_str(text).with_context(|| format!("papers/data/{file}"))
}

/// Aslan et al.'s four-case counts (`data/aslan.toml`).
pub fn aslan_cases() -> Result<AslanCases> {
    parse("aslan.toml", include_str!("../data/aslan.toml"))
}

/// Wu & Flach's totals (`data/wu_flach.toml`).
pub fn wu_flach_totals() -> Result<WuFlachTotals> {
    parse("wu_flach.toml", include_str!("../data/wu_flach.toml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_data_file_reads() {
        let aslan = aslan_cases().unwrap();
        assert_eq!(
            aslan.cases.iter().map(|case| case.count).sum::<usize>(),
            aslan.comparisons
        );
        assert_eq!(aslan.cases.len(), 4);
        for named in &aslan.named {
            assert!(
                aslan.cases.iter().any(|case| case.name == named.case),
                "{}: unknown case {}",
                named.figure,
                named.case
            );
        }
        assert_eq!(aslan.named.len(), 6);
        let wu_flach = wu_flach_totals().unwrap();
        assert_eq!((wu_flach.full.wins, wu_flach.full.losses), (6, 2));
    }
}
