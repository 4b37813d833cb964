"""The learner worker: ``python -m experiments_py.worker``, started by the runner's ``python``
learner kind, serves one learner over the protocol of ``docs/worker-protocol.md`` on its
standard input and output until BYE or the end of its input.

Its standard output carries frames only: anything else printed (by the estimator, a library or
your own code, through Python or C) goes to standard error, which the runner quotes when a unit
fails.
"""

import json
import os
import sys
import traceback

import numpy as np

from . import protocol
from .estimator import Learner


class Table:
    """The rows of one dataset sent so far: attribute values by dataset row id."""

    def __init__(self, attributes, classes):
        self.levels = [levels for _, levels in attributes]
        self.n_classes = len(classes)
        self.width = len(attributes)
        self.values = np.full((0, self.width), np.nan)
        self.known = np.zeros(0, dtype=bool)

    def put(self, ids, values):
        """Stores rows (ids: uint64 array; values: row-major float64 array)."""
        if ids.size == 0:
            return
        needed = int(ids.max()) + 1
        if needed > self.known.size:
            size = max(needed, 2 * self.known.size)
            grown = np.full((size, self.width), np.nan)
            grown[:self.known.size] = self.values
            known = np.zeros(size, dtype=bool)
            known[:self.known.size] = self.known
            self.values, self.known = grown, known
        self.values[ids] = values.reshape(ids.size, self.width)
        self.known[ids] = True

    def rows(self, ids):
        """The values of rows that were sent (a copy, in the order of ``ids``)."""
        if ids.size and (int(ids.max()) >= self.known.size or not self.known[ids].all()):
            raise ValueError("the unit names rows that were never sent (a runner bug)")
        return self.values[ids]


class Worker:
    """One worker's state: its learner (after HELLO) and its datasets."""

    def __init__(self):
        self.learner = None
        self.tables = {}

    def hello(self, body):
        """The handshake's answer: WELCOME, or ERROR when the learner cannot be made."""
        version, options = protocol.parse_hello(body)
        if version != protocol.VERSION:
            return protocol.error(f"the runner speaks protocol version {version}, this worker "
                                  f"version {protocol.VERSION}: install the experiments_py of "
                                  "the runner's repository (pip install ./python)"), False
        try:
            self.learner = Learner(json.loads(options))
            frame = protocol.welcome(self.learner.capabilities(), self.learner.identity())
        except Exception as error:  # the runner shows the reason: any is the learner's own
            return protocol.error(f"{type(error).__name__}: {error}"), False
        return frame, True

    def dataset(self, body):
        slot, attributes, _, classes = protocol.parse_dataset(body)
        self.tables[slot] = Table(attributes, classes)

    def rows(self, body):
        slot = protocol.Body(body, "ROWS").u32()
        table = self.tables[slot]
        _, count, ids, values = protocol.parse_rows(body, table.width)
        table.put(np.frombuffer(ids, dtype="<u8").astype(np.intp),
                  np.frombuffer(values, dtype="<f8").astype(np.float64))

    def fit_predict(self, body):
        """One unit's answer: PROBABILITIES, or ERROR with the traceback."""
        unit = protocol.parse_fit_predict(body)
        try:
            table = self.tables[unit["slot"]]
            train = table.rows(np.frombuffer(unit["train"], dtype="<u8").astype(np.intp))
            test = table.rows(np.frombuffer(unit["test"], dtype="<u8").astype(np.intp))
            y = np.frombuffer(unit["classes"], dtype="<u4").astype(np.int64)
            weights = np.frombuffer(unit["weights"], dtype="<f8").astype(np.float64)
            proba = self.learner.fit_predict(train, y, weights, test, table.levels,
                                             table.n_classes, unit["seed"])
        except Exception:  # the unit fails with the traceback; the worker goes on
            return protocol.error(traceback.format_exc())
        values = np.ascontiguousarray(proba, dtype="<f8").tobytes()
        return protocol.probabilities(proba.shape[0], proba.shape[1], values)


def serve(source, sink):
    """Answers frames from ``source`` on ``sink`` until BYE or the end of ``source``; returns
    the exit status."""
    worker = Worker()
    while True:
        try:
            received = protocol.read_frame(source)
        except protocol.ProtocolError as error:
            print(f"experiments_py.worker: {error}", file=sys.stderr)
            return 2
        if received is None:
            return 0
        kind, body = received
        if kind == protocol.BYE:
            return 0
        if kind == protocol.HELLO:
            reply, ok = worker.hello(body)
            sink.write(reply)
            sink.flush()
            if not ok:
                return 1
        elif worker.learner is None:
            print(f"experiments_py.worker: frame type 0x{kind:02x} before HELLO", file=sys.stderr)
            return 2
        elif kind == protocol.DATASET:
            worker.dataset(body)
        elif kind == protocol.ROWS:
            worker.rows(body)
        elif kind == protocol.FIT_PREDICT:
            sink.write(worker.fit_predict(body))
            sink.flush()
        elif kind == protocol.FORGET:
            worker.tables.pop(protocol.parse_forget(body), None)
        else:
            print(f"experiments_py.worker: unknown frame type 0x{kind:02x}", file=sys.stderr)
            return 2


def main():
    """Serves the protocol on standard input and output (the latter kept for frames only)."""
    sink = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    return serve(sys.stdin.buffer, sink)


if __name__ == "__main__":
    sys.exit(main())
