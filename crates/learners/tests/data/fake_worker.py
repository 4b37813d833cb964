#!/usr/bin/env python3
"""A worker for the runner's tests, standard library only: it predicts, for every test row, the
weighted class frequencies of the unit's training rows, and misbehaves on request.

    fake_worker.py MODE [ARG...]

MODE:
  ok                      behave
  record LOG              behave, and append every frame received to LOG as one JSON line
  silent                  never answer the handshake
  refuse                  answer the handshake with ERROR
  zero                    answer the handshake with a frame of length 0, then wait
  fail KIND N MARKER      behave, but at the N-th unit of this process, if the file MARKER does
                          not exist, create it and misbehave as KIND: crash, sleep, garbage,
                          short, shape, nan, error, zero (a frame of length 0, then go on)
                          (so a restarted worker behaves)
"""

import json
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "python"))
from experiments_py import protocol  # noqa: E402


def unpack(fmt, data):
    count = len(data) // struct.calcsize(fmt)
    return list(struct.unpack(f"<{count}{fmt}", data))


def record(log, kind, body, tables):
    """One JSON line describing a frame as the worker decoded it."""
    entry = {"type": kind}
    if kind == protocol.DATASET:
        slot, attributes, class_name, classes = protocol.parse_dataset(body)
        entry.update(slot=slot, attributes=attributes, class_name=class_name, classes=classes)
    elif kind == protocol.ROWS:
        slot = protocol.Body(body, "ROWS").u32()
        _, count, ids, values = protocol.parse_rows(body, tables[slot])
        entry.update(slot=slot, ids=unpack("Q", ids),
                     values=[None if v != v else v for v in unpack("d", values)])
    elif kind == protocol.FIT_PREDICT:
        unit = protocol.parse_fit_predict(body)
        entry.update(slot=unit["slot"], seed=unit["seed"], train=unpack("Q", unit["train"]),
                     classes=unpack("I", unit["classes"]), weights=unpack("d", unit["weights"]),
                     test=unpack("Q", unit["test"]))
    with open(log, "a") as file:
        file.write(json.dumps(entry) + "\n")


def frequencies(unit, n_classes):
    counts = [0.0] * n_classes
    for label, weight in zip(unpack("I", unit["classes"]), unpack("d", unit["weights"])):
        counts[label] += weight
    total = sum(counts)
    return [count / total for count in counts]


def misbehave(kind, out, rows, n_classes):
    if kind == "crash":
        print("fake worker: crashing on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    if kind == "sleep":
        print("fake worker: sleeping on purpose", file=sys.stderr, flush=True)
        time.sleep(60)
    if kind == "garbage":
        out.write(b"hello world, this is not a frame\n")
    elif kind == "short":
        out.write(struct.pack("<IB", 1000, protocol.PROBABILITIES) + b"\x00" * 10)
        out.flush()
        sys.exit(0)
    elif kind == "shape":
        out.write(protocol.probabilities(rows - 1, n_classes,
                                         struct.pack(f"<{(rows - 1) * n_classes}d",
                                                     *[1.0 / n_classes] * ((rows - 1) * n_classes))))
    elif kind == "nan":
        values = [1.0 / n_classes] * (rows * n_classes)
        values[0] = float("nan")
        out.write(protocol.probabilities(rows, n_classes, struct.pack(f"<{len(values)}d", *values)))
    elif kind == "error":
        out.write(protocol.error("ValueError: the learner failed on purpose"))
    elif kind == "zero":
        out.write(struct.pack("<I", 0))
    out.flush()


def main():
    mode = sys.argv[1]
    out = sys.stdout.buffer
    source = sys.stdin.buffer
    tables = {}
    classes_of = {}
    units = 0
    while True:
        received = protocol.read_frame(source)
        if received is None:
            return 0
        kind, body = received
        if mode == "record":
            record(sys.argv[2], kind, body, tables)
        if kind == protocol.HELLO:
            if mode == "silent":
                time.sleep(60)
                return 0
            if mode == "zero":
                print("fake worker: a frame of length 0 on purpose", file=sys.stderr, flush=True)
                out.write(struct.pack("<I", 0))
                out.flush()
                time.sleep(60)
                return 0
            if mode == "refuse":
                print("fake worker: no such estimator", file=sys.stderr, flush=True)
                out.write(protocol.error("ImportError: cannot import module 'nowhere'"))
                out.flush()
                return 1
            out.write(protocol.welcome(protocol.NOMINAL | protocol.MISSING | protocol.MULTI_CLASS
                                       | protocol.WEIGHTS, "fake worker 1 " + mode))
            out.flush()
        elif kind == protocol.DATASET:
            slot, attributes, _, classes = protocol.parse_dataset(body)
            tables[slot] = len(attributes)
            classes_of[slot] = len(classes)
        elif kind == protocol.FIT_PREDICT:
            units += 1
            unit = protocol.parse_fit_predict(body)
            n_classes = classes_of[unit["slot"]]
            if mode == "fail" and units == int(sys.argv[3]) and not os.path.exists(sys.argv[4]):
                open(sys.argv[4], "w").close()
                misbehave(sys.argv[2], out, unit["n_test"], n_classes)
                continue
            row = frequencies(unit, n_classes)
            values = struct.pack(f"<{unit['n_test'] * n_classes}d", *(row * unit["n_test"]))
            out.write(protocol.probabilities(unit["n_test"], n_classes, values))
            out.flush()
        elif kind == protocol.BYE:
            return 0


if __name__ == "__main__":
    sys.exit(main())
