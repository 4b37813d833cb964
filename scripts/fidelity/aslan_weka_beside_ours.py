#!/usr/bin/env python3
"""Aslan et al.'s four-case table with Weka 3.6's learners beside ours and the paper's (issue 46):
recounts both runs' per-fold tables with aslan_cases.py's own t-test and case rules (scipy's t
distribution, the paper's 0/0 rule and Weka's), then says, pair by pair, how often Weka's
learners put a (dataset, learner pair) in the same case as ours, and which moves there are.

    python3 scripts/fidelity/aslan_weka_beside_ours.py WEKA_RESULTS [--ours docs/reproductions/aslan]

WEKA_RESULTS is the results folder of experiments/configs/weka/aslan.toml (per_fold.csv);
--ours the committed run of aslan.toml (per_fold.csv). Both runs use the same seed, so the same
splits: the learners are the only difference. Prints Markdown.
"""

import argparse
import itertools
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import aslan_cases  # noqa: E402

PAPER = [1, 10, 9, 130]
SHORT = ["both accept", "error acc., AUC rej.", "error rej., AUC acc.", "both reject"]


def cases(per_fold, convention):
    """{(dataset, a, b): case index} of the paired t-test on error and AUC."""
    values, datasets, learners = aslan_cases.read_test_values(per_fold)
    out = {}
    for dataset in datasets:
        for a, b in itertools.combinations(learners, 2):
            err = aslan_cases.t_test(values[(dataset, "error")][a], values[(dataset, "error")][b])
            auc = aslan_cases.t_test(values[(dataset, "auc")][a], values[(dataset, "auc")][b])
            e = aslan_cases.rejects(err, convention)
            u = aslan_cases.rejects(auc, convention)
            out[(dataset, a, b)] = 2 * e + u
    return out


def four_case_table(ours, weka):
    print("| case | paper | ours, 0/0 rejected | Weka's learners, 0/0 rejected "
          "| ours, 0/0 accepted | Weka's learners, 0/0 accepted |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    counted = {key: Counter(table.values()) for key, table in
               [(("ours", "reject"), ours["reject"]), (("weka", "reject"), weka["reject"]),
                (("ours", "accept"), ours["accept"]), (("weka", "accept"), weka["accept"])]}
    for i, name in enumerate(aslan_cases.CASES):
        cells = [counted[k][i] for k in [("ours", "reject"), ("weka", "reject"),
                                         ("ours", "accept"), ("weka", "accept")]]
        print(f"| {name} | {PAPER[i]} | " + " | ".join(str(c) for c in cells) + " |")
    disagree = [counted[k][1] + counted[k][2] for k in [("ours", "reject"), ("weka", "reject"),
                                                        ("ours", "accept"), ("weka", "accept")]]
    print(f"| the tests disagree (cases 2 + 3) | {PAPER[1] + PAPER[2]} | "
          + " | ".join(str(c) for c in disagree) + " |")


def moves(ours, weka):
    same = sum(ours[k] == weka[k] for k in ours)
    print(f"\nThe same case with both learner sets (0/0 rejected): {same} of {len(ours)} "
          "(dataset, learner pair)s. Moves (ours -> Weka's learners):\n")
    print("| ours \\ Weka's | " + " | ".join(SHORT) + " |")
    print("| --- |" + " ---: |" * 4)
    for i in range(4):
        row = [sum(1 for k in ours if ours[k] == i and weka[k] == j) for j in range(4)]
        print(f"| {SHORT[i]} | " + " | ".join(str(c) for c in row) + " |")
    by_pair = Counter((k[1], k[2]) for k in ours if ours[k] != weka[k])
    by_data = Counter(k[0] for k in ours if ours[k] != weka[k])
    print("\nMoved comparisons by learner pair: "
          + (", ".join(f"{a}-{b} {n}" for (a, b), n in by_pair.most_common()) or "none"))
    print("Moved comparisons by dataset: "
          + (", ".join(f"{d} {n}" for d, n in by_data.most_common()) or "none"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("weka")
    parser.add_argument("--ours", default=os.path.join(ROOT, "docs/reproductions/aslan"))
    args = parser.parse_args()
    ours = {c: cases(os.path.join(args.ours, "per_fold.csv"), c) for c in ("reject", "accept")}
    weka = {c: cases(os.path.join(args.weka, "per_fold.csv"), c) for c in ("reject", "accept")}
    if set(ours["reject"]) != set(weka["reject"]):
        sys.exit("the two runs have different datasets or learner names")
    print("**Aslan et al.'s four cases (paired t-test on error and on AUC, alpha 0.05): the paper, "
          "our learners and Weka 3.6's on the same splits**\n")
    print("Made by `python3 scripts/fidelity/aslan_weka_beside_ours.py WEKA_RESULTS`, which "
          "recounts both runs' per_fold.csv with scripts/fidelity/aslan_cases.py's test.\n")
    four_case_table(ours, weka)
    moves(ours["reject"], weka["reject"])


if __name__ == "__main__":
    main()
