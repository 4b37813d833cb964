#!/usr/bin/env python3
"""scikit-learn estimators three ways on the Aslan protocol: through the persistent worker
(`kind = "python"`), through the `external` kind (one process per unit on CSV files), and as a
plain Python loop over the same splits. Results in docs/worker-speed.md.

Every command below prints what it measured; the whole-process times come from timing the
commands from outside (e.g. `/usr/bin/time -v`), run one after the other in one sitting.

    # 1. write the configs (one per dataset, estimator and way) into OUT:
    python3 scripts/worker_speed.py configs OUT [--python PYTHON]
    # 2. our whole process, from an empty results folder each time (one thread):
    rm -rf OUT/results && target/debug/experiments --config OUT/worker-pima-logistic.toml --threads 1 --results OUT/results
    # 3. the plain Python loop over the same splits (whole process; prints its in-process
    #    fit + predict seconds, and with --check the largest difference from the worker's
    #    cached probabilities):
    PYTHON scripts/worker_speed.py loop pima logistic OUT/results [--check]
    # 4. the per-unit overhead, with the `null` estimator (fit and predict_proba that do
    #    nothing): the runner's seconds per unit (units.csv) through the worker,
    python3 scripts/worker_speed.py overhead OUT/results/worker-pima-null
    #    and the whole process's CPU seconds of OUT/worker-pima-null60.toml (60 units) less
    #    those of OUT/worker-pima-null.toml (30 units), divided by 30.

The loop reads the splits our run wrote (OUT/results/<experiment>/splits/<dataset>.json), so
both see the same rows in the same order, and the classes as our run sees them (the minority
class is class 1). Every estimator gets random_state = 1 both ways (the worker would otherwise
use each unit's seed). The BLAS and OpenMP libraries get one thread both ways.
"""

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import csv  # noqa: E402
import glob  # noqa: E402
import json  # noqa: E402
import struct  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATASETS = ["pima", "spambase", "magic"]
# name: (module:Class, constructor arguments), the same both ways.
ESTIMATORS = {
    "logistic": ("sklearn.linear_model:LogisticRegression", {"random_state": 1}),
    "forest": ("sklearn.ensemble:RandomForestClassifier", {"random_state": 1}),
    "knn": ("sklearn.neighbors:KNeighborsClassifier", {}),
    "null": ("worker_speed:Uniform", {}),
}


class Uniform:
    """An estimator that does nothing: its time through the worker is the worker's overhead."""

    def fit(self, X, y):
        import numpy as np
        self.classes_ = np.flatnonzero(np.bincount(y))
        return self

    def predict_proba(self, X):
        import numpy as np
        return np.full((X.shape[0], self.classes_.size), 1.0 / self.classes_.size)


def toml_value(value):
    """A Python value as TOML (the constructor arguments used here)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def config_text(name, dataset, learner, folds=30):
    return (f'name = "{name}"\nseed = 2009\ndatasets = ["{dataset}"]\nmeasures = ["error", "auc"]\n'
            'analyses = []\n[transforms]\ntwo_most_confused = true\n[protocol]\nkind = "aslan"\n'
            f'test_fraction = 0.3333333333333333\nfolds = {folds}\n[[learners]]\nname = "sk"\n'
            f"{learner}")


def write_configs(out, python):
    out.mkdir(parents=True, exist_ok=True)
    for dataset in DATASETS:
        for short, (estimator, params) in ESTIMATORS.items():
            worker = (f'kind = "python"\npython = {json.dumps(python)}\n'
                      f'estimator = "{estimator}"\nparams = {toml_value(params)}\n'
                      f'module_path = [{json.dumps(str(ROOT / "scripts"))}]\n')
            name = f"worker-{dataset}-{short}"
            (out / f"{name}.toml").write_text(config_text(name, dataset, worker))
            if short == "null":
                # 60 units instead of 30: the difference is 30 units' cost beyond the estimator.
                name = f"worker-{dataset}-null60"
                (out / f"{name}.toml").write_text(config_text(name, dataset, worker, folds=60))
                continue
            command = [python, str(ROOT / "scripts" / "worker_speed.py"), "external", short]
            external = f"kind = \"external\"\ncommand = {json.dumps(command)}\n"
            name = f"external-{dataset}-{short}"
            (out / f"{name}.toml").write_text(config_text(name, dataset, external))
    print(f"configs in {out}")


def estimator_class(short):
    """The class of an estimator (imported now, before any timing) and its arguments."""
    import importlib
    estimator, params = ESTIMATORS[short]
    module, _, name = estimator.partition(":")
    return getattr(importlib.import_module(module), name), params


def read_csv(path):
    """Attribute values and class labels of a shipped CSV (header; numeric; class last)."""
    import numpy as np
    with open(path, newline="") as file:
        rows = list(csv.reader(file))[1:]
    x = np.array([[float(v) for v in row[:-1]] for row in rows])
    return x, [row[-1] for row in rows]


def external(short, train_csv, test_csv, out_csv):
    """The `external` kind's command: TRAIN.csv TEST.csv OUT.csv."""
    import numpy as np
    with open(train_csv, newline="") as file:
        rows = list(csv.reader(file))[1:]
    x = np.array([[float(v) for v in row[:-1]] for row in rows])
    labels = [row[-1] for row in rows]
    with open(test_csv, newline="") as file:
        test = np.array([[float(v) for v in row] for row in list(csv.reader(file))[1:]])
    cls, params = estimator_class(short)
    model = cls(**params).fit(x, labels)
    proba = model.predict_proba(test)
    with open(out_csv, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(model.classes_)
        writer.writerows([repr(float(v)) for v in row] for row in proba)


def cached(results, dataset):
    """Our run's probabilities per (repetition, fold), from its cache."""
    found = {}
    for path in glob.glob(str(results / "predictions" / dataset / "sk" / "r*-f*-*.bin")):
        name = Path(path).name
        repetition, fold = (int(part[1:]) for part in name.split("-")[:2])
        data = Path(path).read_bytes()
        assert data[:8] == b"CLSPRED2", path
        rows, classes = struct.unpack_from("<QQ", data, 8)
        found[(repetition, fold)] = struct.unpack_from(f"<{rows * classes}d", data, 40)
    return found


def loop(dataset, short, results_root, check):
    """The plain Python loop over our run's splits; prints the in-process fit+predict seconds."""
    import numpy as np
    results = Path(results_root) / f"worker-{dataset}-{short}"
    splits = json.loads((results / "splits" / f"{dataset}.json").read_text())
    x, labels = read_csv(ROOT / "datasets" / f"{dataset}.csv")
    values = sorted(set(labels), key=labels.index)
    minority = min(values, key=labels.count)
    y = np.array([int(label == minority) for label in labels])
    seconds = 0.0
    worst = 0.0
    ours = cached(results, dataset) if check else {}
    cls, params = estimator_class(short)
    for split in splits["splits"]:
        predicted = split["test"] + (split["validation"] or [])
        start = time.perf_counter()
        model = cls(**params).fit(x[split["train"]], y[split["train"]])
        proba = model.predict_proba(x[predicted])
        seconds += time.perf_counter() - start
        if check:
            mine = np.array(ours[(split["repetition"], split["fold"])]).reshape(proba.shape)
            worst = max(worst, float(np.abs(mine - proba).max()))
    line = f"{dataset}\t{short}\t{len(splits['splits'])} units\tfit+predict {seconds:.3f} s"
    if check:
        line += f"\tlargest difference from the worker's probabilities {worst:.3g}"
    print(line)


def overhead(results):
    """Mean and median seconds per unit the runner spent (units.csv fit + predict)."""
    with open(Path(results) / "units.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    seconds = sorted(float(r["fit_seconds"]) + float(r["predict_seconds"]) for r in rows)
    print(f"{results}\t{len(seconds)} units\tmean {1000 * sum(seconds) / len(seconds):.2f} ms"
          f"\tmedian {1000 * seconds[len(seconds) // 2]:.2f} ms\tfirst unit excluded: mean "
          f"{1000 * (sum(seconds) - seconds[-1]) / (len(seconds) - 1):.2f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    configs = commands.add_parser("configs")
    configs.add_argument("out", type=Path)
    configs.add_argument("--python", default=sys.executable)
    run = commands.add_parser("loop")
    run.add_argument("dataset", choices=DATASETS)
    run.add_argument("estimator", choices=sorted(ESTIMATORS))
    run.add_argument("results", type=Path)
    run.add_argument("--check", action="store_true")
    outside = commands.add_parser("external")
    outside.add_argument("estimator", choices=sorted(ESTIMATORS))
    outside.add_argument("files", nargs=3)
    units = commands.add_parser("overhead")
    units.add_argument("results", type=Path)
    args = parser.parse_args()
    if args.command == "configs":
        write_configs(args.out, args.python)
    elif args.command == "loop":
        loop(args.dataset, args.estimator, args.results, args.check)
    elif args.command == "external":
        external(args.estimator, *args.files)
    else:
        overhead(args.results)


if __name__ == "__main__":
    main()
