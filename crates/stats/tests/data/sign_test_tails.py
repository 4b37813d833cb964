"""Reference values for the sign test's tails and methods and its one-tailed critical values.

Run: python3 sign_test_tails.py > sign_test_tails.json (scipy 1.17 wrote the committed file).
Exact p-values: scipy.stats.binomtest(wins, wins + losses, 0.5, alternative) with
alternative "greater" (first learner better: P(X >= wins)), "less" (P(X <= wins)) and
"two-sided". Normal approximation, written here from its definition: X ~ N(n/2, n/4), with or
without the continuity correction 1/2 (greater: sf((wins - c - n/2) / (sqrt(n)/2)); less:
cdf((wins + c - n/2) / (sqrt(n)/2)); two-sided: min(1, 2 min(greater, less))), evaluated with
scipy.stats.norm. Critical values: the largest c with tails * binom.cdf(c, n, 1/2) <= alpha.
"""
import json
import math

import scipy
from scipy.stats import binom, binomtest, norm

COUNTS = [(14, 4, 2), (4, 14, 2), (15, 5, 0), (12, 8, 3), (30, 18, 0), (60, 40, 5), (0, 7, 1), (7, 0, 0)]
cases = []
for wins, losses, ties in COUNTS:
    n = wins + losses
    exact = {alt: binomtest(wins, n, 0.5, alternative=alt).pvalue for alt in ["two-sided", "greater", "less"]}
    normal = {}
    for name, c in [("normal", 0.0), ("normal_cc", 0.5)]:
        mean, sd = n / 2, math.sqrt(n) / 2
        greater = norm.sf((wins - c - mean) / sd)
        less = norm.cdf((wins + c - mean) / sd)
        normal[name] = {"two-sided": min(1.0, 2 * min(greater, less)), "greater": greater, "less": less}
    cases.append({
        "name": f"wins_{wins}_losses_{losses}_ties_{ties}",
        "input": {"wins": wins, "losses": losses, "ties": ties},
        "expected": {"exact": exact, **normal},
    })

def critical(n, alpha, tails):
    best = None
    for c in range(n // 2 + 1):
        if tails * binom.cdf(c, n, 0.5) <= alpha:
            best = c
        else:
            break
    return best

ns = list(range(1, 101))
for alpha in [0.01, 0.05, 0.1]:
    for tails in [1, 2]:
        cases.append({
            "name": f"critical_values_tails_{tails}_alpha_{alpha}",
            "input": {"N": ns, "alpha": alpha, "tails": tails},
            "expected": {"max_losses": [critical(n, alpha, tails) for n in ns]},
        })

print(json.dumps({"source": f"scipy {scipy.__version__} stats.binomtest and stats.norm; see sign_test_tails.py", "cases": cases}, indent=1))
