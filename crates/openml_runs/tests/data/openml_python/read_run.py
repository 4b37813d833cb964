"""openml-python's own code reads a run folder we wrote, offline, and scores it.

Run by crates/openml_runs/tests/openml_python.rs (and by hand):

    python3 read_run.py RUN_DIR

RUN_DIR holds predictions.arff and description.xml as `experiments openml export` writes them.
Prints one JSON object: "attributes", the column names liac-arff read; "labels", the
nominal values of `prediction`; "per_fold", openml-python's per-fold accuracy of the predictions
(`OpenMLRun.get_metric_fn(sklearn.metrics.accuracy_score)`, its order: repeats, then folds),
each as [repeat, fold, accuracy]; "fold_evaluations", the per-fold values of
description.xml as openml-python read them; "task_id" and "flow_id" as it read them.

Offline: `OpenMLRun.from_filesystem` reads both files with openml-python's own parsers
(xmltodict for the description, liac-arff for the predictions). `get_metric_fn` would fetch
the task from the server only to learn its type and the predictions from the server's file
store; both calls are replaced here by the task type (supervised classification) and the
file's own text, so that the parsing and the scoring are openml-python's code.
Needs: pip install openml scikit-learn.
"""

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import openml
import openml.runs.run as run_module
from openml.tasks import TaskType
from sklearn.metrics import accuracy_score


def main(folder):
    folder = Path(folder)
    run = openml.runs.OpenMLRun.from_filesystem(folder, expect_model=False)
    text = (folder / "predictions.arff").read_text()
    # get_metric_fn's server branch: the predictions file's text instead of a download.
    run.data_content = None
    run.output_files = {"predictions": 0}
    openml._api_calls._file_id_to_url = lambda file_id, filename=None: "offline"
    openml._api_calls._download_text_file = lambda url, **kwargs: text
    run_module.get_task = lambda task_id, **kwargs: SimpleNamespace(
        task_type_id=TaskType.SUPERVISED_CLASSIFICATION
    )
    scores = run.get_metric_fn(accuracy_score)
    import arff

    parsed = arff.loads(text)
    rows = parsed["data"]
    # get_metric_fn's order: repeats as they first appear, each one's folds as they appear.
    folds_of = {}
    for row in rows:
        folds = folds_of.setdefault(int(row[0]), [])
        if int(row[1]) not in folds:
            folds.append(int(row[1]))
    keys = [(r, f) for r, folds in folds_of.items() for f in folds]
    per_fold = [[r, f, float(s)] for (r, f), s in zip(keys, scores)]
    evaluations = {
        measure: {str(r): {str(f): v for f, v in folds.items()} for r, folds in reps.items()}
        for measure, reps in (run.fold_evaluations or {}).items()
    }
    print(json.dumps({
        "task_id": run.task_id,
        "attributes": [name for name, _ in parsed["attributes"]],
        "labels": parsed["attributes"][4][1],
        "flow_id": run.flow_id,
        "per_fold": per_fold,
        "fold_evaluations": evaluations,
    }))


if __name__ == "__main__":
    main(sys.argv[1])
