//! Times the exact dynamic program for Huang & Ling's AUC-vs-accuracy counts on balanced classes.
//! Run: `cargo run --release -p evaluate --example huang_ling_dp -- 50 100`
//! (arguments: numbers of positives = negatives; default 50 and 100, i.e. 2n = 100 and 200).

use std::time::Instant;

use evaluate::RankingHistogram;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![50, 100]
    } else {
        sizes
    };
    for n in sizes {
        let start = Instant::now();
        let histogram = match RankingHistogram::by_dynamic_program(n, n) {
            Ok(h) => h,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        let built = start.elapsed();
        let counts = histogram.auc_vs_accuracy();
        let total = start.elapsed();
        println!(
            "2n = {}: histogram {:.2?}, counts {:.2?}, total {:.2?}; C = {:.6}, D = {:.6}; R has {} bits",
            2 * n,
            built,
            total - built,
            total,
            counts.consistency(),
            counts.discriminancy(),
            counts.r.bits()
        );
    }
}
