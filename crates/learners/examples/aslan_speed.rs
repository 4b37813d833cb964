//! Times C4.5 on the Aslan et al. protocol: 30 models, each trained on 29/30 of `rest.arff`
//! (the block of fold i left out, as Weka's `trainCV(30, i)`), each scoring all of `test.arff`.
//! Prints the time, mean accuracy and mean tree size, to compare with Weka's J48 doing the same.
//!
//! `cargo run --release -p learners --example aslan_speed -- rest.arff test.arff [key=value ...]`

#[path = "../tests/common/arff.rs"]
mod arff;

use std::time::Instant;

use learners::{Model, C45};

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    if arguments.len() < 2 {
        eprintln!("usage: aslan_speed rest.arff test.arff");
        std::process::exit(2);
    }
    let read = |path: &str| {
        let text = std::fs::read_to_string(path).expect("readable ARFF file");
        arff::parse_arff(path, &text)
    };
    let rest = read(&arguments[0]);
    let test = read(&arguments[1]);
    let learner = C45::default();
    let features = test.view().features();
    let folds = 30;
    let n = rest.len();
    let start = Instant::now();
    let mut correct = 0usize;
    let mut nodes = 0usize;
    for fold in 0..folds {
        // Weka's Instances.trainCV: fold sizes n / folds, the first n % folds one larger.
        let size = n / folds + usize::from(fold < n % folds);
        let first = fold * (n / folds) + fold.min(n % folds);
        let rows: Vec<usize> = (0..first).chain(first + size..n).collect();
        let model = learner.fit_tree(&rest.subset(rows)).expect("a tree");
        nodes += model.num_nodes();
        let probabilities = model.predict_proba(&features).expect("prediction");
        correct += probabilities
            .predicted_classes()
            .iter()
            .enumerate()
            .filter(|(row, &class)| test.class(*row) == class)
            .count();
    }
    println!(
        "ours c45: {folds} models {:.2} s, mean accuracy {:.4}, mean size {:.1}",
        start.elapsed().as_secs_f64(),
        correct as f64 / folds as f64 / test.len() as f64,
        nodes as f64 / folds as f64
    );
}
