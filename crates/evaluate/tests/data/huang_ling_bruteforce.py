"""Independent brute-force reference for Huang & Ling's R, S, P, Q of AUC vs accuracy.

Every ranking of n_p positives and n_n negatives (top = most positive) is listed with
itertools.combinations; AUC is computed with sklearn.metrics.roc_auc_score on scores
n, n-1, ..., 1 and accuracy by labelling the top n_p as positive (sklearn accuracy_score);
then all ordered pairs of rankings are compared. Run: python3 huang_ling_bruteforce.py > huang_ling_bruteforce.json
"""
import itertools
import json

from fractions import Fraction
from sklearn.metrics import accuracy_score, roc_auc_score

out = []
for n_p, n_n in [(2, 2), (3, 3), (2, 3), (3, 2), (1, 4), (4, 4), (3, 5), (5, 3), (4, 5), (5, 5)]:
    n = n_p + n_n
    items = []
    for pos in itertools.combinations(range(n), n_p):
        y = [1 if i in pos else 0 for i in range(n)]
        scores = [n - i for i in range(n)]
        auc = Fraction(roc_auc_score(y, scores)).limit_denominator(10000)
        pred = [1 if i < n_p else 0 for i in range(n)]
        acc = Fraction(accuracy_score(y, pred)).limit_denominator(10000)
        items.append((auc, acc))
    r = s = p = q = 0
    for a in items:
        for b in items:
            if a[0] > b[0] and a[1] > b[1]:
                r += 1
            elif a[0] > b[0] and a[1] < b[1]:
                s += 1
            elif a[0] > b[0] and a[1] == b[1]:
                p += 1
            elif a[1] > b[1] and a[0] == b[0]:
                q += 1
    out.append({"n_pos": n_p, "n_neg": n_n, "r": r, "s": s, "p": p, "q": q})
print(json.dumps({"source": "huang_ling_bruteforce.py (sklearn 1.9.1 roc_auc_score/accuracy_score, all ordered pairs of rankings)", "cases": out}, indent=1))
