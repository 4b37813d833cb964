//! Interleaved timing of AUC, ROC curve and sAUC against a plain sort of the same scores, taking
//! the minimum of several repetitions (robust on a shared machine).
//! Run: `cargo run --release -p evaluate --example auc_speed -- 1000000 7`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use evaluate::{auc, roc_curve, scored_auc, BinaryScores};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(1_000_000);
    let repetitions = args.get(1).copied().unwrap_or(7);
    let mut generator = ChaCha8Rng::seed_from_u64(seeds::derive_seed(2026, &[n as u64]));
    let mut labels = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(n);
    for _ in 0..n {
        let positive = generator.random::<f64>() < 0.4;
        labels.push(positive);
        let shift = if positive { 0.2 } else { 0.0 };
        scores.push((generator.random::<f64>() * 0.8 + shift).min(1.0));
    }
    let data = BinaryScores::new(labels, scores.clone()).expect("valid scores");
    let mut best = [Duration::MAX; 4];
    for _ in 0..repetitions {
        let mut copy = scores.clone();
        let start = Instant::now();
        copy.sort_unstable_by(f64::total_cmp);
        best[0] = best[0].min(start.elapsed());
        black_box(&copy);
        let start = Instant::now();
        black_box(auc(&data).expect("two classes"));
        best[1] = best[1].min(start.elapsed());
        let start = Instant::now();
        black_box(roc_curve(&data).expect("two classes"));
        best[2] = best[2].min(start.elapsed());
        let start = Instant::now();
        black_box(scored_auc(&data).expect("two classes"));
        best[3] = best[3].min(start.elapsed());
    }
    let sort = best[0].as_secs_f64();
    for (name, time) in ["plain sort", "auc", "roc_curve", "scored_auc"]
        .iter()
        .zip(best)
    {
        println!(
            "n = {n}: {name:<11} {:>10.3} ms  ({:.2}x sort)",
            time.as_secs_f64() * 1e3,
            time.as_secs_f64() / sort
        );
    }
}
