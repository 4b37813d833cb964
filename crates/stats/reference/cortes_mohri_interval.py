"""Reference values of the Cortes & Mohri (NIPS 2004) confidence interval for the AUC, for the
`stats` crate's `cortes_mohri_full_interval`.

Computed from the paper's closed forms, independently of the crate's code (which sums over the
number of false negatives instead):
  * the expected AUC for k errors (Cortes & Mohri 2003, reused in 2004) and its variance
    (Corollary 1 of the 2004 paper), both exact rationals, valid for k <= min(m, n), so every
    case below keeps its range of error counts within that;
  * the construction of the interval: an interval for the error rate at level sqrt(1 - alpha)
    (half-width 1/(2 sqrt(N alpha')) by Chebyshev, or z(1 - alpha'/2)/(2 sqrt N) by the normal
    approximation, alpha' = 1 - sqrt(1 - alpha)), the error counts floor(N e1)..ceil(N e2), and
    [min_k E_k - s_k/sqrt(alpha), max_k E_k + s_k/sqrt(alpha)] clipped to [0, 1]. The paper's
    full text was not available; this is the construction two independent public
    implementations agree on (a Julia `confidence_interval_cortes`, a Python
    `ConfidenceIntervalsAUC`), and the one Aslan, Yildiz & Alpaydin (2009) describe.
Square roots and the normal quantile are taken with mpmath at 50 digits (scipy's `norm.ppf`
agrees to 1e-15).

Run:  python3 cortes_mohri_interval.py > ../tests/data/cortes_mohri_interval.json
"""
import json
import sys
from fractions import Fraction as F
from math import comb

import mpmath
from scipy.stats import norm

mpmath.mp.dps = 50


def expected_auc(m, n, k):
    size = m + n
    numerator = sum(comb(size, x) for x in range(0, k))
    denominator = sum(comb(size + 1, x) for x in range(0, k + 1))
    return 1 - F(k, size) - F((n - m) ** 2 * (size + 1), 4 * m * n) * (F(k, size) - F(numerator, denominator))


def variance_auc(m, n, k):
    """Corollary 1 of Cortes & Mohri (2004), k <= min(m, n)."""
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


def mp(fraction):
    return mpmath.mpf(fraction.numerator) / fraction.denominator


def interval(m, n, k, alpha, bound):
    size = m + n
    alpha = mpmath.mpf(alpha)
    split = 1 - mpmath.sqrt(1 - alpha)
    if bound == "chebyshev":
        half = 1 / (2 * mpmath.sqrt(size * split))
    else:
        z = mpmath.sqrt(2) * mpmath.erfinv(1 - split)  # Phi^-1(1 - split/2)
        assert abs(float(z) - norm.ppf(1 - float(split) / 2)) < 1e-12
        half = z / (2 * mpmath.sqrt(size))
    rate = mpmath.mpf(k) / size
    lowest = max(0, int(mpmath.floor(k - half * size)))
    highest = min(size, int(mpmath.ceil(k + half * size)))
    # stay away from counts where rounding could move floor/ceil
    for edge in (k - half * size, k + half * size):
        assert abs(edge - mpmath.nint(edge)) > 1e-9
    assert highest <= min(m, n), "closed forms need k <= min(m, n)"
    lows, highs = [], []
    for count in range(lowest, highest + 1):
        mean = mp(expected_auc(m, n, count))
        sd = mpmath.sqrt(mp(variance_auc(m, n, count)))
        lows.append(mean - sd / mpmath.sqrt(alpha))
        highs.append(mean + sd / mpmath.sqrt(alpha))
    return {
        "auc_low": float(max(min(lows), 0)),
        "auc_high": float(min(max(highs), 1)),
        "error_rate_low": float(max(rate - half, 0)),
        "error_rate_high": float(min(rate + half, 1)),
        "lowest_errors": lowest,
        "highest_errors": highest,
        "expected_auc": float(mp(expected_auc(m, n, k))),
    }


cases = []
for m, n, k, alpha, bound in [
    (50, 50, 10, 0.05, "chebyshev"), (50, 50, 10, 0.05, "normal"),
    (20, 80, 6, 0.05, "normal"), (164, 139, 39, 0.05, "chebyshev"),
    (164, 139, 39, 0.05, "normal"), (232, 136, 88, 0.05, "normal"),
    (247, 2190, 74, 0.05, "normal"), (247, 2190, 74, 0.1, "normal"),
    # the size of ada's test set in the Aslan reproduction
    (343, 1039, 208, 0.05, "normal"), (343, 1039, 208, 0.05, "chebyshev"),
]:
    cases.append({
        "name": "m%d_n%d_k%d_alpha%s_%s" % (m, n, k, alpha, bound),
        "input": {"n_pos": m, "n_neg": n, "errors": k, "alpha": alpha, "bound": bound},
        "expected": interval(m, n, k, alpha, bound),
    })
json.dump({"source": "crates/stats/reference/cortes_mohri_interval.py (paper's closed forms, exact "
                     "rationals, mpmath)", "cases": cases}, sys.stdout, indent=1)
print()
