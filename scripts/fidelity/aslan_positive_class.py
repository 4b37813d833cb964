#!/usr/bin/env python3
"""Does the choice of the positive class change Aslan et al.'s four-case table? A recount on a
run's cached predictions.

With two classes, every model gives each test row two probabilities that sum to 1. Error is the
argmax decision against the label, which names no positive class. AUC with class 1 positive
ranks by p1; with class 0 positive it ranks by p0 = 1 - p1 in the other direction and asks for
class 0 above class 1: the same pairs, the same order, the same ties. This script recomputes,
for every unit of the run (every dataset, learner and model), the test AUC both ways (class 1
positive on p1, class 0 positive on p0, tied pairs 1/2) and the test error, and reports the
largest difference. The labels are checked against the run's own per_fold.csv first.

Usage: aslan_positive_class.py RUN_FOLDER   (a run of aslan.toml with its predictions)
"""

import itertools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aslan_cases  # noqa: E402
import runs  # noqa: E402


def main():
    run = runs.run_folder(sys.argv[1])
    cfg = runs.config(run)
    learners = [l.get("name", l["kind"]) for l in cfg["learners"]]
    per_fold = runs.per_fold_values(run)
    datasets = sorted({k[0] for k in per_fold})
    worst_check = worst_auc = worst_error = 0.0
    units = 0
    values = {"as run": {}, "other class positive": {}}
    for dataset in datasets:
        y = runs.labels(run, dataset)
        for learner in learners:
            for split in runs.splits(run, dataset):
                if split["fold"] >= 2**63:
                    continue
                p = runs.unit_predictions(run, dataset, learner, split["repetition"],
                                          split["fold"])[: len(split["test"])]
                labels = y[split["test"]]
                auc1 = runs.auc(labels, p[:, 1])
                auc0 = runs.auc(1 - labels, p[:, 0])
                error = np.mean(np.argmax(p, axis=1) != labels)
                # the same decisions with the classes' roles swapped (column order reversed)
                error_swapped = np.mean(np.argmax(p[:, ::-1], axis=1) != 1 - labels)
                key = (dataset, learner, split["repetition"], split["fold"], "test", "auc")
                worst_check = max(worst_check, abs(per_fold[key] - auc1))
                worst_auc = max(worst_auc, abs(auc1 - auc0))
                worst_error = max(worst_error, abs(error - error_swapped))
                units += 1
                for way, (e, a) in (("as run", (error, auc1)),
                                    ("other class positive", (error_swapped, auc0))):
                    for measure, v in (("error", e), ("auc", a)):
                        values[way].setdefault((dataset, measure), {}).setdefault(
                            learner, []).append(v)
    print(f"{units} units ({len(datasets)} datasets x {len(learners)} learners x their models)")
    print(f"labels check: largest |our AUC - per_fold.csv| = {worst_check:.1e}")
    print(f"largest |AUC(class 1 positive, p1) - AUC(class 0 positive, p0)| = {worst_auc:.1e}")
    print(f"largest |error - error with the class roles swapped| = {worst_error:.1e} "
          f"(argmax ties broken to the first column both ways)")
    print()
    print("The four cases (plain t, 0/0 scored accept) both ways:")
    for way, table in values.items():
        counts, _ = aslan_cases.count(table, datasets, learners, None)
        n = [counts[("paired_t", "accept")][c] for c in aslan_cases.CASES]
        print(f"    {way}: {n[0]} / {n[1]} / {n[2]} / {n[3]}")
    changed = 0
    for dataset in datasets:
        for a, b in itertools.combinations(learners, 2):
            cases = []
            for table in values.values():
                err = aslan_cases.t_test(table[(dataset, "error")][a], table[(dataset, "error")][b])
                auc = aslan_cases.t_test(table[(dataset, "auc")][a], table[(dataset, "auc")][b])
                cases.append(aslan_cases.case_of(aslan_cases.rejects(err, "accept"),
                                                 aslan_cases.rejects(auc, "accept")))
            if cases[0] != cases[1]:
                changed += 1
                print(f"    {dataset} {a} vs {b}: {cases[0]} -> {cases[1]}")
    print(f"comparisons whose case changes: {changed} of 150")


if __name__ == "__main__":
    main()
