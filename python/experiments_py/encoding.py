"""Numbers for an estimator that needs them: nominal attributes one-hot or ordinal encoded,
missing values imputed from the training rows.

The runner sends a nominal value as its level's index (0, 1, ...) and a missing value as NaN.
With every attribute numeric and no missing value the matrices are passed on unchanged, so an
estimator sees exactly the numbers it would see run directly on the same rows.
"""

import numpy as np

#: The allowed ``nominal_encoding`` values.
NOMINAL_ENCODINGS = ("onehot", "ordinal")
#: The allowed ``impute`` values.
IMPUTATIONS = ("mean", "median", "none")


def fill_values(train, levels, impute):
    """Per column, the value that replaces a missing one: the training rows' mean or median of
    a numeric column (0 when all are missing), the most frequent level of a nominal one (the
    first on ties; level 0 when all are missing)."""
    fills = np.zeros(train.shape[1])
    for column, column_levels in enumerate(levels):
        values = train[:, column]
        present = values[~np.isnan(values)]
        if present.size == 0:
            continue
        if column_levels is not None:
            counts = np.bincount(present.astype(np.int64), minlength=len(column_levels))
            fills[column] = float(np.argmax(counts))
        elif impute == "median":
            fills[column] = float(np.median(present))
        else:
            fills[column] = float(np.mean(present))
    return fills


def one_hot(values, count):
    """A nominal column as ``count`` 0/1 columns; a missing value as a row of NaN."""
    block = (values[:, None] == np.arange(count)[None, :]).astype(np.float64)
    block[np.isnan(values)] = np.nan
    return block


def encode(train, test, levels, nominal_encoding="onehot", impute="mean"):
    """The training and test matrices as the estimator gets them.

    ``levels`` has one entry per attribute: ``None`` for a numeric one, the list of level names
    for a nominal one. Imputation uses the training rows only.
    """
    if nominal_encoding not in NOMINAL_ENCODINGS:
        raise ValueError(f"nominal_encoding={nominal_encoding!r}: allowed {NOMINAL_ENCODINGS}")
    if impute not in IMPUTATIONS:
        raise ValueError(f"impute={impute!r}: allowed {IMPUTATIONS}")
    nominal = [column for column, found in enumerate(levels) if found is not None]
    missing = impute != "none" and (np.isnan(train).any() or np.isnan(test).any())
    if not nominal and not missing:
        return train, test
    if missing:
        fills = fill_values(train, levels, impute)
        train = np.where(np.isnan(train), fills[None, :], train)
        test = np.where(np.isnan(test), fills[None, :], test)
    if nominal_encoding == "ordinal" or not nominal:
        return train, test

    def expand(matrix):
        blocks = [one_hot(matrix[:, column], len(found)) if found is not None
                  else matrix[:, column:column + 1]
                  for column, found in enumerate(levels)]
        return np.hstack(blocks) if blocks else matrix

    return expand(train), expand(test)
