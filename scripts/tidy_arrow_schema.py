#!/usr/bin/env python3
"""Writes crates/engine/src/record/tidy_arrow_schema.txt: the Arrow schema of a run's tidy per-fold table
(dataset, learner: string_view; repetition, fold: int64; part, measure: string_view; value: double;
all nullable) serialized by pyarrow as an IPC message and base64-encoded, the form Arrow readers
take from a Parquet file's `ARROW:schema` metadata. The engine writes it into per_fold.parquet so
that Arrow readers read the text columns as string_view, as from the files polars wrote.

Run: /work/venv/bin/python scripts/tidy_arrow_schema.py
"""
import base64
import os

import pyarrow as pa

fields = [
    ("dataset", pa.string_view()),
    ("learner", pa.string_view()),
    ("repetition", pa.int64()),
    ("fold", pa.int64()),
    ("part", pa.string_view()),
    ("measure", pa.string_view()),
    ("value", pa.float64()),
]
encoded = base64.b64encode(pa.schema(fields).serialize().to_pybytes()).decode()
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "engine", "src", "record", "tidy_arrow_schema.txt")
with open(path, "w") as out:
    out.write(encoded)
