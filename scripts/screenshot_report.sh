#!/usr/bin/env bash
# Loads a results folder's index.html in headless Chromium (no server, no network) and saves a
# full-page screenshot, to check that the self-contained report renders.
# Usage: scripts/screenshot_report.sh results/aslan [out.png] [height-in-pixels] [width-in-pixels]
# (the first screen, the summary, as docs/benchmark-report.png:
#  scripts/screenshot_report.sh results/benchmark docs/benchmark-report.png 768 1366)
# Needs Debian's `chromium` package: apt-get install -y chromium
set -euo pipefail
folder="${1:?usage: $0 RESULTS_FOLDER [OUT.png] [HEIGHT]}"
out="${2:-$folder/index.png}"
height="${3:-6000}"
width="${4:-1280}"
page="$(cd "$folder" && pwd)/index.html"
[ -f "$page" ] || { echo "no index.html in $folder" >&2; exit 1; }
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --disable-background-networking --no-first-run \
    --window-size="$width","$height" --screenshot="$out" "file://$page" 2>/dev/null
echo "$out"
