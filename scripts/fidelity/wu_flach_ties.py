#!/usr/bin/env python3
"""Wu & Flach (2005) Table 4 recounted from a run's cached predictions, with tied scores
counted three ways, and the same-model question for German.

Wu & Flach compute AUC by the algorithm of their Table 1: sort the instances by decreasing score
and sweep, adding for each negative the number of positives seen so far. It has no rule for
tied scores: the order of tied instances after the sort decides whether a tied
(positive, negative) pair counts as correct. The engine counts a tied pair 1/2 (Mann-Whitney).
The bounds of their algorithm are:

  half     : a tied pair counts 1/2 (ours; the mean over random orders of the tied instances)
  correct  : a tied pair counts 1 (the sort put positives before negatives among ties)
  wrong    : a tied pair counts 0 (negatives first)

Each reading is applied to both the validation AUC (which selects the model) and the test AUC
(which is reported); sAUC (strict indicator) is the same in all three. Selection is the paper's
rule as the engine applies it: the highest validation value, ties to the first learner of the
config's list; a fold where no learner has a finite validation value is skipped. Verdicts are
paired t-tests at 0.05 of the sAUC-selected against the AUC-selected test AUCs.

First the "half" reading is checked against the run's own per_fold.csv (every unit's test and
validation AUC recomputed from the predictions and the reconstructed labels) and its selection
table (means and verdicts), so that the other readings differ from the run only by the ties.

Usage: wu_flach_ties.py RUN_FOLDER [--csv OUT]   (RUN_FOLDER: results/<name> of wu_flach.toml)
"""

import argparse
import csv
import math
import os
import sys

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runs  # noqa: E402

READINGS = ("half", "correct", "wrong")


def auc_reading(y, s, reading):
    base = runs.auc(y, s)
    if reading == "half":
        return base
    tied = runs.tied_pairs(y, s) / (np.sum(y == 1) * np.sum(y == 0))
    return base + tied / 2 if reading == "correct" else base - tied / 2


def sauc(y, s):
    pos, neg = s[y == 1], s[y == 0]
    d = pos[:, None] - neg[None, :]
    return float(np.where(d > 0, d, 0.0).sum() / (len(pos) * len(neg)))


def unit_values(run, dataset, learner, split, y):
    probabilities = runs.unit_predictions(run, dataset, learner, split["repetition"],
                                          split["fold"])
    test, validation = split["test"], split["validation"]
    p_test = probabilities[: len(test), 1]
    p_val = probabilities[len(test):, 1]
    out = {}
    for part, rows, p in (("test", test, p_test), ("validation", validation, p_val)):
        labels = y[rows]
        if labels.min() == labels.max():
            for r in READINGS:
                out[(part, r)] = math.nan
            out[(part, "sauc")] = math.nan
            continue
        for r in READINGS:
            out[(part, r)] = auc_reading(labels, p, r)
        out[(part, "sauc")] = sauc(labels, p)
    return out


def select(values, learners, splits, measure, reading):
    """Test AUC (the reading) of the model selected by validation `measure` per fold, and the
    selected learner."""
    chosen, tests = [], []
    for k in range(len(splits)):
        val = [values[(l, k)][("validation", measure)] for l in learners]
        finite = [v for v in val if not math.isnan(v)]
        if not finite:
            chosen.append(None)
            tests.append(math.nan)
            continue
        best = max(finite)
        index = next(i for i, v in enumerate(val) if v == best)
        chosen.append(learners[index])
        tests.append(values[(learners[index], k)][("test", reading)])
    return np.array(tests), chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run")
    parser.add_argument("--csv")
    args = parser.parse_args()
    run = runs.run_folder(args.run)
    cfg = runs.config(run)
    learners = [l.get("name", l["kind"]) for l in cfg["learners"]]
    per_fold = runs.per_fold_values(run)
    rows_out = []
    worst = 0.0
    summary = {r: [0, 0, [], []] for r in READINGS}
    print("| dataset | reading | AUC-selected | sAUC-selected | p | sAUC | same model chosen |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: |")
    for dataset, _ in runs.dataset_entries(cfg):
        y = runs.labels(run, dataset)
        splits = runs.splits(run, dataset)
        values = {}
        for learner in learners:
            for k, split in enumerate(splits):
                v = unit_values(run, dataset, learner, split, y)
                values[(learner, k)] = v
                for part in ("test", "validation"):
                    key = (dataset, learner, split["repetition"], split["fold"], part, "auc")
                    if key in per_fold and not math.isnan(v[(part, "half")]):
                        worst = max(worst, abs(per_fold[key] - v[(part, "half")]))
        for reading in READINGS:
            by_auc, chosen_auc = select(values, learners, splits, reading, reading)
            by_sauc, chosen_sauc = select(values, learners, splits, "sauc", reading)
            keep = ~(np.isnan(by_auc) | np.isnan(by_sauc))
            a, b = by_auc[keep] * 100, by_sauc[keep] * 100
            d = b - a
            if np.all(d == 0):
                p = 1.0
            else:
                p = stats.ttest_rel(b, a).pvalue
            verdict = "tie" if p >= 0.05 else ("win" if d.mean() > 0 else "loss")
            same = sum(x == z for x, z in zip(chosen_auc, chosen_sauc) if x is not None)
            print(f"| {dataset} | {reading} | {a.mean():.2f} | {b.mean():.2f} | {p:.4f} | "
                  f"{verdict} | {same} |")
            rows_out.append([dataset, reading, f"{a.mean():.4f}", f"{b.mean():.4f}",
                             f"{p:.6f}", verdict, same])
            s = summary[reading]
            s[0] += verdict == "win"
            s[1] += verdict == "loss"
            s[2].append(a.mean())
            s[3].append(b.mean())
    print()
    print(f"largest difference between the recomputed AUC ('half') and per_fold.csv: {worst:.2e}")
    for reading, (wins, losses, a, b) in summary.items():
        print(f"{reading}: sAUC {wins} wins, {losses} losses; mean {np.mean(a):.2f} / "
              f"{np.mean(b):.2f} (paper: 6 wins, 2 losses; 93.05 / 93.45)")
    if args.csv:
        with open(args.csv, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["dataset", "ties", "auc_selected_mean", "sauc_selected_mean",
                             "p_value", "sauc_verdict", "same_model_folds"])
            writer.writerows(rows_out)


if __name__ == "__main__":
    main()
