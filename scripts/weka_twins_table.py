#!/usr/bin/env python3
"""The twin pairs of experiments/configs/weka/ours_beside_weka.toml side by side: for each of
this project's learners and its Weka twin (served by the Weka worker in the same run, on the
same folds), the mean AUC and error of each and the paired tests' decisions, per dataset, read
from the run's tests table (docs/reproductions/ours_beside_weka/tests.md).

    python3 scripts/weka_twins_table.py docs/reproductions/ours_beside_weka/tests.md \
        > docs/reproductions/ours_beside_weka/twins.md
"""

import sys

TWINS = [
    ("C4.5", "J48 (Weka)"),
    ("naive Bayes", "NaiveBayes (Weka)"),
    ("5-NN", "IBk -K 5 (Weka)"),
    ("RIPPER", "JRip (Weka)"),
    ("logistic", "Logistic (Weka)"),
]


def rows(path):
    """(dataset, measure, a, b, test) -> (mean a, mean b, p-value, decision)."""
    table = {}
    for line in open(path, encoding="utf-8"):
        cells = [cell.strip().replace("\\_", "_") for cell in line.strip().strip("|").split("|")]
        if len(cells) != 11 or cells[0] in ("dataset", "---"):
            continue
        dataset, measure, a, b, test, _, mean_a, mean_b, _, p, decision = cells
        table[(dataset, measure, a, b, test)] = (float(mean_a), float(mean_b), p, decision.strip("*"))
    return table


def main():
    table = rows(sys.argv[1])
    datasets = list(dict.fromkeys(key[0] for key in table))
    print("# This project's learners beside Weka's in one run (issue 46)\n")
    print("Made by `python3 scripts/weka_twins_table.py docs/reproductions/ours_beside_weka/tests.md`")
    print("from the run of `experiments/configs/weka/ours_beside_weka.toml` (stratified 10-fold CV, the")
    print("same folds for every learner). Per pair: the mean test AUC and error of ours and of Weka's")
    print("twin, and the paired t-test's and the corrected t-test's decisions on AUC (alpha 0.05).\n")
    summary = []
    for ours, weka in TWINS:
        print(f"## {ours} / {weka}\n")
        print("| dataset | AUC ours | AUC Weka | error ours | error Weka | AUC paired t | AUC corrected t |")
        print("|---|---:|---:|---:|---:|---|---|")
        differ = 0
        for dataset in datasets:
            auc = table[(dataset, "auc", ours, weka, "paired_t")]
            corrected = table[(dataset, "auc", ours, weka, "corrected_t")]
            error = table[(dataset, "error", ours, weka, "paired_t")]
            differ += auc[3] == "differ"
            print(f"| {dataset} | {auc[0]:.4f} | {auc[1]:.4f} | {error[0]:.4f} | {error[1]:.4f} "
                  f"| {auc[3]} (p {auc[2]}) | {corrected[3]} (p {corrected[2]}) |")
        summary.append((ours, weka, differ, len(datasets)))
        print()
    print("## Summary\n")
    print("| ours | Weka | datasets where the paired t-test on AUC says differ |")
    print("|---|---|---:|")
    for ours, weka, differ, total in summary:
        print(f"| {ours} | {weka} | {differ} of {total} |")


if __name__ == "__main__":
    main()
