//! Fits one learner on training files and writes class probabilities for test files: this
//! project's side of `scripts/weka_compare.py`, with the same interface as
//! `scripts/weka/WekaRunner.java`.
//!
//! Usage: `predict --learner '{ kind = "c45" }' [--seed N] TRAIN TEST OUT [TRAIN TEST OUT ...]`,
//! or with `--validation`: `TRAIN VALIDATION TEST OUT` quadruples (the learner gets the
//! validation set, as the Aslan protocol's left-out fold, e.g. for k-NN's choice of k).
//! Writes OUT (one CSV row of probabilities per test instance, full precision) and
//! OUT.model.txt (the fitted model's description); prints `OUT<TAB>fit s<TAB>predict s<TAB>fit +
//! predict CPU s` (the process's CPU time, which a busy machine does not inflate; the wall seconds
//! when the clock is not readable).

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
    vector_cap::check()?;
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut learner_text = None;
    let mut seed = 1u64;
    let mut files = Vec::new();
    let mut with_validation = false;
    while !args.is_empty() {
        let arg = args.remove(0);
        match arg.as_str() {
            "--learner" if !args.is_empty() => learner_text = Some(args.remove(0)),
            "--validation" => with_validation = true,
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
    let group = if with_validation { 4 } else { 3 };
    if files.is_empty() || files.len() % group != 0 {
        return Err(if with_validation {
            "with --validation, give one or more TRAIN VALIDATION TEST OUT quadruples".into()
        } else {
            "give one or more TRAIN TEST OUT triples".into()
        });
    }
    let table: toml::Table = toml::from_str(&format!("learner = {learner_text}"))
        .map_err(|error| format!("--learner is not an inline TOML table: {error}"))?;
    let Some(toml::Value::Table(spec)) = table.get("learner") else {
        return Err("--learner must be an inline TOML table".into());
    };
    let learner = learners::build_learner(spec).map_err(|error| error.to_string())?;
    let options = data::LoadOptions::default();
    for files in files.chunks(group) {
        let (train_file, validation_file, test_file, out_file) = if with_validation {
            (&files[0], Some(&files[1]), &files[2], &files[3])
        } else {
            (&files[0], None, &files[1], &files[2])
        };
        let train = data::load(train_file, &options).map_err(|error| error.to_string())?;
        let test = data::load(test_file, &options).map_err(|error| error.to_string())?;
        let validation = validation_file
            .map(|file| data::load(file, &options).map_err(|error| error.to_string()))
            .transpose()?;
        for (other, dataset) in [
            (Some(test_file), Some(&test)),
            (validation_file, validation.as_ref()),
        ] {
            if let (Some(file), Some(dataset)) = (other, dataset) {
                if train.schema() != dataset.schema() {
                    return Err(format!("{train_file} and {file} have different headers"));
                }
            }
        }
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        let model = match &validation {
            Some(validation) => {
                learner.fit_with_validation(&train.view(), Some(&validation.view()), seed)
            }
            None => learner.fit(&train.view(), seed),
        }
        .map_err(|error| error.to_string())?;
        let fitted = Instant::now();
        let probabilities = model
            .predict_proba(&test.view().features())
            .map_err(|error| error.to_string())?;
        let predicted = Instant::now();
        let cpu = match (cpu_start, cpu_seconds()) {
            (Some(start), Some(end)) => end - start,
            _ => (predicted - start).as_secs_f64(),
        };
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(out_file)
                .map_err(|error| format!("cannot write {out_file}: {error}"))?,
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
            format!("{out_file}.model.txt"),
            model.explain(train.schema()),
        )
        .map_err(|error| error.to_string())?;
        // A closed pipe (`predict ... | head`) ends the run with an error, not a panic.
        writeln!(
            std::io::stdout().lock(),
            "{}\t{}\t{}\t{}",
            out_file,
            (fitted - start).as_secs_f64(),
            (predicted - fitted).as_secs_f64(),
            cpu
        )
        .map_err(|error| format!("cannot write to standard output: {error}"))?;
    }
    Ok(())
}

/// CPU time of this (single-threaded) process so far (clock_gettime's process CPU clock).
fn cpu_seconds() -> Option<f64> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable timespec for the call's duration.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    (status == 0).then(|| time.tv_sec as f64 + time.tv_nsec as f64 / 1e9)
}
