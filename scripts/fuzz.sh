#!/usr/bin/env bash
# The long fuzzing job (not part of `cargo test`, which runs a few hundred inputs of each):
# the CSV, ARFF and KEEL readers, then the config reader and the whole check before any fit.
# Usage: scripts/fuzz.sh [DATA_CASES] [CONFIG_CASES]   (defaults 50000 and 20000 per generator)
# docs/fuzzing.md records the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
data_cases="${1:-50000}"
config_cases="${2:-20000}"
time DATA_FUZZ_CASES="$data_cases" DATA_FUZZ_SEED="${DATA_FUZZ_SEED:-1}" \
    cargo test -q -p data --test fuzz -- --nocapture --test-threads 2
time ENGINE_FUZZ_CASES="$config_cases" cargo test -q -p engine --test fuzz_config
