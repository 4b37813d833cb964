#!/usr/bin/env bash
# Speed of the AUC bootstrap (issue 29): stats::bootstrap_auc (ranked once, O(n) per resample)
# beside pROC's ci.auc(method = "bootstrap"), both single-threaded, same data, one sitting.
#   scripts/bootstrap_speed.sh [N] [RESAMPLES] [RUNS]     (defaults 100000 2000 3)
# Needs Rscript with pROC and farm-bench. Prints farm-bench's paired report (A = ours, B = pROC)
# and each program's own line (AUC, intervals, seconds inside the bootstrap).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
resamples=${2:-2000}
runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 30 % positives, scores N(0, 1) for negatives and N(1, 1) for positives, rounded to 3 decimals
# (so there are ties, as with real probabilities)
Rscript -e "set.seed(1); n <- $n; y <- rbinom(n, 1, 0.3); s <- round(rnorm(n) + y, 3);
  write.csv(data.frame(label = y, score = s), '$work/scores.csv', row.names = FALSE)"
cargo build --release -q -p stats --example bootstrap_speed
ours=target/release/examples/bootstrap_speed
lscpu | grep 'Model name'
uptime
farm-bench -n "$runs" --warmup 0 --timeout 3600 \
  --vs "sh -c 'exec Rscript scripts/bootstrap_speed.R $work/scores.csv $resamples >>$work/proc.txt 2>&1'" \
  -- sh -c "exec $ours $work/scores.csv $resamples >>$work/ours.txt 2>&1"
echo "ours:"; cat "$work/ours.txt"
echo "pROC:"; cat "$work/proc.txt"
