"""Reference values for the engine's Brier score and log-loss, from scikit-learn.

Run: python3 measures_reference.py > measures_reference.json (scikit-learn 1.9.1 wrote the
committed file). Cases: a binary task (brier_score_loss on the positive class's probability,
log_loss) and a three-class task (log_loss; the multi-class Brier score as the mean over rows
of the sum over classes of squared differences, computed here with numpy from the one-hot
truth, since scikit-learn's multi-class brier_score_loss scales differently across versions).
"""
import json
import numpy as np
import sklearn
from sklearn.metrics import brier_score_loss, log_loss

rng = np.random.default_rng(20261125)
cases = []
# Binary: probabilities of class 1 in a two-column matrix.
p1 = rng.uniform(0.02, 0.98, 40)
truth = rng.integers(0, 2, 40)
probabilities = np.column_stack([1 - p1, p1])
cases.append({
    "name": "binary",
    "positive": 1,
    "truth": truth.tolist(),
    "probabilities": probabilities.ravel().tolist(),
    "classes": 2,
    "brier": float(brier_score_loss(truth, p1, pos_label=1)),
    "log_loss": float(log_loss(truth, probabilities, labels=[0, 1])),
})
# Three classes: rows from a Dirichlet.
raw = rng.dirichlet([1.0, 2.0, 3.0], 30)
truth = rng.integers(0, 3, 30)
onehot = np.eye(3)[truth]
cases.append({
    "name": "three classes",
    "positive": None,
    "truth": truth.tolist(),
    "probabilities": raw.ravel().tolist(),
    "classes": 3,
    "brier": float(np.mean(np.sum((raw - onehot) ** 2, axis=1))),
    "log_loss": float(log_loss(truth, raw, labels=[0, 1, 2])),
})
print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}, indent=1))
