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

// Some public items serve only the timing example (experiments/examples/huang_ling_timing.rs),
// which includes this file by path.
#![allow(dead_code)]

use std::path::Path;
use std::time::Instant;

use engine::config::ExperimentConfig;
use engine::{bail, write_table, Analysis, AnalysisContext, Context, Plan, Result};
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

/// Numbers printed in a paper for one configuration; `None` where the value is not available.
/// Real-valued entries keep the number of decimals they were printed with.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct PublishedRow {
    /// The configuration.
    #[serde(flatten)]
    pub sizes: ClassSizes,
    /// Published R.
    pub r: Option<u64>,
    /// Published S.
    pub s: Option<u64>,
    /// Published P.
    pub p: Option<u64>,
    /// Published Q.
    pub q: Option<u64>,
    /// Published C and its printed decimals.
    pub c: Option<(f64, usize)>,
    /// Published D and its printed decimals.
    pub d: Option<(f64, usize)>,
    /// Where the numbers come from.
    pub source: String,
}

/// The published values available to us (`data/huang_ling.toml`).
pub fn published() -> Result<Vec<PublishedRow>> {
    /// The data file: one row per configuration.
    #[derive(serde::Deserialize)]
    struct Published {
        rows: Vec<PublishedRow>,
    }
    let file: Published = toml::from_str(include_str!("../data/huang_ling.toml"))
        .context("papers/data/huang_ling.toml")?;
    Ok(file.rows)
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

    fn sections(&self, context: &AnalysisContext) -> Result<Vec<engine::Section>> {
        Ok(vec![write_report(context.folder)?])
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
        .with_context(|| {
            format!(
                "Huang-Ling counts for {} positives and {} negatives",
                sizes.positives, sizes.negatives
            )
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

/// Whether a published value agrees with the exact one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// Nothing published for this value.
    NotAvailable,
    /// Equal (counts), or equal after rounding to the printed decimals (C, D).
    Agrees,
    /// Differs from the exact value.
    Differs,
}

/// An exact count (a big integer from `evaluate`) as u64, if it fits (every count of the
/// published range does).
fn count_u64<T: std::fmt::Display>(count: &T) -> Option<u64> {
    count.to_string().parse().ok()
}

/// Compares a published count with the exact one.
fn compare_count(published: Option<u64>, exact: Option<u64>) -> Agreement {
    match published {
        None => Agreement::NotAvailable,
        Some(value) if Some(value) == exact => Agreement::Agrees,
        Some(_) => Agreement::Differs,
    }
}

/// Compares a published ratio, printed with `decimals` decimals, with the exact ratio: it agrees
/// when the exact value rounds to it (half a unit of the last printed digit).
fn compare_ratio(published: Option<(f64, usize)>, exact: f64) -> Agreement {
    let Some((value, decimals)) = published else {
        return Agreement::NotAvailable;
    };
    let agrees = if exact.is_finite() && value.is_finite() {
        let half_unit = 0.5 * 10f64.powi(-(decimals as i32));
        (exact - value).abs() <= half_unit * (1.0 + 1e-9)
    } else {
        exact == value
    };
    if agrees {
        Agreement::Agrees
    } else {
        Agreement::Differs
    }
}

/// The published row for a configuration, if any.
fn published_for(published: &[PublishedRow], sizes: ClassSizes) -> Option<&PublishedRow> {
    published.iter().find(|row| row.sizes == sizes)
}

/// Every published value of `published` that cannot be right, in words: values that differ from
/// the exact counts, and printed C or D that do not follow from the printed counts.
pub fn published_problems(published: &PublishedRow, exact: &ExactRow) -> Vec<String> {
    let sizes = exact.sizes;
    let label = format!(
        "2n = {} ({} + {})",
        sizes.total(),
        sizes.positives,
        sizes.negatives
    );
    let counts = &exact.counts;
    let mut problems = Vec::new();
    for (name, value, exact_value) in [
        ("R", published.r, &counts.r),
        ("S", published.s, &counts.s),
        ("P", published.p, &counts.p),
        ("Q", published.q, &counts.q),
    ] {
        if compare_count(value, count_u64(exact_value)) == Agreement::Differs {
            problems.push(format!(
                "{label}: published {name} = {} but the exact count is {exact_value}",
                value.unwrap_or_default()
            ));
        }
    }
    for (name, value, exact_value) in [
        ("C", published.c, counts.consistency()),
        ("D", published.d, counts.discriminancy()),
    ] {
        if compare_ratio(value, exact_value) == Agreement::Differs {
            let (value, decimals) = value.unwrap_or((f64::NAN, 0));
            problems.push(format!(
                "{label}: published {name} = {value:.decimals$} but the exact value is {exact_value:.6}"
            ));
        }
    }
    // the printed ratio against the printed counts (a typo in one of them shows here)
    let implied_c = match (published.r, published.s) {
        (Some(r), Some(s)) if r + s > 0 => Some(r as f64 / (r + s) as f64),
        _ => None,
    };
    let implied_d = match (published.p, published.q) {
        (Some(p), Some(q)) if q > 0 => Some(p as f64 / q as f64),
        _ => None,
    };
    for (name, printed, implied, from) in [
        ("C", published.c, implied_c, "R / (R + S)"),
        ("D", published.d, implied_d, "P / Q"),
    ] {
        if let (Some(_), Some(implied)) = (printed, implied) {
            if compare_ratio(printed, implied) == Agreement::Differs {
                let (value, decimals) = printed.unwrap_or((f64::NAN, 0));
                problems.push(format!(
                    "{label}: published {name} = {value:.decimals$} does not follow from the \
                     published {from} = {implied:.6}"
                ));
            }
        }
    }
    problems
}

/// Text of the "check" column: empty when nothing is published, otherwise "agrees" or the names
/// of the values that differ.
fn check_text(published: Option<&PublishedRow>, exact: &ExactRow, names: &[&str]) -> String {
    let Some(published) = published else {
        return String::new();
    };
    let counts = &exact.counts;
    let mut differing = Vec::new();
    let mut any = false;
    for &name in names {
        let agreement = match name {
            "R" => compare_count(published.r, count_u64(&counts.r)),
            "S" => compare_count(published.s, count_u64(&counts.s)),
            "P" => compare_count(published.p, count_u64(&counts.p)),
            "Q" => compare_count(published.q, count_u64(&counts.q)),
            "C" => compare_ratio(published.c, counts.consistency()),
            _ => compare_ratio(published.d, counts.discriminancy()),
        };
        any |= agreement != Agreement::NotAvailable;
        if agreement == Agreement::Differs {
            differing.push(name);
        }
    }
    match (any, differing.is_empty()) {
        (false, _) => String::new(),
        (true, true) => "agrees".to_string(),
        (true, false) => format!("differs: {}", differing.join(", ")),
    }
}

fn count_cell(count: &impl std::fmt::Display) -> Cell {
    match count_u64(count).and_then(|value| i64::try_from(value).ok()) {
        Some(value) => Cell::integer(value),
        None => Cell::text(count.to_string()),
    }
}

fn optional_count_cell(value: Option<u64>) -> Cell {
    match value.and_then(|value| i64::try_from(value).ok()) {
        Some(value) => Cell::integer(value),
        None => Cell::empty(),
    }
}

fn optional_ratio_cell(value: Option<(f64, usize)>) -> Cell {
    match value {
        Some((value, decimals)) => Cell::number(value).with_decimals(decimals),
        None => Cell::empty(),
    }
}

const C_DECIMALS: usize = 4;
const D_DECIMALS: usize = 3;

fn headers(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

const PUBLISHED_NOTE: &str = "Empty 'published' cells: not available to us. The paper's Tables \
3-7 (and the Thai paper's retelling) were not found in any source we could search; only the \
worked examples for 2n = 4 and 6 (R, S, P, Q) are quoted. 'check' compares a published value \
with the exact one (counts exactly; C and D after rounding to the printed decimals).";

/// A consistency table (R, S, C) beside the published values, as the paper's Tables 3 and 5.
fn consistency_table(title: &str, rows: &[ExactRow], published: &[PublishedRow]) -> Table {
    let mut table = Table::new(
        title,
        headers(&[
            "2n",
            "positives",
            "negatives",
            "R",
            "S",
            "C",
            "R published",
            "S published",
            "C published",
            "check",
        ]),
    );
    table.decimals = C_DECIMALS;
    for row in rows {
        let paper = published_for(published, row.sizes);
        let counts = &row.counts;
        table.push_row(vec![
            Cell::integer(row.sizes.total() as i64),
            Cell::integer(row.sizes.positives as i64),
            Cell::integer(row.sizes.negatives as i64),
            count_cell(&counts.r),
            count_cell(&counts.s),
            Cell::number(counts.consistency()),
            optional_count_cell(paper.and_then(|p| p.r)),
            optional_count_cell(paper.and_then(|p| p.s)),
            optional_ratio_cell(paper.and_then(|p| p.c)),
            Cell::text(check_text(paper, row, &["R", "S", "C"])),
        ]);
    }
    table.push_note(
        "R, S: unordered pairs of rankings that AUC and accuracy order the same way / oppositely; \
         C = R / (R + S). Exact counts by dynamic program.",
    );
    table.push_note(PUBLISHED_NOTE);
    table
}

/// A discriminancy table (P, Q, D) beside the published values, as the paper's Tables 4 and 6.
fn discriminancy_table(title: &str, rows: &[ExactRow], published: &[PublishedRow]) -> Table {
    let mut table = Table::new(
        title,
        headers(&[
            "2n",
            "positives",
            "negatives",
            "P",
            "Q",
            "D",
            "P published",
            "Q published",
            "D published",
            "check",
        ]),
    );
    table.decimals = D_DECIMALS;
    for row in rows {
        let paper = published_for(published, row.sizes);
        let counts = &row.counts;
        table.push_row(vec![
            Cell::integer(row.sizes.total() as i64),
            Cell::integer(row.sizes.positives as i64),
            Cell::integer(row.sizes.negatives as i64),
            count_cell(&counts.p),
            count_cell(&counts.q),
            Cell::number(counts.discriminancy()),
            optional_count_cell(paper.and_then(|p| p.p)),
            optional_count_cell(paper.and_then(|p| p.q)),
            optional_ratio_cell(paper.and_then(|p| p.d)),
            Cell::text(check_text(paper, row, &["P", "Q", "D"])),
        ]);
    }
    table.push_note(
        "P: pairs AUC separates and accuracy ties; Q: pairs accuracy separates and AUC ties; \
         D = P / Q ('inf' where Q = 0: no pair is separated by accuracy alone).",
    );
    table.push_note(PUBLISHED_NOTE);
    table
}

/// Table 7: ten examples with 1 to 5 positives, all six numbers.
fn ten_examples_table(rows: &[ExactRow], published: &[PublishedRow]) -> Table {
    let mut table = Table::new(
        "Table 7: 10 examples with 1 to 5 positives, exact counts",
        headers(&[
            "positives",
            "negatives",
            "R",
            "S",
            "C",
            "P",
            "Q",
            "D",
            "check",
        ]),
    );
    table.decimals = D_DECIMALS;
    for row in rows {
        let paper = published_for(published, row.sizes);
        let counts = &row.counts;
        table.push_row(vec![
            Cell::integer(row.sizes.positives as i64),
            Cell::integer(row.sizes.negatives as i64),
            count_cell(&counts.r),
            count_cell(&counts.s),
            Cell::number(counts.consistency()).with_decimals(C_DECIMALS),
            count_cell(&counts.p),
            count_cell(&counts.q),
            Cell::number(counts.discriminancy()),
            Cell::text(check_text(paper, row, &["R", "S", "C", "P", "Q", "D"])),
        ]);
    }
    table.push_note(
        "With one positive, accuracy is 1 when the positive is ranked first and (n - 2) / n \
         otherwise, while AUC takes every value: S = Q = 0, so C = 1 and D = inf.",
    );
    table.push_note(PUBLISHED_NOTE);
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

fn figure(
    title: &str,
    y_label: &str,
    legend: LegendPosition,
    balanced: &[ExactRow],
    quarter: &[ExactRow],
    value: impl Fn(&ConsistencyCounts) -> f64 + Copy,
) -> Result<String> {
    let mut options = PlotOptions::new(title, "number of examples 2n", y_label);
    options.legend = legend;
    let mut curves = Vec::new();
    for (label, rows, color) in [
        ("balanced", balanced, PALETTE[0]),
        ("25% positives", quarter, PALETTE[1]),
    ] {
        let mut curve = Curve::new(label, series(rows, value), color);
        curve.show_points = true;
        curves.push(curve);
    }
    Ok(report::line_plot(&options, &curves)?)
}

/// File names written into the output folder.
pub const CONSISTENCY_FIGURE: &str = "huang_ling_consistency.svg";
/// File name of the discriminancy figure.
pub const DISCRIMINANCY_FIGURE: &str = "huang_ling_discriminancy.svg";

/// Writes the Huang & Ling section with the default extended range (2n up to 200).
pub fn write_report(out_dir: &Path) -> Result<Section> {
    write_report_with(out_dir, &ReportOptions::default())
}

/// The folder under a report's folder that holds the figures (the tables go to `tables/`).
pub const FIGURES: &str = "figures";

/// Writes the tables (.md, .csv, .tex) into `out_dir/tables/` and the figures (.svg) into
/// `out_dir/figures/`, and returns the section (figure paths relative to `out_dir`).
pub fn write_report_with(out_dir: &Path, options: &ReportOptions) -> Result<Section> {
    for (name, totals, step) in [
        ("balanced_totals", &options.balanced_totals, 2),
        ("quarter_totals", &options.quarter_totals, 4),
    ] {
        if let Some(total) = totals.iter().find(|&&t| t < 4 || t % step != 0) {
            bail!(
                "Huang-Ling report: {name} contains {total}; allowed: multiples of {step}, at least 4"
            );
        }
    }
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;

    let paper = published()?;
    let published_rows = published_range_rows()?;
    let (balanced_rows, rest) = published_rows.split_at(balanced_published_range().len());
    let (quarter_rows, ten_rows) = rest.split_at(quarter_published_range().len());

    let tables = vec![
        consistency_table(
            "Table 3: consistency of AUC and accuracy, balanced classes",
            balanced_rows,
            &paper,
        ),
        discriminancy_table(
            "Table 4: discriminancy of AUC over accuracy, balanced classes",
            balanced_rows,
            &paper,
        ),
        consistency_table(
            "Table 5: consistency of AUC and accuracy, 25% positives",
            quarter_rows,
            &paper,
        ),
        discriminancy_table(
            "Table 6: discriminancy of AUC over accuracy, 25% positives",
            quarter_rows,
            &paper,
        ),
        ten_examples_table(ten_rows, &paper),
    ];

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
    for (stem, table) in stems.iter().zip(&tables) {
        write_table(&out_dir.join("tables"), stem, table)?;
    }

    let consistency_svg = figure(
        "Consistency C (Huang & Ling Figure 1, extended)",
        "C = R / (R + S)",
        LegendPosition::UpperRight,
        balanced,
        quarter,
        ConsistencyCounts::consistency,
    )?;
    report::write_file(
        &out_dir.join(FIGURES).join(CONSISTENCY_FIGURE),
        &consistency_svg,
    )?;
    let discriminancy_svg = figure(
        "Discriminancy D (Huang & Ling Figure 2, extended)",
        "D = P / Q",
        LegendPosition::UpperLeft,
        balanced,
        quarter,
        ConsistencyCounts::discriminancy,
    )?;
    report::write_file(
        &out_dir.join(FIGURES).join(DISCRIMINANCY_FIGURE),
        &discriminancy_svg,
    )?;

    let mut problems = Vec::new();
    for row in &published_rows {
        if let Some(paper) = published_for(&paper, row.sizes) {
            problems.extend(published_problems(paper, row));
        }
    }
    let reading = reading(&published_rows, balanced, quarter, &problems);
    Ok(Section {
        title: "Huang & Ling: consistency and discriminancy of AUC against accuracy".to_string(),
        reading,
        tables,
        figures: vec![
            (
                format!("{FIGURES}/{CONSISTENCY_FIGURE}"),
                "Consistency C against the number of examples, balanced and 25% positives, exact."
                    .to_string(),
            ),
            (
                format!("{FIGURES}/{DISCRIMINANCY_FIGURE}"),
                "Discriminancy D against the number of examples (2n = 4 balanced has D = inf and \
                 is not drawn), exact."
                    .to_string(),
            ),
        ],
        links: Vec::new(),
    })
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
    problems: &[String],
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
    let mut text = format!(
        "Counted exactly over every ranking (accuracy from labelling the top n_p examples \
         positive), AUC is consistent with accuracy (C > 0.5) and more discriminating (D > 1) in \
         every configuration computed, up to 2n = {largest}: the smallest C is {min_c:.4} and the \
         smallest finite D is {min_d:.2}."
    );
    text.push_str(&trend_sentence(balanced, quarter));
    if let Some(balanced_last) = last(balanced) {
        text.push_str(&format!(" Balanced: {balanced_last}."));
    }
    if let Some(quarter_last) = last(quarter) {
        text.push_str(&format!(" 25% positives: {quarter_last}."));
    }
    text.push_str(
        " Published numbers: the paper's Tables 3-7 (and the Thai paper's retelling of them) \
         could not be found in any source available to us, so no table value is compared; only \
         Huang & Ling's worked examples for 2n = 4 and 6 are, and ",
    );
    if problems.is_empty() {
        text.push_str("they agree with the exact counts.");
    } else {
        text.push_str("these differ: ");
        text.push_str(&problems.join("; "));
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

    #[test]
    fn worked_examples_agree_and_a_wrong_value_is_reported() {
        for paper in &published().unwrap() {
            let row = exact_row(paper.sizes).unwrap();
            assert!(published_problems(paper, &row).is_empty(), "{paper:?}");
        }
        let row = exact_row(ClassSizes {
            positives: 4,
            negatives: 4,
        })
        .unwrap();
        // brute force gives R = 1459, S = 34; C = 0.97723 rounds to 0.977
        let (r, s, _, _) = brute_force(4, 4);
        let right = PublishedRow {
            sizes: row.sizes,
            r: Some(r),
            s: Some(s),
            p: None,
            q: None,
            c: Some((0.977, 3)),
            d: None,
            source: "test".into(),
        };
        assert!(published_problems(&right, &row).is_empty());
        let wrong = PublishedRow {
            s: Some(s + 1),
            c: Some((0.978, 3)),
            ..right.clone()
        };
        let problems = published_problems(&wrong, &row);
        // S differs, C differs, and C does not follow from the printed R and S
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert_eq!(
            check_text(Some(&wrong), &row, &["R", "S", "C"]),
            "differs: S, C"
        );
        assert_eq!(check_text(Some(&right), &row, &["R", "S", "C"]), "agrees");
        assert_eq!(check_text(None, &row, &["R", "S", "C"]), "");
    }

    #[test]
    fn writes_every_table_and_figure() {
        let folder =
            std::env::temp_dir().join(format!("huang_ling_report_test_{}", std::process::id()));
        let options = ReportOptions {
            balanced_totals: vec![4, 6, 8, 10],
            quarter_totals: vec![4, 8, 12],
        };
        let section = write_report_with(&folder, &options).unwrap();
        assert_eq!(section.tables.len(), 6);
        assert_eq!(section.tables[0].rows.len(), 9); // 2n = 4..20
        assert_eq!(section.tables[2].rows.len(), 4); // 2n = 4, 8, 12, 16
        assert_eq!(section.tables[4].rows.len(), 5); // 1..5 positives of 10
        assert_eq!(section.tables[5].rows.len(), 7);
        for stem in [
            "huang_ling_table3",
            "huang_ling_table7",
            "huang_ling_extended",
        ] {
            for extension in ["md", "csv", "tex"] {
                assert!(folder
                    .join("tables")
                    .join(format!("{stem}.{extension}"))
                    .is_file());
            }
        }
        for (file, _) in &section.figures {
            let svg = std::fs::read_to_string(folder.join(file)).unwrap();
            assert!(svg.starts_with("<svg"));
        }
        assert!(section.reading.contains("agree with the exact counts"));
        assert!(write_report_with(
            &folder,
            &ReportOptions {
                balanced_totals: vec![5],
                quarter_totals: vec![],
            }
        )
        .is_err());
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
