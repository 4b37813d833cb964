#!/bin/bash
# Provost et al. with Weka's learners, taken apart on the same splits (issue 46): which of the
# learners moves Table 1 and Vehicle's dominator. Runs provost.toml (ours) and
# weka/provost.toml (Weka's), then four kinds of variants, each from a copy of a finished run's
# cache so only the changed learner's units are computed:
#   - ours with IB3 and IB5 replaced by Weka's IBk;
#   - Weka's with IB3 and IB5 replaced by our k-NN;
#   - Weka's with Bagging's seed (-S) 2 to 6 (Weka's own bootstrap draws; nothing else changes).
# Then prints scripts/fidelity/provost_weka_bagging_seeds.py's table. Needs Java and Weka 3.6.
#
#   scripts/fidelity/provost_weka_variants.sh OUT_DIR
#
# EXPERIMENTS (default: `cargo run -q -p experiments --`) runs the experiments binary.
set -euo pipefail
out=${1:?usage: provost_weka_variants.sh OUT_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mkdir -p "$out"
out=$(cd "$out" && pwd)
run=${EXPERIMENTS:-cargo run -q -p experiments --}
ours=experiments/configs/provost.toml
weka=experiments/configs/weka/provost.toml

experiment() { # CONFIG RESULTS
    $run --config "$1" --threads 1 --results "$2" > "$2.log" 2>&1
}
variant() { # CONFIG FROM_RESULTS NAME RESULTS LEARNERS...
    local config=$1 from=$2 name=$3 results=$4
    shift 4
    rm -rf "$results" && cp -r "$from" "$results"
    for learner in "$@"; do rm -rf "$results/$name/predictions/"*/"$learner"; done
    experiment "$config" "$results"
}
swap_knn() { # to_weka|to_ours SOURCE TARGET: IB3 and IB5 moved to the other kind
    python3 - "$@" <<'PY'
import sys
direction, source, target = sys.argv[1:4]
text = open(source).read()
for k in (3, 5):
    ours = f'name = "IB{k}"\nkind = "knn"\nk = {k}\nselect_k = false\nweighting = "inverse_distance"'
    weka = f'name = "IB{k}"\nkind = "weka"\nclassifier = "weka.classifiers.lazy.IBk"\noptions = "-K {k} -I"'
    old, new = (ours, weka) if direction == "to_weka" else (weka, ours)
    if old not in text:
        sys.exit(f"{source}: IB{k}'s table not found as expected")
    text = text.replace(old, new)
open(target, "w").write(text)
PY
}

experiment "$ours" "$out/ours"
experiment "$weka" "$out/weka"
swap_knn to_weka "$ours" "$out/ours_weka_ibk.toml"
variant "$out/ours_weka_ibk.toml" "$out/ours" provost "$out/ours_weka_ibk" IB3 IB5
swap_knn to_ours "$weka" "$out/weka_our_knn.toml"
variant "$out/weka_our_knn.toml" "$out/weka" provost_weka "$out/weka_our_knn" IB3 IB5
rows=("ours=$out/ours/provost" "ours, Weka's IBk=$out/ours_weka_ibk/provost"
      "Weka's, our k-NN (Bagging -S 1)=$out/weka_our_knn/provost_weka"
      "Weka's (Bagging -S 1)=$out/weka/provost_weka")
for seed in 2 3 4 5 6; do
    sed "s/-P 100 -S 1 -I 10/-P 100 -S $seed -I 10/" "$weka" > "$out/weka_s$seed.toml"
    grep -q -- "-S $seed -I 10" "$out/weka_s$seed.toml"
    variant "$out/weka_s$seed.toml" "$out/weka" provost_weka "$out/weka_s$seed" Bagged-MC4
    rows+=("Weka's (-S $seed)=$out/weka_s$seed/provost_weka")
done
python3 scripts/fidelity/provost_weka_bagging_seeds.py "${rows[@]}"
