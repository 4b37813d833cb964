"""Writes models.csv (three models' probabilities of the positive class on 300 rows, with ties)
and expected.json: what `experiments roc models.csv --json --max-fpr 0.2` must report, from the
peers. Run with /work/venv/bin/python generate.py (numpy, scikit-learn, netcal, hmeasure, pyprg
as module `prg`; Rscript with pROC and ROCR for the DeLong pair check and the cost curve).

* average precision, AUC, standardised partial AUC (max_fpr = 0.2), Brier score: scikit-learn
  (`average_precision_score`, `roc_auc_score`, `roc_auc_score(max_fpr=0.2)`, `brier_score_loss`);
  the error rate: 1 - `accuracy_score(y, s >= 0.5)`.
* ECE and MCE over 10 equal-width bins: netcal `ECE(10)`, `MCE(10)` (scores are k/100 + 0.005,
  so none lies on a bin edge, where netcal and scikit-learn disagree).
* H-measure: PyPI hmeasure `h_score(y, s)` (its default severity ratio n1/n0).
* PR-Gain area: pyprg `calc_auprg(create_prg_curve(y, s))`.
* cost curve lower envelope: ROCR `performance(prediction(s, y), "ecost")` (x, y values).
* DeLong's chi-square of equal AUCs (2 df): the fast DeLong of Sun & Xu (2014) in numpy below,
  its pairwise z^2 checked here against pROC 1.18's `roc.test(method = "delong")`, and the
  chi-square itself computed in R from pROC's `var` and `cov(method = "delong")` matrix
  (`proc_chi_square`, asserted equal to numpy's to 1e-9); its AUC standard errors (pROC's
  `var(roc, method = "delong")`) bound the bootstrap's.
"""
import json
import os
import subprocess
import tempfile

import hmeasure
import netcal
import numpy as np
import sklearn
from netcal.metrics import ECE, MCE
from scipy import stats
from sklearn.metrics import (accuracy_score, average_precision_score, brier_score_loss,
                             roc_auc_score)


def _alen(a):
    """numpy 1.17's np.alen, which pyprg needs and numpy 2 removed."""
    try:
        return len(a)
    except TypeError:
        return len(np.array(a, ndmin=1))


np.alen = _alen
from prg import prg  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def data():
    rng = np.random.default_rng(29)
    n = 300
    y = (rng.random(n) < 0.35).astype(int)
    models = {}
    for name, strength, offset in [("good", 2.2, 0.0), ("fair", 1.1, 0.15), ("weak", 0.5, -0.1)]:
        z = strength * (y - 0.35) + rng.normal(0.0, 1.0, n) + offset
        p = 1 / (1 + np.exp(-z))
        models[name] = np.clip(np.floor(p * 100) / 100 + 0.005, 0.005, 0.995)
    return y, models


def placements(y, s):
    pos, neg = s[y == 1], s[y == 0]
    v10 = np.array([np.mean((p > neg) + 0.5 * (p == neg)) for p in pos])
    v01 = np.array([np.mean((pos > q) + 0.5 * (pos == q)) for q in neg])
    return v10, v01


def delong(y, scores):
    comps = [placements(y, s) for s in scores]
    aucs = np.array([c[0].mean() for c in comps])
    s10 = np.cov(np.array([c[0] for c in comps]))
    s01 = np.cov(np.array([c[1] for c in comps]))
    cov = s10 / len(comps[0][0]) + s01 / len(comps[0][1])
    k = len(scores)
    contrast = np.array([[1.0 if j == i else -1.0 if j == i + 1 else 0.0 for j in range(k)]
                         for i in range(k - 1)])
    values = contrast @ aucs
    middle = contrast @ cov @ contrast.T
    chi2 = float(values @ np.linalg.pinv(middle) @ values)
    df = int(np.linalg.matrix_rank(middle))
    return aucs, cov, chi2, df, float(stats.chi2.sf(chi2, df))


R_SCRIPT = r"""
suppressMessages({library(pROC); library(ROCR)})
d <- read.csv(commandArgs(TRUE)[1])
names <- c("good", "fair", "weak")
rocs <- lapply(names, function(m) roc(d$truth, d[[m]], levels = c(0, 1), direction = "<", quiet = TRUE))
for (i in 1:2) for (j in (i + 1):3) {
  t <- roc.test(rocs[[i]], rocs[[j]], method = "delong", paired = TRUE)
  cat(sprintf("pair %d %d %.17g\n", i, j, as.numeric(t$statistic)))
}
for (i in 1:3) cat(sprintf("var %d %.17g\n", i, var(rocs[[i]], method = "delong")))
# DeLong's chi-square of equal AUCs from pROC's own covariance matrix (var and cov)
S <- matrix(0, 3, 3)
for (i in 1:3) for (j in 1:3) S[i, j] <- if (i == j) var(rocs[[i]], method = "delong") else
  cov(rocs[[i]], rocs[[j]], method = "delong")
theta <- sapply(rocs, function(r) as.numeric(auc(r)))
L <- rbind(c(1, -1, 0), c(0, 1, -1))
v <- L %*% theta
cat(sprintf("chi2 %.17g\n", as.numeric(t(v) %*% solve(L %*% S %*% t(L)) %*% v)))
for (m in names) {
  p <- performance(prediction(d[[m]], d$truth), "ecost")
  cat(sprintf("ecost %s %.17g %.17g\n", m, p@x.values[[1]], p@y.values[[1]]), sep = "")
}
"""


def r_reference(path):
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "s.R")
        with open(script, "w") as f:
            f.write(R_SCRIPT)
        out = subprocess.run(["Rscript", script, path], capture_output=True, text=True,
                             check=True).stdout.splitlines()
    return [line.split() for line in out]


def main():
    y, models = data()
    path = os.path.join(HERE, "models.csv")
    with open(path, "w") as f:
        f.write("truth," + ",".join(models) + "\n")
        for i in range(len(y)):
            f.write(f"{y[i]}," + ",".join("%.3f" % models[m][i] for m in models) + "\n")
    # read back what the file holds (3 decimals), so both sides see the same numbers
    table = np.loadtxt(path, delimiter=",", skiprows=1)
    y = table[:, 0].astype(int)
    models = {name: table[:, 1 + i] for i, name in enumerate(models)}
    r = r_reference(path)
    aucs, cov, chi2, df, p = delong(y, list(models.values()))
    names = list(models)
    for line in r:
        if line[0] == "pair":
            i, j, z = int(line[1]) - 1, int(line[2]) - 1, float(line[3])
            diff = aucs[i] - aucs[j]
            var = cov[i, i] + cov[j, j] - 2 * cov[i, j]
            assert abs(diff / np.sqrt(var) - z) < 1e-9, (line, diff / np.sqrt(var))
        if line[0] == "var":
            i = int(line[1]) - 1
            assert abs(float(line[2]) - cov[i, i]) < 1e-12, line
        if line[0] == "chi2":
            proc_chi2 = float(line[1])
            assert abs(proc_chi2 - chi2) < 1e-9 * chi2, (line, chi2)
    out_models = []
    for i, (name, s) in enumerate(models.items()):
        curve = prg.create_prg_curve(y, s)
        ecost = [(float(l[2]), float(l[3])) for l in r if l[0] == "ecost" and l[1] == name]
        out_models.append({
            "name": name,
            "auc": float(roc_auc_score(y, s)),
            "average_precision": float(average_precision_score(y, s)),
            "partial_auc_standardized": float(roc_auc_score(y, s, max_fpr=0.2)),
            "brier": float(brier_score_loss(y, s)),
            "error": float(1 - accuracy_score(y, (s >= 0.5).astype(int))),
            "ece": float(ECE(10).measure(s, y)),
            "mce": float(MCE(10).measure(s, y)),
            "h_measure": float(hmeasure.h_score(y, s)),
            "prg_area": float(prg.calc_auprg(curve)),
            "auc_delong_se": float(np.sqrt(cov[i, i])),
            "ecost_x": [x for x, _ in ecost],
            "ecost_y": [v for _, v in ecost],
        })
    versions = (f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, netcal "
                f"{netcal.__version__}, hmeasure {hmeasure.__version__}, pyprg 0.1.1b7, "
                "R pROC 1.18, ROCR")
    out = {"source": f"generate.py ({versions})", "max_fpr": 0.2, "models": out_models,
           "delong": {"chi_square": chi2, "df": df, "pvalue": p,
                      "proc_chi_square": proc_chi2}}
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
