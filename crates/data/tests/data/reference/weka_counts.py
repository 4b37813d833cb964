"""Reference counts for the Weka example ARFF files, from scipy.io.arff (scipy 1.17, Python 3.11).

For each file: rows, numeric and nominal input attributes (class = last attribute, excluded),
class counts in declared order, and missing input values. Writes weka_counts.json.
Run from crates/data/tests/data: python3 reference/weka_counts.py
"""
import glob
import json

import numpy as np
import scipy
from scipy.io import arff

result = {"source": "crates/data/tests/data/reference/weka_counts.py (scipy %s)" % scipy.__version__}
for path in sorted(glob.glob("weka-*.arff")):
    data, meta = arff.loadarff(path)
    names = meta.names()
    class_name = names[-1]
    kind, values = meta[class_name]
    if kind != "nominal":
        continue
    numeric = sum(1 for n in names[:-1] if meta[n][0] == "numeric")
    nominal = sum(1 for n in names[:-1] if meta[n][0] == "nominal")
    missing = 0
    for n in names[:-1]:
        column = data[n]
        if meta[n][0] == "numeric":
            missing += int(np.isnan(column).sum())
        else:
            missing += int(sum(1 for v in column if v == b"?"))
    counts = [int(sum(1 for v in data[class_name] if v.decode() == value)) for value in values]
    result[path] = {
        "rows": len(data),
        "numeric_attributes": numeric,
        "nominal_attributes": nominal,
        "class_values": list(values),
        "class_counts": counts,
        "missing_values": missing,
    }
json.dump(result, open("reference/weka_counts.json", "w"), indent=1)
