"""The learner a worker serves: a class named ``"module:Class"`` (a scikit-learn estimator, or
a class of your own with scikit-learn's ``fit(X, y[, sample_weight])`` and
``predict_proba(X)``), built afresh for every unit with the configured keyword arguments.

Its identity (what the runner caches results under) holds the class, its arguments, the
encodings, the versions of Python, numpy, scikit-learn, this package and the distribution the
class comes from, and, for a class that comes from no installed distribution (a module of your
own), the sha256 of its source file: editing that file, or upgrading a package, changes the
identity, so the runner recomputes this learner's units.
"""

import glob
import hashlib
import importlib
import inspect
import json
import os
import pathlib
import platform
import sys

import numpy as np

from . import __version__, encoding, protocol


def load_class(spec):
    """The class named by ``"module:Class"`` (``Class`` may be dotted: ``Outer.Inner``)."""
    module_name, colon, qualified = spec.partition(":")
    if not colon or not module_name or not qualified:
        raise ValueError(f"estimator {spec!r}: expected 'module:Class', e.g. "
                         "'sklearn.ensemble:RandomForestClassifier'")
    try:
        found = importlib.import_module(module_name)
    except ImportError as error:
        raise ImportError(f"estimator {spec!r}: cannot import module {module_name!r}: {error} "
                          "(a module of your own goes beside the config, or in a folder of "
                          "module_path)") from error
    for name in qualified.split("."):
        if not hasattr(found, name):
            owner = getattr(found, "__name__", repr(found))
            raise AttributeError(f"estimator {spec!r}: {owner} has no attribute {name!r}")
        found = getattr(found, name)
    if not inspect.isclass(found):
        raise TypeError(f"estimator {spec!r} is not a class")
    for method in ("fit", "predict_proba"):
        if not callable(getattr(found, method, None)):
            raise TypeError(f"estimator {spec!r} has no {method} method (scikit-learn's "
                            "conventions: fit(X, y) and predict_proba(X))")
    return found


def source_file(cls):
    """The real path of the file that defines a class, or None (a built-in class)."""
    try:
        return os.path.realpath(inspect.getsourcefile(cls) or inspect.getfile(cls))
    except TypeError:
        return None


def distribution_version(cls):
    """``(distribution, version)`` of the installed distribution whose RECORD lists the file
    that defines the class, or None: a module of one's own (even one named like an installed
    package) is told by its source digest instead."""
    from importlib import metadata
    source = source_file(cls)
    if source is None:
        return None
    for entry in sys.path:
        root = os.path.realpath(entry or os.curdir)
        if not source.startswith(root + os.sep):
            continue
        relative = os.path.relpath(source, root).replace(os.sep, "/")
        for info in sorted(glob.glob(os.path.join(root, "*.dist-info"))):
            try:
                with open(os.path.join(info, "RECORD"), encoding="utf-8") as file:
                    listed = any(line.split(",", 1)[0] == relative for line in file)
            except OSError:
                continue
            if listed:
                found = metadata.PathDistribution(pathlib.Path(info))
                return found.metadata["Name"], found.version
    return None


def installed_version(distribution):
    """The installed version of a distribution, or None."""
    from importlib import metadata
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def source_digest(path):
    """The sha256 of a file."""
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def takes(function, name):
    """True when a callable accepts a keyword argument ``name``."""
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


class Learner:
    """The learner of a worker, from the options of its HELLO."""

    def __init__(self, options):
        known = {"estimator", "params", "nominal_encoding", "impute"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown options {unknown}; allowed {sorted(known)}")
        self.spec = options.get("estimator", "")
        self.params = options.get("params") or {}
        self.nominal_encoding = options.get("nominal_encoding", "onehot")
        self.impute = options.get("impute", "mean")
        if self.nominal_encoding not in encoding.NOMINAL_ENCODINGS:
            raise ValueError(f"nominal_encoding={self.nominal_encoding!r}: allowed "
                             f"{encoding.NOMINAL_ENCODINGS}")
        if self.impute not in encoding.IMPUTATIONS:
            raise ValueError(f"impute={self.impute!r}: allowed {encoding.IMPUTATIONS}")
        self.cls = load_class(self.spec)
        self.cls(**self.params)  # the arguments are checked now, at the handshake
        self.seeded = "random_state" not in self.params and takes(self.cls, "random_state")
        self.weighted = takes(self.cls.fit, "sample_weight")

    def capabilities(self):
        """The WELCOME capability bits: nominal attributes and missing values are encoded for
        the estimator; weights when its ``fit`` takes ``sample_weight``."""
        bits = protocol.NOMINAL | protocol.MISSING | protocol.MULTI_CLASS
        return bits | (protocol.WEIGHTS if self.weighted else 0)

    def identity(self):
        """Everything the outputs depend on besides the data and the seed, as JSON text."""
        versions = {"python": platform.python_version(), "numpy": np.__version__,
                    "experiments-py": __version__}
        sklearn = installed_version("scikit-learn")
        if sklearn is not None:
            versions["scikit-learn"] = sklearn
        identity = {
            "estimator": self.spec,
            "class": f"{self.cls.__module__}.{self.cls.__qualname__}",
            "params": self.params,
            "nominal_encoding": self.nominal_encoding,
            "impute": self.impute,
            "versions": versions,
        }
        found = distribution_version(self.cls)
        source = source_file(self.cls)
        if found is not None:
            versions[found[0]] = found[1]
        elif source is not None:
            identity["source_sha256"] = source_digest(source)
            identity["source_file"] = os.path.basename(source)
        return json.dumps(identity, sort_keys=True, separators=(",", ":"))

    def estimator(self, seed):
        """A new estimator for one unit: the configured arguments, and ``random_state`` set
        from the unit's seed (modulo 2^32) when the class takes one and it was not given."""
        params = dict(self.params)
        if self.seeded:
            params["random_state"] = seed % (1 << 32)
        return self.cls(**params)

    def fit_predict(self, train, y, weights, test, levels, n_classes, seed):
        """Fits on the training rows (class indices ``y``) and returns the test rows' class
        probabilities, one column per class of the dataset (a class the estimator did not see
        gets 0). A training set of one class predicts it with probability 1 without calling the
        estimator (most scikit-learn classifiers refuse one class)."""
        out = np.zeros((test.shape[0], n_classes))
        present = np.flatnonzero(np.bincount(y, minlength=n_classes))
        if present.size == 1:
            out[:, present[0]] = 1.0
            return out
        train, test = encoding.encode(train, test, levels, self.nominal_encoding, self.impute)
        model = self.estimator(seed)
        if np.any(weights != 1.0):
            if not self.weighted:
                raise ValueError(f"{self.spec}: fit takes no sample_weight, and the training "
                                 "rows have weights other than 1")
            model.fit(train, y, sample_weight=weights)
        else:
            model.fit(train, y)
        proba = np.asarray(model.predict_proba(test), dtype=np.float64)
        columns = np.asarray(getattr(model, "classes_", present))
        if proba.shape != (test.shape[0], columns.size):
            raise ValueError(f"{self.spec}: predict_proba gave shape {proba.shape} for "
                             f"{test.shape[0]} rows and classes_ {columns.tolist()}")
        out[:, columns.astype(np.int64)] = proba
        return out
