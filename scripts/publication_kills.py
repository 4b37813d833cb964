#!/usr/bin/env python3
"""Kills a run again and again while it writes and publishes its report, and counts the results
folders left incomplete (issue 28: publishing must be one atomic step).

    python3 scripts/publication_kills.py [--kills 1000] [--binary target/debug/experiments]

A small experiment (two shipped datasets, naive Bayes and C4.5, 5 folds) is run once into a
scratch folder. Then, `--kills` times, the same run starts again (every unit is read back from
the cache, so it goes straight to its report) and is killed with SIGKILL after a random delay
spread over its usual duration, most kills landing while it writes or switches in its report.
After each kill the results folder must hold a complete report: the same files as the first
run's (every table, figure, split, units.csv, per_fold.csv and .parquet, index.html, config.toml),
each one whole (units.csv, per_fold.csv and index.html byte-identical to those of a run that reused every
unit, as each of these runs does). A folder that does not is counted incomplete. The script also
counts the kills that left a staging folder (the run was writing or switching in its report)
and the kills after which the cache `predictions/` was away from the results folder (a kill
between moving it into the staging folder and the exchange; the next run moves it back) and,
at the end, checks that one more run reuses every unit (no cached unit lost) and leaves no
staging folder. It prints the counts and exits 1 if any folder was incomplete.

Only the standard library is needed. Uses the binary built by `cargo build -p experiments`.
"""

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CONFIG = """name = "kills"
seed = 1
datasets = ["pima", "sonar"]
measures = ["error", "auc"]
[protocol]
kind = "stratified_kfold"
folds = 5
[[learners]]
kind = "naive_bayes"
[[learners]]
kind = "c45"
"""

KEPT = {"predictions", "shards", "slurm"}


def listing(folder):
    """Every file of the report (relative paths), the kept folders left out."""
    files = set()
    for top in os.listdir(folder):
        if top in KEPT:
            continue
        path = os.path.join(folder, top)
        if os.path.isdir(path):
            for base, _, names in os.walk(path):
                for name in names:
                    files.add(os.path.relpath(os.path.join(base, name), folder))
        else:
            files.add(top)
    return files


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def complete(folder, reference, fixed):
    """Whether `folder` holds the reference report whole."""
    if not os.path.isdir(folder) or listing(folder) != reference:
        return False
    for name, content in fixed.items():
        if read(os.path.join(folder, name)) != content:
            return False
    return True


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--binary", default=os.path.join(root, "target/debug/experiments"))
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    random.seed(args.seed)
    scratch = tempfile.mkdtemp(prefix="publication_kills-")
    config = os.path.join(scratch, "kills.toml")
    with open(config, "w") as handle:
        handle.write(CONFIG)
    results = os.path.join(scratch, "results")
    folder = os.path.join(results, "kills")
    command = [args.binary, "--config", config, "--results", results, "--threads", "1"]
    subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
    # The report of a run that reuses every unit: what every later run writes; its usual
    # duration is the median of five.
    durations = []
    for _ in range(5):
        started = time.monotonic()
        subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
        durations.append(time.monotonic() - started)
    duration = sorted(durations)[2]
    reference = listing(folder)
    fixed = {
        name: read(os.path.join(folder, name))
        for name in ("units.csv", "per_fold.csv", "index.html")
    }
    incomplete, cache_away, finished, during_report = 0, 0, 0, 0
    for _ in range(args.kills):
        process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0.2, 1.0) * duration)
        process.send_signal(signal.SIGKILL)
        if process.wait() == 0:
            finished += 1
        if not complete(folder, reference, fixed):
            incomplete += 1
            if os.path.isdir(folder):
                extra = listing(folder) ^ reference
                print(f"incomplete: {sorted(extra)[:5] or 'a file differs'}", file=sys.stderr)
            else:
                print("incomplete: no results folder", file=sys.stderr)
        if not os.path.isdir(os.path.join(folder, "predictions")):
            cache_away += 1
        if any(".staging-" in name for name in os.listdir(results)):
            during_report += 1
    final = subprocess.run(command, stderr=subprocess.PIPE, text=True)
    reused_all = final.returncode == 0 and "units: 0 computed, 20 reused" in final.stderr
    leftovers = [name for name in os.listdir(results) if ".staging-" in name]
    print(
        f"{args.kills} kills (a run lasts about {duration * 1000:.0f} ms; {finished} runs "
        f"finished before their kill; {during_report} killed while writing or switching in "
        f"their report): {incomplete} incomplete results folders; the cache was "
        f"away from the folder after {cache_away} kills (moved back by the next run); final "
        f"run reused every unit: {reused_all}; staging folders left: {len(leftovers)}"
    )
    shutil.rmtree(scratch)
    sys.exit(1 if incomplete or not reused_all or leftovers else 0)


if __name__ == "__main__":
    main()
