#!/usr/bin/env python3
"""Exact Huang & Ling counts R, S, P, Q of AUC vs accuracy at sizes too large to enumerate.

Independent of the Rust code (which steps from one row of the (k, U) histogram to the next by
multiplying and dividing by binomials 1 - x^a in fixed-width integers): here each row
c_k(x) = x^(k (n_n - j)) [n_p choose k]_x [n_n choose j]_x (j = n_p - k) is multiplied out with
Python's unbounded integers by Kronecker substitution (a polynomial is one integer, a slot of B
bits per coefficient), the Gaussian binomials built by Pascal's q-recurrence
[m, r] = x^(m - r) [m - 1, r - 1] + [m - 1, r]. The pairs are then counted directly from prefix
sums: R = sum c_k(u) * #{k' < k, u' < u}, S = sum c_k(u) * #{k' > k, u' < u},
P = sum c_k(u) * #{k' = k, u' < u}, Q = sum c_k(u) * #{k' < k, u' = u}.
Before writing, the same code is checked against a brute-force enumeration of every ranking for
every split of n <= 12.

Run: /work/venv/bin/python crates/evaluate/tests/data/huang_ling_large.py  (about a minute)
Writes huang_ling_large.json beside this script (counts as decimal strings).
"""
import itertools
import json
import os


def histogram(n_pos, n_neg):
    """rows[k][u]: rankings with k positives in the top n_pos and u positive-above-negative pairs."""
    total = n_pos + n_neg
    binomial = 1
    for i in range(1, n_pos + 1):
        binomial = binomial * (n_neg + i) // i
    slot_bits = (binomial.bit_length() + 8 + 7) // 8 * 8
    gaussian = {}
    row = [1]  # m = 0
    for m in range(0, max(n_pos, n_neg) + 1):
        if m > 0:
            row = [
                (row[r - 1] << (slot_bits * (m - r)) if r > 0 else 0) + (row[r] if r < m else 0)
                for r in range(m + 1)
            ]
        if m in (n_pos, n_neg):
            gaussian[m] = list(row)
    width = n_pos * n_neg + 1
    slot_bytes = slot_bits // 8
    rows = []
    for k in range(n_pos + 1):
        j = n_pos - k
        if j > n_neg:
            rows.append([0] * width)
            continue
        poly = (gaussian[n_pos][k] * gaussian[n_neg][j]) << (slot_bits * k * (n_neg - j))
        raw = poly.to_bytes(width * slot_bytes, "little")
        rows.append([int.from_bytes(raw[u * slot_bytes:(u + 1) * slot_bytes], "little") for u in range(width)])
    assert sum(map(sum, rows)) == binomial
    return rows


def pair_counts(rows):
    width = len(rows[0])
    below = []
    for row in rows:
        running, out = 0, []
        for count in row:
            out.append(running)
            running += count
        below.append(out)
    total_below = [sum(column) for column in zip(*below)]
    lower_below = [0] * width  # rankings with k' < k and u' < u
    lower_same = [0] * width  # rankings with k' < k and u' = u
    r = s = p = q = 0
    for row, row_below in zip(rows, below):
        for u, count in enumerate(row):
            if count:
                r += count * lower_below[u]
                s += count * (total_below[u] - lower_below[u] - row_below[u])
                p += count * row_below[u]
                q += count * lower_same[u]
        for u in range(width):
            lower_below[u] += row_below[u]
            lower_same[u] += row[u]
    return r, s, p, q


def brute_force(n_pos, n_neg):
    """R, S, P, Q over every unordered pair of rankings (position 0 = top)."""
    n = n_pos + n_neg
    cells = []
    for chosen in itertools.combinations(range(n), n_pos):
        positive = [position in chosen for position in range(n)]
        above, u = 0, 0
        for is_positive in positive:
            if is_positive:
                above += 1
            else:
                u += above
        cells.append((u, sum(positive[:n_pos])))
    r = s = p = q = 0
    for a, b in itertools.combinations(cells, 2):
        if a[0] == b[0] and a[1] == b[1]:
            continue
        if a[0] == b[0]:
            q += 1
        elif a[1] == b[1]:
            p += 1
        elif (a[0] > b[0]) == (a[1] > b[1]):
            r += 1
        else:
            s += 1
    return r, s, p, q


def main():
    for n in range(2, 13):
        for n_pos in range(1, n):
            assert pair_counts(histogram(n_pos, n - n_pos)) == brute_force(n_pos, n - n_pos), (n_pos, n)
    configurations = [(20, 20), (10, 30), (50, 50), (25, 75), (100, 100), (50, 150), (150, 150), (75, 225)]
    configurations += [(1, 60), (60, 7), (3, 97), (97, 3), (40, 9)]
    cases = []
    for n_pos, n_neg in configurations:
        r, s, p, q = pair_counts(histogram(n_pos, n_neg))
        cases.append({"n_pos": n_pos, "n_neg": n_neg, "r": str(r), "s": str(s), "p": str(p), "q": str(q)})
        print(n_pos, n_neg, "done", flush=True)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "huang_ling_large.json")
    with open(path, "w") as out:
        json.dump({"generator": "huang_ling_large.py (Kronecker-substituted Gaussian binomials)", "cases": cases}, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
