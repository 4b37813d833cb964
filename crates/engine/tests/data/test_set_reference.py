"""Reference values for the tests on the fixed test set (crates/engine/src/measures/test_set.rs), computed
from two models' class probabilities on one test set with outside code only:

  * DeLong, DeLong & Clarke-Pearson (1988) written here from the paper, the O(m n) way: placement
    values V10(X_i) = mean_j psi(X_i, Y_j), V01(Y_j) = mean_i psi(X_i, Y_j) with psi = 1, 1/2, 0
    for X > Y, X = Y, X < Y; S10, S01 their sample covariance matrices (ddof 1); var(A1 - A2) =
    c' (S10 / m + S01 / n) c with c = (1, -1); z = (A1 - A2) / sqrt(var), two-sided normal p
    (scipy.stats.norm);
  * McNemar: statsmodels mcnemar(table, exact=True) on [[both right, a right b wrong],
    [a wrong b right, both wrong]] of the argmax predictions (ties to the lowest class);
  * Hanley & McNeil (1982): SE from their formula with Q1 = A / (2 - A), Q2 = 2 A^2 / (1 + A),
    interval A -+ z SE clipped to [0, 1], z = scipy norm.ppf(1 - alpha / 2), A from
    scikit-learn roc_auc_score;
  * binomial: statsmodels proportion_confint(errors, n, alpha, method='wilson') of the error rate.

Run: python3 test_set_reference.py > test_set_reference.json
"""
import json

import numpy as np
import scipy
import sklearn
import statsmodels
from scipy import stats
from sklearn.metrics import roc_auc_score
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

rng = np.random.default_rng(20261125)
ALPHA = 0.05


def delong(labels, first, second):
    positives = [first[labels], second[labels]]
    negatives = [first[~labels], second[~labels]]
    m, n = len(positives[0]), len(negatives[0])
    v10 = np.zeros((2, m))
    v01 = np.zeros((2, n))
    aucs = []
    for model in range(2):
        x = positives[model][:, None]
        y = negatives[model][None, :]
        psi = (x > y) + 0.5 * (x == y)
        v10[model] = psi.mean(axis=1)
        v01[model] = psi.mean(axis=0)
        aucs.append(psi.mean())
    s10 = np.cov(v10, ddof=1)
    s01 = np.cov(v01, ddof=1)
    c = np.array([1.0, -1.0])
    variance = c @ (s10 / m + s01 / n) @ c
    z = (aucs[0] - aucs[1]) / np.sqrt(variance)
    return aucs, z, 2 * stats.norm.sf(abs(z))


def hanley_mcneil(auc, n_pos, n_neg):
    q1 = auc / (2 - auc)
    q2 = 2 * auc * auc / (1 + auc)
    variance = (auc * (1 - auc) + (n_pos - 1) * (q1 - auc * auc) + (n_neg - 1) * (q2 - auc * auc)) / (
        n_pos * n_neg)
    se = np.sqrt(variance)
    z = stats.norm.ppf(1 - ALPHA / 2)
    return se, max(0.0, auc - z * se), min(1.0, auc + z * se)


def case(name, truth, probabilities, positive):
    truth = np.asarray(truth)
    predicted = [np.argmax(p, axis=1) for p in probabilities]  # first maximum on ties
    right = [pred == truth for pred in predicted]
    table = [[int(np.sum(right[0] & right[1])), int(np.sum(right[0] & ~right[1]))],
             [int(np.sum(~right[0] & right[1])), int(np.sum(~right[0] & ~right[1]))]]
    result = mcnemar(table, exact=True)
    expected = {
        "mcnemar_table": table,
        "mcnemar_statistic": float(result.statistic),
        "mcnemar_pvalue": float(result.pvalue),
        "errors": [float(np.mean(~r)) for r in right],
        "wilson": [list(map(float, proportion_confint(int(np.sum(~r)), len(truth), alpha=ALPHA,
                                                       method="wilson"))) for r in right],
    }
    if positive is not None:
        labels = truth == positive
        scores = [p[:, positive] for p in probabilities]
        aucs, z, p = delong(labels, scores[0], scores[1])
        assert all(abs(a - roc_auc_score(labels, s)) < 1e-12 for a, s in zip(aucs, scores))
        expected.update({
            "aucs": [float(a) for a in aucs],
            "delong_z": float(z),
            "delong_pvalue": float(p),
            "hanley_mcneil": [list(map(float, hanley_mcneil(a, int(labels.sum()), int((~labels).sum()))))
                              for a in aucs],
        })
    return {
        "name": name,
        "positive": positive,
        "classes": probabilities[0].shape[1],
        "truth": truth.tolist(),
        "probabilities": [p.ravel().tolist() for p in probabilities],
        "alpha": ALPHA,
        "expected": expected,
    }


cases = []
truth = rng.integers(0, 2, 80)
signal = truth + rng.normal(0, 0.9, 80)
first = 1 / (1 + np.exp(-signal))
second = np.round(1 / (1 + np.exp(-(0.6 * signal + rng.normal(0, 0.6, 80)))), 1)  # ties
cases.append(case("binary", truth, [np.column_stack([1 - first, first]),
                                    np.column_stack([1 - second, second])], 1))
truth3 = rng.integers(0, 3, 50)
cases.append(case("three_classes", truth3,
                  [rng.dirichlet([1, 1, 1], 50) * 0.5 + 0.5 * np.eye(3)[truth3] * rng.uniform(0, 1, (50, 1)),
                   rng.dirichlet([2, 1, 1], 50)], None))
for c in cases:
    c["probabilities"] = [list(map(float, p)) for p in c["probabilities"]]
print(json.dumps({
    "source": "crates/engine/tests/data/test_set_reference.py: scipy %s, statsmodels %s, "
              "scikit-learn %s, numpy %s" % (scipy.__version__, statsmodels.__version__,
                                             sklearn.__version__, np.__version__),
    "cases": cases,
}, indent=1))
