"""Reference values for the Bayesian tests of the `stats` crate, produced with baycomp.

Run:  python3 bayesian_reference.py > ../tests/data/bayesian.json
Needs: pip install baycomp==1.0.3 (numpy, scipy).

Convention: the crate's differences are d = a - b and "right" means a is better. baycomp
computes y - x, so it is called with x = b, y = a.
"""
import json
import sys

import baycomp
import numpy as np
import scipy

rng = np.random.RandomState(20261122)


def correlated_case(name, a, b, rope, runs):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    mean, var, df = baycomp.CorrelatedTTest.compute_statistics(b, a, runs)
    probs = baycomp.CorrelatedTTest(b, a, rope=rope, runs=runs).probs()
    if rope == 0:
        left, right = probs
        middle = 0.0
    else:
        left, middle, right = probs
    return {
        "name": name,
        "input": {"a": a.tolist(), "b": b.tolist(), "rope": rope, "runs": runs},
        "expected": {
            "mean": float(mean),
            "variance": float(var),
            "df": int(df),
            "left": float(left),
            "rope": float(middle),
            "right": float(right),
        },
    }


def signed_rank_case(name, a, b, rope, nsamples):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    sample = baycomp.SignedRankTest.sample(b, a, rope=rope, prior=0.5, nsamples=nsamples, random_state=7)
    winners = np.argmax(sample, axis=1)
    left, middle, right = np.bincount(winners, minlength=3) / len(winners)
    return {
        "name": name,
        "input": {"a": a.tolist(), "b": b.tolist(), "rope": rope, "prior": 0.5},
        "expected": {
            "nsamples": nsamples,
            "left": float(left),
            "rope": float(middle),
            "right": float(right),
            "mean_sample": [float(v) for v in sample.mean(axis=0)],
        },
    }


cases = []
# One data set, 10-fold CV once (runs = 1) and 10x10 CV (runs = 10).
a10 = np.round(0.80 + 0.03 * rng.standard_normal(10), 4)
b10 = np.round(a10 - 0.01 + 0.015 * rng.standard_normal(10), 4)
cases.append(correlated_case("cv10_rope0", a10, b10, 0.0, 1))
cases.append(correlated_case("cv10_rope001", a10, b10, 0.01, 1))
a100 = np.round(0.75 + 0.04 * rng.standard_normal(100), 4)
b100 = np.round(a100 - 0.004 + 0.02 * rng.standard_normal(100), 4)
cases.append(correlated_case("cv10x10_rope001", a100, b100, 0.01, 10))
cases.append(correlated_case("cv10x10_rope0005", a100, b100, 0.005, 10))
cases.append(correlated_case("b_better_rope002", b10, a10, 0.02, 2))

# Several data sets (mean accuracies per data set).
a20 = np.round(0.8 + 0.08 * rng.standard_normal(20), 3)
b20 = np.round(a20 - 0.01 + 0.02 * rng.standard_normal(20), 3)
signed = [
    signed_rank_case("twenty_datasets_rope001", a20, b20, 0.01, 100000),
    signed_rank_case("twenty_datasets_rope0", a20, b20, 0.0, 100000),
]
a12 = np.round(0.7 + 0.1 * rng.standard_normal(12), 3)
b12 = np.round(a12 + 0.002 + 0.01 * rng.standard_normal(12), 3)
signed.append(signed_rank_case("twelve_datasets_mostly_rope", a12, b12, 0.01, 100000))
a15 = np.round(0.75 + 0.1 * rng.standard_normal(15), 3)
b15 = np.round(a15 - 0.004 + 0.02 * rng.standard_normal(15), 3)
signed.append(signed_rank_case("fifteen_datasets_uncertain", a15, b15, 0.005, 100000))
# Zero variance of the differences: baycomp's degenerate rule (a point posterior).
cases.append(correlated_case("constant_differences", [0.75, 0.5, 0.625, 0.875], [0.625, 0.375, 0.5, 0.75], 0.0625, 1))

json.dump(
    {
        "source": "baycomp %s (CorrelatedTTest, SignedRankTest with prior=0.5, random_state=7), numpy %s, scipy %s; "
        "produced by crates/stats/reference/bayesian_reference.py. baycomp is called with x = b, y = a so that "
        "differences are a - b and 'right' means a is better. Signed-rank values are Monte Carlo "
        "(winner fractions over nsamples posterior samples): compare at Monte Carlo tolerance."
        % (baycomp.__version__ if hasattr(baycomp, "__version__") else "1.0.3", np.__version__, scipy.__version__),
        "correlated_t": cases,
        "signed_rank": signed,
    },
    sys.stdout,
    indent=1,
)
