#!/usr/bin/env python3
"""Reference probabilities of Weka 3.6 itself for the Weka worker's test
(crates/learners/tests/weka_worker.rs), written by scripts/weka/WekaRunner.java, the runner of
scripts/weka_compare.py (the independent peer: it reads ARFF files with Weka's own loader and
never speaks the worker protocol), on weka_compare.py's own stratified 10-fold splits (seed 1),
the class values declared in the catalog's order (as the project's loader orders them).

    python3 crates/learners/tests/data/weka_worker/make_reference.py            # the test's datasets
    python3 crates/learners/tests/data/weka_worker/make_reference.py --all --out /tmp/weka-worker-all
        # the 16 datasets of docs/weka-comparison.md; then
        # WEKA_WORKER_VECTORS=/tmp/weka-worker-all cargo test -p learners --test weka_worker

Writes one JSON file per dataset: the class values in the ARFF header's order, each row's fold
number, and per learner the Weka class, its options and the probabilities of every fold's test
rows (in row order), as Weka's Double.toString printed them. Needs python3 (3.11+), a JDK and
Weka 3.6 (Debian: apt-get install weka default-jdk-headless).
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[4]
sys.path.insert(0, str(ROOT / "scripts"))
import weka_compare  # noqa: E402

# The five learners of the papers (weka_compare.py's names and options).
LEARNERS = ["c45", "nb", "ibk5", "jrip", "logistic"]
# Nominal and missing (breast-cancer), mixed with missing (hepatitis), numeric multi-class
# (glass), nominal multi-class (lymphography).
TEST_DATASETS = ["breast-cancer", "hepatitis", "glass", "lymphography"]
FOLDS, SEED = 10, 1


def declared_splits(name, catalog, workdir):
    """weka_compare.py's splits, with the class attribute's values in the catalog's declared
    order (datasets/catalog.toml's class_counts), the order the project's loader gives the
    classes and sends to the worker; attribute values stay in first-appearance order, as both
    weka_compare.py and the project's CSV reader give them."""
    header, is_nominal, rows, _, assignment = weka_compare.fold_rows(name, catalog, FOLDS, SEED)
    classes = list(catalog[name]["class_counts"])
    lines = weka_compare.arff_header(name, header, rows, is_nominal).split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith("@attribute"))
    quote = weka_compare.arff_quote
    lines[last] = f"@attribute {quote(header[-1])} {{{','.join(quote(v) for v in classes)}}}"
    header_text = "\n".join(lines)
    splits = []
    for fold in range(FOLDS):
        paths = [workdir / f"{name}-fold{fold}-{part}.arff" for part in ("train", "test")]
        weka_compare.write_arff(paths[0], header_text, [r for r, f in zip(rows, assignment) if f != fold], is_nominal)
        weka_compare.write_arff(paths[1], header_text, [r for r, f in zip(rows, assignment) if f == fold], is_nominal)
        splits.append(paths)
    return header, classes, assignment, splits


def reference(name, catalog, workdir, classes_dir):
    header, class_values, assignment, splits = declared_splits(name, catalog, workdir)
    learners = {}
    for learner in LEARNERS:
        weka_class, options, _ = weka_compare.LEARNERS[learner]
        triples = [(train, test, workdir / f"{name}-{learner}-fold{f}.csv") for f, (train, test) in enumerate(splits)]
        weka_compare.run_weka(classes_dir, learner, triples)
        folds = [[[float(x) for x in line.split(",")] for line in Path(out).read_text().split()] for _, _, out in triples]
        learners[learner] = {"classifier": weka_class, "options": options, "folds": folds}
    return {"dataset": name, "attributes": len(header) - 1, "classes": class_values, "fold_of_row": assignment, "learners": learners}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--all", action="store_true", help="the 16 datasets of docs/weka-comparison.md")
    parser.add_argument("--out", default=str(HERE))
    args = parser.parse_args()
    names = weka_compare.DATASETS if args.all else TEST_DATASETS
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    catalog = weka_compare.load_catalog()
    with tempfile.TemporaryDirectory() as work:
        workdir = Path(work)
        classes_dir = weka_compare.compile_weka_runner(workdir)
        for name in names:
            data = reference(name, catalog, workdir, classes_dir)
            (out / f"{name}.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")
            print(f"wrote {out / (name + '.json')}", file=sys.stderr)


if __name__ == "__main__":
    main()
