#!/usr/bin/env python3
"""Normality of the 30 per-model values Aslan et al. (2009) test, by scipy's Shapiro-Wilk test.

Their Discussion: "We see in practice that the distributions for error or AUC are sometimes not
normal, probably due to dependence between folds which share data and the fact that 30 is a
relatively small number for central limit theorem to hold." Their test assumes the 30 paired
differences normal ("The distribution of difference is normal since the A_i^1 and A_i^2
distributions are approximately normal").

For every dataset, measure (error, AUC) and learner, the 30 test-set values; and for every pair
of learners the 30 differences (what the paired t-test assumes normal). Counts how many reject
normality at 0.05, and at 0.05 / m (Bonferroni over the m samples tested). A sample whose 30
values are all equal has no Shapiro-Wilk statistic and is counted apart.

Usage: aslan_normality.py [PER_FOLD_CSV]  (default: docs/reproductions/aslan/per_fold.csv)
"""

import csv
import itertools
import os
import sys
from collections import defaultdict

import numpy as np
from scipy import stats

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        ROOT, "docs", "reproductions", "aslan", "per_fold.csv")
    values = defaultdict(dict)
    learners = []
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["part"] != "test":
                continue
            if row["learner"] not in learners:
                learners.append(row["learner"])
            values[(row["dataset"], row["measure"], row["learner"])][int(row["fold"])] = \
                float(row["value"])
    samples = {}
    for (dataset, measure, learner), by_fold in values.items():
        samples[("value", dataset, measure, learner)] = np.array(
            [v for _, v in sorted(by_fold.items())])
    datasets = sorted({k[1] for k in samples})
    for dataset, measure in itertools.product(datasets, ("error", "auc")):
        for a, b in itertools.combinations(learners, 2):
            samples[("difference", dataset, measure, f"{a} - {b}")] = (
                samples[("value", dataset, measure, a)] - samples[("value", dataset, measure, b)])
    for kind in ("value", "difference"):
        for measure in ("error", "auc"):
            chosen = {k: v for k, v in samples.items() if k[0] == kind and k[2] == measure}
            constant = [k for k, v in chosen.items() if np.ptp(v) == 0]
            tested = {k: stats.shapiro(v).pvalue for k, v in chosen.items() if np.ptp(v) > 0}
            m = len(tested)
            reject = sum(p < 0.05 for p in tested.values())
            reject_bonferroni = sum(p < 0.05 / m for p in tested.values())
            distinct = np.median([len(np.unique(v)) for v in chosen.values()])
            print(f"{kind}s of {measure} (median {distinct:.0f} distinct values of 30): {len(chosen)} samples of 30; {len(constant)} constant "
                  f"(no test); of the {m} tested, Shapiro-Wilk rejects normality at 0.05 in "
                  f"{reject} ({reject / m:.0%}; {0.05 * m:.1f} expected if all were normal), at "
                  f"0.05/{m} (Bonferroni) in {reject_bonferroni}")
            if kind == "difference":
                worst = sorted(tested.items(), key=lambda kv: kv[1])[:3]
                for k, p in worst:
                    print(f"    smallest p: {k[1]} {k[3]}: p = {p:.2e}")
    # The comparisons the paper names in its figures (ours: chess = kr-vs-kp).
    named = [("kr-vs-kp", "c45", "ripper"), ("shuttle", "knn", "nb"), ("nursery", "c45", "lp"),
             ("ada", "ripper", "lp"), ("ada", "knn", "lp")]
    print("The comparisons of the paper's Figures 2 and 4-7 (Shapiro-Wilk p of the 30 values "
          "of each learner and of their differences):")
    for dataset, a, b in named:
        cells = []
        for measure in ("error", "auc"):
            pa = stats.shapiro(samples[("value", dataset, measure, a)]).pvalue
            pb = stats.shapiro(samples[("value", dataset, measure, b)]).pvalue
            key = ("difference", dataset, measure, f"{a} - {b}")
            if key not in samples:
                key = ("difference", dataset, measure, f"{b} - {a}")
            pd = stats.shapiro(samples[key]).pvalue
            cells.append(f"{measure}: {a} {pa:.3f}, {b} {pb:.3f}, difference {pd:.3f}")
        print(f"    {dataset} {a} vs {b}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
