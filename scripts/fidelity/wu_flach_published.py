#!/usr/bin/env python3
"""Recounts the averages Wu & Flach (2005) print under their Tables 4 and 5 from the rows they
print, over every reading of the digits 1 the extraction lost.

The published rows, with every reading, are crates/papers/data/wu_flach.toml (`auc` and `sauc`
list the readings of one cell). For each column the script gives the range of the column's mean
over all readings, and tries the subsets a reader might suspect (the starred rows left out, the
rows printed identical to Table 4 left out) to see whether any gives the printed average.

Run: /work/venv/bin/python scripts/fidelity/wu_flach_published.py
"""

import os
import re
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def column_range(rows, table, key, keep=lambda row: True):
    chosen = [row[table][key] for row in rows if keep(row)]
    low = sum(min(r) for r in chosen) / len(chosen)
    high = sum(max(r) for r in chosen) / len(chosen)
    return low, high, len(chosen)


def main():
    with open(os.path.join(ROOT, "crates", "papers", "data", "wu_flach.toml"), "rb") as handle:
        data = tomllib.load(handle)
    rows = data["datasets"]
    starred = set(data["samples"]["starred"])
    same_as_table4 = {r["paper"] for r in rows if r["table5"]["auc"] == r["table4"]["auc"]
                      and r["table5"]["sauc"] == r["table4"]["sauc"]}
    printed = {("table4", "auc"): data["full"]["auc_selected_mean"],
               ("table4", "sauc"): data["full"]["sauc_selected_mean"],
               ("table5", "auc"): data["samples"]["auc_selected_mean"],
               ("table5", "sauc"): data["samples"]["sauc_selected_mean"]}
    print(f"{len(rows)} rows; Table 5 rows printed identical to Table 4: "
          f"{', '.join(sorted(same_as_table4))} (starred: {', '.join(sorted(starred))})")
    subsets = {
        "all rows": lambda r: True,
        "without the starred rows": lambda r: r["paper"] not in starred,
        "without the rows identical to Table 4": lambda r: r["paper"] not in same_as_table4,
    }
    for (table, key), value in printed.items():
        print(f"{table} use {key.upper()}: printed average {value:.2f}")
        for label, keep in subsets.items():
            low, high, n = column_range(rows, table, key, keep)
            inside = "contains it" if round(low, 2) <= value <= round(high, 2) else "does not"
            print(f"    mean over {label} ({n}): {low:.3f} to {high:.3f} ({inside})")
    for (table, key), value in printed.items():
        low, high, _ = column_range(rows, table, key)
        if round(low, 2) <= value <= round(high, 2):
            continue
        print(f"{table} use {key.upper()} ({value:.2f} printed): rows whose omission gives it "
              f"as the mean of the other 19:")
        for row in rows:
            lo, hi, _ = column_range(rows, table, key,
                                     lambda r, p=row["paper"]: r["paper"] != p)
            if round(lo, 2) <= value <= round(hi, 2):
                print(f"    {row['paper']} ({row[table][key]})")
        shift_low = value * len(rows) - high * len(rows)
        shift_high = value * len(rows) - low * len(rows)
        print(f"    or one cell {shift_low:+.2f} to {shift_high:+.2f} points from its printed "
              f"value (over the readings)")
    table5_sample_size()


def table5_sample_size():
    """How far our 50- and 150-instance runs are from their Table 5, row by row (from the
    committed reports' beside-paper tables)."""
    print()
    print("Table 5 beside our runs (committed reports): mean |ours - paper| over the 20 rows")
    for folder, stem in (("wu_flach_samples", "wu_flach_selection_samples"),
                         ("wu_flach_samples_150", "wu_flach_selection_samples_150")):
        path = os.path.join(ROOT, "docs", "reproductions", folder, f"{stem}_beside_paper.md")
        rows = [[c.strip() for c in line.split("|")[1:-1]] for line in open(path)
                if re.match(r"\| \d+ \|", line)]
        # since the comparison was split to fit a page, "same winner" (column 10) and the
        # columns after it are in the second table, after # and dataset: joined back here
        winners = path.replace(".md", "_winners.md")
        if os.path.exists(winners):
            second = [[c.strip() for c in line.split("|")[1:-1]] for line in open(winners)
                      if re.match(r"\| \d+ \|", line)]
            rows = [row + other[2:] for row, other in zip(rows, second)]
        gaps = {4: [], 7: []}
        same = determined = 0
        for row in rows:
            for column in gaps:
                values = [abs(float(x)) for x in re.findall(r"[-+]?\d+\.\d+", row[column])]
                gaps[column].append(sum(values) / len(values))
            determined += row[10] in ("yes", "**no**")
            same += row[10] == "yes"
        print(f"    {folder}: AUC-selected {sum(gaps[4]) / len(rows):.2f} points, "
              f"sAUC-selected {sum(gaps[7]) / len(rows):.2f} points; same winner {same} of "
              f"{determined}")


if __name__ == "__main__":
    main()
