"""Independent reference for data::transform::leave_one_out_confusion (numpy 2.4, Python 3.11).

Leave-one-out 1-NN over the whole dataset with Weka IBk's normalised Euclidean distance:
numeric x -> (x - min) / (max - min) over the present values (0 if max == min); numeric
difference a - b, one missing -> max(v, 1 - v) of the present normalised v, both missing -> 1;
nominal difference 0 if equal else 1 (1 if either is missing). Squared differences are summed
attribute by attribute in schema order; the nearest other row is the first minimum (lowest row
index). Writes loo_1nn_confusion.json next to this script.

Run from the repository root: python3 crates/data/tests/data/reference/loo_1nn_confusion.py [names]
"""
import csv
import json
import os
import sys
import tomllib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = sys.argv[1:] or [
    "glass", "vehicle", "hepatitis", "bridges", "primary-tumor", "balance-scale",
    "page-blocks", "waveform-21", "satimage", "optdigits", "nursery", "kr-vs-k",
]

catalog = tomllib.load(open("datasets/catalog.toml", "rb"))["datasets"]


def load(name):
    entry = catalog[name]
    with open(entry["file"], newline="") as handle:
        rows = list(csv.reader(handle))
    header, rows = rows[0], rows[1:]
    class_values = list(entry["class_counts"].keys())
    nominal = set(entry["nominal_columns"])
    columns, is_nominal = [], []
    for j, column_name in enumerate(header[:-1]):
        raw = [r[j] for r in rows]
        if column_name in nominal:
            codes = {}
            values = []
            for v in raw:
                if v == "":
                    values.append(np.nan)
                else:
                    values.append(float(codes.setdefault(v, len(codes))))
            columns.append(np.array(values))
            is_nominal.append(True)
        else:
            columns.append(np.array([np.nan if v == "" else float(v) for v in raw]))
            is_nominal.append(False)
    classes = np.array([class_values.index(r[-1]) for r in rows])
    return columns, is_nominal, classes, class_values


def confusion_of(name, block=256):
    columns, is_nominal, classes, class_values = load(name)
    normalised = []
    for column, nominal in zip(columns, is_nominal):
        if nominal:
            normalised.append(column)
            continue
        present = column[~np.isnan(column)]
        low, high = (present.min(), present.max()) if present.size else (0.0, 0.0)
        if high > low:
            normalised.append((column - low) * (1.0 / (high - low)))
        else:
            normalised.append(np.where(np.isnan(column), np.nan, 0.0))
    n = len(classes)
    nearest = np.empty(n, dtype=int)
    for start in range(0, n, block):
        stop = min(start + block, n)
        total = np.zeros((stop - start, n))
        for column, nominal in zip(normalised, is_nominal):
            a = column[start:stop, None]
            b = column[None, :]
            if not nominal and not np.isnan(column).any():
                diff = a - b  # complete numeric column: no missing-value cases
                total += diff * diff
                continue
            a_missing, b_missing = np.isnan(a), np.isnan(b)
            if nominal:
                diff = np.where(a_missing | b_missing | (a != b), 1.0, 0.0)
            else:
                diff = a - b
                a_filled = np.broadcast_to(np.maximum(a, 1.0 - a), diff.shape)
                b_filled = np.broadcast_to(np.maximum(b, 1.0 - b), diff.shape)
                diff = np.where(a_missing & ~b_missing, b_filled, diff)
                diff = np.where(b_missing & ~a_missing, a_filled, diff)
                diff = np.where(a_missing & b_missing, 1.0, diff)
            total += diff * diff
        total[np.arange(stop - start), np.arange(start, stop)] = np.inf
        nearest[start:stop] = np.argmin(total, axis=1)
    k = len(class_values)
    confusion = np.zeros((k, k), dtype=int)
    for row in range(n):
        confusion[classes[row], classes[nearest[row]]] += 1
    return {"class_values": class_values, "confusion": confusion.tolist()}


path = os.path.join(HERE, "loo_1nn_confusion.json")
result = json.load(open(path)) if os.path.exists(path) else {}
result["source"] = "crates/data/tests/data/reference/loo_1nn_confusion.py (numpy %s)" % np.__version__
for name in NAMES:
    result[name] = confusion_of(name)
    print(name, "done", file=sys.stderr)
json.dump(result, open(path, "w"), indent=1)
