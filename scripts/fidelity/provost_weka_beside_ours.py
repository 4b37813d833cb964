#!/usr/bin/env python3
"""Provost, Fawcett & Kohavi's Table 1 with Weka 3.6's learners beside ours and the paper's
(issue 46): for each published slope range, the learner on the hull of the averaged curves with
our learners and with Weka's (the same splits: both runs use the config's seed), whether each
agrees with the paper, and whether the sampling-noise verdict holds; then the per-domain counts.

    python3 scripts/fidelity/provost_weka_beside_ours.py WEKA_RESULTS [--ours docs/reproductions/provost]

WEKA_RESULTS is the results folder of experiments/configs/weka/provost.toml (its
tables/provost_table1.md); --ours the committed run of provost.toml. Prints Markdown.
"""

import argparse
import os
import sys
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINDS = ["whole range", "part of it", "not at all"]


def table1(folder):
    """[(domain, range, published, ours-over-range, agreement, resamples, cause)] of Table 1."""
    for candidate in ("provost_table1.md", os.path.join("tables", "provost_table1.md")):
        path = os.path.join(folder, candidate)
        if os.path.exists(path):
            break
    else:
        sys.exit(f"{folder}: no provost_table1.md (nor tables/provost_table1.md)")
    rows = []
    with open(path) as handle:
        for line in handle:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 7 and cells[0] not in ("domain", "---"):
                rows.append(cells)
    return rows


def noise(cause):
    return "not sampling noise" not in cause


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


if __name__ == "__main__":
    main()
