#!/usr/bin/env python3
"""Writes envelope_reference.csv: scipy's mid-rank percentile of a value among seed values
(scipy.stats.percentileofscore, kind="mean"), which papers::envelope::percentile must equal.
Lines: values (space-separated); value; percentile.
Run: /work/venv/bin/python crates/papers/tests/data/envelope_reference.py
"""
import os

from scipy.stats import percentileofscore

CASES = [
    ([121, 127, 139, 130, 131, 128, 129, 135, 127, 135], 130),
    ([121, 127, 139, 130, 131, 128, 129, 135, 127, 135], 140),
    ([121, 127, 139, 130, 131, 128, 129, 135, 127, 135], 100),
    ([6, 2, 7, 5, 8, 7, 2, 7, 4, 6, 6], 1),
    ([6, 2, 7, 5, 8, 7, 2, 7, 4, 6, 6], 7),
    ([89.47, 89.11, 89.3, 89.25], 93.05),
    ([-0.94, -0.65, -1.03, -0.7, -0.02], -0.65),
    ([3, 3, 3], 3),
]

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "envelope_reference.csv"), "w") as out:
    out.write("values;value;percentile\n")
    for values, value in CASES:
        p = percentileofscore(values, value, kind="mean")
        out.write(f"{' '.join(str(v) for v in values)};{value};{float(p)!r}\n")
