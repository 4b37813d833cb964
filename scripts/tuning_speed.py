#!/usr/bin/env python3
"""Tuning's speed beside scikit-learn's GridSearchCV on the same outer and inner splits.

For each dataset and learner: our whole process (`experiments --config` of a config tuning the
learner over a grid with 3 stratified inner folds inside 10-fold CV, a fresh results folder,
`--threads 1`, the binary `cargo build -p experiments` builds, as a user runs it) against a
whole Python process that reads the splits our run wrote (splits/<dataset>.json and
<dataset>.inner.json) and, for each outer split, runs GridSearchCV(cv=PredefinedSplit(the inner
folds), refit=True) over the same grid, then scores the refitted model on the outer test rows
(what `cross_validate` around a GridSearchCV does, with the inner folds fixed to ours). One
thread on both sides (OMP/OPENBLAS/MKL threads pinned to 1). CPU seconds (user + system) of each
whole process, runs in turn, `--repeats` times; the table gives each side's median and the
median and range of the run-by-run ratios.

    python3 scripts/tuning_speed.py [--repeats 3] [--datasets spambase,magic] [--learners knn,logistic]

Needs numpy, pandas and scikit-learn for the peer (`--peer` is that side, run by this script).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRIDS = {
    "knn": ("k", [1, 3, 5, 7, 11, 21]),
    "logistic": ("ridge", [1e-8, 1e-4, 1e-2, 1.0, 100.0]),
}
TABLES = {
    "knn": '{ name = "knn", kind = "knn", select_k = false, tune = { k = [1, 3, 5, 7, 11, 21] } }',
    "logistic": '{ name = "logistic", kind = "logistic", tune = { ridge = [1e-8, 1e-4, 1e-2, 1.0, 100.0] } }',
}


def config(dataset, learner):
    return (
        f'name = "tuning-{dataset}-{learner}"\nseed = 1\ndatasets = ["{dataset}"]\n'
        'protocol = { kind = "stratified_kfold", folds = 10 }\nmeasures = ["error"]\n'
        'tests = ["paired_t"]\n'
        'tuning = { budget = 6, method = "grid", measure = "error", '
        'inner = { kind = "stratified_kfold", folds = 3 } }\n'
        f"learners = [{TABLES[learner]}]\n"
    )


def cpu_of(command, env=None):
    """CPU seconds (user + system) of one whole child process, and its wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def ours(binary, dataset, learner, scratch):
    path = os.path.join(scratch, f"{dataset}-{learner}.toml")
    with open(path, "w") as handle:
        handle.write(config(dataset, learner))
    results = tempfile.mkdtemp(dir=scratch)
    cpu, wall = cpu_of([binary, "--config", path, "--results", results, "--threads", "1"])
    return cpu, wall, os.path.join(results, f"tuning-{dataset}-{learner}", "splits")


def peer(dataset, learner, splits):
    """The scikit-learn side, in this process (run by --peer as a whole process)."""
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, PredefinedSplit
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    frame = pd.read_csv(os.path.join(ROOT, "datasets", dataset + ".csv"))
    x = frame.iloc[:, :-1].to_numpy(dtype=float)
    y = frame.iloc[:, -1].astype(str).to_numpy()
    with open(os.path.join(splits, dataset + ".json")) as handle:
        outer = json.load(handle)["splits"]
    with open(os.path.join(splits, dataset + ".inner.json")) as handle:
        inner = json.load(handle)
    if learner == "knn":
        model = Pipeline([("scale", MinMaxScaler()), ("m", KNeighborsClassifier(algorithm="brute"))])
        grid = {"m__n_neighbors": GRIDS["knn"][1]}
    else:
        model = Pipeline([("scale", StandardScaler()), ("m", LogisticRegression(max_iter=1000))])
        grid = {"m__C": [1.0 / (2.0 * ridge) for ridge in GRIDS["logistic"][1]]}
    errors = []
    for split, folds in zip(outer, inner):
        train = split["train"] if isinstance(split["train"], list) else sorted(
            set(range(len(y))) - set(split["test"]))
        position = {row: index for index, row in enumerate(train)}
        test_fold = np.full(len(train), -1)
        for fold, part in enumerate(folds):
            test_fold[[position[row] for row in part["test"]]] = fold
        search = GridSearchCV(model, grid, scoring="accuracy", cv=PredefinedSplit(test_fold),
                              refit=True, n_jobs=1)
        search.fit(x[train], y[train])
        errors.append(1.0 - search.score(x[split["test"]], y[split["test"]]))
    print(f"mean error {np.mean(errors):.4f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--datasets", default="spambase,magic")
    parser.add_argument("--learners", default="knn,logistic")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "debug", "experiments"))
    parser.add_argument("--peer", nargs=3, metavar=("DATASET", "LEARNER", "SPLITS"))
    args = parser.parse_args()
    if args.peer:
        peer(*args.peer)
        return
    scratch = tempfile.mkdtemp(prefix="tuning-speed-")
    print("| dataset | learner | ours CPU s (median) | scikit-learn CPU s (median) | ratio median | ratio range |")
    print("| --- | --- | --- | --- | --- | --- |")
    for dataset in args.datasets.split(","):
        for learner in args.learners.split(","):
            pairs = []
            for _ in range(args.repeats):
                cpu, _, splits = ours(args.binary, dataset, learner, scratch)
                theirs, _ = cpu_of([sys.executable, os.path.abspath(__file__), "--peer", dataset, learner, splits])
                pairs.append((cpu, theirs))
            ratios = [theirs / cpu for cpu, theirs in pairs]
            print(
                f"| {dataset} | {learner} | {statistics.median(p[0] for p in pairs):.2f} | "
                f"{statistics.median(p[1] for p in pairs):.2f} | {statistics.median(ratios):.2f}x | "
                f"{min(ratios):.2f}x-{max(ratios):.2f}x |",
                flush=True,
            )


if __name__ == "__main__":
    main()
