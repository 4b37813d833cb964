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
        let wu_flach = wu_flach_totals().unwrap();
        assert_eq!((wu_flach.full.wins, wu_flach.full.losses), (6, 2));
    }
}
