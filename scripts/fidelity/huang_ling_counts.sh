#!/usr/bin/env bash
# Writes docs/reproductions/huang_ling/exact_counts.csv: Huang & Ling's exact counts R, S, P, Q
# for every configuration the Huang-Ling report computes, by the project's dynamic program
# (crates/evaluate/examples/huang_ling_counts.rs), then checks the small ones against the
# independent brute-force enumeration (scripts/fidelity/huang_ling_counts_check.py).
#
# The configurations are those of `papers::huang_ling::ReportOptions::default()` and of the
# published tables:
#   balanced:       2n = 4, 6, ..., 60 and 70, 80, ..., 200 (n positives, n negatives);
#   25% positives:  2n = 4, 8, ..., 60 and 80, 100, ..., 200 (2n/4 positives);
#   Table 7:        10 examples with 1 to 5 positives.
#
# Run from the repository root: scripts/fidelity/huang_ling_counts.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

configs=()
for total in $(seq 4 2 60) $(seq 70 10 200); do
    configs+=("$((total / 2)):$((total / 2))")
done
for total in $(seq 4 4 60) $(seq 80 20 200); do
    configs+=("$((total / 4)):$((total - total / 4))")
done
for positives in 1 2 3 4 5; do
    configs+=("${positives}:$((10 - positives))")
done

out=docs/reproductions/huang_ling/exact_counts.csv
cargo run --quiet --release -p evaluate --example huang_ling_counts -- "${configs[@]}" > "$out.tmp"
# Table 7's 5:5 is also the balanced 2n = 10: keep one row per configuration, in order.
awk -F, 'NR == 1 || !seen[$1 FS $2]++' "$out.tmp" > "$out"
rm "$out.tmp"
echo "wrote $out ($(($(wc -l < "$out") - 1)) configurations)"
/work/venv/bin/python scripts/fidelity/huang_ling_counts_check.py "$out"
