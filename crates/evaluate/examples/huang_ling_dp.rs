//! Times the exact dynamic program for Huang & Ling's AUC-vs-accuracy counts.
//! Run: `cargo run --release -p evaluate --example huang_ling_dp -- 200 300`
//! (arguments: totals 2n; each is timed balanced, n + n, and with 25% positives,
//! 2n/4 + 3(2n)/4 for totals divisible by 4; default 100 and 200).

use std::time::Instant;

use evaluate::RankingHistogram;

fn main() {
    let totals: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let totals = if totals.is_empty() {
        vec![100, 200]
    } else {
        totals
    };
    for total in totals {
        let mut series = vec![("balanced", total / 2, total - total / 2)];
        if total % 4 == 0 {
            series.push(("25% positives", total / 4, total - total / 4));
        }
        for (name, n_pos, n_neg) in series {
            let start = Instant::now();
            let histogram = match RankingHistogram::by_dynamic_program(n_pos, n_neg) {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            };
            let built = start.elapsed();
            let counts = histogram.auc_vs_accuracy();
            let all = start.elapsed();
            println!(
                "2n = {total} {name} ({n_pos}+{n_neg}): histogram {built:.2?}, counts {:.2?}, \
                 total {all:.2?}; C = {:.6}, D = {:.6}; R has {} bits",
                all - built,
                counts.consistency(),
                counts.discriminancy(),
                counts.r.bits()
            );
        }
    }
}
