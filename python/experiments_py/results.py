"""A run's tidy results (``results/<name>/per_fold.parquet``) as a data frame.

Each row is one measure of one unit: ``dataset``, ``learner``, ``repetition``, ``fold``,
``part`` (``test`` or ``validation``), ``measure``, ``value``.
"""

from pathlib import Path

#: The columns of the tidy per-fold table, in order.
COLUMNS = ["dataset", "learner", "repetition", "fold", "part", "measure", "value"]


def results_file(path):
    """The Parquet file of a run: ``path`` itself, or ``path/per_fold.parquet`` for a folder."""
    path = Path(path)
    file = path / "per_fold.parquet" if path.is_dir() else path
    if not file.is_file():
        raise FileNotFoundError(
            f"{file}: no such file; give a run's results folder (results/<name>, holding "
            "per_fold.parquet once the run has finished) or the Parquet file itself"
        )
    return file


def load_results(path, backend="pandas"):
    """Loads a run's per-fold results into pandas (``backend="pandas"``, needs pyarrow) or
    polars (``backend="polars"``).

    ``path`` is the run's results folder (``results/<name>``) or its ``per_fold.parquet``.
    """
    file = results_file(path)
    if backend == "pandas":
        try:
            import pandas
        except ImportError as error:
            raise ImportError("load_results(backend='pandas') needs pandas and pyarrow: "
                              "pip install pandas pyarrow") from error
        return pandas.read_parquet(file)
    if backend == "polars":
        try:
            import polars
        except ImportError as error:
            raise ImportError("load_results(backend='polars') needs polars: "
                              "pip install polars") from error
        return polars.read_parquet(file)
    raise ValueError(f"backend={backend!r}: allowed 'pandas' or 'polars'")
