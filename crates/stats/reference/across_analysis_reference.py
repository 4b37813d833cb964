"""Reference values for the one-call analysis `stats::across_analysis::analyse` (read by
tests/across_analysis_reference.rs): what issue 30 says `compare --json` must show.

Run:  /work/venv/bin/python across_analysis_reference.py > ../tests/data/across_analysis.json
Needs: numpy, scipy, scikit-posthocs, autorank 1.3.0; R (Rscript) for quade.test; the other
generators beside this file (imported for their independent implementations).

  * wide table (Garcia & Herrera 2008, 30 x 5 accuracies, higher is better): Quade's F and p
    from R's quade.test; Cliff's delta of every pair from autorank's _cliffs_delta; the
    Friedman z-test's raw p-values (scikit-posthocs posthoc_siegel_friedman) with Shaffer's and
    Bergmann-Hommel's adjustments (adjust_reference.py's set-partition implementations);
  * the same table with two empty cells: the Skillings-Mack statistic and p-value
    (skillings_mack_reference.py's numpy implementation) on the whole table, and the data sets
    the default policy drops from the complete-table tests;
  * long per-fold data: the "synthetic_8x10" case of hierarchical.json (Stan's NUTS on
    baycomp's model) given as two learners' folds, b = 0.8 and a = 0.8 + difference; the
    expected posterior is that case's.
"""
import json
import sys
from itertools import combinations

import numpy as np
import scikit_posthocs
from autorank._util import _cliffs_delta

from adjust_reference import bergmann_hommel, shaffer
from published_tables import GH2008, GH2008_LEARNERS
from rank_tests_reference import r_quade
from skillings_mack_reference import skillings_mack

scores = np.array([row for _, row in GH2008])
datasets = [name for name, _ in GH2008]
k = scores.shape[1]
pairs = list(combinations(range(k), 2))
f, df, p = r_quade(scores)
siegel = scikit_posthocs.posthoc_siegel_friedman(scores).to_numpy()
raw = [float(siegel[a, b]) for a, b in pairs]
wide = {
    "name": "garcia_herrera_2008_wide",
    "input": {"datasets": datasets, "learners": GH2008_LEARNERS,
              "values": scores.tolist(), "higher_is_better": True, "alpha": 0.05},
    "expected": {
        "quade": {"statistic": f, "pvalue": p},
        "cliff_delta": [float(_cliffs_delta(scores[:, a], scores[:, b])) for a, b in pairs],
        "friedman_z_pvalues": raw,
        "shaffer": shaffer(raw, k).tolist(),
        "bergmann_hommel": bergmann_hommel(raw, k).tolist(),
    },
}

gappy = scores.copy()
gappy[3, 1] = np.nan
gappy[10, 4] = np.nan
sm = skillings_mack(gappy)
empty_cell = {
    "name": "garcia_herrera_2008_two_empty_cells",
    "input": {"datasets": datasets, "learners": GH2008_LEARNERS,
              "values": [[None if np.isnan(v) else float(v) for v in row] for row in gappy],
              "higher_is_better": True, "alpha": 0.05},
    "expected": {"skillings_mack": {"statistic": sm["statistic"], "df": sm["df"],
                                    "pvalue": sm["pvalue"]},
                 "dropped_datasets": [3, 10]},
}

hierarchical = next(c for c in json.load(open("../tests/data/hierarchical.json"))["cases"]
                    if c["name"] == "synthetic_8x10")
differences = np.array(hierarchical["input"]["differences"])
b = np.full_like(differences, 0.8)
a = b + differences
per_fold = {
    "name": "per_fold_two_learners",
    "input": {"datasets": [f"d{i}" for i in range(len(a))], "learners": ["a", "b"],
              "values": [[float(x.mean()), float(y.mean())] for x, y in zip(a, b)],
              "folds": [[x.tolist(), y.tolist()] for x, y in zip(a, b)],
              "higher_is_better": True, "alpha": 0.05,
              "rope": hierarchical["input"]["rope"],
              "correlation": hierarchical["input"]["correlation"]},
    "expected": {"hierarchical": hierarchical["expected"]},
}

json.dump({"source": "crates/stats/reference/across_analysis_reference.py; python "
                     f"{sys.version.split()[0]}, numpy {np.__version__}, scikit-posthocs "
                     f"{scikit_posthocs.__version__}, autorank 1.3.0, R quade.test; "
                     "hierarchical values from hierarchical.json (Stan)",
           "cases": [wide, empty_cell, per_fold]}, sys.stdout, indent=1)
sys.stdout.write("\n")
