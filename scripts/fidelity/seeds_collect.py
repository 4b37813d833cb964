#!/usr/bin/env python3
"""Collects the headline figures of the seed runs made by run_seeds.py into
docs/reproductions/<paper>/seeds.csv (one row per seed), and places each published value in the
spread of the seeds (its percentile).

  aslan     the four cases (plain t-test and the corrected resampled t-test, each with 0/0 scored
            accept and reject), the disagreements, the named comparisons in the paper's case
  wu_flach  Table 4 (wu_flach.toml), Table 5 at 150 instances (wu_flach_samples_150.toml) and at 50
            (wu_flach_samples.toml): sAUC wins and losses (the paper's tie rule and random
            tie-breaking), the two averages, the datasets whose winner is the paper's, and the
            AUC-selected means of German, Breast Cancer and Monk2
  provost   Table 1 agreement (whole / part / none of the 37 ranges), domains with a dominating
            averaged curve and with one learner optimal at every slope, whether Vehicle's is
            Bagged-MC4 (theirs: 1, 1, yes), single folds with a dominating learner

The percentile of a published value v among the seeds' values x is the mid-rank one:
100 * (#{x < v} + #{x == v} / 2) / n.

Usage: seeds_collect.py PAPER [--scratch /tmp/fidelity_seeds]
"""

import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))


def seed_folders(scratch, config):
    found = {}
    for path in glob.glob(os.path.join(scratch, config, "seed-*", "*", "per_fold.csv")):
        seed = int(re.search(r"seed-(\d+)", path).group(1))
        found[seed] = os.path.dirname(path)
    return dict(sorted(found.items()))


def read_csv(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def aslan_row(run):
    out = json.loads(subprocess.check_output(
        [sys.executable, os.path.join(HERE, "aslan_cases.py"), run, "--json"]))
    row = {}
    for key, label in (("paired_t/accept", "t"), ("paired_t/reject", "t_reject00"),
                       ("corrected_t/accept", "ct"), ("corrected_t/reject", "ct_reject00")):
        a, b, c, d = out[key]
        row.update({f"{label}_both_accept": a, f"{label}_error_accepts_auc_rejects": b,
                    f"{label}_error_rejects_auc_accepts": c, f"{label}_both_reject": d,
                    f"{label}_disagree": b + c})
    row["degenerate_0_0"] = out["degenerate"]
    named = read_csv(os.path.join(run, "tables", "aslan_named_comparisons.csv"))
    row["named_same_case_t"] = sum(r["same case"] == "yes" for r in named)
    row["named_same_case_ct"] = sum(
        r["ours (corrected t)"].split(" (")[0] == r["paper's case"].split(" (")[0] for r in named
        if r["same case"] != "-")
    return row


ASLAN_PAPER = {f"{test}_{case}": value
               for test in ("t", "t_reject00", "ct", "ct_reject00")
               for case, value in (("both_accept", 1), ("error_accepts_auc_rejects", 10),
                                   ("error_rejects_auc_accepts", 9), ("both_reject", 130),
                                   ("disagree", 19))}


def wins_losses(text):
    m = re.match(r"(\d+) wins?, (\d+) loss", text)
    return int(m.group(1)), int(m.group(2))


def wu_flach_part(run, stem, prefix):
    # columns: dataset, AUC-selected mean, sd, sAUC-selected mean, sd, p-value, sAUC verdict,
    # verdict with random tie-break, ... (two columns are named "sd": read by position)
    with open(os.path.join(run, "tables", f"{stem}.csv"), newline="") as handle:
        rows = list(csv.reader(handle))[1:]
    average = rows[-1]
    w, l = wins_losses(average[6])
    rw, rl = wins_losses(average[7])
    out = {f"{prefix}_wins": w, f"{prefix}_losses": l, f"{prefix}_wins_random": rw,
           f"{prefix}_losses_random": rl, f"{prefix}_auc_mean": float(average[1]),
           f"{prefix}_sauc_mean": float(average[3]),
           f"{prefix}_sauc_minus_auc": round(float(average[3]) - float(average[1]), 2)}
    by_name = {r[0]: r for r in rows}
    for dataset, short in (("german", "german"), ("breast-cancer", "breast"),
                           ("monks-2-train-and-test", "monk2")):
        if dataset in by_name:
            out[f"{prefix}_{short}_auc_mean"] = float(by_name[dataset][1])
    # "same winner": in the one comparison table of earlier runs (column 10), or in its second
    # part, `*_beside_paper_winners.csv`, since the table was split to fit a page
    winners = os.path.join(run, "tables", f"{stem}_beside_paper_winners.csv")
    if not os.path.exists(winners):
        winners = os.path.join(run, "tables", f"{stem}_beside_paper.csv")
    with open(winners, newline="") as handle:
        beside = list(csv.reader(handle))
    column = beside[0].index("same winner")
    out[f"{prefix}_same_winner"] = sum(r[column] == "yes" for r in beside[1:])
    out[f"{prefix}_winner_determined"] = sum(r[column] in ("yes", "no") for r in beside[1:])
    return out


WU_FLACH_PARTS = [("wu_flach", "wu_flach_selection", "t4", (6, 2, 93.05, 93.45)),
                  ("wu_flach_samples_150", "wu_flach_selection_samples_150", "t5_150",
                   (9, 0, 89.36, 89.97)),
                  ("wu_flach_samples", "wu_flach_selection_samples", "t5_50",
                   (9, 0, 89.36, 89.97))]


def provost_row(run):
    rows = read_csv(os.path.join(run, "tables", "provost_table1.csv"))
    text = [" ".join(r.values()) for r in rows]
    out = {"whole": sum("whole range" in t for t in text),
           "part": sum("part of it" in t for t in text),
           "none": sum("not at all" in t for t in text)}
    dominance = read_csv(os.path.join(run, "tables", "provost_dominance.csv"))
    keys = list(dominance[0])
    data = [r for r in dominance if r[keys[0]] not in ("", "all", "total")]
    out["averaged_dominators"] = sum(r[keys[1]] not in ("none", "", "-") for r in data)
    out["single_owner_domains"] = sum(r[keys[2]] not in ("none", "", "-") for r in data)
    out["vehicle_dominated_by_bmc4"] = int(any(
        r[keys[0]] == "vehicle" and "Bagged-MC4" in r[keys[1]] for r in data))
    folds = 0
    for r in data:
        m = re.match(r"(\d+)", r[keys[3]])
        folds += int(m.group(1)) if m else 0
    out["folds_with_dominator"] = folds
    return out


def percentile(values, v):
    below = sum(x < v for x in values)
    equal = sum(x == v for x in values)
    return 100.0 * (below + equal / 2) / len(values)


def write(paper, rows, published):
    path = os.path.join(ROOT, "docs", "reproductions", paper, "seeds.csv")
    columns = ["seed"] + sorted({k for r in rows.values() for k in r}, key=lambda k: (
        list(next(iter(rows.values()))).index(k) if k in next(iter(rows.values())) else 999, k))
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for seed, row in rows.items():
            writer.writerow([seed] + [row.get(c, "") for c in columns[1:]])
    print(f"wrote {os.path.relpath(path, ROOT)}: {len(rows)} seeds")
    for key in columns[1:]:
        values = sorted(r[key] for r in rows.values() if key in r)
        if values and key not in published:
            print(f"  {key}: seeds {values[0]} to {values[-1]} (median "
                  f"{values[len(values) // 2]})")
    for key, value in published.items():
        values = [r[key] for r in rows.values() if key in r]
        if values:
            print(f"  {key}: paper {value}; seeds {min(values)} to {max(values)} (median "
                  f"{sorted(values)[len(values) // 2]}); paper at percentile "
                  f"{percentile(values, value):.0f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paper", choices=["aslan", "wu_flach", "provost"])
    parser.add_argument("--scratch", default="/tmp/fidelity_seeds")
    args = parser.parse_args()
    rows = {}
    if args.paper == "aslan":
        for seed, run in seed_folders(args.scratch, "aslan").items():
            rows[seed] = aslan_row(run)
        write("aslan", rows, ASLAN_PAPER)
    elif args.paper == "wu_flach":
        published = {}
        for config, stem, prefix, (w, l, a, s) in WU_FLACH_PARTS:
            published.update({f"{prefix}_wins": w, f"{prefix}_losses": l,
                              f"{prefix}_auc_mean": a, f"{prefix}_sauc_mean": s,
                              f"{prefix}_sauc_minus_auc": round(s - a, 2)})
            for seed, run in seed_folders(args.scratch, config).items():
                rows.setdefault(seed, {}).update(wu_flach_part(run, stem, prefix))
        write("wu_flach", rows, published)
    else:
        for seed, run in seed_folders(args.scratch, "provost").items():
            rows[seed] = provost_row(run)
        # Their Vehicle: Bagged-MC4 an absolute dominator, optimal at every slope (Table 1).
        write("provost", rows, {"whole": 37, "averaged_dominators": 1,
                                "single_owner_domains": 1, "vehicle_dominated_by_bmc4": 1})


if __name__ == "__main__":
    main()
