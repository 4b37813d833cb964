#!/usr/bin/env python3
"""Writes the OpenML task fixtures under cache/ (openml-python's cache layout) and expected.json.

Rerun from the repository root (Python 3.8+, standard library only; the output is the same on
every run, the random streams being seeded):

    python3 crates/openml/tests/data/make_fixtures.py

The files follow the formats openml-python 0.15.1 reads and the OpenML server writes:
task.xml as `openml.tasks.functions._create_task_from_xml` parses it (oml:input
name="source_data" / oml:data_set / oml:data_set_id and oml:target_feature,
oml:input name="estimation_procedure" with oml:type and oml:parameter name=...,
oml:input name="evaluation_measures"), datasplits.arff with the columns
`type {TRAIN,TEST}`, `rowid`, `repeat`, `fold` (and `sample` for a learning curve) as
`openml.tasks.split.OpenMLSplit._from_arff_file` reads them, and a dataset's description.xml
with oml:row_id_attribute and oml:ignore_attribute. openml-python's source distribution
(openml-0.15.1.tar.gz) ships no test task files, so none are copied here; every fixture is
synthetic (made up by this script, not data from the OpenML server).

expected.json records, for every task written, what a reader must find: the target, its class
labels in declared order, the number of rows, and every fold's train and test row ids in the
file's order. These come from this script's own choices, not from the Rust reader.

Tasks written:
- 1001: Supervised Classification, 2 x 3-fold stratified cross-validation of dataset 501
  (30 rows; the target `class` {b,a,'c d'} is the third of six attributes; description.xml
  names `id`, a STRING attribute, as the row id attribute and `note` as ignored). TRAIN and TEST lines interleave.
- 1002: Learning Curve (type 3), 1 x 2-fold cross-validation with 3 samples each, of dataset
  501 (the `sample` column placed before `fold`).
- 1003: Supervised Classification, 33% holdout of dataset 502 (12 rows, two classes, no
  description.xml).
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
WWW = os.path.join(HERE, "cache", "org", "openml", "www")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def task_xml(task_id, type_id, type_name, did, target, kind, params, measures):
    lines = [
        '<oml:task xmlns:oml="http://openml.org/openml">',
        f"\t<oml:task_id>{task_id}</oml:task_id>",
        f"  <oml:task_type_id>{type_id}</oml:task_type_id>",
        f"\t<oml:task_type>{type_name}</oml:task_type>",
        '\t      <oml:input name="source_data">',
        "    <oml:data_set>",
        f"<oml:data_set_id>{did}</oml:data_set_id>",
        f"<oml:target_feature>{target}</oml:target_feature>",
        "</oml:data_set>  </oml:input>",
        '\t      <oml:input name="estimation_procedure">',
        "    <oml:estimation_procedure>",
        "        <oml:id>1</oml:id>",
        f"<oml:type>{kind}</oml:type>",
        f"<oml:data_splits_url>https://example.invalid/api_splits/get/{task_id}/Task_{task_id}_splits.arff</oml:data_splits_url>",
    ]
    for name in ["number_repeats", "number_folds", "percentage", "stratified_sampling"]:
        lines.append(f'<oml:parameter name="{name}">{params.get(name, "")}</oml:parameter>')
    lines += [
        "</oml:estimation_procedure>  </oml:input>",
        '\t      <oml:input name="cost_matrix">',
        "    <oml:cost_matrix></oml:cost_matrix>  </oml:input>",
        '\t      <oml:input name="evaluation_measures">',
        "    <oml:evaluation_measures>",
    ]
    lines += [f"<oml:evaluation_measure>{m}</oml:evaluation_measure>" for m in measures]
    lines += ["</oml:evaluation_measures>  </oml:input>", "    <oml:tag>fixture</oml:tag>", "  </oml:task>", ""]
    return "\n".join(lines)


def quoted(value):
    return f"'{value}'" if " " in value else value


def dataset_501():
    rng = random.Random(501)
    labels = ["b", "a", "c d"]
    colours = ["red", "green", "blue"]
    rows = []
    for i in range(30):
        label = labels[i % 3] if i < 27 else labels[0]
        x1 = round(rng.gauss(labels.index(label), 0.7), 3)
        x2 = round(rng.uniform(-1, 1), 3)
        colour = "?" if i == 7 else rng.choice(colours)
        rows.append((f"'row {i + 100}'", x1, label, x2, colour, rng.randint(0, 9)))
    header = [
        "% synthetic fixture dataset 501 (crates/openml/tests/data/make_fixtures.py)",
        "@RELATION fixture-501",
        "",
        "@ATTRIBUTE id STRING",
        "@ATTRIBUTE x1 REAL",
        "@ATTRIBUTE class {b,a,'c d'}",
        "@ATTRIBUTE x2 REAL",
        "@ATTRIBUTE colour {red,green,blue}",
        "@ATTRIBUTE note INTEGER",
        "",
        "@DATA",
    ]
    body = [f"{r[0]},{r[1]},{quoted(r[2])},{r[3]},{r[4]},{r[5]}" for r in rows]
    write(os.path.join(WWW, "datasets", "501", "dataset.arff"), "\n".join(header + body) + "\n")
    write(
        os.path.join(WWW, "datasets", "501", "description.xml"),
        '<oml:data_set_description xmlns:oml="http://openml.org/openml">\n'
        "  <oml:id>501</oml:id>\n  <oml:name>fixture-501</oml:name>\n"
        "  <oml:format>ARFF</oml:format>\n"
        "  <oml:default_target_attribute>class</oml:default_target_attribute>\n"
        "  <oml:row_id_attribute>id</oml:row_id_attribute>\n"
        "  <oml:ignore_attribute>note</oml:ignore_attribute>\n"
        "</oml:data_set_description>\n",
    )
    return labels, [r[2] for r in rows]


def dataset_502():
    rng = random.Random(502)
    classes = ["no", "yes", "no", "no", "yes", "yes", "no", "yes", "no", "yes", "no", "yes"]
    body = [f"{round(rng.uniform(0, 5), 2)},{c}" for c in classes]
    header = ["@relation fixture-502", "@attribute score numeric", "@attribute outcome {yes,no}", "@data"]
    write(os.path.join(WWW, "datasets", "502", "dataset.arff"), "\n".join(header + body) + "\n")
    return ["yes", "no"], classes


def stratified_folds(classes, k, rng):
    """Row ids of each of k test folds: each class's rows shuffled and dealt out in turn."""
    folds = [[] for _ in range(k)]
    turn = 0
    for label in sorted(set(classes)):
        members = [i for i, c in enumerate(classes) if c == label]
        rng.shuffle(members)
        for row in members:
            folds[turn % k].append(row)
            turn += 1
    return folds


def splits_arff(relation, lines, with_sample=False):
    head = [f"@relation {relation}", "", "@attribute type {TRAIN,TEST}", "@attribute rowid numeric", "@attribute repeat numeric"]
    head += ["@attribute sample numeric", "@attribute fold numeric"] if with_sample else ["@attribute fold numeric"]
    head += ["", "@data"]
    return "\n".join(head + lines) + "\n"


def emit(folds_out, rng, repeat, fold, sample, train, test, with_sample):
    """Lines of one fold, TRAIN and TEST interleaved at random; records the file's order."""
    tagged = [("TRAIN", r) for r in train] + [("TEST", r) for r in test]
    rng.shuffle(tagged)
    record = {"repeat": repeat, "fold": fold, "sample": sample, "train": [], "test": []}
    lines = []
    for kind, row in tagged:
        record["train" if kind == "TRAIN" else "test"].append(row)
        lines.append(f"{kind},{row},{repeat},{sample},{fold}" if with_sample else f"{kind},{row},{repeat},{fold}")
    folds_out.append(record)
    return lines


def task_1001(classes, labels):
    rng = random.Random(1001)
    lines, folds = [], []
    for repeat in range(2):
        tests = stratified_folds(classes, 3, rng)
        for fold, test in enumerate(tests):
            train = [r for r in range(len(classes)) if r not in test]
            rng.shuffle(train)
            lines += emit(folds, rng, repeat, fold, 0, train, test, False)
    folder = os.path.join(WWW, "tasks", "1001")
    write(os.path.join(folder, "datasplits.arff"), splits_arff("fixture-501_splits", lines))
    params = {"number_repeats": 2, "number_folds": 3, "stratified_sampling": "true"}
    write(os.path.join(folder, "task.xml"), task_xml(1001, 1, "Supervised Classification", 501, "class", "crossvalidation", params, ["predictive_accuracy"]))
    return {"id": 1001, "dataset_id": 501, "target": "class", "class_labels": labels, "n_rows": len(classes), "estimation": "crossvalidation", "left_out": ["id", "note"], "folds": folds}


def task_1002(classes, labels):
    rng = random.Random(1002)
    lines, folds = [], []
    tests = stratified_folds(classes, 2, rng)
    for fold, test in enumerate(tests):
        train_all = [r for r in range(len(classes)) if r not in test]
        rng.shuffle(train_all)
        for sample, size in enumerate([4, 8, len(train_all)]):
            lines += emit(folds, rng, 0, fold, sample, train_all[:size], test, True)
    folder = os.path.join(WWW, "tasks", "1002")
    write(os.path.join(folder, "datasplits.arff"), splits_arff("fixture-501_learning_curve", lines, with_sample=True))
    params = {"number_repeats": 1, "number_folds": 2, "stratified_sampling": "true"}
    write(os.path.join(folder, "task.xml"), task_xml(1002, 3, "Learning Curve", 501, "class", "learningcurve", params, []))
    return {"id": 1002, "dataset_id": 501, "target": "class", "class_labels": labels, "n_rows": len(classes), "estimation": "learningcurve", "left_out": ["id", "note"], "folds": folds}


def task_1003(classes, labels):
    rng = random.Random(1003)
    rows = list(range(len(classes)))
    rng.shuffle(rows)
    test, train = rows[:4], rows[4:]
    folds = []
    lines = emit(folds, rng, 0, 0, 0, train, test, False)
    folder = os.path.join(WWW, "tasks", "1003")
    write(os.path.join(folder, "datasplits.arff"), splits_arff("fixture-502_splits", lines))
    params = {"number_repeats": 1, "number_folds": 1, "percentage": 33, "stratified_sampling": "false"}
    write(os.path.join(folder, "task.xml"), task_xml(1003, 1, "Supervised Classification", 502, "outcome", "holdout", params, ["predictive_accuracy", "area_under_roc_curve"]))
    return {"id": 1003, "dataset_id": 502, "target": "outcome", "class_labels": labels, "n_rows": len(classes), "estimation": "holdout", "left_out": [], "folds": folds}


def main():
    labels_501, classes_501 = dataset_501()
    labels_502, classes_502 = dataset_502()
    tasks = [task_1001(classes_501, labels_501), task_1002(classes_501, labels_501), task_1003(classes_502, labels_502)]
    write(os.path.join(HERE, "expected.json"), json.dumps({"tasks": tasks}, indent=1) + "\n")


if __name__ == "__main__":
    main()
