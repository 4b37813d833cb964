"""Reference posteriors of the Bayesian hierarchical correlated t-test (`stats::hierarchical`;
read by tests/hierarchical_reference.rs).

Run:  /work/venv/bin/python hierarchical_reference.py > ../tests/data/hierarchical.json
Needs: numpy, scipy, baycomp 1.0.3 and pystan 3 (which compiles baycomp's Stan model with the
system C++ compiler on first use: a few minutes).

The reference is baycomp's own model: its file hierarchical-t-test.stan, fed the data as
baycomp's HierarchicalTest.sample prepares it (differences a - b divided by the mean of the
data sets' standard deviations, rope likewise; rho = 1/folds; bounds deltaLow/Hi = -+max|x|,
std0Hi = 1000 sd(means), stdHi = 1000 mean sd, alpha in (1, 2), beta in (0.01, 0.1)), sampled
by Stan's NUTS (4 chains). From the draws, as baycomp: per draw, left = T(-rope), right =
1 - T(rope) with T the t(nu, delta0, std0) cdf; `probabilities` = shares of draws in which
each region is the largest, `mean_probabilities` = their means. Also the shares of draws of
delta0 and of each delta_i in the three regions and their posterior means (in the units of
the data). Monte Carlo estimates: the test compares them within a tolerance written here.
Stan's own split R-hat must be below 1.01 before a case is written.

Cases: seeded synthetic fold differences (no data set with constant differences, where
baycomp's random fill would differ from the crate's deterministic one), and real data: the
first 10-fold run of naive Bayes and J48 on baycomp's documentation data
(baycomp_nbc_j48_first_run.json beside this file, from docs/code/accuracies.txt of
github.com/janezd/baycomp), data sets with constant differences left out. (baycomp's docs print
(0.0795, 0.0365, 0.884) for a hierarchical test of these two learners, from a configuration
they do not state; all 100 folds of the 54 data sets are too slow for Stan here.)
"""
import json
import os
import sys

import baycomp
import numpy as np
import stan
from scipy import stats

STAN_FILE = os.path.join(os.path.dirname(baycomp.__file__), "hierarchical-t-test.stan")


def stan_reference(diff, rope, rho, chains=4, samples=5000, seed=1):
    diff = np.asarray(diff, float)
    scale = np.mean(np.std(diff, axis=1))
    x = diff / scale
    scaled_rope = rope / scale
    q, n = x.shape
    data = dict(x=x, Nsamples=n, q=q, rho=rho,
                deltaLow=-np.max(np.abs(x)), deltaHi=np.max(np.abs(x)),
                lowerAlpha=1, upperAlpha=2, lowerBeta=0.01, upperBeta=0.1,
                stdLow=0, stdHi=np.mean(np.std(x, axis=1)) * 1000,
                std0Low=0, std0Hi=np.std(np.mean(x, axis=1)) * 1000)
    model = stan.build(open(STAN_FILE).read(), data=data, random_seed=seed)
    fit = model.sample(num_chains=chains, num_samples=samples)
    mu, sd, nu = fit["delta0"][0], fit["std0"][0], fit["nu"][0]
    delta = fit["delta"]
    frame = fit.to_frame()
    left = stats.t.cdf(-scaled_rope, nu, mu, sd)
    right = 1 - stats.t.cdf(scaled_rope, nu, mu, sd)
    sample = np.column_stack([left, 1 - left - right, right])
    winners = np.bincount(np.argmax(sample, axis=1), minlength=3) / len(sample)

    def shares(values):
        return [float(np.mean(values < -scaled_rope)),
                float(np.mean(np.abs(values) <= scaled_rope)),
                float(np.mean(values > scaled_rope))]

    rhat = max(split_rhat(frame[name].to_numpy(), chains)
               for name in ["delta0", "std0", "nu"])
    assert rhat < 1.01, rhat
    return {
        "probabilities": winners.tolist(),
        "mean_probabilities": sample.mean(axis=0).tolist(),
        "delta0_probabilities": shares(mu),
        "delta0_mean": float(mu.mean() * scale),
        "datasets": [{"observed_mean": float(diff[i].mean()),
                      "posterior_mean": float(delta[i].mean() * scale),
                      "probabilities": shares(delta[i])} for i in range(q)],
        "stan_draws": int(len(mu)),
        "stan_max_rhat": float(rhat),
    }


def split_rhat(draws, chains):
    """BDA3 split R-hat of Stan's draws (stored chain after chain)."""
    per_chain = np.asarray(draws).reshape(chains, -1)
    half = per_chain.shape[1] // 2
    halves = np.concatenate([per_chain[:, :half], per_chain[:, half:2 * half]])
    n = halves.shape[1]
    within = halves.var(axis=1, ddof=1).mean()
    between = n * halves.mean(axis=1).var(ddof=1)
    return float(np.sqrt(((n - 1) / n * within + between / n) / within))


def case(name, diff, rope, rho, tolerance, note, samples=5000):
    return {"name": name, "note": note,
            "input": {"differences": np.asarray(diff, float).tolist(), "rope": rope,
                      "correlation": rho},
            "expected": {**stan_reference(diff, rope, rho, samples=samples),
                         "tolerance": tolerance}}


# Stan prints progress to stdout: keep it for the JSON only.
OUT, sys.stdout = sys.stdout, sys.stderr
rng = np.random.RandomState(20261204)
cases = []
true_means = 0.01 + 0.01 * rng.randn(8)
synthetic = true_means[:, None] + 0.02 * rng.randn(8, 10)
cases.append(case("synthetic_8x10", np.round(synthetic, 5), 0.01, 0.1, 0.03,
                  "8 data sets x 10 folds, rope 0.01, rho 1/10"))
mixed = np.concatenate([0.03 + 0.01 * rng.randn(3, 10), -0.002 + 0.01 * rng.randn(4, 10)])
cases.append(case("mixed_signs_7x10_rope0", np.round(mixed, 5), 0.0, 0.1, 0.03,
                  "7 data sets, two groups of opposite sign, rope 0"))
small = 0.005 + 0.02 * rng.randn(3, 6)
cases.append(case("three_datasets_6_folds", np.round(small, 5), 0.01, 1 / 6, 0.04,
                  "3 data sets x 6 folds: a wide posterior"))
docs = json.load(open("baycomp_nbc_j48_first_run.json"))
diff = np.array(docs["nbc"]) - np.array(docs["j48"])
varying = diff.std(axis=1) > 0  # baycomp fills constant rows at random; leave them out
cases.append(case("baycomp_data_nbc_vs_j48_first_run", diff[varying], 1.0, 0.1, 0.03,
                  f"baycomp's documentation data, first 10-fold run, {int(varying.sum())} of 54 "
                  "data sets (those whose fold differences vary), rope 1 percentage point"))

json.dump({
    "source": "crates/stats/reference/hierarchical_reference.py; python "
              f"{sys.version.split()[0]}, numpy {np.__version__}, baycomp 1.0.3 Stan model, "
              f"pystan {stan.__version__ if hasattr(stan, '__version__') else '3'}",
    "cases": cases,
}, OUT, indent=1)
OUT.write("\n")
