#!/usr/bin/env python3
"""Writes truth.json: each row's target label in the openml crate's fixture datasets, read by
liac-arff (openml-python's ARFF library), for tests/from_task.rs.

Rerun from the repository root (needs `pip install liac-arff`, which `pip install openml` brings):

    python3 crates/openml_runs/tests/data/task_truth/make_truth.py

For each fixture task (crates/openml/tests/data/cache/org/openml/www/tasks/<id>/task.xml) it
reads the target's name from task.xml and the dataset ARFF's rows with `arff.load`, and records
the task's class labels (the target's declared values, in order) and every row's label.
"""
import json
import os
import re

import arff

ROOT = os.path.dirname(os.path.abspath(__file__))
WWW = os.path.join(ROOT, "..", "..", "..", "..", "openml", "tests", "data", "cache", "org",
                   "openml", "www")


def main():
    out = {}
    for task_id in sorted(os.listdir(os.path.join(WWW, "tasks"))):
        xml = open(os.path.join(WWW, "tasks", task_id, "task.xml"), encoding="utf-8").read()
        target = re.search(r"<oml:target_feature>(.*?)</oml:target_feature>", xml).group(1)
        did = re.search(r"<oml:data_set_id>(\d+)</oml:data_set_id>", xml).group(1)
        with open(os.path.join(WWW, "datasets", did, "dataset.arff"), encoding="utf-8") as f:
            data = arff.load(f)
        names = [name for name, _ in data["attributes"]]
        column = names.index(target)
        out[task_id] = {
            "class_labels": data["attributes"][column][1],
            "labels": [row[column] for row in data["data"]],
        }
    with open(os.path.join(ROOT, "truth.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
