"""Reference values for `stats::across_datasets::compare` (every across-data-set statistic of a
data sets x learners matrix), computed with outside libraries only:

  * ranks, Friedman chi-square (tie-corrected): scipy.stats.rankdata, friedmanchisquare;
  * Demsar's uncorrected chi-square and Iman-Davenport F: Demsar (2006) eqs., F tail scipy f.sf;
  * Nemenyi q: scipy studentized_range.ppf(1 - alpha, k, inf) / sqrt(2); pairwise p-values:
    scikit-posthocs posthoc_nemenyi_friedman;
  * Holm / Bonferroni-Dunn against the control: z = (R_j - R_c) / sqrt(k(k+1)/(6N)),
    p = 2 scipy norm.sf(|z|), corrected by statsmodels multipletests('holm' / 'bonferroni');
    Bonferroni-Dunn q = scipy norm.ppf(1 - alpha / (2 (k - 1)));
  * pairwise Wilcoxon over data sets: scipy wilcoxon(a, b, zero_method='wilcox',
    correction=False), exact: method='exact' without ties or zeros, else
    PermutationMethod(n_resamples > 2^N) (the exhaustive sign-flip enumeration); Holm over the
    pairs by statsmodels;
  * sign test: scipy binomtest(wins, wins + losses, 0.5); critical wins of N data sets: the
    smallest w with binomtest(w, N, 0.5).pvalue <= alpha;
  * Bayesian signed-rank: baycomp SignedRankTest.sample (prior 0.5, 50,000 samples; baycomp
    computes y - x, so it is called with x = the worse-oriented side), share of samples where
    each region is the largest (a Monte Carlo estimate: compared within Monte Carlo error).

"first better" means a larger value when higher is better, a smaller one when lower is better.

Run:  python3 across_datasets_reference.py > ../tests/data/across_datasets.json
Needs: numpy, scipy 1.17, statsmodels 0.15, scikit-posthocs 0.17, baycomp 1.0.3.
"""
import json
import sys

import baycomp
import numpy as np
import scikit_posthocs as sp
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.multitest import multipletests

# Demsar (2006), Table 6: AUC of C4.5 with and without m and cf tuning on 14 UCI data sets.
DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_AUC = [
    [0.763, 0.768, 0.771, 0.798],  # adult (sample)
    [0.599, 0.591, 0.590, 0.569],  # breast cancer
    [0.954, 0.971, 0.968, 0.967],  # breast cancer wisconsin
    [0.628, 0.661, 0.654, 0.657],  # cmc
    [0.882, 0.888, 0.886, 0.898],  # ionosphere
    [0.936, 0.931, 0.916, 0.931],  # iris
    [0.661, 0.668, 0.609, 0.685],  # liver disorders
    [0.583, 0.583, 0.563, 0.625],  # lung cancer
    [0.775, 0.838, 0.866, 0.875],  # lymphography
    [1.000, 1.000, 1.000, 1.000],  # mushroom
    [0.940, 0.962, 0.965, 0.962],  # primary tumor
    [0.619, 0.666, 0.614, 0.669],  # rheum
    [0.972, 0.981, 0.975, 0.975],  # voting
    [0.957, 0.978, 0.946, 0.970],  # wine
]


def wilcoxon_pvalue(a, b):
    d = a - b
    nonzero = d[d != 0]
    if len(nonzero) == 0:
        return 1.0, 0.0
    magnitudes = np.abs(nonzero)
    ties = len(np.unique(magnitudes)) < len(magnitudes)
    zeros = len(nonzero) < len(d)
    if ties or zeros:
        # scipy flips the signs of all n differences (zeros included): 2^n resamples or more make
        # the permutation distribution exhaustive (exact).
        method = stats.PermutationMethod(n_resamples=2 ** (len(d) + 1))
    else:
        method = "exact"
    result = stats.wilcoxon(a, b, zero_method="wilcox", correction=False, method=method)
    ranks = stats.rankdata(magnitudes)
    r_plus = float(ranks[nonzero > 0].sum())
    return float(result.pvalue), r_plus


def critical_wins(n, alpha):
    for wins in range((n + 1) // 2, n + 1):
        if stats.binomtest(wins, n, 0.5).pvalue <= alpha:
            return wins
    return None


def case(name, scores, learners, higher_is_better, control, alpha, rope):
    scores = np.asarray(scores, dtype=float)
    n, k = scores.shape
    goodness = scores if higher_is_better else -scores
    ranks = np.array([stats.rankdata(-row) for row in goodness])
    average = ranks.mean(axis=0)
    friedman = stats.friedmanchisquare(*goodness.T)
    chi2_uncorrected = 12 * n / (k * (k + 1)) * (np.sum(average ** 2) - k * (k + 1) ** 2 / 4)

    def iman_davenport(chi2):
        f = (n - 1) * chi2 / (n * (k - 1) - chi2)
        return f, stats.f.sf(f, k - 1, (k - 1) * (n - 1))

    f, f_p = iman_davenport(friedman.statistic)
    fu, fu_p = iman_davenport(chi2_uncorrected)
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    se = np.sqrt(k * (k + 1) / (6 * n))
    nemenyi = sp.posthoc_nemenyi_friedman(goodness).to_numpy()

    control_index = learners.index(control)
    others = [j for j in range(k) if j != control_index]
    z = [(average[j] - average[control_index]) / se for j in others]
    p = [2 * stats.norm.sf(abs(v)) for v in z]
    holm = multipletests(p, alpha=alpha, method="holm")
    bonferroni = multipletests(p, alpha=alpha, method="bonferroni")
    bonferroni_dunn_q = stats.norm.ppf(1 - alpha / (2 * (k - 1)))

    pairs = []
    wilcoxon_p = []
    for i in range(k):
        for j in range(i + 1, k):
            a, b = scores[:, i], scores[:, j]
            wins = int(np.sum(goodness[:, i] > goodness[:, j]))
            losses = int(np.sum(goodness[:, i] < goodness[:, j]))
            ties = n - wins - losses
            sign_p = 1.0 if wins + losses == 0 else stats.binomtest(wins, wins + losses, 0.5).pvalue
            w_p, r_plus = wilcoxon_pvalue(a, b)
            wilcoxon_p.append(w_p)
            x, y = (b, a) if higher_is_better else (a, b)
            sample = baycomp.SignedRankTest.sample(
                x, y, rope=rope, prior=0.5, nsamples=50000, random_state=11
            )
            winners = np.argmax(sample, axis=1)
            left, middle, right = np.bincount(winners, minlength=3) / len(winners)
            pairs.append({
                "first": learners[i],
                "second": learners[j],
                "mean_difference": float(a.mean() - b.mean()),
                "wins": wins,
                "ties": ties,
                "losses": losses,
                "sign_test_pvalue": float(sign_p),
                "wilcoxon_r_plus": r_plus,
                "wilcoxon_pvalue": w_p,
                "nemenyi_pvalue": float(nemenyi[i, j]),
                "bayesian_nsamples": 50000,
                "bayesian_left": float(left),
                "bayesian_rope": float(middle),
                "bayesian_right": float(right),
            })
    wilcoxon_holm = multipletests(wilcoxon_p, alpha=alpha, method="holm")
    for pair, corrected, reject in zip(pairs, wilcoxon_holm[1], wilcoxon_holm[0]):
        pair["wilcoxon_holm_pvalue"] = float(corrected)
        pair["wilcoxon_holm_reject"] = bool(reject)

    return {
        "name": name,
        "input": {
            "scores": scores.tolist(),
            "learners": learners,
            "higher_is_better": higher_is_better,
            "control": control,
            "alpha": alpha,
            "rope": rope,
        },
        "expected": {
            "ranks": ranks.tolist(),
            "average_ranks": average.tolist(),
            "means": scores.mean(axis=0).tolist(),
            "chi2": float(friedman.statistic),
            "chi2_pvalue": float(friedman.pvalue),
            "chi2_uncorrected": float(chi2_uncorrected),
            "chi2_uncorrected_pvalue": float(stats.chi2.sf(chi2_uncorrected, k - 1)),
            "iman_davenport_f": float(f),
            "iman_davenport_pvalue": float(f_p),
            "iman_davenport_f_uncorrected": float(fu),
            "iman_davenport_pvalue_uncorrected": float(fu_p),
            "nemenyi_q": float(q),
            "nemenyi_cd": float(q * se),
            "nemenyi_pvalues": nemenyi.tolist(),
            "standard_error": float(se),
            "control_others": [learners[j] for j in others],
            "control_z": [float(v) for v in z],
            "control_pvalues": [float(v) for v in p],
            "holm_pvalues": holm[1].tolist(),
            "holm_reject": holm[0].tolist(),
            "bonferroni_dunn_pvalues": bonferroni[1].tolist(),
            "bonferroni_dunn_reject": bonferroni[0].tolist(),
            "bonferroni_dunn_q": float(bonferroni_dunn_q),
            "bonferroni_dunn_cd": float(bonferroni_dunn_q * se),
            "sign_test_critical_wins": critical_wins(n, alpha),
            "pairs": pairs,
        },
    }


rng = np.random.RandomState(20261125)
cases = [
    case("demsar_table6_printed", DEMSAR_AUC, DEMSAR_NAMES, True, "C4.5", 0.05, 0.01),
    case("demsar_table6_printed_alpha_010", DEMSAR_AUC, DEMSAR_NAMES, True, "C4.5", 0.10, 0.0),
]
# Error rates (lower is better), rounded to two decimals so that ties and zero differences occur.
errors = np.round(rng.uniform(0.05, 0.35, size=(9, 5)) + np.array([0.0, 0.02, 0.04, 0.0, 0.08]), 2)
errors[3, 1] = errors[3, 0]
errors[5, :] = 0.2
cases.append(case("error_rates_9x5_ties", errors, ["a", "b", "c", "d", "e"], False, "c", 0.05, 0.01))
small = np.round(rng.uniform(0.6, 0.95, size=(6, 3)), 3)
cases.append(case("auc_6x3", small, ["mine", "knn", "naive_bayes"], True, "mine", 0.05, 0.02))
many = rng.uniform(0.7, 0.9, size=(30, 4)) + np.array([0.0, 0.01, 0.03, 0.0])
cases.append(case("auc_30x4", many, ["w", "x", "y", "z"], True, "w", 0.05, 0.005))

json.dump(
    {
        "source": "crates/stats/reference/across_datasets_reference.py: scipy %s, statsmodels %s, "
        "scikit-posthocs %s, baycomp 1.0.3, numpy %s" % (
            scipy.__version__, statsmodels.__version__, sp.__version__, np.__version__),
        "cases": cases,
    },
    sys.stdout,
    indent=1,
)
