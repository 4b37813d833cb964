"""Reference values for the Skillings-Mack test (`stats::skillings_mack`; read by
tests/skillings_mack_reference.rs).

Run:  /work/venv/bin/python skillings_mack_reference.py > ../tests/data/skillings_mack.json
Needs: numpy, scipy.

Sources, independent of the Rust code:
  * skillings_mack_r_values.json beside this file: the statistic, df and p-value of R's
    Skillings.Mack package (CRAN) on 11 tables, frozen by autorank's pull request #49
    (tests/sm_ref_data.json of github.com/sherbold/autorank, commit bfadba9; MIT licence;
    rows there are learners, columns data sets, null = missing). Its first table
    ("docs_example") is the example of the R package's help page;
  * an independent numpy implementation written here from Skillings & Mack (1981): within-block
    midranks standardised by sqrt(12/(s+1)) (r - (s+1)/2), missing = 0; Sigma = the Laplacian
    of the co-occurrence counts; SM = w' pinv(Sigma) w (numpy.linalg.pinv), df =
    numpy.linalg.matrix_rank(Sigma), p from scipy.stats.chi2.sf. It must agree with R's values
    to 1e-9 before anything is written; blocks with fewer than two values are left out (R
    refuses them) and listed;
  * on complete tables without ties SM equals scipy.stats.friedmanchisquare.
Tables are written data sets x learners (the crate's orientation), null = missing.
"""
import json
import sys

import numpy as np
import scipy
from scipy import stats


def skillings_mack(table):
    """table: data sets x learners with NaN for missing."""
    y = np.asarray(table, float)
    n, k = y.shape
    totals = np.zeros(k)
    together = np.zeros((k, k))
    skipped = []
    for i in range(n):
        present = np.flatnonzero(~np.isnan(y[i]))
        s = len(present)
        if s < 2:
            skipped.append(i)
            continue
        ranks = stats.rankdata(y[i, present])
        totals[present] += np.sqrt(12 / (s + 1)) * (ranks - (s + 1) / 2)
        for a in present:
            for b in present:
                if a != b:
                    together[a, b] += 1
    sigma = np.diag(together.sum(axis=1)) - together
    statistic = float(totals @ np.linalg.pinv(sigma) @ totals)
    df = int(np.linalg.matrix_rank(sigma))
    p = float(stats.chi2.sf(statistic, df)) if df > 0 else 1.0
    return {"statistic": statistic, "df": df, "pvalue": p, "skipped_datasets": skipped,
            "adjusted_rank_sums": totals.tolist()}


def as_json_table(y):
    return [[None if np.isnan(v) else float(v) for v in row] for row in np.asarray(y, float)]


if __name__ == "__main__":
    cases = []
    for record in json.load(open("skillings_mack_r_values.json")):
        table = np.array([[np.nan if v is None else v for v in row] for row in record["data"]]).T
        ours = skillings_mack(table)
        assert ours["df"] == record["df"], record["name"]
        assert abs(ours["statistic"] - record["statistic"]) <= 1e-9 * max(1, record["statistic"])
        assert abs(ours["pvalue"] - record["pvalue"]) <= 1e-9 * record["pvalue"] + 1e-12
        cases.append({"name": "r_" + record["name"],
                      "note": "R Skillings.Mack value (frozen by autorank PR #49); numpy agrees",
                      "input": {"table": as_json_table(table)},
                      "expected": {**ours, "statistic": record["statistic"],
                                   "pvalue": record["pvalue"]}})

    rng = np.random.RandomState(20261203)
    complete = rng.rand(9, 4)
    ours = skillings_mack(complete)
    friedman = stats.friedmanchisquare(*complete.T)
    assert abs(ours["statistic"] - friedman.statistic) < 1e-10
    cases.append({"name": "complete_equals_friedman", "note": "scipy friedmanchisquare",
                  "input": {"table": as_json_table(complete)},
                  "expected": {**ours, "statistic": float(friedman.statistic),
                               "pvalue": float(friedman.pvalue)}})
    one_value = rng.rand(8, 5)
    one_value[rng.rand(8, 5) < 0.25] = np.nan
    one_value[2, :] = np.nan
    one_value[2, 3] = 0.5
    cases.append({"name": "a_data_set_with_one_value", "note": "row 2 is left out",
                  "input": {"table": as_json_table(one_value)}, "expected": skillings_mack(one_value)})
    disconnected = np.full((6, 4), np.nan)
    disconnected[:3, :2] = rng.rand(3, 2)
    disconnected[3:, 2:] = rng.rand(3, 2)
    cases.append({"name": "two_disconnected_groups", "note": "learners {0,1} and {2,3}: df = 2",
                  "input": {"table": as_json_table(disconnected)},
                  "expected": skillings_mack(disconnected)})

    json.dump({
        "source": "crates/stats/reference/skillings_mack_reference.py; python "
                  f"{sys.version.split()[0]}, numpy {np.__version__}, scipy {scipy.__version__}; "
                  "R Skillings.Mack values frozen by autorank PR #49",
        "cases": cases,
    }, sys.stdout, indent=1)
    sys.stdout.write("\n")
