//! Times RIPPER on the Aslan et al. (2009) protocol: 30 models, each on 29/30 of 2/3 of a
//! dataset, on the same splits Weka's JRip was timed on.
//!
//! ```text
//! python3 crates/learners/tests/data/aslan_jrip_timing.py DATA.csv OUT_DIR   # splits + Weka time
//! cargo run -p learners --example ripper_aslan_speed -- DATA.csv OUT_DIR/NAME-folds.txt
//! ```
//!
//! Options: `--unpruned` (JRip `-P`), `--seed=N` (default 1). Prints each model's build time,
//! rule count and accuracy on the held-out third, the first model's rules, and the totals.
//! The build runs with the workspace's `dev` profile, which optimises the project's crates.
//!
//! The CSV has a header line; columns whose values all parse as numbers (except the last, the
//! class) are numeric, the others nominal; `?` is missing.

use std::time::Instant;

use data::{Attribute, Dataset, Schema};
use learners::ripper::Ripper;
use learners::{Learner, Model};

fn load_csv(path: &str) -> Result<Dataset, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path)?;
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    let names: Vec<String> = lines
        .next()
        .ok_or("empty file")?
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let rows: Vec<Vec<String>> = lines
        .map(|line| line.split(',').map(|s| s.trim().to_string()).collect())
        .collect();
    let mut attributes = Vec::new();
    let mut columns = Vec::new();
    for (column, name) in names.iter().enumerate().take(names.len() - 1) {
        let numeric = rows
            .iter()
            .all(|row| row[column] == "?" || row[column].parse::<f64>().is_ok());
        if numeric {
            attributes.push(Attribute::numeric(name.clone()));
            columns.push(
                rows.iter()
                    .map(|row| row[column].parse().unwrap_or(f64::NAN))
                    .collect(),
            );
        } else {
            let mut values: Vec<String> = Vec::new();
            let mut codes = Vec::new();
            for row in &rows {
                if row[column] == "?" {
                    codes.push(f64::NAN);
                    continue;
                }
                let code = match values.iter().position(|v| *v == row[column]) {
                    Some(code) => code,
                    None => {
                        values.push(row[column].clone());
                        values.len() - 1
                    }
                };
                codes.push(code as f64);
            }
            attributes.push(Attribute::nominal(name.clone(), values));
            columns.push(codes);
        }
    }
    let mut class_values: Vec<String> = Vec::new();
    let mut classes = Vec::new();
    for row in &rows {
        let label = &row[names.len() - 1];
        let code = match class_values.iter().position(|v| v == label) {
            Some(code) => code,
            None => {
                class_values.push(label.clone());
                class_values.len() - 1
            }
        };
        classes.push(code as u32);
    }
    let schema = Schema {
        attributes,
        class_name: names[names.len() - 1].clone(),
        class_values,
    };
    Ok(Dataset::new(path, schema, columns, classes, None)?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: ripper_aslan_speed DATA.csv FOLDS.txt [--unpruned] [--seed=N]";
    if args.len() < 3 {
        return Err(usage.into());
    }
    let mut prune = true;
    let mut seed = 1;
    for flag in &args[3..] {
        if flag == "--unpruned" {
            prune = false;
        } else if let Some(value) = flag.strip_prefix("--seed=") {
            seed = value.parse()?;
        } else {
            return Err(usage.into());
        }
    }
    let dataset = load_csv(&args[1])?;
    let folds_text = std::fs::read_to_string(&args[2])?;
    let mut index_lines: Vec<Vec<usize>> = folds_text
        .lines()
        .map(|line| {
            line.split_whitespace()
                .map(|s| s.parse().unwrap())
                .collect()
        })
        .collect();
    let test = index_lines.pop().ok_or("no test line")?;
    let learner = Ripper {
        prune,
        ..Ripper::default()
    };
    let test_view = dataset.subset(test.clone());
    let mut total_seconds = 0.0;
    let mut accuracy_sum = 0.0;
    let mut rules_sum = 0;
    for (model_index, train) in index_lines.iter().enumerate() {
        let view = dataset.subset(train.clone());
        let start = Instant::now();
        let model = learner.fit_rules(&view, seed)?;
        let seconds = start.elapsed().as_secs_f64();
        total_seconds += seconds;
        let predicted = model
            .predict_proba(&test_view.features())
            .expect("prediction")
            .predicted_classes();
        let correct = (0..test.len())
            .filter(|&p| predicted[p] == test_view.class(p))
            .count();
        let accuracy = correct as f64 / test.len() as f64;
        accuracy_sum += accuracy;
        rules_sum += model.num_rules();
        println!(
            "model {model_index}: build {seconds:.3} s, {} rules, test accuracy {accuracy:.4}",
            model.num_rules()
        );
        if model_index == 0 {
            println!("{}", model.explain(dataset.schema()));
        }
    }
    let models = index_lines.len() as f64;
    println!(
        "{}: {} {} models, total build time {total_seconds:.2} s, mean rules {:.1}, mean test accuracy {:.4}",
        args[1],
        index_lines.len(),
        learner.describe(),
        rules_sum as f64 / models,
        accuracy_sum / models
    );
    Ok(())
}
