//! Times k-NN with k selection under Aslan et al.'s protocol: 2/3 of the rows form a pool cut
//! into 30 folds, 1/3 is the test set; each of the 30 models trains on 29 folds, picks k from
//! {1, 3, 5, 7, 11, 21} on the remaining fold and scores the test set.
//!
//! `cargo run -p learners --example knn_speed -- FILE.csv [FILE.csv ...] [--search auto|linear|kd_tree] [--models N]`
//!
//! FILE: any file `data::load` reads (the shipped datasets/magic.csv and datasets/spambase.csv).

use std::time::Instant;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use learners::knn::{KSelection, KnnConfig, KnnLearner, SearchMethod};
use learners::Model;

/// CPU time of this (single-threaded) process so far, from Linux's /proc/self/schedstat:
/// wall time means little on a shared machine.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let nanoseconds: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanoseconds / 1e9)
}

fn main() {
    let mut files = Vec::new();
    let mut search = SearchMethod::Auto;
    let mut models = 30;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--search" => {
                search = match args.next().as_deref() {
                    Some("linear") => SearchMethod::Linear,
                    Some("kd_tree") => SearchMethod::KdTree,
                    _ => SearchMethod::Auto,
                }
            }
            "--models" => models = args.next().and_then(|n| n.parse().ok()).unwrap_or(30),
            _ => files.push(arg),
        }
    }
    for file in files {
        let dataset = match data::load(&file, &data::LoadOptions::default()) {
            Ok(dataset) => dataset,
            Err(error) => {
                eprintln!("{error}");
                std::process::exit(1);
            }
        };
        let mut order: Vec<usize> = (0..dataset.len()).collect();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(2009));
        let pool_size = dataset.len() * 2 / 3;
        let (pool, test_rows) = order.split_at(pool_size);
        let test = dataset.subset(test_rows.to_vec());
        let test_features = test.features();
        let learner = KnnLearner::new(KnnConfig {
            search,
            ..KnnConfig::default()
        });
        let started = Instant::now();
        let cpu_started = cpu_seconds();
        let mut chosen = Vec::new();
        let mut errors = Vec::new();
        let mut method = "";
        for fold in 0..models {
            let mut train_rows = Vec::new();
            let mut validation_rows = Vec::new();
            for (position, &row) in pool.iter().enumerate() {
                if position % 30 == fold % 30 {
                    validation_rows.push(row);
                } else {
                    train_rows.push(row);
                }
            }
            let train = dataset.subset(train_rows);
            let validation = dataset.subset(validation_rows);
            let model = learner
                .fit_knn(&train, Some(&validation), fold as u64)
                .expect("fit");
            assert!(matches!(
                model.selection(),
                KSelection::ProtocolValidation { .. }
            ));
            method = model.search_description();
            let predicted = model
                .predict_proba(&test_features)
                .expect("prediction")
                .predicted_classes();
            let wrong = predicted
                .iter()
                .enumerate()
                .filter(|(position, &class)| test.class(*position) != class)
                .count();
            errors.push(wrong as f64 / test.len() as f64);
            chosen.push(model.k());
        }
        let seconds = started.elapsed().as_secs_f64();
        let cpu = match (cpu_started, cpu_seconds()) {
            (Some(start), Some(end)) => format!(
                "{:.2} s CPU ({:.3} s per model), ",
                end - start,
                (end - start) / models as f64
            ),
            _ => String::new(),
        };
        println!(
            "{file}: {} rows x {} attributes; {models} models ({}), each {} train / ~{} validation / {} test rows: {cpu}{seconds:.2} s wall, {:.3} s per model; mean test error {:.4}; chosen k {:?}",
            dataset.len(),
            dataset.schema().num_attributes(),
            method,
            pool_size - pool_size / 30,
            pool_size / 30,
            test.len(),
            seconds / models as f64,
            errors.iter().sum::<f64>() / errors.len() as f64,
            chosen
        );
    }
}
