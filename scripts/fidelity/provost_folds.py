#!/usr/bin/env python3
"""Provost, Fawcett & Kohavi (1998): how stable is the hull of the averaged curves under the
sampling of the folds, and what do the confidence intervals the paper draws say about dominance?

From a run of provost.toml (its cached predictions), this script rebuilds every fold's ROC curve,
the vertically averaged curve of each learner (100 FPR samples, the highest TPR where a curve has
several points at one FPR, linear interpolation otherwise: evaluate::vertical_average), the ROC
convex hull over the averaged curves with the learners owning each vertex, and the slope table
(evaluate::classifiers_hull, slope_table), and compares it with their Table 1 as
papers::provost does: the share of each published range, measured by the angle of the
iso-performance line, over which the published learner is optimal (whole: >= 99%, part, none).
It first checks that this reproduces the run's own tables/provost_table1.csv.

Then:
1. Fold bootstrap: B resamples of the 10 folds with replacement (the same folds for every
   learner), the averaged curves, hull and Table 1 comparison recomputed for each. For every
   published range: how often the published learner is optimal over the whole range, over part of
   it, or nowhere in it. This replaces "optimal in part of its range in at least 3 of 10 single
   folds" by the question the averaged table answers.
2. Dominance with the paper's intervals: the binomial 95% interval of each averaged TPR (normal
   approximation, P = the folds' pooled positives: evaluate::vertical_average with
   IntervalMethod::Normal). A learner "significantly dominates" when its lower bound is at least
   every other learner's upper bound at every FPR sample; a learner is "not significantly
   dominated" when no other learner's lower bound is above its upper bound at any sample. The
   paper's Vehicle claim (Bagged-MC4 the one absolute dominator) read with intervals is: Bagged-MC4
   is the only learner never significantly below another.

Usage: provost_folds.py RUN_FOLDER [--boot 1000] [--csv OUT] [--learners NB,...]
       provost_folds.py CSV --from-csv
"""

import argparse
import csv
import math
import os
import re
import sys
import tomllib
from fractions import Fraction

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runs  # noqa: E402

SAMPLES = 100
WHOLE = 0.99
FPR = np.array([s / (SAMPLES - 1) for s in range(SAMPLES)])


def roc_points(y, s):
    """(fpr, tpr) arrays of the ROC curve, tied scores as one step (evaluate::roc_curve)."""
    order = np.argsort(-s, kind="mergesort")
    s, y = s[order], y[order]
    p, n = y.sum(), len(y) - y.sum()
    fpr, tpr = [0.0], [0.0]
    tp = fp = 0
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and s[j + 1] == s[i]:
            j += 1
        tp += y[i:j + 1].sum()
        fp += (j + 1 - i) - y[i:j + 1].sum()
        fpr.append(fp / n)
        tpr.append(tp / p)
        i = j + 1
    return np.array(fpr), np.array(tpr), p


def tpr_at(fpr, tpr, x):
    """RocCurve::tpr_at_fpr."""
    upto = np.searchsorted(fpr, x, side="right")
    if upto == 0:
        return 0.0
    left = upto - 1
    if fpr[left] == x or upto == len(fpr):
        return tpr[left]
    return tpr[left] + (tpr[upto] - tpr[left]) * (x - fpr[left]) / (fpr[upto] - fpr[left])


def fold_samples(curve):
    fpr, tpr, _ = curve
    return np.array([tpr_at(fpr, tpr, x) for x in FPR])


def orientation(o, b, c):
    """Sign of the cross product (exact, as evaluate's hull falls back to)."""
    o, b, c = [(Fraction(p[0]), Fraction(p[1])) for p in (o, b, c)]
    det = (b[0] - o[0]) * (c[1] - o[1]) - (b[1] - o[1]) * (c[0] - o[0])
    return (det > 0) - (det < 0)


def hull(points):
    """evaluate::roc_convex_hull: upper chain from (0,0) to (1,1), collinear points dropped."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], -points[i][1], i))
    candidates = [(0.0, 0.0)]
    for i in order:
        p = (points[i][0] + 0.0, points[i][1] + 0.0)
        last = candidates[-1]
        if p[0] == last[0] and p[0] != 0.0:
            continue
        if p[0] == 0.0 and p[1] <= last[1]:
            continue
        candidates.append(p)
    if candidates[-1] != (1.0, 1.0):
        candidates.append((1.0, 1.0))
    chain = []
    for p in candidates:
        while len(chain) >= 2 and orientation(chain[-2], chain[-1], p) != -1:
            chain.pop()
        chain.append(p)
    return chain


def slope(a, b):
    return math.inf if b[0] == a[0] else (b[1] - a[1]) / (b[0] - a[0])


def slope_table(curves):
    """[(low, high, owners)] from high slopes to low (ClassifierHull::slope_table)."""
    points = [p for c in curves for p in c]
    chain = hull(points)
    slopes = [slope(chain[k], chain[k + 1]) for k in range(len(chain) - 1)]
    table = []
    for k, v in enumerate(chain):
        low = slopes[k] if k + 1 < len(chain) else 0.0
        high = slopes[k - 1] if k > 0 else math.inf
        owners = [c for c, curve in enumerate(curves) if any(p == v for p in curve)]
        if table and table[-1][2] == owners:
            table[-1][0] = low
            continue
        table.append([low, high, owners])
    return table


def share(table, low, high, learner):
    length = math.atan(high) - math.atan(low)
    total = 0.0
    for lo, hi, owners in table:
        overlap = math.atan(min(hi, high)) - math.atan(max(lo, low))
        if overlap > 0 and learner in owners:
            total += overlap / length
    return total


def verdict(x):
    return "whole" if x >= WHOLE else ("part" if x > 0 else "none")


def averaged(fold_tprs, folds):
    """{learner: [(fpr, mean tpr)]} over the chosen folds (with repeats)."""
    return {l: list(zip(FPR, np.mean([t[f] for f in folds], axis=0)))
            for l, t in fold_tprs.items()}


def published():
    path = os.path.join(runs.ROOT, "crates", "papers", "data", "provost.toml")
    with open(path, "rb") as handle:
        return tomllib.load(handle)["domains"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run")
    parser.add_argument("--boot", type=int, default=1000)
    parser.add_argument("--csv")
    parser.add_argument("--learners", default="MC4,NB,IB3,IB5,Bagged-MC4")
    parser.add_argument("--from-csv", action="store_true",
                        help="RUN is a CSV this script wrote: print its summary only")
    args = parser.parse_args()
    if args.from_csv:
        with open(args.run, newline="") as handle:
            summarise_csv_rows(list(csv.reader(handle))[1:])
        return
    run = runs.run_folder(args.run)
    cfg = runs.config(run)
    learners = args.learners.split(",")
    per_fold = runs.per_fold_values(run)
    rng = np.random.default_rng(1998)
    own_table1 = {}
    table1_csv = os.path.join(run, "tables", "provost_table1.csv")
    with open(table1_csv, newline="") as handle:
        for row in csv.DictReader(handle):
            own_table1.setdefault(row[list(row)[0]], []).append(row)
    out_rows = []
    totals_boot = []
    worst = 0.0
    domains = [d for d in published() if d.get("dataset")]
    boot_counts = []
    for domain in domains:
        dataset = domain["dataset"]
        y = runs.labels(run, dataset)
        splits = runs.splits(run, dataset)
        fold_tprs, positives = {}, 0
        for learner in learners:
            tprs = []
            for split in splits:
                p = runs.unit_predictions(run, dataset, learner, split["repetition"],
                                          split["fold"])[:, 1]
                labels = y[split["test"]]
                curve = roc_points(labels, p)
                if learner == learners[0]:
                    positives += curve[2]
                tprs.append(fold_samples(curve))
                key = (dataset, learner, split["repetition"], split["fold"], "test", "auc")
                worst = max(worst, abs(per_fold[key] - runs.auc(labels, p)))
            fold_tprs[learner] = np.array(tprs)
        k = len(splits)
        base = slope_table(list(averaged(fold_tprs, range(k)).values()))
        ranges = domain["ranges"]
        base_shares = [share(base, r["low"], r["high"], learners.index(r["learner"]))
                       for r in ranges]
        counts = np.zeros((len(ranges), 3), dtype=int)
        for _ in range(args.boot):
            folds = rng.integers(0, k, size=k)
            table = slope_table(list(averaged(fold_tprs, folds).values()))
            for i, r in enumerate(ranges):
                v = verdict(share(table, r["low"], r["high"], learners.index(r["learner"])))
                counts[i, ("whole", "part", "none").index(v)] += 1
        boot_counts.append(counts)
        intervals = dominance_with_intervals(fold_tprs, positives, k)
        print(f"{domain['name']} ({dataset}): averaged-hull ranges (ours): "
              + "; ".join(f"[{lo:.3g}, {hi:.3g}] "
                          + "+".join(learners[o] for o in owners) for lo, hi, owners in base))
        for i, r in enumerate(ranges):
            c = counts[i] / args.boot
            print(f"    published [{r['low']}, {r['high']}] {r['learner']}: ours "
                  f"{verdict(base_shares[i])} ({base_shares[i]:.0%}); over {args.boot} fold "
                  f"resamples: whole {c[0]:.0%}, part {c[1]:.0%}, none {c[2]:.0%}")
            out_rows.append([domain["name"], dataset, r["low"], r["high"], r["learner"],
                             f"{base_shares[i]:.4f}", verdict(base_shares[i]),
                             f"{c[0]:.4f}", f"{c[1]:.4f}", f"{c[2]:.4f}"])
        print(f"    intervals: {intervals}")
    check_against_run(out_rows, own_table1)
    print(f"largest difference of the recomputed fold AUCs from per_fold.csv: {worst:.1e}")
    summarise(boot_counts, out_rows)
    if args.csv:
        with open(args.csv, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["domain", "dataset", "slope_low", "slope_high", "published_learner",
                             "our_share", "our_verdict", "boot_whole", "boot_part", "boot_none"])
            writer.writerows(out_rows)


def dominance_with_intervals(fold_tprs, positives, k):
    """Which learners dominate by points, significantly, and which are never significantly
    below another (normal 95% interval of the mean TPR with P pooled positives)."""
    z = stats.norm.ppf(0.975)
    names = list(fold_tprs)
    mean = {l: t.mean(axis=0) for l, t in fold_tprs.items()}
    half = {l: z * np.sqrt(m * (1 - m) / positives) for l, m in mean.items()}
    low = {l: np.clip(mean[l] - half[l], 0, 1) for l in names}
    high = {l: np.clip(mean[l] + half[l], 0, 1) for l in names}
    points = [a for a in names if all(np.all(mean[a] >= mean[b]) and np.any(mean[a] > mean[b])
                                      for b in names if b != a)]
    significant = [a for a in names if all(np.all(low[a] >= high[b]) for b in names if b != a)]
    undominated = [a for a in names if not any(np.any(low[b] > high[a])
                                               for b in names if b != a)]
    return (f"dominator by points: {points or 'none'}; significant dominator: "
            f"{significant or 'none'}; never significantly below another: {undominated}")


def check_against_run(rows, own):
    """Our verdicts and shares against the run's tables/provost_table1.csv (same order)."""
    theirs = {}
    for domain_rows in own.values():
        for row in domain_rows:
            low, high = row["published range"].strip("[]").split(", ")
            theirs[(row["domain"], float(low), float(high))] = row
    names = {"whole range": "whole", "part of it": "part", "not at all": "none"}
    same = same_share = 0
    for ours in rows:
        row = theirs[(ours[0], float(ours[2]), float(ours[3]))]
        same += names.get(row["same learner"]) == ours[6]
        shares = dict(re.findall(r"([\w-]+(?:\+[\w-]+)*) (\d+)%", row["ours over the range (share)"]))
        printed = int(shares.get(ours[4], 0))
        same_share += abs(printed - round(float(ours[5]) * 100)) <= 1
    print(f"check: {same} of {len(rows)} verdicts and {same_share} shares (to 1%) equal the "
          f"run's provost_table1.csv ({len(theirs)} rows there)")


def summarise(boot_counts, rows):
    whole = sum(r[6] == "whole" for r in rows)
    part = sum(r[6] == "part" for r in rows)
    none = sum(r[6] == "none" for r in rows)
    print(f"ours: {whole} whole / {part} part / {none} none of {len(rows)} published ranges")
    allc = np.concatenate(boot_counts)
    b = allc.sum(axis=1)[0]
    somewhere = (allc[:, 0] + allc[:, 1]) / b
    print(f"published learner optimal somewhere in its range in >= 50% of fold resamples: "
          f"{int(np.sum(somewhere >= 0.5))} of {len(rows)}; in >= 10%: "
          f"{int(np.sum(somewhere >= 0.1))}; in < 5%: {int(np.sum(somewhere < 0.05))}")
    print(f"expected whole / part / none over the resamples: {allc[:, 0].sum() / b:.1f} / "
          f"{allc[:, 1].sum() / b:.1f} / {allc[:, 2].sum() / b:.1f}")
    summarise_csv_rows(rows)


def summarise_csv_rows(rows):
    """Counts over the published ranges from the CSV columns (also `--from-csv`)."""
    whole = [float(r[7]) for r in rows]
    somewhere = [float(r[7]) + float(r[8]) for r in rows]
    print(f"of {len(rows)} published ranges, the published learner is optimal over the whole "
          f"range in >= 5% of resamples for {sum(x >= 0.05 for x in whole)}, in >= 50% for "
          f"{sum(x >= 0.5 for x in whole)}; somewhere in it in >= 10% for "
          f"{sum(x >= 0.1 for x in somewhere)}, in >= 50% for {sum(x >= 0.5 for x in somewhere)}")
    for r, x in zip(rows, somewhere):
        if x < 0.1:
            print(f"    somewhere in < 10%: {r[0]} [{r[2]}, {r[3]}] {r[4]} ({x:.0%})")


if __name__ == "__main__":
    main()
