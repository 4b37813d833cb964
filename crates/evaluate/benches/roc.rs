//! AUC, ROC curve and scored AUC on 1e4, 1e6 and 1e7 scores beside a plain sort of the same scores.
//! Run: `cargo bench -p evaluate --bench roc` (set EVALUATE_BENCH_SIZES=10000,1000000 to choose sizes).

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use evaluate::{auc, roc_curve, scored_auc, BinaryScores};
use std::hint::black_box;
use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn data(n: usize) -> BinaryScores {
    let mut generator = ChaCha8Rng::seed_from_u64(seeds::derive_seed(2026, &[n as u64]));
    let mut labels = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(n);
    for _ in 0..n {
        let positive = generator.random::<f64>() < 0.4;
        labels.push(positive);
        // overlapping classes, continuous scores in (0, 1)
        let shift = if positive { 0.2 } else { 0.0 };
        scores.push((generator.random::<f64>() * 0.8 + shift).min(1.0));
    }
    BinaryScores::new(labels, scores).expect("valid scores")
}

fn sizes() -> Vec<usize> {
    std::env::var("EVALUATE_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000, 1_000_000, 10_000_000])
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("roc");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for n in sizes() {
        let scores = data(n);
        group.bench_with_input(BenchmarkId::new("plain_sort", n), &scores, |b, d| {
            b.iter_batched_ref(
                || d.scores().to_vec(),
                |v| v.sort_unstable_by(f64::total_cmp),
                BatchSize::LargeInput,
            )
        });
        group.bench_with_input(BenchmarkId::new("auc", n), &scores, |b, d| {
            b.iter(|| black_box(auc(d).expect("two classes")))
        });
        group.bench_with_input(BenchmarkId::new("roc_curve", n), &scores, |b, d| {
            b.iter(|| black_box(roc_curve(d).expect("two classes")))
        });
        group.bench_with_input(BenchmarkId::new("scored_auc", n), &scores, |b, d| {
            b.iter(|| black_box(scored_auc(d).expect("two classes")))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
