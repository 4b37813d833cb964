"""Reference posteriors of the Bayesian Plackett-Luce model (`stats::plackett_luce`; read by
tests/plackett_luce_reference.rs).

Run:  /work/venv/bin/python plackett_luce_reference.py > ../tests/data/plackett_luce.json
Needs: numpy, pystan 3 (compiles the model with the system C++ compiler on first use).

The model is scmamp's bPlackettLuceModel (Calvo et al. 2018): weights w on the simplex,
w ~ Dirichlet(prior), each data set's ranking (best first) has likelihood
prod_j w_(j) / sum_{m >= j} w_(m). It is written below in Stan from that definition and
sampled by NUTS (4 chains); from the draws: posterior mean of w (expected win probability),
share of draws in which each w_i is the largest (probability best), mean rank of w_i among the
w (1 = largest). Tables have no ties (scmamp breaks ties at random). Monte Carlo estimates:
the test compares within the tolerance written here; Stan's R-hat must be below 1.01.
"""
import json
import sys

import numpy as np
import stan
from scipy import stats

from published_tables import GH2008

MODEL = """
data {
  int<lower=1> n;
  int<lower=2> m;
  array[n, m] int order;   // learner indices, best first (1-based)
  vector<lower=0>[m] prior;
}
parameters { simplex[m] w; }
model {
  w ~ dirichlet(prior);
  for (s in 1:n) {
    real rest = 1;
    for (j in 1:(m - 1)) {
      target += log(w[order[s, j]]) - log(rest);
      rest -= w[order[s, j]];
    }
  }
}
"""


def reference(scores, prior, higher_is_better=True):
    scores = np.asarray(scores, float)
    key = -scores if higher_is_better else scores
    order = np.argsort(key, axis=1, kind="stable") + 1
    n, m = scores.shape
    model = stan.build(MODEL, data=dict(n=n, m=m, order=order.tolist(), prior=list(prior)),
                       random_seed=3)
    fit = model.sample(num_chains=4, num_samples=5000)
    w = fit["w"].T
    ranks = np.array([stats.rankdata(-row) for row in w])
    best = np.bincount(np.argmax(w, axis=1), minlength=m) / len(w)
    return {"expected_win_probability": w.mean(axis=0).tolist(),
            "probability_best": best.tolist(),
            "expected_rank": ranks.mean(axis=0).tolist(),
            "stan_draws": int(len(w))}


def case(name, scores, prior, higher_is_better, tolerance, note):
    return {"name": name, "note": note,
            "input": {"scores": np.asarray(scores, float).tolist(), "prior": list(prior),
                      "higher_is_better": higher_is_better},
            "expected": {**reference(scores, prior, higher_is_better),
                         "tolerance": tolerance}}


# Stan prints progress to stdout: keep it for the JSON only.
OUT, sys.stdout = sys.stdout, sys.stderr
rng = np.random.RandomState(20261205)
gh = np.array([row for _, row in GH2008])
# GH2008 has tied accuracies in a few rows; nudge them apart deterministically (by column).
gh_untied = gh + 1e-6 * np.arange(gh.shape[1])
cases = [
    case("garcia_herrera_2008", gh_untied, [1.0] * 5, True, 0.02,
         "30 x 5 accuracies (ties split by 1e-6 per column), uniform prior"),
    case("random_12x4_lower_better", np.round(rng.rand(12, 4) + [0, 0.1, 0.2, 0.3], 4),
         [1.0] * 4, False, 0.02, "errors, lower is better"),
    case("six_by_three_prior", np.round(rng.rand(6, 3), 4), [2.0, 1.0, 0.5], True, 0.02,
         "a non-uniform Dirichlet prior, few data sets"),
]
json.dump({"source": "crates/stats/reference/plackett_luce_reference.py; python "
                     f"{sys.version.split()[0]}, numpy {np.__version__}, pystan 3 (NUTS)",
           "cases": cases}, OUT, indent=1)
OUT.write("\n")
