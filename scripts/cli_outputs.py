#!/usr/bin/env python3
"""Records what the `roc` and `compare` commands print, to show that a change keeps them.

    scripts/cli_outputs.py BINARY OUTPUT_FOLDER [--inputs FOLDER]

writes the input files (CSV and Parquet, from the reference vectors under
experiments/tests/data) into FOLDER (default target/cli-outputs/inputs), runs BINARY
(target/debug/experiments) on every case, text and --json, every `compare` subcommand and a set
of bad inputs, and writes one file per case into OUTPUT_FOLDER: the command line, the exit
status, stdout and stderr. Run it before and after a change with the same --inputs folder (the
file names appear in the outputs), then `diff -r BEFORE AFTER`.

The Parquet input needs pyarrow (in /work/venv); without it that case is skipped and says so.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "experiments" / "tests" / "data"


def load(name):
    return json.loads((VECTORS / f"{name}.json").read_text())


def number(value):
    """A vector's float ("inf", "-inf", "nan" as strings) as CSV text."""
    if isinstance(value, str):
        return value
    return repr(float(value)) if isinstance(value, float) else str(value)


class Recorder:
    def __init__(self, binary, inputs, outputs):
        self.binary = binary
        self.inputs = inputs
        self.outputs = outputs
        self.count = 0

    def write(self, name, text):
        path = self.inputs / name
        path.write_text(text)
        return str(path)

    def run(self, case, *args):
        """Runs one command line and records it under `case`."""
        result = subprocess.run([self.binary, *args], capture_output=True, text=True)
        record = (
            f"$ experiments {' '.join(args)}\nexit: {result.returncode}\n"
            f"--- stdout\n{result.stdout}--- stderr\n{result.stderr}"
        )
        (self.outputs / f"{case}.txt").write_text(record)
        self.count += 1

    def both(self, case, *args):
        """Text and --json."""
        self.run(case, *args)
        self.run(f"{case}.json", *args, "--json")


def roc_cases(r):
    for case in load("auc")["cases"]:
        name = case["name"]
        rows = zip(case["input"]["y_true"], case["input"]["y_score"])
        path = r.write(f"auc_{name}.csv", "truth,score\n" + "".join(f"{t},{number(s)}\n" for t, s in rows))
        r.both(f"roc_auc_{name}", "roc", path)
        r.both(f"roc_auc_{name}_target_repair", "roc", path, "--target-fpr", "0.3", "--repair")
    for case in load("sauc")["cases"]:
        name = case["name"]
        text = "label,score\n"
        text += "".join(f"1,{number(s)}\n" for s in case["input"]["pos_scores"])
        text += "".join(f"0,{number(s)}\n" for s in case["input"]["neg_scores"])
        path = r.write(f"sauc_{name}.csv", text)
        r.both(f"roc_sauc_{name}", "roc", path, "--repair", "--target-fpr", "0.5")
    size = 200
    for case in load("roc_hull")["cases"]:
        name = case["name"]
        points = [(round(p[0] * size), round(p[1] * size)) for p in case["input"]["points"]]
        text = "truth" + "".join(f",m{i}" for i in range(len(points))) + "\n"
        for label, which in [(1, 1), (0, 0)]:
            for row in range(size):
                text += str(label) + "".join(",1" if row < p[which] else ",0" for p in points) + "\n"
        path = r.write(f"hull_{name}.csv", text)
        r.both(f"roc_hull_{name}", "roc", path)
        r.both(f"roc_hull_{name}_target", "roc", path, "--target-fpr", "0.25", "--repair")
    for case in load("multiclass_auc")["cases"]:
        name = case["name"]
        classes = len(case["input"]["y_score"][0])
        text = "truth" + "".join(f",{c}" for c in range(classes))
        text += "".join(f",copy:{c}" for c in range(classes)) + "\n"
        for label, row in zip(case["input"]["y_true"], case["input"]["y_score"]):
            cells = "".join(f",{number(v)}" for v in row)
            text += f"{label}{cells}{cells}\n"
        path = r.write(f"multiclass_{name}.csv", text)
        r.both(f"roc_multiclass_{name}", "roc", path)
        single = "truth" + "".join(f",{c}" for c in range(classes)) + "\n"
        for label, row in zip(case["input"]["y_true"], case["input"]["y_score"]):
            single += f"{label}" + "".join(f",{number(v)}" for v in row) + "\n"
        path = r.write(f"multiclass_single_{name}.csv", single)
        r.both(f"roc_multiclass_single_{name}", "roc", path)
        r.both(f"roc_multiclass_{name}_positive", "roc", path, "--positive", "0", "--target-fpr", "0.1")
    for case in load("delong")["cases"]:
        name = case["name"]
        rows = zip(case["input"]["y_true"], case["input"]["score1"], case["input"]["score2"])
        path = r.write(
            f"delong_{name}.csv",
            "truth,first,second\n" + "".join(f"{t},{number(a)},{number(b)}\n" for t, a, b in rows),
        )
        r.both(f"roc_delong_{name}", "roc", path, "--target-fpr", "0.2", "--repair")
        r.both(f"compare_delong_{name}", "compare", "delong", "--scores", path, "--resamples", "200")
        r.run(f"compare_delong_{name}_named.json", "compare", "delong", "--scores", path, "--a",
              "second", "--b", "first", "--resamples", "100", "--seed", "7", "--alpha", "0.1", "--json")
    text_roc = r.write("text_roc.csv", "id_label,knn,nb\nyes,0.9,0.8\nno,0.7,0.2\nyes,0.6,0.6\nno,0.4,0.5\n")
    r.both("roc_text_truth", "roc", text_roc, "--truth", "id_label", "--target-fpr", "0.5", "--repair")
    rest = r.write("positive_rest.csv", "truth,model\na,0.9\nb,0.8\nc,0.1\na,0.2\n")
    r.both("roc_positive_rest", "roc", rest, "--positive", "a")
    infinite = r.write("infinite.csv", "truth,s\n1,inf\n0,-inf\n1,0.5\n0,0.5\n")
    r.both("roc_infinite", "roc", infinite, "--target-fpr", "0", "--repair")


def folds_file(r, name, a, b, repetition=None, fold=None):
    header = (["repetition"] if repetition else []) + (["fold"] if fold else []) + ["a", "b"]
    text = ",".join(header) + "\n"
    for row, (x, y) in enumerate(zip(a, b)):
        cells = ([str(repetition[row])] if repetition else []) + ([str(fold[row])] if fold else [])
        text += ",".join(cells + [number(x), number(y)]) + "\n"
    return r.write(f"{name}.csv", text)


def compare_fold_cases(r):
    for case in load("ttest")["cases"]:
        if "a" not in case["input"]:
            continue  # a table lookup, not paired results
        path = folds_file(r, f"ttest_{case['name']}", case["input"]["a"], case["input"]["b"])
        r.both(f"compare_ttest_{case['name']}", "compare", path)
    for case in load("corrected_ttest")["cases"]:
        i = case["input"]
        path = folds_file(r, f"corrected_{case['name']}", i["a"], i["b"])
        r.both(f"compare_corrected_{case['name']}", "compare", path, "--test-fraction",
               f"{i['n_test']}/{i['n_train']}", "--alpha", "0.1")
    for case in load("wilcoxon")["cases"]:
        path = folds_file(r, f"wilcoxon_{case['name']}", case["input"]["x"], case["input"]["y"])
        r.both(f"compare_wilcoxon_{case['name']}", "compare", path)
        r.both(f"compare_wilcoxon_{case['name']}_corrected", "compare", path, "--wilcoxon-correction")
    for case in load("cv5x2")["cases"]:
        text = "learner_a,fold,Repetition,learner_b\n"
        for replication in reversed(range(5)):
            for fold in reversed(range(2)):
                text += f"{number(case['input']['p'][replication][fold])},{fold + 1},{replication + 1},0\n"
        path = r.write(f"cv5x2_{case['name']}.csv", text)
        r.both(f"compare_cv5x2_{case['name']}", "compare", path)
    for case in load("bayesian")["correlated_t"]:
        i = case["input"]
        runs = i["runs"]
        folds = len(i["a"]) // runs
        repetition = [row // folds + 1 for row in range(len(i["a"]))] if runs > 1 else None
        path = folds_file(r, f"bayesian_{case['name']}", i["a"], i["b"], repetition)
        r.both(f"compare_bayesian_{case['name']}", "compare", path, "--rope", number(i["rope"]))
    text = r.write("text_compare.csv", "fold,knn,nb\n1,0.8,0.7\n2,0.9,0.85\n3,0.7,0.72\n")
    r.both("compare_text_folds", "compare", text, "--test-fraction", "1/2")
    three = r.write("three_learners.csv", "run,fold,x,y,z\n1,1,0.8,0.7,0.6\n1,2,0.9,0.85,0.8\n2,1,0.7,0.72,0.5\n2,2,0.75,0.7,0.7\n")
    r.both("compare_three_named", "compare", three, "--a", "z", "--b", "x", "--test-fraction", "0.25")
    same = r.write("identical.csv", "a,b\n0.5,0.5\n0.6,0.6\n0.7,0.7\n")
    r.both("compare_identical", "compare", same)


def results_tables(r, name, scores, learners):
    long = "dataset,learner,value\n"
    wide = "dataset," + ",".join(learners) + "\n"
    for row, values in enumerate(scores):
        wide += f"d{row}" + "".join(f",{number(v)}" for v in values) + "\n"
        long += "".join(f"d{row},{l},{number(v)}\n" for l, v in zip(learners, values))
    return r.write(f"{name}_long.csv", long), r.write(f"{name}_wide.csv", wide)


def compare_table_cases(r):
    for case in load("across_datasets")["cases"]:
        i = case["input"]
        long, wide = results_tables(r, f"across_{case['name']}", i["scores"], i["learners"])
        args = ["--alpha", number(i["alpha"]), "--rope", number(i["rope"]), "--control", i["control"],
                "--samples", "2000"]
        if not i["higher_is_better"]:
            args.append("--lower-is-better")
        r.both(f"compare_across_{case['name']}_long", "compare", long, *args)
        r.both(f"compare_across_{case['name']}_wide", "compare", wide, *args)
        r.both(f"compare_across_{case['name']}_default", "compare", wide, "--samples", "1000", "--seed", "3")
    for case in load("friedman")["cases"]:
        if "scores" not in case["input"]:
            continue  # published average ranks: the `ranks` subcommand's case
        scores = case["input"]["scores"]
        learners = [f"l{j}" for j in range(len(scores[0]))]
        _, wide = results_tables(r, f"friedman_{case['name']}", scores, learners)
        r.both(f"compare_friedman_{case['name']}", "compare", wide, "--samples", "1000",
               "--wilcoxon-correction")
    text = "dataset,learner,repetition,fold,part,measure,value\n"
    folds = [[0.70, 0.80, 0.75], [0.72, 0.82, 0.70], [0.60, 0.90, 0.64]]
    for dataset, values in enumerate(folds):
        for learner, value in zip(["x", "y", "z"], values):
            for fold, shift in enumerate([0.01, -0.01]):
                for part, measure, cell in [("test", "auc", value + shift), ("validation", "auc", 0.5),
                                            ("test", "error", 0.3 + shift * dataset)]:
                    text += f"d{dataset},{learner},0,{fold},{part},{measure},{number(cell)}\n"
    tidy = r.write("tidy.csv", text)
    r.both("compare_tidy_auc", "compare", tidy, "--measure", "auc", "--samples", "1000")
    r.both("compare_tidy_error", "compare", tidy, "--measure", "error", "--samples", "1000")
    r.both("compare_tidy_validation", "compare", tidy, "--measure", "auc", "--part", "validation",
           "--samples", "1000", "--control", "z")
    r.run("compare_tidy_ambiguous", "compare", tidy)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        print("skipped: the Parquet case needs pyarrow", file=sys.stderr)
        return
    lines = [line.split(",") for line in text.strip().split("\n")]
    columns = {name: [row[k] for row in lines[1:]] for k, name in enumerate(lines[0])}
    columns["value"] = [float(v) for v in columns["value"]]
    parquet = r.inputs / "tidy.parquet"
    pq.write_table(pa.table(columns), parquet)
    r.both("compare_tidy_parquet", "compare", str(parquet), "--measure", "auc", "--samples", "1000")


def single_test_cases(r):
    for case in load("mcnemar")["cases"]:
        table = case["input"]["table"]
        r.both(f"compare_mcnemar_{case['name']}", "compare", "mcnemar", "--b", str(table[0][1]),
               "--c", str(table[1][0]))
    for case in load("binomial_ci")["cases"]:
        i = case["input"]
        r.both(f"compare_binomial_{case['name']}", "compare", "binomial", "--successes", str(i["count"]),
               "--trials", str(i["nobs"]), "--alpha", number(i["alpha"]))
    for case in load("sign_test")["cases"]:
        i = case["input"]
        if "wins" not in i:
            continue  # a table of critical values
        for alternative in ["two-sided", "first-better", "second-better"]:
            for method in ["exact", "normal", "normal-corrected"]:
                r.both(f"compare_sign_{case['name']}_{alternative}_{method}", "compare", "sign", "--wins",
                       str(i["wins"]), "--losses", str(i["losses"]), "--ties", str(i["ties"]),
                       "--alternative", alternative, "--method", method)
    for case in load("hanley_mcneil")["cases"]:
        i = case["input"]
        base = ["compare", "auc-interval", "--auc", number(i["auc"]), "--positives", str(i["n_pos"]),
                "--negatives", str(i["n_neg"])]
        r.both(f"compare_auc_interval_{case['name']}", *base)
        errors = (i["n_pos"] + i["n_neg"]) // 5
        r.both(f"compare_auc_interval_{case['name']}_errors", *base, "--errors", str(errors),
               "--false-negatives", str(errors // 2))
    for case in load("friedman")["cases"]:
        given = case["input"] if "avg_ranks" in case["input"] else case["expected"]
        r.both(f"compare_ranks_{case['name']}", "compare", "ranks", "--average-ranks",
               ",".join(number(v) for v in given["avg_ranks"]), "--datasets", str(given["n_datasets"]))
    r.both("compare_ranks_named", "compare", "ranks", "--average-ranks", "1.5,2.25,2.25", "--datasets",
           "12", "--names", "c45,knn,nb", "--alpha", "0.1")
    for case in load("multitest")["cases"]:
        i = case["input"]
        r.both(f"compare_correct_{case['name']}", "compare", "correct", "--pvalues",
               ",".join(number(p) for p in i["pvals"]), "--alpha", number(i["alpha"]))


def bad_cases(r):
    ragged = r.write("bad_ragged.csv", "truth,score\n1,0.5\n0\n")
    cell = r.write("bad_cell.csv", "truth,score\n1,0.5\n0,high\n")
    folds = r.write("bad_folds.csv", "a,b,c\n0.5,0.6,0.7\n0.5,x,0.7\n")
    labels = r.write("bad_labels.csv", "truth,score\nred,0.5\nblue,0.6\n")
    multi = r.write("bad_multiclass.csv", "truth,a,b,knn\na,0.5,0.3,0.2\nb,0.1,0.8,0.1\nc,0.2,0.2,0.6\n")
    missing = r.write("bad_multiclass_missing.csv", "truth,a,b\na,0.5,0.3\nb,0.1,0.8\nc,0.2,0.2\n")
    empty = r.write("bad_empty.csv", "")
    header = r.write("bad_header_only.csv", "truth,score\n")
    one = r.write("bad_one_label.csv", "truth,score\n1,0.5\n1,0.6\n")
    quote = r.write("bad_quote.csv", "truth,\"score\n1,0.5\n")
    twice = r.write("bad_twice.csv", "a,a\n1,2\n")
    long = r.write("bad_long.csv", "dataset,learner,value\nd0,x,0.5\nd0,y,0.6\nd1,x,0.7\n")
    nonfinite = r.write("bad_nonfinite.csv", "dataset,x,y\nd0,0.5,inf\nd1,0.2,0.3\n")
    dup = r.write("bad_duplicate_dataset.csv", "dataset,x,y\nd0,0.5,0.4\nd0,0.2,0.3\n")
    cases = {
        "missing_roc": ["roc", "no/such/predictions.csv"],
        "missing_compare": ["compare", "no/such/folds.csv"],
        "ragged_roc": ["roc", ragged],
        "ragged_compare": ["compare", ragged],
        "cell_roc": ["roc", cell],
        "folds_cell": ["compare", folds, "--a", "a", "--b", "b"],
        "folds_no_column": ["compare", folds, "--a", "a", "--b", "z"],
        "folds_only_a": ["compare", folds, "--a", "a"],
        "folds_three": ["compare", folds],
        "folds_truth": ["roc", folds, "--truth", "label"],
        "folds_alpha": ["compare", folds, "--a", "a", "--b", "c", "--alpha", "2"],
        "folds_rope": ["compare", folds, "--a", "a", "--b", "c", "--rope", "-1"],
        "folds_fraction": ["compare", folds, "--test-fraction", "a/9"],
        "folds_fraction_zero": ["compare", folds, "--a", "a", "--b", "c", "--test-fraction", "0"],
        "folds_control": ["compare", folds, "--control", "a"],
        "labels": ["roc", labels],
        "labels_green": ["roc", labels, "--positive", "green"],
        "multiclass_name": ["roc", multi],
        "multiclass_missing": ["roc", missing],
        "multiclass_target": ["roc", missing, "--target-fpr", "0.2"],
        "target_range": ["roc", cell, "--target-fpr", "1.5"],
        "empty_roc": ["roc", empty],
        "empty_compare": ["compare", empty],
        "header_only_roc": ["roc", header],
        "header_only_compare": ["compare", header],
        "one_label": ["roc", one],
        "one_label_positive": ["roc", one, "--positive", "1"],
        "quote": ["roc", quote],
        "twice": ["compare", twice],
        "long_missing": ["compare", long],
        "long_control": ["compare", long, "--control", "zz"],
        "long_a": ["compare", long, "--a", "x", "--b", "y"],
        "long_part": ["compare", long, "--part", "test"],
        "nonfinite": ["compare", nonfinite],
        "duplicate_dataset": ["compare", dup],
        "wide_part": ["compare", dup, "--part", "test"],
        "mcnemar_alpha": ["compare", "mcnemar", "--b", "3", "--c", "4", "--alpha", "0"],
        "binomial_more": ["compare", "binomial", "--successes", "5", "--trials", "3"],
        "binomial_zero": ["compare", "binomial", "--successes", "0", "--trials", "0"],
        "auc_interval_fn": ["compare", "auc-interval", "--auc", "0.8", "--positives", "10", "--negatives",
                            "10", "--errors", "3", "--false-negatives", "4"],
        "auc_interval_range": ["compare", "auc-interval", "--auc", "1.5", "--positives", "10",
                               "--negatives", "10"],
        "ranks_names": ["compare", "ranks", "--average-ranks", "1,2", "--datasets", "5", "--names", "a"],
        "correct_range": ["compare", "correct", "--pvalues", "0.5,1.5"],
        "delong_labels": ["compare", "delong", "--scores", labels],
        "delong_header": ["compare", "delong", "--scores", header],
        "delong_three": ["compare", "delong", "--scores", multi, "--positive", "a"],
        "nothing": ["compare"],
    }
    for name, args in cases.items():
        r.run(f"bad_{name}", *args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("outputs", type=Path)
    parser.add_argument("--inputs", type=Path, default=ROOT / "target" / "cli-outputs" / "inputs")
    args = parser.parse_args()
    args.inputs.mkdir(parents=True, exist_ok=True)
    args.outputs.mkdir(parents=True, exist_ok=True)
    r = Recorder(str(Path(args.binary).resolve()), args.inputs.resolve(), args.outputs)
    roc_cases(r)
    compare_fold_cases(r)
    compare_table_cases(r)
    single_test_cases(r)
    bad_cases(r)
    print(f"{r.count} command lines recorded in {args.outputs}")


if __name__ == "__main__":
    main()
