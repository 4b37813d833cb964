#!/usr/bin/env bash
# Runs the papers' configs and copies each final report (Markdown tables, SVG figures, the
# per-fold CSV) into docs/reproductions/<experiment>/, with the command and the date.
# Usage: scripts/reproduce.sh [CONFIG...]   (default: every paper config)
set -euo pipefail
cd "$(dirname "$0")/.."
configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
    configs=(aslan.toml provost.toml wu_flach.toml wu_flach_samples.toml wu_flach_samples_150.toml huang_ling.toml)
fi
# Committed beside the reports by scripts/fidelity/ (seed envelopes, recounts), kept on refresh.
KEEP="seeds.csv class_pairs.csv exact_counts.csv ties.csv monks_numeric.md fold_bootstrap.csv fold_bootstrap.txt"
cargo build -p experiments
for config in "${configs[@]}"; do
    name="$(sed -n 's/^name = "\(.*\)"/\1/p' "experiments/configs/$config" | head -1)"
    started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    commit="$(git rev-parse --short HEAD)$(git diff --quiet || echo "+uncommitted changes")"
    /usr/bin/time -f "%e s wall, %M KB peak memory" -o "/tmp/reproduce-$name.time" \
        cargo run -q -p experiments -- --config "$config" 2> >(tee "/tmp/reproduce-$name.log" >&2)
    out="docs/reproductions/$name"
    # Files committed beside a report by the issue-31 scripts (scripts/fidelity/) are not the
    # run's output: keep them across the refresh.
    kept="$(mktemp -d)"
    for file in $KEEP; do
        if [ -f "$out/$file" ]; then cp "$out/$file" "$kept/"; fi
    done
    rm -rf "$out"
    mkdir -p "$out"
    cp "$kept"/* "$out/" 2>/dev/null || true
    rm -rf "$kept"
    cp results/"$name"/tables/*.md "$out/" 2>/dev/null || true
    if [ -d results/"$name"/figures ]; then
        mkdir -p "$out/figures"
        cp results/"$name"/figures/*.svg "$out/figures/"
    fi
    if [ -f results/"$name"/per_fold.csv ]; then cp results/"$name"/per_fold.csv "$out/"; fi
    cp "experiments/configs/$config" "$out/config.toml"
    {
        echo "# $name"
        echo
        echo "Produced by \`cargo run -p experiments -- --config $config\` on $started"
        echo "(git commit $commit; $(cat "/tmp/reproduce-$name.time"), 2 cores;"
        echo "$(grep -m1 '^units:' "/tmp/reproduce-$name.log" | sed 's/ (.*//' || echo 'no units')."
        echo "A run that reuses cached units is faster than one that computes them all; see"
        echo "docs/reproductions/README.md for the timings from scratch.)"
        echo "The full report with every table is \`results/$name/index.html\`."
        echo
        for table in "$out"/*.md; do
            [ "$(basename "$table")" = "README.md" ] && continue
            [ "$(basename "$table")" = "monks_numeric.md" ] && continue
            echo "- [$(basename "$table" .md)]($(basename "$table"))"
        done
    } > "$out/README.md"
    echo "$out"
done
