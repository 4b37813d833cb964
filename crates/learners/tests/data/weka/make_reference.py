#!/usr/bin/env python3
"""Reference probabilities from Weka 3.6.14 (Debian package weka 3.6.14-3) for the learners
crate's Weka-conformance test.

For each dataset: read /work/shared/datasets/<name>.csv (nominal columns from catalog.toml,
nominal values and class values in sorted string order, empty field = missing), split rows
into train (row index % 3 != 0) and test (row index % 3 == 0), write both as ARFF, run
WekaProbabilities.java (distributionForInstance, printed with Double.toString) for
  weka.classifiers.bayes.NaiveBayes            -> naive_bayes
  weka.classifiers.bayes.NaiveBayes -D         -> naive_bayes_mdl
  weka.classifiers.functions.Logistic -R 1e-8  -> logistic
  weka.classifiers.lazy.KStar -B 20 -M a       -> kstar (and -B 50 -M m, -B 0 -M d, -B 5 -M n)
  weka.classifiers.misc.VFI -B 0.6             -> vfi (and -B 1.5, and -C)
and write <out>/<name>.json with the encoded data and the expected probabilities.
"""
import csv, json, subprocess, sys, tomllib, os

HERE = os.path.dirname(os.path.abspath(__file__))
catalog = tomllib.load(open("/work/shared/datasets/catalog.toml", "rb"))["datasets"]
LEARNERS = {
    "naive_bayes": ["weka.classifiers.bayes.NaiveBayes"],
    "naive_bayes_mdl": ["weka.classifiers.bayes.NaiveBayes", "-D"],
    "logistic": ["weka.classifiers.functions.Logistic", "-R", "1.0E-8", "-M", "-1"],
    "kstar": ["weka.classifiers.lazy.KStar", "-B", "20", "-M", "a"],
    "kstar_b50_maxdiff": ["weka.classifiers.lazy.KStar", "-B", "50", "-M", "m"],
    "kstar_b0_delete": ["weka.classifiers.lazy.KStar", "-B", "0", "-M", "d"],
    "kstar_b5_normal": ["weka.classifiers.lazy.KStar", "-B", "5", "-M", "n"],
    "vfi": ["weka.classifiers.misc.VFI", "-B", "0.6"],
    "vfi_b1.5": ["weka.classifiers.misc.VFI", "-B", "1.5"],
    "vfi_unweighted": ["weka.classifiers.misc.VFI", "-C"],
}
# Two-class datasets also get the cost-sensitive wrapper around NaiveBayes, costs [[0,1],[5,0]]
# (rows = actual class, columns = predicted, classes in sorted order).
COST_LEARNERS = {
    "cost_reweight_nb": ["weka.classifiers.meta.CostSensitiveClassifier", "-cost-matrix",
                         "[0.0 1.0; 5.0 0.0]", "-S", "1", "-W", "weka.classifiers.bayes.NaiveBayes"],
    "cost_threshold_nb": ["weka.classifiers.meta.CostSensitiveClassifier", "-M", "-cost-matrix",
                          "[0.0 1.0; 5.0 0.0]", "-S", "1", "-W", "weka.classifiers.bayes.NaiveBayes"],
}

def arff_quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

def write_reference(name, out, learners=None, leave_out=(), suffix=""):
    """Writes <out>/<name><suffix>.json; `learners` defaults to every learner above (and the
    cost-sensitive ones for two classes); the training rows of the classes in `leave_out` are
    dropped (the ARFF header still lists every class)."""
    entry = catalog[name]
    nominal = set(entry.get("nominal_columns", []))
    rows = list(csv.reader(open(f"/work/shared/datasets/{name}.csv")))
    header, body = rows[0], rows[1:]
    attrs = header[:-1]
    values = {}
    for j, a in enumerate(attrs):
        if a in nominal:
            values[a] = sorted({r[j] for r in body if r[j] not in ("", "?")})
    classes = sorted({r[-1] for r in body})

    def encode(r):
        out = []
        for j, a in enumerate(attrs):
            v = r[j]
            if v in ("", "?"):
                out.append(None)
            elif a in nominal:
                out.append(values[a].index(v))
            else:
                out.append(float(v))
        return out

    def write_arff(path, rs):
        with open(path, "w") as f:
            f.write(f"@relation {arff_quote(name)}\n")
            for a in attrs:
                kind = "{" + ",".join(arff_quote(v) for v in values[a]) + "}" if a in nominal else "numeric"
                f.write(f"@attribute {arff_quote(a)} {kind}\n")
            f.write("@attribute class {" + ",".join(arff_quote(c) for c in classes) + "}\n@data\n")
            for r in rs:
                cells = []
                for j, a in enumerate(attrs):
                    v = r[j]
                    cells.append("?" if v in ("", "?") else (arff_quote(v) if a in nominal else v))
                cells.append(arff_quote(r[-1]))
                f.write(",".join(cells) + "\n")

    train = [r for i, r in enumerate(body) if i % 3 != 0 and r[-1] not in leave_out]
    test = [r for i, r in enumerate(body) if i % 3 == 0]
    write_arff(f"{HERE}/{name}-train.arff", train)
    write_arff(f"{HERE}/{name}-test.arff", test)
    expected = {}
    if learners is None:
        learners = dict(LEARNERS)
        if len(classes) == 2:
            learners.update(COST_LEARNERS)
    for learner, command in learners.items():
        output = subprocess.run(
            ["java", "-cp", f"/usr/share/java/weka.jar:{HERE}", "WekaProbabilities",
             f"{HERE}/{name}-train.arff", f"{HERE}/{name}-test.arff"] + command,
            check=True, capture_output=True, text=True).stdout
        expected[learner] = [[float(x) for x in line.split()] for line in output.splitlines()]
        assert len(expected[learner]) == len(test)
    doc = {
        "source": "Weka 3.6.14 (Debian weka 3.6.14-3), distributionForInstance via "
                  "scripts in tests/data/weka/README.md; train = rows i % 3 != 0, test = rows i % 3 == 0 "
                  f"of datasets/{name}.csv"
                  + (f" without the training rows of the classes {list(leave_out)}" if leave_out else ""),
        "weka_options": {k: " ".join(v) for k, v in learners.items()},
        "attributes": [{"name": a, "values": values.get(a)} for a in attrs],
        "class_values": classes,
        "train": [encode(r) for r in train],
        "train_classes": [classes.index(r[-1]) for r in train],
        "test": [encode(r) for r in test],
        "expected": expected,
    }
    path = f"{out}/{name}{suffix}.json"
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(name + suffix, len(train), len(test), os.path.getsize(path))


if __name__ == "__main__":
    for name in sys.argv[2:] or ["breast-cancer", "pima", "crx", "glass", "heart-statlog"]:
        write_reference(name, sys.argv[1])
