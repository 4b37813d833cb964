//! Times one fit and predict of every learner kind on a small generated dataset (a quick speed
//! check; `cargo run -p learners --example time_kinds [rows]`, default 200 rows, 3/4 for
//! training).
use data::{Attribute, Dataset, Features, Schema};
use learners::Registry;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use std::time::Instant;

fn main() {
    let rows: usize = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(200);
    let mut random = ChaCha8Rng::seed_from_u64(5);
    let mut columns = vec![Vec::new(); 6];
    let mut classes = Vec::new();
    for row in 0..rows {
        let class = (row % 2) as u32;
        classes.push(class);
        for (index, column) in columns.iter_mut().enumerate() {
            column.push(if index < 3 {
                class as f64 + random.sample::<f64, _>(StandardNormal)
            } else {
                random.random_range(0..3) as f64
            });
        }
    }
    let mut attributes: Vec<Attribute> = (0..3)
        .map(|i| Attribute::numeric(format!("x{i}")))
        .collect();
    for i in 0..3 {
        attributes.push(Attribute::nominal(
            format!("n{i}"),
            vec!["a".into(), "b".into(), "c".into()],
        ));
    }
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values: vec!["no".into(), "yes".into()],
    };
    let dataset = Dataset::new("timing", schema, columns, classes, None).unwrap();
    let train_rows = rows * 3 / 4;
    let train = dataset.subset((0..train_rows).collect());
    let test = Features::of(&dataset, (train_rows..rows).collect());
    let registry = Registry::builtin();
    for kind in registry.kinds() {
        if rows > 5000 && kind == "smartcore_forest" {
            continue; // minutes with unoptimised smartcore
        }
        if kind == "external" {
            continue; // needs a command
        }
        let mut table = toml::Table::new();
        table.insert("kind".into(), toml::Value::String(kind.into()));
        let learner = registry.build(&table).unwrap();
        let start = Instant::now();
        let model = learner.fit(&train, 1).unwrap();
        let fitted = start.elapsed();
        let probabilities = model.predict_proba(&test).expect("prediction");
        println!(
            "{:<20} fit {:>10.3?}  fit+predict {:>10.3?}  ({} rows)",
            kind,
            fitted,
            start.elapsed(),
            probabilities.len()
        );
    }
}
