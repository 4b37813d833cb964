"""Reference vectors for `stats::sequential` (issue 44), from implementations independent of
the Rust code:

* `noncentral_t.json`: scipy.stats.nct.pdf (Boost's noncentral t) at a grid of (t, df, ncp),
  with the density's series summed by mpmath at 80 digits beside it (scipy's is off by up
  to 1e-8 relative at a few points, which the test's tolerance against it allows);
* `safe_t.json`: the two-sided safe t-test e-value of safestats' `safeTTestStat`
  (`parameter = delta_min`, two-sided), evaluated from the issue's formula
  e = [f(t; n-1, sqrt(n) d) + f(t; n-1, -sqrt(n) d)] / (2 f(t; n-1, 0)) with scipy's nct.pdf and
  t.pdf on every prefix of seeded difference vectors (safestats is R-only and R is not
  available here), and with mpmath's hyp1f1 form exp(-ncp^2/2) 1F1(n/2; 1/2; z) beside it;
* `confidence_sequence.json`: the polynomial stitched boundary of PyPI `confseq` 0.0.11
  (`confseq.boundaries.poly_stitching_bound`, Howard et al.'s own C++), and the
  empirical-Bernstein confidence sequence of Howard et al. 2021 Theorem 4 assembled here in
  numpy around it (running mean as the predictable estimate, alpha / 2 per side);
* `decisions.json`: the decision on a pair, by a re-implementation of the stopping rule in
  Python on top of the values above.

Rerun (the confseq wheel builds from source: it needs Boost's headers, a C++ compiler, and,
on Python 3.11, a recent pybind11 instead of the pinned one):

    apt-get install libboost-dev
    python3 -m venv /tmp/venv-seq
    /tmp/venv-seq/bin/pip install numpy==2.4.6 scipy==1.17.1 mpmath==1.4.1 \
        pybind11 scikit-build cmake ninja wheel
    PATH=/tmp/venv-seq/bin:$PATH /tmp/venv-seq/bin/pip install --no-build-isolation confseq==0.0.11
    cd crates/stats/tests/data/sequential && /tmp/venv-seq/bin/python generate.py
"""
import json
import math

import mpmath as mp
import numpy as np
from confseq import boundaries
from scipy import stats

mp.mp.dps = 30


def write(name, source, cases):
    with open(f"{name}.json", "w") as handle:
        json.dump({"source": source, "cases": cases}, handle, indent=1)
        handle.write("\n")


def f17(x):
    return float(f"{x:.17g}")


def nct_series(t, df, ncp):
    """The density's series (Johnson, Kotz & Balakrishnan eq. 31.15) at 80 digits, where the
    alternating case (ncp t < 0) loses nothing to cancellation:
    f(t) = f(t; df, 0) exp(-ncp^2/2) sum_j Gamma((df+j+1)/2) / Gamma((df+1)/2) x^j / j!,
    x = ncp t sqrt(2 / (df + t^2))."""
    with mp.workdps(80):
        t, df, ncp = mp.mpf(t), mp.mpf(df), mp.mpf(ncp)
        x = ncp * t * mp.sqrt(2 / (df + t * t))
        central = (mp.gamma((df + 1) / 2) / (mp.sqrt(df * mp.pi) * mp.gamma(df / 2))
                   * (1 + t * t / df) ** (-(df + 1) / 2))
        terms = mp.nsum(lambda j: mp.exp(mp.loggamma((df + j + 1) / 2)
                                         - mp.loggamma((df + 1) / 2) - mp.loggamma(j + 1))
                        * x ** j, [0, mp.inf])
        return central * mp.exp(-ncp * ncp / 2) * terms


def noncentral_t_cases():
    cases = []
    for df in [1, 4, 9, 29, 99]:
        for ncp in [-5.5, -2.0, 0.0, 0.5, 3.0, 7.0]:
            for t in [-8.0, -3.0, -0.5, 0.0, 0.7, 2.5, 6.0, 15.0]:
                scipy_value = float(stats.nct.pdf(t, df, ncp))
                mpmath_value = float(nct_series(t, df, ncp))
                cases.append({
                    "name": f"t={t} df={df} ncp={ncp}",
                    "input": {"t": t, "df": df, "ncp": ncp},
                    "expected": {"pdf": f17(scipy_value), "pdf_mpmath": f17(mpmath_value)},
                })
    # where scipy's nct.pdf gives NaN (df > ~150, t far opposite ncp): mpmath only (null)
    for t, df, ncp in [(2.9, 160, -3.8), (3.0, 199, -7.07), (3.5, 299, -17.3), (-4.0, 250, 6.0)]:
        scipy_value = float(stats.nct.pdf(t, df, ncp))
        cases.append({
            "name": f"t={t} df={df} ncp={ncp}",
            "input": {"t": t, "df": df, "ncp": ncp},
            "expected": {"pdf": None if math.isnan(scipy_value) else f17(scipy_value),
                         "pdf_mpmath": f17(float(nct_series(t, df, ncp)))},
        })
    return cases


def safe_t_scipy(t, n, delta):
    """None where scipy's nct.pdf gives NaN (far in the tail opposite the noncentrality, for
    df above about 150: a limitation of Boost's noncentral t); mpmath's value stands there."""
    df, ncp = n - 1, math.sqrt(n) * delta
    top = stats.nct.pdf(t, df, ncp) + stats.nct.pdf(t, df, -ncp)
    e = float(top / (2 * stats.t.pdf(t, df)))
    return None if math.isnan(e) else e


def safe_t_mpmath(t, n, delta):
    df, ncp2 = mp.mpf(n - 1), mp.mpf(n) * mp.mpf(delta) ** 2
    t = mp.mpf(t)
    z = ncp2 * t * t / (2 * (df + t * t))
    return mp.exp(-ncp2 / 2) * mp.hyp1f1((df + 1) / 2, mp.mpf(1) / 2, z)


def t_statistic(d):
    d = np.asarray(d)
    return float(d.mean() / (d.std(ddof=1) / math.sqrt(len(d))))


def difference_vectors():
    rng = np.random.default_rng(44)
    return {
        "normal_null": rng.normal(0.0, 0.01, 30),
        "normal_shift": rng.normal(0.004, 0.01, 30),
        "normal_far": rng.normal(-0.02, 0.01, 30),
        "t3_shift": 0.003 + 0.01 * rng.standard_t(3, 30),
        # n up to 300: z = n delta^2 t^2 / (2 (n - 1 + t^2)) up to about 600
        "normal_long": np.random.default_rng(4403).normal(0.002, 0.01, 300),
    }


def safe_t_cases():
    cases = []
    for name, d in difference_vectors().items():
        for delta in [0.3, 0.5, 1.0, 2.0]:
            expected, exact, ts = [], [], []
            for n in range(2, len(d) + 1):
                t = t_statistic(d[:n])
                ts.append(f17(t))
                scipy_value = safe_t_scipy(t, n, delta)
                expected.append(None if scipy_value is None else f17(scipy_value))
                exact.append(f17(float(mp.log(safe_t_mpmath(t, n, delta)))))
            cases.append({
                "name": f"{name} delta_min={delta}",
                "input": {"differences": [f17(x) for x in d], "delta_min": delta},
                "expected": {"t": ts, "e_values": expected, "log_e_values_mpmath": exact},
                "note": "e_values[i] is the e-value of the first i + 2 differences; null where "
                        "scipy's nct.pdf returns NaN",
            })
    return cases


def eb_sequence(x, alpha, low, high, v_min):
    x = np.asarray(x, dtype=float)
    t = np.arange(1, len(x) + 1)
    means = np.cumsum(x) / t
    predicted = np.concatenate([[(low + high) / 2], means[:-1]])
    v = np.cumsum((x - predicted) ** 2)
    radius = np.array([boundaries.poly_stitching_bound(vi, alpha / 2, v_min, high - low)
                       for vi in v]) / t
    return means - radius, means + radius


def bounded_vectors():
    rng = np.random.default_rng(4401)
    return {
        "small_spread": np.clip(rng.normal(0.01, 0.01, 40), -1, 1),
        "wide_spread": np.clip(rng.normal(-0.2, 0.3, 40), -1, 1),
        "bernoulli_like": rng.choice([-1.0, 1.0], 60, p=[0.2, 0.8]),
    }


def confidence_sequence_cases():
    cases = []
    for v, alpha, v_min, c in [(1e-3, 0.05, 1e-4, 2.0), (0.5, 0.025, 1e-4, 2.0),
                               (50.0, 0.01, 1.0, 1.0), (1e-6, 0.05, 1e-4, 2.0),
                               (3.0, 0.1, 0.01, 0.0)]:
        cases.append({
            "name": f"bound v={v} alpha={alpha} v_min={v_min} c={c}",
            "input": {"v": v, "alpha": alpha, "v_min": v_min, "c": c},
            "expected": {"bound": f17(float(boundaries.poly_stitching_bound(v, alpha, v_min, c)))},
        })
    for name, x in bounded_vectors().items():
        for alpha, v_min in [(0.05, 1e-4), (0.1, 0.01)]:
            lower, upper = eb_sequence(x, alpha, -1.0, 1.0, v_min)
            cases.append({
                "name": f"sequence {name} alpha={alpha} v_min={v_min}",
                "input": {"values": [f17(v) for v in x], "alpha": alpha, "v_min": v_min,
                          "low": -1.0, "high": 1.0},
                "expected": {"lower": [f17(v) for v in lower], "upper": [f17(v) for v in upper]},
            })
    return cases


def decide(d, rule, alpha, minimum, maximum, delta=None, rope=0.0, v_min=1e-4):
    d = np.asarray(d[:maximum], dtype=float)
    if rule == "confidence_sequence":
        lower, upper = eb_sequence(d, alpha, -1.0, 1.0, v_min)
        lo, hi = -math.inf, math.inf
    for n in range(1, len(d) + 1):
        if rule == "e_value":
            if n < 2 or n < minimum:
                continue
            e = safe_t_scipy(t_statistic(d[:n]), n, delta)
            if e >= 1 / alpha:
                return ("a_better" if d[:n].mean() > 0 else "b_better"), n, e
        else:
            lo, hi = max(lo, lower[n - 1]), min(hi, upper[n - 1])
            if n < minimum:
                continue
            if lo > rope:
                return "a_better", n, None
            if hi < -rope:
                return "b_better", n, None
            if rope > 0 and lo >= -rope and hi <= rope:
                return "equivalent", n, None
    last = safe_t_scipy(t_statistic(d), len(d), delta) if rule == "e_value" else None
    return "undecided", len(d), last


def decision_cases():
    rng = np.random.default_rng(4402)
    vectors = {
        "a_far_better": rng.normal(0.03, 0.01, 30),
        "b_far_better": rng.normal(-0.05, 0.01, 30),
        "close": rng.normal(0.0005, 0.01, 30),
        "equal_wide": rng.uniform(-0.9, 0.9, 400) * 0.05,
        "cs_far": np.clip(rng.normal(0.45, 0.1, 200), -1, 1),
        "cs_equal": rng.normal(0.0, 0.002, 1000),
    }
    settings = [
        {"rule": "e_value", "alpha": 0.05, "min_repetitions": 3, "max_repetitions": 30,
         "delta_min": 1.0},
        {"rule": "e_value", "alpha": 0.01, "min_repetitions": 10, "max_repetitions": 20,
         "delta_min": 0.5},
        {"rule": "confidence_sequence", "alpha": 0.05, "min_repetitions": 2,
         "max_repetitions": 2000, "rope": 0.05, "v_min": 1e-4},
        {"rule": "confidence_sequence", "alpha": 0.05, "min_repetitions": 2,
         "max_repetitions": 2000, "rope": 0.0, "v_min": 1e-4},
    ]
    cases = []
    for name, d in vectors.items():
        for s in settings:
            decision, n, e = decide(d, s["rule"], s["alpha"], s["min_repetitions"],
                                    s["max_repetitions"], s.get("delta_min"),
                                    s.get("rope", 0.0), s.get("v_min", 1e-4))
            cases.append({
                "name": f"{name} {s['rule']} alpha={s['alpha']} rope={s.get('rope')}",
                "input": {"differences": [f17(v) for v in d], **s},
                "expected": {"decision": decision, "repetitions": n,
                             "e_value": None if e is None else f17(e)},
            })
    return cases


if __name__ == "__main__":
    versions = (f"scipy {__import__('scipy').__version__}, numpy {np.__version__}, "
                f"mpmath {mp.__version__}, confseq 0.0.11")
    write("noncentral_t", f"scipy.stats.nct.pdf; mpmath series of the density at 80 digits ({versions})",
          noncentral_t_cases())
    write("safe_t", f"issue 44 formula with scipy.stats.nct.pdf / t.pdf; mpmath hyp1f1 ({versions})",
          safe_t_cases())
    write("confidence_sequence", f"confseq.boundaries.poly_stitching_bound; Howard et al. "
          f"2021 Theorem 4 in numpy ({versions})", confidence_sequence_cases())
    write("decisions", f"the stopping rule re-implemented in Python ({versions})",
          decision_cases())
