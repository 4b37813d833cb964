#!/usr/bin/env python3
"""Writes run/ (predictions.arff, description.xml) with openml-python's own writer,
`OpenMLRun.to_filesystem`, for the openml crate's fixture task 1001, and rows.json with the
rows it was given; tests/peer_written.rs checks that our checker accepts the folder and that
our writer writes the same predictions file from the same rows.

Rerun from the repository root (needs `pip install openml`; the output is the same every run):

    python3 crates/openml_runs/tests/data/openml_python_written/make_run.py

Offline: `OpenMLRun._generate_arff_dict` asks the server for the task (only for its type and
class labels) and for the flow; the task is built here instead as openml-python's own
`OpenMLClassificationTask` with the fixture's labels (b, a, 'c d', from
crates/openml/tests/data/expected.json) and the flow and model are stand-ins (no model is stored), so the layout, the
quoting and the encoding (liac-arff) are openml-python's. Rows: every test row of every fold
in the fixture's order; the prediction is the row's true label (../task_truth/truth.json)
except for every fourth row id, where it is the next label; confidences 0.5 on the
prediction and 0.25 on each other label (binary fractions, so that both writers spell them
alike).
"""
import json
import os
from types import SimpleNamespace

import openml
import openml.runs.run as run_module
from openml.tasks import OpenMLClassificationTask, TaskType

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "..", "..", "openml", "tests", "data")


def main():
    with open(os.path.join(FIXTURES, "expected.json"), encoding="utf-8") as f:
        task_1001 = next(t for t in json.load(f)["tasks"] if t["id"] == 1001)
    with open(os.path.join(HERE, "..", "task_truth", "truth.json"), encoding="utf-8") as f:
        truth = json.load(f)["1001"]["labels"]
    labels = task_1001["class_labels"]
    rows = []
    for fold in task_1001["folds"]:
        for row_id in fold["test"]:
            correct = labels.index(truth[row_id])
            prediction = correct if row_id % 4 else (correct + 1) % len(labels)
            confidences = [0.5 if k == prediction else 0.25 for k in range(len(labels))]
            rows.append([fold["repeat"], fold["fold"], fold["sample"], row_id,
                         labels[prediction], labels[correct], *confidences])
    task = OpenMLClassificationTask(
        task_type_id=TaskType.SUPERVISED_CLASSIFICATION, task_type="Supervised Classification",
        data_set_id=task_1001["dataset_id"], target_name=task_1001["target"], task_id=1001,
        class_labels=labels)
    run_module.get_task = lambda task_id, **kwargs: task
    run = openml.runs.OpenMLRun(task_id=1001, flow_id=7, dataset_id=task_1001["dataset_id"],
                                data_content=rows, flow=SimpleNamespace(), model="not stored",
                                description_text="",
                                parameter_settings=[])
    folder = os.path.join(HERE, "run")
    for name in ("predictions.arff", "description.xml"):
        if os.path.exists(os.path.join(folder, name)):
            os.remove(os.path.join(folder, name))
    run.to_filesystem(folder, store_model=False)
    with open(os.path.join(HERE, "rows.json"), "w", encoding="utf-8") as f:
        json.dump({"labels": labels, "rows": rows}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
