#!/usr/bin/env python3
"""Wu & Flach's MONK's rows with the attributes read as nominal (the shipped datasets) and as
numbers (experiments/configs/fidelity/*monks_numeric.toml), beside their Tables 4 and 5.

Reads the `*_beside_paper.csv` tables of four runs (same seed, splits and samples; only the
attributes' type differs) and prints, per MONK's problem, both selections' mean test AUC, their
distance to the paper's, and whether the higher of the two is the paper's.

Usage: wu_flach_monks.py NOMINAL_FULL NUMERIC_FULL NOMINAL_150 NUMERIC_150  (run folders)
"""

import csv
import os
import re
import sys


def rows(run):
    """The Monk rows of the comparison table, columns: #, dataset, paper AUC-sel., ours,
    difference, paper sAUC-sel., ours, difference, higher: paper, higher: ours, same winner, ...
    (runs since the table was split to fit a page write columns 8- in
    `*_beside_paper_winners.csv`, after # and dataset: joined back here)."""
    tables = os.path.join(run, "tables")
    name = next(f for f in os.listdir(tables)
                if f.startswith("wu_flach_selection") and f.endswith("_beside_paper.csv"))

    def monks(path):
        with open(path, newline="") as handle:
            return {r[1].split(" (")[0]: r for r in csv.reader(handle)
                    if r[1].startswith("Monk")}
    found = monks(os.path.join(tables, name))
    winners = os.path.join(tables, name.replace(".csv", "_winners.csv"))
    if os.path.exists(winners):
        for dataset, row in monks(winners).items():
            found[dataset] = found[dataset] + row[2:]
    return found


def first_number(text):
    return float(re.match(r"[-+]?\d+\.\d+", text.strip()).group())


def readings(text):
    """The paper's value(s) before the ±: '96.13 or 96.31 ± 0.77' -> [96.13, 96.31]."""
    return [float(x) for x in re.findall(r"\d+\.\d+", text.split("±")[0])]


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    labels = ["Table 4, nominal", "Table 4, numeric", "Table 5 (150), nominal",
              "Table 5 (150), numeric"]
    print("| run | dataset | AUC-sel. (paper) | sAUC-sel. (paper) | distance | higher: ours / "
          "paper |")
    print("| --- | --- | --- | --- | ---: | --- |")
    for label, run in zip(labels, sys.argv[1:]):
        total = 0.0
        for dataset, r in sorted(rows(run).items()):
            ours_a, ours_s = first_number(r[3]), first_number(r[6])
            paper_a, paper_s = readings(r[2]), readings(r[5])
            distance = (min(abs(ours_a - p) for p in paper_a)
                        + min(abs(ours_s - p) for p in paper_s))
            total += distance
            print(f"| {label} | {dataset} | {ours_a:.2f} ({' or '.join(map(str, paper_a))}) | "
                  f"{ours_s:.2f} ({' or '.join(map(str, paper_s))}) | {distance:.2f} | "
                  f"{r[9]} / {r[8]}: {r[10]} |")
        print(f"| {label} | all three | | | {total:.2f} | |")


if __name__ == "__main__":
    main()
