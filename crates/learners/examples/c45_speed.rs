//! Times C4.5 fit + predict on already-split training files, loaded once up front, repeating the
//! whole set of fits to take the best run (a steadier number than one pass of `predict`).
//!
//! `cargo run -p learners --example c45_speed -- [--repeat N] TEST TRAIN [TRAIN ...]`

use std::time::Instant;

use learners::{Model, C45};

fn main() {
    let mut arguments: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 5;
    if arguments.first().map(String::as_str) == Some("--repeat") && arguments.len() > 1 {
        repeat = arguments[1].parse().expect("--repeat takes a whole number");
        arguments.drain(..2);
    }
    if arguments.len() < 2 {
        eprintln!("usage: c45_speed [--repeat N] TEST TRAIN [TRAIN ...]");
        std::process::exit(2);
    }
    let options = data::LoadOptions::default();
    let load = |path: &str| data::load(path, &options).expect("a readable data file");
    let test = load(&arguments[0]);
    let trains: Vec<_> = arguments[1..].iter().map(|path| load(path)).collect();
    let features = test.view().features();
    let learner = C45::default();
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..repeat {
        let start = Instant::now();
        nodes = 0;
        for train in &trains {
            let model = learner.fit_tree(&train.view()).expect("a tree");
            nodes += model.num_nodes();
            let probabilities = model.predict_proba(&features).expect("prediction");
            std::hint::black_box(probabilities);
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "c45: {} models, best of {repeat}: {best:.3} s, mean size {:.1}",
        trains.len(),
        nodes as f64 / trains.len() as f64
    );
}
