//! A stable content hash of a dataset, for keying cached results.
//!
//! sha256 over this byte layout (all integers little-endian, strings as a `u64` byte length
//! followed by their UTF-8 bytes):
//!
//! 1. the tag `b"data-content-hash v1\n"`;
//! 2. the number of attributes (`u64`), then per attribute: its name, a kind byte (0 numeric,
//!    1 nominal) and, for a nominal one, the number of values (`u64`) and each value;
//! 3. the class name, the number of class values (`u64`) and each class value;
//! 4. the number of rows (`u64`);
//! 5. every attribute column in order, each value as its `f64` bit pattern (`u64`), every
//!    missing value (any `NaN`) written as `0x7ff8000000000000`;
//! 6. every row's class index (`u32`);
//! 7. every row's weight as its `f64` bit pattern.
//!
//! The dataset's own name is not included: renaming does not change the content.

use sha2::{Digest, Sha256};

use crate::catalog::to_hex;
use crate::dataset::{AttributeKind, Dataset};

/// The canonical bit pattern written for a missing value.
const MISSING_BITS: u64 = 0x7ff8_0000_0000_0000;

fn write_text(hasher: &mut Sha256, text: &str) {
    hasher.update((text.len() as u64).to_le_bytes());
    hasher.update(text.as_bytes());
}

fn value_bits(value: f64) -> u64 {
    if value.is_nan() {
        MISSING_BITS
    } else {
        value.to_bits()
    }
}

impl Dataset {
    /// The sha256 (lowercase hex) of the dataset's names, types, values, classes and weights in
    /// the byte layout documented in [`crate::hash`].
    pub fn content_hash(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(b"data-content-hash v1\n");
        let schema = self.schema();
        hasher.update((schema.attributes.len() as u64).to_le_bytes());
        for attribute in &schema.attributes {
            write_text(&mut hasher, &attribute.name);
            match &attribute.kind {
                AttributeKind::Numeric => hasher.update([0u8]),
                AttributeKind::Nominal(values) => {
                    hasher.update([1u8]);
                    hasher.update((values.len() as u64).to_le_bytes());
                    for value in values {
                        write_text(&mut hasher, value);
                    }
                }
            }
        }
        write_text(&mut hasher, &schema.class_name);
        hasher.update((schema.class_values.len() as u64).to_le_bytes());
        for value in &schema.class_values {
            write_text(&mut hasher, value);
        }
        hasher.update((self.len() as u64).to_le_bytes());
        let mut buffer = Vec::with_capacity(self.len() * 8);
        for attribute in 0..schema.attributes.len() {
            buffer.clear();
            for &value in self.column(attribute) {
                buffer.extend_from_slice(&value_bits(value).to_le_bytes());
            }
            hasher.update(&buffer);
        }
        buffer.clear();
        for &class in self.classes() {
            buffer.extend_from_slice(&class.to_le_bytes());
        }
        hasher.update(&buffer);
        buffer.clear();
        for &weight in self.weights() {
            buffer.extend_from_slice(&value_bits(weight).to_le_bytes());
        }
        hasher.update(&buffer);
        to_hex(&hasher.finalize())
    }
}
