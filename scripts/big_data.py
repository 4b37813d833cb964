#!/usr/bin/env python3
"""Writes a synthetic two-class CSV file of numeric columns for the large-data measurements
(docs/large-data.md, issue 27): `rows` rows of 20 standard-normal columns x1..x20 and a class
`pos`/`neg` drawn from a logistic model with an interaction term, so that every learner has
something to find and C4.5 grows a real tree. Seeded: the same arguments give the same bytes.

    /work/venv/bin/python scripts/big_data.py ROWS OUT.csv [--seed 27]

Never commit the output: a million rows is about 150 MB. The configs in
experiments/configs/big/ read /tmp/bigdata/big_<rows>.csv.
"""
import argparse
import sys

import numpy as np

COLUMNS = 20
CHUNK = 100_000


def chunk_rows(rng, rows):
    """One chunk: the features rounded to 4 decimals and the class drawn from them."""
    x = np.round(rng.standard_normal((rows, COLUMNS)), 4)
    weights = np.linspace(1.5, 0.0, COLUMNS)
    score = x @ weights + 1.0 * x[:, 0] * x[:, 1] - 0.5
    positive = rng.random(rows) < 1.0 / (1.0 + np.exp(-score))
    return x, positive


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    if args.rows < 1:
        sys.exit("rows must be at least 1")
    rng = np.random.Generator(np.random.PCG64(args.seed))
    header = ",".join([f"x{i + 1}" for i in range(COLUMNS)] + ["class"])
    with open(args.out, "w") as out:
        out.write(header + "\n")
        left = args.rows
        while left > 0:
            rows = min(CHUNK, left)
            x, positive = chunk_rows(rng, rows)
            labels = np.where(positive, "pos", "neg")
            text = np.char.mod("%.4f", x)
            lines = [",".join(row) + "," + label for row, label in zip(text, labels)]
            out.write("\n".join(lines) + "\n")
            left -= rows


if __name__ == "__main__":
    main()
