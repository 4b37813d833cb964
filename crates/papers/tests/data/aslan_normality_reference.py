#!/usr/bin/env python3
"""Writes aslan_normality_reference.json: scipy's Shapiro-Wilk on the samples of the Aslan
reproduction, the reference for papers::aslan_normality (tests/aslan_normality.rs).

From the committed docs/reproductions/aslan/per_fold.csv: each learner's 30 test values of error
and of AUC on every dataset (the input, in fold order), and what scipy.stats.shapiro gives for
the four families the report counts (each learner's values; the paired differences, first
learner minus second in config order): samples, constant samples (no test), rejected at 0.05 and
at 0.05 / m (Bonferroni over the m samples tested). The same counts as
scripts/fidelity/aslan_normality.py.

Usage: aslan_normality_reference.py [PER_FOLD_CSV]
"""

import csv
import json
import os
import sys
from collections import defaultdict

import numpy as np
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(HERE))))
ALPHA = 0.05


def counts(samples):
    constant = sum(np.ptp(s) == 0 for s in samples)
    pvalues = [stats.shapiro(s).pvalue for s in samples if np.ptp(s) > 0]
    m = len(pvalues)
    return {"samples": len(samples), "constant": int(constant), "tested": m,
            "rejected": int(sum(p < ALPHA for p in pvalues)),
            "rejected_bonferroni": int(sum(p < ALPHA / m for p in pvalues))}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        ROOT, "docs", "reproductions", "aslan", "per_fold.csv")
    values = defaultdict(dict)
    learners, datasets = [], []
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["part"] != "test":
                continue
            for name, seen in ((row["learner"], learners), (row["dataset"], datasets)):
                if name not in seen:
                    seen.append(name)
            key = (int(row["repetition"]), int(row["fold"]))
            values[(row["dataset"], row["measure"], row["learner"])][key] = float(row["value"])
    out = {"alpha": ALPHA, "datasets": datasets, "learners": learners, "values": {},
           "expected": {}}
    for measure in ("error", "auc"):
        samples = {(d, l): np.array([v for _, v in sorted(values[(d, measure, l)].items())])
                   for d in datasets for l in learners}
        out["values"][measure] = [[samples[(d, l)].tolist() for l in learners] for d in datasets]
        differences = [samples[(d, a)] - samples[(d, learners[j])]
                       for d in datasets for i, a in enumerate(learners)
                       for j in range(i + 1, len(learners))]
        out["expected"][measure] = {"values": counts(list(samples.values())),
                                    "differences": counts(differences)}
    with open(os.path.join(HERE, "aslan_normality_reference.json"), "w") as handle:
        json.dump(out, handle, separators=(",", ":"))
        handle.write("\n")
    print(json.dumps(out["expected"]))


if __name__ == "__main__":
    main()
