"""Closed-form moments of the class-stratified bootstrap distribution of four measures, for
the fast bootstrap's tests. Run from this folder: /work/venv/bin/python bootstrap_closed_form.py
(writes bootstrap_closed_form.json; numpy only).

Under resampling each class with replacement (m positives, n negatives kept):
* a mean over all rows of a per-row value v (error indicator at threshold 0.5, squared error
  for Brier) has bootstrap mean = the sample mean and variance
  sum over classes c of n_c var_c / N^2, with var_c the plug-in (ddof 0) variance of v in class c;
* a two-sample statistic (1/(mn)) sum_ij h(x_i, y_j) (AUC: h = [x > y] + [x = y]/2; scored AUC:
  h = (x - y)[x > y]) has bootstrap mean = the statistic and variance
  (s11 + (n - 1) s10 + (m - 1) s01) / (m n), with s11 the plug-in variance of h over all pairs,
  s10 that of the row means of h (over positives) and s01 that of the column means.
All from the brute-force pair matrix here.
"""
import json
import os

import numpy as np

rng = np.random.default_rng(31)
n_rows = 160
y = (rng.random(n_rows) < 0.35).astype(int)
p = np.round(np.clip(1 / (1 + np.exp(-(rng.normal(0, 1.2, n_rows) + 1.2 * y - 0.6))), 0, 1), 2)


def row_mean_moments(values):
    var = sum((y == c).sum() * values[y == c].var() for c in (0, 1)) / n_rows ** 2
    return {"mean": float(values.mean()), "variance": float(var)}


def pair_moments(h):
    m, n = h.shape
    theta = h.mean()
    s11 = (h ** 2).mean() - theta ** 2
    s10 = ((h.mean(axis=1) - theta) ** 2).mean()
    s01 = ((h.mean(axis=0) - theta) ** 2).mean()
    return {"mean": float(theta), "variance": float((s11 + (n - 1) * s10 + (m - 1) * s01) / (m * n))}


pos, neg = p[y == 1][:, None], p[y == 0][None, :]
out = {
    "source": f"bootstrap_closed_form.py (numpy {np.__version__}): exact moments of the "
              "class-stratified bootstrap distribution",
    "input": {"labels": y.tolist(), "scores": p.tolist(), "threshold": 0.5},
    "expected": {
        "error_rate": row_mean_moments(((p >= 0.5).astype(int) != y).astype(float)),
        "brier": row_mean_moments((p - y) ** 2),
        "auc": pair_moments((pos > neg) + 0.5 * (pos == neg)),
        "scored_auc": pair_moments((pos - neg) * (pos > neg)),
    },
}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "bootstrap_closed_form.json"), "w") as f:
    json.dump(out, f)
    f.write("\n")
