"""Reference adjusted p-values for `stats::adjust` (read by tests/adjust_reference.rs).

Run:  /work/venv/bin/python adjust_reference.py > ../tests/data/adjust.json
Needs: numpy, scipy, statsmodels, scikit-posthocs; R (Rscript, base stats) for p.adjust.

Sources of each expected value, all computed here independently of the Rust code:
  * Holm, Hochberg, Hommel: statsmodels.stats.multitest.multipletests (methods "holm",
    "simes-hochberg", "hommel"), cross-checked against R's p.adjust ("holm", "hochberg",
    "hommel") to 1e-12 before they are written;
  * Finner: 1 - (1 - p_(i))^(m/i) with a running maximum (Finner 1993, as Garcia et al. 2010
    state it), in numpy;
  * Li: p_i / (p_i + 1 - p_(m)) (Li 2008, Garcia et al. 2010), in numpy;
  * Shaffer's static procedure: t_i = the largest number of pairwise hypotheses that can be
    true when i - 1 are false, found here by listing every set partition of the k learners
    (the true hypotheses are the pairs inside a group) and counting its pairs; adjusted
    p_(i) = max_{j<=i} min(1, t_j p_(j)) (Garcia & Herrera 2008, section 4);
  * Bergmann-Hommel: the exhaustive sets are the non-empty pair sets of the same set
    partitions; adjusted p_i = max over exhaustive sets I containing i of min(1, |I| min_I p),
    then a running maximum in the order of the raw p-values (Garcia & Herrera 2008, Figure 1
    and section 4; scmamp's adjustBergmannHommel applies the same monotonicity step).
Inputs: raw pairwise p-values of the Friedman z-test on average ranks (scikit-posthocs
posthoc_siegel_friedman) for the tables of Garcia & Herrera (2008, 30 x 5) and Garcia et al.
(2010, 24 x 4) (see published_tables.py), and seeded random p-values with ties, zeros and ones.
"""
import json
import subprocess
import sys
from itertools import combinations

import numpy as np
import scikit_posthocs
import statsmodels
from statsmodels.stats.multitest import multipletests

from published_tables import GH2008, GH2010


def set_partitions(items):
    """Every partition of the list `items` into non-empty groups (recursive)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first]] + partition
        for index in range(len(partition)):
            yield partition[:index] + [[first] + partition[index]] + partition[index + 1:]


def true_pair_sets(k):
    """Sets of pair indices that can be exactly the true hypotheses (non-empty)."""
    pairs = list(combinations(range(k), 2))
    index = {pair: i for i, pair in enumerate(pairs)}
    sets = set()
    for partition in set_partitions(list(range(k))):
        members = frozenset(index[tuple(sorted(p))] for group in partition
                            for p in combinations(group, 2))
        if members:
            sets.add(members)
    return sets


def finner(p):
    p = np.asarray(p, float)
    order = np.argsort(p, kind="stable")
    m = len(p)
    raw = np.array([1 - (1 - p[order[i]]) ** (m / (i + 1)) for i in range(m)])
    adjusted = np.minimum(np.maximum.accumulate(raw), 1)
    out = np.empty(m)
    out[order] = adjusted
    return out


def li(p):
    p = np.asarray(p, float)
    largest = p.max()
    return np.array([0.0 if v == 0 else min(largest, v / (v + (1 - largest))) for v in p])


def shaffer(p, k):
    p = np.asarray(p, float)
    m = len(p)
    counts = {len(s) for s in true_pair_sets(k)} | {0}
    order = np.argsort(p, kind="stable")
    raw = []
    for i in range(m):
        t = max(c for c in counts if c <= m - i)
        raw.append(min(1.0, t * p[order[i]]))
    adjusted = np.maximum.accumulate(raw)
    out = np.empty(m)
    out[order] = adjusted
    return out


def bergmann_hommel(p, k):
    p = np.asarray(p, float)
    m = len(p)
    sets = true_pair_sets(k)
    raw = np.zeros(m)
    for s in sets:
        value = min(1.0, len(s) * min(p[j] for j in s))
        for j in s:
            raw[j] = max(raw[j], value)
    order = np.argsort(p, kind="stable")
    adjusted = np.maximum.accumulate(raw[order])
    out = np.empty(m)
    out[order] = adjusted
    return out


def r_adjust(p, method):
    values = ",".join(repr(float(v)) for v in p)
    script = f'cat(sprintf("%.17g", p.adjust(c({values}), method="{method}")), sep="\\n")'
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True, check=True)
    return np.array([float(line) for line in out.stdout.split()])


def case(name, pvalues, k, alpha, note):
    p = np.asarray(pvalues, float)
    expected = {}
    for ours, statsmodels_name, r_name in [("holm", "holm", "holm"),
                                           ("hochberg", "simes-hochberg", "hochberg"),
                                           ("hommel", "hommel", "hommel")]:
        reject, adjusted, _, _ = multipletests(p, alpha=alpha, method=statsmodels_name)
        from_r = r_adjust(p, r_name)
        assert np.allclose(adjusted, from_r, rtol=1e-12, atol=1e-15), (name, ours, adjusted, from_r)
        expected[ours] = adjusted.tolist()
    expected["finner"] = finner(p).tolist()
    expected["li"] = li(p).tolist()
    if k is not None:
        expected["shaffer"] = shaffer(p, k).tolist()
        expected["bergmann_hommel"] = bergmann_hommel(p, k).tolist()
    return {"name": name, "note": note,
            "input": {"pvalues": p.tolist(), "k": k, "alpha": alpha},
            "expected": expected}


def friedman_pairwise(table):
    scores = np.array([row for _, row in table])
    matrix = scikit_posthocs.posthoc_siegel_friedman(scores).to_numpy()
    k = scores.shape[1]
    return [float(matrix[a, b]) for a, b in combinations(range(k), 2)], k


if __name__ == "__main__":
    rng = np.random.RandomState(20261130)
    cases = []
    p, k = friedman_pairwise(GH2008)
    cases.append(case("garcia_herrera_2008_friedman_z", p, k, 0.05,
                      "30 x 5 accuracies of Garcia & Herrera (2008): all 10 pairs"))
    p, k = friedman_pairwise(GH2010)
    cases.append(case("garcia_2010_friedman_z", p, k, 0.10,
                      "24 x 4 accuracies of Garcia et al. (2010), alpha 0.10"))
    for k in (2, 3, 6, 9):
        m = k * (k - 1) // 2
        p = np.round(rng.beta(0.4, 1.5, size=m), 4)
        cases.append(case(f"random_k{k}", p, k, 0.05, f"{m} random pairwise p-values"))
    p = [0.01, 0.01, 0.04, 0.04, 0.2, 0.0]
    cases.append(case("ties_and_zero_k4", p, 4, 0.05, "tied p-values and a zero"))
    p = [0.002, 0.03, 1.0]
    cases.append(case("largest_is_one_k3", p, 3, 0.05, "largest p-value 1 (Li's worst case)"))
    cases.append(case("single_test", [0.03], None, 0.05, "m = 1: every adjustment is the identity"))

    json.dump({
        "source": "crates/stats/reference/adjust_reference.py; python "
                  f"{sys.version.split()[0]}, numpy {np.__version__}, statsmodels "
                  f"{statsmodels.__version__}, scikit-posthocs {scikit_posthocs.__version__}, R p.adjust",
        "cases": cases,
    }, sys.stdout, indent=1)
    sys.stdout.write("\n")
