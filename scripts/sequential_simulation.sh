#!/usr/bin/env bash
# Validity of the anytime-valid stopping rules (issue 44): under the null, the rate of false
# decisions of the e-value and confidence-sequence rules beside a paired t-test stopped at its
# first p < alpha; under alternatives, the mean repetitions used against the fixed design.
#   scripts/sequential_simulation.sh
# Seeded (run i of a case: ChaCha8 from 44 + i), so the output is the same everywhere; about
# 15 s. The workspace's dev profile is the one used (cargo run without --release), so no second
# build of the workspace is needed. Its output is the body of docs/sequential.md's results.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run -q -p stats --example sequential_simulation
