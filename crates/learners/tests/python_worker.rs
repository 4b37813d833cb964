//! The `python` learner kind against scikit-learn run directly on the same rows
//! (`tests/data/sklearn_direct.py`, which does not use the worker's package): the worker's
//! probabilities must equal the estimator's to 1e-12, on numeric data as they are, on mixed
//! data with missing values through the declared encodings (scikit-learn's own imputers and
//! one-hot encoder in the peer), and with instance weights.
//!
//! The interpreter is `$EXPERIMENTS_PYTHON`, else `python3`; it needs numpy and scikit-learn.
//! The `experiments_py` package is taken from where that interpreter finds it, else from this
//! repository's `python/` folder. Skipped, with a message, when scikit-learn is missing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use data::{Catalog, Dataset, Features};
use learners::{conformance, Learner, Registry};

/// The interpreter and the extra module path for the package, or why the tests are skipped.
fn python() -> Result<(String, Option<PathBuf>), String> {
    let interpreter = std::env::var("EXPERIMENTS_PYTHON").unwrap_or_else(|_| "python3".into());
    let runs = |code: &str| {
        Command::new(&interpreter)
            .args(["-c", code])
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if !runs("import numpy, sklearn") {
        return Err(format!(
            "{interpreter} cannot import numpy and scikit-learn (set EXPERIMENTS_PYTHON to an \
             interpreter that can; .ci/run does)"
        ));
    }
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python");
    let module_path = (!runs("import experiments_py")).then(|| package.canonicalize().unwrap());
    Ok((interpreter, module_path))
}

/// A `python` learner for `estimator` with extra TOML lines, or None (test skipped).
fn learner(test: &str, estimator: &str, extra: &str) -> Option<Box<dyn Learner>> {
    let (interpreter, module_path) = match python() {
        Ok(found) => found,
        Err(why) => {
            eprintln!("skipped {test}: {why}");
            return None;
        }
    };
    let mut text = format!(
        "kind = \"python\"\nestimator = \"{estimator}\"\npython = {interpreter:?}\n{extra}"
    );
    if let Some(folder) = module_path {
        text.push_str(&format!(
            "\nmodule_path = [{:?}]",
            folder.display().to_string()
        ));
    }
    Some(
        Registry::builtin()
            .build(&text.parse().expect("valid TOML"))
            .expect("builds"),
    )
}

fn shipped(name: &str) -> Dataset {
    Catalog::locate().unwrap().load(name).unwrap()
}

/// Row i trains when i % 3 != 0, tests otherwise.
fn split(dataset: &Dataset) -> (Vec<usize>, Vec<usize>) {
    (0..dataset.len()).partition(|row| row % 3 != 0)
}

fn rows_json(dataset: &Dataset, rows: &[usize]) -> serde_json::Value {
    let width = dataset.schema().num_attributes();
    rows.iter()
        .map(|&row| {
            (0..width)
                .map(|a| {
                    let value = dataset.value(row, a);
                    if value.is_nan() {
                        serde_json::Value::Null
                    } else {
                        serde_json::json!(value)
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// One case for the peer: an estimator, its arguments, the rows' weights, the seed and the
/// encodings.
struct Case<'a> {
    estimator: &'a str,
    params: serde_json::Value,
    weights: Option<&'a [f64]>,
    seed: u64,
    nominal: &'a str,
    impute: &'a str,
}

/// scikit-learn run directly on the split's rows, for each case (one process for all).
fn direct(interpreter: &str, dataset: &Dataset, cases: &[Case]) -> Vec<Vec<f64>> {
    let (train, test) = split(dataset);
    let levels: Vec<serde_json::Value> = dataset
        .schema()
        .attributes
        .iter()
        .map(|a| {
            a.values()
                .map_or(serde_json::Value::Null, |v| v.len().into())
        })
        .collect();
    let requests: Vec<serde_json::Value> = cases
        .iter()
        .map(|case| {
            serde_json::json!({
                "estimator": case.estimator,
                "params": case.params,
                "seed": case.seed,
                "train": rows_json(dataset, &train),
                "test": rows_json(dataset, &test),
                "y": train.iter().map(|&row| dataset.class(row)).collect::<Vec<_>>(),
                "weights": case.weights,
                "levels": levels,
                "classes": dataset.num_classes(),
                "nominal": case.nominal,
                "impute": case.impute,
            })
        })
        .collect();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sklearn_direct.py");
    let mut child = Command::new(interpreter)
        .arg(script)
        .env("OMP_NUM_THREADS", "1")
        .env("OPENBLAS_NUM_THREADS", "1")
        .env("MKL_NUM_THREADS", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::Value::Array(requests).to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<Vec<Vec<f64>>> = serde_json::from_slice(&output.stdout).unwrap();
    answers.into_iter().map(|rows| rows.concat()).collect()
}

/// Fits the learner on the split (with weights if given) and predicts the test rows.
fn through_worker(
    learner: &dyn Learner,
    dataset: &Dataset,
    weights: Option<&[f64]>,
    seed: u64,
) -> Vec<f64> {
    let (train, test) = split(dataset);
    let mut view = dataset.subset(train);
    if let Some(weights) = weights {
        view = view.with_weights(weights.to_vec());
    }
    let model = learner.fit(&view, seed).unwrap();
    let probabilities = model.predict_proba(&Features::of(dataset, test)).unwrap();
    probabilities.as_flat().to_vec()
}

fn assert_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    let worst = got
        .iter()
        .zip(want)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst <= 1e-12, "{what}: differs by {worst:e}");
}

#[test]
fn probabilities_equal_scikit_learn_run_directly_on_numeric_data() {
    let estimators = [
        (
            "sklearn.linear_model:LogisticRegression",
            "{ max_iter = 1000 }",
        ),
        (
            "sklearn.ensemble:RandomForestClassifier",
            "{ n_estimators = 25 }",
        ),
        (
            "sklearn.neighbors:KNeighborsClassifier",
            "{ n_neighbors = 7 }",
        ),
    ];
    let pima = shipped("pima");
    let seed = 0x1234_5678_9abc_def0;
    let mut got = Vec::new();
    let mut cases = Vec::new();
    for (estimator, params) in estimators {
        let extra = format!("params = {params}");
        let Some(learner) = learner("the scikit-learn equality test", estimator, &extra) else {
            return;
        };
        got.push(through_worker(&*learner, &pima, None, seed));
        let params: toml::Table = format!("p = {params}").parse().unwrap();
        cases.push(Case {
            estimator,
            params: serde_json::to_value(&params["p"]).unwrap(),
            weights: None,
            seed,
            nominal: "onehot",
            impute: "mean",
        });
    }
    let (interpreter, _) = python().unwrap();
    let want = direct(&interpreter, &pima, &cases);
    for ((got, want), case) in got.iter().zip(&want).zip(&cases) {
        assert_close(got, want, case.estimator);
    }
}

#[test]
fn encodings_and_weights_equal_scikit_learn_imputers_and_encoders() {
    // Estimators whose outputs move little with the last bit of their inputs: the training
    // mean is summed in another order by scikit-learn's imputer (they differ by ~4e-15 on crx),
    // which an unconverged logistic regression would magnify.
    let crx = shipped("crx");
    assert!(crx.missing_count() > 0);
    let (train, _) = split(&crx);
    let weights: Vec<f64> = (0..train.len()).map(|i| 0.5 + (i % 4) as f64).collect();
    let configurations = [
        ("sklearn.naive_bayes:GaussianNB", "onehot", "mean"),
        ("sklearn.tree:DecisionTreeClassifier", "ordinal", "median"),
    ];
    let mut got = Vec::new();
    let mut cases = Vec::new();
    for (estimator, nominal, impute) in configurations {
        let extra = format!("nominal_encoding = \"{nominal}\"\nimpute = \"{impute}\"");
        let Some(learner) = learner("the encoding test", estimator, &extra) else {
            return;
        };
        for weights in [None, Some(&weights[..])] {
            got.push(through_worker(&*learner, &crx, weights, 7));
            cases.push(Case {
                estimator,
                params: serde_json::json!({}),
                weights,
                seed: 7,
                nominal,
                impute,
            });
        }
    }
    let (interpreter, _) = python().unwrap();
    let want = direct(&interpreter, &crx, &cases);
    for ((got, want), case) in got.iter().zip(&want).zip(&cases) {
        let what = format!(
            "{} {} {} weighted {}",
            case.estimator,
            case.nominal,
            case.impute,
            case.weights.is_some()
        );
        assert_close(got, want, &what);
    }
}

#[test]
fn a_scikit_learn_estimator_passes_the_conformance_suite() {
    let extra = "params = { n_estimators = 10 }";
    let Some(learner) = learner(
        "the conformance test",
        "sklearn.ensemble:RandomForestClassifier",
        extra,
    ) else {
        return;
    };
    assert!(
        learner.revision().contains("scikit-learn"),
        "{}",
        learner.revision()
    );
    if let Err(problems) = conformance::check(&*learner) {
        panic!("{}", problems.join("\n"));
    }
}
