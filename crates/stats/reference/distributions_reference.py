"""High-precision reference values for the `stats` crate's distribution functions.

Everything is computed with mpmath at 40 significant digits (binomial tails as exact
rationals), independently of scipy, and rounded to the nearest double.

Run:  python3 distributions_reference.py > ../tests/data/distributions.json   (about a minute)
"""
import json
import sys
from fractions import Fraction
from math import comb

import mpmath as mp

mp.mp.dps = 40


def f(x):
    return float(x)


erfc = [[x, f(mp.erfc(mp.mpf(x)))] for x in [0.001, 0.3, 0.7, 0.99, 1.0, 1.3, 2.0, 3.5, 5.0, 8.0, 12.0, 20.0, 26.0]]
def normal_quantile_of(p):
    with mp.workdps(420):  # enough digits that 2p - 1 keeps p = 1e-300
        return f(mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1))


normal_quantile = [[p, normal_quantile_of(p)] for p in [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.025, 0.3, 0.5, 0.7, 0.975, 0.999]]


def t_two_sided(t, df):
    t = mp.mpf(t); df = mp.mpf(df)
    return mp.betainc(df / 2, mp.mpf(1) / 2, 0, df / (df + t * t), regularized=True)


t_pvalues = [[t, df, f(t_two_sided(t, df))] for t, df in
             [(0.1, 3), (1.0, 1), (2.0, 9), (3.5, 29), (10.0, 5), (57.0, 11), (200.0, 2), (8.0, 99), (0.5, 1000)]]


def t_upper_quantile(tail, df):
    return mp.findroot(lambda t: t_two_sided(t, df) / 2 - tail, (mp.mpf(0.01), mp.mpf(1e4)), solver="bisect", tol=mp.mpf(10) ** -30)


t_quantiles = [[tail, df, f(t_upper_quantile(mp.mpf(tail), df))] for tail, df in
               [(0.025, 1), (0.025, 4), (0.005, 9), (0.0005, 29), (0.025, 1000), (0.1, 2)]]

chi2_sf = [[x, df, f(mp.gammainc(mp.mpf(df) / 2, mp.mpf(x) / 2, mp.inf, regularized=True))] for x, df in
           [(0.5, 1), (3.84, 1), (10.0, 3), (50.0, 2), (100.0, 9), (300.0, 29), (0.01, 5)]]


def f_sf(x, d1, d2):
    x = mp.mpf(x); d1 = mp.mpf(d1); d2 = mp.mpf(d2)
    return mp.betainc(d2 / 2, d1 / 2, 0, d2 / (d2 + d1 * x), regularized=True)


f_sf_values = [[x, d1, d2, f(f_sf(x, d1, d2))] for x, d1, d2 in
               [(0.5, 3, 27), (4.5, 3, 27), (2.37, 10, 5), (40.0, 10, 5), (1000.0, 4, 116), (0.01, 2, 10)]]


def range_sf(q, k):
    q = mp.mpf(q)

    def integrand(z):
        a = mp.ncdf(z); b = mp.ncdf(z - q)
        return k * mp.npdf(z) * b * sum(a ** j * (a - b) ** (k - 2 - j) for j in range(k - 1))

    return mp.quad(integrand, [-mp.inf, -5, 0, q / 2, q, q + 5, mp.inf])


mp.mp.dps = 30
studentized = [[q, k, f(range_sf(q, k))] for q, k in
               [(0.5, 3), (2.0, 2), (3.3, 4), (4.0, 10), (6.0, 5), (8.0, 3), (10.0, 2), (10.0, 20), (1.0, 50), (5.0, 30)]]

binomial = []
for k, n in [(0, 1), (5, 20), (20, 60), (45, 50), (80, 200), (3, 1000), (400, 1000)]:
    value = Fraction(sum(comb(n, i) for i in range(k + 1)), 2 ** n)
    binomial.append([k, n, float(value)])

json.dump({
    "source": "mpmath %s at 40 digits (30 for the studentized range integral); binomial(n, 1/2) CDF as exact "
              "rationals; crates/stats/reference/distributions_reference.py" % mp.__version__,
    "erfc": erfc, "normal_quantile": normal_quantile, "t_two_sided_pvalue": t_pvalues,
    "t_upper_quantile": t_quantiles, "chi_square_sf": chi2_sf, "f_sf": f_sf_values,
    "studentized_range_sf": studentized, "binomial_half_cdf": binomial,
}, sys.stdout, indent=1)
