"""The Python side of the classifier-comparison runner (`cargo run -p experiments`).

- ``python -m experiments_py.worker``: the learner worker the ``python`` learner kind starts; it
  serves a scikit-learn estimator or a class of your own over the protocol of
  ``docs/worker-protocol.md`` (``experiments_py.protocol`` reads and writes its frames);
- :func:`load_results`: a run's tidy per-fold results as a pandas or polars data frame.

numpy is the only dependency; scikit-learn, pandas (with pyarrow) and polars are needed only by
what uses them. Importing this package imports none of them.
"""

__version__ = "0.1.0"

from .results import load_results  # noqa: E402  (imports nothing heavy)

__all__ = ["load_results", "__version__"]
