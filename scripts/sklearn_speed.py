#!/usr/bin/env python3
"""Time this project's learners beside scikit-learn's nearest equivalents on the Aslan protocol.

The splits are those of `scripts/weka_compare.py --speed` (its `aslan_rows`: a stratified 1/3
test set, and 30 models each trained on 29/30 of the rest, the left-out 1/30 being the
validation fold); both tools get the same rows. scikit-learn runs in this process on one thread
(the BLAS and OpenMP thread counts are set to 1 before numpy is imported) and the CPU time of
its fit + predict is measured in-process (time.process_time), preprocessing included. It gets
the lightest correct pipeline for the dataset at hand, what a Python user would write: the
model alone where it needs nothing else (GaussianNB and the tree on all-numeric data), a scaler
and the model otherwise (MinMaxScaler for k-NN, which gives Weka IBk's distance, StandardScaler
for the linear models), a SimpleImputer only where numeric values are missing, and a
ColumnTransformer with a OneHotEncoder only where columns are nominal (mixed data goes in as a
pandas frame, all-numeric data as a float array, both made before the clock starts). Ours is
timed with the `predict` example of the learners crate that `weka_compare.py --speed` runs (dev
profile, what `cargo run` uses): it fits and predicts every model and reports the CPU seconds of
its fit + predict, file reading excluded. Both predict the same rows: the test set (and, for
knn-select, the validation fold). CPU time, not wall time, so that a busy shared machine does
not tilt the ratios.

    python3 scripts/sklearn_speed.py                          # default datasets and learners
    python3 scripts/sklearn_speed.py --datasets sylva --learners knn5,knn-select --models 5
    python3 scripts/sklearn_speed.py --repeats 1                # one run per pair (a third of the time)
    python3 scripts/sklearn_speed.py --avx2-only                # both sides without AVX-512

--avx2-only stands in for a machine without AVX-512 on one that has it: both sides run the
kernels such a processor would (ours through CLASSIFIERS_VECTOR_CAP=avx2, numpy through
NPY_DISABLE_CPU_FEATURES, OpenBLAS through OPENBLAS_CORETYPE=Haswell; the script runs itself
again with these set). The caches, clock and memory stay this machine's, so it is not the same
as timing on such a machine.

Learner pairs (ours: scikit-learn):
  c45: C4.5 / DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2)
  nb: naive Bayes / GaussianNB alone on all-numeric data; on mixed data GaussianNB on the
      numeric attributes and CategoricalNB on the nominal ones (ordinal codes; a value unseen in
      training is one more category), their joint log-likelihoods added
  knn5: k-NN, k = 5 / MinMaxScaler + KNeighborsClassifier(5) (its default search: brute force
      above 15 columns, a k-d tree at or below)
  knn-select: k-NN, k from {1,3,5,7,11,21} by error on the validation fold / the same with
      KNeighborsClassifier (one kneighbors call for k = 21 on the validation fold, votes per k)
  logistic: logistic regression / LogisticRegression(lbfgs, max_iter=1000): scikit-learn's
      default model (C = 1), a more strongly regularised problem than Weka's ridge 1e-8
  logistic-matched: the same learner / LogisticRegression(C = 1 / (2 * 1e-8),
      solver="newton-cholesky"): the penalised optimum ours and Weka fit (ridge 1e-8 on the
      standardised coefficients; scikit-learn standardises with the population sd, we with the
      sample sd, a difference of one part in n in the penalty)
  perceptron: the perceptron (softmax layer, 100 epochs) / SGDClassifier(log_loss, 100 epochs)
"""

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import datetime  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import weka_compare as shared  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.compose import ColumnTransformer  # noqa: E402
from sklearn.impute import SimpleImputer  # noqa: E402
from sklearn.linear_model import LogisticRegression, SGDClassifier  # noqa: E402
from sklearn.naive_bayes import CategoricalNB, GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import (  # noqa: E402
    FunctionTransformer,
    MinMaxScaler,
    OneHotEncoder,
    OrdinalEncoder,
    StandardScaler,
)
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

CANDIDATES = [1, 3, 5, 7, 11, 21]

# name: (this project's learner as an inline TOML table, whether it gets the validation fold)
OURS = {
    "c45": (shared.LEARNERS["c45"][2], False),
    "nb": (shared.LEARNERS["nb"][2], False),
    "knn5": ('{ kind = "knn", k = 5, select_k = false }', False),
    "knn-select": (shared.LEARNERS["knn-select"][2], True),
    "logistic": (shared.LEARNERS["logistic"][2], False),
    "logistic-matched": (shared.LEARNERS["logistic"][2], False),
    "perceptron": (shared.LEARNERS["perceptron"][2], False),
}

# What --avx2-only sets before numpy and OpenBLAS load.
AVX2_ONLY = {
    "CLASSIFIERS_VECTOR_CAP": "avx2",
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
    "OPENBLAS_CORETYPE": "Haswell",
}

DATASETS = "magic,spambase,adult,pima,sonar"
KNN_DATASETS = "magic,spambase,adult,pima,sonar,sylva,caravan"
LOGISTIC_DATASETS = DATASETS


def matrices(header, is_nominal, rows):
    """Numeric columns as floats (NaN = missing), nominal ones as strings, the classes, and
    the design matrix scikit-learn gets (made before the clock starts, as a user's data is)."""
    columns = range(len(header) - 1)
    numeric = [i for i in columns if not is_nominal[i]]
    nominal = [i for i in columns if is_nominal[i]]
    x_numeric = np.array([[float(row[i]) if row[i] is not None else np.nan for i in numeric] for row in rows], dtype=float)
    x_nominal = np.array([[row[i] if row[i] is not None else "?" for i in nominal] for row in rows], dtype=object)
    x_numeric = x_numeric.reshape(len(rows), len(numeric))
    x_nominal = x_nominal.reshape(len(rows), len(nominal))
    return x_numeric, x_nominal, np.array([row[-1] for row in rows]), design(x_numeric, x_nominal)


def design(x_numeric, x_nominal):
    """The matrix a Python user hands scikit-learn: a float array on all-numeric data, a pandas
    frame (float and string columns) on mixed data."""
    if not x_nominal.shape[1]:
        return x_numeric
    numeric = {f"n{i}": x_numeric[:, i] for i in range(x_numeric.shape[1])}
    nominal = {f"c{i}": x_nominal[:, i] for i in range(x_nominal.shape[1])}
    return pd.DataFrame({**numeric, **nominal})


def numeric_steps(learner, numeric_missing):
    """Mean imputation only where numeric values are missing (not for the tree, which takes
    NaN itself), then min-max scaling for k-NN (Weka IBk's distance) and standardisation for the
    linear models."""
    steps = [SimpleImputer(strategy="mean")] if numeric_missing and learner != "c45" else []
    if learner.startswith("knn"):
        steps.append(MinMaxScaler())
    elif learner.startswith("logistic") or learner == "perceptron":
        steps.append(StandardScaler())
    return steps


def pipeline(learner, numeric_count, nominal_count, numeric_missing, seed):
    """The lightest correct pipeline for the data at hand: the model alone, or after the steps
    its numeric columns need; a ColumnTransformer only on mixed data, which one-hot encodes the
    nominal columns (scaled by 1/sqrt(2) for k-NN, so two different values are at squared
    distance 1, as in Weka)."""
    numeric = numeric_steps(learner, numeric_missing)
    model = sklearn_model(learner, seed)
    if not nominal_count:
        return make_pipeline(*numeric, model) if numeric else model
    nominal = [OneHotEncoder(handle_unknown="ignore", sparse_output=False)]
    if learner.startswith("knn"):
        nominal.append(FunctionTransformer(lambda x: x / np.sqrt(2.0)))
    parts = [("nominal", make_pipeline(*nominal), [f"c{i}" for i in range(nominal_count)])]
    if numeric_count:
        parts.insert(0, ("numeric", make_pipeline(*numeric) if numeric else "passthrough", [f"n{i}" for i in range(numeric_count)]))
    return make_pipeline(ColumnTransformer(parts), model)


class MixedNaiveBayes:
    """GaussianNB on the numeric columns (mean-imputed where values are missing) and
    CategoricalNB on the nominal ones, their joint log-likelihoods added and the class prior
    counted once: what a scikit-learn user writes for a naive Bayes over mixed attributes (on
    all-numeric data GaussianNB alone serves, and `sklearn_run` uses it)."""

    def __init__(self, numeric_missing):
        self.numeric_missing = numeric_missing

    def fit(self, x_numeric, x_nominal, y):
        self.parts = []
        if x_numeric.shape[1]:
            imputer = SimpleImputer(strategy="mean") if self.numeric_missing else FunctionTransformer()
            self.parts.append(("numeric", imputer, GaussianNB().fit(imputer.fit_transform(x_numeric), y)))
        if x_nominal.shape[1]:
            encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
            codes = encoder.fit_transform(x_nominal).astype(int)
            sizes = np.array([len(values) + 1 for values in encoder.categories_])
            self.parts.append(("nominal", (encoder, sizes), CategoricalNB(min_categories=sizes).fit(codes, y)))
        self.classes_ = self.parts[0][2].classes_
        return self

    def predict_proba(self, x_numeric, x_nominal):
        joint = 0.0
        for kind, prepare, model in self.parts:
            if kind == "numeric":
                joint = joint + model.predict_joint_log_proba(prepare.transform(x_numeric))
            else:
                encoder, sizes = prepare
                codes = encoder.transform(x_nominal).astype(int)
                codes = np.where(codes < 0, sizes - 1, codes)
                joint = joint + model.predict_joint_log_proba(codes)
        if len(self.parts) == 2:
            joint = joint - self.parts[1][2].class_log_prior_
        joint = joint - joint.max(axis=1, keepdims=True)
        probabilities = np.exp(joint)
        return probabilities / probabilities.sum(axis=1, keepdims=True)


def sklearn_model(learner, seed):
    if learner == "nb":
        return GaussianNB()
    if learner == "c45":
        return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=seed)
    if learner in ("knn5", "knn-select"):
        return KNeighborsClassifier(n_neighbors=5)
    if learner == "logistic":
        return LogisticRegression(max_iter=1000)
    if learner == "logistic-matched":
        return LogisticRegression(C=1 / (2 * 1e-8), solver="newton-cholesky", max_iter=100)
    if learner == "perceptron":
        return SGDClassifier(loss="log_loss", learning_rate="constant", eta0=0.1, max_iter=100, tol=None, random_state=seed)
    raise ValueError(learner)


def choose_k(model, y_train, x_validation, y_validation):
    """The candidate k with the lowest validation error (the smallest on ties), from one
    neighbour search for the largest candidate."""
    neighbours = model.kneighbors(x_validation, n_neighbors=min(max(CANDIDATES), model.n_samples_fit_), return_distance=False)
    labels = model.classes_
    train_classes = np.searchsorted(labels, y_train)[neighbours]
    errors = []
    for k in CANDIDATES:
        votes = np.stack([(train_classes[:, :k] == c).sum(axis=1) for c in range(len(labels))], axis=1)
        errors.append(np.mean(labels[votes.argmax(axis=1)] != y_validation))
    return CANDIDATES[int(np.argmin(errors))]


def sklearn_fit_predict(learner, train, validation, test, numeric_missing, seed):
    """One model's fit and test-set probabilities (k chosen on the validation fold for
    knn-select), and its classes. Each set is (numeric, nominal, classes, design matrix)."""
    x_numeric, x_nominal, y, x = train
    if learner == "nb" and x_nominal.shape[1]:
        model = MixedNaiveBayes(numeric_missing).fit(x_numeric, x_nominal, y)
        return model.predict_proba(test[0], test[1]), model.classes_
    model = pipeline(learner, x_numeric.shape[1], x_nominal.shape[1], numeric_missing, seed)
    model.fit(x, y)
    if learner == "knn-select":
        nearest = model[-1] if hasattr(model, "steps") else model
        x_validation = model[:-1].transform(validation[3]) if hasattr(model, "steps") else validation[3]
        nearest.set_params(n_neighbors=choose_k(nearest, y, x_validation, validation[2]))
    return model.predict_proba(test[3]), model.classes_


def sklearn_run(learner, data, seed):
    """Fit + predict CPU seconds of the 30 (or --models) models, and their mean test accuracy."""
    (train_sets, validation_sets, test, numeric_missing) = data
    seconds = 0.0
    accuracies = []
    for train, validation in zip(train_sets, validation_sets):
        start = time.process_time()
        probabilities, classes = sklearn_fit_predict(learner, train, validation, test, numeric_missing, seed)
        seconds += time.process_time() - start
        accuracies.append(np.mean(classes[probabilities.argmax(axis=1)] == test[2]))
    return seconds, 100 * float(np.mean(accuracies))


def ours_run(binary, learner, files, truth, seed):
    """Fit + predict seconds reported by the `predict` example, and the mean test accuracy."""
    toml, with_validation = OURS[learner]
    command = [str(binary), "--learner", toml, "--seed", str(seed)] + (["--validation"] if with_validation else [])
    for train, validation, test, out in files:
        command += [str(train)] + ([str(validation)] if with_validation else []) + [str(test), str(out)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed: {result.stderr[-2000:]}")
    seconds = sum(float(line.split("\t")[3]) for line in result.stdout.splitlines() if "\t" in line)
    accuracy = 100 * shared.mean([shared.accuracy(truth, shared.read_probabilities(out)) for *_, out in files])
    return seconds, accuracy


def prepare_dataset(name, catalog, workdir, seed, models):
    """The Aslan splits as ARFF files for ours and as matrices for scikit-learn."""
    header, is_nominal, rows, test, rest, inner = shared.aslan_rows(name, catalog, seed)
    header_text = shared.arff_header(name, header, rows, is_nominal)
    class_values = list(dict.fromkeys(row[-1] for row in rows))
    test_path = workdir / f"{name}-sk-test.arff"
    shared.write_arff(test_path, header_text, test, is_nominal)
    files, train_sets, validation_sets = [], [], []
    for fold in range(models):
        train = [row for row, f in zip(rest, inner) if f != fold]
        validation = [row for row, f in zip(rest, inner) if f == fold]
        train_path = workdir / f"{name}-sk-train{fold}.arff"
        validation_path = workdir / f"{name}-sk-validation{fold}.arff"
        shared.write_arff(train_path, header_text, train, is_nominal)
        shared.write_arff(validation_path, header_text, validation, is_nominal)
        files.append((train_path, validation_path, test_path))
        train_sets.append(matrices(header, is_nominal, train))
        validation_sets.append(matrices(header, is_nominal, validation))
    truth = [class_values.index(row[-1]) for row in test]
    numeric_missing = any(row[i] is None for row in rows for i in range(len(header) - 1) if not is_nominal[i])
    return files, truth, (train_sets, validation_sets, matrices(header, is_nominal, test), numeric_missing)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default=DATASETS, help="datasets for c45, nb, logistic and perceptron")
    parser.add_argument("--knn-datasets", default=KNN_DATASETS, help="datasets for knn5 and knn-select")
    parser.add_argument("--logistic-datasets", default=LOGISTIC_DATASETS, help="datasets for logistic")
    parser.add_argument("--learners", default=",".join(OURS))
    parser.add_argument("--models", type=int, default=30, help="models per dataset (at most 30)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each pair, in turn (the table gives medians)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", default="/tmp/sklearn-speed")
    parser.add_argument("--profile", choices=["dev", "release"], default="dev", help="the cargo profile of our predict example")
    parser.add_argument("--avx2-only", action="store_true", help="both sides without AVX-512 (see above)")
    args = parser.parse_args()
    if args.avx2_only and any(os.environ.get(name) != value for name, value in AVX2_ONLY.items()):
        os.environ.update(AVX2_ONLY)
        os.execv(sys.executable, [sys.executable, *sys.argv])
    learners = [name for name in args.learners.split(",") if name]
    unknown = [name for name in learners if name not in OURS]
    if unknown:
        parser.error(f"unknown learner(s) {unknown}; known: {', '.join(OURS)}")
    if not 1 <= args.models <= 30:
        parser.error("--models takes a number from 1 to 30")
    if not 1 <= args.repeats <= 20:
        parser.error("--repeats takes a number from 1 to 20")
    catalog = shared.load_catalog()
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    binary = shared.build_ours(args.profile)
    plain = [name for name in args.datasets.split(",") if name]
    nearest = [name for name in args.knn_datasets.split(",") if name]
    logistic = [name for name in args.logistic_datasets.split(",") if name]
    model, load = shared.machine()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"Started {started} on {model} ({os.cpu_count()} CPUs), load average {load} (1, 5, 15 min).",
        f"Models per dataset: {args.models} (the Aslan protocol has 30); one thread each; ours built in the {args.profile} profile"
        + ("; both sides without AVX-512 (--avx2-only: " + ", ".join(f"{k}={v}" for k, v in AVX2_ONLY.items()) + ")." if args.avx2_only else "."),
        f"Each pair run {args.repeats} time(s) in turn (scikit-learn, ours, scikit-learn, ...): the median of each side's "
        "CPU seconds, and the median and range of the run-by-run ratios.",
        "",
        "| dataset | learner | scikit-learn fit+predict CPU s | ours fit+predict CPU s | ours faster by (median) | ratio range | scikit-learn acc % | ours acc % |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in dict.fromkeys(plain + nearest + logistic):
        files, truth, data = prepare_dataset(name, catalog, workdir, args.seed, args.models)
        for learner in learners:
            wanted = nearest if learner.startswith("knn") else logistic if learner.startswith("logistic") else plain
            if name not in wanted:
                continue
            outputs = [(*paths, workdir / f"{name}-{learner}-ours{fold}.csv") for fold, paths in enumerate(files)]
            sklearn_times, ours_times = [], []
            for _ in range(args.repeats):
                seconds, sklearn_accuracy = sklearn_run(learner, data, args.seed)
                sklearn_times.append(seconds)
                seconds, ours_accuracy = ours_run(binary, learner, outputs, truth, args.seed)
                ours_times.append(seconds)
            ratios = [theirs / ours for theirs, ours in zip(sklearn_times, ours_times)]
            lines.append(
                f"| {name} | {learner} | {np.median(sklearn_times):.3f} | {np.median(ours_times):.3f} "
                f"| {np.median(ratios):.2f}x | {min(ratios):.2f}x-{max(ratios):.2f}x "
                f"| {sklearn_accuracy:.2f} | {ours_accuracy:.2f} |"
            )
            print(lines[-1], file=sys.stderr, flush=True)
    _, load = shared.machine()
    ended = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines += ["", f"Ended {ended}, load average {load}."]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
