#!/usr/bin/env python3
"""Builds the datasets Wu & Flach's Table 3 sizes call for out of shipped files, and prints
their catalog entries (paste them into datasets/catalog.toml).

- monks-N-train-and-test.csv: the UCI training file followed by the test file (124 + 432 = 556,
  169 + 432 = 601, 122 + 432 = 554 rows: Wu & Flach's Monk1/2/3 sizes).
- hayes-roth-train.csv: the first 132 rows of hayes-roth.csv, the UCI training file (Wu & Flach
  give 133 rows; the whole 160 is further away).

Run from the repository root: python3 scripts/wu_flach_datasets.py
"""
import csv
import gzip
import hashlib
import io
import re
from collections import Counter

CATALOG = "datasets/catalog.toml"


def read(name):
    with open(f"datasets/{name}.csv", newline="") as handle:
        return handle.read().splitlines(keepends=True)


def entry_of(name):
    text = open(CATALOG).read()
    match = re.search(r'^\[datasets\."' + re.escape(name) + r'"\]\n(.*?)(?=^\[|\Z)', text, re.S | re.M)
    return match.group(1)


def field(entry, key):
    return re.search(r"^" + key + r" = (.*)$", entry, re.M).group(1)


def write(name, lines, source_entry, uci_name, source_path, train_rows, notes):
    data = "".join(lines).encode()
    with open(f"datasets/{name}.csv", "wb") as handle:
        handle.write(data)
    rows = list(csv.reader(io.StringIO(data.decode())))[1:]
    counts = Counter(row[-1] for row in rows)
    order = re.findall(r'"([^"]+)" = \d+', field(source_entry, "class_counts"))
    class_counts = ", ".join(f'"{value}" = {counts[value]}' for value in order if counts[value])
    gzipped = gzip.compress(data, compresslevel=9, mtime=0)
    keep = [
        "papers", "source_registry", "source_package", "source_version", "source_artifact",
        "source_artifact_sha256", "package_license", "data_license", "numeric_attributes",
        "nominal_attributes", "missing_values", "rows_with_missing", "nominal_columns",
    ]
    print(f'[datasets."{name}"]')
    print(f'file = "datasets/{name}.csv"')
    print(f'uci_name = "{uci_name}"')
    for key in keep[:1]:
        print(f"{key} = {field(source_entry, key)}")
    print('role = "derived"')
    for key in keep[1:6]:
        print(f"{key} = {field(source_entry, key)}")
    print(f'source_path = "{source_path}"')
    for key in keep[6:8]:
        print(f"{key} = {field(source_entry, key)}")
    print(f"instances = {len(rows)}")
    print(f"uci_instances = {len(rows)}")
    print(f"train_rows = {train_rows}  # first N rows = the original training file")
    for key in keep[8:12]:
        print(f"{key} = {field(source_entry, key)}")
    print(f"class_counts = {{ {class_counts} }}")
    print(f"nominal_columns = {field(source_entry, 'nominal_columns')}")
    print(f"csv_bytes = {len(data)}")
    print(f"csv_gzip_bytes = {len(gzipped)}")
    print(f'csv_sha256 = "{hashlib.sha256(data).hexdigest()}"')
    print(f'notes = "{notes}"')
    print()


def main():
    for n in (1, 2, 3):
        train = read(f"monks-{n}-train")
        test = read(f"monks-{n}")
        assert train[0] == test[0]
        write(
            f"monks-{n}-train-and-test",
            train + test[1:],
            entry_of(f"monks-{n}"),
            f"MONK's Problems (monks-{n}.train followed by monks-{n}.test)",
            f"datasets/monks-{n}-train.csv + datasets/monks-{n}.csv (Orange 2.7.8 monks-{n}_learn.tab + monks-{n}_test.tab)",
            len(train) - 1,
            f"both UCI files of MONK-{n}, training rows first: the size Wu & Flach (2005) give in their Table 3",
        )
    hayes = read("hayes-roth")
    write(
        "hayes-roth-train",
        hayes[: 1 + 132],
        entry_of("hayes-roth"),
        "Hayes-Roth (hayes-roth.data, the training file)",
        "datasets/hayes-roth.csv rows 1-132 (Orange 2.7.8 hayes-roth_learn.tab)",
        132,
        "the UCI training file alone (Wu & Flach (2005) give 133 rows; the 160 of training and test files are further from it)",
    )


if __name__ == "__main__":
    main()
