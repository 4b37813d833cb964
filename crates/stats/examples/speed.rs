//! Timings of the heavier functions (run with `cargo run -p stats --example speed`).
//! Speed is measured here, never in unit tests.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

fn time<T>(label: &str, repeats: u32, mut work: impl FnMut() -> T) {
    let start = Instant::now();
    for _ in 0..repeats {
        std::hint::black_box(work());
    }
    println!("{label:<55} {:>12.3?} per call", start.elapsed() / repeats);
}

fn main() {
    let mut generator = ChaCha8Rng::seed_from_u64(1);
    for n in [1_000usize, 100_000, 1_000_000] {
        let labels: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
        let score1: Vec<f64> = labels
            .iter()
            .map(|l| generator.sample::<f64, _>(StandardNormal) + if *l { 1.0 } else { 0.0 })
            .collect();
        let score2: Vec<f64> = score1
            .iter()
            .map(|s| s + 0.5 * generator.sample::<f64, _>(StandardNormal))
            .collect();
        let repeats = if n >= 1_000_000 { 2 } else { 10 };
        time(&format!("delong_test n = {n}"), repeats, || {
            stats::delong_test(&labels, &score1, &score2, 0.05).unwrap()
        });
    }
    time("studentized_range_sf(q = 3.5, k = 10)", 200, || {
        stats::distributions::studentized_range_sf(3.5, 10)
    });
    time("nemenyi_q(k = 10, alpha = 0.05) (quantile)", 20, || {
        stats::nemenyi_q(10, 0.05).unwrap()
    });
    let a: Vec<f64> = (0..30)
        .map(|_| 0.8 + 0.05 * generator.sample::<f64, _>(StandardNormal))
        .collect();
    let b: Vec<f64> = a
        .iter()
        .map(|x| x - 0.01 + 0.02 * generator.sample::<f64, _>(StandardNormal))
        .collect();
    time(
        "bayesian_signed_rank_test 30 data sets, 50 000 samples",
        3,
        || stats::bayesian_signed_rank_test(&a, &b, 0.01, 0.5, 50_000, 7).unwrap(),
    );
    let x: Vec<f64> = (0..50)
        .map(|i| i as f64 * 0.37 + 0.001 * i as f64 * i as f64)
        .collect();
    let y: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, v)| v + if i % 2 == 0 { 0.1 } else { -0.2 } * (i as f64 + 1.0) / 50.0)
        .collect();
    time("wilcoxon exact, 50 pairs", 100, || {
        stats::wilcoxon_signed_rank(
            &x,
            &y,
            stats::ZeroMethod::Wilcox,
            false,
            stats::WilcoxonMethod::Auto,
            0.05,
        )
        .unwrap()
    });
    let labels: Vec<bool> = (0..2000).map(|i| i % 2 == 0).collect();
    let scores: Vec<f64> = labels
        .iter()
        .map(|l| generator.sample::<f64, _>(StandardNormal) + if *l { 0.8 } else { 0.0 })
        .collect();
    time("bootstrap_auc_interval n = 2000, 1000 resamples", 2, || {
        stats::bootstrap_auc_interval(&labels, &scores, 1000, 0.05, 3).unwrap()
    });
    time("cortes_mohri_moments(5000, 5000, 1000)", 100, || {
        stats::cortes_mohri_moments(5000, 5000, 1000).unwrap()
    });
}
