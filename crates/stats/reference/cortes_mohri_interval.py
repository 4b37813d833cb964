"""Reference values of the Cortes & Mohri (NIPS 2004) confidence interval for the AUC, for the
`stats` crate's `cortes_mohri_full_interval`.

Computed from the paper's closed forms, independently of the crate's code (which sums over the
number of false negatives instead):
  * the expected AUC for k errors (the closed forms of cortes_mohri_reference.py) (Cortes & Mohri 2003, reused in 2004) and its variance
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

import mpmath
from scipy.stats import norm

from cortes_mohri_reference import closed_form_mean as expected_auc
from cortes_mohri_reference import closed_form_variance as variance_auc

mpmath.mp.dps = 50


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
