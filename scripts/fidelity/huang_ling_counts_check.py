#!/usr/bin/env python3
"""Spot-checks docs/reproductions/huang_ling/exact_counts.csv (the project's dynamic program)
against the independent brute-force enumeration crates/papers/tests/data/huang_ling_reference.py:
every row with at most 1,000,000 rankings (2n <= 22 balanced, 2n <= 24 with 25% positives, and
Table 7) is enumerated afresh here by that script's function, and every other row that script
enumerated itself is compared with its committed output huang_ling_reference.json. Also checks that C and D recomputed
from the counts equal the report's huang_ling_extended.md (6 decimals).

Run: /work/venv/bin/python scripts/fidelity/huang_ling_counts_check.py [CSV]
"""

import csv
import importlib.util
import json
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(ROOT, "crates", "papers", "tests", "data")


def load_reference():
    spec = importlib.util.spec_from_file_location(
        "huang_ling_reference", os.path.join(REFERENCE, "huang_ling_reference.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extended_table():
    """{(positives, negatives): (C, D) as printed} from the committed report table."""
    path = os.path.join(ROOT, "docs", "reproductions", "huang_ling", "huang_ling_extended.md")
    printed = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.fullmatch(r"\d+", cells[1]):
            printed[(int(cells[2]), int(cells[3]))] = (cells[4], cells[5])
    return printed


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        ROOT, "docs", "reproductions", "huang_ling", "exact_counts.csv")
    rows = list(csv.DictReader(open(path)))
    reference = load_reference()
    with open(os.path.join(REFERENCE, "huang_ling_reference.json")) as handle:
        committed = {(c["positives"], c["negatives"]): c for c in json.load(handle)["rows"]}
    printed = extended_table()
    enumerated = from_json = same_cd = 0
    for row in rows:
        p, n = int(row["positives"]), int(row["negatives"])
        ours = {k: int(row[k.upper()]) for k in "rspq"}
        if math.comb(p + n, p) <= 1_000_000:
            expected = reference.counts(p, n)
            enumerated += 1
        elif (p, n) in committed:
            expected = committed[(p, n)]
            from_json += 1
        else:
            expected = None
        if expected is not None:
            bad = [k for k in "rspq" if int(expected[k]) != ours[k]]
            if bad:
                sys.exit(f"{p}:{n}: {bad} differ: ours {ours}, enumeration {expected}")
        if (p, n) in printed:
            c = ours["r"] / (ours["r"] + ours["s"])
            d = ours["p"] / ours["q"] if ours["q"] else float("inf")
            c_text, d_text = f"{c:.6f}", ("inf" if d == float("inf") else f"{d:.6f}")
            if (c_text, d_text) != printed[(p, n)]:
                sys.exit(f"{p}:{n}: C, D = {c_text}, {d_text}; report {printed[(p, n)]}")
            same_cd += 1
    print(f"{len(rows)} configurations; R, S, P, Q equal the brute-force enumeration for "
          f"{enumerated} (at most 1,000,000 rankings, enumerated now) and its committed output "
          f"huang_ling_reference.json for {from_json} more; C and D equal huang_ling_extended.md for {same_cd} of "
          f"{len(printed)} printed rows")


if __name__ == "__main__":
    main()
