"""Reference values for autorank's automatic analysis (`stats::autorank`, `stats::normality`,
`stats::anova`, `stats::effect_size`; read by tests/autorank_reference.rs).

Run:  /work/venv/bin/python autorank_reference.py > ../tests/data/autorank.json
Needs: numpy, pandas, scipy, statsmodels, autorank 1.3.0.

Sources, independent of the Rust code:
  * the whole analysis: autorank.autorank(data, alpha, order) (PyPI autorank 1.3.0): its
    decisions (all_normal, homoscedastic, omnibus, posthoc), p-values (omnibus, homogeneity),
    Nemenyi CD (statsmodels qsturng: an interpolated table, within ~1e-3 of the exact value)
    and its result table (mean rank, mean or median, SD or MAD, confidence interval, effect
    size against autorank's first row and its magnitude), keyed by learner name;
  * Shapiro-Wilk per learner in input order: scipy.stats.shapiro; Bartlett and Levene:
    scipy.stats.bartlett / levene; repeated-measures ANOVA: statsmodels AnovaRM; Tukey's HSD:
    scipy.stats.tukey_hsd p-values (exact studentized range), the critical q from
    scipy.stats.studentized_range.ppf, and statsmodels' MultiComparison.tukeyhsd half-widths
    (qsturng, ~1e-3);
  * effect sizes of every ordered pair: autorank._util._cohen_d, _akinshin_gamma,
    _cliffs_delta on the raw values and _effect_level for the magnitude (the Rust side orients
    values so that larger is better: for lower-is-better tables its values are the negated
    raw ones, which the test applies).
"""
import json
import sys
import warnings
from itertools import combinations

import numpy as np
import pandas as pd
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.anova import AnovaRM
from statsmodels.stats.multicomp import MultiComparison

import autorank as autorank_package
from autorank import autorank
from autorank._util import _akinshin_gamma, _cliffs_delta, _cohen_d, _effect_level

from published_tables import GH2008

warnings.filterwarnings("ignore")
OUT, sys.stdout = sys.stdout, sys.stderr  # autorank prints its result table


def components(frame, alpha):
    columns = [frame[c].to_numpy() for c in frame.columns]
    k = len(columns)
    stacked = frame.stack().reset_index()
    stacked.columns = ["id", "treatment", "result"]
    anova = AnovaRM(stacked, "result", "id", within=["treatment"]).fit().anova_table
    tukey_exact = stats.tukey_hsd(*columns).pvalue
    mc = MultiComparison(stacked["result"], stacked["treatment"]).tukeyhsd(alpha=alpha)
    mc.plot_simultaneous()
    df = k * (len(frame) - 1)
    effects = {}
    for name, function in [("cohen_d", _cohen_d), ("akinshin_gamma", _akinshin_gamma),
                           ("cliff_delta", _cliffs_delta)]:
        values = [[float(function(frame.iloc[:, i], frame.iloc[:, j])) for j in range(k)]
                  for i in range(k)]
        effects[name] = {"values": values,
                         "magnitudes": [[_effect_level(v, name) for v in row] for row in values]}
    return {
        "shapiro": [list(map(float, stats.shapiro(c))) for c in columns],
        "bartlett": list(map(float, stats.bartlett(*columns))),
        "levene": list(map(float, stats.levene(*columns))),
        "anova": {"statistic": float(anova["F Value"].iat[0]),
                  "df": [float(anova["Num DF"].iat[0]), float(anova["Den DF"].iat[0])],
                  "pvalue": float(anova["Pr > F"].iat[0])},
        "tukey": {"pvalues": [float(tukey_exact[i, j]) for i, j in combinations(range(k), 2)],
                  "q_critical": float(stats.studentized_range.ppf(1 - alpha, k, df)),
                  "half_widths_statsmodels": np.ravel(mc.halfwidths).astype(float).tolist()},
        "effect_sizes": effects,
    }


def analysis(frame, alpha, order):
    result = autorank(frame, alpha=alpha, order=order, verbose=False)
    table = result.rankdf
    rows = {}
    for name in table.index:
        row = table.loc[name]
        parametric = "mean" in table.columns
        rows[name] = {
            "mean_rank": float(row["meanrank"]),
            "center": float(row["mean"] if parametric else row["median"]),
            "spread": float(row["std"] if parametric else row["mad"]),
            "interval": [float(row["ci_lower"]), float(row["ci_upper"])],
            "effect_size_vs_first": float(row["effect_size"]),
            "magnitude_vs_first": row["magnitude"],
        }
    return {
        "all_normal": bool(result.all_normal),
        "homoscedastic": bool(result.homoscedastic),
        "homogeneity_test": result.homogeneity_test,
        "homogeneity_pvalue": float(result.pval_homogeneity),
        "omnibus": result.omnibus, "posthoc": result.posthoc,
        "pvalue": float(result.pvalue),
        "cd": None if result.cd is None else float(result.cd),
        "effect_size": result.effect_size,
        "first_row": table.index[0],
        "rows": rows,
    }


def case(name, values, learners, alpha, order, note):
    frame = pd.DataFrame(np.asarray(values, float), columns=learners)
    return {"name": name, "note": note,
            "input": {"scores": frame.to_numpy().tolist(), "learners": learners,
                      "alpha": alpha, "higher_is_better": order == "descending"},
            "expected": {"components": components(frame, alpha),
                         "autorank": analysis(frame, alpha, order)}}


rng = np.random.RandomState(20261206)
cases = [
    case("normal_homoscedastic_20x4",
         0.6 + 0.05 * rng.randn(20, 4) + [0, 0.02, 0.04, 0.06], list("ABCD"), 0.05,
         "descending", "ANOVA + Tukey HSD"),
    case("skewed_15x5", rng.exponential(1.0, size=(15, 5)) + [0, 0.3, 0.6, 0.9, 1.2],
         ["e1", "e2", "e3", "e4", "e5"], 0.05, "descending", "Friedman + Nemenyi"),
    case("normal_heteroscedastic_25x3",
         0.5 + rng.randn(25, 3) * [0.01, 0.05, 0.2], ["narrow", "middle", "wide"], 0.05,
         "descending", "Bartlett rejects: Friedman + Nemenyi with means"),
    case("two_normal_12", 0.7 + 0.03 * rng.randn(12, 2) + [0, 0.02], ["x", "y"], 0.05,
         "descending", "paired t-test"),
    case("two_skewed_30", rng.exponential(1.0, size=(30, 2)) + [0, 0.4], ["p", "q"], 0.05,
         "descending", "one-sided Wilcoxon (no ties)"),
    case("garcia_herrera_2008", [row for _, row in GH2008],
         ["C4.5", "1-NN", "NaiveBayes", "Kernel", "CN2"], 0.05, "descending",
         "30 x 5 published accuracies"),
    case("errors_lower_better_18x4", 0.2 + 0.04 * rng.randn(18, 4) - [0, 0.01, 0.03, 0.05],
         ["w", "x", "y", "z"], 0.10, "ascending", "lower is better, alpha 0.10"),
]

json.dump({"source": "crates/stats/reference/autorank_reference.py; python "
                     f"{sys.version.split()[0]}, numpy {np.__version__}, pandas {pd.__version__}, "
                     f"scipy {scipy.__version__}, statsmodels {statsmodels.__version__}, autorank "
                     "1.3.0",
           "cases": cases}, OUT, indent=1)
OUT.write("\n")
