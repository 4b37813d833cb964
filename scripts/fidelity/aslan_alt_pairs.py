#!/usr/bin/env python3
"""Aslan et al.'s protocol on other class pairs of the multi-class datasets, and the four-case
table with those datasets in place of ours.

For each DATASET:CLASS_A:CLASS_B given, writes the rows of the two classes (file order) as
SCRATCH/data/DATASET.csv with the catalog's column types, and a config that is aslan.toml with
only these datasets (no two_most_confused: the pair is given; the minority class positive as in
aslan.toml; same seed, learners and protocol; no interval figures); runs it; then recounts the
four cases (aslan_cases.py's rules, both 0/0 conventions) over the 15 datasets with each given
dataset's 10 comparisons taken from this run and the others' from the base run.

Usage: aslan_alt_pairs.py BASE_RUN DATASET:A:B [...] [--scratch /tmp/fidelity_alt] [--tag T]
  BASE_RUN: a run of aslan.toml (its per_fold.csv and splits/); e.g. RUN(aslan, 2009).
"""

import argparse
import csv
import json
import os
import re
import resource
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aslan_cases  # noqa: E402
import runs  # noqa: E402


def write_dataset(name, pair, folder):
    entry = runs.catalog()[name]
    with open(os.path.join(runs.ROOT, entry["file"]), newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], [r for r in rows[1:] if r[-1] in pair]
    path = os.path.join(folder, f"{name}.csv")
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(body)
    counts = {c: sum(r[-1] == c for r in body) for c in pair}
    return path, entry.get("nominal_columns", []), counts


def config_text(entries, name):
    with open(os.path.join(runs.ROOT, "experiments", "configs", "aslan.toml")) as handle:
        text = handle.read()
    text = re.sub(r'(?m)^name = "aslan"$', f'name = "{name}"', text)
    datasets = ",\n".join(
        f'    {{ name = "{path}", nominal_columns = {json.dumps(nominal)} }}'
        for path, nominal in entries)
    text = re.sub(r'(?m)^datasets = \["aslan"\]$', f"datasets = [\n{datasets},\n]", text)
    text = re.sub(r'(?ms)^analyses = .*?^\]\n', 'analyses = ["aslan_agreement"]\n', text)
    text = re.sub(r"(?ms)^\[transforms\]\ntwo_most_confused = true\n", "", text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base")
    parser.add_argument("pairs", nargs="+")
    parser.add_argument("--scratch", default="/tmp/fidelity_alt")
    parser.add_argument("--tag", default="pairs")
    parser.add_argument("--memory-gb", type=float, default=4.0,
                        help="address-space limit of the run (a learner that runs away stops)")
    parser.add_argument("--binary", default=os.path.join(runs.ROOT, "target", "debug",
                                                         "experiments"))
    args = parser.parse_args()
    base = runs.run_folder(args.base)
    folder = os.path.join(args.scratch, args.tag)
    os.makedirs(os.path.join(folder, "data"), exist_ok=True)
    entries, replaced = [], []
    for spec in args.pairs:
        name, a, b = spec.split(":")
        path, nominal, counts = write_dataset(name, (a, b), os.path.join(folder, "data"))
        entries.append((path, nominal))
        replaced.append(name)
        print(f"{name}: {a} {counts[a]} rows, {b} {counts[b]} rows")
    config = os.path.join(folder, "config.toml")
    with open(config, "w") as handle:
        handle.write(config_text(entries, f"aslan_{args.tag}"))
    limit = int(args.memory_gb * 2**30)

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    with open(os.path.join(folder, "run.log"), "w") as log:
        code = subprocess.call([args.binary, "--config", config, "--results", folder],
                               stdout=log, stderr=subprocess.STDOUT, preexec_fn=limit_memory)
    if code != 0:
        sys.exit(f"the run failed (exit {code}); see {folder}/run.log")
    alt = os.path.join(folder, f"aslan_{args.tag}")
    values, datasets, learners = aslan_cases.read_test_values(os.path.join(base, "per_fold.csv"))
    alt_values, _, _ = aslan_cases.read_test_values(os.path.join(alt, "per_fold.csv"))
    values.update(alt_values)
    sizes = os.path.join(folder, "splits")
    os.makedirs(sizes, exist_ok=True)
    for d in datasets:  # splits of every dataset, the replaced ones from the new run
        source = alt if d in replaced else base
        with open(os.path.join(source, "splits", f"{d}.json")) as src, \
                open(os.path.join(sizes, f"{d}.json"), "w") as dst:
            dst.write(src.read())
    counts, degenerate = aslan_cases.count(values, datasets, learners, sizes)
    print(f"four cases with {', '.join(args.pairs)} (both accept / error accepts, AUC rejects / "
          f"error rejects, AUC accepts / both reject); paper 1 / 10 / 9 / 130:")
    for (test, convention), v in counts.items():
        n = [v[c] for c in aslan_cases.CASES]
        print(f"    {test}, 0/0 {convention}: {n[0]} / {n[1]} / {n[2]} / {n[3]}")
    base_values, _, _ = aslan_cases.read_test_values(os.path.join(base, "per_fold.csv"))
    base_counts, _ = aslan_cases.count(base_values, datasets, learners,
                                       os.path.join(base, "splits"))
    n = [base_counts[("paired_t", "accept")][c] for c in aslan_cases.CASES]
    print(f"    (the base run: paired_t, 0/0 accept: {n[0]} / {n[1]} / {n[2]} / {n[3]})")
    for d in replaced:
        for label, table, splits in (("ours", base_values, os.path.join(base, "splits")),
                                     ("this pair", values, sizes)):
            c, _ = aslan_cases.count(table, [d], learners, splits)
            n = [c[("paired_t", "accept")][k] for k in aslan_cases.CASES]
            print(f"    {d}, {label}: {n[0]} / {n[1]} / {n[2]} / {n[3]}")


if __name__ == "__main__":
    main()
