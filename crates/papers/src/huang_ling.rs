//! Huang & Ling (2005), as retold in the Thai paper: consistency C and discriminancy D of AUC
//! against accuracy, counted exactly over every ranking, set beside the published numbers, and
//! extended by the exact dynamic program to 2n = 200 (their Figures 1 and 2).
//!
//! For n_p positives and n_n negatives, every ranking of the n_p + n_n examples is one
//! "classifier". Its AUC is the share of (positive, negative) pairs ranked correctly; its accuracy
//! comes from labelling the top n_p examples positive. Over all unordered pairs of rankings (a, b):
//! R = #{AUC and accuracy both order a above b}, S = #{they order them oppositely},
//! P = #{AUC separates them, accuracy ties}, Q = #{accuracy separates them, AUC ties};
//! C = R / (R + S) and D = P / Q. The counts come from `evaluate::RankingHistogram`.

use std::time::Instant;

use engine::config::experiment::ExperimentConfig;
use engine::{Analysis, AnalysisError, Figure, Plan, RunRecord, SectionTable};

use crate::error::{Error, Result};
use evaluate::{ConsistencyCounts, RankingHistogram};
use rayon::prelude::*;
use report::{Cell, Curve, LegendPosition, PlotOptions, Table, PALETTE};

pub use engine::Section;

/// Numbers of positive and negative examples of one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct ClassSizes {
    /// Positives n_p.
    pub positives: usize,
    /// Negatives n_n.
    pub negatives: usize,
}

impl ClassSizes {
    /// Total number of examples 2n = n_p + n_n.
    pub fn total(self) -> usize {
        self.positives + self.negatives
    }
}

/// The exact counts of one configuration and how long they took.
#[derive(Clone, Debug)]
pub struct ExactRow {
    /// The configuration.
    pub sizes: ClassSizes,
    /// R, S, P, Q (exact big integers).
    pub counts: ConsistencyCounts,
    /// Wall time of the dynamic program and the pair counting, in seconds.
    pub seconds: f64,
}

/// A ratio (C or D) as printed: its value and the number of decimals it was printed with.
#[derive(Clone, Debug, PartialEq)]
pub struct PrintedRatio {
    /// The value ("∞" is infinity).
    pub value: f64,
    /// Decimals printed.
    pub decimals: usize,
    /// The text as printed.
    pub text: String,
}

/// One published row of the paper's Tables 3-7, as printed; `None` where the table has no
/// such column.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedRow {
    /// The paper's table number (3 to 7).
    pub table: u8,
    /// The row's first column as printed (2n, or "positives/negatives" in Table 7).
    pub printed: String,
    /// Our reading of the row: the configuration it belongs to.
    pub sizes: ClassSizes,
    /// Published R.
    pub r: Option<u64>,
    /// Published S.
    pub s: Option<u64>,
    /// Published P.
    pub p: Option<u64>,
    /// Published Q.
    pub q: Option<u64>,
    /// Published C.
    pub c: Option<PrintedRatio>,
    /// Published D.
    pub d: Option<PrintedRatio>,
    /// Where the row is printed (table and row).
    pub source: String,
}

/// A row of `data/huang_ling.toml`: numbers as printed, in text.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PrintedRow {
    table: u8,
    printed: String,
    positives: usize,
    negatives: usize,
    r: Option<String>,
    s: Option<String>,
    p: Option<String>,
    q: Option<String>,
    c: Option<String>,
    d: Option<String>,
    source: String,
}

/// A printed count ("11,733,729,456") as a number.
fn parse_count(text: &str) -> Option<u64> {
    text.replace(',', "").parse().ok()
}

/// A printed ratio ("0.991", "15.5", "∞") with its decimals.
fn parse_ratio(text: &str) -> Option<PrintedRatio> {
    let value = if text == "∞" {
        f64::INFINITY
    } else {
        text.parse().ok()?
    };
    let decimals = text
        .split_once('.')
        .map_or(0, |(_, fraction)| fraction.len());
    Some(PrintedRatio {
        value,
        decimals,
        text: text.to_string(),
    })
}

/// Parses the data file's text (`file` names it in errors).
fn parse_published(file: &str, text: &str) -> Result<Vec<PublishedRow>> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Published {
        rows: Vec<PrintedRow>,
    }
    let parsed: Published = toml::from_str(text).map_err(|source| Error::PublishedFile {
        file: file.to_string(),
        source,
    })?;
    let mut rows = Vec::new();
    for row in parsed.rows {
        let bad = |key: &str, value: &str| Error::Published {
            file: file.to_string(),
            problem: format!(
                "row '{}': {key} = \"{value}\" is not a number as printed (digits with optional \
                 thousands commas; ratios may be \"∞\")",
                row.source
            ),
        };
        let count = |key: &str, value: &Option<String>| -> Result<Option<u64>> {
            match value {
                None => Ok(None),
                Some(text) => match parse_count(text) {
                    Some(number) => Ok(Some(number)),
                    None => Err(bad(key, text)),
                },
            }
        };
        let ratio = |key: &str, value: &Option<String>| -> Result<Option<PrintedRatio>> {
            match value {
                None => Ok(None),
                Some(text) => match parse_ratio(text) {
                    Some(number) => Ok(Some(number)),
                    None => Err(bad(key, text)),
                },
            }
        };
        if !(3..=7).contains(&row.table) || row.positives == 0 || row.negatives == 0 {
            return Err(Error::Published {
                file: file.to_string(),
                problem: format!(
                    "row '{}': table must be 3 to 7 and both class sizes at least 1",
                    row.source
                ),
            });
        }
        rows.push(PublishedRow {
            table: row.table,
            printed: row.printed.clone(),
            sizes: ClassSizes {
                positives: row.positives,
                negatives: row.negatives,
            },
            r: count("r", &row.r)?,
            s: count("s", &row.s)?,
            p: count("p", &row.p)?,
            q: count("q", &row.q)?,
            c: ratio("c", &row.c)?,
            d: ratio("d", &row.d)?,
            source: row.source,
        });
    }
    Ok(rows)
}

/// Every published row of the paper's Tables 3-7 (`data/huang_ling.toml`).
pub fn published() -> Result<Vec<PublishedRow>> {
    parse_published("huang_ling.toml", include_str!("../data/huang_ling.toml"))
}

/// Huang & Ling's consistency and discriminancy of AUC against accuracy, computed exactly.
pub struct HuangLing;

impl Analysis for HuangLing {
    fn name(&self) -> &'static str {
        "huang_ling"
    }

    fn description(&self) -> &'static str {
        "Huang & Ling: consistency and discriminancy of AUC against accuracy, counted exactly \
         over every pair of rankings (needs no datasets or learners)"
    }

    fn needs_data(&self) -> bool {
        false
    }

    fn check(&self, _config: &ExperimentConfig, _plan: &Plan) -> Result<(), String> {
        Ok(())
    }

    fn sections(&self, _record: &RunRecord) -> Result<Vec<Section>, AnalysisError> {
        Ok(vec![report_section(&ReportOptions::default())?])
    }
}

/// Which configurations the extended figures use.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportOptions {
    /// Totals 2n of the balanced series (even, >= 4).
    pub balanced_totals: Vec<usize>,
    /// Totals 2n of the 25%-positives series (multiples of 4).
    pub quarter_totals: Vec<usize>,
}

impl Default for ReportOptions {
    /// Every even 2n up to 60 and every tenth up to 200 (balanced); every multiple of 4 up to
    /// 60 and every twentieth up to 200 (25% positives).
    fn default() -> Self {
        ReportOptions {
            balanced_totals: (4..=60).step_by(2).chain((70..=200).step_by(10)).collect(),
            quarter_totals: (4..=60).step_by(4).chain((80..=200).step_by(20)).collect(),
        }
    }
}

/// Balanced configurations of the paper's Tables 3 and 4: 2n = 4, 6, ..., 20.
pub fn balanced_published_range() -> Vec<ClassSizes> {
    (2..=10)
        .map(|n| ClassSizes {
            positives: n,
            negatives: n,
        })
        .collect()
}

/// Configurations with 25% positives of Tables 5 and 6: 2n = 4, 8, 12, 16.
pub fn quarter_published_range() -> Vec<ClassSizes> {
    [4, 8, 12, 16].into_iter().map(quarter_positives).collect()
}

/// Configurations of Table 7: 10 examples with 1 to 5 positives.
pub fn ten_examples_range() -> Vec<ClassSizes> {
    (1..=5)
        .map(|positives| ClassSizes {
            positives,
            negatives: 10 - positives,
        })
        .collect()
}

fn quarter_positives(total: usize) -> ClassSizes {
    ClassSizes {
        positives: total / 4,
        negatives: total - total / 4,
    }
}

/// Exact R, S, P, Q of one configuration by the dynamic program.
pub fn exact_row(sizes: ClassSizes) -> Result<ExactRow> {
    let start = Instant::now();
    let histogram = RankingHistogram::by_dynamic_program(sizes.positives, sizes.negatives)
        .map_err(|source| Error::Counts {
            positives: sizes.positives,
            negatives: sizes.negatives,
            source,
        })?;
    let counts = histogram.auc_vs_accuracy();
    Ok(ExactRow {
        sizes,
        counts,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Exact rows of several configurations, computed in parallel, in the input order.
pub fn exact_rows(configurations: &[ClassSizes]) -> Result<Vec<ExactRow>> {
    // largest first so the long ones do not start last
    let mut order: Vec<usize> = (0..configurations.len()).collect();
    order.sort_by_key(|&i| {
        std::cmp::Reverse(configurations[i].positives * configurations[i].negatives)
    });
    let mut computed: Vec<(usize, ExactRow)> = order
        .par_iter()
        .map(|&i| exact_row(configurations[i]).map(|row| (i, row)))
        .collect::<Result<_>>()?;
    computed.sort_by_key(|(i, _)| *i);
    Ok(computed.into_iter().map(|(_, row)| row).collect())
}

/// The exact counts of every configuration of the paper's Tables 3-7 (the "published range").
pub fn published_range_rows() -> Result<Vec<ExactRow>> {
    let mut configurations = balanced_published_range();
    configurations.extend(quarter_published_range());
    configurations.extend(ten_examples_range());
    exact_rows(&configurations)
}

/// How a published value compares with the exact one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueCheck {
    /// Equal (a count), or the exact value rounded to the printed decimals (a ratio).
    Equal,
    /// A ratio printed as the exact value truncated, not rounded, to its decimals.
    Truncated,
    /// A count printed with the exact count's digits in another order.
    TransposedDigits,
    /// Differs otherwise.
    Differs,
}

/// An exact value beside the printed one.
#[derive(Clone, Debug, PartialEq)]
pub enum ExactValue {
    /// R, S, P or Q.
    Count(u64),
    /// C or D.
    Ratio(f64),
}

/// One printed value beside the exact one.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueComparison {
    /// R, S, P, Q, C or D.
    pub name: &'static str,
    /// The value as printed.
    pub printed: String,
    /// The exact value.
    pub exact: ExactValue,
    /// How they compare.
    pub check: ValueCheck,
    /// Printed minus exact.
    pub difference: f64,
}

/// A published row beside the exact counts of the configuration it belongs to.
#[derive(Clone, Debug)]
pub struct RowComparison {
    /// The row as printed.
    pub published: PublishedRow,
    /// The exact counts of our reading of the row.
    pub exact: ExactRow,
    /// Every printed value beside the exact one.
    pub values: Vec<ValueComparison>,
    /// When the printed label names another configuration than the row's counts: every
    /// configuration up to 2n = [`MISLABEL_SEARCH_LIMIT`] whose exact counts equal the printed
    /// counts.
    pub mislabelled: Option<Vec<ClassSizes>>,
}

/// The largest 2n searched for the configuration a mislabelled row's counts belong to.
pub const MISLABEL_SEARCH_LIMIT: usize = 20;

/// An exact count as u64 (every count up to 2n = 20 fits).
fn count_u64<T: std::fmt::Display>(count: &T) -> Option<u64> {
    count.to_string().parse().ok()
}

/// Compares a printed count with the exact one.
fn check_count(printed: u64, exact: u64) -> ValueCheck {
    let digits = |value: u64| {
        let mut digits: Vec<char> = value.to_string().chars().collect();
        digits.sort_unstable();
        digits
    };
    if printed == exact {
        ValueCheck::Equal
    } else if digits(printed) == digits(exact) {
        ValueCheck::TransposedDigits
    } else {
        ValueCheck::Differs
    }
}

/// Compares a printed ratio with the exact one: equal when the exact value rounds to it (half a
/// unit of the last printed digit), truncated when it is the exact value cut after its decimals.
fn check_ratio(printed: &PrintedRatio, exact: f64) -> ValueCheck {
    if !exact.is_finite() || !printed.value.is_finite() {
        return if exact == printed.value {
            ValueCheck::Equal
        } else {
            ValueCheck::Differs
        };
    }
    let unit = 10f64.powi(-(printed.decimals as i32));
    let tolerance = 1e-9 * unit;
    if (exact - printed.value).abs() <= 0.5 * unit + tolerance {
        ValueCheck::Equal
    } else if exact >= printed.value - tolerance && exact < printed.value + unit {
        ValueCheck::Truncated
    } else {
        ValueCheck::Differs
    }
}

/// The (R, S) or (P, Q) counts printed in a row, by name, with the exact counts' names.
fn printed_counts(row: &PublishedRow) -> Vec<(&'static str, u64)> {
    [("R", row.r), ("S", row.s), ("P", row.p), ("Q", row.q)]
        .into_iter()
        .filter_map(|(name, value)| value.map(|value| (name, value)))
        .collect()
}

/// The exact count of a name.
fn exact_count(counts: &ConsistencyCounts, name: &str) -> Option<u64> {
    match name {
        "R" => count_u64(&counts.r),
        "S" => count_u64(&counts.s),
        "P" => count_u64(&counts.p),
        _ => count_u64(&counts.q),
    }
}

/// The configuration a row's printed label names, if it names one: 2n in Tables 3-6 (with the
/// table's class ratio), "positives/negatives" in Table 7.
fn labelled_sizes(row: &PublishedRow) -> Option<ClassSizes> {
    if let Some((positives, negatives)) = row.printed.split_once('/') {
        return Some(ClassSizes {
            positives: positives.trim().parse().ok()?,
            negatives: negatives.trim().parse().ok()?,
        });
    }
    let total: usize = row.printed.trim().parse().ok()?;
    match row.table {
        3 | 4 if total.is_multiple_of(2) => Some(ClassSizes {
            positives: total / 2,
            negatives: total / 2,
        }),
        5 | 6 if total.is_multiple_of(4) => Some(quarter_positives(total)),
        _ => None,
    }
}

/// Every configuration up to 2n = `limit`, with no more positives than negatives (swapping the
/// classes leaves every count unchanged), whose exact counts equal the row's printed counts.
fn configurations_with_counts(row: &PublishedRow, limit: usize) -> Result<Vec<ClassSizes>> {
    let printed = printed_counts(row);
    if printed.is_empty() {
        return Ok(Vec::new());
    }
    let candidates: Vec<ClassSizes> = (2..=limit)
        .flat_map(|total| {
            (1..=total / 2).map(move |positives| ClassSizes {
                positives,
                negatives: total - positives,
            })
        })
        .collect();
    Ok(exact_rows(&candidates)?
        .into_iter()
        .filter(|candidate| {
            printed
                .iter()
                .all(|&(name, value)| exact_count(&candidate.counts, name) == Some(value))
        })
        .map(|candidate| candidate.sizes)
        .collect())
}

/// Sets every published row beside the exact counts of its configuration.
pub fn compare_published(published: &[PublishedRow]) -> Result<Vec<RowComparison>> {
    let mut sizes: Vec<ClassSizes> = Vec::new();
    for row in published {
        if !sizes.contains(&row.sizes) {
            sizes.push(row.sizes);
        }
    }
    let exact = exact_rows(&sizes)?;
    let mut comparisons = Vec::new();
    for row in published {
        let Some(exact_row) = exact.iter().find(|e| e.sizes == row.sizes) else {
            return Err(Error::Count(format!("no exact counts for {:?}", row.sizes)));
        };
        let counts = &exact_row.counts;
        let mut values = Vec::new();
        for (name, value) in printed_counts(row) {
            let Some(exact_value) = exact_count(counts, name) else {
                return Err(Error::Count(format!(
                    "exact {name} of {:?} does not fit 64 bits",
                    row.sizes
                )));
            };
            values.push(ValueComparison {
                name,
                printed: with_thousands(value),
                exact: ExactValue::Count(exact_value),
                check: check_count(value, exact_value),
                difference: value as f64 - exact_value as f64,
            });
        }
        for (name, printed, exact_value) in [
            ("C", &row.c, counts.consistency()),
            ("D", &row.d, counts.discriminancy()),
        ] {
            if let Some(printed) = printed {
                let difference = if printed.value == exact_value {
                    0.0
                } else {
                    printed.value - exact_value
                };
                values.push(ValueComparison {
                    name,
                    printed: printed.text.clone(),
                    exact: ExactValue::Ratio(exact_value),
                    check: check_ratio(printed, exact_value),
                    difference,
                });
            }
        }
        let mislabelled = if labelled_sizes(row) == Some(row.sizes) {
            None
        } else {
            Some(configurations_with_counts(row, MISLABEL_SEARCH_LIMIT)?)
        };
        comparisons.push(RowComparison {
            published: row.clone(),
            exact: exact_row.clone(),
            values,
            mislabelled,
        });
    }
    Ok(comparisons)
}

/// A count with thousands commas, as the paper prints them ("12,761").
fn with_thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut text = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// "2 + 6 (2n = 8)".
fn sizes_text(sizes: ClassSizes) -> String {
    format!(
        "{} + {} (2n = {})",
        sizes.positives,
        sizes.negatives,
        sizes.total()
    )
}

/// An exact ratio with enough decimals to show how it rounds.
fn exact_ratio_text(value: f64, printed_decimals: usize) -> String {
    if value.is_finite() {
        format!("{value:.*}", printed_decimals + 3)
    } else {
        "∞".to_string()
    }
}

impl RowComparison {
    /// True when every printed value equals the exact one and the label names the row.
    pub fn agrees(&self) -> bool {
        self.mislabelled.is_none() && self.values.iter().all(|v| v.check == ValueCheck::Equal)
    }

    /// Why the row differs, one sentence per finding, with the evidence; empty when it agrees.
    pub fn causes(&self) -> Vec<String> {
        let mut causes = Vec::new();
        if let Some(matches) = &self.mislabelled {
            causes.push(self.mislabelled_cause(matches));
        }
        for value in &self.values {
            if value.check != ValueCheck::Equal {
                causes.push(self.value_cause(value));
            }
        }
        // a misprinted count whose ratio still rounds to the printed one
        for value in &self.values {
            if value.check != ValueCheck::Equal && matches!(value.exact, ExactValue::Count(_)) {
                let ratio = if matches!(value.name, "R" | "S") {
                    "C"
                } else {
                    "D"
                };
                if self
                    .values
                    .iter()
                    .any(|v| v.name == ratio && v.check == ValueCheck::Equal)
                {
                    causes.push(format!(
                        "the printed {ratio} is the exact one rounded, so the misprint is in \
                         {} alone",
                        value.name
                    ));
                }
            }
        }
        causes
    }

    /// Why the row's label is wrong: the configuration its counts belong to (`matches`).
    fn mislabelled_cause(&self, matches: &[ClassSizes]) -> String {
        let label = match labelled_sizes(&self.published) {
            Some(sizes) => format!("names {}", sizes_text(sizes)),
            None => "names no configuration of this table (25% positives need 2n divisible \
                     by 4)"
                .to_string(),
        };
        let names: Vec<&str> = printed_counts(&self.published)
            .iter()
            .map(|(name, _)| *name)
            .collect();
        let evidence = match matches {
            [] => {
                format!("no configuration up to 2n = {MISLABEL_SEARCH_LIMIT} has these counts")
            }
            [only] => format!(
                "its {} are exactly the counts of {}, the only configuration up to 2n = \
                 {MISLABEL_SEARCH_LIMIT} that has them (up to swapping the classes)",
                names.join(" and "),
                sizes_text(*only)
            ),
            several => format!(
                "its {} are exactly the counts of {}",
                names.join(" and "),
                several
                    .iter()
                    .map(|s| sizes_text(*s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        format!(
            "mislabelled row: printed '{}', which {label}; {evidence}, so the row is {}",
            self.published.printed,
            sizes_text(self.exact.sizes)
        )
    }

    /// Why one printed value differs from the exact one.
    fn value_cause(&self, value: &ValueComparison) -> String {
        let name = value.name;
        let printed = &value.printed;
        match (&value.exact, value.check) {
            (_, ValueCheck::Equal) => String::new(),
            (ExactValue::Count(exact), ValueCheck::TransposedDigits) => format!(
                "{name} printed {printed}: the exact count is {}, the same digits in \
                 another order (a misprint)",
                with_thousands(*exact)
            ),
            (ExactValue::Count(exact), _) => format!(
                "{name} printed {printed}: the exact count is {} (a misprint)",
                with_thousands(*exact)
            ),
            (ExactValue::Ratio(exact), check) => {
                let decimals = printed
                    .split_once('.')
                    .map_or(0, |(_, fraction)| fraction.len());
                let rounded = format!("{exact:.decimals$}");
                let mut text = if check == ValueCheck::Truncated {
                    format!(
                        "{name} printed {printed}: the exact {} truncated instead of rounded \
                         (rounded: {rounded})",
                        exact_ratio_text(*exact, decimals)
                    )
                } else {
                    format!(
                        "{name} printed {printed}: the exact value is {} (rounded: {rounded}), \
                         a misprint",
                        exact_ratio_text(*exact, decimals)
                    )
                };
                // do the row's own counts give the printed ratio?
                let own = match name {
                    "C" => self
                        .published
                        .r
                        .zip(self.published.s)
                        .map(|(r, s)| (r as f64 / (r + s) as f64, "R / (R + S)")),
                    _ => self
                        .published
                        .p
                        .zip(self.published.q)
                        .map(|(p, q)| (p as f64 / q as f64, "P / Q")),
                };
                if let Some((own, formula)) = own {
                    text.push_str(&format!(
                        "; the row's own printed {formula} = {}, so the error is in {name}",
                        exact_ratio_text(own, decimals)
                    ));
                }
                text
            }
        }
    }
}

/// Agreement figures of one of the paper's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAgreement {
    /// The paper's table number.
    pub table: u8,
    /// Rows whose every value equals ours and whose label names its configuration.
    pub rows_agreeing: usize,
    /// Rows printed.
    pub rows: usize,
    /// Printed values equal to ours (counts exactly, ratios after rounding).
    pub values_agreeing: usize,
    /// Values printed.
    pub values: usize,
}

/// The agreement figures of each table, in table order.
pub fn agreement(comparisons: &[RowComparison]) -> Vec<TableAgreement> {
    let mut tables: Vec<u8> = comparisons.iter().map(|c| c.published.table).collect();
    tables.dedup();
    tables
        .into_iter()
        .map(|table| {
            let rows: Vec<&RowComparison> = comparisons
                .iter()
                .filter(|c| c.published.table == table)
                .collect();
            TableAgreement {
                table,
                rows_agreeing: rows.iter().filter(|c| c.agrees()).count(),
                rows: rows.len(),
                values_agreeing: rows
                    .iter()
                    .flat_map(|c| &c.values)
                    .filter(|v| v.check == ValueCheck::Equal)
                    .count(),
                values: rows.iter().map(|c| c.values.len()).sum(),
            }
        })
        .collect()
}

impl TableAgreement {
    /// "Table 4: 7 of 9 rows agree in every value (25 of 27 values)".
    pub fn sentence(&self) -> String {
        format!(
            "Table {}: {} of {} rows agree in every value ({} of {} values)",
            self.table, self.rows_agreeing, self.rows, self.values_agreeing, self.values
        )
    }
}

/// An exact count with thousands commas, as the paper prints its counts.
fn count_cell(count: &impl std::fmt::Display) -> Cell {
    match count_u64(count) {
        Some(value) => Cell::text(with_thousands(value)),
        None => Cell::text(count.to_string()),
    }
}

const C_DECIMALS: usize = 4;
const D_DECIMALS: usize = 3;

fn headers(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

/// The cells of one printed value: paper and ours (bold where they differ; the difference and
/// its cause are in the row's cause cell).
fn value_cells(comparison: &RowComparison, name: &str) -> [Cell; 2] {
    let Some(value) = comparison.values.iter().find(|v| v.name == name) else {
        return [Cell::empty(), Cell::empty()];
    };
    let decimals = if name == "C" { C_DECIMALS } else { D_DECIMALS };
    let ours = match value.exact {
        ExactValue::Count(exact) => Cell::text(with_thousands(exact)),
        ExactValue::Ratio(exact) if exact.is_finite() => {
            Cell::number(exact).with_decimals(decimals)
        }
        ExactValue::Ratio(_) => Cell::text("∞"),
    };
    let ours = if value.check == ValueCheck::Equal {
        ours
    } else {
        ours.bold()
    };
    [Cell::text(&value.printed), ours]
}

fn cause_cell(comparison: &RowComparison) -> Cell {
    let causes = comparison.causes();
    if causes.is_empty() {
        Cell::text("agrees")
    } else {
        Cell::text(causes.join("; "))
    }
}

/// Said once, under the first of the paper's tables (the others follow its layout).
const COMPARISON_NOTE: &str = "In these tables 'paper' is the value as printed in the Thai \
paper's retelling of Huang & Ling (../shared/papers/003_c7a3f43a3961886c.txt), 'ours' the exact \
count by dynamic program (checked against brute-force enumeration), in bold where it differs. A \
count agrees when equal, C and D when ours rounds to the printed decimals. 'cause' says, for \
every row that differs, what is wrong and the evidence. No random numbers are drawn: every \
count is exact.";

/// One of the paper's Tables 3-6 beside ours: the two counts and the ratio, printed and exact.
fn comparison_table(title: &str, comparisons: &[&RowComparison], names: [&str; 3]) -> Table {
    let mut header = vec!["2n printed".to_string(), "our reading".to_string()];
    for name in names {
        for column in ["paper", "ours"] {
            header.push(format!("{name} {column}"));
        }
    }
    header.push("cause".to_string());
    let mut table = Table::new(title, header);
    for comparison in comparisons {
        let mut row = vec![
            Cell::text(&comparison.published.printed),
            Cell::text(format!(
                "{} + {}",
                comparison.exact.sizes.positives, comparison.exact.sizes.negatives
            )),
        ];
        for name in names {
            row.extend(value_cells(comparison, name));
        }
        row.push(cause_cell(comparison));
        table.push_row(row);
    }
    table.push_note(if names[0] == "R" {
        "R, S: unordered pairs of rankings that AUC and accuracy order the same way / oppositely; \
         C = R / (R + S)."
    } else {
        "P: pairs AUC separates and accuracy ties; Q: pairs accuracy separates and AUC ties; \
         D = P / Q ('∞' where Q = 0: no pair is separated by accuracy alone)."
    });
    table
}

/// Table 7 beside ours: C and D printed and exact, with our four counts.
fn ten_examples_table(comparisons: &[&RowComparison]) -> Table {
    let mut header = vec!["printed positives/negatives".to_string()];
    for name in ["C", "D"] {
        for column in ["paper", "ours"] {
            header.push(format!("{name} {column}"));
        }
    }
    header.extend(headers(&["R ours", "S ours", "P ours", "Q ours", "cause"]));
    let mut table = Table::new(
        "Table 7: 10 examples with 1 to 5 positives, paper beside ours",
        header,
    );
    for comparison in comparisons {
        let counts = &comparison.exact.counts;
        let mut row = vec![Cell::text(&comparison.published.printed)];
        row.extend(value_cells(comparison, "C"));
        row.extend(value_cells(comparison, "D"));
        row.extend([
            count_cell(&counts.r),
            count_cell(&counts.s),
            count_cell(&counts.p),
            count_cell(&counts.q),
            cause_cell(comparison),
        ]);
        table.push_row(row);
    }
    table.push_note(
        "With one positive, accuracy is 1 when the positive is ranked first and (n - 2) / n \
         otherwise, while AUC takes every value: S = Q = 0, so C = 1 and D = ∞.",
    );
    table
}

/// The extended series (balanced and 25% positives) up to 2n = 200.
fn extended_table(balanced: &[ExactRow], quarter: &[ExactRow]) -> Table {
    let mut table = Table::new(
        "C and D against 2n up to 200, exact (Figures 1 and 2 extended)",
        headers(&["series", "2n", "positives", "negatives", "C", "D"]),
    );
    table.decimals = 6;
    for (series, rows) in [("balanced", balanced), ("25% positives", quarter)] {
        for row in rows {
            table.push_row(vec![
                Cell::text(series),
                Cell::integer(row.sizes.total() as i64),
                Cell::integer(row.sizes.positives as i64),
                Cell::integer(row.sizes.negatives as i64),
                Cell::number(row.counts.consistency()),
                Cell::number(row.counts.discriminancy()),
            ]);
        }
    }
    table.push_note("Exact big-integer counts, rounded to 6 decimals only when printed.");
    table
}

/// (2n, value) points of finite values.
fn series(rows: &[ExactRow], value: impl Fn(&ConsistencyCounts) -> f64) -> Vec<(f64, f64)> {
    rows.iter()
        .map(|row| (row.sizes.total() as f64, value(&row.counts)))
        .filter(|(_, y)| y.is_finite())
        .collect()
}

/// The values one of the paper's tables prints for C or D, at our reading's 2n (finite only).
fn printed_points(
    comparisons: &[RowComparison],
    table: u8,
    ratio: fn(&PublishedRow) -> Option<&PrintedRatio>,
) -> Vec<(f64, f64)> {
    comparisons
        .iter()
        .filter(|c| c.published.table == table)
        .filter_map(|c| {
            let printed = ratio(&c.published)?;
            let total = c.published.sizes.total() as f64;
            printed.value.is_finite().then_some((total, printed.value))
        })
        .collect()
}

/// One series of a figure: its exact rows and the paper's printed (2n, value) points.
type SeriesWithPrinted<'a> = (&'a [ExactRow], Vec<(f64, f64)>);

/// A figure of both series, each with the paper's printed values marked on it.
fn figure(
    title: &str,
    y_label: &str,
    legend: LegendPosition,
    series_rows: [SeriesWithPrinted; 2],
    value: impl Fn(&ConsistencyCounts) -> f64 + Copy,
) -> Result<String> {
    let mut options = PlotOptions::new(title, "number of examples 2n", y_label);
    options.legend = legend;
    let mut curves = Vec::new();
    let [(balanced, balanced_printed), (quarter, quarter_printed)] = series_rows;
    for (label, rows, printed, color) in [
        ("balanced", balanced, balanced_printed, PALETTE[0]),
        ("25% positives", quarter, quarter_printed, PALETTE[1]),
    ] {
        let mut curve = Curve::new(label, series(rows, value), color);
        curve.show_points = true;
        curve.marked = printed;
        curves.push(curve);
    }
    Ok(report::line_plot(&options, &curves)?)
}

/// File names written into the output folder.
pub const CONSISTENCY_FIGURE: &str = "huang_ling_consistency.svg";
/// File name of the discriminancy figure.
pub const DISCRIMINANCY_FIGURE: &str = "huang_ling_discriminancy.svg";

/// The folder under a report's folder that holds the figures (the tables go to `tables/`).
pub const FIGURES: &str = "figures";

/// The paper's Tables 3 to 7, each beside our exact counts.
fn published_tables(comparisons: &[RowComparison]) -> Vec<Table> {
    let of_table = |table: u8| -> Vec<&RowComparison> {
        comparisons
            .iter()
            .filter(|c| c.published.table == table)
            .collect()
    };
    let mut tables = vec![
        comparison_table(
            "Table 3: consistency of AUC and accuracy, balanced classes, paper beside ours",
            &of_table(3),
            ["R", "S", "C"],
        ),
        comparison_table(
            "Table 4: discriminancy of AUC over accuracy, balanced classes, paper beside ours",
            &of_table(4),
            ["P", "Q", "D"],
        ),
        comparison_table(
            "Table 5: consistency of AUC and accuracy, 25% positives, paper beside ours",
            &of_table(5),
            ["R", "S", "C"],
        ),
        comparison_table(
            "Table 6: discriminancy of AUC over accuracy, 25% positives, paper beside ours",
            &of_table(6),
            ["P", "Q", "D"],
        ),
        ten_examples_table(&of_table(7)),
    ];
    tables[0].push_note(COMPARISON_NOTE);
    tables
}

/// The Huang & Ling report section for these extended ranges: its tables (written to
/// `tables/huang_ling_*`) and figures (to `figures/`), as data.
pub fn report_section(options: &ReportOptions) -> Result<Section> {
    for (name, totals, step) in [
        ("balanced_totals", &options.balanced_totals, 2),
        ("quarter_totals", &options.quarter_totals, 4),
    ] {
        if let Some(total) = totals.iter().find(|&&t| t < 4 || t % step != 0) {
            return Err(Error::Option(format!(
                "Huang-Ling report: {name} contains {total}; allowed: multiples of {step}, at \
                 least 4"
            )));
        }
    }

    let comparisons = compare_published(&published()?)?;
    let tables = published_tables(&comparisons);

    let balanced_sizes: Vec<ClassSizes> = options
        .balanced_totals
        .iter()
        .map(|&total| ClassSizes {
            positives: total / 2,
            negatives: total / 2,
        })
        .collect();
    let quarter_sizes: Vec<ClassSizes> = options
        .quarter_totals
        .iter()
        .map(|&total| quarter_positives(total))
        .collect();
    let mut all_sizes = balanced_sizes.clone();
    all_sizes.extend(&quarter_sizes);
    let extended = exact_rows(&all_sizes)?;
    let (balanced, quarter) = extended.split_at(balanced_sizes.len());

    let mut tables = tables;
    tables.push(extended_table(balanced, quarter));
    let stems = [
        "huang_ling_table3",
        "huang_ling_table4",
        "huang_ling_table5",
        "huang_ling_table6",
        "huang_ling_table7",
        "huang_ling_extended",
    ];

    let counts_csv = exact_counts_csv(
        balanced.iter().chain(quarter).chain(
            comparisons
                .iter()
                .filter(|c| c.published.table == 7)
                .map(|c| &c.exact),
        ),
    );

    let exact: Vec<ExactRow> = comparisons.iter().map(|c| c.exact.clone()).collect();
    let reading = reading(&exact, balanced, quarter, &comparisons);
    Ok(Section {
        title: "Huang & Ling: consistency and discriminancy of AUC against accuracy".to_string(),
        reading,
        tables: stems
            .into_iter()
            .zip(tables)
            .map(|(stem, table)| SectionTable::new(stem, table))
            .collect(),
        figures: figures(&comparisons, balanced, quarter)?,
        links: vec![(
            format!("tables/{EXACT_COUNTS_FILE}"),
            "The exact counts R, S, P, Q of every configuration above, to 2n = 200 (CSV: \
             positives, negatives, R, S, P, Q)"
                .to_string(),
        )],
        files: vec![(format!("tables/{EXACT_COUNTS_FILE}"), counts_csv)],
        headline: None,
    })
}

/// The two figures, each series with the paper's printed values marked on it.
fn figures(
    comparisons: &[RowComparison],
    balanced: &[ExactRow],
    quarter: &[ExactRow],
) -> Result<Vec<Figure>> {
    let c_of: fn(&PublishedRow) -> Option<&PrintedRatio> = |row| row.c.as_ref();
    let d_of: fn(&PublishedRow) -> Option<&PrintedRatio> = |row| row.d.as_ref();
    let consistency_svg = figure(
        "Consistency C (Huang & Ling Figure 1, extended)",
        "C = R / (R + S)",
        LegendPosition::UpperRight,
        [
            (balanced, printed_points(comparisons, 3, c_of)),
            (quarter, printed_points(comparisons, 5, c_of)),
        ],
        ConsistencyCounts::consistency,
    )?;
    let discriminancy_svg = figure(
        "Discriminancy D (Huang & Ling Figure 2, extended)",
        "D = P / Q",
        LegendPosition::UpperLeft,
        [
            (balanced, printed_points(comparisons, 4, d_of)),
            (quarter, printed_points(comparisons, 6, d_of)),
        ],
        ConsistencyCounts::discriminancy,
    )?;
    Ok(vec![
        Figure {
            file: format!("{FIGURES}/{CONSISTENCY_FIGURE}"),
            caption: format!(
                "Consistency C against the number of examples, balanced and 25% positives, \
                 exact. {PRINTED_MARKS}"
            ),
            svg: consistency_svg,
        },
        Figure {
            file: format!("{FIGURES}/{DISCRIMINANCY_FIGURE}"),
            caption: format!(
                "Discriminancy D against the number of examples (2n = 4 balanced has D = inf \
                 and is not drawn), exact. {PRINTED_MARKS}"
            ),
            svg: discriminancy_svg,
        },
    ])
}

/// What the figures' large outlined dots are.
const PRINTED_MARKS: &str = "Large outlined dots: the values the paper prints (balanced: Tables 3 \
and 4; 25% positives: Tables 5 and 6), at the 2n of our reading of each row.";

/// The CSV of every configuration's exact counts, written beside the tables.
pub const EXACT_COUNTS_FILE: &str = "huang_ling_exact_counts.csv";

/// The exact counts as CSV (positives, negatives, R, S, P, Q), one row per configuration in
/// the order given, each configuration once.
fn exact_counts_csv<'a>(rows: impl Iterator<Item = &'a ExactRow>) -> String {
    let mut text = String::from("positives,negatives,R,S,P,Q\n");
    let mut seen = Vec::new();
    for row in rows {
        if seen.contains(&row.sizes) {
            continue;
        }
        seen.push(row.sizes);
        let c = &row.counts;
        text.push_str(&format!(
            "{},{},{},{},{},{}\n",
            row.sizes.positives, row.sizes.negatives, c.r, c.s, c.p, c.q
        ));
    }
    text
}

/// What the extended series show, stated only as far as the computed numbers bear it out.
fn trend_sentence(balanced: &[ExactRow], quarter: &[ExactRow]) -> String {
    let falls = |rows: &[ExactRow]| {
        rows.windows(2)
            .all(|w| w[1].counts.consistency() < w[0].counts.consistency())
    };
    let rises_from_8 = |rows: &[ExactRow]| {
        let tail: Vec<&ExactRow> = rows.iter().filter(|r| r.sizes.total() >= 8).collect();
        tail.windows(2)
            .all(|w| w[1].counts.discriminancy() > w[0].counts.discriminancy())
    };
    let mut text = String::new();
    if balanced.len() > 1 && quarter.len() > 1 {
        if falls(balanced) && falls(quarter) {
            text.push_str(" C falls steadily as 2n grows;");
        }
        if rises_from_8(balanced) && rises_from_8(quarter) {
            text.push_str(" from 2n = 8 on, D rises steadily (almost linearly in 2n);");
        }
    }
    // compare the two series at the totals they share (beyond 2n = 4, where both are trivial)
    let mut lower_c = 0;
    let mut higher_d = 0;
    let mut shared = 0;
    for q in quarter.iter().filter(|r| r.sizes.total() > 4) {
        if let Some(b) = balanced.iter().find(|b| b.sizes.total() == q.sizes.total()) {
            shared += 1;
            lower_c += usize::from(q.counts.consistency() < b.counts.consistency());
            higher_d += usize::from(q.counts.discriminancy() > b.counts.discriminancy());
        }
    }
    if shared > 0 && lower_c == shared && higher_d == shared {
        text.push_str(
            " with 25% positives C is lower and D higher than with balanced classes at every \
             shared 2n > 4.",
        );
    } else if text.ends_with(';') {
        text.pop();
        text.push('.');
    }
    text
}

/// The short reading of the section, from the computed numbers.
fn reading(
    published_rows: &[ExactRow],
    balanced: &[ExactRow],
    quarter: &[ExactRow],
    comparisons: &[RowComparison],
) -> String {
    let all = || published_rows.iter().chain(balanced).chain(quarter);
    let min_c = all()
        .map(|row| row.counts.consistency())
        .filter(|c| c.is_finite())
        .fold(f64::INFINITY, f64::min);
    let min_d = all()
        .map(|row| row.counts.discriminancy())
        .filter(|d| d.is_finite())
        .fold(f64::INFINITY, f64::min);
    let largest = all().map(|row| row.sizes.total()).max().unwrap_or(0);
    let last = |rows: &[ExactRow]| {
        rows.last().map(|row| {
            format!(
                "at 2n = {} C = {:.4} and D = {:.2}",
                row.sizes.total(),
                row.counts.consistency(),
                row.counts.discriminancy()
            )
        })
    };
    let mut text = published_reading(comparisons).trim_start().to_string();
    text.push_str(&format!(
        " Counted exactly over every ranking (accuracy from labelling the top n_p examples \
         positive), AUC is consistent with accuracy (C > 0.5) and more discriminating (D > 1) in \
         every configuration computed, up to 2n = {largest}: the smallest C is {min_c:.4} and the \
         smallest finite D is {min_d:.2}."
    ));
    text.push_str(&trend_sentence(balanced, quarter));
    if let Some(balanced_last) = last(balanced) {
        text.push_str(&format!(" Balanced: {balanced_last}."));
    }
    if let Some(quarter_last) = last(quarter) {
        text.push_str(&format!(" 25% positives: {quarter_last}."));
    }
    text
}

/// The comparison with the paper in words: the agreement figures of each table and every row
/// that differs, with its cause.
pub fn published_reading(comparisons: &[RowComparison]) -> String {
    let figures = agreement(comparisons);
    let (values_agreeing, values) = figures
        .iter()
        .fold((0, 0), |(a, n), t| (a + t.values_agreeing, n + t.values));
    let mut text = format!(
        " Beside the paper (the Thai retelling's Tables 3-7, every printed row): {} of {} printed values equal ours. {}.",
        values_agreeing,
        values,
        figures
            .iter()
            .map(TableAgreement::sentence)
            .collect::<Vec<_>>()
            .join("; ")
    );
    let differing: Vec<String> = comparisons
        .iter()
        .filter(|c| !c.agrees())
        .map(|c| format!("{}: {}", c.published.source, c.causes().join("; ")))
        .collect();
    if differing.is_empty() {
        text.push_str(" Every printed value equals the exact one.");
    } else {
        text.push_str(" Where they differ, the paper's own figures show the error: ");
        text.push_str(&differing.join(". "));
        text.push('.');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent brute force: every ranking as a bit mask (bit i = a positive at position i,
    /// 0 = top), then every unordered pair of rankings compared directly.
    fn brute_force(positives: usize, negatives: usize) -> (u64, u64, u64, u64) {
        let n = positives + negatives;
        let mut measures = Vec::new();
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize != positives {
                continue;
            }
            // correctly ordered (positive above negative) pairs
            let mut correct = 0;
            for i in 0..n {
                for j in i + 1..n {
                    if mask >> i & 1 == 1 && mask >> j & 1 == 0 {
                        correct += 1;
                    }
                }
            }
            // correct labels when the top `positives` are called positive
            let mut right = 0;
            for i in 0..n {
                let positive = mask >> i & 1 == 1;
                if positive == (i < positives) {
                    right += 1;
                }
            }
            measures.push((correct, right));
        }
        let (mut r, mut s, mut p, mut q) = (0, 0, 0, 0);
        for a in 0..measures.len() {
            for b in a + 1..measures.len() {
                let (auc_a, acc_a) = measures[a];
                let (auc_b, acc_b) = measures[b];
                let auc_order = auc_a.cmp(&auc_b);
                let acc_order = acc_a.cmp(&acc_b);
                use std::cmp::Ordering::Equal;
                match (auc_order, acc_order) {
                    (Equal, Equal) => {}
                    (Equal, _) => q += 1,
                    (_, Equal) => p += 1,
                    (x, y) if x == y => r += 1,
                    _ => s += 1,
                }
            }
        }
        (r, s, p, q)
    }

    fn as_u64(row: &ExactRow) -> (u64, u64, u64, u64) {
        let c = &row.counts;
        (
            count_u64(&c.r).unwrap(),
            count_u64(&c.s).unwrap(),
            count_u64(&c.p).unwrap(),
            count_u64(&c.q).unwrap(),
        )
    }

    #[test]
    fn exact_rows_match_an_independent_brute_force() {
        let mut configurations = Vec::new();
        for total in 2..=10 {
            for positives in 1..total {
                configurations.push(ClassSizes {
                    positives,
                    negatives: total - positives,
                });
            }
        }
        let rows = exact_rows(&configurations).unwrap();
        for row in &rows {
            let sizes = row.sizes;
            assert_eq!(
                as_u64(row),
                brute_force(sizes.positives, sizes.negatives),
                "{sizes:?}"
            );
        }
    }

    /// Exact counts from tests/data/huang_ling_reference.py (brute-force enumeration in Python).
    fn python_reference() -> Vec<(ClassSizes, (u64, u64, u64, u64))> {
        let json: serde_json::Value =
            serde_json::from_str(include_str!("../tests/data/huang_ling_reference.json")).unwrap();
        json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                let number = |key: &str| row[key].as_u64().unwrap();
                (
                    ClassSizes {
                        positives: number("positives") as usize,
                        negatives: number("negatives") as usize,
                    },
                    (number("r"), number("s"), number("p"), number("q")),
                )
            })
            .collect()
    }

    #[test]
    fn exact_counts_of_every_published_configuration_match_python() {
        let reference = python_reference();
        let sizes: Vec<ClassSizes> = reference.iter().map(|(sizes, _)| *sizes).collect();
        for (row, (sizes, counts)) in exact_rows(&sizes).unwrap().iter().zip(&reference) {
            assert_eq!(row.sizes, *sizes);
            assert_eq!(as_u64(row), *counts, "{sizes:?}");
        }
        // every published row's configuration is among them
        for row in published().unwrap() {
            assert!(sizes.contains(&row.sizes), "{}", row.source);
        }
    }

    /// A differing row: table, printed label, the values that differ, mislabelled.
    type Finding<'a> = (u8, &'a str, Vec<(&'a str, ValueCheck)>, bool);

    #[test]
    fn published_rows_are_judged_against_the_python_counts() {
        let comparisons = compare_published(&published().unwrap()).unwrap();
        assert_eq!(comparisons.len(), 31); // 9 + 9 + 4 + 4 + 5 rows of Tables 3-7
        let reference = python_reference();
        let python = |sizes: ClassSizes| reference.iter().find(|(s, _)| *s == sizes).unwrap().1;
        // What the Python counts say of the paper's figures, row by row: in Table 4 the D of
        // 2n = 8 is 762 / 52 = 14.654 (printed 14.4) and the D of 2n = 20 is 3,998,425,154 /
        // 185,536,518 = 21.5506 (printed 21.5, truncated); in Table 5 the row printed "6"
        // carries the counts of 2 + 6 and the R of 3 + 9 is 12,761 (printed 12,716).
        let differing: Vec<Finding> = comparisons
            .iter()
            .filter(|c| !c.agrees())
            .map(|c| {
                (
                    c.published.table,
                    c.published.printed.as_str(),
                    c.values
                        .iter()
                        .filter(|v| v.check != ValueCheck::Equal)
                        .map(|v| (v.name, v.check))
                        .collect(),
                    c.mislabelled.is_some(),
                )
            })
            .collect();
        assert_eq!(
            differing,
            vec![
                (4, "8", vec![("D", ValueCheck::Differs)], false),
                (4, "20", vec![("D", ValueCheck::Truncated)], false),
                (5, "6", vec![], true),
                (5, "12", vec![("R", ValueCheck::TransposedDigits)], false),
            ]
        );
        let (p, q) = (
            python(ClassSizes {
                positives: 4,
                negatives: 4,
            })
            .2,
            52,
        );
        assert_eq!(p, 762);
        assert!((p as f64 / q as f64 - 14.4).abs() > 0.05);
        let twenty = python(ClassSizes {
            positives: 10,
            negatives: 10,
        });
        let d = twenty.2 as f64 / twenty.3 as f64;
        assert!(d > 21.55 && d < 21.6, "{d}");
        assert_eq!(
            python(ClassSizes {
                positives: 3,
                negatives: 9
            })
            .0,
            12_761
        );
        // the mislabelled row: 2 + 6 is the only configuration with R = 187, S = 10
        let mislabelled = comparisons
            .iter()
            .find(|c| c.published.table == 5 && c.published.printed == "6")
            .unwrap();
        assert_eq!(
            mislabelled.mislabelled,
            Some(vec![ClassSizes {
                positives: 2,
                negatives: 6
            }])
        );
        assert_eq!(
            python(ClassSizes {
                positives: 2,
                negatives: 6
            })
            .0,
            187
        );
        let causes = mislabelled.causes().join(" ");
        assert!(causes.contains("2 + 6 (2n = 8)"), "{causes}");
        let figures = agreement(&comparisons);
        assert_eq!(
            figures
                .iter()
                .map(|t| (t.table, t.rows_agreeing, t.rows))
                .collect::<Vec<_>>(),
            vec![(3, 9, 9), (4, 7, 9), (5, 2, 4), (6, 4, 4), (7, 5, 5)]
        );
    }

    #[test]
    fn printed_numbers_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_count("11,733,729,456"), Some(11_733_729_456));
        let ratio = parse_ratio("0.991").unwrap();
        assert_eq!((ratio.value, ratio.decimals), (0.991, 3));
        assert_eq!(parse_ratio("∞").unwrap().value, f64::INFINITY);
        assert_eq!(parse_ratio("1").unwrap().decimals, 0);
        // 0.97723 rounds to 0.977; 21.5506 truncates to 21.5
        assert_eq!(
            check_ratio(&parse_ratio("0.977").unwrap(), 0.97723),
            ValueCheck::Equal
        );
        assert_eq!(
            check_ratio(&parse_ratio("21.5").unwrap(), 21.5506),
            ValueCheck::Truncated
        );
        assert_eq!(
            check_ratio(&parse_ratio("14.4").unwrap(), 14.654),
            ValueCheck::Differs
        );
        assert_eq!(check_count(12_716, 12_761), ValueCheck::TransposedDigits);
        assert_eq!(check_count(12_700, 12_761), ValueCheck::Differs);
        assert_eq!(with_thousands(11_733_729_456), "11,733,729,456");
        assert_eq!(with_thousands(766), "766");
        let bad = "[[rows]]\ntable = 3\nprinted = \"4\"\npositives = 2\nnegatives = 2\n\
                   r = \"nine\"\nsource = \"test row\"\n";
        let error = format!("{:#}", parse_published("test.toml", bad).unwrap_err());
        assert!(
            error.contains("test.toml") && error.contains("test row"),
            "{error}"
        );
        let bad_table = bad.replace("table = 3", "table = 9").replace("nine", "9");
        assert!(parse_published("test.toml", &bad_table).is_err());
    }

    #[test]
    fn makes_every_table_and_figure() {
        let options = ReportOptions {
            balanced_totals: vec![4, 6, 8, 10],
            quarter_totals: vec![4, 8, 12],
        };
        let section = report_section(&options).unwrap();
        assert_eq!(section.tables.len(), 6);
        assert_eq!(section.tables[0].table.rows.len(), 9); // 2n = 4..20
        assert_eq!(section.tables[2].table.rows.len(), 4); // 2n = 4, 8, 12, 16
        assert_eq!(section.tables[4].table.rows.len(), 5); // 1..5 positives of 10
        assert_eq!(section.tables[5].table.rows.len(), 7);
        let stems: Vec<&str> = section
            .tables
            .iter()
            .filter_map(|table| table.file.as_deref())
            .collect();
        for stem in [
            "huang_ling_table3",
            "huang_ling_table7",
            "huang_ling_extended",
        ] {
            assert!(stems.contains(&stem), "{stems:?}");
        }
        for figure in &section.figures {
            assert!(figure.file.starts_with("figures/"), "{}", figure.file);
            assert!(figure.svg.starts_with("<svg"));
        }
        // the exact counts file: one row per configuration, the paper's printed counts
        // (Table 3, 2n = 10: R = 19,742, S = 766; Table 7 has 1 to 5 positives of 10)
        let (file, csv) = &section.files[0];
        assert_eq!(file, "tables/huang_ling_exact_counts.csv");
        assert_eq!(section.links[0].0, *file);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "positives,negatives,R,S,P,Q");
        assert!(
            lines.iter().any(|l| l.starts_with("5,5,19742,766,")),
            "{csv}"
        );
        assert_eq!(lines.len(), 1 + 4 + 3 + 4); // 4 balanced, 3 quarter, Table 7's 5:5 shared
                                                // counts with thousands commas, as the paper prints them
        let table3 = &section.tables[0].table;
        assert_eq!(table3.rows[8][2].value_text(0), "11,733,729,456");
        assert_eq!(table3.rows[8][3].value_text(0), "11,733,729,456");
        // the long note once, under the first table only
        let with_note = section
            .tables
            .iter()
            .filter(|t| t.table.notes.iter().any(|n| n.contains("Thai paper")))
            .count();
        assert_eq!(with_note, 1);
        assert!(
            section.reading.contains("Table 3: 9 of 9 rows agree"),
            "{}",
            section.reading
        );
        assert!(report_section(&ReportOptions {
            balanced_totals: vec![5],
            quarter_totals: vec![],
        })
        .is_err());
    }
}
