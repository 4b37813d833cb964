#!/usr/bin/env python3
"""Wu & Flach Table 4 three ways (issue 46): the paper, our learners
(docs/reproductions/wu_flach/) and Weka 3.6's own learners through the Weka worker
(docs/reproductions/wu_flach/weka/, the same config with `kind = "weka"` learners, so the same
datasets, splits and selection), per dataset: the AUC-selected and sAUC-selected mean test AUC
and sAUC-selection's verdict. Reads the reports' Markdown tables.

    python3 scripts/fidelity/wu_flach_weka_beside_ours.py \
        > docs/reproductions/wu_flach/weka/beside_ours_and_paper.md
    python3 scripts/fidelity/wu_flach_weka_beside_ours.py samples_150 \
        > docs/reproductions/wu_flach_samples_150/weka/beside_ours_and_paper.md   # Table 5
    python3 scripts/fidelity/wu_flach_weka_beside_ours.py samples \
        > docs/reproductions/wu_flach_samples/weka/beside_ours_and_paper.md   # 50 instances
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PART = sys.argv[1] if len(sys.argv) > 1 else ""
OURS = ROOT / "docs/reproductions" / ("wu_flach_" + PART if PART else "wu_flach")
WEKA = OURS / "weka"
STEM = "wu_flach_selection" + ("_" + PART if PART else "")
TABLES = {
    "": ("Table 4", "6 wins, 2 losses"),
    "samples_150": ("Table 5 (150 instances)", "9 wins, 0 losses"),
    "samples": ("Table 5 beside samples of 50 instances (the text's side note)", "9 wins, 0 losses"),
}
if PART not in TABLES:
    sys.exit(f"unknown part {PART!r}: expected one of {', '.join(repr(k) for k in TABLES)}")
TABLE, THEIRS = TABLES[PART]


def table(path):
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or line.startswith("| ---") or line.startswith("| #") or line.startswith("| dataset"):
            continue
        rows.append([cell.strip().replace("**", "") for cell in line.strip("|").split("|")])
    return rows


def main():
    ours = {r[0]: r for r in table(OURS / f"{STEM}.md")}
    weka = {r[0]: r for r in table(WEKA / f"{STEM}.md")}
    paper = table(OURS / f"{STEM}_beside_paper.md")
    winners = {r[1]: r for r in table(OURS / f"{STEM}_beside_paper_winners.md")}
    print(f"**Wu & Flach {TABLE}: the paper, our learners and Weka 3.6's learners on the same splits**\n")
    print(f"Made by `python3 scripts/fidelity/wu_flach_weka_beside_ours.py{' ' + PART if PART else ''}`. Mean test AUC (x100) of the model")
    print("selected by validation AUC and by validation sAUC; the verdict is sAUC-selection's (paired t over")
    print("the 100 test folds, alpha 0.05); the paper's \"higher\" is which selection their table shows higher.\n")
    print("| dataset | AUC-sel.: paper | ours | Weka | sAUC-sel.: paper | ours | Weka | higher: paper | verdict: ours | Weka |")
    print("| --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- | --- |")
    average = None
    for row in paper:
        label = row[1]
        if label == "average":
            average = row
            continue
        name = label.split("(")[-1].rstrip(")")
        o, w = ours[name], weka[name]
        higher = winners[label][2] if label in winners else ""
        print(f"| {label} | {row[2]} | {o[1]} | {w[1]} | {row[5]} | {o[3]} | {w[3]} | {higher} | {o[6]} | {w[6]} |")
    o, w = ours["average"], weka["average"]
    print(f"| average | {average[2]} | {o[1]} | {w[1]} | {average[5]} | {o[3]} | {w[3]} | {THEIRS} (their count) | {o[6]} | {w[6]} |")


if __name__ == "__main__":
    main()
