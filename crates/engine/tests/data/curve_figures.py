"""Reference values of the report's fold-averaged curve figures (issue 29), written to
curve_figures.json beside this script and read by crates/engine/tests/curve_figures.rs.

Run with: /work/venv/bin/python crates/engine/tests/data/curve_figures.py

Two models scored on the test rows of four folds (seeded numpy draws, scores rounded to three
decimals so that ties occur, and moved off the multiples of 0.1, where scikit-learn's
calibration_curve and netcal/numpy put a score in different bins). Every expected value comes
from a peer or from the definition computed independently with numpy:

* reliability (all folds pooled, 10 equal-width bins): scikit-learn 1.9 `calibration_curve(y,
  p, n_bins=10, strategy="uniform")` (observed frequency, mean predicted probability of each
  non-empty bin), numpy `histogram` counts and positives, statsmodels
  `proportion_confint(method="wilson", alpha=0.05)`;
* precision-recall: each fold's (TP, FP) points from scikit-learn `roc_curve(...,
  drop_intermediate=False)` (rates times class counts), Davis & Goadrich's (2006) interpolation
  at recall r (x = rP - TP_A extra true positives on the segment A -> B reaching rP, precision
  (TP_A + x) / (TP_A + FP_A + x (1 + (FP_B - FP_A) / (TP_B - TP_A)))), at recalls i / 100, mean
  and sample sd (ddof 1) over the folds;
* PR-Gain: pyprg 0.1.1b7 `create_prg_curve` (the part with recall gain >= 0), read at recall
  gains i / 100 by linear interpolation (the highest precision gain where points share a
  recall gain; the end values beyond the ends), mean and sd over the folds;
* cost curves: R ROCR `performance(prediction(s, y), "ecost")` of each model and fold (the
  lower envelope's points), read at probability costs i / 100 with numpy `interp`; each model's
  mean and sd over folds, and the mean and sd over folds of the lower of the two models'
  envelopes (the envelope of all their ROC points together).
"""
import json
import os
import subprocess
import tempfile

import numpy as np
from sklearn.calibration import calibration_curve
from sklearn.metrics import roc_curve
from statsmodels.stats.proportion import proportion_confint


def _alen(a):
    """numpy 1.17's np.alen, which pyprg needs and numpy 2 removed."""
    try:
        return len(a)
    except TypeError:
        return len(np.array(a, ndmin=1))


np.alen = _alen
from prg import prg  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GRID = [i / 100 for i in range(101)]
FOLDS = 4


def off_edges(s):
    s = np.round(s, 3)
    on_edge = np.isclose(s * 10, np.round(s * 10))
    return np.clip(np.where(on_edge, s + 0.004, s), 0.0, 1.0)


def data():
    rng = np.random.default_rng(29)
    folds = []
    for f in range(FOLDS):
        n = 60 + 10 * f
        y = (rng.random(n) < 0.35).astype(int)
        y[:2] = [0, 1]
        good = off_edges(1 / (1 + np.exp(-(rng.normal(0, 1, n) + 2.0 * y - 1.0))))
        weak = off_edges(np.clip(0.3 + 0.15 * y + rng.normal(0, 0.2, n), 0, 1))
        folds.append({"labels": y.tolist(), "good": good.tolist(), "weak": weak.tolist()})
    return folds


def reliability(folds, model):
    y = np.concatenate([f["labels"] for f in folds])
    p = np.concatenate([f[model] for f in folds])
    true, pred = calibration_curve(y, p, n_bins=10, strategy="uniform")
    edges = np.linspace(0, 1, 11)
    counts, _ = np.histogram(p, bins=edges)
    positives, _ = np.histogram(p[y == 1], bins=edges)
    low, high = proportion_confint(positives, np.maximum(counts, 1), alpha=0.05, method="wilson")
    filled = counts > 0
    return {"counts": counts.tolist(), "positives": positives.tolist(),
            "frequency": true.tolist(), "mean_score": pred.tolist(),
            "wilson_low": low[filled].tolist(), "wilson_high": high[filled].tolist()}


def dg_precision(tp, fp, positives, r):
    target = r * positives
    index = np.argmax(tp >= target) if target > 0 else np.argmax(tp > 0)
    a_tp, a_fp = (tp[index - 1], fp[index - 1]) if index > 0 else (0.0, 0.0)
    skew = (fp[index] - a_fp) / (tp[index] - a_tp)
    x = max(target - a_tp, 0.0)
    denominator = a_tp + a_fp + (1 + skew) * x
    return 1 / (1 + skew) if denominator == 0 else (a_tp + x) / denominator


def pr_fold(y, s):
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    positives, negatives = y.sum(), len(y) - y.sum()
    tp, fp = np.round(tpr * positives)[1:], np.round(fpr * negatives)[1:]
    return [dg_precision(tp, fp, positives, r) for r in GRID]


def prg_fold(y, s):
    curve = prg.create_prg_curve(y, s)
    keep = curve["recall_gain"] >= 0
    rg, pg = curve["recall_gain"][keep], curve["precision_gain"][keep]
    out = []
    for g in GRID:
        tied = pg[rg == g]
        if g <= rg[0]:
            out.append(float(pg[rg == rg[0]].max()))
        elif g >= rg[-1]:
            out.append(float(pg[-1]) if g > rg[-1] else float(tied.max()))
        elif len(tied):
            out.append(float(tied.max()))
        else:
            i = np.searchsorted(rg, g)
            share = (g - rg[i - 1]) / (rg[i] - rg[i - 1])
            out.append(float(pg[i - 1] + share * (pg[i] - pg[i - 1])))
    return out


R_SCRIPT = r"""
suppressMessages(library(ROCR))
d <- read.csv(commandArgs(TRUE)[1])
for (f in unique(d$fold)) for (m in c("good", "weak")) {
  e <- d[d$fold == f, ]
  p <- performance(prediction(e[[m]], e$labels), "ecost")
  cat(sprintf("%d %s %.17g %.17g\n", f, m, p@x.values[[1]], p@y.values[[1]]), sep = "")
}
"""


def rocr_envelopes(folds):
    with tempfile.TemporaryDirectory() as folder:
        csv, script = os.path.join(folder, "d.csv"), os.path.join(folder, "s.R")
        with open(csv, "w") as out:
            out.write("fold,labels,good,weak\n")
            for i, f in enumerate(folds):
                for row in zip(f["labels"], f["good"], f["weak"]):
                    out.write(f"{i},{row[0]},{row[1]!r},{row[2]!r}\n")
        with open(script, "w") as out:
            out.write(R_SCRIPT)
        lines = subprocess.run(["Rscript", script, csv], capture_output=True, text=True,
                               check=True).stdout.split("\n")
    points = {}
    for line in filter(None, lines):
        f, m, x, y = line.split()
        points.setdefault((int(f), m), []).append((float(x), float(y)))
    return {key: np.interp(GRID, [p[0] for p in v], [p[1] for p in v])
            for key, v in points.items()}


def mean_sd(rows):
    rows = np.array(rows)
    return {"mean": rows.mean(axis=0).tolist(), "sd": rows.std(axis=0, ddof=1).tolist()}


def main():
    folds = data()
    envelopes = rocr_envelopes(folds)
    models = {}
    for m in ["good", "weak"]:
        arrays = [(np.array(f["labels"]), np.array(f[m])) for f in folds]
        models[m] = {
            "reliability": reliability(folds, m),
            "precision": mean_sd([pr_fold(y, s) for y, s in arrays]),
            "precision_gain": mean_sd([prg_fold(y, s) for y, s in arrays]),
            "cost": mean_sd([envelopes[(i, m)] for i in range(FOLDS)]),
        }
    hull = mean_sd([np.minimum(envelopes[(i, "good")], envelopes[(i, "weak")])
                    for i in range(FOLDS)])
    with open(os.path.join(HERE, "curve_figures.json"), "w") as out:
        json.dump({"generator": "curve_figures.py (scikit-learn, statsmodels, pyprg, R ROCR)",
                   "grid": GRID, "folds": folds, "models": models, "hull_cost": hull},
                  out, indent=1)


if __name__ == "__main__":
    main()
