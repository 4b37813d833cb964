#!/usr/bin/env python3
"""How much do randomised learners (bagging, RIPPER) move with their own seed, in Weka and here?

Weka and this project draw bootstrap samples and grow/prune splits from different random
streams, so their results on identical folds can only agree up to seed-to-seed variation. This
script measures that variation: on the same 10-fold splits as scripts/weka_compare.py, it runs
each tool with learner seeds 1..N (Weka's -S, our --seed) and prints the range of mean
accuracy and AUC over the seeds for each tool.

    python3 scripts/weka_seed_spread.py --learners bagged-c45,jrip --datasets glass,lymphography --seeds 5
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import weka_compare as wc  # noqa: E402


def with_weka_seed(learner, seed):
    weka_class, options, ours = wc.LEARNERS[learner]
    parts = options.split()
    if "-S" in parts:
        parts[parts.index("-S") + 1] = str(seed)
    else:
        parts = ["-S", str(seed)] + parts
    return weka_class, " ".join(parts), ours


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", default="bagged-c45,jrip")
    parser.add_argument("--datasets", default="glass,lymphography,hepatitis,sonar")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--split-seed", type=int, default=1)
    parser.add_argument("--workdir", default="/tmp/weka-seed-spread")
    args = parser.parse_args()
    catalog = wc.load_catalog()
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    classes = wc.compile_weka_runner(workdir)
    binary = wc.build_ours()
    print("| dataset | learner | Weka acc % (min-max over seeds) | ours acc % | Weka AUC | ours AUC |")
    print("|---|---|---|---|---|---|")
    for name in args.datasets.split(","):
        splits, class_values = wc.make_splits(name, catalog, workdir, 10, args.split_seed)
        for learner in args.learners.split(","):
            summary = {"weka": [], "ours": []}
            for seed in range(1, args.seeds + 1):
                for tool in ("weka", "ours"):
                    triples = [(tr, te, workdir / f"{name}-{learner}-{tool}-s{seed}-fold{f}.csv") for f, (tr, te, _) in enumerate(splits)]
                    if tool == "weka":
                        original = wc.LEARNERS[learner]
                        wc.LEARNERS[learner] = with_weka_seed(learner, seed)
                        try:
                            wc.run_weka(classes, learner, triples)
                        finally:
                            wc.LEARNERS[learner] = original
                    else:
                        wc.run_ours(binary, learner, triples, seed)
                    accuracies, aucs = [], []
                    for f, (_, _, truth) in enumerate(splits):
                        probabilities = wc.read_probabilities(triples[f][2])
                        accuracies.append(wc.accuracy(truth, probabilities))
                        aucs.append(wc.weighted_ovr_auc(truth, probabilities, len(class_values)))
                    summary[tool].append((100 * wc.mean(accuracies), wc.mean(aucs)))

            def span(tool, index, digits):
                values = [pair[index] for pair in summary[tool]]
                return f"{min(values):.{digits}f}-{max(values):.{digits}f}"

            print(f"| {name} | {learner} | {span('weka', 0, 2)} | {span('ours', 0, 2)} | {span('weka', 1, 4)} | {span('ours', 1, 4)} |", flush=True)


if __name__ == "__main__":
    main()
