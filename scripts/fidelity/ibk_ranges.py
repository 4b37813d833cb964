#!/usr/bin/env python3
"""Why our 5-NN and Weka's `IBk -K 5` differ on a few test rows of numeric data (issue 46):
Weka's IBk widens its attribute ranges (min-max normalisation) with every instance it scores
(`distributionForInstance` calls the search's `addInstanceInfo`), so a test row outside the
training ranges changes the distances of itself and of every later test row; ours normalises by
the training rows alone.

For each dataset, on scripts/weka_compare.py's splits (stratified 10-fold CV, seed 1), three runs:
  weka  : Weka's IBk as a user runs it (scripts/weka/WekaRunner.java, rows scored in order);
  fresh : each test row scored by a fresh copy of IBk as built (WekaRunner with
          -Dfresh_copies=true), so only the row itself can widen the ranges;
  ours  : `{ kind = "knn", k = 5, select_k = false, weka_smoothing = true }` (the `predict`
          example).
It prints how many predicted classes differ between them, and splits the test rows into those
inside every training range (where nothing is widened: fresh and ours should agree to 1e-12)
and those outside some range.

    python3 scripts/fidelity/ibk_ranges.py sonar pima glass crx german vehicle

Needs Java, Weka 3.6 (WEKA_JAR or /usr/share/java/weka.jar) and `cargo build -p learners
--example predict`.
"""

import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import weka_compare as wc  # noqa: E402


def rows_of(path):
    """The data rows of an ARFF file weka_compare wrote, and which columns are numeric."""
    lines = Path(path).read_text().split("\n")
    attributes = [line for line in lines if line.lower().startswith("@attribute")]
    numeric = [a.split()[-1].lower() in ("numeric", "real", "integer") for a in attributes]
    start = [line.lower() for line in lines].index("@data") + 1
    data = [line for line in lines[start:] if line.strip()]
    return list(csv.reader(data, quotechar="'")), numeric


def ranges(train, numeric):
    """{column: (min, max)} of the known values of every numeric attribute (class excluded)."""
    out = {}
    for j, is_numeric in enumerate(numeric[:-1]):
        values = [float(row[j]) for row in train if is_numeric and row[j] != "?"]
        if values:
            out[j] = (min(values), max(values))
    return out


def run(tool, name, splits, work, classes, binary):
    triples = [(tr, te, work / f"{name}-{tool}-fold{f}.csv") for f, (tr, te, _) in enumerate(splits)]
    if tool == "ours":
        wc.run_ours(binary, "ibk5", triples, 1)
    else:
        fresh = "true" if tool == "fresh" else "false"
        command = ["java", f"-Dfresh_copies={fresh}", "-cp", f"{wc.WEKA_JAR}:{classes}", "WekaRunner",
                   "weka.classifiers.lazy.IBk", "-K 5"]
        for triple in triples:
            command += [str(part) for part in triple]
        subprocess.run(command, check=True, capture_output=True)
    return [wc.read_probabilities(t[2]) for t in triples]


def argmax(row):
    return row.index(max(row))


def report(name, splits, results):
    def differing(a, b):
        return sum(argmax(x) != argmax(y) for fa, fb in zip(results[a], results[b]) for x, y in zip(fa, fb))
    counts = {"inside": [0, 0], "outside": [0, 0]}
    for f, (train_path, test_path, _) in enumerate(splits):
        train, numeric = rows_of(train_path)
        test, _ = rows_of(test_path)
        bounds = ranges(train, numeric)
        for row, fresh, ours in zip(test, results["fresh"][f], results["ours"][f]):
            outside = any(row[j] != "?" and not lo <= float(row[j]) <= hi for j, (lo, hi) in bounds.items())
            same = max(abs(x - y) for x, y in zip(fresh, ours)) < 1e-12
            counts["outside" if outside else "inside"][0 if same else 1] += 1
    print(f"| {name} | {differing('weka', 'ours')} | {differing('weka', 'fresh')} | {differing('fresh', 'ours')} "
          f"| {counts['inside'][0]} / {counts['inside'][1]} | {counts['outside'][0]} / {counts['outside'][1]} |")


def main():
    names = sys.argv[1:] or ["sonar", "pima", "glass", "crx", "german", "vehicle"]
    catalog = wc.load_catalog()
    binary = ROOT / "target" / "debug" / "examples" / "predict"
    if not binary.exists():
        sys.exit(f"no {binary}: run `cargo build -p learners --example predict` first")
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        classes = work / "classes"
        classes.mkdir()
        source = str(ROOT / "scripts/weka/WekaRunner.java")
        subprocess.run(["javac", "-cp", wc.WEKA_JAR, "-d", str(classes), source], check=True)
        print("| dataset | predicted classes differing: Weka vs ours | Weka vs fresh | fresh vs ours "
              "| test rows inside the training ranges: fresh = ours / differ | outside: same / differ |")
        print("| --- | ---: | ---: | ---: | --- | --- |")
        for name in names:
            splits, _ = wc.make_splits(name, catalog, work, 10, 1)
            results = {tool: run(tool, name, splits, work, classes, binary) for tool in ("weka", "fresh", "ours")}
            report(name, splits, results)


if __name__ == "__main__":
    main()
