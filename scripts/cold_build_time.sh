#!/usr/bin/env bash
# Times the cold build of the README's main command the way a new user meets it: a fresh clone
# of this repository's committed HEAD, an empty target folder, `cargo build -p experiments`
# (issue 27: the goal is 150 s on the project's 2-core machine).
#
#   scripts/cold_build_time.sh [COMMIT]
#
# Clones the repository (COMMIT, default HEAD, checked out) into a new temporary folder, builds
# there with the target folder inside the clone and `--timings`, and prints the wall time, the
# CPU time (user + system) and the peak memory from /usr/bin/time, with the date, the processor
# model and the load before and after. The crates are downloaded before the clock starts
# (`cargo fetch`), as they are for anyone who has built a Rust project since the registry last
# changed. The timings report (which crates cost what, and the critical path) is copied to
# /tmp/cold-build-timing-<commit>.html; the clone is removed at the end (kept, and its path
# printed, with KEEP=1). CARGO_* variables of the calling shell are unset, as a new user has none.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(git -C "$root" rev-parse --short "${1:-HEAD}")"
unset CARGO_INCREMENTAL CARGO_PROFILE_DEV_DEBUG CARGO_TARGET_DIR CARGO_BUILD_JOBS
clone="$(mktemp -d)/clone"
git clone --quiet "$root" "$clone"
git -C "$clone" checkout --quiet "$commit"
cd "$clone"
cargo fetch --quiet

echo "commit $commit; date: $(date -u '+%Y-%m-%d %H:%M UTC'); cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) processors"
echo "load before: $(uptime | sed 's/.*load average: //')"
timing="$(mktemp)"
CARGO_TARGET_DIR="$clone/target" /usr/bin/time -f '%e %U %S %M' -o "$timing" \
    cargo build --quiet -p experiments --timings 2>/dev/null
read -r wall user system peak < "$timing"
echo "load after: $(uptime | sed 's/.*load average: //')"
echo "cold build: ${wall} s wall, $(echo "$user + $system" | bc) s CPU (user ${user}, system ${system}), $((peak / 1024)) MB peak"
cp "$clone"/target/cargo-timings/cargo-timing.html "/tmp/cold-build-timing-$commit.html"
echo "timings: /tmp/cold-build-timing-$commit.html"
rm -f "$timing"
if [ "${KEEP:-0}" = 1 ]; then
    echo "clone kept: $clone"
else
    rm -rf "$(dirname "$clone")"
fi
