"""Reference moments of the AUC for a fixed number of errors (Cortes & Mohri), for the
`stats` crate's `cortes_mohri_moments` / `cortes_mohri_interval`.

Model (Cortes & Mohri, "AUC optimization vs. error rate minimization", NIPS 2003, reused in
"Confidence intervals for the AUC", NIPS 2004): every ranking of the m positives and n negatives
together with a threshold that makes exactly k errors is equally likely.

Values are computed three ways, all in exact rational arithmetic:
  * brute force: enumerate every ranking and threshold (small m, n only);
  * a sum over the number x of false negatives of independent top/bottom blocks (used for
    every case, and checked equal to brute force where that is feasible);
  * the paper's closed form for the expected value (valid for k <= min(m, n));
  * the closed form of the variance, Corollary 1 of the NIPS 2004 paper (valid for
    k <= min(m, n)). The 2004 paper's full text was not available to us; the formula was taken
    from two independent public transcriptions that agree term by term (a Julia
    `sigma_cortes` and a Python "Corollary 1 of Cortes & Mohri (2004)" helper), and it agrees
    exactly, as a rational number, with the block sum below, which is an independent derivation.

Run:  python3 cortes_mohri_reference.py > ../tests/data/cortes_mohri.json
"""
import json
import sys
from fractions import Fraction as F
from itertools import combinations
from math import comb


def block_sum(m, n, k):
    total = F(0)
    first = F(0)
    second = F(0)
    for x in range(0, k + 1):
        fp = k - x
        if x > m or fp > n:
            continue
        weight = comb(m - x + fp, fp) * comb(x + n - fp, x)
        top_pos, top_neg, bottom_pos, bottom_neg = m - x, fp, x, n - fp
        mean_u = top_pos * bottom_neg + F(top_pos * top_neg, 2) + F(bottom_pos * bottom_neg, 2)
        var_u = F(top_pos * top_neg * (top_pos + top_neg + 1), 12) + F(
            bottom_pos * bottom_neg * (bottom_pos + bottom_neg + 1), 12
        )
        total += weight
        first += weight * mean_u
        second += weight * (var_u + mean_u * mean_u)
    mean = first / total / (m * n)
    variance = (second / total - (first / total) ** 2) / (m * n) ** 2
    return mean, variance


def brute_force(m, n, k):
    size = m + n
    values = []
    for positives in combinations(range(size), m):
        positive_set = set(positives)
        for threshold in range(size + 1):
            errors = sum(1 for i in range(threshold) if i not in positive_set) + sum(
                1 for i in range(threshold, size) if i in positive_set
            )
            if errors != k:
                continue
            u = sum(1 for i in positive_set for j in range(size) if j not in positive_set and j > i)
            values.append(F(u, m * n))
    mean = sum(values) / len(values)
    return mean, sum((v - mean) ** 2 for v in values) / len(values)


def block_given_split(m, n, false_negatives, false_positives):
    top_pos, top_neg = m - false_negatives, false_positives
    bottom_pos, bottom_neg = false_negatives, n - false_positives
    mean_u = top_pos * bottom_neg + F(top_pos * top_neg, 2) + F(bottom_pos * bottom_neg, 2)
    var_u = F(top_pos * top_neg * (top_pos + top_neg + 1), 12) + F(
        bottom_pos * bottom_neg * (bottom_pos + bottom_neg + 1), 12)
    return mean_u / (m * n), var_u / (m * n) ** 2


def brute_force_given_split(m, n, false_negatives, false_positives):
    size = m + n
    values = []
    threshold = m - false_negatives + false_positives
    for positives in combinations(range(size), m):
        positive_set = set(positives)
        fp = sum(1 for i in range(threshold) if i not in positive_set)
        fn = sum(1 for i in range(threshold, size) if i in positive_set)
        if (fn, fp) != (false_negatives, false_positives):
            continue
        u = sum(1 for i in positive_set for j in range(size) if j not in positive_set and j > i)
        values.append(F(u, m * n))
    mean = sum(values) / len(values)
    return mean, sum((v - mean) ** 2 for v in values) / len(values)


def closed_form_mean(m, n, k):
    size = m + n
    numerator = sum(comb(size, x) for x in range(0, k))
    denominator = sum(comb(size + 1, x) for x in range(0, k + 1))
    return 1 - F(k, size) - F((n - m) ** 2 * (size + 1), 4 * m * n) * (F(k, size) - F(numerator, denominator))


def closed_form_variance(m, n, k):
    """Cortes & Mohri (2004), Corollary 1: variance of the AUC for k errors (k <= min(m, n))."""
    size = m + n
    denominator = sum(comb(size + 1, x) for x in range(0, k + 1))
    z = [None] + [F(sum(comb(size + 1 - i, x) for x in range(0, k - i + 1)), denominator)
                  for i in range(1, 5)]
    t = 3 * ((m - n) ** 2 + m + n) + 2
    q0 = ((size + 1) * t * k ** 2
          + ((-3 * n ** 2 + 3 * m * n + 3 * m + 1) * t - 12 * (3 * m * n + m + n) - 8) * k
          + (-3 * m ** 2 + 7 * m + 10 * n + 3 * m * n + 10) * t - 4 * (3 * m * n + m + n + 1))
    q1 = (t * k ** 3 + 3 * (m - 1) * t * k ** 2
          + ((-3 * n ** 2 + 3 * m * n - 3 * m + 8) * t - 6 * (6 * m * n + m + n)) * k
          + (-3 * m ** 2 + 7 * (m + n) + 3 * m * n) * t - 2 * (6 * m * n + m + n))
    value = (F((size + 1) * size * (size - 1) * t, 72) * ((size - 2) * z[4] - (2 * m - n + 3 * k - 10) * z[3])
             + F((size + 1) * size * t * (m * m - n * m + 3 * k * m - 5 * m + 2 * k * k - n * k + 12 - 9 * k), 48) * z[2]
             - F((size + 1) ** 2 * (m - n) ** 4, 16) * z[1] ** 2
             - F((size + 1) * q1, 72) * z[1]
             + F(k * q0, 144))
    return value / (m * m * n * n)


def main():
    cases = []
    for m, n, k in [(3, 4, 1), (3, 4, 2), (4, 4, 3), (2, 5, 2), (4, 6, 2), (5, 3, 4), (1, 1, 1), (3, 3, 0),
                    (50, 50, 10), (20, 80, 15), (100, 400, 60), (300, 200, 120),
                    # class sizes and error counts of the kind the 2004 paper's experiments use
                    (232, 136, 88), (469, 231, 182), (164, 139, 39), (247, 2190, 74)]:
        mean, variance = block_sum(m, n, k)
        checks = []
        if m + n <= 10:
            assert (mean, variance) == brute_force(m, n, k)
            checks.append("brute_force")
        if k <= min(m, n):
            assert mean == closed_form_mean(m, n, k)
            checks.append("closed_form_mean")
            assert variance == closed_form_variance(m, n, k) == closed_form_variance(n, m, k)
            checks.append("closed_form_variance_2004")
        cases.append({
            "name": "m%d_n%d_k%d" % (m, n, k),
            "input": {"n_pos": m, "n_neg": n, "errors": k},
            "expected": {"mean": float(mean), "variance": float(variance),
                         "mean_exact": "%d/%d" % (mean.numerator, mean.denominator),
                         "variance_exact": "%d/%d" % (variance.numerator, variance.denominator)},
            "checked_by": checks,
        })
    split_cases = []
    for m, n, fn, fp in [(3, 4, 1, 1), (4, 4, 0, 2), (2, 5, 2, 0), (5, 3, 1, 2), (4, 6, 2, 3), (60, 40, 7, 5)]:
        mean, variance = block_given_split(m, n, fn, fp)
        checks = []
        if m + n <= 10:
            assert (mean, variance) == brute_force_given_split(m, n, fn, fp)
            checks.append("brute_force")
        split_cases.append({
            "name": "m%d_n%d_fn%d_fp%d" % (m, n, fn, fp),
            "input": {"n_pos": m, "n_neg": n, "false_negatives": fn, "false_positives": fp},
            "expected": {"mean": float(mean), "variance": float(variance)},
            "checked_by": checks,
        })
    json.dump({"source": "crates/stats/reference/cortes_mohri_reference.py (exact rationals, python fractions)",
               "cases": cases, "given_split": split_cases}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
