"""Reference cliques (the bars of a CD diagram) for `stats::cliques` (read by
tests/cliques_reference.rs).

Run:  /work/venv/bin/python cliques_reference.py > ../tests/data/cliques.json
Needs: numpy, scipy, statsmodels; aeon (optional: when it imports, every case is also checked
against aeon's own clique builder, aeon.visualisation.results._critical_difference.
_build_cliques, and the JSON's source says so).

Rule (aeon's plot_critical_difference): learners in order of average rank (best first); from
each learner, the run of following learners not significantly different from it, stopping at
the first that is; runs of one learner and runs inside an earlier run are dropped. Written
here in numpy from that description. Significance matrices come from
  * Wilcoxon signed-rank p-values (scipy) with Holm's correction (statsmodels) at alpha, on
    seeded random tables and on the table of Garcia & Herrera (2008);
  * Nemenyi: |R_i - R_j| >= the critical difference (q from scipy's studentized range);
  * random symmetric matrices, which can be non-transitive.
"""
import json
import sys
from itertools import combinations

import numpy as np
from scipy import stats
from statsmodels.stats.multitest import multipletests

from published_tables import GH2008

try:
    from aeon.visualisation.results._critical_difference import _build_cliques
    import aeon
    AEON = aeon.__version__
except ImportError:  # pragma: no cover
    _build_cliques = None
    AEON = None


def our_rule(order, significant):
    k = len(order)
    runs = []
    last_end = 0
    for start in range(k):
        end = start
        while end + 1 < k and not significant[order[start]][order[end + 1]]:
            end += 1
        if end > start and end > last_end:
            runs.append([int(i) for i in order[start:end + 1]])
            last_end = end
    return runs


def aeon_rule(order, significant):
    k = len(order)
    same = np.array([[not significant[order[i]][order[j]] or i == j for j in range(k)]
                     for i in range(k)])
    # aeon reads the upper triangle of the rank-ordered matrix (lower one cleared).
    same = np.triu(same)
    cliques = _build_cliques(same.copy())
    return [[int(order[j]) for j in np.where(row)[0]] for row in cliques]


def case(name, average_ranks, significant, note):
    order = sorted(range(len(average_ranks)), key=lambda i: (average_ranks[i], i))
    expected = our_rule(order, significant)
    if _build_cliques is not None:
        assert aeon_rule(order, significant) == expected, (name, expected)
    return {"name": name, "note": note,
            "input": {"average_ranks": list(map(float, average_ranks)),
                      "significant": [[bool(v) for v in row] for row in significant]},
            "expected": {"cliques": expected}}


def wilcoxon_holm(table, alpha):
    table = np.asarray(table, float)
    n, k = table.shape
    ranks = np.array([stats.rankdata(-row) for row in table]).mean(axis=0)
    pairs = list(combinations(range(k), 2))
    p = [stats.wilcoxon(table[:, a], table[:, b]).pvalue for a, b in pairs]
    reject = multipletests(p, alpha=alpha, method="holm")[0]
    significant = [[False] * k for _ in range(k)]
    for (a, b), r in zip(pairs, reject):
        significant[a][b] = significant[b][a] = bool(r)
    return ranks, significant


def nemenyi(table, alpha):
    table = np.asarray(table, float)
    n, k = table.shape
    ranks = np.array([stats.rankdata(-row) for row in table]).mean(axis=0)
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    cd = q * np.sqrt(k * (k + 1) / (6 * n))
    significant = [[bool(abs(ranks[i] - ranks[j]) >= cd) for j in range(k)] for i in range(k)]
    return ranks, significant


rng = np.random.RandomState(20261202)
cases = []
gh = [row for _, row in GH2008]
cases.append(case("garcia_herrera_2008_wilcoxon_holm", *wilcoxon_holm(gh, 0.05),
                  "30 x 5 accuracies, Wilcoxon + Holm at 0.05"))
cases.append(case("garcia_herrera_2008_nemenyi", *nemenyi(gh, 0.05),
                  "30 x 5 accuracies, Nemenyi at 0.05"))
for index, (n, k) in enumerate([(20, 6), (15, 8), (25, 4)]):
    table = rng.rand(n, 1) + 0.05 * rng.randn(n, k) + np.linspace(0, 0.06, k)
    cases.append(case(f"random_{n}x{k}_wilcoxon_holm", *wilcoxon_holm(table, 0.05),
                      "seeded table, Wilcoxon + Holm"))
    cases.append(case(f"random_{n}x{k}_nemenyi", *nemenyi(table, 0.10), "Nemenyi at 0.10"))
for k in (3, 5, 7):
    upper = rng.rand(k, k) < 0.4
    significant = [[bool(upper[min(i, j), max(i, j)]) and i != j for j in range(k)]
                   for i in range(k)]
    ranks = rng.permutation(k) + 1.0
    cases.append(case(f"random_matrix_k{k}", ranks, significant,
                      "random symmetric decisions, possibly non-transitive"))
cases.append(case("nothing_significant", [2.0, 1.0, 3.0], [[False] * 3] * 3,
                  "one bar with every learner"))
cases.append(case("everything_significant", [2.0, 1.0, 3.0],
                  [[i != j for j in range(3)] for i in range(3)], "no bars"))

json.dump({
    "source": "crates/stats/reference/cliques_reference.py; python "
              f"{sys.version.split()[0]}, numpy {np.__version__}, scipy, statsmodels"
              + (f"; cross-checked against aeon {AEON} _build_cliques" if AEON else ""),
    "cases": cases,
}, sys.stdout, indent=1)
sys.stdout.write("\n")
