#!/usr/bin/env python3
"""The Weka worker's whole-process time against Weka's own (issue 46, docs/performance.md):
the same units (stratified 10-fold CV: 10 fits, each predicting its test fold) run

- A: by the runner with `kind = "weka"` (`experiments --config ... --threads 1`, an empty
  results folder each run: one persistent worker, JVM start, the report included);
- B: by scripts/weka/WekaRunner.java, Weka's own loader and classifier in one JVM, on ARFF
  files holding the very same training and test rows in the same order (written from the A
  run's `splits/<dataset>.json`).

    cargo build -p experiments
    python3 scripts/weka_worker_speed.py configs OUT                  # OUT/worker-DATASET-LEARNER.toml
    target/debug/experiments --config OUT/worker-pima-j48.toml --threads 1 --results OUT/keep
    python3 scripts/weka_worker_speed.py arff OUT pima j48            # OUT/weka-pima-j48.sh (B)
    # then time, in turn: A = sh -c 'rm -rf OUT/rA && exec target/debug/experiments
    #   --config OUT/worker-pima-j48.toml --threads 1 --results OUT/rA'   against   B = sh OUT/weka-pima-j48.sh

Needs a JDK and Weka 3.6 (Debian: apt-get install weka default-jdk-headless).
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import weka_compare  # noqa: E402

LEARNERS = {
    "j48": ("weka.classifiers.trees.J48", "-C 0.25 -M 2"),
    "nb": ("weka.classifiers.bayes.NaiveBayes", ""),
    "logistic": ("weka.classifiers.functions.Logistic", "-R 1.0E-8 -M -1"),
}
DATASETS = ["pima", "kr-vs-kp"]


def configs(out):
    out.mkdir(parents=True, exist_ok=True)
    for dataset in DATASETS:
        for learner, (weka_class, options) in LEARNERS.items():
            (out / f"worker-{dataset}-{learner}.toml").write_text(
                f'name = "worker-{dataset}-{learner}"\nseed = 46\ndatasets = ["{dataset}"]\n'
                'measures = ["auc"]\n[protocol]\nkind = "stratified_kfold"\nfolds = 10\n'
                f'[[learners]]\nname = "{learner}"\nkind = "weka"\nclassifier = "{weka_class}"\n'
                f'options = "{options}"\n'
            )


def arff(out, dataset, learner):
    """ARFF pairs of the kept run's splits (class values in the catalog's order, as the
    project's loader gives them) and the WekaRunner command over them."""
    catalog = weka_compare.load_catalog()
    header, rows, is_nominal = weka_compare.read_dataset(dataset, catalog)
    lines = weka_compare.arff_header(dataset, header, rows, is_nominal).split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith("@attribute"))
    quote = weka_compare.arff_quote
    classes = list(catalog[dataset]["class_counts"])
    lines[last] = f"@attribute {quote(header[-1])} {{{','.join(quote(v) for v in classes)}}}"
    header_text = "\n".join(lines)
    splits = json.loads((out / "keep" / f"worker-{dataset}-{learner}" / "splits" / f"{dataset}.json").read_text())
    folder = out / f"arff-{dataset}"
    folder.mkdir(parents=True, exist_ok=True)
    triples = []
    for split in splits["splits"]:
        fold = split["fold"]
        train, test = folder / f"fold{fold}-train.arff", folder / f"fold{fold}-test.arff"
        weka_compare.write_arff(train, header_text, [rows[i] for i in split["train"]], is_nominal)
        weka_compare.write_arff(test, header_text, [rows[i] for i in split["test"]], is_nominal)
        triples.append((train, test, out / f"weka-{dataset}-{learner}-fold{fold}.csv"))
    classes_dir = weka_compare.compile_weka_runner(out)
    weka_class, options = LEARNERS[learner]
    command = ["exec", "java", "-cp", f"{weka_compare.WEKA_JAR}:{classes_dir}", "WekaRunner", weka_class, f"'{options}'"]
    for train, test, result in triples:
        command += [str(train), str(test), str(result)]
    script = out / f"weka-{dataset}-{learner}.sh"
    script.write_text(" ".join(command) + "\n")
    print(script)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "configs":
        configs(Path(sys.argv[2]))
    elif len(sys.argv) == 5 and sys.argv[1] == "arff":
        arff(Path(sys.argv[2]), sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
