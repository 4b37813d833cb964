"""A learner of your own, benchmarked by `cargo run -p experiments -- --config
examples/python/sklearn.toml` beside scikit-learn's and this project's: scikit-learn's
conventions, numpy only.

Nearest centroid with soft votes: each class's (weighted) mean of the standardised training
rows; a row's class probabilities are a softmax of minus its squared distances to the centroids,
divided by `temperature`. Editing this file makes the next run recompute this learner's units
(the worker's identity holds a digest of it), and only those.
"""

import numpy as np


class SoftCentroid:
    def __init__(self, temperature=1.0):
        self.temperature = temperature

    def fit(self, X, y, sample_weight=None):
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight)
        self.mean_ = np.average(X, axis=0, weights=weights)
        spread = np.sqrt(np.average((X - self.mean_) ** 2, axis=0, weights=weights))
        self.scale_ = np.where(spread > 0, spread, 1.0)
        Z = (X - self.mean_) / self.scale_
        self.classes_ = np.unique(y)
        self.centroids_ = np.array([np.average(Z[y == c], axis=0, weights=weights[y == c])
                                    for c in self.classes_])
        return self

    def predict_proba(self, X):
        Z = (X - self.mean_) / self.scale_
        distances = ((Z[:, None, :] - self.centroids_[None, :, :]) ** 2).sum(axis=2)
        scores = -(distances - distances.min(axis=1, keepdims=True)) / self.temperature
        exp = np.exp(scores)
        return exp / exp.sum(axis=1, keepdims=True)
