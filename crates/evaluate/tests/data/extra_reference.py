"""Reference values for the evaluate crate's weighted measures, averaging and cost threshold.

Peers: scikit-learn 1.9.1 (confusion_matrix, precision/recall/f1/accuracy, roc_auc_score and
roc_curve, all with sample_weight), statsmodels 0.15.0 proportion_confint, and plain-Python
re-implementations (written independently of the Rust code) of vertical averaging
(Fawcett 2006 Alg. 3 with max TPR at a repeated FPR) and of the brute-force cost-minimising threshold.
Run: python3 extra_reference.py > extra_reference.json
"""
import json

import numpy as np
from sklearn.metrics import (accuracy_score, confusion_matrix, f1_score, precision_score,
                             recall_score, roc_auc_score, roc_curve)
from statsmodels.stats.proportion import proportion_confint

rng = np.random.default_rng(20261122)


def f(x):
    return [float(v) for v in x]


out = {"source": __doc__.strip().splitlines()[0], "weighted_binary": [], "multiclass_confusion": [],
       "vertical_average": [], "min_cost_threshold": [], "threshold_average": []}

# weighted binary measures
for case in range(3):
    n = 30
    y = rng.integers(0, 2, n)
    y[0], y[1] = 0, 1
    s = np.round(rng.random(n), 1)
    w = np.round(rng.random(n) * 3, 2) + 0.01
    pred = (s >= 0.5).astype(int)
    cm = confusion_matrix(y, pred, sample_weight=w)
    fpr, tpr, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    out["weighted_binary"].append({
        "y_true": [int(v) for v in y], "y_score": f(s), "weights": f(w),
        "confusion_at_0.5": [f(r) for r in cm],
        "precision": float(precision_score(y, pred, sample_weight=w)),
        "recall": float(recall_score(y, pred, sample_weight=w)),
        "f1": float(f1_score(y, pred, sample_weight=w)),
        "accuracy": float(accuracy_score(y, pred, sample_weight=w)),
        "auc": float(roc_auc_score(y, s, sample_weight=w)),
        "roc_fpr": f(fpr), "roc_tpr": f(tpr),
    })

# multi-class confusion matrix of argmax predictions, weighted
for case in range(2):
    n, c = 40, 3
    y = rng.integers(0, c, n)
    p = rng.dirichlet(np.ones(c), n)
    p = np.round(p, 2)
    w = np.round(rng.random(n) * 2, 2) + 0.01
    pred = p.argmax(axis=1)
    out["multiclass_confusion"].append({
        "y_true": [int(v) for v in y], "y_score": [f(r) for r in p], "weights": f(w),
        "confusion": [f(r) for r in confusion_matrix(y, pred, sample_weight=w, labels=list(range(c)))],
        "accuracy": float(accuracy_score(y, pred, sample_weight=w)),
        "macro_f1_per_class": f(f1_score(y, pred, sample_weight=w, average=None)),
    })


def tpr_at(fpr, tpr, x):
    same = [t for (a, t) in zip(fpr, tpr) if a == x]
    if same:
        return max(same)
    left = max(i for i in range(len(fpr)) if fpr[i] < x)
    right = min(i for i in range(len(fpr)) if fpr[i] > x)
    return tpr[left] + (tpr[right] - tpr[left]) * (x - fpr[left]) / (fpr[right] - fpr[left])


# vertical averaging of 5 folds
folds = []
for k in range(5):
    n = 20 + k
    y = rng.integers(0, 2, n)
    y[0], y[1] = 0, 1
    s = np.round(rng.random(n) * 0.6 + 0.4 * y, 1)
    folds.append((y, s))
grid = [i / 99 for i in range(100)]
curves = [roc_curve(y, s, drop_intermediate=False)[:2] for (y, s) in folds]
total_pos = sum(int(y.sum()) for (y, _) in folds)
samples = []
for x in grid:
    t = [tpr_at(list(fp), list(tp), x) for (fp, tp) in curves]
    mean = sum(t) / len(t)
    sd = (sum((v - mean) ** 2 for v in t) / (len(t) - 1)) ** 0.5
    lo, hi = proportion_confint(mean * total_pos, total_pos, alpha=0.05, method="wilson")
    samples.append({"fpr": x, "mean_tpr": mean, "sd_tpr": sd, "wilson_low": float(lo), "wilson_high": float(hi)})
out["vertical_average"].append({
    "folds": [{"y_true": [int(v) for v in y], "y_score": f(s)} for (y, s) in folds],
    "alpha": 0.05, "samples": samples})

# cost-minimising threshold by brute force over every candidate threshold
for cost_fp, cost_fn in [(1.0, 1.0), (1.0, 5.0), (4.0, 1.0)]:
    n = 50
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) * 0.7 + 0.3 * y, 2)
    distinct = sorted(set(s.tolist()), reverse=True)
    best = None
    for t in [float("inf")] + distinct:
        pred = s >= t
        cost = cost_fp * np.sum(pred & (y == 0)) + cost_fn * np.sum(~pred & (y == 1))
        if best is None or cost < best[1]:
            best = (t, float(cost))
    out["min_cost_threshold"].append({"y_true": [int(v) for v in y], "y_score": f(s), "cost_fp": cost_fp,
                                      "cost_fn": cost_fn, "roc_threshold": best[0] if best[0] != float("inf") else "inf",
                                      "cost_per_instance": best[1] / n})

# threshold averaging (Fawcett 2006 Alg. 5) of the same folds: thresholds taken by rank from the
# sorted union of the folds' scores; at threshold t each fold's operating point is
# "predict positive iff score >= t", counted directly on its scores
samples_t = 10
union = sorted(set(v for (_, sc) in folds for v in sc.tolist()), reverse=True)
rows = []
for i in range(samples_t):
    if i == 0:
        t = float("inf")
    else:
        rank = i * len(union) // (samples_t - 1)
        t = union[min(max(rank - 1, 0), len(union) - 1)]
    fprs, tprs = [], []
    for (y, sc) in folds:
        pred = sc >= t
        tprs.append(float(np.sum(pred & (y == 1)) / np.sum(y == 1)))
        fprs.append(float(np.sum(pred & (y == 0)) / np.sum(y == 0)))
    rows.append({"threshold": t if t != float("inf") else "inf",
                 "mean_fpr": float(np.mean(fprs)), "sd_fpr": float(np.std(fprs, ddof=1)),
                 "mean_tpr": float(np.mean(tprs)), "sd_tpr": float(np.std(tprs, ddof=1))})
out["threshold_average"].append({"samples": samples_t, "rows": rows})
print(json.dumps(out, indent=1))
