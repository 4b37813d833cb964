#!/usr/bin/env python3
"""Exact Huang & Ling counts R, S, P, Q by brute-force enumeration, independent of the Rust code.

Every ranking of n_p positives and n_n negatives (every choice of the positions the positives
take, position 0 = top) is enumerated. Its AUC numerator is the number of (positive, negative)
pairs with the positive ranked above; its accuracy numerator is the number of correct labels when
the top n_p examples are called positive. The rankings are histogrammed by (AUC, accuracy), and
over all unordered pairs of rankings:
  R = pairs both measures order the same way (strictly), S = pairs they order oppositely,
  P = pairs AUC separates and accuracy ties, Q = pairs accuracy separates and AUC ties.
Writes huang_ling_reference.json beside this script: every configuration of the Thai paper's
Tables 3-7 (2n = 4..20 balanced, 25% positives for 2n = 4, 8, 12, 16, and 1..5 positives of 10),
plus 2 + 6 and every split of 2n = 6 (to check which configuration a mislabelled row belongs to).

Run: python3 crates/papers/tests/data/huang_ling_reference.py  (about a minute; 2n = 20 has
184,756 rankings).
"""
import itertools
import json
import os
from collections import Counter


def counts(positives, negatives):
    total = positives + negatives
    histogram = Counter()
    for chosen in itertools.combinations(range(total), positives):
        is_positive = [False] * total
        for position in chosen:
            is_positive[position] = True
        auc = 0
        negatives_below = negatives
        for position in range(total):
            if is_positive[position]:
                auc += negatives_below
            else:
                negatives_below -= 1
        accuracy = sum(1 for position in range(total) if is_positive[position] == (position < positives))
        histogram[(auc, accuracy)] += 1
    cells = list(histogram.items())
    r = s = p = q = 0
    for i, ((auc_a, acc_a), count_a) in enumerate(cells):
        for (auc_b, acc_b), count_b in cells[i + 1:]:
            pairs = count_a * count_b
            if auc_a == auc_b and acc_a == acc_b:
                continue
            if auc_a == auc_b:
                q += pairs
            elif acc_a == acc_b:
                p += pairs
            elif (auc_a > auc_b) == (acc_a > acc_b):
                r += pairs
            else:
                s += pairs
    return {"positives": positives, "negatives": negatives, "r": r, "s": s, "p": p, "q": q}


def main():
    configurations = [(n, n) for n in range(2, 11)]
    configurations += [(total // 4, total - total // 4) for total in (4, 8, 12, 16)]
    configurations += [(positives, 10 - positives) for positives in range(1, 6)]
    configurations += [(positives, 6 - positives) for positives in range(1, 6)]
    seen = []
    for configuration in configurations:
        if configuration not in seen:
            seen.append(configuration)
    rows = [counts(*configuration) for configuration in seen]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "huang_ling_reference.json")
    with open(path, "w") as out:
        json.dump({"generator": "huang_ling_reference.py (brute-force enumeration)", "rows": rows}, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
