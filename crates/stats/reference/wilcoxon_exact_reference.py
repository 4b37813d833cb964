"""Exact (sign-flip permutation) Wilcoxon signed-rank p-values with ties and zeros, for the
`stats` crate's `WilcoxonMethod::Exact`.

With tied |d| or zeros there is no tie-free table; the exact conditional test flips the sign
of every non-zero difference independently (2^n equally likely outcomes) keeping the observed
midranks. Values are produced two ways:
  * scipy.stats.wilcoxon(..., method=PermutationMethod(n_resamples >= 2^n)), which enumerates
    all sign flips (exact) -- scipy's own choice for tied data with n <= 13;
  * brute-force enumeration here with exact rationals.
Two-sided p = min(1, 2 min(P(R+ <= r), P(R+ >= r))).

Run:  python3 wilcoxon_exact_reference.py > ../tests/data/wilcoxon_exact.json
"""
import json
import sys
from fractions import Fraction
from itertools import product

import numpy as np
import scipy
from scipy import stats

shared = json.load(open(__file__.rsplit("/", 1)[0] + "/../tests/data/wilcoxon.json"))


def brute_force(d, zero_method):
    d = np.asarray(d, dtype=float)
    if zero_method == "wilcox":
        d = d[d != 0]
    ranks = stats.rankdata(np.abs(d))  # midranks, exact halves
    ranks = [Fraction(r).limit_denominator(2) for r in ranks]
    keep = [i for i in range(len(d)) if d[i] != 0]  # Pratt: zeros ranked, never flipped
    observed = sum(ranks[i] for i in keep if d[i] > 0)
    total = 0
    low = 0
    high = 0
    for signs in product([0, 1], repeat=len(keep)):
        value = sum(ranks[i] for i, s in zip(keep, signs) if s)
        total += 1
        low += value <= observed
        high += value >= observed
    return min(Fraction(1), 2 * min(Fraction(low, total), Fraction(high, total))), float(observed)


cases = []
for case in shared["cases"]:
    x = np.asarray(case["input"]["x"], dtype=float)
    y = np.asarray(case["input"]["y"], dtype=float)
    d = x - y
    for zero_method in ["wilcox", "pratt"]:
        n_flipped = int(np.sum(d != 0))
        if n_flipped > 16:
            continue
        p, r_plus = brute_force(d, zero_method)
        scipy_p = stats.wilcoxon(x, y, zero_method=zero_method,
                                 method=stats.PermutationMethod(n_resamples=2 ** 20)).pvalue
        assert abs(float(p) - scipy_p) <= 1e-12 * float(p), (case["name"], zero_method, float(p), scipy_p)
        cases.append({"name": case["name"] + "_" + zero_method,
                      "input": {"x": x.tolist(), "y": y.tolist(), "zero_method": zero_method},
                      "expected": {"r_plus": r_plus, "pvalue": float(p),
                                   "pvalue_exact": "%d/%d" % (p.numerator, p.denominator),
                                   "scipy_permutation_pvalue": float(scipy_p)}})
json.dump({"source": "scipy %s wilcoxon(method=PermutationMethod()) (exhaustive sign flips) and a brute-force "
                     "rational enumeration; crates/stats/reference/wilcoxon_exact_reference.py" % scipy.__version__,
           "cases": cases}, sys.stdout, indent=1)
