"""The worker as the runner sees it: a subprocess spoken to in frames."""

import hashlib
import json
import os
import struct
import tempfile
import textwrap
import unittest

from support import (WorkerProcess, dataset_frame, have, probabilities, protocol, rows_frame,
                     unit_frame)

if have("numpy"):
    import numpy as np

# A class of one's own: nearest centroid, probabilities from the negative squared distances.
CENTROID = textwrap.dedent("""
    import numpy as np

    class Centroid:
        def __init__(self, scale=1.0, random_state=None):
            self.scale = scale
            self.random_state = random_state

        def fit(self, X, y):
            import sys
            if sys.stdout is sys.stderr:  # in a worker; run directly, be quiet
                print("fitting: this line must reach standard error, not the frames")
                import os
                os.write(1, b"and so must this one, written to file descriptor 1\\n")
            self.classes_ = np.unique(y)
            self.centres_ = np.array([X[y == c].mean(axis=0) for c in self.classes_])
            if self.random_state is not None:
                self.centres_ = self.centres_ + self.random_state * 1e-9
            return self

        def predict_proba(self, X):
            d = ((X[:, None, :] - self.centres_[None, :, :]) ** 2).sum(axis=2)
            e = np.exp(-self.scale * (d - d.min(axis=1, keepdims=True)))
            return e / e.sum(axis=1, keepdims=True)

    class Broken(Centroid):
        def fit(self, X, y):
            raise RuntimeError("broken on purpose")
""")

X = [[0.0, 1.0], [0.5, 1.5], [3.0, 0.0], [2.5, 0.5], [1.0, 1.0], [3.0, 1.0], [0.2, 0.7],
     [2.8, 0.1]]
Y = [0, 0, 1, 1, 0, 1, 0, 1]
TRAIN = [0, 1, 2, 3, 6, 7]
TEST = [4, 5]


@unittest.skipUnless(have("numpy"), "numpy is not installed")
class UserClass(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.module = os.path.join(self.folder.name, "centroid_learner.py")
        with open(self.module, "w") as file:
            file.write(CENTROID)
        self.worker = WorkerProcess(self.folder.name)

    def tearDown(self):
        self.worker.close()
        self.folder.cleanup()

    def hello(self, estimator="centroid_learner:Centroid", params=None):
        return self.worker.hello(json.dumps({"estimator": estimator, "params": params or {}}))

    def send_data(self, classes=("a", "b")):
        self.worker.send(dataset_frame(0, [None, None], list(classes)),
                         rows_frame(0, list(range(len(X))), X))

    def test_welcome_names_the_class_its_source_digest_and_versions(self):
        kind, body = self.hello()
        self.assertEqual(kind, protocol.WELCOME)
        version, bits = struct.unpack_from("<II", body)
        self.assertEqual(version, 1)
        self.assertEqual(bits, protocol.NOMINAL | protocol.MISSING | protocol.MULTI_CLASS)
        identity = json.loads(protocol.Body(body[8:], "WELCOME").text())
        with open(self.module, "rb") as file:
            self.assertEqual(identity["source_sha256"], hashlib.sha256(file.read()).hexdigest())
        self.assertEqual(identity["class"], "centroid_learner.Centroid")
        self.assertEqual(identity["versions"]["numpy"], np.__version__)

    def test_a_unit_gives_what_the_class_gives_run_directly(self):
        self.hello(params={"scale": 0.5})
        self.send_data(("a", "b", "c"))
        self.worker.send(unit_frame(0, 2**40 + 5, TRAIN, [Y[i] for i in TRAIN], TEST))
        rows, classes, values = probabilities(self.worker.receive())
        import sys
        sys.path.insert(0, self.folder.name)
        try:
            from centroid_learner import Centroid
        finally:
            sys.path.remove(self.folder.name)
        x = np.array(X)
        model = Centroid(scale=0.5, random_state=5).fit(x[TRAIN], np.array(Y)[TRAIN])
        direct = model.predict_proba(x[TEST])
        self.assertEqual((rows, classes), (2, 3))
        got = np.array(values).reshape(2, 3)
        # The seed modulo 2^32 became random_state; class c, absent from training, gets 0.
        np.testing.assert_array_equal(got[:, :2], direct)
        np.testing.assert_array_equal(got[:, 2], [0.0, 0.0])
        status, stderr = self.worker.close()
        self.assertEqual(status, 0)
        self.assertIn("fitting: this line must reach standard error", stderr)
        self.assertIn("and so must this one, written to file descriptor 1", stderr)

    def test_one_training_class_predicts_it_with_probability_one(self):
        self.hello()
        self.send_data()
        self.worker.send(unit_frame(0, 1, [0, 1], [1, 1], TEST))
        self.assertEqual(probabilities(self.worker.receive()), (2, 2, [0.0, 1.0, 0.0, 1.0]))

    def test_an_error_in_fit_fails_the_unit_and_the_worker_goes_on(self):
        self.hello()
        self.send_data()
        self.worker.send(unit_frame(0, 1, TRAIN, [Y[i] for i in TRAIN], TEST,
                                    weights=[2.0] * len(TRAIN)))
        kind, body = self.worker.receive()
        self.assertEqual(kind, protocol.ERROR)
        self.assertIn("fit takes no sample_weight", protocol.parse_error(body))
        self.worker.send(unit_frame(0, 1, TRAIN, [Y[i] for i in TRAIN], TEST))
        self.assertEqual(probabilities(self.worker.receive())[:2], (2, 2))

    def test_a_broken_class_fails_its_units_with_the_traceback(self):
        self.hello(estimator="centroid_learner:Broken")
        self.send_data()
        self.worker.send(unit_frame(0, 1, TRAIN, [Y[i] for i in TRAIN], TEST))
        kind, body = self.worker.receive()
        self.assertEqual(kind, protocol.ERROR)
        self.assertIn("RuntimeError: broken on purpose", protocol.parse_error(body))

    def test_a_class_that_cannot_be_made_is_refused_at_the_handshake(self):
        for estimator, params, needle in [
            ("no_such_module:X", {}, "cannot import module 'no_such_module'"),
            ("centroid_learner:Missing", {}, "has no attribute 'Missing'"),
            ("centroid_learner:np", {}, "is not a class"),
            ("centroid_learner:Centroid", {"depth": 3}, "unexpected keyword argument 'depth'"),
        ]:
            worker = WorkerProcess(self.folder.name)
            kind, body = worker.hello(json.dumps({"estimator": estimator, "params": params}))
            self.assertEqual(kind, protocol.ERROR, estimator)
            self.assertIn(needle, protocol.parse_error(body))
            self.assertEqual(worker.close()[0], 1)

    def test_a_module_named_like_an_installed_package_is_still_digested(self):
        # "six" is installed beside pandas and scikit-learn; this six.py is not its file.
        with open(os.path.join(self.folder.name, "six.py"), "w") as file:
            file.write(CENTROID)
        kind, body = self.hello(estimator="six:Centroid")
        self.assertEqual(kind, protocol.WELCOME)
        identity = json.loads(protocol.Body(body[8:], "WELCOME").text())
        self.assertIn("source_sha256", identity)
        self.assertNotIn("six", identity["versions"])

    def test_editing_the_class_changes_the_identity(self):
        def identity():
            worker = WorkerProcess(self.folder.name)
            kind, body = worker.hello(json.dumps({"estimator": "centroid_learner:Centroid"}))
            worker.close()
            return protocol.Body(body[8:], "WELCOME").text()

        before = identity()
        self.assertEqual(before, identity())
        with open(self.module, "a") as file:
            file.write("\n# edited\n")
        self.assertNotEqual(before, identity())


@unittest.skipUnless(have("numpy") and have("sklearn"), "scikit-learn is not installed")
class ScikitLearn(unittest.TestCase):
    def run_unit(self, estimator, params, seed):
        worker = WorkerProcess()
        kind, body = worker.hello(json.dumps({"estimator": estimator, "params": params}))
        self.assertEqual(kind, protocol.WELCOME, body)
        rng = np.random.default_rng(3)
        x = rng.normal(size=(60, 4))
        y = (x[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int) + (x[:, 1] > 1)
        worker.send(dataset_frame(0, [None] * 4, ["a", "b", "c"]),
                    rows_frame(0, list(range(60)), x.tolist()),
                    unit_frame(0, seed, list(range(40)), y[:40].tolist(), list(range(40, 60))))
        rows, classes, values = probabilities(worker.receive())
        self.assertEqual(worker.close()[0], 0)
        identity = json.loads(protocol.Body(body[8:], "WELCOME").text())
        return np.array(values).reshape(rows, classes), x, y, identity

    def test_logistic_regression_equals_scikit_learn_run_directly(self):
        from sklearn.linear_model import LogisticRegression
        import sklearn
        got, x, y, identity = self.run_unit("sklearn.linear_model:LogisticRegression",
                                            {"C": 0.5, "max_iter": 500}, 1)
        direct = LogisticRegression(C=0.5, max_iter=500).fit(x[:40], y[:40])
        np.testing.assert_array_equal(got, direct.predict_proba(x[40:]))
        self.assertEqual(identity["versions"]["scikit-learn"], sklearn.__version__)
        self.assertNotIn("source_sha256", identity)

    def test_random_state_is_the_seed_modulo_two_to_the_32(self):
        from sklearn.ensemble import RandomForestClassifier
        seed = 2**33 + 12345
        got, x, y, _ = self.run_unit("sklearn.ensemble:RandomForestClassifier",
                                     {"n_estimators": 20}, seed)
        direct = RandomForestClassifier(n_estimators=20, random_state=12345).fit(x[:40], y[:40])
        np.testing.assert_array_equal(got, direct.predict_proba(x[40:]))


@unittest.skipUnless(have("numpy"), "numpy is not installed")
class Lifetime(unittest.TestCase):
    def test_the_worker_exits_at_bye_and_at_the_end_of_its_input(self):
        worker = WorkerProcess()
        worker.send(protocol.frame(protocol.BYE))
        self.assertEqual(worker.close()[0], 0)
        worker = WorkerProcess()
        self.assertEqual(worker.close()[0], 0)

    def test_another_protocol_version_is_refused(self):
        worker = WorkerProcess()
        worker.send(protocol.frame(protocol.HELLO, struct.pack("<I", 2), protocol.text("{}")))
        kind, body = worker.receive()
        self.assertEqual(kind, protocol.ERROR)
        self.assertIn("protocol version 2", protocol.parse_error(body))
        self.assertEqual(worker.close()[0], 1)


if __name__ == "__main__":
    unittest.main()
