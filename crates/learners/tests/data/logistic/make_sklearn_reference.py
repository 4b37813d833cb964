#!/usr/bin/env python3
"""Reference probabilities for tests/logistic.rs from scikit-learn's LogisticRegression.

Weka's Logistic (and this project's `logistic`) minimises, on columns standardised by their
training mean and *sample* standard deviation,

    sum_i -log P(y_i | z_i) + ridge * |b|^2        (intercept not penalised)

scikit-learn's binary LogisticRegression (solver newton-cholesky, an exact Newton method run
here to tol 1e-12) minimises  C * sum_i -log P(y_i | z_i) + |b|^2 / 2,
so the two optima coincide when C = 1 / (2 ridge). For two classes both have one coefficient
vector (Weka's reference class is the last one; scikit-learn's positive class is the second of
the sorted labels: the probabilities are compared by class name, so the sign convention does not
matter). Multi-class is not compared: scikit-learn's multinomial model has one vector per class
(no reference class), whose penalised optimum differs from Weka's.

Data: the shipped datasets/pima.csv (numeric, two classes, no missing values); training rows
i % 3 != 0, test rows i % 3 == 0 (i = 0-based data row). Writes sklearn_pima.json.

    python3 crates/learners/tests/data/logistic/make_sklearn_reference.py
"""

import csv
import json
from pathlib import Path

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[5]
HERE = Path(__file__).resolve().parent

with open(ROOT / "datasets" / "pima.csv", newline="") as handle:
    reader = csv.reader(handle)
    header = next(reader)
    rows = list(reader)
features = np.array([[float(v) for v in row[:-1]] for row in rows])
labels = np.array([row[-1] for row in rows])
train = np.array([i % 3 != 0 for i in range(len(rows))])
test = ~train

x_train = features[train]
mean = x_train.mean(axis=0)
deviation = x_train.std(axis=0, ddof=1)  # Weka: divisor (total weight - 1)

cases = []
for ridge in (1e-8, 10.0):
    model = LogisticRegression(C=1.0 / (2.0 * ridge), solver="newton-cholesky", tol=1e-12, max_iter=1000)
    z_train = (x_train - mean) / deviation
    model.fit(z_train, labels[train])
    # The gradient of Weka's objective at scikit-learn's solution, to show it is the optimum.
    positive = (labels[train] == model.classes_[1]).astype(float)
    p_positive = model.predict_proba(z_train)[:, 1]
    gradient = np.concatenate([[np.sum(p_positive - positive)], z_train.T @ (p_positive - positive) + 2 * ridge * model.coef_[0]])
    probabilities = model.predict_proba((features[test] - mean) / deviation)
    cases.append(
        {
            "ridge": ridge,
            "classes": list(model.classes_),
            "iterations": int(model.n_iter_[0]),
            "largest_gradient_entry": float(np.abs(gradient).max()),
            "probabilities": probabilities.tolist(),
        }
    )

document = {
    "generator": f"scikit-learn {sklearn.__version__}, {Path(__file__).name}",
    "dataset": "pima",
    "test_rows": [i for i in range(len(rows)) if i % 3 == 0],
    "cases": cases,
}
(HERE / "sklearn_pima.json").write_text(json.dumps(document, indent=1) + "\n")
print("wrote sklearn_pima.json", [case["iterations"] for case in cases])
