#!/usr/bin/env python3
"""Compare this project's learners with Weka 3.6 on identical splits.

For each dataset the script makes stratified 10-fold splits (seeded, written once as ARFF train
and test files with identical headers), runs a Weka classifier (through scripts/weka/WekaRunner,
which prints full-precision class distributions) and this project's twin learner (through the
`predict` example of the learners crate) on every fold, and scores both sets of probabilities
with the same code: accuracy and the class-prior-weighted one-vs-rest AUC (Weka's "weighted avg"
ROC area; for two classes it is the plain AUC). It writes a Markdown table and the per-fold CSV.

    python3 scripts/weka_compare.py                    # default datasets and learner pairs
    python3 scripts/weka_compare.py --learners c45,nb --datasets pima,glass
    python3 scripts/weka_compare.py --speed            # Aslan protocol timing on magic, spambase
    python3 scripts/weka_compare.py --speed --learners kstar --models 3 --rounds 1

Needs Weka 3.6 (Debian package `weka`, /usr/share/java/weka.jar) and a JDK (javac).
"""

import argparse
import csv
import os
import random
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where cargo puts its builds (CARGO_TARGET_DIR when set, as cargo itself reads it).
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
WEKA_JAR = "/usr/share/java/weka.jar"

# name: (Weka class, Weka options, this project's learner as an inline TOML table)
LEARNERS = {
    "c45": ("weka.classifiers.trees.J48", "-C 0.25 -M 2", '{ kind = "c45" }'),
    "c45-laplace": ("weka.classifiers.trees.J48", "-C 0.25 -M 2 -A", '{ kind = "c45", laplace = true }'),
    "nb": ("weka.classifiers.bayes.NaiveBayes", "", '{ kind = "naive_bayes" }'),
    "nb-discretized": ("weka.classifiers.bayes.NaiveBayes", "-D", '{ kind = "naive_bayes", discretize = true }'),
    "bagged-c45": (
        "weka.classifiers.meta.Bagging",
        "-P 100 -S 1 -I 10 -W weka.classifiers.trees.J48 -- -C 0.25 -M 2",
        '{ kind = "bagging", iterations = 10, base = { kind = "c45" } }',
    ),
    "logistic": ("weka.classifiers.functions.Logistic", "-R 1.0E-8 -M -1", '{ kind = "logistic" }'),
    # The same learner fitted along Weka's own BFGS path (to reproduce Weka where it stops short).
    "logistic-weka-bfgs": (
        "weka.classifiers.functions.Logistic",
        "-R 1.0E-8 -M -1",
        '{ kind = "logistic", solver = "weka_bfgs" }',
    ),
    # The linfa-logistic adapter (L-BFGS, at most 200 iterations) beside the same Weka model.
    "linfa-logistic": ("weka.classifiers.functions.Logistic", "-R 1.0E-8 -M -1", '{ kind = "linfa_logistic" }'),
    "ibk5": ("weka.classifiers.lazy.IBk", "-K 5", '{ kind = "knn", k = 5, select_k = false, weka_smoothing = true }'),
    "ibk5-weighted": (
        "weka.classifiers.lazy.IBk",
        "-K 5 -I",
        '{ kind = "knn", k = 5, select_k = false, weighting = "inverse_distance", weka_smoothing = true }',
    ),
    # k-NN with its k selection beside IBk's own (hold-one-out over k = 1..21): the two choose
    # k differently (ours: {1,3,5,7,11,21} on an inner validation split), so this pair is for speed.
    "knn-select": ("weka.classifiers.lazy.IBk", "-K 21 -X", '{ kind = "knn" }'),
    "jrip": ("weka.classifiers.rules.JRip", "-F 3 -N 2.0 -O 2 -S 1", '{ kind = "ripper" }'),
    "kstar": ("weka.classifiers.lazy.KStar", "-B 20 -M a", '{ kind = "kstar" }'),
    "vfi": ("weka.classifiers.misc.VFI", "-B 0.6", '{ kind = "vfi" }'),
    # No exact Weka twin: the perceptron (softmax layer, gradient descent) beside Weka's Logistic
    # (the same model, fitted to convergence), and for speed beside Weka's nearest algorithm, a
    # MultilayerPerceptron without hidden layer (sigmoid outputs, online gradient descent) run
    # for the same 100 epochs at the same learning rate.
    "perceptron": ("weka.classifiers.functions.Logistic", "-R 1.0E-8 -M -1", '{ kind = "perceptron" }'),
    "perceptron-mlp": (
        "weka.classifiers.functions.MultilayerPerceptron",
        "-L 0.1 -M 0 -N 100 -H 0",
        '{ kind = "perceptron" }',
    ),
}

# Two-class and multi-class; numeric, nominal and mixed; with and without missing values.
DATASETS = [
    "breast-cancer", "crx", "german", "pima", "sonar", "ionosphere", "hepatitis",
    "house-votes-84", "tic-tac-toe", "heart-statlog", "vehicle", "glass", "lymphography",
    "primary-tumor", "balance-scale", "kr-vs-kp",
]


def load_catalog():
    with open(ROOT / "datasets" / "catalog.toml", "rb") as handle:
        return tomllib.load(handle)["datasets"]


def read_dataset(name, catalog):
    """Rows of strings (None = missing), header, and which columns are nominal."""
    entry = catalog[name]
    with open(ROOT / entry["file"], newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        rows = [[value if value != "" else None for value in row] for row in reader]
    nominal = set(entry.get("nominal_columns", [])) | {header[-1]}
    return header, rows, [column in nominal for column in header]


def arff_quote(text):
    if text == "" or any(ch in text for ch in " ,{}'\"%\t\\") or text == "?":
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return text


def arff_header(name, header, rows, is_nominal):
    lines = [f"@relation {arff_quote(name)}", ""]
    for index, column in enumerate(header):
        if is_nominal[index]:
            values = []
            for row in rows:  # first-appearance order
                value = row[index]
                if value is not None and value not in values:
                    values.append(value)
            lines.append(f"@attribute {arff_quote(column)} {{{','.join(arff_quote(v) for v in values)}}}")
        else:
            lines.append(f"@attribute {arff_quote(column)} numeric")
    lines += ["", "@data"]
    return "\n".join(lines) + "\n"


def write_arff(path, header_text, rows, is_nominal):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(header_text)
        for row in rows:
            cells = []
            for index, value in enumerate(row):
                if value is None:
                    cells.append("?")
                elif is_nominal[index]:
                    cells.append(arff_quote(value))
                else:
                    cells.append(value)
            handle.write(",".join(cells) + "\n")


def stratified_folds(classes, folds, seed):
    """Fold number per row: shuffle each class's rows, then deal them round robin."""
    generator = random.Random(seed)
    assignment = [0] * len(classes)
    next_fold = 0
    for label in sorted(set(classes)):
        members = [i for i, c in enumerate(classes) if c == label]
        generator.shuffle(members)
        for row in members:
            assignment[row] = next_fold
            next_fold = (next_fold + 1) % folds
    return assignment


def fold_rows(name, catalog, folds, seed):
    """The rows of `make_splits`: header, is_nominal, all rows, the class values in header
    (first-appearance) order and each row's fold number (fold f tests on its rows)."""
    header, rows, is_nominal = read_dataset(name, catalog)
    classes = [row[-1] for row in rows]
    class_values = list(dict.fromkeys(classes))
    return header, is_nominal, rows, class_values, stratified_folds(classes, folds, seed)


def make_splits(name, catalog, workdir, folds, seed):
    header, is_nominal, rows, class_values, assignment = fold_rows(name, catalog, folds, seed)
    header_text = arff_header(name, header, rows, is_nominal)
    splits = []
    for fold in range(folds):
        train = [row for row, f in zip(rows, assignment) if f != fold]
        test = [row for row, f in zip(rows, assignment) if f == fold]
        train_path = workdir / f"{name}-fold{fold}-train.arff"
        test_path = workdir / f"{name}-fold{fold}-test.arff"
        write_arff(train_path, header_text, train, is_nominal)
        write_arff(test_path, header_text, test, is_nominal)
        truth = [class_values.index(row[-1]) for row in test]
        splits.append((train_path, test_path, truth))
    return splits, class_values


def weighted_ovr_auc(truth, probabilities, num_classes):
    """Class-prior-weighted one-vs-rest AUC, ties counted 1/2 (Provost & Domingos)."""
    total = 0.0
    n = len(truth)
    for positive in range(num_classes):
        scored = [(row[positive], 1 if t == positive else 0) for row, t in zip(probabilities, truth)]
        n_pos = sum(label for _, label in scored)
        n_neg = n - n_pos
        if n_pos == 0 or n_neg == 0:
            continue
        scored.sort(key=lambda pair: pair[0])
        rank_sum = 0.0
        i = 0
        while i < n:
            j = i
            while j + 1 < n and scored[j + 1][0] == scored[i][0]:
                j += 1
            mid_rank = (i + j) / 2 + 1
            rank_sum += mid_rank * sum(scored[k][1] for k in range(i, j + 1))
            i = j + 1
        auc = (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
        total += auc * n_pos / n
    return total


def accuracy(truth, probabilities):
    correct = 0
    for t, row in zip(truth, probabilities):
        best = max(range(len(row)), key=lambda c: (row[c], -c))  # first maximum, as Weka
        correct += best == t
    return correct / len(truth)


def read_probabilities(path):
    with open(path) as handle:
        return [[float(x) for x in line.strip().split(",")] for line in handle if line.strip()]


def tree_size(model_text):
    for line in model_text.splitlines():
        if line.strip().startswith("Size of the tree"):
            return int(line.split(":")[1])
    return None


def machine():
    """The processor model (lscpu) and the load averages (uptime), for the figures' record."""
    model = "unknown processor"
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    with open("/proc/loadavg") as loadavg:
        load = " ".join(loadavg.read().split()[:3])
    return model, load


def compile_weka_runner(workdir):
    classes = workdir / "weka-classes"
    classes.mkdir(exist_ok=True)
    subprocess.run(
        ["javac", "-cp", WEKA_JAR, "-d", str(classes), str(ROOT / "scripts/weka/WekaRunner.java")],
        check=True,
    )
    return classes


def build_ours(profile="dev"):
    release = ["--release"] if profile == "release" else []
    subprocess.run(
        ["cargo", "build", "--quiet", *release, "-p", "learners", "--example", "predict"],
        check=True,
        cwd=ROOT,
    )
    # The dev profile optimises the workspace's own crates (see Cargo.toml).
    return TARGET / ("release" if profile == "release" else "debug") / "examples" / "predict"


def run_weka(classes, learner, triples):
    weka_class, options, _ = LEARNERS[learner]
    command = ["java", "-Xmx4g", "-cp", f"{WEKA_JAR}:{classes}", "WekaRunner", weka_class, options]
    for train, test, out in triples:
        command += [str(train), str(test), str(out)]
    return timed(command)


def run_ours(binary, learner, triples, seed):
    command = [str(binary), "--learner", LEARNERS[learner][2], "--seed", str(seed)]
    for train, test, out in triples:
        command += [str(train), str(test), str(out)]
    return timed(command)


def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed: {result.stderr[-2000:]}")
    inner = sum(float(line.split("\t")[1]) + float(line.split("\t")[2]) for line in result.stdout.splitlines() if "\t" in line)
    return elapsed, inner


def compare(args):
    catalog = load_catalog()
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    classes = compile_weka_runner(workdir)
    binary = build_ours()
    per_fold = []
    summary = []
    for name in args.datasets:
        splits, class_values = make_splits(name, catalog, workdir, args.folds, args.seed)
        for learner in args.learners:
            results = {}
            for tool in ("weka", "ours"):
                triples = [(tr, te, workdir / f"{name}-{learner}-{tool}-fold{f}.csv") for f, (tr, te, _) in enumerate(splits)]
                try:
                    if tool == "weka":
                        run_weka(classes, learner, triples)
                    else:
                        run_ours(binary, learner, triples, args.seed)
                except RuntimeError as error:
                    print(f"{name} {learner} {tool}: {error}", file=sys.stderr)
                    results[tool] = None
                    continue
                folds = []
                for f, (_, _, truth) in enumerate(splits):
                    probabilities = read_probabilities(triples[f][2])
                    model_text = Path(str(triples[f][2]) + ".model.txt").read_text()
                    folds.append((accuracy(truth, probabilities), weighted_ovr_auc(truth, probabilities, len(class_values)), tree_size(model_text)))
                    per_fold.append((name, learner, tool, f, *folds[-1]))
                results[tool] = folds
            summary.append((name, learner, results))
            print(f"done {name} {learner}", file=sys.stderr)
    write_report(args, summary, per_fold)


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def write_report(args, summary, per_fold):
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".csv"), "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["dataset", "learner", "tool", "fold", "accuracy", "auc", "tree_size"])
        writer.writerows(per_fold)
    lines = [
        "# This project's learners beside Weka 3.6 on identical splits",
        "",
        f"Command: `python3 scripts/weka_compare.py --learners {','.join(args.learners)} --datasets {','.join(args.datasets)} --folds {args.folds} --seed {args.seed}`",
        f"Date: {time.strftime('%Y-%m-%d')}. Weka 3.6.14 (Debian package `weka`).",
        "",
        f"Stratified {args.folds}-fold CV, the same ARFF train/test files for both tools. Accuracy: argmax of the",
        "class probabilities. AUC: class-prior-weighted one-vs-rest AUC (Weka's weighted average; the plain",
        "AUC for two classes), computed by the same script code from both tools' full-precision",
        "probabilities. Goal: |accuracy difference| <= 1 point and |AUC difference| <= 0.01; rows that",
        "miss it are marked **!** and explained below the table.",
        "",
    ]
    for learner in args.learners:
        lines += [f"## {learner}: Weka `{LEARNERS[learner][0].split('.')[-1]} {LEARNERS[learner][1]}` vs ours `{LEARNERS[learner][2]}`", ""]
        has_tree = learner.startswith("c45")
        header = "| dataset | Weka acc % | ours acc % | diff | Weka AUC | ours AUC | diff |"
        rule = "|---|---:|---:|---:|---:|---:|---:|"
        if has_tree:
            header += " Weka tree size | ours tree size |"
            rule += "---:|---:|"
        lines += [header, rule]
        for name, row_learner, results in summary:
            if row_learner != learner:
                continue
            weka, ours = results.get("weka"), results.get("ours")
            if not weka or not ours:
                lines.append(f"| {name} | {'failed' if not weka else ''} | {'failed' if not ours else ''} | | | | |")
                continue
            wa, oa = 100 * mean([f[0] for f in weka]), 100 * mean([f[0] for f in ours])
            wu, ou = mean([f[1] for f in weka]), mean([f[1] for f in ours])
            flag = " **!**" if abs(wa - oa) > 1.0 or abs(wu - ou) > 0.01 else ""
            line = f"| {name}{flag} | {wa:.2f} | {oa:.2f} | {oa - wa:+.2f} | {wu:.4f} | {ou:.4f} | {ou - wu:+.4f} |"
            if has_tree:
                line += f" {mean([f[2] for f in weka]):.1f} | {mean([f[2] for f in ours]) or float('nan'):.1f} |"
            lines.append(line)
        lines.append("")
    lines.append(f"Per-fold numbers: `{out.with_suffix('.csv').name}`.")
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}", file=sys.stderr)


def aslan_rows(name, catalog, seed, folds=30):
    """The Aslan protocol's rows: a stratified 1/3 test set and the rest, with the rest's
    stratified fold numbers (model i trains on the rest outside fold i, fold i validates).
    Returns header, is_nominal, all rows, test rows, rest rows and the rest's fold numbers."""
    header, rows, is_nominal = read_dataset(name, catalog)
    thirds = stratified_folds([row[-1] for row in rows], 3, seed)
    test = [row for row, f in zip(rows, thirds) if f == 0]
    rest = [row for row, f in zip(rows, thirds) if f != 0]
    inner = stratified_folds([row[-1] for row in rest], folds, seed + 1)
    return header, is_nominal, rows, test, rest, inner


def aslan_splits(name, catalog, workdir, seed, folds=30):
    """The Aslan protocol: stratified 1/3 test set; 30 training sets of 29/30 of the rest.
    Returns the (train, test) paths and the test set's class indices (ARFF header order)."""
    header, is_nominal, rows, test, rest, inner = aslan_rows(name, catalog, seed, folds)
    header_text = arff_header(name, header, rows, is_nominal)
    class_values = list(dict.fromkeys(row[-1] for row in rows))  # first-appearance order, as the ARFF header
    test_path = workdir / f"{name}-aslan-test.arff"
    write_arff(test_path, header_text, test, is_nominal)
    splits = []
    for fold in range(folds):
        train_path = workdir / f"{name}-aslan-train{fold}.arff"
        write_arff(train_path, header_text, [row for row, f in zip(rest, inner) if f != fold], is_nominal)
        splits.append((train_path, test_path))
    return splits, [class_values.index(row[-1]) for row in test]


def run_runner(name, learner, workdir, seed, folds):
    """Wall time of the experiments runner on the Aslan protocol for one dataset and learner,
    one thread, empty cache: what a user of `--config` pays (data loading, splits, the fits and
    predictions, cache writes, tables and report)."""
    results = workdir / f"runner-{name}-{learner}"
    shutil.rmtree(results, ignore_errors=True)
    config = workdir / f"runner-{name}-{learner}.toml"
    config.write_text(
        f'name = "speed"\nseed = {seed}\ndatasets = ["{name}"]\n'
        f'protocol = {{ kind = "aslan", folds = {folds} }}\n'
        f"learners = [{LEARNERS[learner][2]}]\n"
    )
    binary = TARGET / "debug" / "experiments"
    start = time.perf_counter()
    subprocess.run(
        [str(binary), "--config", str(config), "--results", str(results), "--threads", "1"],
        check=True, capture_output=True, cwd=ROOT,
    )
    return time.perf_counter() - start


def speed(args):
    """Times both tools on the Aslan protocol, side by side in one run. The main figure is the
    speed-up in training and scoring (fit + predict, as each tool times its own calls, reading
    and writing files excluded); the end-to-end figure sets Weka's whole run (JVM start, reading
    the ARFF files) beside our runner's whole `--config` run. With --rounds R each tool runs R
    times, interleaved, and the fastest run of each counts (the machine is shared and noisy)."""
    catalog = load_catalog()
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    classes = compile_weka_runner(workdir)
    binary = build_ours(args.profile)
    with_runner = args.models == 30 and not args.no_runner
    if with_runner:
        subprocess.run(["cargo", "build", "--quiet", "-p", "experiments"], check=True, cwd=ROOT)
    lines = [
        f"Models per dataset: {args.models} (the Aslan protocol has 30); best of {args.rounds} interleaved round(s); "
        f"ours built in the {args.profile} profile.",
        "",
        "| dataset | learner | Weka fit+predict s | ours fit+predict s | speed-up | Weka wall s | runner wall s | speed-up (end to end) | Weka acc % | ours acc % |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in args.speed_datasets:
        splits, truth = aslan_splits(name, catalog, workdir, args.seed)
        splits = splits[: args.models]
        for learner in args.learners:
            triples = {
                tool: [(tr, te, workdir / f"{name}-{learner}-{tool}-aslan{f}.csv") for f, (tr, te) in enumerate(splits)]
                for tool in ("weka", "ours")
            }
            best = {"weka": (float("inf"), float("inf")), "ours": (float("inf"), float("inf")), "runner": float("inf")}
            for _ in range(args.rounds):
                wall, inner = run_weka(classes, learner, triples["weka"])
                best["weka"] = (min(best["weka"][0], wall), min(best["weka"][1], inner))
                wall, inner = run_ours(binary, learner, triples["ours"], args.seed)
                best["ours"] = (min(best["ours"][0], wall), min(best["ours"][1], inner))
                if with_runner:
                    best["runner"] = min(best["runner"], run_runner(name, learner, workdir, args.seed, 30))
            accuracies = {
                tool: 100 * mean([accuracy(truth, read_probabilities(out)) for _, _, out in triples[tool]])
                for tool in ("weka", "ours")
            }
            (weka_wall, weka_inner), (_, ours_inner), runner_wall = best["weka"], best["ours"], best["runner"]
            end_to_end = f"{runner_wall:.2f} | {weka_wall / runner_wall:.1f}x" if with_runner else "| "
            lines.append(
                f"| {name} | {learner} | {weka_inner:.3f} | {ours_inner:.3f} | {weka_inner / ours_inner:.1f}x "
                f"| {weka_wall:.2f} | {end_to_end} | {accuracies['weka']:.2f} | {accuracies['ours']:.2f} |"
            )
            print(lines[-1], file=sys.stderr)
    print("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", default="c45,c45-laplace,nb,nb-discretized,bagged-c45,logistic")
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", default="/tmp/weka-compare")
    parser.add_argument("--output", default=str(ROOT / "docs" / "weka-comparison.md"))
    parser.add_argument("--speed", action="store_true", help="time the Aslan protocol on magic and spambase")
    parser.add_argument("--speed-datasets", default="magic,spambase", help="with --speed: the datasets")
    parser.add_argument("--models", type=int, default=30, help="with --speed: models per dataset (at most 30)")
    parser.add_argument("--rounds", type=int, default=1, help="with --speed: interleaved rounds; the fastest counts")
    parser.add_argument("--no-runner", action="store_true", help="with --speed: leave out the runner's end-to-end timing")
    parser.add_argument("--profile", choices=["dev", "release"], default="dev", help="with --speed: the cargo profile of our predict example")
    args = parser.parse_args()
    args.learners = [name for name in args.learners.split(",") if name]
    args.datasets = [name for name in args.datasets.split(",") if name]
    args.speed_datasets = [name for name in args.speed_datasets.split(",") if name]
    if not 1 <= args.models <= 30:
        parser.error("--models takes a number from 1 to 30")
    unknown = [name for name in args.learners if name not in LEARNERS]
    if unknown:
        parser.error(f"unknown learner(s) {unknown}; known: {', '.join(LEARNERS)}")
    if args.speed:
        speed(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
