#!/usr/bin/env python3
"""A learner written outside Rust, run by the `external` learner kind.

Config:  [[learners]]
         name = "python-nb"
         kind = "external"
         command = ["python3", "examples/external_learner.py"]
         timeout_seconds = 600

The runner calls:  python3 examples/external_learner.py TRAIN.csv TEST.csv OUT.csv
- TRAIN.csv: header row, class in the last column, empty field = missing value;
- TEST.csv: the same columns without the class;
- OUT.csv (written here): a header row naming the classes, then one row of class
  probabilities per test row, in test order.

This example is naive Bayes with only the standard library: Gaussian for columns whose every
present training value is a number, categorical with Laplace smoothing otherwise; missing
values are skipped. Replace `fit` and `predict` with your own learner.
"""

import csv
import math
import sys


def read(path):
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def fit(header, rows):
    classes = sorted({row[-1] for row in rows})
    counts = {c: sum(1 for row in rows if row[-1] == c) for c in classes}
    columns = []
    for index in range(len(header) - 1):
        present = [row[index] for row in rows if row[index] != ""]
        numeric = all(is_number(v) for v in present)
        stats = {}
        for c in classes:
            values = [row[index] for row in rows if row[-1] == c and row[index] != ""]
            if numeric:
                xs = [float(v) for v in values]
                mean = sum(xs) / len(xs) if xs else 0.0
                var = sum((x - mean) ** 2 for x in xs) / max(len(xs) - 1, 1)
                stats[c] = (mean, max(math.sqrt(var), 1e-3))
            else:
                table = {}
                for v in values:
                    table[v] = table.get(v, 0) + 1
                stats[c] = (table, len(values))
        columns.append((numeric, stats, len(set(present)) + 1))
    return classes, counts, columns


def predict(model, row):
    classes, counts, columns = model
    total = sum(counts.values())
    logs = []
    for c in classes:
        log = math.log((counts[c] + 1) / (total + len(classes)))
        for value, (numeric, stats, arity) in zip(row, columns):
            if value == "":
                continue
            if numeric and is_number(value):
                mean, sd = stats[c]
                log += -0.5 * ((float(value) - mean) / sd) ** 2 - math.log(sd)
            elif not numeric:
                table, n = stats[c]
                log += math.log((table.get(value, 0) + 1) / (n + arity))
        logs.append(log)
    top = max(logs)
    weights = [math.exp(l - top) for l in logs]
    return classes, [w / sum(weights) for w in weights]


def main():
    train_path, test_path, out_path = sys.argv[1:4]
    header, train = read(train_path)
    _, test = read(test_path)
    model = fit(header, train)
    with open(out_path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(model[0])
        for row in test:
            writer.writerow(predict(model, row)[1])


if __name__ == "__main__":
    main()
