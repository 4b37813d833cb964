//! Aslan et al.'s, Provost et al.'s and Wu & Flach's published numbers, read from the data files in `data/` beside this crate's
//! sources (compiled in, so the binary needs no files at run time).

use crate::error::{Error, Result};
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

/// Wu & Flach's published numbers: the totals of Tables 4 and 5 and every dataset's rows of
/// Tables 3, 4 and 5.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WuFlach {
    /// Table 4.
    pub full: WuFlachTable,
    /// Table 5.
    pub samples: WuFlachTable,
    /// The twenty datasets in the paper's order.
    pub datasets: Vec<WuFlachDataset>,
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
    /// The sample size the text gives (Table 5).
    pub text_sample_size: Option<usize>,
    /// Datasets the table marks as too small to sample (Table 5).
    #[serde(default)]
    pub starred: Vec<String>,
}

/// One dataset of Wu & Flach's Tables 3-5.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WuFlachDataset {
    /// The paper's name.
    pub paper: String,
    /// The shipped dataset we run for it.
    pub ours: String,
    /// Its Table 3 row.
    pub table3: WuFlachDescription,
    /// Why our dataset differs from the Table 3 row, where it does.
    pub explanation: Option<String>,
    /// Its Table 4 row.
    pub table4: WuFlachSelection,
    /// Its Table 5 row.
    pub table5: WuFlachSelection,
}

/// A Table 3 row: the extracted text and our reading of it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WuFlachDescription {
    /// The row's numbers as extracted (digits "1" lost).
    pub extracted: String,
    /// Number of attributes.
    pub attributes: usize,
    /// Number of instances.
    pub size: usize,
    /// Majority class share (%), every reading the lost digits allow.
    pub majority: Vec<f64>,
}

/// A Table 4 or 5 row: test AUC (x100) of the selected models, mean and standard error, every
/// reading the lost digits allow.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WuFlachSelection {
    /// The row's numbers as extracted.
    pub extracted: String,
    /// Mean of the AUC-selected models.
    pub auc: Vec<f64>,
    /// Its standard error.
    pub auc_se: Vec<f64>,
    /// Mean of the sAUC-selected models.
    pub sauc: Vec<f64>,
    /// Its standard error.
    pub sauc_se: Vec<f64>,
}

/// Provost, Fawcett & Kohavi's Table 1: the locally dominating learners per slope range.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProvostTable {
    /// Where the numbers are printed.
    pub source: String,
    /// The learners the table names.
    pub learners: Vec<String>,
    /// The domains in the paper's order.
    pub domains: Vec<ProvostDomain>,
}

/// One domain of Provost et al.'s Table 1.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProvostDomain {
    /// The paper's name for it.
    pub name: String,
    /// The task this workspace runs for it (`None`: not run).
    pub dataset: Option<String>,
    /// What differs between their data and ours.
    pub differences: String,
    /// True when our task is theirs: the same rows and the same positive class.
    pub same_data: bool,
    /// Slope ranges from 0 up to infinity, each with its locally dominating learner.
    pub ranges: Vec<ProvostRange>,
}

/// A range of iso-performance slopes and the learner on the hull over it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProvostRange {
    /// Lowest slope.
    pub low: f64,
    /// Highest slope (may be infinite).
    pub high: f64,
    /// The locally dominating learner.
    pub learner: String,
}

fn parse<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T> {
    toml::from_str(text).map_err(|source| Error::PublishedFile {
        file: file.to_string(),
        source,
    })
}

/// Aslan et al.'s four-case counts (`data/aslan.toml`).
pub fn aslan_cases() -> Result<AslanCases> {
    parse("aslan.toml", include_str!("../data/aslan.toml"))
}

/// Provost et al.'s Table 1 (`data/provost.toml`), checked: each domain's ranges run from 0 to
/// infinity without gaps and name one of the table's learners.
pub fn provost_table() -> Result<ProvostTable> {
    let table: ProvostTable = parse("provost.toml", include_str!("../data/provost.toml"))?;
    for domain in &table.domains {
        let mut expected_low = 0.0;
        for range in &domain.ranges {
            if range.low != expected_low || range.high <= range.low {
                return Err(provost_problem(format!(
                    "domain '{}': range [{}, {}] does not continue from {expected_low}",
                    domain.name, range.low, range.high
                )));
            }
            if !table.learners.contains(&range.learner) {
                return Err(provost_problem(format!(
                    "domain '{}': learner '{}' is not one of {:?}",
                    domain.name, range.learner, table.learners
                )));
            }
            expected_low = range.high;
        }
        if expected_low != f64::INFINITY {
            return Err(provost_problem(format!(
                "domain '{}': the ranges end at {expected_low}, not at infinity",
                domain.name
            )));
        }
    }
    Ok(table)
}

/// A problem of `data/provost.toml`.
fn provost_problem(problem: String) -> Error {
    Error::Published {
        file: "provost.toml".to_string(),
        problem,
    }
}

/// Wu & Flach's published numbers (`data/wu_flach.toml`).
pub fn wu_flach() -> Result<WuFlach> {
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
        let wu_flach = wu_flach().unwrap();
        assert_eq!((wu_flach.full.wins, wu_flach.full.losses), (6, 2));
        let provost = provost_table().unwrap();
        // Table 1 prints 39 ranges over ten domains; Road's two are not run.
        assert_eq!(provost.domains.len(), 10);
        let ranges = |run: bool| {
            provost
                .domains
                .iter()
                .filter(|domain| domain.dataset.is_some() == run)
                .map(|domain| domain.ranges.len())
                .sum::<usize>()
        };
        assert_eq!((ranges(true), ranges(false)), (37, 2));
        assert_eq!((wu_flach.samples.wins, wu_flach.samples.losses), (9, 0));
        assert_eq!(wu_flach.datasets.len(), 20);
        for dataset in &wu_flach.datasets {
            for row in [&dataset.table4, &dataset.table5] {
                for readings in [&row.auc, &row.auc_se, &row.sauc, &row.sauc_se] {
                    assert!(!readings.is_empty(), "{}", dataset.paper);
                }
            }
            assert!(!dataset.table3.majority.is_empty(), "{}", dataset.paper);
        }
    }
}
