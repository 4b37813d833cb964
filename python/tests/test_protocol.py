"""The frames' bytes as docs/worker-protocol.md spells them out."""

import io
import struct
import unittest

from support import protocol


class Frames(unittest.TestCase):
    def test_hello_bytes(self):
        frame = protocol.frame(protocol.HELLO, struct.pack("<I", 1), protocol.text("{}"))
        self.assertEqual(frame, bytes([11, 0, 0, 0, 0x01, 1, 0, 0, 0, 2, 0, 0, 0])
                         + b"{}")
        self.assertEqual(protocol.parse_hello(frame[5:]), (1, "{}"))

    def test_welcome_bytes(self):
        frame = protocol.welcome(protocol.NOMINAL | protocol.WEIGHTS, "id")
        self.assertEqual(frame, bytes([15, 0, 0, 0, 0x81, 1, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0])
                         + b"id")

    def test_probabilities_bytes(self):
        frame = protocol.probabilities(1, 2, struct.pack("<2d", 0.25, 0.75))
        self.assertEqual(frame[:5], bytes([29, 0, 0, 0, 0x82]))
        self.assertEqual(frame[5:17], bytes([1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]))

    def test_read_frame_ends_cleanly_only_between_frames(self):
        frame = protocol.frame(protocol.BYE)
        stream = io.BytesIO(frame)
        self.assertEqual(protocol.read_frame(stream), (protocol.BYE, b""))
        self.assertIsNone(protocol.read_frame(stream))
        with self.assertRaises(protocol.ProtocolError):
            protocol.read_frame(io.BytesIO(frame[:3]))
        with self.assertRaises(protocol.ProtocolError):
            protocol.read_frame(io.BytesIO(struct.pack("<IB", 9, protocol.ROWS) + b"abc"))

    def test_fields_past_the_end_or_left_over_are_refused(self):
        with self.assertRaises(protocol.ProtocolError):
            protocol.parse_hello(struct.pack("<I", 1))
        with self.assertRaises(protocol.ProtocolError):
            protocol.parse_forget(struct.pack("<IB", 1, 0))

    def test_dataset_and_unit_round_trip(self):
        from support import dataset_frame, unit_frame
        frame = dataset_frame(3, [None, ["r", "g"]], ["no", "yes"])
        slot, attributes, class_name, classes = protocol.parse_dataset(frame[5:])
        self.assertEqual((slot, attributes, class_name, classes),
                         (3, [("a0", None), ("a1", ["r", "g"])], "class", ["no", "yes"]))
        unit = protocol.parse_fit_predict(unit_frame(3, 7, [4, 5], [1, 0], [9])[5:])
        self.assertEqual((unit["slot"], unit["seed"], unit["n_train"], unit["n_test"]),
                         (3, 7, 2, 1))
        self.assertEqual(struct.unpack("<2I", unit["classes"]), (1, 0))


if __name__ == "__main__":
    unittest.main()
