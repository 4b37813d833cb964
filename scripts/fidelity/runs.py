"""Reading a finished run of `experiments` from Python: its splits, its cached predictions and
the labels of its two-class tasks. Shared by the issue-31 analyses in this folder.

A cache entry `predictions/<dataset>/<learner>/r<rep>-f<fold>-<key>.bin` is (crates/engine/src/
cache.rs): the 8 bytes "CLSPRED2", rows and classes (u64 little-endian), fit and predict seconds
(f64), rows x classes f64 probabilities row by row (the split's test rows, then its validation
rows), and a sha256 of everything before it.

Labels: a shipped dataset's CSV (datasets/catalog.toml gives the file; the class is the last
column) made binary with the positive class the run's tables/datasets.csv names (one against
the rest; after `two_most_confused`, the rows of the two classes it names), in file order. Every caller
checks these labels by recomputing the run's own per-fold AUC from them (`check_auc`), so a
reconstruction that differs from the engine's cannot pass unnoticed. Subsampled datasets
(`subsample = N`) are not reconstructed.
"""

import csv
import glob
import hashlib
import json
import os
import re
import struct
import tomllib

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def catalog():
    with open(os.path.join(ROOT, "datasets", "catalog.toml"), "rb") as handle:
        return tomllib.load(handle)["datasets"]


def read_entry(path):
    """The probabilities of one cache entry (rows x classes), its checksum checked."""
    with open(path, "rb") as handle:
        data = handle.read()
    content, checksum = data[:-32], data[-32:]
    if data[:8] != b"CLSPRED2" or hashlib.sha256(content).digest() != checksum:
        raise ValueError(f"{path}: not an intact cache entry")
    rows, classes = struct.unpack_from("<QQ", data, 8)
    values = np.frombuffer(content, dtype="<f8", offset=40, count=rows * classes)
    return values.reshape(rows, classes)


def run_folder(results):
    """The results folder of a run: `results` itself, or its one subfolder with per_fold.csv."""
    if os.path.exists(os.path.join(results, "per_fold.csv")):
        return results
    found = glob.glob(os.path.join(results, "*", "per_fold.csv"))
    if len(found) != 1:
        raise ValueError(f"{results}: expected one run folder, found {len(found)}")
    return os.path.dirname(found[0])


def splits(run, dataset):
    """The dataset's splits (dicts with repetition, fold, train, validation, test)."""
    with open(os.path.join(run, "splits", f"{dataset}.json")) as handle:
        return json.load(handle)["splits"]


def unit_predictions(run, dataset, learner, repetition, fold):
    """(test probabilities, validation probabilities or None) of one unit."""
    pattern = os.path.join(run, "predictions", dataset, safe(learner),
                           f"r{repetition}-f{fold}-*.bin")
    found = glob.glob(pattern)
    if len(found) != 1:
        raise ValueError(f"{pattern}: {len(found)} entries")
    return read_entry(found[0])


def safe(name):
    """engine::file_safe."""
    out = "".join(c if c.isalnum() and c.isascii() or c in "-_." else "_" for c in name)
    return "_" + out if out.startswith(".") else out


def config(run):
    with open(os.path.join(run, "config.toml"), "rb") as handle:
        return tomllib.load(handle)


def dataset_entries(cfg):
    """[(name, transforms)] of a config's datasets (collections are not expanded here)."""
    base = cfg.get("transforms", {})
    out = []
    for entry in cfg["datasets"]:
        if isinstance(entry, str):
            out.append((entry, dict(base)))
        else:
            transforms = dict(base)
            transforms.update({k: v for k, v in entry.items() if k != "name"})
            out.append((entry["name"], transforms))
    return out


def labels(run, dataset):
    """0/1 labels (1 = positive) of the run's two-class task made from a shipped dataset: the
    positive class (and, after two_most_confused, the pair kept) as the run's own
    tables/datasets.csv states them, rows in file order."""
    with open(os.path.join(run, "tables", "datasets.csv"), newline="") as handle:
        row = next(r for r in csv.DictReader(handle) if r["dataset"] == dataset)
    note = row["transforms"]
    if "subsample" in note:
        raise ValueError(f"{dataset}: subsampled datasets are not reconstructed")
    entry = catalog()[dataset]
    with open(os.path.join(ROOT, entry["file"]), newline="") as handle:
        classes = [r[-1] for r in list(csv.reader(handle))[1:]]
    pair = re.search(r"confuses '(.+?)' and '(.+?)' most", note)
    if pair:
        classes = [c for c in classes if c in pair.groups()]
    positive = re.search(r"positive class '(.+?)' against", note).group(1)
    return np.array([1 if c == positive else 0 for c in classes])


def auc(y, s):
    """AUC with tied pairs counted 1/2 (the engine's Mann-Whitney form)."""
    y = np.asarray(y)
    s = np.asarray(s, dtype=float)
    pos, neg = s[y == 1], s[y == 0]
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s))
    sorted_s = s[order]
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and sorted_s[j + 1] == sorted_s[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    u = ranks[y == 1].sum() - len(pos) * (len(pos) + 1) / 2
    return u / (len(pos) * len(neg))


def tied_pairs(y, s):
    """Number of (positive, negative) pairs with equal scores."""
    y = np.asarray(y)
    s = np.asarray(s, dtype=float)
    values, inverse = np.unique(s, return_inverse=True)
    pos = np.bincount(inverse[y == 1], minlength=len(values))
    neg = np.bincount(inverse[y == 0], minlength=len(values))
    return float((pos * neg).sum())


def per_fold_values(run):
    """{(dataset, learner, repetition, fold, part, measure): value} of the run's per_fold.csv."""
    out = {}
    with open(os.path.join(run, "per_fold.csv"), newline="") as handle:
        for row in csv.DictReader(handle):
            key = (row["dataset"], row["learner"], int(row["repetition"]), int(row["fold"]),
                   row["part"], row["measure"])
            out[key] = float(row["value"])
    return out
