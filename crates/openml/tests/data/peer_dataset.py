#!/usr/bin/env python3
"""Prints what liac-arff (the ARFF parser openml-python depends on) reads from dataset ARFFs:
each file's number of data rows and its target's declared nominal values in order, as JSON.

Usage (crates/openml/tests/peer_splits.rs runs it; by hand, with openml-python installed):

    python3 crates/openml/tests/data/peer_dataset.py FILE.arff TARGET [FILE.arff TARGET ...]
"""
import json
import sys

import arff


def reading(path, target):
    with open(path) as f:
        data = arff.load(f)
    values = dict(data["attributes"])[target]
    return {"n_rows": len(data["data"]), "class_labels": list(values) if isinstance(values, list) else None}


def main():
    pairs = zip(sys.argv[1::2], sys.argv[2::2])
    print(json.dumps([reading(path, target) for path, target in pairs]))


if __name__ == "__main__":
    main()
