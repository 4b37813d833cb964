"""The frames of the learner-worker protocol, version 1 (``docs/worker-protocol.md``), with the
standard library only.

A frame is a ``u32`` length of what follows, a type byte and the body; every number is
little-endian; a string is a ``u32`` byte length and its UTF-8 bytes. Arrays are returned as
``bytes`` (little-endian) for the caller to view with numpy or :mod:`struct`.
"""

import struct

VERSION = 1

# Runner to worker.
HELLO = 0x01
DATASET = 0x02
ROWS = 0x03
FIT_PREDICT = 0x04
FORGET = 0x05
BYE = 0x06
# Worker to runner.
WELCOME = 0x81
PROBABILITIES = 0x82
ERROR = 0x83

# Capability bits of WELCOME.
NOMINAL = 1
MISSING = 2
MULTI_CLASS = 4
WEIGHTS = 8

#: The longest frame a worker reads (its length field): 4 GiB - 1, what a u32 holds.
MAX_FRAME = 0xFFFFFFFF


class ProtocolError(Exception):
    """Bytes that are not a frame of the protocol."""


def read_exact(stream, count):
    """Exactly ``count`` bytes, or fewer if the stream ends."""
    chunks = []
    left = count
    while left > 0:
        chunk = stream.read(left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_frame(stream):
    """The next frame as ``(type, body)``, or ``None`` when the stream ends between frames."""
    header = read_exact(stream, 5)
    if not header:
        return None
    if len(header) < 5:
        raise ProtocolError(f"the input ended inside a frame header ({len(header)} of 5 bytes)")
    length, kind = struct.unpack("<IB", header)
    if length < 1:
        raise ProtocolError("a frame of length 0 (the length counts the type byte)")
    body = read_exact(stream, length - 1)
    if len(body) < length - 1:
        raise ProtocolError(f"the input ended inside a frame ({len(body)} of {length - 1} bytes)")
    return kind, body


def frame(kind, *parts):
    """The bytes of a frame of type ``kind`` whose body is the concatenated ``parts``."""
    body = b"".join(parts)
    return struct.pack("<IB", len(body) + 1, kind) + body


def text(value):
    """A string's bytes: its UTF-8 length (u32) and the UTF-8."""
    data = value.encode("utf-8")
    return struct.pack("<I", len(data)) + data


class Body:
    """Reads a frame's body field by field."""

    def __init__(self, data, what):
        self.data = data
        self.offset = 0
        self.what = what

    def take(self, count):
        if self.offset + count > len(self.data):
            raise ProtocolError(f"a {self.what} frame ends too early")
        part = self.data[self.offset:self.offset + count]
        self.offset += count
        return part

    def u8(self):
        return self.take(1)[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def text(self):
        return self.take(self.u32()).decode("utf-8")

    def array(self, count, size):
        """``count`` items of ``size`` bytes each, as bytes."""
        return self.take(count * size)

    def end(self):
        if self.offset != len(self.data):
            raise ProtocolError(f"a {self.what} frame has {len(self.data) - self.offset} bytes "
                                "more than its fields")


def parse_hello(body):
    """HELLO: ``(version, options)`` (options: JSON text)."""
    reader = Body(body, "HELLO")
    version = reader.u32()
    options = reader.text()
    reader.end()
    return version, options


def parse_dataset(body):
    """DATASET: ``(slot, attributes, class_name, classes)``; each attribute is ``(name, levels)``,
    ``levels`` None for a numeric one and the list of level names for a nominal one."""
    reader = Body(body, "DATASET")
    slot = reader.u32()
    attributes = []
    for _ in range(reader.u32()):
        name = reader.text()
        kind = reader.u8()
        if kind == 0:
            attributes.append((name, None))
        elif kind == 1:
            attributes.append((name, [reader.text() for _ in range(reader.u32())]))
        else:
            raise ProtocolError(f"attribute {name!r} has kind {kind} (0 numeric, 1 nominal)")
    class_name = reader.text()
    classes = [reader.text() for _ in range(reader.u32())]
    reader.end()
    return slot, attributes, class_name, classes


def parse_slot_and_count(body, what):
    """The slot (u32) and count (u64) that ROWS frames start with, and the rest."""
    reader = Body(body, what)
    return reader.u32(), reader.u64(), reader


def parse_rows(body, width):
    """ROWS: ``(slot, count, ids, values)``: ``count`` row ids (u64 bytes) and their
    ``count * width`` attribute values (f64 bytes, row-major)."""
    slot, count, reader = parse_slot_and_count(body, "ROWS")
    ids = reader.array(count, 8)
    values = reader.array(count * width, 8)
    reader.end()
    return slot, count, ids, values


def parse_fit_predict(body):
    """FIT_PREDICT: a dict with ``slot``, ``seed``, ``train`` (u64 bytes), ``classes`` (u32
    bytes), ``weights`` (f64 bytes), ``test`` (u64 bytes) and the counts ``n_train``,
    ``n_test``."""
    reader = Body(body, "FIT_PREDICT")
    slot = reader.u32()
    seed = reader.u64()
    n_train = reader.u64()
    train = reader.array(n_train, 8)
    classes = reader.array(n_train, 4)
    weights = reader.array(n_train, 8)
    n_test = reader.u64()
    test = reader.array(n_test, 8)
    reader.end()
    return {"slot": slot, "seed": seed, "n_train": n_train, "train": train, "classes": classes,
            "weights": weights, "n_test": n_test, "test": test}


def parse_forget(body):
    """FORGET: the slot."""
    reader = Body(body, "FORGET")
    slot = reader.u32()
    reader.end()
    return slot


def parse_error(body):
    """ERROR: the message."""
    reader = Body(body, "ERROR")
    message = reader.text()
    reader.end()
    return message


def welcome(capabilities, identity, version=VERSION):
    """A WELCOME frame."""
    return frame(WELCOME, struct.pack("<II", version, capabilities), text(identity))


def probabilities(rows, classes, values):
    """A PROBABILITIES frame; ``values`` are the row-major f64 bytes (little-endian)."""
    return frame(PROBABILITIES, struct.pack("<QI", rows, classes), values)


def error(message):
    """An ERROR frame."""
    return frame(ERROR, text(message))
