//! Prints the C4.5 tree for an ARFF file and, given a test file, the class probabilities of its
//! rows (to compare with Weka's `J48 -t train.arff -T test.arff -p 0 -distribution`).
//!
//! `cargo run -p learners --example c45_tree -- train.arff [test.arff] [key=value ...]`

#[path = "../tests/common/arff.rs"]
mod arff;

use learners::build_learner;

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let (files, settings): (Vec<&String>, Vec<&String>) =
        arguments.iter().partition(|a| !a.contains('='));
    let Some(train_path) = files.first() else {
        eprintln!("usage: c45_tree train.arff [test.arff] [key=value ...]");
        std::process::exit(2);
    };
    let mut table: toml::Table = settings
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("\n")
        .parse()
        .expect("settings as key=value in TOML syntax");
    if !table.contains_key("kind") {
        table.insert("kind".into(), toml::Value::String("c45".into()));
    }
    let learner = build_learner(&table).expect("valid learner settings");
    let read = |path: &str| {
        let text = std::fs::read_to_string(path).expect("readable ARFF file");
        arff::parse_arff(path, &text)
    };
    let train = read(train_path);
    let model = learner.fit(&train.view(), 1).expect("a fitted model");
    println!("{}", model.explain(train.schema()));
    if let Some(test_path) = files.get(1) {
        let test = read(test_path);
        let features = test.view().features();
        let probabilities = model.predict_proba(&features).expect("prediction");
        let mut correct = 0;
        for (row, predicted) in probabilities.predicted_classes().into_iter().enumerate() {
            if predicted == test.class(row) {
                correct += 1;
            }
            let values: Vec<String> = probabilities
                .row(row)
                .iter()
                .map(|p| format!("{p:.3}"))
                .collect();
            println!("{} {} {}", row + 1, predicted, values.join(","));
        }
        println!("accuracy {}/{}", correct, test.len());
    }
}
