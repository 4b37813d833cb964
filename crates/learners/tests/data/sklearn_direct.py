#!/usr/bin/env python3
"""scikit-learn run directly on given rows: the peer of the `python` learner kind's tests
(crates/learners/tests/python_worker.rs). It does not use the experiments_py package.

Reads a JSON list of requests on standard input, each an object with:
    estimator   "module:Class"
    params      constructor arguments
    seed        the unit's seed; random_state = seed % 2**32 when the class takes one
    train, test rows of attribute values (null = missing; a nominal value is its level index)
    y, weights  the training rows' class indices and weights (weights null: none passed)
    levels      per attribute: null (numeric) or the number of levels (nominal)
    classes     the number of classes
    nominal     "onehot" or "ordinal"; impute: "mean", "median" or "none"
and writes, for each request, the test rows' class probabilities (one column per class; a class
absent from the training rows gets 0) as a JSON list on standard output.

Nominal and missing values go through scikit-learn's own SimpleImputer (the training mean or
median, the most frequent level) and OneHotEncoder (the attribute's levels), column by column in
attribute order, a one-hot block in the place of its attribute.
"""
import importlib
import inspect
import json
import sys

import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder


def column_transformer(levels, nominal, impute):
    steps = []
    for column, count in enumerate(levels):
        parts = []
        if impute != "none":
            strategy = impute if count is None else "most_frequent"
            parts.append(SimpleImputer(strategy=strategy, keep_empty_features=True))
        if count is not None and nominal == "onehot":
            parts.append(OneHotEncoder(categories=[np.arange(count, dtype=float)],
                                       sparse_output=False))
        steps.append((f"c{column}", make_pipeline(*parts) if parts else "passthrough",
                      [column]))
    return ColumnTransformer(steps)


def answer(request):
    module, _, name = request["estimator"].partition(":")
    cls = getattr(importlib.import_module(module), name)
    params = dict(request["params"])
    if "random_state" in inspect.signature(cls).parameters and "random_state" not in params:
        params["random_state"] = request["seed"] % 2**32
    as_array = lambda rows: np.array([[np.nan if v is None else v for v in row] for row in rows],
                                     dtype=float)
    train, test = as_array(request["train"]), as_array(request["test"])
    levels = request["levels"]
    plain = all(count is None for count in levels) and not (
        request["impute"] != "none" and (np.isnan(train).any() or np.isnan(test).any()))
    if not plain:
        encoder = column_transformer(levels, request["nominal"], request["impute"])
        train, test = encoder.fit_transform(train), encoder.transform(test)
    y = np.array(request["y"], dtype=np.int64)
    model = cls(**params)
    if request["weights"] is None:
        model.fit(train, y)
    else:
        model.fit(train, y, sample_weight=np.array(request["weights"], dtype=float))
    proba = model.predict_proba(test)
    out = np.zeros((test.shape[0], request["classes"]))
    out[:, model.classes_.astype(int)] = proba
    return out.tolist()


def main():
    json.dump([answer(request) for request in json.load(sys.stdin)], sys.stdout)


if __name__ == "__main__":
    main()
