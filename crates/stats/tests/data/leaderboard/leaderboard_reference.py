"""Reference vectors of the leaderboard (crates/stats/src/across/leaderboard.rs), computed
independently with numpy and scipy.

Rerun from the repository's root (numpy and scipy installed):

    python3 crates/stats/tests/data/leaderboard/leaderboard_reference.py

It writes leaderboard.json beside itself. Per case: the learners' mean ranks
(scipy.stats.rankdata, ties averaged, on the datasets where every learner has a value),
wins/ties/losses against the control, the means, AMLB's normalised score (Gijsbers et al.
2024: (x - anchor0) / (anchor1 - anchor0) per dataset, datasets with equal anchors left out,
averaged), the win-rate matrix (ties one half), and the bootstrap percentile interval of each
mean from numpy's own 400000 resamples of the datasets. The bootstrap is Monte Carlo on both
sides (different generators): each case carries the tolerance the Rust test compares the
interval within, a tenth of the standard deviation of the bootstrap means (the Rust test draws
20000 resamples, whose 2.5% quantile has a standard error of about 0.02 of it).
"""

import json
import os

import numpy as np
from scipy.stats import rankdata

RESAMPLES = 400_000


def complete(means):
    return np.array([row for row in means if all(v is not None for v in row)], dtype=float)


def case(name, learners, means, higher, control, anchors, alpha=0.05):
    rows = complete(means)
    n, k = rows.shape
    oriented = -rows if higher else rows
    ranks = np.array([rankdata(row) for row in oriented])
    better = (rows[:, :, None] > rows[:, None, :]) if higher else (rows[:, :, None] < rows[:, None, :])
    equal = rows[:, :, None] == rows[:, None, :]
    win_rate = (better.sum(axis=0) + 0.5 * equal.sum(axis=0)) / n
    generator = np.random.default_rng(20261202)
    picks = generator.integers(0, n, size=(RESAMPLES, n))
    boot = rows[picks].mean(axis=1)  # resamples x learners
    low = np.quantile(boot, alpha / 2, axis=0)
    high = np.quantile(boot, 1 - alpha / 2, axis=0)
    tolerance = 0.1 * boot.std(axis=0)
    expected = []
    for l in range(k):
        entry = {
            "learner": learners[l],
            "mean_rank": float(ranks[:, l].mean()),
            "mean": float(rows[:, l].mean()),
            "mean_low": float(low[l]),
            "mean_high": float(high[l]),
            "interval_tolerance": float(tolerance[l]),
            "wins": None if l == control else int(better[:, l, control].sum()),
            "ties": None if l == control else int(equal[:, l, control].sum()),
            "losses": None if l == control else int(n - better[:, l, control].sum() - equal[:, l, control].sum()),
            "normalised": None,
        }
        if anchors is not None:
            a0, a1 = anchors
            keep = rows[:, a1] != rows[:, a0]
            if keep.any():
                scores = (rows[keep, l] - rows[keep, a0]) / (rows[keep, a1] - rows[keep, a0])
                entry["normalised"] = float(scores.mean())
        expected.append(entry)
    rates = [[None if a == b else float(win_rate[a, b]) for b in range(k)] for a in range(k)]
    return {
        "name": name,
        "input": {
            "learners": learners,
            "means": means,
            "higher_is_better": higher,
            "control": control,
            "anchors": anchors,
            "alpha": alpha,
        },
        "expected": {
            "complete_datasets": int(n),
            "rows": expected,
            "win_rates": rates,
        },
    }


def random_case():
    generator = np.random.default_rng(7)
    values = np.round(generator.uniform(0.6, 0.95, size=(12, 5)), 2)  # rounded: ties
    values[:, 0] = np.round(values[:, 0] - 0.1, 2)  # a weak "constant" learner
    return [[float(v) for v in row] for row in values]


def main():
    cases = [
        case(
            "auc, higher is better, ties, one incomplete dataset, anchors constant and c45",
            ["constant", "nb", "c45", "knn"],
            [
                [0.5, 0.81, 0.78, 0.81],
                [0.5, 0.74, 0.80, 0.77],
                [0.5, 0.90, 0.90, 0.88],
                [0.5, 0.66, None, 0.70],
                [0.5, 0.85, 0.83, 0.79],
                [0.5, 0.71, 0.75, 0.75],
            ],
            True,
            1,
            [0, 2],
        ),
        case(
            "error, lower is better, anchors equal on one dataset",
            ["a", "b", "c"],
            [
                [0.20, 0.15, 0.30],
                [0.10, 0.12, 0.10],
                [0.25, 0.25, 0.40],
                [0.05, 0.09, 0.11],
            ],
            False,
            0,
            [2, 0],
        ),
        case(
            "12 random datasets x 5 learners, rounded to ties, control the last",
            ["constant", "l1", "l2", "l3", "l4"],
            random_case(),
            True,
            4,
            [0, 3],
            alpha=0.1,
        ),
    ]
    source = (
        "crates/stats/tests/data/leaderboard/leaderboard_reference.py: numpy "
        + np.__version__
        + ", scipy.stats.rankdata; bootstrap from numpy's default_rng, "
        + str(RESAMPLES)
        + " resamples, numpy.quantile (linear)"
    )
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "leaderboard.json"), "w") as out:
        json.dump({"source": source, "cases": cases}, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
