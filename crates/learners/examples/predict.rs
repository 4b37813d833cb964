//! Fits one learner on training files and writes class probabilities for test files: this
//! project's side of `scripts/weka_compare.py`, with the same interface as
//! `scripts/weka/WekaRunner.java`.
//!
//! Usage: `predict --learner '{ kind = "c45" }' [--seed N] TRAIN TEST OUT [TRAIN TEST OUT ...]`
//! Writes OUT (one CSV row of probabilities per test instance, full precision) and
//! OUT.model.txt (the fitted model's description); prints `OUT<TAB>fit s<TAB>predict s`.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut learner_text = None;
    let mut seed = 1u64;
    let mut files = Vec::new();
    while !args.is_empty() {
        let arg = args.remove(0);
        match arg.as_str() {
            "--learner" if !args.is_empty() => learner_text = Some(args.remove(0)),
            "--seed" if !args.is_empty() => {
                let value = args.remove(0);
                seed = value
                    .parse()
                    .map_err(|_| format!("--seed takes a whole number, got '{value}'"))?;
            }
            _ => files.push(arg),
        }
    }
    let learner_text = learner_text.ok_or("--learner '{ kind = ... }' is required")?;
    if files.is_empty() || files.len() % 3 != 0 {
        return Err("give one or more TRAIN TEST OUT triples".into());
    }
    let table: toml::Table = toml::from_str(&format!("learner = {learner_text}"))
        .map_err(|error| format!("--learner is not an inline TOML table: {error}"))?;
    let Some(toml::Value::Table(spec)) = table.get("learner") else {
        return Err("--learner must be an inline TOML table".into());
    };
    let learner = learners::build_learner(spec).map_err(|error| error.to_string())?;
    let options = data::LoadOptions::default();
    for triple in files.chunks(3) {
        let train = data::load(&triple[0], &options).map_err(|error| error.to_string())?;
        let test = data::load(&triple[1], &options).map_err(|error| error.to_string())?;
        if train.schema() != test.schema() {
            return Err(format!(
                "{} and {} have different headers",
                triple[0], triple[1]
            ));
        }
        let start = Instant::now();
        let model = learner
            .fit(&train.view(), seed)
            .map_err(|error| error.to_string())?;
        let fitted = Instant::now();
        let probabilities = model
            .predict_proba(&test.view().features())
            .map_err(|error| error.to_string())?;
        let predicted = Instant::now();
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(&triple[2])
                .map_err(|error| format!("cannot write {}: {error}", triple[2]))?,
        );
        for row in 0..probabilities.len() {
            let cells: Vec<String> = probabilities
                .row(row)
                .iter()
                .map(|p| p.to_string())
                .collect();
            writeln!(out, "{}", cells.join(",")).map_err(|error| error.to_string())?;
        }
        out.flush().map_err(|error| error.to_string())?;
        std::fs::write(
            format!("{}.model.txt", triple[2]),
            model.explain(train.schema()),
        )
        .map_err(|error| error.to_string())?;
        println!(
            "{}\t{}\t{}",
            triple[2],
            (fitted - start).as_secs_f64(),
            (predicted - fitted).as_secs_f64()
        );
    }
    Ok(())
}
