"""Reference values for calibration, Brier decomposition, precision-recall, PR-Gain, partial AUC,
H-measure and cost curves (issue 29). Run from this folder:

    /work/venv/bin/python issue29_reference.py

It writes issue29_reference.json. Needs numpy, scipy, scikit-learn, statsmodels, netcal,
hmeasure, pyprg (module `prg`) and Rscript with pROC and ROCR. Where each value comes from:

* calibration: netcal 1.4 ECE/MCE (`equal_intervals` True/False; binary input = probability of
  the positive class, multi-class input = top label); scikit-learn `calibration_curve`
  (strategy "uniform") for the non-empty bins' frequency and mean score when no score lies on an
  inner edge (scikit-learn puts such a score in the bin below, netcal in the bin above); bin counts and the
  equal-mass edges from numpy (np.quantile, np.searchsorted side="right" on the inner edges);
  per-bin intervals from statsmodels `proportion_confint` ("beta" = Clopper-Pearson, "wilson").
* Brier: scikit-learn `brier_score_loss` (binary, and multi-class with scale_by_half=False);
  the decomposition terms computed here directly from their definitions with numpy.
* precision-recall: scikit-learn `precision_recall_curve` and `average_precision_score`; the
  area under Davis & Goadrich's interpolated curve by numerical integration (scipy quad of
  precision(recall) on each segment); vertical averaging written here with numpy.
* PR-Gain: pyprg 0.1.1b7 `create_prg_curve` / `calc_auprg` (numpy 2 removed np.alen, which
  pyprg calls; it is restored below as numpy 1.17's definition: len(x), or
  len(np.array(x, ndmin=1)) when x has no length).
* partial AUC: scikit-learn `roc_auc_score(max_fpr=F)`; R pROC 1.18 `auc(partial.auc =
  c(1 - lo, 1 - hi), partial.auc.focus = "specificity", partial.auc.correct = TRUE/FALSE,
  allow.invalid.partial.auc.correct = TRUE)`.
* H-measure: PyPI hmeasure 0.1.6 `h_score(y, s, severity_ratio)` (prior Beta(2, 1 + 1/r));
  for another Beta(a, b), scipy quad of the minimum loss over the ROC points.
* cost curves: R ROCR 1.0.11 `performance(prediction(s, y), "ecost")` (x = probability cost,
  y = normalised expected cost of the lower envelope); for several models, the envelope's
  value at a grid of PC as the minimum over all their points' lines (numpy brute force).
"""
import json
import os
import subprocess
import tempfile

import hmeasure
import netcal
import numpy as np
import scipy
import sklearn
from netcal.metrics import ECE, MCE
from scipy import integrate, stats
from sklearn.calibration import calibration_curve
from sklearn.metrics import (average_precision_score, brier_score_loss, precision_recall_curve,
                             roc_auc_score, roc_curve)
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


def datasets():
    rng = np.random.default_rng(29)
    out = {}
    n = 300
    x = rng.normal(0, 1, n)
    y = (rng.random(n) < 1 / (1 + np.exp(-1.5 * x))).astype(int)
    out["continuous"] = (y, 1 / (1 + np.exp(-1.2 * x - 0.3)))
    n = 200
    x = rng.normal(0, 1, n)
    y = (rng.random(n) < 1 / (1 + np.exp(-x))).astype(int)
    out["ties"] = (y, np.round(1 / (1 + np.exp(-2 * x)), 1))
    out["small"] = (np.array([1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1]),
                    np.array([0.9, 0.85, 0.8, 0.8, 0.7, 0.55, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05]))
    n = 500
    x = rng.normal(0, 1, n)
    y = (rng.random(n) < 1 / (1 + np.exp(-(x * 2 - 3)))).astype(int)
    out["imbalanced"] = (y, np.clip(1 / (1 + np.exp(-(x * 1.5 - 2.5))), 0, 1))
    out["poor"] = (np.array([1, 0, 1, 0, 1, 0, 1, 0, 0, 0]),
                   np.array([0.2, 0.9, 0.4, 0.8, 0.3, 0.1, 0.6, 0.7, 0.5, 0.65]))
    return out


def bins_numpy(s, bins, equal_mass):
    edges = np.linspace(0, 1, bins + 1)
    if equal_mass:
        edges = np.quantile(s, edges)
        edges[0], edges[-1] = 0.0, 1.0
    return edges, np.searchsorted(edges[1:-1], s, side="right")


def calibration_case(name, y, s, bins, equal_mass):
    edges, index = bins_numpy(s, bins, equal_mass)
    counts = np.bincount(index, minlength=bins)
    positives = np.bincount(index, weights=y, minlength=bins)
    mean = np.bincount(index, weights=s, minlength=bins)
    filled = counts > 0
    expected = {
        "ece": float(ECE(bins, equal_intervals=not equal_mass).measure(s, y)),
        "mce": float(MCE(bins, equal_intervals=not equal_mass).measure(s, y)),
        "edges": edges.tolist(),
        "counts": counts.tolist(),
        "positives": positives.tolist(),
        "mean_score": [float(m / c) if c else None for m, c in zip(mean, counts)],
        "clopper_pearson": [list(proportion_confint(p, c, 0.05, "beta")) if c else None
                            for p, c in zip(positives, counts)],
        "wilson": [list(proportion_confint(p, c, 0.05, "wilson")) if c else None
                   for p, c in zip(positives, counts)],
    }
    if not equal_mass and not np.isin(s, edges[1:-1]).any():
        # scikit-learn puts a score on an inner edge in the bin below (searchsorted side
        # "left"), netcal and numpy's histogram in the bin above: compared only without such scores
        true, pred = calibration_curve(y, s, n_bins=bins, strategy="uniform")
        expected["sklearn_frequency"] = true.tolist()
        expected["sklearn_mean_score"] = pred.tolist()
    assert np.allclose(np.array(expected["mean_score"], dtype=float)[filled],
                       (mean / np.maximum(counts, 1))[filled])
    return {"name": f"{name}_{bins}_{'mass' if equal_mass else 'width'}",
            "input": {"labels": y.tolist(), "scores": s.tolist(), "bins": bins,
                      "equal_mass": equal_mass},
            "expected": expected}


def multiclass_calibration_cases():
    rng = np.random.default_rng(4)
    n, k = 240, 3
    logits = rng.normal(0, 1.5, (n, k))
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    truth = np.array([rng.choice(k, p=row) for row in p])
    cases = []
    for bins, equal_mass in [(10, False), (8, True)]:
        top = {"ece": float(ECE(bins, equal_intervals=not equal_mass).measure(p, truth)),
               "mce": float(MCE(bins, equal_intervals=not equal_mass).measure(p, truth))}
        per_class = [{"ece": float(ECE(bins, equal_intervals=not equal_mass).measure(
                          p[:, c], (truth == c).astype(int))),
                      "mce": float(MCE(bins, equal_intervals=not equal_mass).measure(
                          p[:, c], (truth == c).astype(int)))} for c in range(k)]
        cases.append({"name": f"multiclass_{bins}_{'mass' if equal_mass else 'width'}",
                      "input": {"truth": truth.tolist(), "probabilities": p.tolist(),
                                "bins": bins, "equal_mass": equal_mass},
                      "expected": {"top_label": top, "one_vs_rest": per_class,
                                   "brier": float(brier_score_loss(truth, p, labels=[0, 1, 2],
                                                                   scale_by_half=False))}})
    return cases


def brier_case(name, y, s, bins, equal_mass):
    _, index = bins_numpy(s, bins, equal_mass)
    n = len(y)
    base = y.mean()
    rel = res = wbv = wbc = 0.0
    for b in np.unique(index):
        members = index == b
        f, o = s[members], y[members]
        fbar, obar = f.mean(), o.mean()
        rel += members.sum() / n * (fbar - obar) ** 2
        res += members.sum() / n * (obar - base) ** 2
        wbv += np.sum((f - fbar) ** 2) / n
        wbc += 2 * np.sum((f - fbar) * (o - obar)) / n
    return {"name": f"{name}_{bins}_{'mass' if equal_mass else 'width'}",
            "input": {"labels": y.tolist(), "scores": s.tolist(), "bins": bins,
                      "equal_mass": equal_mass},
            "expected": {"brier": float(brier_score_loss(y, s)), "reliability": rel,
                         "resolution": res, "uncertainty": base * (1 - base),
                         "within_bin_variance": wbv, "within_bin_covariance": wbc}}


def dg_area(y, s):
    """Area under Davis & Goadrich's interpolated PR curve by numerical integration."""
    p = y.sum()
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    tp = tpr * p
    fp = fpr * (len(y) - p)
    area = 0.0
    for i in range(1, len(tp)):
        d = tp[i] - tp[i - 1]
        if d <= 0:
            continue
        skew = (fp[i] - fp[i - 1]) / d

        def precision(r, i=i, skew=skew):
            t = r * p
            f = fp[i - 1] + skew * (t - tp[i - 1])
            return t / (t + f) if t + f > 0 else 1 / (1 + skew)

        area += integrate.quad(precision, tp[i - 1] / p, tp[i] / p, epsabs=1e-14,
                               epsrel=1e-13)[0]
    return area, tp, fp


def precision_at_recall(tp, fp, p, r):
    target = r * p
    prev = (0.0, 0.0)
    for t, f in zip(tp[1:], fp[1:]):
        if t >= target and t > prev[0]:
            skew = (f - prev[1]) / (t - prev[0])
            x = max(target - prev[0], 0.0)
            den = prev[0] + prev[1] + (1 + skew) * x
            return 1 / (1 + skew) if den == 0 else (prev[0] + x) / den
        prev = (t, f)
    return prev[0] / (prev[0] + prev[1])


def pr_case(name, y, s):
    precision, recall, thresholds = precision_recall_curve(y, s)
    area, tp, fp = dg_area(y, s)
    curve = prg.create_prg_curve(y, s)
    keep = curve["recall_gain"] >= 0
    return {"name": name, "input": {"labels": y.tolist(), "scores": s.tolist()},
            "expected": {"sklearn_precision": precision.tolist(),
                         "sklearn_recall": recall.tolist(),
                         "sklearn_thresholds": thresholds.tolist(),
                         "average_precision": float(average_precision_score(y, s)),
                         "interpolated_area": area,
                         "auprg": float(prg.calc_auprg(curve)),
                         "prg_recall_gain": curve["recall_gain"][keep].tolist(),
                         "prg_precision_gain": curve["precision_gain"][keep].tolist()}}


def pr_average_case(data):
    folds = [data["continuous"], data["ties"], data["small"]]
    samples = 11
    values = []
    for y, s in folds:
        _, tp, fp = dg_area(y, s)
        values.append([precision_at_recall(tp, fp, y.sum(), r)
                       for r in np.linspace(0, 1, samples)])
    values = np.array(values)
    return {"name": "three_folds",
            "input": {"folds": [{"labels": y.tolist(), "scores": s.tolist()} for y, s in folds],
                      "samples": samples},
            "expected": {"mean": values.mean(axis=0).tolist(),
                         "sd": values.std(axis=0, ddof=1).tolist()}}


R_SCRIPT = r"""
suppressMessages({library(pROC); library(ROCR)})
d <- read.csv(commandArgs(TRUE)[1])
ranges <- read.csv(commandArgs(TRUE)[2])
r <- roc(d$label, d$score, levels = c(0, 1), direction = "<", quiet = TRUE)
for (i in seq_len(nrow(ranges))) {
  pa <- c(1 - ranges$lo[i], 1 - ranges$hi[i])
  raw <- auc(r, partial.auc = pa, partial.auc.focus = "specificity")
  std <- auc(r, partial.auc = pa, partial.auc.focus = "specificity",
             partial.auc.correct = TRUE, allow.invalid.partial.auc.correct = TRUE)
  cat(sprintf("pauc %.17g %.17g\n", as.numeric(raw), as.numeric(std)))
}
p <- performance(prediction(d$score, d$label), "ecost")
cat(sprintf("ecost %.17g %.17g\n", p@x.values[[1]], p@y.values[[1]]), sep = "")
"""


def r_reference(y, s, ranges):
    with tempfile.TemporaryDirectory() as folder:
        data, rng_file, script = (os.path.join(folder, f) for f in ("d.csv", "r.csv", "s.R"))
        with open(data, "w") as f:
            f.write("label,score\n" + "".join("%d,%.17g\n" % row for row in zip(y, s)))
        with open(rng_file, "w") as f:
            f.write("lo,hi\n" + "".join("%.17g,%.17g\n" % r for r in ranges))
        with open(script, "w") as f:
            f.write(R_SCRIPT)
        out = subprocess.run(["Rscript", script, data, rng_file], capture_output=True,
                             text=True, check=True).stdout.splitlines()
    pauc = [list(map(float, line.split()[1:])) for line in out if line.startswith("pauc")]
    ecost = [list(map(float, line.split()[1:])) for line in out if line.startswith("ecost")]
    return pauc, ecost


def numeric_h(y, s, a, b):
    """H-measure by numerical integration of the minimum loss over all ROC points."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    pi1 = y.mean()
    pi0 = 1 - pi1
    density = stats.beta(a, b).pdf
    corners = sorted(set([0.0, 1.0, pi1] + [
        pi1 * (tpr[j] - tpr[i]) / (pi0 * (fpr[j] - fpr[i]) + pi1 * (tpr[j] - tpr[i]))
        for i in range(len(fpr)) for j in range(i + 1, len(fpr))
        if (fpr[j] - fpr[i]) + (tpr[j] - tpr[i]) > 0 and 0 < pi1 * (tpr[j] - tpr[i]) /
        (pi0 * (fpr[j] - fpr[i]) + pi1 * (tpr[j] - tpr[i])) < 1]))

    def loss(c):
        return np.min(c * pi0 * fpr + (1 - c) * pi1 * (1 - tpr)) * density(c)

    lh = sum(integrate.quad(loss, lo, hi, epsabs=1e-14, epsrel=1e-12)[0]
             for lo, hi in zip(corners[:-1], corners[1:]) if hi > lo)
    lmax = (integrate.quad(lambda c: c * pi0 * density(c), 0, pi1, epsabs=1e-14)[0]
            + integrate.quad(lambda c: (1 - c) * pi1 * density(c), pi1, 1, epsabs=1e-14)[0])
    return 1 - lh / lmax


def roc_cases(data):
    cases = []
    ranges = [(0.0, 0.2), (0.0, 0.5), (0.1, 0.3), (0.25, 1.0), (0.0, 1.0)]
    for name, (y, s) in data.items():
        pauc, ecost = r_reference(y, s, ranges)
        cases.append({
            "name": name, "input": {"labels": y.tolist(), "scores": s.tolist()},
            "expected": {
                "partial": [{"lo": lo, "hi": hi, "raw": raw, "standardized": std,
                             "sklearn": float(roc_auc_score(y, s, max_fpr=hi))
                             if lo == 0.0 and hi < 1.0 else None}
                            for (lo, hi), (raw, std) in zip(ranges, pauc)],
                "ecost_x": [x for x, _ in ecost], "ecost_y": [v for _, v in ecost],
                "h_default": float(hmeasure.h_score(y, s)),
                "h_severity": [{"ratio": r, "h": float(hmeasure.h_score(y, s, severity_ratio=r))}
                               for r in (1.0, 0.3, 2.5)],
                "h_beta_3_1_5": numeric_h(y, s, 3.0, 1.5),
            }})
    return cases


def models_cost_case(data):
    models = [data["continuous"][1], 1 / (1 + np.exp(-5 * (data["continuous"][1] - 0.6))),
              np.round(data["continuous"][1], 1)[::-1].copy()]
    y = data["continuous"][0]
    grid = np.linspace(0, 1, 201)
    lines = [(0.0, 0.0), (1.0, 1.0)]
    for s in models:
        fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
        lines += list(zip(fpr, tpr))
    envelope = [min(f * (1 - pc) + (1 - t) * pc for f, t in lines) for pc in grid]
    return {"name": "three_models", "input": {"labels": y.tolist(),
                                             "models": [m.tolist() for m in models]},
            "expected": {"grid": grid.tolist(), "envelope": envelope}}


if __name__ == "__main__":
    data = datasets()
    calibration = [calibration_case(n, y, s, b, m) for n, (y, s) in data.items()
                   for b, m in [(10, False), (5, True), (15, False), (7, True)]]
    brier = [brier_case(n, y, s, b, m) for n, (y, s) in data.items()
             for b, m in [(10, False), (6, True)]]
    brier.append(brier_case("discrete", data["ties"][0], data["ties"][1], 10, False))
    versions = (f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn "
                f"{sklearn.__version__}, netcal {netcal.__version__}, hmeasure "
                f"{hmeasure.__version__}, pyprg 0.1.1b7, R pROC 1.18.0, ROCR 1.0.11")
    out = {"source": f"issue29_reference.py ({versions})",
           "calibration": calibration,
           "multiclass": multiclass_calibration_cases(),
           "brier": brier,
           "precision_recall": [pr_case(n, y, s) for n, (y, s) in data.items()],
           "pr_average": pr_average_case(data),
           "roc": roc_cases(data),
           "models_cost": models_cost_case(data)}
    with open(os.path.join(HERE, "issue29_reference.json"), "w") as f:
        json.dump(out, f, allow_nan=False)
        f.write("\n")
