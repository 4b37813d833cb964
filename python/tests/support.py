"""What the tests share: the package from this folder's parent, and a worker subprocess."""

import os
import struct
import subprocess
import sys

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)

from experiments_py import protocol  # noqa: E402


def have(module):
    """True when a module can be imported."""
    try:
        __import__(module)
        return True
    except ImportError:
        return False


class WorkerProcess:
    """``python -m experiments_py.worker`` run from this folder's package, with extra folders
    on its PYTHONPATH."""

    def __init__(self, *folders):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([*folders, PACKAGE_ROOT, env.get("PYTHONPATH", "")])
        self.process = subprocess.Popen([sys.executable, "-m", "experiments_py.worker"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env)

    def send(self, *frames):
        self.process.stdin.write(b"".join(frames))
        self.process.stdin.flush()

    def receive(self):
        return protocol.read_frame(self.process.stdout)

    def hello(self, options):
        self.send(protocol.frame(protocol.HELLO, struct.pack("<I", protocol.VERSION),
                                 protocol.text(options)))
        return self.receive()

    def close(self):
        """Closes the worker's input and returns its exit status and standard error."""
        if self.process.stdin.closed:
            return self.process.returncode, ""
        self.process.stdin.close()
        status = self.process.wait(timeout=30)
        stderr = self.process.stderr.read().decode()
        self.process.stdout.close()
        self.process.stderr.close()
        return status, stderr


def dataset_frame(slot, levels, classes):
    """A DATASET frame: attribute i is numeric when ``levels[i]`` is None, else nominal."""
    parts = [struct.pack("<II", slot, len(levels))]
    for index, found in enumerate(levels):
        parts.append(protocol.text(f"a{index}"))
        if found is None:
            parts.append(b"\x00")
        else:
            parts.append(b"\x01" + struct.pack("<I", len(found)))
            parts.extend(protocol.text(level) for level in found)
    parts.append(protocol.text("class") + struct.pack("<I", len(classes)))
    parts.extend(protocol.text(name) for name in classes)
    return protocol.frame(protocol.DATASET, *parts)


def rows_frame(slot, ids, values):
    """A ROWS frame: row ids and their values (a list of rows)."""
    flat = [value for row in values for value in row]
    return protocol.frame(protocol.ROWS, struct.pack(f"<IQ{len(ids)}Q", slot, len(ids), *ids),
                          struct.pack(f"<{len(flat)}d", *flat))


def unit_frame(slot, seed, train, classes, test, weights=None):
    """A FIT_PREDICT frame."""
    weights = weights or [1.0] * len(train)
    n = len(train)
    return protocol.frame(protocol.FIT_PREDICT,
                          struct.pack(f"<IQQ{n}Q", slot, seed, n, *train),
                          struct.pack(f"<{n}I", *classes), struct.pack(f"<{n}d", *weights),
                          struct.pack(f"<Q{len(test)}Q", len(test), *test))


def probabilities(frame):
    """The (rows, classes, values) of a PROBABILITIES frame."""
    kind, body = frame
    assert kind == protocol.PROBABILITIES, (hex(kind), body)
    rows, classes = struct.unpack_from("<QI", body)
    values = list(struct.unpack_from(f"<{rows * classes}d", body, 12))
    return rows, classes, values
