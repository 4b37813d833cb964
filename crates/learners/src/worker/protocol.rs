//! The bytes of the learner-worker protocol, version 1 (`docs/worker-protocol.md` is the
//! reference): frames written to a worker and the replies read from it, as pure functions over
//! byte buffers.
//!
//! A frame is a `u32` length (little-endian) of what follows, a type byte, and the body. Every
//! integer and float is little-endian; a string is a `u32` byte length and its UTF-8 bytes.

use data::{AttributeKind, Schema};

use crate::spec::Capabilities;

/// The protocol version this runner speaks.
pub const VERSION: u32 = 1;

/// Runner to worker: the version and the learner's options (JSON).
pub const HELLO: u8 = 0x01;
/// Runner to worker: a dataset slot's schema (attributes, their kinds and levels, classes).
pub const DATASET: u8 = 0x02;
/// Runner to worker: attribute values of some rows of a slot (never their classes).
pub const ROWS: u8 = 0x03;
/// Runner to worker: one unit (training rows with their classes and weights, test rows, seed).
pub const FIT_PREDICT: u8 = 0x04;
/// Runner to worker: forget a slot.
pub const FORGET: u8 = 0x05;
/// Runner to worker: stop now (exit 0, no reply).
pub const BYE: u8 = 0x06;
/// Worker to runner: the handshake's answer (version, capabilities, identity).
pub const WELCOME: u8 = 0x81;
/// Worker to runner: one unit's class probabilities.
pub const PROBABILITIES: u8 = 0x82;
/// Worker to runner: the handshake or the unit failed, and why.
pub const ERROR: u8 = 0x83;

/// The name of a frame type, for messages (`"unknown"` for a type the protocol does not have).
pub fn type_name(kind: u8) -> &'static str {
    match kind {
        HELLO => "HELLO",
        DATASET => "DATASET",
        ROWS => "ROWS",
        FIT_PREDICT => "FIT_PREDICT",
        FORGET => "FORGET",
        BYE => "BYE",
        WELCOME => "WELCOME",
        PROBABILITIES => "PROBABILITIES",
        ERROR => "ERROR",
        _ => "unknown",
    }
}

/// The longest WELCOME or ERROR frame a runner reads (its length field), 1 MiB.
pub const MAX_TEXT_FRAME: u64 = 1 << 20;

/// The most bytes one ROWS frame carries, so that any dataset fits in frames of `u32` length.
const MAX_ROWS_FRAME: usize = 64 << 20;

/// Capability bits of a WELCOME frame.
const NOMINAL: u32 = 1;
const MISSING: u32 = 2;
const MULTI_CLASS: u32 = 4;
const WEIGHTS: u32 = 8;

/// A frame under construction in a buffer: the length is written when it is finished.
struct Frame<'a> {
    buffer: &'a mut Vec<u8>,
    start: usize,
}

impl<'a> Frame<'a> {
    fn begin(buffer: &'a mut Vec<u8>, kind: u8) -> Self {
        let start = buffer.len();
        buffer.extend_from_slice(&[0, 0, 0, 0, kind]);
        Frame { buffer, start }
    }

    fn u32(&mut self, value: u32) -> &mut Self {
        self.buffer.extend_from_slice(&value.to_le_bytes());
        self
    }

    fn u64(&mut self, value: u64) -> &mut Self {
        self.buffer.extend_from_slice(&value.to_le_bytes());
        self
    }

    fn f64(&mut self, value: f64) -> &mut Self {
        self.buffer.extend_from_slice(&value.to_le_bytes());
        self
    }

    fn text(&mut self, text: &str) -> &mut Self {
        self.u32(text.len() as u32);
        self.buffer.extend_from_slice(text.as_bytes());
        self
    }

    fn finish(self) {
        let length = (self.buffer.len() - self.start - 4) as u32;
        self.buffer[self.start..self.start + 4].copy_from_slice(&length.to_le_bytes());
    }
}

/// Appends a HELLO frame: this runner's version and the learner's options as JSON text.
pub fn hello(buffer: &mut Vec<u8>, options: &str) {
    let mut frame = Frame::begin(buffer, HELLO);
    frame.u32(VERSION).text(options);
    frame.finish();
}

/// Appends a DATASET frame defining slot `slot` with a schema.
pub fn dataset(buffer: &mut Vec<u8>, slot: u32, schema: &Schema) {
    let mut frame = Frame::begin(buffer, DATASET);
    frame.u32(slot).u32(schema.attributes.len() as u32);
    for attribute in &schema.attributes {
        frame.text(&attribute.name);
        match &attribute.kind {
            AttributeKind::Numeric => {
                frame.buffer.push(0);
            }
            AttributeKind::Nominal(levels) => {
                frame.buffer.push(1);
                frame.u32(levels.len() as u32);
                for level in levels {
                    frame.text(level);
                }
            }
        }
    }
    frame.text(&schema.class_name);
    frame.u32(schema.class_values.len() as u32);
    for class in &schema.class_values {
        frame.text(class);
    }
    frame.finish();
}

/// Appends ROWS frames for slot `slot`: the dataset row ids `rows` and their attribute values,
/// row-major (`width` values a row; a nominal value is its level index, a missing one NaN).
/// Splits them over several frames when they are large.
pub fn rows(buffer: &mut Vec<u8>, slot: u32, width: usize, rows: &[u64], values: &[f64]) {
    debug_assert_eq!(rows.len() * width, values.len());
    let per_row = 8 * (1 + width);
    let chunk = (MAX_ROWS_FRAME / per_row).max(1);
    for (index, ids) in rows.chunks(chunk).enumerate() {
        let values = &values[index * chunk * width..][..ids.len() * width];
        let mut frame = Frame::begin(buffer, ROWS);
        frame.u32(slot).u64(ids.len() as u64);
        for &id in ids {
            frame.u64(id);
        }
        for &value in values {
            frame.f64(value);
        }
        frame.finish();
    }
}

/// One unit as the worker receives it: training rows with their classes and weights, the rows
/// to predict (without classes), and the seed of the unit's random choices.
pub struct Unit<'a> {
    /// The dataset slot the rows belong to.
    pub slot: u32,
    /// The seed of the unit.
    pub seed: u64,
    /// Training row ids.
    pub train: &'a [u64],
    /// The class index of each training row.
    pub classes: &'a [u32],
    /// The weight of each training row.
    pub weights: &'a [f64],
    /// The row ids to predict.
    pub test: &'a [u64],
}

/// Appends a FIT_PREDICT frame.
pub fn fit_predict(buffer: &mut Vec<u8>, unit: &Unit) {
    let mut frame = Frame::begin(buffer, FIT_PREDICT);
    frame
        .u32(unit.slot)
        .u64(unit.seed)
        .u64(unit.train.len() as u64);
    for &row in unit.train {
        frame.u64(row);
    }
    for &class in unit.classes {
        frame.u32(class);
    }
    for &weight in unit.weights {
        frame.f64(weight);
    }
    frame.u64(unit.test.len() as u64);
    for &row in unit.test {
        frame.u64(row);
    }
    frame.finish();
}

/// Appends a FORGET frame for slot `slot`.
pub fn forget(buffer: &mut Vec<u8>, slot: u32) {
    let mut frame = Frame::begin(buffer, FORGET);
    frame.u32(slot);
    frame.finish();
}

/// Appends a BYE frame.
pub fn bye(buffer: &mut Vec<u8>) {
    Frame::begin(buffer, BYE).finish();
}

/// The answer to a HELLO.
#[derive(Clone, Debug, PartialEq)]
pub struct Welcome {
    /// The protocol version the worker speaks.
    pub version: u32,
    /// What data the worker's learner handles.
    pub capabilities: Capabilities,
    /// The worker's identity: everything its outputs depend on besides the data and the seed
    /// (its learner, parameters, versions, source digests), as text.
    pub identity: String,
}

/// Reads the body of a frame, field by field; a body too short is a malformed frame.
struct Reader<'a> {
    body: &'a [u8],
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Result<&'a [u8], String> {
        if self.body.len() < count {
            return Err(format!(
                "a {} frame ends too early ({count} more bytes expected, {} left)",
                self.what,
                self.body.len()
            ));
        }
        let (head, rest) = self.body.split_at(count);
        self.body = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let bytes = self.take(4)?;
        Ok(u32::from_le_bytes(bytes.try_into().expect("4 bytes")))
    }

    fn u64(&mut self) -> Result<u64, String> {
        let bytes = self.take(8)?;
        Ok(u64::from_le_bytes(bytes.try_into().expect("8 bytes")))
    }

    fn text(&mut self) -> Result<String, String> {
        let length = self.u32()? as usize;
        let bytes = self.take(length)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| format!("a {} frame holds text that is not UTF-8", self.what))
    }

    fn end(&self) -> Result<(), String> {
        if self.body.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "a {} frame has {} bytes more than its fields",
                self.what,
                self.body.len()
            ))
        }
    }
}

/// Parses a WELCOME body.
pub fn parse_welcome(body: &[u8]) -> Result<Welcome, String> {
    let mut reader = Reader {
        body,
        what: "WELCOME",
    };
    let version = reader.u32()?;
    let bits = reader.u32()?;
    let identity = reader.text()?;
    reader.end()?;
    Ok(Welcome {
        version,
        capabilities: Capabilities {
            nominal_attributes: bits & NOMINAL != 0,
            missing_values: bits & MISSING != 0,
            multi_class: bits & MULTI_CLASS != 0,
            instance_weights: bits & WEIGHTS != 0,
        },
        identity,
    })
}

/// Parses an ERROR body: the worker's message.
pub fn parse_error(body: &[u8]) -> Result<String, String> {
    let mut reader = Reader {
        body,
        what: "ERROR",
    };
    let message = reader.text()?;
    reader.end()?;
    Ok(message)
}

/// The length field of a PROBABILITIES frame of `rows` rows of `classes` classes.
pub fn probabilities_length(rows: usize, classes: usize) -> u64 {
    1 + 8 + 4 + 8 * rows as u64 * classes as u64
}

/// Parses a PROBABILITIES body: its row and class counts and the row-major values.
pub fn parse_probabilities(body: &[u8]) -> Result<(usize, usize, Vec<f64>), String> {
    let mut reader = Reader {
        body,
        what: "PROBABILITIES",
    };
    let rows = reader.u64()?;
    let classes = reader.u32()? as u64;
    let count = rows
        .checked_mul(classes)
        .filter(|&n| n <= (body.len() as u64) / 8);
    let Some(count) = count else {
        return Err(format!(
            "a PROBABILITIES frame announces {rows} rows of {classes} classes in {} bytes",
            body.len()
        ));
    };
    let bytes = reader.take(count as usize * 8)?;
    reader.end()?;
    let values = bytes
        .chunks_exact(8)
        .map(|chunk| f64::from_le_bytes(chunk.try_into().expect("8 bytes")))
        .collect();
    Ok((rows as usize, classes as usize, values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use data::Attribute;

    #[test]
    fn hello_is_length_type_version_options() {
        let mut buffer = Vec::new();
        hello(&mut buffer, "{}");
        // The bytes as docs/worker-protocol.md spells them out.
        assert_eq!(
            buffer,
            [11, 0, 0, 0, 0x01, 1, 0, 0, 0, 2, 0, 0, 0, b'{', b'}']
        );
    }

    #[test]
    fn dataset_frame_spells_out_the_schema() {
        let schema = Schema {
            attributes: vec![
                Attribute::numeric("x"),
                Attribute::nominal("c", vec!["a".into(), "b".into()]),
            ],
            class_name: "y".into(),
            class_values: vec!["n".into(), "p".into()],
        };
        let mut buffer = Vec::new();
        dataset(&mut buffer, 7, &schema);
        let expected: Vec<u8> = [
            &[0x02][..],
            &7u32.to_le_bytes(),
            &2u32.to_le_bytes(),
            &1u32.to_le_bytes(),
            b"x",
            &[0],
            &1u32.to_le_bytes(),
            b"c",
            &[1],
            &2u32.to_le_bytes(),
            &1u32.to_le_bytes(),
            b"a",
            &1u32.to_le_bytes(),
            b"b",
            &1u32.to_le_bytes(),
            b"y",
            &2u32.to_le_bytes(),
            &1u32.to_le_bytes(),
            b"n",
            &1u32.to_le_bytes(),
            b"p",
        ]
        .concat();
        assert_eq!(&buffer[4..], &expected[..]);
        assert_eq!(buffer[..4], (expected.len() as u32).to_le_bytes());
    }

    #[test]
    fn welcome_and_probabilities_parse_and_short_ones_are_refused() {
        let mut body = Vec::new();
        body.extend_from_slice(&1u32.to_le_bytes());
        body.extend_from_slice(&(NOMINAL | WEIGHTS).to_le_bytes());
        body.extend_from_slice(&3u32.to_le_bytes());
        body.extend_from_slice(b"abc");
        let welcome = parse_welcome(&body).unwrap();
        assert_eq!(welcome.identity, "abc");
        assert!(welcome.capabilities.nominal_attributes && welcome.capabilities.instance_weights);
        assert!(!welcome.capabilities.missing_values);
        assert!(parse_welcome(&body[..body.len() - 1])
            .unwrap_err()
            .contains("ends too early"));

        let mut body = Vec::new();
        body.extend_from_slice(&1u64.to_le_bytes());
        body.extend_from_slice(&2u32.to_le_bytes());
        body.extend_from_slice(&0.25f64.to_le_bytes());
        body.extend_from_slice(&0.75f64.to_le_bytes());
        assert_eq!(
            parse_probabilities(&body).unwrap(),
            (1, 2, vec![0.25, 0.75])
        );
        assert_eq!(probabilities_length(1, 2), 1 + body.len() as u64);
        assert!(parse_probabilities(&body[..body.len() - 8]).is_err());
        let mut huge = body.clone();
        huge[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(parse_probabilities(&huge)
            .unwrap_err()
            .contains("announces"));
    }

    #[test]
    fn large_row_sets_span_several_frames() {
        let width = 1000;
        let count = MAX_ROWS_FRAME / (8 * (1 + width)) + 5;
        let ids: Vec<u64> = (0..count as u64).collect();
        let values = vec![0.5; count * width];
        let mut buffer = Vec::new();
        rows(&mut buffer, 0, width, &ids, &values);
        let first = u32::from_le_bytes(buffer[..4].try_into().unwrap()) as usize;
        let second = &buffer[4 + first..];
        assert_eq!(second[4], ROWS);
        let announced = u64::from_le_bytes(second[9..17].try_into().unwrap());
        assert_eq!(announced, 5);
    }
}
