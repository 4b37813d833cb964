//! Times the Huang & Ling counts: every configuration of the paper's Tables 3-7 (goal: under a
//! second), the balanced 2n = 200 alone (goal: under a minute), and the whole report section
//! with its default extended range (its tables and figures, as data).
//!
//! Run: `cargo run --release -p papers --example huang_ling_timing`

use std::time::Instant;

use papers::huang_ling::ReportOptions;
use papers::huang_ling::{exact_row, published_range_rows, report_section, ClassSizes};

fn main() -> papers::Result<()> {
    println!("rayon threads: {}", rayon::current_num_threads());

    let start = Instant::now();
    let rows = published_range_rows()?;
    let published_range = start.elapsed();
    let sequential: f64 = rows.iter().map(|row| row.seconds).sum();
    println!(
        "published range (Tables 3-7, {} configurations, largest 2n = 20): {:.3?} wall, \
         {sequential:.4} s summed over configurations",
        rows.len(),
        published_range
    );

    let row = exact_row(ClassSizes {
        positives: 100,
        negatives: 100,
    })?;
    println!(
        "balanced 2n = 200 alone: {:.2} s; C = {:.6}, D = {:.6}",
        row.seconds,
        row.counts.consistency(),
        row.counts.discriminancy()
    );

    let start = Instant::now();
    let section = report_section(&ReportOptions::default())?;
    println!(
        "whole section (default range to 2n = 200, {} tables, {} figures): {:.2?}",
        section.tables.len(),
        section.figures.len(),
        start.elapsed()
    );
    println!("reading: {}", section.reading);
    Ok(())
}
