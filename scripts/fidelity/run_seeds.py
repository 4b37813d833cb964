#!/usr/bin/env python3
"""Runs a shipped config once per seed, each into its own results folder, for the replication
envelope of issue 31 (docs/reproductions/<paper>/seeds.csv is made by seeds_collect.py).

Each run is the shipped config (experiments/configs/NAME.toml) with only `seed = N` changed,
except that `--plain` drops every `cost_sensitive` learner (Provost's Section 3.4 weightings,
which Table 1 and the dominance table leave out anyway). The runs go to
SCRATCH/NAME/seed-N/ (default SCRATCH: /tmp/fidelity_seeds); the cached predictions are deleted
after each run unless the seed is listed in --keep (the analyses of FINDINGS.md read the
predictions of the config's own seed). A seed whose folder already holds per_fold.csv is
skipped, so an interrupted series resumes where it stopped; a seed being run holds a lock file
SCRATCH/NAME/seed-N.lock, so two series may run side by side (after a kill, delete the stale
lock to run that seed again).

Usage (from the repository root; the binary is the one `cargo build -p experiments` makes):
  nice -n 19 scripts/fidelity/run_seeds.py aslan --seeds 1-20
  nice -n 19 scripts/fidelity/run_seeds.py provost --plain --seeds 1998 --keep 1998
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if "-" in part:
            low, high = part.split("-")
            seeds.extend(range(int(low), int(high) + 1))
        elif part:
            seeds.append(int(part))
    return seeds


def config_text(name, seed, plain, config_dir):
    path = os.path.join(ROOT, config_dir, f"{name}.toml")
    with open(path) as handle:
        text = handle.read()
    text, changed = re.subn(r"(?m)^seed = \d+$", f"seed = {seed}", text)
    if changed != 1:
        sys.exit(f"{path}: expected one line 'seed = N', found {changed}")
    if plain:
        blocks = re.split(r"(?m)^(?=\[\[learners\]\])", text)
        text = "".join(b for b in blocks if 'kind = "cost_sensitive"' not in b)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config", help="a config name in experiments/configs (without .toml)")
    parser.add_argument("--seeds", required=True, help="e.g. 1-20,2009")
    parser.add_argument("--keep", default="", help="seeds whose predictions are kept")
    parser.add_argument("--plain", action="store_true", help="drop cost_sensitive learners")
    parser.add_argument("--config-dir", default="experiments/configs")
    parser.add_argument("--tag", default="", help="suffix of the scratch folder name")
    parser.add_argument("--scratch", default="/tmp/fidelity_seeds")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "debug", "experiments"))
    args = parser.parse_args()
    keep = set(parse_seeds(args.keep))
    base = os.path.join(args.scratch, args.config + args.tag)
    os.makedirs(os.path.join(base, "configs"), exist_ok=True)
    for seed in parse_seeds(args.seeds):
        results = os.path.join(base, f"seed-{seed}")
        config = os.path.join(base, "configs", f"seed-{seed}.toml")
        name = re.search(r'(?m)^name = "([^"]+)"$',
                         config_text(args.config, seed, args.plain, args.config_dir)).group(1)
        if os.path.exists(os.path.join(results, name, "per_fold.csv")):
            print(f"{args.config} seed {seed}: done already", flush=True)
            continue
        lock = os.path.join(base, f"seed-{seed}.lock")
        try:
            os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            print(f"{args.config} seed {seed}: running elsewhere ({lock})", flush=True)
            continue
        with open(config, "w") as handle:
            handle.write(config_text(args.config, seed, args.plain, args.config_dir))
        started = time.time()
        with open(os.path.join(base, f"seed-{seed}.log"), "w") as log:
            code = subprocess.call([args.binary, "--config", config, "--results", results],
                                   stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        print(f"{args.config} seed {seed}: exit {code}, {time.time() - started:.0f} s",
              flush=True)
        if seed not in keep:
            shutil.rmtree(os.path.join(results, name, "predictions"), ignore_errors=True)
        os.remove(lock)
        if code != 0:
            sys.exit(code)


if __name__ == "__main__":
    main()
