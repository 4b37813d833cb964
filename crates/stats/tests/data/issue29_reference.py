"""Reference values for the bootstrap, Clopper-Pearson and k-model DeLong code (issue 29).

Run from this folder: /work/venv/bin/python issue29_reference.py
(writes bootstrap_reference.json, clopper_pearson_reference.json, delong_k_reference.json;
needs numpy, scipy, statsmodels, and Rscript with pROC for the two-model DeLong cases).

* bootstrap_reference.json
  - "scipy_bca": scipy.stats.bootstrap((pos, neg), auc, paired=False, method=...) resamples
    each class separately (= stratified by class). Its bootstrap_distribution and
    confidence_interval are written; the Rust test feeds the same replicates to its own
    percentile/BCa code (with its own jackknife) and must give scipy's limits. The AUC statistic
    here is a brute-force pair count (ties 1/2).
  - "exact_distribution": for tiny samples, every stratified resample is enumerated (multisets
    with multinomial probabilities), giving the exact bootstrap distribution of the AUC and its
    exact mean and variance. A seeded bootstrap with many resamples must come close to it
    (Dvoretzky-Kiefer-Wolfowitz bound on the distance of the empirical CDF).
  - "closed_form_variance": the exact bootstrap variance of the AUC under class-stratified
    resampling, Var* = (sigma11^2 + (n-1) sigma10^2 + (m-1) sigma01^2) / (m n), with the
    plug-in variances of the pair kernel (sigma11^2), of the positives' placements (sigma10^2)
    and of the negatives' placements (sigma01^2), all from the brute-force pair matrix; its
    mean is the AUC itself.
* clopper_pearson_reference.json: statsmodels proportion_confint(method="beta").
* delong_k_reference.json: pairs from R pROC 1.18 roc.test(method="delong", paired=TRUE)
  (direction "<"), var() and cov(); k > 2 models from the numpy implementation below (O(n^2)
  placements, chi2 = v' (L S L')^-1 v, scipy chi2.sf), and a rank-deficient case with numpy
  pinv / matrix_rank.
"""
import itertools
import json
import math
import os
import subprocess
import tempfile

import numpy as np
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

HERE = os.path.dirname(os.path.abspath(__file__))


def dump(name, source, cases):
    path = os.path.join(HERE, name)
    with open(path, "w") as f:
        json.dump({"source": source, "cases": cases}, f, indent=1, allow_nan=False,
                  default=float)
        f.write("\n")


def kernel_matrix(pos, neg):
    pos = np.asarray(pos)[:, None]
    neg = np.asarray(neg)[None, :]
    return (pos > neg) + 0.5 * (pos == neg)


def auc_vectorized(pos, neg, axis=-1):
    pos = np.moveaxis(np.asarray(pos), axis, -1)
    neg = np.moveaxis(np.asarray(neg), axis, -1)
    psi = (pos[..., :, None] > neg[..., None, :]) + 0.5 * (pos[..., :, None] == neg[..., None, :])
    return psi.mean(axis=(-1, -2))


def scipy_bca_cases():
    cases = []
    rng = np.random.default_rng(20260529)
    for name, m, n, shift, decimals, method, level in [
        ("continuous_bca", 30, 40, 0.8, None, "BCa", 0.95),
        ("ties_bca", 25, 35, 0.5, 1, "BCa", 0.9),
        ("skewed_bca", 15, 60, 1.6, 2, "BCa", 0.95),
        ("continuous_percentile", 30, 40, 0.8, None, "percentile", 0.95),
    ]:
        pos = rng.normal(shift, 1.0, m)
        neg = rng.normal(0.0, 1.0, n)
        if decimals is not None:
            pos, neg = np.round(pos, decimals), np.round(neg, decimals)
        res = stats.bootstrap((pos, neg), auc_vectorized, paired=False, vectorized=True,
                              method=method, n_resamples=999, confidence_level=level,
                              rng=np.random.default_rng(7))
        cases.append({
            "name": name,
            "input": {"positives": pos.tolist(), "negatives": neg.tolist(), "method": method,
                      "alpha": 1 - level,
                      "replicates": res.bootstrap_distribution.tolist()},
            "expected": {"estimate": float(auc_vectorized(pos, neg)),
                         "low": float(res.confidence_interval.low),
                         "high": float(res.confidence_interval.high)},
        })
    return cases


def multisets(values):
    """Every multiset of len(values) draws from values, with its multinomial probability."""
    k = len(values)
    for combo in itertools.combinations_with_replacement(range(k), k):
        counts = np.bincount(combo, minlength=k)
        ways = math.factorial(k)
        for c in counts:
            ways //= math.factorial(int(c))
        yield counts, ways / k ** k


def exact_distribution_cases():
    cases = []
    for name, pos, neg in [
        ("four_three", [0.9, 0.7, 0.4, 0.35], [0.8, 0.4, 0.1]),
        ("five_four_ties", [0.6, 0.6, 0.5, 0.3, 0.9], [0.5, 0.2, 0.6, 0.1]),
    ]:
        psi = kernel_matrix(pos, neg)
        distribution = {}
        for pos_counts, pos_p in multisets(pos):
            for neg_counts, neg_p in multisets(neg):
                value = float(pos_counts @ psi @ neg_counts / (len(pos) * len(neg)))
                distribution[value] = distribution.get(value, 0.0) + pos_p * neg_p
        values = sorted(distribution)
        probabilities = [distribution[v] for v in values]
        mean = sum(v * p for v, p in zip(values, probabilities))
        variance = sum((v - mean) ** 2 * p for v, p in zip(values, probabilities))
        cases.append({
            "name": name,
            "input": {"positives": pos, "negatives": neg},
            "expected": {"values": values, "probabilities": probabilities,
                         "mean": mean, "variance": variance},
        })
    return cases


def closed_form_cases():
    cases = []
    rng = np.random.default_rng(99)
    for name, m, n in [("moderate", 40, 60), ("small", 8, 12)]:
        pos = np.round(rng.normal(0.7, 1.0, m), 1)
        neg = np.round(rng.normal(0.0, 1.0, n), 1)
        psi = kernel_matrix(pos, neg)
        theta = psi.mean()
        sigma11 = (psi ** 2).mean() - theta ** 2
        sigma10 = ((psi.mean(axis=1) - theta) ** 2).mean()
        sigma01 = ((psi.mean(axis=0) - theta) ** 2).mean()
        variance = (sigma11 + (n - 1) * sigma10 + (m - 1) * sigma01) / (m * n)
        cases.append({
            "name": name,
            "input": {"positives": pos.tolist(), "negatives": neg.tolist()},
            "expected": {"mean": theta, "variance": variance},
        })
    return cases


def clopper_pearson_cases():
    cases = []
    for count, nobs, alpha in [(0, 10, 0.05), (10, 10, 0.05), (3, 10, 0.05), (7, 25, 0.1),
                               (1, 1, 0.05), (0, 1, 0.05), (50, 100, 0.01), (2.5, 7.25, 0.05),
                               (999, 1000, 0.05), (1, 100000, 0.05)]:
        low, high = proportion_confint(count, nobs, alpha=alpha, method="beta")
        cases.append({"name": f"count_{count}_nobs_{nobs}_alpha_{alpha}",
                      "input": {"count": count, "nobs": nobs, "alpha": alpha},
                      "expected": {"low": float(low), "high": float(high)}})
    return cases


def delong_numpy(labels, scores, contrast):
    labels = np.asarray(labels, dtype=bool)
    k = len(scores)
    v10, v01, aucs = [], [], []
    for s in scores:
        s = np.asarray(s)
        psi = kernel_matrix(s[labels], s[~labels])
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
        aucs.append(psi.mean())
    m, n = labels.sum(), (~labels).sum()
    s = np.cov(np.array(v10)) / m + np.cov(np.array(v01)) / n
    s = np.atleast_2d(s)
    aucs = np.array(aucs)
    contrast = np.asarray(contrast, dtype=float)
    values = contrast @ aucs
    middle = contrast @ s @ contrast.T
    rank = int(np.linalg.matrix_rank(middle))
    if rank == middle.shape[0]:
        chi2 = float(values @ np.linalg.solve(middle, values))
    else:
        tolerance = np.linalg.eigvalsh(middle).max() * middle.shape[0] * np.finfo(float).eps
        w, vectors = np.linalg.eigh(middle)
        keep = np.abs(w) > tolerance
        projections = vectors[:, keep].T @ values
        chi2 = float(np.sum(projections ** 2 / w[keep]))
    p = float(stats.chi2.sf(chi2, rank)) if rank > 0 else 1.0
    return aucs, s, values, chi2, rank, p


R_PAIR = r"""
suppressMessages(library(pROC))
d <- read.csv(commandArgs(TRUE)[1])
r1 <- roc(d$label, d$s1, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(d$label, d$s2, levels = c(0, 1), direction = "<", quiet = TRUE)
t <- roc.test(r1, r2, method = "delong", paired = TRUE)
cat(sprintf("%.17g", c(t$statistic, t$p.value, auc(r1), auc(r2),
    var(r1, method = "delong"), var(r2, method = "delong"),
    cov(r1, r2, method = "delong"))), sep = "\n")
"""


def proc_pair(labels, s1, s2):
    with tempfile.TemporaryDirectory() as folder:
        csv = os.path.join(folder, "d.csv")
        with open(csv, "w") as f:
            f.write("label,s1,s2\n")
            for row in zip(labels, s1, s2):
                f.write("%d,%.17g,%.17g\n" % row)
        script = os.path.join(folder, "pair.R")
        with open(script, "w") as f:
            f.write(R_PAIR)
        out = subprocess.run(["Rscript", script, csv], capture_output=True, text=True,
                             check=True).stdout.split()
    return [float(x) for x in out]


def delong_cases():
    cases = []
    rng = np.random.default_rng(424242)
    for name, n, k, decimals in [("pair_continuous", 80, 2, None), ("pair_ties", 120, 2, 1),
                                 ("three_models", 150, 3, 2), ("five_models_ties", 200, 5, 1)]:
        labels = (rng.random(n) < 0.4).astype(int)
        base = rng.normal(0, 1, n) + labels
        scores = [base + rng.normal(0, 0.5 + 0.4 * j, n) for j in range(k)]
        if decimals is not None:
            scores = [np.round(s, decimals) for s in scores]
        contrast = [[1.0 if j == i else (-1.0 if j == i + 1 else 0.0) for j in range(k)]
                    for i in range(k - 1)]
        aucs, s, values, chi2, rank, p = delong_numpy(labels, scores, contrast)
        expected = {"aucs": aucs.tolist(), "covariance": s.tolist(), "chi_square": chi2,
                    "df": rank, "pvalue": p}
        if k == 2:
            z, p_r, a1, a2, v1, v2, c12 = proc_pair(labels, scores[0], scores[1])
            expected["proc"] = {"z": z, "pvalue": p_r, "auc1": a1, "auc2": a2,
                                "var1": v1, "var2": v2, "cov": c12}
        cases.append({"name": name,
                      "input": {"labels": labels.tolist(),
                                "scores": [list(map(float, s_)) for s_ in scores],
                                "contrast": contrast},
                      "expected": expected})
    # a general contrast: model 0 against the mean of the others
    labels = np.array(cases[2]["input"]["labels"])
    scores = [np.array(s_) for s_ in cases[2]["input"]["scores"]]
    contrast = [[1.0, -0.5, -0.5]]
    aucs, s, values, chi2, rank, p = delong_numpy(labels, scores, contrast)
    cases.append({"name": "three_models_custom_contrast",
                  "input": {"labels": labels.tolist(), "scores": [s_.tolist() for s_ in scores],
                            "contrast": contrast},
                  "expected": {"aucs": aucs.tolist(), "covariance": s.tolist(),
                               "chi_square": chi2, "df": rank, "pvalue": p}})
    # rank-deficient: the third model is the first one again
    scores = [scores[0], scores[1], scores[0].copy()]
    contrast = [[1.0, -1.0, 0.0], [0.0, 1.0, -1.0]]
    aucs, s, values, chi2, rank, p = delong_numpy(labels, scores, contrast)
    cases.append({"name": "duplicate_model_rank_deficient",
                  "input": {"labels": labels.tolist(), "scores": [s_.tolist() for s_ in scores],
                            "contrast": contrast},
                  "expected": {"aucs": aucs.tolist(), "covariance": s.tolist(),
                               "chi_square": chi2, "df": rank, "pvalue": p}})
    return cases


if __name__ == "__main__":
    versions = f"numpy {np.__version__}, scipy {scipy.__version__}, statsmodels {statsmodels.__version__}"
    dump("bootstrap_reference.json",
         f"issue29_reference.py ({versions}): scipy.stats.bootstrap replicates and intervals; "
         "exact bootstrap distributions by enumeration; closed-form bootstrap variance of the AUC",
         {"scipy_bca": scipy_bca_cases(), "exact_distribution": exact_distribution_cases(),
          "closed_form_variance": closed_form_cases()})
    dump("clopper_pearson_reference.json",
         f"issue29_reference.py ({versions}): statsmodels proportion_confint(method='beta')",
         clopper_pearson_cases())
    dump("delong_k_reference.json",
         f"issue29_reference.py ({versions}; R pROC 1.18 roc.test/var/cov for pairs): "
         "DeLong covariance and chi-square of contrasts, numpy O(n^2) placements",
         delong_cases())
