"""Peer check of TieRule::Vote with Weka 3.6.14 (Debian package `weka`): leave-one-out IBk -K 1
on shipped all-nominal datasets, where Weka's per-fold normalisation cannot differ from ours.

Writes NAME.arff (class values in catalog order) to /tmp, runs
`java -cp /usr/share/java/weka.jar weka.classifiers.lazy.IBk -K 1 -t NAME.arff -x N -o`
(N = number of rows, i.e. leave-one-out), parses Weka's confusion matrix and stores it in
weka_ibk_loo.json next to this script. Run from the repository root:
python3 crates/data/tests/data/reference/weka_ibk_loo.py nursery
"""
import csv
import json
import os
import re
import subprocess
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
catalog = tomllib.load(open("datasets/catalog.toml", "rb"))["datasets"]


def quote(value):
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def to_arff(name):
    entry = catalog[name]
    rows = list(csv.reader(open(entry["file"], newline="")))
    header, rows = rows[0], rows[1:]
    path = "/tmp/%s.arff" % name
    with open(path, "w") as out:
        out.write("@relation %s\n" % quote(name))
        for j, column in enumerate(header):
            if j == len(header) - 1:
                values = list(entry["class_counts"].keys())
            else:
                assert column in entry["nominal_columns"], "all-nominal datasets only"
                values = list(dict.fromkeys(r[j] for r in rows if r[j] != ""))
            out.write("@attribute %s {%s}\n" % (quote(column), ",".join(quote(v) for v in values)))
        out.write("@data\n")
        for r in rows:
            out.write(",".join("?" if v == "" else quote(v) for v in r) + "\n")
    return path, len(rows), list(entry["class_counts"].keys())


path_json = os.path.join(HERE, "weka_ibk_loo.json")
result = json.load(open(path_json)) if os.path.exists(path_json) else {}
result["source"] = "crates/data/tests/data/reference/weka_ibk_loo.py (Weka 3.6.14, IBk -K 1, leave-one-out)"
for name in sys.argv[1:]:
    path, n, classes = to_arff(name)
    output = subprocess.run(
        ["java", "-Xmx1g", "-cp", "/usr/share/java/weka.jar", "weka.classifiers.lazy.IBk",
         "-K", "1", "-t", path, "-x", str(n), "-o"],
        capture_output=True, text=True, check=True).stdout
    matrix_text = output.split("=== Confusion Matrix ===")[-1]
    rows = [line for line in matrix_text.splitlines() if "|" in line]
    confusion = [[int(x) for x in line.split("|")[0].split()] for line in rows]
    result[name] = {"class_values": classes, "confusion": confusion}
    print(name, confusion, file=sys.stderr)
json.dump(result, open(path_json, "w"), indent=1)
