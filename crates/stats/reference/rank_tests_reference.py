"""Reference values for Quade's test and the Friedman aligned-ranks test with their post-hoc
tests (`stats::quade`, `stats::aligned_ranks`; read by tests/rank_tests_reference.rs).

Run:  /work/venv/bin/python rank_tests_reference.py > ../tests/data/rank_tests.json
Needs: numpy, scipy, scikit-posthocs; R (Rscript, base stats) for quade.test.

Sources, independent of the Rust code:
  * Quade's F, its degrees of freedom and p-value: R's stats::quade.test (Conover 1999); the
    first case is Conover's worked example (hand lotion sold in 7 stores, 5 brands; Conover
    1999 p. 375f, the example of R's help page), for which Conover prints T = 3.83 and R
    F = 3.8293, p = 0.01519; when A = B R returns F = NaN and p = (k!)^(1-b) (we give F = inf);
  * A, B and the weighted rank sums S_j: numpy, from Conover's definitions;
  * Conover's post-hoc t-test: scikit_posthocs.posthoc_quade(dist="t");
  * Garcia et al.'s (2010) post-hoc z-test: numpy, T_j = sum_i Q_i r_ij / (b(b+1)/2),
    z = |T_i - T_j| / sqrt(k(k+1)(2b+1)(k-1) / (18 b (b+1))) with b the number of data sets
    (scikit-posthocs' dist="normal" puts b k in place of b in that denominator, so it is not
    used here);
  * Friedman aligned ranks: numpy/scipy.stats.rankdata on the values minus their row means,
    ranked together (largest = 1), T from Garcia et al. (2010, section 3.1.2), chi-square
    p-value from scipy; post-hoc z = |R_i - R_j| / sqrt(k(nk+1)/6).
"""
import json
import subprocess
import sys
from itertools import combinations

import numpy as np
import scikit_posthocs
import scipy
from scipy import stats

from published_tables import GH2008, GH2010


def r_quade(table):
    rows = ",".join(repr(float(v)) for v in np.asarray(table, float).ravel())
    n, k = np.asarray(table).shape
    script = (f"y <- matrix(c({rows}), nrow={n}, byrow=TRUE); r <- quade.test(y); "
              'cat(sprintf("%.17g", c(r$statistic, r$parameter, r$p.value)), sep="\\n")')
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True, check=True)
    values = [float("nan") if v == "NA" else float(v) for v in out.stdout.split()]
    return values[0], values[1:3], values[3]


def quade_parts(table):
    y = np.asarray(table, float)
    b, k = y.shape
    ranks = np.array([stats.rankdata(row) for row in y])
    q = stats.rankdata(y.max(axis=1) - y.min(axis=1))
    s = q[:, None] * (ranks - (k + 1) / 2)
    a = float((s ** 2).sum())
    s_j = s.sum(axis=0)
    b_stat = float((s_j ** 2).sum() / b)
    descending = k + 1 - ranks
    t_j = (q[:, None] * descending).sum(axis=0) / (b * (b + 1) / 2)
    scale = np.sqrt(k * (k + 1) * (2 * b + 1) * (k - 1) / (18 * b * (b + 1)))
    z = [float(2 * stats.norm.sf(abs(t_j[i] - t_j[j]) / scale))
         for i, j in combinations(range(k), 2)]
    return q, a, b_stat, s_j, t_j, z


def aligned(table):
    y = np.asarray(table, float)
    n, k = y.shape
    aligned_values = y - y.mean(axis=1, keepdims=True)
    ranks = stats.rankdata(-aligned_values.ravel()).reshape(n, k)
    r_j = ranks.sum(axis=0)
    r_i = ranks.sum(axis=1)
    kn = k * n
    t = ((k - 1) * ((r_j ** 2).sum() - (kn * n / 4) * (kn + 1) ** 2)
         / (kn * (kn + 1) * (2 * kn + 1) / 6 - (r_i ** 2).sum() / k))
    mean_ranks = r_j / n
    scale = np.sqrt(k * (n * k + 1) / 6)
    z = [float(2 * stats.norm.sf(abs(mean_ranks[i] - mean_ranks[j]) / scale))
         for i, j in combinations(range(k), 2)]
    return float(t), float(stats.chi2.sf(t, k - 1)), mean_ranks, z


def case(name, table, alpha, note):
    y = np.asarray(table, float)
    k = y.shape[1]
    f, df, p = r_quade(y)
    q, a, b_stat, s_j, t_j, z = quade_parts(y)
    if np.isnan(f):
        f = "inf"
        posthoc_t = None
    else:
        matrix = scikit_posthocs.posthoc_quade(y, dist="t").to_numpy()
        posthoc_t = [float(matrix[i, j]) for i, j in combinations(range(k), 2)]
        assert list(df) == [k - 1, (y.shape[0] - 1) * (k - 1)]
    df = [k - 1, (y.shape[0] - 1) * (k - 1)]
    t, t_p, mean_ranks, aligned_z = aligned(y)
    return {
        "name": name, "note": note,
        "input": {"scores": y.tolist(), "alpha": alpha},
        "expected": {
            "quade": {"statistic": f, "df": list(df), "pvalue": p, "a": a, "b": b_stat,
                      "dataset_weights": q.tolist(), "weighted_rank_sums": s_j.tolist(),
                      "average_weighted_ranks": t_j.tolist(),
                      "posthoc_t_pvalues": posthoc_t, "posthoc_z_pvalues": z},
            "aligned_ranks": {"statistic": t, "df": k - 1, "pvalue": t_p,
                              "average_aligned_ranks": mean_ranks.tolist(),
                              "posthoc_z_pvalues": aligned_z},
        },
    }


if __name__ == "__main__":
    conover = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35], [5, 4, 3, 5, 4],
               [10, 9, 7, 13, 10], [19, 18, 28, 37, 58], [10, 7, 6, 8, 7]]
    rng = np.random.RandomState(20261201)
    cases = [
        case("conover_1999_hand_lotion", conover, 0.05,
             "Conover's worked example: R prints F = 3.8293, p = 0.01519"),
        case("garcia_herrera_2008", [row for _, row in GH2008], 0.05, "30 x 5 accuracies"),
        case("garcia_2010", [row for _, row in GH2010], 0.05, "24 x 4 accuracies"),
        case("random_12_by_6", np.round(rng.rand(12, 1) + 0.1 * rng.randn(12, 6), 3), 0.05,
             "12 x 6, no ties"),
        case("ties_8_by_3", rng.randint(0, 3, size=(8, 3)), 0.10,
             "integer values: tied ranks and tied ranges"),
        case("two_by_two", [[0.7, 0.8], [0.6, 0.5]], 0.05, "the smallest table"),
        case("same_ranking_unequal_ranges", [[1, 2, 3], [2, 4, 7], [0, 5, 6], [1, 1.5, 9]], 0.05,
             "every data set ranks the learners alike but the ranges differ: A > B"),
        case("perfect_agreement", [[1, 2, 3], [2, 3, 4], [0, 1, 2], [5, 6, 7]], 0.05,
             "same ranking and equal ranges: A = B, R's exact p = (k!)^(1-b)"),
    ]

    json.dump({
        "source": "crates/stats/reference/rank_tests_reference.py; python "
                  f"{sys.version.split()[0]}, numpy {np.__version__}, scipy {scipy.__version__}, "
                  f"scikit-posthocs {scikit_posthocs.__version__}, R stats::quade.test",
        "cases": cases,
    }, sys.stdout, indent=1)
    sys.stdout.write("\n")
