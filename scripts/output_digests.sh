#!/usr/bin/env bash
# Digests of every shipped config's outputs, one sha256 per file, to show that a change of the
# code leaves the results byte-identical (issue 26): run it before the change and after, and
# compare the two lists with `diff`.
#
#   scripts/output_digests.sh [--reuse] [--results DIR] [CONFIG ...] > digests.txt
#
# CONFIG is a name in experiments/configs/ (default: every *.toml there). Each config runs with
# the built binary (target/debug/experiments, built by `cargo build -p experiments`; the
# variable EXPERIMENTS names another) into a scratch results root (default: a new temporary
# folder, removed at the end), from an empty folder unless --reuse is given (then a previous
# run's cache under --results DIR is read back, which is faster and must give the same bytes).
#
# Digested, per results folder: per_fold.csv and per_fold.parquet, every file under tables/
# (md, csv, tex, json), splits/*.json, every figure under figures/, and units.csv with its two
# timing columns (fit_seconds, predict_seconds) removed, tables/leaderboard.* with their last
# column (fit seconds) removed.
# Left out, because they legitimately vary from run to run or hold no result:
#   - the timing columns of units.csv (wall-clock seconds of each unit) and the leaderboard's
#     "fit seconds" column (their sums per learner);
#   - index.html (it inlines every table and figure digested here, adds the counts of computed
#     and reused units, which differ between a fresh run and one reading the cache, and its
#     wording may change);
#   - predictions/ (the cache: the unit files' bytes embed each unit's fit and predict seconds);
#   - config.toml (a copy of the input).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${EXPERIMENTS:-$root/target/debug/experiments}"
reuse=0
results=""
configs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --reuse) reuse=1 ;;
        --results) shift; results="$1" ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) configs+=("$1") ;;
    esac
    shift
done
if [ ! -x "$binary" ]; then
    echo "no binary at $binary: run 'cargo build -p experiments' first" >&2
    exit 2
fi
if [ ${#configs[@]} -eq 0 ]; then
    for file in "$root"/experiments/configs/*.toml; do
        configs+=("$(basename "$file" .toml)")
    done
fi
scratch=0
if [ -z "$results" ]; then
    results="$(mktemp -d)"
    scratch=1
fi
mkdir -p "$results"

# The file at $1 as digested: a leaderboard table without its "fit seconds" column (the last).
digested() {
    case "$1" in
        tables/leaderboard.*)
            if grep -q 'fit seconds' "$1"; then
                case "$1" in
                    *.csv) sed -E 's/,[^,]*$//' "$1" ;;
                    *.md) sed -E '/^\|/ s/ [^|]* \|$//' "$1" ;;
                    *.tex) sed -E '/ & / s/ & [^&]* \\\\$/ \\\\/' "$1" ;;
                    *) cat "$1" ;;
                esac
                return
            fi
            ;;
    esac
    cat "$1"
}

for config in "${configs[@]}"; do
    file="$root/experiments/configs/${config%.toml}.toml"
    name="$(sed -n 's/^name *= *"\(.*\)"/\1/p' "$file" | head -n 1)"
    folder="$results/$name"
    if [ "$reuse" -eq 0 ]; then
        rm -rf "$folder"
    fi
    echo "running $config into $folder" >&2
    status=0
    "$binary" --config "$file" --results "$results" >/dev/null 2>"$results/$name.log" || status=$?
    # Status 3: the run finished and wrote everything, but some units failed (reported).
    if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
        echo "$config failed with status $status; see $results/$name.log" >&2
        exit 1
    fi
    (
        cd "$folder"
        for entry in per_fold.csv per_fold.parquet tables splits figures; do
            if [ -e "$entry" ]; then find "$entry" -type f; fi
        done | LC_ALL=C sort |
            while read -r path; do
                printf '%s  %s/%s\n' "$(digested "$path" | sha256sum | cut -d' ' -f1)" "$name" "$path"
            done
        if [ -f units.csv ]; then
            digest="$(cut -d, -f6,7 --complement units.csv | sha256sum | cut -d' ' -f1)"
            printf '%s  %s/units.csv (without fit_seconds, predict_seconds)\n' "$digest" "$name"
        fi
    )
done

if [ "$scratch" -eq 1 ]; then
    rm -rf "$results"
fi
