#!/usr/bin/env python3
"""Wu & Flach Table 4 over seeds with Weka 3.6's learners (issue 46), beside ours over the same
seeds: reads the runs that `run_seeds.py wu_flach --config-dir experiments/configs/weka` made
(SCRATCH/wu_flach/seed-N/wu_flach_weka/), takes Table 4's figures of each with
seeds_collect.py's own reader, writes docs/reproductions/wu_flach/weka/seeds.csv and prints, as
Markdown, each seed's wins and losses with Weka's learners and with ours
(docs/reproductions/wu_flach/seeds.csv, the same seeds), and the ranges.

    python3 scripts/fidelity/wu_flach_weka_seeds.py [--scratch /tmp/fidelity_seeds] [--run2005 DIR]

--run2005 adds the config's own seed (2005) from a run folder (results/wu_flach_weka).
The seeds already in docs/reproductions/wu_flach/weka/seeds.csv are kept (a run of the same
seed in SCRATCH replaces its row), so a series may be run in parts on different days.
"""

import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import seeds_collect  # noqa: E402

COLUMNS = ["t4_wins", "t4_losses", "t4_wins_random", "t4_losses_random", "t4_auc_mean",
           "t4_sauc_mean", "t4_german_auc_mean", "t4_breast_auc_mean"]


def number(text):
    """A cell of seeds.csv as seeds_collect gives it: an int where it is one, else a float."""
    return int(text) if text.lstrip("-").isdigit() else float(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scratch", default="/tmp/fidelity_seeds")
    parser.add_argument("--run2005", default="")
    args = parser.parse_args()
    runs = seeds_collect.seed_folders(args.scratch, "wu_flach")
    if args.run2005:
        runs[2005] = args.run2005
    out = os.path.join(ROOT, "docs/reproductions/wu_flach/weka/seeds.csv")
    weka = {}
    if os.path.exists(out):
        with open(out, newline="") as handle:
            weka = {int(r["seed"]): {c: number(r[c]) for c in COLUMNS} for r in csv.DictReader(handle)}
    for seed, run in runs.items():
        weka[seed] = seeds_collect.wu_flach_part(run, "wu_flach_selection", "t4")
    with open(out, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["seed"] + COLUMNS)
        for seed, row in sorted(weka.items()):
            writer.writerow([seed] + [row[c] for c in COLUMNS])
    with open(os.path.join(ROOT, "docs/reproductions/wu_flach/seeds.csv"), newline="") as handle:
        ours = {int(r["seed"]): r for r in csv.DictReader(handle)}
    print("| seed | Weka's learners: wins / losses | ours: wins / losses | Weka: AUC-sel. German / Breast | ours |")
    print("| ---: | --- | --- | --- | --- |")
    for seed, row in sorted(weka.items()):
        mine = ours.get(seed)
        theirs = f"{mine['t4_wins']} / {mine['t4_losses']}" if mine else "-"
        ours_levels = f"{mine['t4_german_auc_mean']} / {mine['t4_breast_auc_mean']}" if mine else "-"
        print(f"| {seed} | {row['t4_wins']} / {row['t4_losses']} | {theirs} "
              f"| {row['t4_german_auc_mean']} / {row['t4_breast_auc_mean']} | {ours_levels} |")
    seeds = sorted(weka)
    wins = [weka[s]["t4_wins"] for s in seeds]
    losses = [weka[s]["t4_losses"] for s in seeds]
    our_wins = [int(ours[s]["t4_wins"]) for s in seeds if s in ours]
    our_losses = [int(ours[s]["t4_losses"]) for s in seeds if s in ours]
    print(f"\n{len(seeds)} seeds. Weka's learners: wins {min(wins)} to {max(wins)}, losses {min(losses)} to "
          f"{max(losses)}; ours on the same seeds: wins {min(our_wins)} to {max(our_wins)}, losses "
          f"{min(our_losses)} to {max(our_losses)}; the paper: 6 wins, 2 losses.")
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
