#!/usr/bin/env python3
"""How much Weka's own bootstrap draws move Provost et al.'s Table 1 on fixed splits (issue 46):
experiments/configs/weka/provost.toml rerun with Weka's Bagging seed (-S) changed and nothing else
(the same splits, the same other learners, reused from the cache), each run's Table 1 agreement,
ranges beyond sampling noise, and dominators read from its tables. Prints Markdown.

    python3 scripts/fidelity/provost_weka_bagging_seeds.py LABEL=RESULTS [LABEL=RESULTS ...]

RESULTS is a run's results folder (holding tables/provost_table1.md) or a folder with the tables
themselves; LABEL names the row (the learners, the Bagging seed).
"""

import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from provost_weka_beside_ours import KINDS, find_table, noise, table1  # noqa: E402


def dominators(folder):
    """The datasets whose averaged curve dominates, and the folds with a dominating learner."""
    path = find_table(folder, "provost_dominance.md")
    found, folds = [], 0
    with open(path) as handle:
        for line in handle:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) != 7 or cells[0] in ("dataset", "---"):
                continue
            if cells[1] != "none":
                found.append(f"{cells[0]} ({cells[1]})")
            folds += int(cells[3].split(" of ")[0])
    return found, folds


def main():
    if len(sys.argv) < 2 or any("=" not in arg for arg in sys.argv[1:]):
        sys.exit(__doc__)
    print("| run | Table 1: whole / part / not at all | beyond sampling noise "
          "| dominating averaged curve | folds with a dominating learner |")
    print("| --- | --- | ---: | --- | ---: |")
    for argument in sys.argv[1:]:
        label, folder = argument.split("=", 1)
        rows = table1(folder)
        counts = Counter(row[4] for row in rows)
        beyond = sum(1 for r in rows if r[4] != "whole range" and not noise(r[6]))
        found, folds = dominators(folder)
        print(f"| {label} | {' / '.join(str(counts[k]) for k in KINDS)} | {beyond} "
              f"| {', '.join(found) or 'none'} | {folds} of {len(set(r[0] for r in rows)) * 10} |")


if __name__ == "__main__":
    main()
