"""Reference values of the `ece` and `mce` measures on multi-class tasks (issue 29), written to
multiclass_calibration.json beside this script and read by
crates/engine/tests/multiclass_calibration.rs.

Run with: /work/venv/bin/python crates/engine/tests/data/multiclass_calibration.py

Seeded Dirichlet probability matrices of 3 and 5 classes with truths drawn from a sharpened
version of them. Expected values:

* `per_class = true`: netcal 1.4 `ECE(bins)` / `MCE(bins)` (equal_intervals True/False) on each
  class's column against "the true class is k" (netcal's binary mode, one-vs-rest), then the
  mean over the classes (ECE; Kull et al.'s 2019 class-wise ECE) or the largest (MCE). Checked
  against scikit-learn's `calibration_curve(strategy="uniform")` one-vs-rest: the ECE from its
  bins weighted by numpy's bin counts equals netcal's (asserted here, equal-width bins).
* default (`per_class = false`): netcal on the whole matrix (top-label calibration).
"""
import json
import os

import netcal
import numpy as np
import sklearn
from netcal.metrics import ECE, MCE
from sklearn.calibration import calibration_curve

HERE = os.path.dirname(os.path.abspath(__file__))


def case(rng, classes, n, bins, equal_mass):
    p = rng.dirichlet(np.full(classes, 0.8), size=n)
    sharp = p ** 1.5 / (p ** 1.5).sum(axis=1, keepdims=True)
    truth = np.array([rng.choice(classes, p=row) for row in sharp])
    equal = not equal_mass
    ece = [float(ECE(bins, equal_intervals=equal).measure(p[:, k], truth == k))
           for k in range(classes)]
    mce = [float(MCE(bins, equal_intervals=equal).measure(p[:, k], truth == k))
           for k in range(classes)]
    if equal:
        for k in range(classes):
            y = (truth == k).astype(int)
            true, pred = calibration_curve(y, p[:, k], n_bins=bins, strategy="uniform")
            counts, _ = np.histogram(p[:, k], bins=np.linspace(0, 1, bins + 1))
            weights = counts[counts > 0] / n
            assert abs(float(np.sum(weights * np.abs(true - pred))) - ece[k]) < 1e-12
    return {
        "classes": classes, "bins": bins,
        "binning": "equal_mass" if equal_mass else "equal_width",
        "truth": truth.tolist(), "probabilities": p.ravel().tolist(),
        "per_class_ece": ece, "per_class_mce": mce,
        "class_wise_ece": float(np.mean(ece)), "class_wise_mce": float(np.max(mce)),
        "top_label_ece": float(ECE(bins, equal_intervals=equal).measure(p, truth)),
        "top_label_mce": float(MCE(bins, equal_intervals=equal).measure(p, truth)),
    }


def main():
    rng = np.random.default_rng(2029)
    cases = [case(rng, 3, 150, 10, False), case(rng, 5, 300, 8, False),
             case(rng, 3, 200, 5, True)]
    with open(os.path.join(HERE, "multiclass_calibration.json"), "w") as out:
        json.dump({"generator": "multiclass_calibration.py", "netcal": netcal.__version__,
                   "sklearn": sklearn.__version__, "cases": cases}, out, indent=1)


if __name__ == "__main__":
    main()
