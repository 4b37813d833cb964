"""Writes posthoc_wilcoxon.json beside this script: a wide results table (datasets x learners)
and, for every pair of learners (i < j, in the order (0, 1), (0, 2), ..., (1, 2), ...), the
Wilcoxon signed-rank statistic W = min(R+, R-) and the two-sided p-value of scipy.stats.wilcoxon
on the pair's differences over the datasets (scipy's defaults: zero_method "wilcox", no
continuity correction, the exact distribution for these few differences without ties or zeros).
`experiments compare TABLE` must give the same W in its post-hoc Wilcoxon table (issue 43).

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install scipy numpy
    /tmp/venv/bin/python experiments/tests/data/posthoc_wilcoxon.py
"""

import itertools
import json
import pathlib

import numpy as np
import scipy
from scipy.stats import wilcoxon

LEARNERS = ["c45", "nb", "knn", "lr"]
DATASETS = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"]
# By hand: every pair's nine differences distinct and non-zero.
VALUES = [
    [0.812, 0.774, 0.801, 0.835],
    [0.655, 0.702, 0.641, 0.689],
    [0.931, 0.887, 0.921, 0.944],
    [0.702, 0.668, 0.733, 0.721],
    [0.588, 0.611, 0.575, 0.634],
    [0.874, 0.809, 0.862, 0.881],
    [0.763, 0.795, 0.747, 0.788],
    [0.691, 0.642, 0.706, 0.713],
    [0.957, 0.905, 0.938, 0.969],
]


def main():
    table = np.array(VALUES)
    pairs = []
    for i, j in itertools.combinations(range(len(LEARNERS)), 2):
        differences = table[:, i] - table[:, j]
        assert np.all(differences != 0) and len(set(np.abs(differences))) == len(differences)
        result = wilcoxon(table[:, i], table[:, j])
        pairs.append(
            {
                "first": LEARNERS[i],
                "second": LEARNERS[j],
                "statistic": float(result.statistic),
                "pvalue": float(result.pvalue),
            }
        )
    out = {
        "source": f"scipy {scipy.__version__} scipy.stats.wilcoxon (defaults), numpy {np.__version__}; "
        "made by posthoc_wilcoxon.py",
        "learners": LEARNERS,
        "datasets": DATASETS,
        "values": VALUES,
        "pairs": pairs,
    }
    path = pathlib.Path(__file__).with_name("posthoc_wilcoxon.json")
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
