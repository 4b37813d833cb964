#!/usr/bin/env python3
"""Time this project's RIPPER beside Weka 3.6's JRip and PyPI wittgenstein's RIPPER on identical splits.

The splits are `scripts/weka_compare.py`'s (`make_splits`: seeded stratified 10-fold
cross-validation, one ARFF train and test file per fold with identical headers). Weka's JRip
(`-F 3 -N 2.0 -O 2 -S 1`, its defaults) runs through `scripts/weka/WekaRunner`, ours
(`{ kind = "ripper" }`) through the learners crate's `predict` example (dev profile, what `cargo
run` uses), wittgenstein's `RIPPER(random_state=SEED)` (its defaults: k = 2 optimisation runs, a
third of the rows for pruning, numeric attributes cut into 10 bins) in this process on pandas
frames of the same rows, the dataset's rarer class as its positive class. Each tool's time is the
CPU seconds of its fit + predict of the test rows, summed over the folds, file reading excluded:
the process's CPU time for ours and Weka (all the JVM's threads), `time.process_time` for
wittgenstein (one thread: the BLAS and OpenMP thread counts are set to 1 before numpy is
imported). The same scoring code (`weka_compare.accuracy` and `weighted_ovr_auc`) reads all three
tools' probabilities.

    python3 scripts/ripper_peers.py                       # default datasets, three runs in turn
    python3 scripts/ripper_peers.py --datasets pima --repeats 1
    python3 scripts/ripper_peers.py --datasets kr-vs-kp --wittgenstein-datasets kr-vs-kp   # an hour

wittgenstein learns rules for one positive class, so the datasets are two-class; it is slow
(in the 2026-12-02 sitting 63 CPU s for one fit on kr-vs-kp's 3,196 rows and 256 s on
spambase's 4,601), so by default it runs on the five two-class datasets of 208-1,000 rows of
`weka_compare.py`'s list (numeric, nominal and mixed, with and without missing values), on
which a run of all three tools takes minutes; JRip and ours also run on kr-vs-kp, spambase
and magic (3,196-19,020 rows).

Needs Weka 3.6 (Debian package `weka`, /usr/share/java/weka.jar), a JDK (javac) and PyPI's
wittgenstein (0.3.5 measured) with pandas.
"""

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import datetime  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import weka_compare as shared  # noqa: E402

import pandas as pd  # noqa: E402
import wittgenstein  # noqa: E402

WITTGENSTEIN_DATASETS = "breast-cancer,sonar,pima,crx,german"
DATASETS = WITTGENSTEIN_DATASETS + ",kr-vs-kp,spambase,magic"
TOOLS = ("weka", "ours", "wittgenstein")


def frame(header, is_nominal, rows):
    """The rows as a pandas frame: numeric columns as floats (NaN = missing), nominal as strings."""
    table = pd.DataFrame(rows, columns=header)
    for column, nominal in zip(header, is_nominal):
        if not nominal:
            table[column] = pd.to_numeric(table[column])
    return table


def wittgenstein_folds(name, catalog, folds, seed):
    """Per fold: the training frame, the test attributes, and the class values in header order;
    with the positive class (the dataset's rarer class)."""
    header, is_nominal, rows, class_values, assignment = shared.fold_rows(name, catalog, folds, seed)
    if len(class_values) != 2:
        sys.exit(f"--wittgenstein-datasets: {name} has {len(class_values)} classes; wittgenstein's RIPPER learns two-class rules")
    counts = {value: sum(row[-1] == value for row in rows) for value in class_values}
    positive = min(class_values, key=lambda value: (counts[value], class_values.index(value)))
    table = frame(header, is_nominal, rows)
    parts = []
    for fold in range(folds):
        train = table[[f != fold for f in assignment]].reset_index(drop=True)
        test = table[[f == fold for f in assignment]].reset_index(drop=True).drop(columns=[header[-1]])
        parts.append((train, test))
    return parts, header[-1], positive, class_values


def run_wittgenstein(parts, class_column, positive, class_values, seed):
    """CPU seconds of the folds' fit + predict, and each fold's probabilities in header order."""
    seconds, probabilities = 0.0, []
    for train, test in parts:
        start = time.process_time()
        model = wittgenstein.RIPPER(random_state=seed)
        model.fit(train, class_feat=class_column, pos_class=positive)
        negative_positive = model.predict_proba(test)
        seconds += time.process_time() - start
        index = class_values.index(positive)
        rows = [[0.0, 0.0] for _ in range(len(test))]
        for row, (negative, positive_share) in zip(rows, negative_positive):
            row[index], row[1 - index] = positive_share, negative
        probabilities.append(rows)
    return seconds, probabilities


def run_cli(command):
    """A tool's summed `fit + predict CPU s` column (the fourth of each output line)."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed: {result.stderr[-2000:]}")
    return sum(float(line.split("\t")[3]) for line in result.stdout.splitlines() if "\t" in line)


def cli_command(tool, binary, classes, triples, seed):
    """Weka's JRip through WekaRunner, or ours through the `predict` example."""
    weka_class, options, ours = shared.LEARNERS["jrip"]
    if tool == "weka":
        command = ["java", "-Xmx4g", "-cp", f"{shared.WEKA_JAR}:{classes}", "WekaRunner", weka_class, options]
    else:
        command = [str(binary), "--learner", ours, "--seed", str(seed)]
    for train, test, out in triples:
        command += [str(train), str(test), str(out)]
    return command


def scores(splits, probabilities, class_count):
    """Mean accuracy (%) and mean weighted one-vs-rest AUC over the folds."""
    accuracy = [shared.accuracy(truth, fold) for (_, _, truth), fold in zip(splits, probabilities)]
    auc = [shared.weighted_ovr_auc(truth, fold, class_count) for (_, _, truth), fold in zip(splits, probabilities)]
    return 100 * statistics.mean(accuracy), statistics.mean(auc)


def measure(name, catalog, args, binary, classes):
    """Each tool run --repeats times in turn (Weka, ours, wittgenstein, Weka, ...; wittgenstein
    on its datasets only): CPU seconds per run, and each tool's accuracy and AUC."""
    workdir = Path(args.workdir)
    splits, class_values = shared.make_splits(name, catalog, workdir, args.folds, args.seed)
    with_wittgenstein = name in args.wittgenstein_datasets
    if with_wittgenstein:
        parts, class_column, positive, witt_values = wittgenstein_folds(name, catalog, args.folds, args.seed)
        assert witt_values == class_values
    triples = {
        tool: [(train, test, workdir / f"{name}-ripper-{tool}-fold{f}.csv") for f, (train, test, _) in enumerate(splits)]
        for tool in ("weka", "ours")
    }
    tools = TOOLS if with_wittgenstein else ("weka", "ours")
    seconds = {tool: [] for tool in tools}
    probabilities = {}
    for _ in range(args.repeats):
        for tool in ("weka", "ours"):
            seconds[tool].append(run_cli(cli_command(tool, binary, classes, triples[tool], args.seed)))
        if with_wittgenstein:
            witt_seconds, probabilities["wittgenstein"] = run_wittgenstein(parts, class_column, positive, class_values, args.seed)
            seconds["wittgenstein"].append(witt_seconds)
    for tool in ("weka", "ours"):
        probabilities[tool] = [shared.read_probabilities(out) for *_, out in triples[tool]]
    return seconds, {tool: scores(splits, probabilities[tool], len(class_values)) for tool in tools}


def table_row(name, seconds, quality):
    """One dataset's Markdown row: medians, the run-by-run ratios' medians and ranges, scores
    (a dash where wittgenstein did not run)."""
    ratios = {tool: [theirs / ours for theirs, ours in zip(seconds[tool], seconds["ours"])] for tool in seconds if tool != "ours"}
    cells = [name] + [f"{statistics.median(seconds[tool]):.3f}" if tool in seconds else "-" for tool in TOOLS]
    for tool in ("weka", "wittgenstein"):
        ratio = ratios.get(tool)
        cells.append(f"{statistics.median(ratio):.1f}x ({min(ratio):.1f}x-{max(ratio):.1f}x)" if ratio else "-")
    cells += [f"{quality[tool][0]:.2f}" if tool in quality else "-" for tool in TOOLS]
    cells += [f"{quality[tool][1]:.4f}" if tool in quality else "-" for tool in TOOLS]
    return "| " + " | ".join(cells) + " |"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default=DATASETS, help="two-class datasets of datasets/catalog.toml")
    parser.add_argument("--wittgenstein-datasets", default=WITTGENSTEIN_DATASETS, help="the datasets wittgenstein also runs on")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each tool, in turn (the table gives medians)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", default="/tmp/ripper-peers")
    args = parser.parse_args()
    if not 2 <= args.folds <= 100:
        parser.error("--folds takes a number from 2 to 100")
    if not 1 <= args.repeats <= 20:
        parser.error("--repeats takes a number from 1 to 20")
    catalog = shared.load_catalog()
    datasets = [name for name in args.datasets.split(",") if name]
    args.wittgenstein_datasets = [name for name in args.wittgenstein_datasets.split(",") if name]
    unknown = [name for name in datasets + args.wittgenstein_datasets if name not in catalog]
    if unknown:
        parser.error(f"--datasets: unknown dataset(s) {unknown} (datasets/catalog.toml lists the known ones)")
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    classes = shared.compile_weka_runner(Path(args.workdir))
    binary = shared.build_ours()
    model, load = shared.machine()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"Started {started} on {model} ({os.cpu_count()} CPUs), load average {load} (1, 5, 15 min).",
        f"Stratified {args.folds}-fold CV (seed {args.seed}); wittgenstein {wittgenstein.__version__}; ours in the dev profile. "
        f"Each tool run {args.repeats} time(s) in turn (Weka, ours, wittgenstein, ...): the median of each tool's CPU seconds "
        "(fit + predict, summed over the folds), and the median and range of the run-by-run ratios to ours.",
        "",
        "| dataset | JRip CPU s | ours CPU s | wittgenstein CPU s | ours faster than JRip | ours faster than wittgenstein "
        "| JRip acc % | ours acc % | wittgenstein acc % | JRip AUC | ours AUC | wittgenstein AUC |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in datasets:
        seconds, quality = measure(name, catalog, args, binary, classes)
        lines.append(table_row(name, seconds, quality))
        print(lines[-1], file=sys.stderr, flush=True)
    _, load = shared.machine()
    ended = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines += ["", f"Ended {ended}, load average {load}."]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
