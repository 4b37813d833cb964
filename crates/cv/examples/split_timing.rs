//! Measures how long making the splits takes on a large made-up class column:
//! `cargo run --release -p cv --example split_timing -- 100000`.

use std::time::Instant;

use cv::Strategy;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let instances: usize = match std::env::args().nth(1) {
        Some(text) => text.parse()?,
        None => 100_000,
    };
    // Three classes in proportions 6:3:1.
    let classes: Vec<u32> = (0..instances)
        .map(|row| match row % 10 {
            0..=5 => 0,
            6..=8 => 1,
            _ => 2,
        })
        .collect();
    let strategies = [
        Strategy::StratifiedKfold {
            folds: 10,
            repetitions: 10,
        },
        Strategy::FiveByTwo,
        Strategy::Aslan {
            test_fraction: 1.0 / 3.0,
            folds: 30,
        },
        Strategy::WuFlach {
            folds: 10,
            repetitions: 10,
        },
    ];
    for strategy in strategies {
        let start = Instant::now();
        let splits = strategy.splits(&classes, 1)?;
        let indices: usize = splits.iter().map(cv::Split::len).sum();
        println!(
            "{strategy}: {} splits, {indices} indices, {:.3} s",
            splits.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
