#!/usr/bin/env python3
"""Prints the splits openml-python reads from a datasplits.arff, as JSON, for the peer test.

Usage (crates/openml/tests/peer_splits.rs runs it; by hand, with openml-python installed):

    python3 crates/openml/tests/data/peer_splits.py COPY/OF/datasplits.arff [MORE.arff ...]

openml-python's own reader, `openml.tasks.split.OpenMLSplit._from_arff_file`, parses the file
offline (it writes a pickle cache beside it: give it a copy). The output is one JSON list with,
for each file in turn,
{"repeats": R, "folds": F, "samples": S, "splits": [[repeat, fold, sample, [train...], [test...]], ...]}
with the row ids in the order openml-python holds them (the file's). Importing openml takes
seconds, so every file is read in one run.
"""
import json
import sys
from pathlib import Path

from openml.tasks.split import OpenMLSplit


def reading(path):
    split = OpenMLSplit._from_arff_file(Path(path))
    rows = []
    for repeat in split.split:
        for fold in split.split[repeat]:
            for sample in split.split[repeat][fold]:
                train, test = split.split[repeat][fold][sample]
                rows.append([int(repeat), int(fold), int(sample), [int(r) for r in train], [int(r) for r in test]])
    return {"repeats": split.repeats, "folds": split.folds, "samples": split.samples, "splits": rows}


def main():
    print(json.dumps([reading(path) for path in sys.argv[1:]]))


if __name__ == "__main__":
    main()
