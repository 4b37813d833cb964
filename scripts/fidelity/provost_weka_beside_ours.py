#!/usr/bin/env python3
"""Provost, Fawcett & Kohavi's Table 1 with Weka 3.6's learners beside ours and the paper's
(issue 46): for each published slope range, the learner on the hull of the averaged curves with
our learners and with Weka's (the same splits: both runs use the config's seed), whether each
agrees with the paper, and whether the sampling-noise verdict holds; then the per-domain counts.

    python3 scripts/fidelity/provost_weka_beside_ours.py WEKA_RESULTS [--ours docs/reproductions/provost]

WEKA_RESULTS is the results folder of experiments/configs/weka/provost.toml (its
tables/provost_table1.md and per_fold.csv); --ours the committed run of provost.toml. Prints
Markdown: Table 1 three ways, the per-domain counts, then how far each learner's per-fold test
AUC and error move between the two runs (which learners the differences come from).
"""

import argparse
import csv
import os
import sys
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINDS = ["whole range", "part of it", "not at all"]


def find_table(folder, name):
    """The path of a run's table `name`: in `folder` itself or in its tables/ folder."""
    for path in (os.path.join(folder, name), os.path.join(folder, "tables", name)):
        if os.path.exists(path):
            return path
    sys.exit(f"{folder}: no {name} (nor tables/{name})")


def table1(folder):
    """[(domain, range, published, ours-over-range, agreement, resamples, cause)] of Table 1."""
    path = find_table(folder, "provost_table1.md")
    rows = []
    with open(path) as handle:
        for line in handle:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 7 and cells[0] not in ("domain", "---"):
                rows.append(cells)
    return rows


def noise(cause):
    return "not sampling noise" not in cause


def per_fold(folder):
    """{(dataset, learner, fold, measure): value} of the test rows of a run's per_fold.csv."""
    path = os.path.join(folder, "per_fold.csv")
    if not os.path.exists(path):
        sys.exit(f"{folder}: no per_fold.csv")
    with open(path, newline="") as handle:
        return {
            (r["dataset"], r["learner"], r["repetition"], r["fold"], r["measure"]): float(r["value"])
            for r in csv.DictReader(handle)
            if r["part"] == "test"
        }


def learner_moves(ours_folder, weka_folder):
    """Per learner: the folds whose test AUC or error differ between the runs, and by how much."""
    ours, weka = per_fold(ours_folder), per_fold(weka_folder)
    if ours.keys() != weka.keys():
        sys.exit("the two runs' per_fold.csv cover different units")
    print("\n| learner | folds | AUC differs in | mean abs. AUC difference | largest | error differs in "
          "| mean abs. error difference |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    learners = list(dict.fromkeys(key[1] for key in ours))
    for learner in learners:
        row = [learner]
        keys = [k for k in ours if k[1] == learner and k[4] == "auc"]
        row.append(str(len(keys)))
        for measure in ("auc", "error"):
            gaps = [abs(ours[k[:4] + (measure,)] - weka[k[:4] + (measure,)]) for k in keys]
            moved = sum(g > 1e-12 for g in gaps)
            row.append(str(moved))
            row.append(f"{sum(gaps) / len(gaps):.4f}")
            if measure == "auc":
                row.append(f"{max(gaps):.4f}")
        print("| " + " | ".join(row) + " |")
    print("\n'differs': by more than 1e-12; differences are Weka's run minus ours, taken absolute, "
          "over the test folds of every domain.")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("weka")
    parser.add_argument("--ours", default=os.path.join(ROOT, "docs/reproductions/provost"))
    args = parser.parse_args()
    ours, weka = table1(args.ours), table1(args.weka)
    if [r[:3] for r in ours] != [r[:3] for r in weka]:
        sys.exit("the two tables list different ranges")
    print("**Provost et al.'s Table 1: the paper, our learners and Weka 3.6's on the same splits**\n")
    print("Made by `python3 scripts/fidelity/provost_weka_beside_ours.py WEKA_RESULTS` from both "
          "runs' `provost_table1.md`. The learner on the hull of the averaged curves over each "
          "published slope range (share of the range), and whether the difference from the paper "
          "is within sampling noise (the published learner optimal somewhere in its range in at "
          "least 10% of 1,000 fold resamples).\n")
    print("| domain | published range | published learner | ours (share) | agreement | noise? "
          "| Weka's learners (share) | agreement | noise? |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    per_domain = defaultdict(lambda: {"ours": Counter(), "weka": Counter()})
    for o, w in zip(ours, weka):
        per_domain[o[0]]["ours"][o[4]] += 1
        per_domain[o[0]]["weka"][w[4]] += 1
        yes = lambda row: "-" if row[4] == "whole range" else ("yes" if noise(row[6]) else "**no**")
        print(f"| {o[0]} | {o[1]} | {o[2]} | {o[3]} | {o[4]} | {yes(o)} | {w[3]} | {w[4]} | {yes(w)} |")
    print("\n| domain | ours: whole / part / not at all | Weka's learners |")
    print("| --- | --- | --- |")
    total = {"ours": Counter(), "weka": Counter()}
    for domain, counts in per_domain.items():
        cells = []
        for side in ("ours", "weka"):
            total[side].update(counts[side])
            cells.append(" / ".join(str(counts[side][k]) for k in KINDS))
        print(f"| {domain} | {cells[0]} | {cells[1]} |")
    cells = [" / ".join(str(total[s][k]) for k in KINDS) for s in ("ours", "weka")]
    print(f"| all {len(ours)} ranges | {cells[0]} | {cells[1]} |")
    same = sum(o[3] == w[3] for o, w in zip(ours, weka))
    beyond = [sum(1 for r in rows if r[4] != "whole range" and not noise(r[6])) for rows in (ours, weka)]
    print(f"\nThe same learners and shares over {same} of {len(ours)} ranges; differences from the "
          f"paper beyond sampling noise: {beyond[0]} with ours, {beyond[1]} with Weka's learners.")
    learner_moves(args.ours, args.weka)


if __name__ == "__main__":
    main()
