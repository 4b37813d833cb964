#!/usr/bin/env python3
"""Recount two worked examples the reproductions do not cover yet.

1. The Thai paper (/work/shared/papers/003_c7a3f43a3961886c.txt, section 2.1, its Tables 1-2):
   ten test examples, five positive and five negative, ranked by ascending score. Table 1's
   ranking has AUC 24/25 by its equation (1); Table 2 sets two classifiers of equal accuracy
   (80%) with AUC 24/25 and 16/25.
2. Wu & Flach (2005), Example 1 and Example 2 (/work/shared/papers/004_1451e82c9adb336f.txt):
   models M1 and M2 on 3 positives and 4 negatives. The extraction lost every digit 1; read with
   them restored, the scores are M1 = +0.95 -0.89 +0.86 +0.84 -0.15 -0.13 -0.10 and
   M2 = +0.95 -0.89 +0.20 +0.16 -0.15 -0.13 -0.10 (the text's intervals "(0.2, 0.83)" and
   "(0.5, 0.89)" are (0.21, 0.83) and (0.15, 0.89) with the 1s back). The paper gives
   R_s+ = 0.7417, R_s- = 0.1692, sAUC = 0.5725 for M1 (printed "0.747", "0.692") and
   R_s+ = 0.4067, R_s- = 0.1692, sAUC = 0.2375 for M2.

Every value is computed twice: from the paper's own formula and by a second route
(scikit-learn's roc_auc_score for AUC; the paper's one-sweep algorithm of its Table 2 for sAUC
beside the double sum of its Definition 1). Exact fractions where the paper gives fractions.

Run: /work/venv/bin/python scripts/fidelity/worked_examples.py
"""

from fractions import Fraction

from sklearn.metrics import roc_auc_score


def auc_rank_sum(labels_ascending):
    """The Thai paper's equation (1): (sum of positives' ranks - n_p (n_p + 1) / 2) / (n_p n_n),
    ranks counted from 1 in ascending score order."""
    ranks = [i + 1 for i, y in enumerate(labels_ascending) if y == "+"]
    n_p = len(ranks)
    n_n = len(labels_ascending) - n_p
    return Fraction(sum(ranks) - n_p * (n_p + 1) // 2, n_p * n_n), ranks


def accuracy_at_middle(labels_ascending):
    """Accuracy when the lower half is called negative and the upper half positive (the Thai
    paper: "5 first negative, 5 next positive" for the balanced case)."""
    half = len(labels_ascending) // 2
    correct = sum(y == "-" for y in labels_ascending[:half])
    correct += sum(y == "+" for y in labels_ascending[half:])
    return Fraction(correct, len(labels_ascending))


def thai_example():
    table1 = list("----+-++++")
    classifier1 = list("----+-++++")
    classifier2 = list("+----++++-")
    print("Thai paper, Table 1 (ascending ranking " + " ".join(table1) + "):")
    auc, ranks = auc_rank_sum(table1)
    print(f"  positives' ranks {ranks}, AUC = ({sum(ranks)} - 5*6/2) / 25 = {auc} "
          f"(paper: 24/25)")
    for name, ranking, paper_auc in (("classifier 1", classifier1, "24/25"),
                                     ("classifier 2", classifier2, "16/25")):
        auc, ranks = auc_rank_sum(ranking)
        y = [1 if c == "+" else 0 for c in ranking]
        scores = list(range(len(ranking)))  # ascending rank = ascending score
        sk = roc_auc_score(y, scores)
        acc = accuracy_at_middle(ranking)
        print(f"  Table 2 {name} ({' '.join(ranking)}): AUC = {auc} = {float(auc):.2f} "
              f"(scikit-learn {sk:.2f}; paper {paper_auc}), accuracy at the middle "
              f"threshold = {acc} = {float(acc):.0%} (paper 80%)")


def sauc_definition(pos, neg):
    """Wu & Flach's Definition 1 and the two halves R_s+ and R_s- (double sums, strict >)."""
    n = len(pos) * len(neg)
    pairs = [(x, y) for x in pos for y in neg if x > y]
    r_plus = sum(x for x, _ in pairs) / n
    r_minus = sum(y for _, y in pairs) / n
    return r_plus, r_minus, sum(x - y for x, y in pairs) / n


def sauc_sweep(pos, neg):
    """The paper's Table 2 algorithm: one sweep down the scores sorted decreasingly."""
    items = sorted([(s, True) for s in pos] + [(s, False) for s in neg], key=lambda t: -t[0])
    v_p = sum(neg)  # "sum of f(i) of negative instances"
    r_minus = r_plus = n_minus = n_plus = 0.0
    for score, positive in items:
        if positive:
            r_minus += v_p - n_minus
            n_plus += score
        else:
            n_minus += score
            r_plus += n_plus
    n = len(pos) * len(neg)
    return r_plus / n, r_minus / n, (r_plus - r_minus) / n


def wu_flach_example():
    negatives = [0.89, 0.15, 0.13, 0.10]
    models = {
        "M1": ([0.95, 0.86, 0.84], (0.7417, 0.1692, 0.5725)),
        "M2": ([0.95, 0.20, 0.16], (0.4067, 0.1692, 0.2375)),
    }
    print("Wu & Flach, Examples 1-2 (negatives 0.89, 0.15, 0.13, 0.10):")
    for name, (positives, paper) in models.items():
        d = sauc_definition(positives, negatives)
        s = sauc_sweep(positives, negatives)
        y = [1] * len(positives) + [0] * len(negatives)
        auc = roc_auc_score(y, positives + negatives)
        print(f"  {name} positives {positives}: R_s+ = {d[0]:.4f}, R_s- = {d[1]:.4f}, "
              f"sAUC = {d[2]:.4f} (sweep {s[0]:.4f}, {s[1]:.4f}, {s[2]:.4f}); "
              f"paper {paper[0]}, {paper[1]}, {paper[2]}; AUC {auc:.4f}")


if __name__ == "__main__":
    thai_example()
    print()
    wu_flach_example()
