//! Runs the units of the main command (`experiments --config aslan.toml`) for some learners and
//! datasets exactly as the engine runs them, and reports each learner's CPU seconds and a digest
//! of its probabilities per dataset: the workload of the user's command, without the engine,
//! for profiling (`valgrind --tool=callgrind`) and for checking that a change keeps every
//! probability to the bit.
//!
//! ```text
//! cargo run -p experiments -- --config aslan.toml --results /tmp/aslan     # writes the splits
//! cargo run -p learners --example aslan_units -- --splits /tmp/aslan/aslan/splits \
//!     [--datasets sylva,caravan] [--learners knn,lp] [--models N]
//! ```
//!
//! The data are the catalog's datasets with the config's transform (multi-class ones reduced to
//! the two classes 1-NN confuses most); each unit trains on its split's training rows (with its
//! validation rows as the validation set), predicts the test rows then the validation rows, and
//! gets the engine's seed (from the split plan's seed, the learner's description, the
//! repetition and the fold). The learners are those of `aslan.toml`. The digest is a hash of the
//! probabilities' bits in unit order (not cryptographic: for comparing runs of this example).

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;

use learners::Learner;

/// The learners of `experiments/configs/aslan.toml`, by their names there.
const LEARNERS: [(&str, &str); 5] = [
    ("c45", r#"{ kind = "c45" }"#),
    ("lp", r#"{ kind = "perceptron" }"#),
    (
        "knn",
        r#"{ kind = "knn", candidates = [1, 3, 5, 7, 11, 21] }"#,
    ),
    ("nb", r#"{ kind = "naive_bayes" }"#),
    ("ripper", r#"{ kind = "ripper" }"#),
];

/// The datasets of the catalog's `aslan` collection.
const DATASETS: &str = "kr-vs-kp,mushroom,nursery,page-blocks,shuttle,spambase,waveform-21,ada,caravan,sylva,hypothyroid,kr-vs-k,magic,optdigits,satimage";

/// One split of the engine's plan, as written to `splits/NAME.json`.
struct Split {
    repetition: u64,
    fold: u64,
    train: Vec<usize>,
    validation: Option<Vec<usize>>,
    test: Vec<usize>,
}

/// CPU time of the calling thread, in seconds.
fn thread_cpu_seconds() -> f64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable timespec for the call's duration.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    assert_eq!(status, 0, "the thread CPU clock is readable");
    time.tv_sec as f64 + time.tv_nsec as f64 / 1e9
}

fn rows(value: &serde_json::Value) -> Vec<usize> {
    value
        .as_array()
        .expect("a list of rows")
        .iter()
        .map(|row| row.as_u64().expect("a row number") as usize)
        .collect()
}

/// The plan seed and the splits of `splits/NAME.json`.
fn read_splits(path: &str) -> (u64, Vec<Split>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let plan: serde_json::Value = serde_json::from_str(&text).expect("a split plan");
    let seed = plan["seed"].as_u64().expect("a seed");
    let splits = plan["splits"]
        .as_array()
        .expect("splits")
        .iter()
        .map(|split| Split {
            repetition: split["repetition"].as_u64().expect("a repetition"),
            fold: split["fold"].as_u64().expect("a fold"),
            train: rows(&split["train"]),
            validation: (!split["validation"].is_null()).then(|| rows(&split["validation"])),
            test: rows(&split["test"]),
        })
        .collect();
    (seed, splits)
}

fn main() {
    let mut splits_folder = String::from("results/aslan/splits");
    let mut datasets = DATASETS.to_string();
    let mut wanted = String::from("c45,lp,knn,nb,ripper");
    let mut models = usize::MAX;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().expect("a value after the flag");
        match arg.as_str() {
            "--splits" => splits_folder = value(),
            "--datasets" => datasets = value(),
            "--learners" => wanted = value(),
            "--models" => models = value().parse().expect("--models takes a number"),
            _ => panic!("unknown argument {arg}"),
        }
    }
    let catalog = data::catalog::Catalog::locate().expect("the dataset catalog");
    let learners: Vec<(&str, Box<dyn Learner>)> = LEARNERS
        .iter()
        .filter(|(name, _)| wanted.split(',').any(|w| w == *name))
        .map(|(name, text)| {
            let table: toml::Table = toml::from_str(&format!("learner = {text}")).unwrap();
            let spec = table["learner"].as_table().unwrap();
            (*name, learners::build_learner(spec).unwrap())
        })
        .collect();
    let mut totals = vec![0.0; learners.len()];
    for name in datasets.split(',').filter(|name| !name.is_empty()) {
        let mut dataset = catalog.resolve(name).expect("a catalog dataset");
        if dataset.num_classes() > 2 {
            dataset = data::transform::reduce_to_most_confused(&dataset)
                .expect("two classes")
                .0;
        }
        let (plan_seed, splits) = read_splits(&format!("{splits_folder}/{name}.json"));
        for ((learner_name, learner), total) in learners.iter().zip(&mut totals) {
            let learner_seed = seeds::derive_seed_from_label(plan_seed, &learner.describe());
            let mut digest = DefaultHasher::new();
            let (mut fit, mut predict) = (0.0, 0.0);
            for split in splits.iter().take(models) {
                let seed = seeds::derive_seed(learner_seed, &[split.repetition, split.fold]);
                let started = thread_cpu_seconds();
                let train = dataset.subset(split.train.clone());
                let validation = split.validation.clone().map(|rows| dataset.subset(rows));
                let model = learner
                    .fit_with_validation(&train, validation.as_ref(), seed)
                    .expect("a model");
                let fitted = thread_cpu_seconds();
                let mut predicted_rows = split.test.clone();
                predicted_rows.extend(split.validation.iter().flatten());
                let probabilities = model
                    .predict_proba(&data::Features::of(&dataset, predicted_rows))
                    .expect("probabilities");
                let done = thread_cpu_seconds();
                fit += fitted - started;
                predict += done - fitted;
                for value in probabilities.as_flat() {
                    digest.write_u64(value.to_bits());
                }
            }
            *total += fit + predict;
            println!(
                "{name:<12} {learner_name:<7} fit {fit:8.3} s  predict {predict:7.3} s  total {:8.3} s  digest {:016x}",
                fit + predict,
                digest.finish()
            );
        }
    }
    for ((learner_name, _), total) in learners.iter().zip(&totals) {
        println!("all          {learner_name:<7} total {total:8.3} s");
    }
}
