#!/usr/bin/env python3
"""Weka 3.6.14's Logistic on a training set that lacks some of the dataset's classes, for the
learners crate's test of `logistic` with `solver = "weka_bfgs"`.

Weka's Logistic fits every class of the ARFF header, present in training or not, with the last
one as reference. This writes primary-tumor's fixed split (train = rows i % 3 != 0, test = rows
i % 3 == 0) with the training rows of the classes `bladder` (the first) and `vagina` (the last,
so the reference class is absent) left out, runs WekaProbabilities.java with
`weka.classifiers.functions.Logistic -R 1.0E-8 -M -1`, and writes
<out>/primary-tumor-absent-classes.json in the format of make_reference.py (key `logistic`).

Usage (from a scratch directory holding this file and WekaProbabilities.java):

    javac -cp /usr/share/java/weka.jar WekaProbabilities.java
    python3 make_absent_classes_reference.py <out directory>
"""
import csv, json, os, subprocess, sys, tomllib

NAME = "primary-tumor"
LEFT_OUT = ["bladder", "vagina"]
OUT = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
COMMAND = ["weka.classifiers.functions.Logistic", "-R", "1.0E-8", "-M", "-1"]
catalog = tomllib.load(open("/work/shared/datasets/catalog.toml", "rb"))["datasets"]
nominal = set(catalog[NAME].get("nominal_columns", []))
rows = list(csv.reader(open(f"/work/shared/datasets/{NAME}.csv")))
header, body = rows[0], rows[1:]
attrs = header[:-1]
values = {a: sorted({r[j] for r in body if r[j] not in ("", "?")}) for j, a in enumerate(attrs) if a in nominal}
classes = sorted({r[-1] for r in body})


def quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def encode(r):
    out = []
    for j, a in enumerate(attrs):
        v = r[j]
        if v in ("", "?"):
            out.append(None)
        elif a in nominal:
            out.append(values[a].index(v))
        else:
            out.append(float(v))
    return out


def write_arff(path, rs):
    with open(path, "w") as f:
        f.write(f"@relation {quote(NAME)}\n")
        for a in attrs:
            kind = "{" + ",".join(quote(v) for v in values[a]) + "}" if a in nominal else "numeric"
            f.write(f"@attribute {quote(a)} {kind}\n")
        f.write("@attribute class {" + ",".join(quote(c) for c in classes) + "}\n@data\n")
        for r in rs:
            cells = ["?" if r[j] in ("", "?") else (quote(r[j]) if a in nominal else r[j]) for j, a in enumerate(attrs)]
            f.write(",".join(cells + [quote(r[-1])]) + "\n")


train = [r for i, r in enumerate(body) if i % 3 != 0 and r[-1] not in LEFT_OUT]
test = [r for i, r in enumerate(body) if i % 3 == 0]
write_arff(f"{HERE}/absent-train.arff", train)
write_arff(f"{HERE}/absent-test.arff", test)
output = subprocess.run(
    ["java", "-cp", f"/usr/share/java/weka.jar:{HERE}", "WekaProbabilities",
     f"{HERE}/absent-train.arff", f"{HERE}/absent-test.arff"] + COMMAND,
    check=True, capture_output=True, text=True).stdout
expected = [[float(x) for x in line.split()] for line in output.splitlines()]
assert len(expected) == len(test)
doc = {
    "source": "Weka 3.6.14 (Debian weka 3.6.14-3), distributionForInstance via "
              "make_absent_classes_reference.py; train = rows i % 3 != 0 of "
              f"datasets/{NAME}.csv without the classes {LEFT_OUT}, test = rows i % 3 == 0",
    "weka_options": {"logistic": " ".join(COMMAND)},
    "attributes": [{"name": a, "values": values.get(a)} for a in attrs],
    "class_values": classes,
    "train": [encode(r) for r in train],
    "train_classes": [classes.index(r[-1]) for r in train],
    "test": [encode(r) for r in test],
    "expected": {"logistic": expected},
}
with open(f"{OUT}/{NAME}-absent-classes.json", "w") as f:
    json.dump(doc, f, separators=(",", ":"))
print(NAME, len(train), len(test), os.path.getsize(f"{OUT}/{NAME}-absent-classes.json"))
