#!/usr/bin/env python3
"""Aslan et al.'s four-case table recounted from a per-fold table, under both conventions for
a comparison whose 30 differences are all zero (t = 0/0).

Aslan, Yildiz & Alpaydin (2009) accept the null hypothesis "if the test statistic is in the
interval (-t_{a/2,K-1}, t_{a/2,K-1})"; for 30 identical values t = 0/0 is in no interval. Our
`stats::paired_t_test` scores it t = 0, p = 1 (accept; Weka's convention). This script counts the
table both ways:

  accept : 0/0 -> p = 1, the null hypothesis is accepted (ours, Weka's);
  reject : 0/0 is not inside the acceptance interval -> rejected (the paper's rule read
           literally; also what `if p > alpha: accept else: reject` gives with IEEE NaN).

A comparison whose differences have zero variance and non-zero mean is t = +-inf, rejected
under both. The corrected resampled t-test (Nadeau & Bengio) uses the mean training and test
sizes of the dataset's splits, as `engine::record::results::mean_sizes` does; they are read from the
run's `splits/<dataset>.json`.

Usage:
  aslan_cases.py RESULTS_DIR                 # RESULTS_DIR/per_fold.csv and RESULTS_DIR/splits
  aslan_cases.py --per-fold CSV --splits DIR # e.g. the committed docs/reproductions/aslan/
  add --json to print one JSON object (used by seeds.py), --list to list degenerate pairs.
"""

import argparse
import csv
import itertools
import json
import math
import os
import sys
from collections import defaultdict

from scipy import stats

CASES = ["both accept", "error accepts, AUC rejects", "error rejects, AUC accepts",
         "both reject"]
ALPHA = 0.05


def read_test_values(path):
    """{(dataset, measure): {learner: [value by fold]}} of the test part."""
    table = defaultdict(lambda: defaultdict(dict))
    learners_in_order = []
    datasets_in_order = []
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["part"] != "test":
                continue
            key = (row["dataset"], row["measure"])
            if row["dataset"] not in datasets_in_order:
                datasets_in_order.append(row["dataset"])
            if row["learner"] not in learners_in_order:
                learners_in_order.append(row["learner"])
            fold = (int(row["repetition"]), int(row["fold"]))
            table[key][row["learner"]][fold] = float(row["value"])
    values = {}
    for key, by_learner in table.items():
        values[key] = {l: [v for _, v in sorted(f.items())] for l, f in by_learner.items()}
    return values, datasets_in_order, learners_in_order


def find_splits(node):
    """The list of split objects (each with 'train' and 'test') anywhere in the JSON."""
    if isinstance(node, dict):
        if "train" in node and "test" in node:
            return [node]
        found = []
        for value in node.values():
            found.extend(find_splits(value))
        return found
    if isinstance(node, list):
        found = []
        for value in node:
            found.extend(find_splits(value))
        return found
    return []


def mean_sizes(splits_dir, dataset):
    """Mean training and test sizes over the dataset's splits (engine::record::results::mean_sizes)."""
    with open(os.path.join(splits_dir, f"{dataset}.json")) as handle:
        splits = [s for s in find_splits(json.load(handle)) if s.get("fold", 0) != 2**64 - 1]
    train = sum(len(s["train"]) for s in splits) / len(splits)
    test = sum(len(s["test"]) for s in splits) / len(splits)
    return train, test


def t_test(a, b, factor_extra=0.0):
    """Two-sided paired t-test; factor_extra = n_test / n_train for the corrected test.
    Returns (t, p) with t = None for 0/0."""
    d = [x - y for x, y in zip(a, b)]
    k = len(d)
    mean = sum(d) / k
    var = sum((x - mean) ** 2 for x in d) / (k - 1)
    var_of_mean = (1.0 / k + factor_extra) * var
    if var_of_mean > 0:
        t = mean / math.sqrt(var_of_mean)
        return t, 2 * stats.t.sf(abs(t), k - 1)
    if mean == 0:
        return None, None
    return math.copysign(math.inf, mean), 0.0


def rejects(result, convention):
    t, p = result
    if t is None:
        return convention == "reject"
    return p < ALPHA


def case_of(error_rejects, auc_rejects):
    return CASES[2 * error_rejects + auc_rejects]


def count(values, datasets, learners, splits_dir):
    """Counts per test and convention, and the degenerate comparisons."""
    out = {}
    degenerate = []
    for test in ("paired_t", "corrected_t"):
        for convention in ("accept", "reject"):
            out[(test, convention)] = dict.fromkeys(CASES, 0)
    for dataset in datasets:
        extra = 0.0
        if splits_dir:
            train, test_size = mean_sizes(splits_dir, dataset)
            extra = test_size / train
        for a, b in itertools.combinations(learners, 2):
            results = {}
            for test in ("paired_t", "corrected_t"):
                if test == "corrected_t" and not splits_dir:
                    continue
                f = extra if test == "corrected_t" else 0.0
                err = t_test(values[(dataset, "error")][a], values[(dataset, "error")][b], f)
                auc = t_test(values[(dataset, "auc")][a], values[(dataset, "auc")][b], f)
                results[test] = (err, auc)
                for convention in ("accept", "reject"):
                    case = case_of(rejects(err, convention), rejects(auc, convention))
                    out[(test, convention)][case] += 1
            err, auc = results["paired_t"]
            if err[0] is None or auc[0] is None:
                degenerate.append((dataset, a, b, err[0] is None, auc[0] is None))
    return out, degenerate


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="?")
    parser.add_argument("--per-fold")
    parser.add_argument("--splits")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    per_fold = args.per_fold or os.path.join(args.results, "per_fold.csv")
    splits = args.splits or (os.path.join(args.results, "splits") if args.results else None)
    values, datasets, learners = read_test_values(per_fold)
    counts, degenerate = count(values, datasets, learners, splits)
    if args.json:
        flat = {f"{t}/{c}": [v[k] for k in CASES] for (t, c), v in counts.items() if sum(v.values())}
        flat["degenerate"] = len(degenerate)
        print(json.dumps(flat))
        return
    print(f"{len(datasets)} datasets, {len(learners)} learners")
    print(f"comparisons with 0/0 (all 30 differences zero) on error or AUC: {len(degenerate)}")
    if args.list:
        for d, a, b, e, u in degenerate:
            print(f"  {d}: {a} vs {b} (error 0/0: {e}, AUC 0/0: {u})")
    print()
    print("| test | 0/0 scored | both accept | error accepts, AUC rejects | "
          "error rejects, AUC accepts | both reject | disagree |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    print("| paper | | 1 | 10 | 9 | 130 | 19 |")
    for (test, convention), v in counts.items():
        if not sum(v.values()):
            continue
        n = [v[k] for k in CASES]
        print(f"| {test} | {convention} | {n[0]} | {n[1]} | {n[2]} | {n[3]} | {n[1] + n[2]} |")


if __name__ == "__main__":
    sys.exit(main())
