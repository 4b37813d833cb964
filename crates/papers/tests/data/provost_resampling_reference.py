#!/usr/bin/env python3
"""Writes provost_resampling_reference.json: reference values for papers::provost_resampling from
the independent Python rebuild in scripts/fidelity/provost_folds.py.

For three domains of a kept run of provost.toml (seed 1998, Section 3.4 learners dropped:
`scripts/fidelity/run_seeds.py provost --plain --seeds 1998 --keep 1998`), each learner's true
positive rate at the 100 averaging samples fold by fold (the input), the published ranges with
their learner's position, and what provost_folds.py computes from that input: the share of each
range on the hull of the curves averaged over all ten folds, the verdict counts over 40 fold
resamples drawn by numpy (given to the Rust side as fold lists), and the interval reading of
dominance (significant dominators; learners never significantly below another).

Usage: provost_resampling_reference.py RUN_FOLDER
"""

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(HERE))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "fidelity"))
import provost_folds as pf  # noqa: E402
import runs  # noqa: E402

LEARNERS = ["MC4", "NB", "IB3", "IB5", "Bagged-MC4"]
DOMAINS = ["vehicle", "pima", "breast-cancer-wisconsin"]
RESAMPLES = 40


def interval_sets(fold_tprs, positives):
    """provost_folds.dominance_with_intervals's two sets, as learner positions."""
    z = pf.stats.norm.ppf(0.975)
    mean = {l: t.mean(axis=0) for l, t in fold_tprs.items()}
    low = {l: np.clip(m - z * np.sqrt(m * (1 - m) / positives), 0, 1) for l, m in mean.items()}
    high = {l: np.clip(m + z * np.sqrt(m * (1 - m) / positives), 0, 1) for l, m in mean.items()}
    names = list(fold_tprs)
    significant = [names.index(a) for a in names
                   if all(np.all(low[a] >= high[b]) for b in names if b != a)]
    never_below = [names.index(a) for a in names
                   if not any(np.any(low[b] > high[a]) for b in names if b != a)]
    return significant, never_below


def domain_vectors(run, domain, rng):
    dataset = domain["dataset"]
    y = runs.labels(run, dataset)
    splits = runs.splits(run, dataset)
    fold_tprs, positives = {}, 0
    for learner in LEARNERS:
        tprs = []
        for split in splits:
            p = runs.unit_predictions(run, dataset, learner, split["repetition"],
                                      split["fold"])[:, 1]
            curve = pf.roc_points(y[split["test"]], p)
            if learner == LEARNERS[0]:
                positives += curve[2]
            tprs.append(pf.fold_samples(curve))
        fold_tprs[learner] = np.array(tprs)
    k = len(splits)
    ranges = [{"low": r["low"], "high": r["high"], "learner": LEARNERS.index(r["learner"])}
              for r in domain["ranges"]]
    base = pf.slope_table(list(pf.averaged(fold_tprs, range(k)).values()))
    shares = [pf.share(base, r["low"], r["high"], r["learner"]) for r in ranges]
    resamples = [rng.integers(0, k, size=k).tolist() for _ in range(RESAMPLES)]
    counts = [[0, 0, 0] for _ in ranges]
    for folds in resamples:
        table = pf.slope_table(list(pf.averaged(fold_tprs, folds).values()))
        for i, r in enumerate(ranges):
            v = pf.verdict(pf.share(table, r["low"], r["high"], r["learner"]))
            counts[i][("whole", "part", "none").index(v)] += 1
    significant, never_below = interval_sets(fold_tprs, positives)
    return {
        "dataset": dataset,
        "positives": float(positives),
        "tprs": [fold_tprs[l].tolist() for l in LEARNERS],
        "ranges": [[r["low"] if np.isfinite(r["low"]) else "inf",
                    r["high"] if np.isfinite(r["high"]) else "inf", r["learner"]]
                   for r in ranges],
        "shares": shares,
        "resamples": resamples,
        "counts": counts,
        "significant": significant,
        "never_below": never_below,
    }


def main():
    run = runs.run_folder(sys.argv[1])
    rng = np.random.default_rng(1998)
    domains = {d["dataset"]: d for d in pf.published() if d.get("dataset")}
    out = {"learners": LEARNERS, "alpha": 0.05,
           "domains": [domain_vectors(run, domains[name], rng) for name in DOMAINS]}
    with open(os.path.join(HERE, "provost_resampling_reference.json"), "w") as handle:
        json.dump(out, handle, separators=(",", ":"))
        handle.write("\n")


if __name__ == "__main__":
    main()
