"""Writes sklearn.json: what scikit-learn's GridSearchCV chooses on the splits of
tuning-sklearn.toml (committed beside this script as <dataset>.json and <dataset>.inner.json,
written by that config's run), for crates/engine/tests/tuning.rs.

For each dataset and outer split: the outer training rows, the inner folds as a PredefinedSplit
(each training row's inner test fold), and GridSearchCV(Pipeline(MinMaxScaler,
KNeighborsClassifier(algorithm="brute")), {"n_neighbors": [1, 3, 5, 7, 11, 21]},
scoring="accuracy", refit=True) (k-NN as Weka's IBk measures distance: each attribute scaled by
the training rows' range, Euclidean). Recorded: the chosen k, its mean inner error (1 - the mean
accuracy over the inner folds), and the refitted model's error on the outer test rows. And the
ridge GridSearchCV chooses for Pipeline(StandardScaler, LogisticRegression) over the same
grid as our logistic's ridge [1e-8, 1e-4, 1e-2, 1, 100] (Weka's ridge R penalises R |w|^2 beside
the log-likelihood; scikit-learn's C weighs the log-loss against |w|^2 / 2: C = 1 / (2 R)).

Run from the repository's root: python3 crates/engine/tests/data/tuning/tuning_sklearn.py
(numpy, scikit-learn).
"""
import csv
import json
import os

import numpy as np
import sklearn
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..", "..", "..")
GRID = [1, 3, 5, 7, 11, 21]
RIDGES = [1e-8, 1e-4, 1e-2, 1.0, 100.0]


def load(name):
    with open(os.path.join(ROOT, "datasets", name + ".csv")) as handle:
        rows = list(csv.reader(handle))[1:]
    features = np.array([[float(value) for value in row[:-1]] for row in rows])
    labels = np.array([row[-1] for row in rows])
    return features, labels


def train_rows(split, instances):
    if isinstance(split["train"], list):
        return sorted(split["train"])
    held = set(split["test"]) | set(split.get("validation") or [])
    return [row for row in range(instances) if row not in held]


def tune(name):
    features, labels = load(name)
    with open(os.path.join(HERE, name + ".json")) as handle:
        plan = json.load(handle)
    with open(os.path.join(HERE, name + ".inner.json")) as handle:
        inner = json.load(handle)
    results = []
    for outer, folds in zip(plan["splits"], inner):
        rows = train_rows(outer, len(labels))
        position = {row: index for index, row in enumerate(rows)}
        test_fold = np.full(len(rows), -1)
        for fold, split in enumerate(folds):
            for row in split["test"]:
                test_fold[position[row]] = fold
        assert (test_fold >= 0).all()
        pipeline = Pipeline([("scale", MinMaxScaler()),
                             ("knn", KNeighborsClassifier(algorithm="brute"))])
        search = GridSearchCV(pipeline, {"knn__n_neighbors": GRID}, scoring="accuracy",
                              cv=PredefinedSplit(test_fold), refit=True)
        search.fit(features[rows], labels[rows])
        test = outer["test"]
        logistic = Pipeline([("scale", StandardScaler()),
                             ("logistic", LogisticRegression(max_iter=10000, tol=1e-10))])
        costs = [1.0 / (2.0 * ridge) for ridge in RIDGES]
        ridge = GridSearchCV(logistic, {"logistic__C": costs}, scoring="accuracy",
                             cv=PredefinedSplit(test_fold)).fit(features[rows], labels[rows])
        results.append({
            "ridge": RIDGES[costs.index(ridge.best_params_["logistic__C"])],
            "repetition": outer["repetition"],
            "fold": outer["fold"],
            "k": int(search.best_params_["knn__n_neighbors"]),
            "inner_error": 1.0 - float(search.best_score_),
            "test_error": 1.0 - float(search.score(features[test], labels[test])),
        })
    return results


def main():
    vectors = {"sklearn": sklearn.__version__, "grid": GRID, "ridges": RIDGES,
               "datasets": {name: tune(name) for name in ["pima", "sonar"]}}
    with open(os.path.join(HERE, "sklearn.json"), "w") as handle:
        json.dump(vectors, handle, indent=1)
        handle.write("\n")


if __name__ == "__main__":
    main()
