"""Reference vectors of the Elo ratings (crates/stats/src/across/elo.rs), fitted independently
as TabArena and Chatbot Arena fit them: scikit-learn's LogisticRegression without intercept or
penalty on the battles (each two learners on each dataset; the better value wins, a tie is half
a win each, counted as Chatbot Arena's compute_mle_elo counts it), X = +ln 10 for the first
learner and -ln 10 for the second, rating = 400 coef + 1000, shifted so that the reference
learner has 1000. As in the Rust code, every two learners also play one virtual tie.

Rerun from the repository's root (numpy and scikit-learn installed):

    python3 crates/stats/tests/data/elo/elo_reference.py

It writes elo.json beside itself. The bootstrap intervals are Monte Carlo on both sides
(numpy's generator here, ChaCha8 in Rust, 4000 resamples of the datasets each): each case
carries a quarter of the standard deviation of the bootstrap ratings as `interval_tolerance`,
and the Rust test allows three times it, since on 5 datasets the bootstrap distribution is
discrete and its 2.5% and 97.5% quantiles sit on its jumps. The fitted ratings themselves are
compared within 1e-4 points. (A run takes about 10 minutes: 8000 logistic regressions.)
"""

import json
import math
import os

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression

RESAMPLES = 4000


def battles(rows, higher):
    """X, Y and weights of every battle (with one virtual tie per pair)."""
    n, k = rows.shape
    X, Y, W = [], [], []
    for a in range(k):
        for b in range(a + 1, k):
            x = np.zeros(k)
            x[a], x[b] = math.log(10), -math.log(10)
            wins_a = wins_b = 0.5  # the virtual tie
            for row in rows:
                better_a = row[a] > row[b] if higher else row[a] < row[b]
                better_b = row[b] > row[a] if higher else row[b] < row[a]
                wins_a += 1.0 if better_a else (0.5 if row[a] == row[b] else 0.0)
                wins_b += 1.0 if better_b else (0.5 if row[a] == row[b] else 0.0)
            X += [x, x]
            Y += [1, 0]
            W += [wins_a, wins_b]
    return np.array(X), np.array(Y), np.array(W)


def fit(rows, higher, reference):
    X, Y, W = battles(rows, higher)
    model = LogisticRegression(fit_intercept=False, penalty=None, tol=1e-12, max_iter=100000)
    model.fit(X, Y, sample_weight=W)
    ratings = 400 * model.coef_[0] + 1000
    return ratings - ratings[reference] + 1000


def case(name, rows, higher, reference, alpha=0.05):
    rows = np.array(rows, dtype=float)
    n = rows.shape[0]
    ratings = fit(rows, higher, reference)
    generator = np.random.default_rng(20261202)
    boot = np.array([fit(rows[generator.integers(0, n, size=n)], higher, reference) for _ in range(RESAMPLES)])
    low = np.quantile(boot, alpha / 2, axis=0)
    high = np.quantile(boot, 1 - alpha / 2, axis=0)
    tolerance = 0.25 * boot.std(axis=0)
    return {
        "name": name,
        "input": {"rows": rows.tolist(), "higher_is_better": higher, "reference": reference, "alpha": alpha},
        "expected": {
            "elo": ratings.tolist(),
            "elo_low": low.tolist(),
            "elo_high": high.tolist(),
            "interval_tolerance": tolerance.tolist(),
        },
    }


def main():
    generator = np.random.default_rng(3)
    random_rows = np.round(generator.uniform(0.6, 0.9, size=(10, 4)), 2)
    random_rows[:, 3] = np.round(random_rows[:, 3] + 0.05, 2)
    cases = [
        case(
            "auc, 5 datasets, one learner winning every battle, ties",
            [
                [0.5, 0.81, 0.78, 0.81],
                [0.5, 0.74, 0.80, 0.77],
                [0.5, 0.90, 0.90, 0.88],
                [0.5, 0.85, 0.83, 0.79],
                [0.5, 0.71, 0.75, 0.75],
            ],
            True,
            0,
        ),
        case("error, 10 random datasets x 4 learners", random_rows.tolist(), False, 1),
    ]
    source = (
        "crates/stats/tests/data/elo/elo_reference.py: scikit-learn "
        + sklearn.__version__
        + " LogisticRegression(fit_intercept=False, penalty=None), numpy "
        + np.__version__
        + ", "
        + str(RESAMPLES)
        + " bootstrap resamples"
    )
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "elo.json"), "w") as out:
        json.dump({"source": source, "cases": cases}, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
