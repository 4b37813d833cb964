#!/usr/bin/env bash
# Times the README's main command the way a new user runs it: the dev profile that `cargo run`
# builds, already built, from an empty results folder (issue 27: the goal is 30 s).
#
#   scripts/main_command_time.sh [RUNS]
#
# Builds first (`cargo build -p experiments`, not timed), then runs
# `cargo run -p experiments -- --config aslan.toml --results DIR` RUNS times (default 1), each
# into a new empty temporary DIR (the only difference from the README's command, which writes
# results/aslan/: a leftover results/aslan would make the run reuse its cache). Prints, per run,
# the wall time, the CPU time (user + system) and the peak memory from /usr/bin/time, and the
# unit-seconds (fit + predict, from units.csv) summed per learner; first the date, the processor
# model and the load, which every speed figure must state. Set no CARGO_* variables in the
# environment when measuring for the docs: a new user's build has none (the script unsets
# CARGO_INCREMENTAL and CARGO_PROFILE_DEV_DEBUG to build as they do).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-1}"
cd "$root"
unset CARGO_INCREMENTAL CARGO_PROFILE_DEV_DEBUG

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) processors"
echo "load before: $(uptime | sed 's/.*load average: //')"
cargo build -p experiments --quiet

for run in $(seq 1 "$runs"); do
    results="$(mktemp -d)"
    timing="$(mktemp)"
    /usr/bin/time -f '%e %U %S %M' -o "$timing" \
        cargo run --quiet -p experiments -- --config aslan.toml --results "$results" >/dev/null
    read -r wall user system peak < "$timing"
    cpu="$(echo "$user + $system" | bc)"
    echo "run $run: ${wall} s wall, ${cpu} s CPU (user ${user}, system ${system}), $((peak / 1024)) MB peak"
    # units.csv: learner name in column 2, fit and predict seconds in columns 6 and 7.
    awk -F, 'NR > 1 { seconds[$2] += $6 + $7; total += $6 + $7 }
        END { printf "  unit-seconds %.1f:", total;
              for (learner in seconds) printf " %s %.1f", learner, seconds[learner]; print "" }' \
        "$results/aslan/units.csv"
    rm -rf "$results" "$timing"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
