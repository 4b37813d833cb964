"""Reference content hash of tests/data/three_ways.* following the byte layout documented in
crates/data/src/hash.rs, written independently with hashlib (Python 3.11). Prints the hex digest.
"""
import hashlib
import math
import struct

MISSING = 0x7FF8000000000000


def text(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def bits(x):
    return struct.pack("<Q", MISSING if math.isnan(x) else struct.unpack("<Q", struct.pack("<d", x))[0])


nan = float("nan")
attributes = [
    ("temperature", None),
    ("outlook", ["sunny", "overcast", "light rain"]),
    ("windy", ["FALSE", "TRUE"]),
]
columns = [
    [85.0, 80.5, nan, 70.0, 68.0, -30.0],
    [0, 0, 1, 2, 2, 1],
    [0, 1, 0, nan, 0, 1],
]
classes = [0, 0, 1, 1, 1, 1]
weights = [1.0] * 6

h = hashlib.sha256()
h.update(b"data-content-hash v1\n")
h.update(struct.pack("<Q", len(attributes)))
for name, values in attributes:
    h.update(text(name))
    if values is None:
        h.update(b"\x00")
    else:
        h.update(b"\x01" + struct.pack("<Q", len(values)))
        for v in values:
            h.update(text(v))
h.update(text("class"))
h.update(struct.pack("<Q", 2) + text("no") + text("yes"))
h.update(struct.pack("<Q", len(classes)))
for column in columns:
    for v in column:
        h.update(bits(float(v)))
for c in classes:
    h.update(struct.pack("<I", c))
for w in weights:
    h.update(bits(w))
print(h.hexdigest())
