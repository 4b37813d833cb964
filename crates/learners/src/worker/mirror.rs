//! What one worker holds: the datasets defined in it (slots) and the rows of each sent to it.
//!
//! The runner keeps a copy of every value it sent, so a row is sent once per worker and again
//! only if its values differ from what the worker holds: however the learner is called, the
//! worker computes on exactly the rows it is given. A dataset is told apart by where its schema
//! lives in memory and by the schema itself; two datasets taken for one (a subsample sharing
//! its parent's schema) only cost their differing rows sent again.

use data::Schema;

use crate::worker::protocol;

/// How many datasets one worker holds at most; the least recently used one is forgotten.
const MAX_SLOTS: usize = 8;

/// One dataset defined in the worker.
struct Slot {
    id: u32,
    address: usize,
    schema: Schema,
    values: Vec<f64>,
    known: Vec<bool>,
    used: u64,
}

/// The datasets and rows one worker holds.
#[derive(Default)]
pub struct Mirror {
    slots: Vec<Slot>,
    next_id: u32,
    clock: u64,
}

/// True when two attribute values are the same value (every NaN is one missing value).
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

impl Mirror {
    /// The slot of the dataset with this schema (at `address`), defined in the worker with a
    /// DATASET frame appended to `out` if new. Returns the slot's id.
    pub fn slot(&mut self, schema: &Schema, address: usize, out: &mut Vec<u8>) -> u32 {
        self.clock += 1;
        if let Some(slot) = self
            .slots
            .iter_mut()
            .find(|slot| slot.address == address && slot.schema == *schema)
        {
            slot.used = self.clock;
            return slot.id;
        }
        if self.slots.len() >= MAX_SLOTS {
            let oldest = (0..self.slots.len())
                .min_by_key(|&index| self.slots[index].used)
                .expect("a slot");
            protocol::forget(out, self.slots.swap_remove(oldest).id);
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        protocol::dataset(out, id, schema);
        self.slots.push(Slot {
            id,
            address,
            schema: schema.clone(),
            values: Vec::new(),
            known: Vec::new(),
            used: self.clock,
        });
        id
    }

    /// Appends ROWS frames to `out` for those of `rows` that the worker of slot `id` does not
    /// hold with these values; `value(position, attribute)` gives the values of the row at a
    /// position of `rows`.
    pub fn sync(
        &mut self,
        id: u32,
        rows: &[u64],
        value: impl Fn(usize, usize) -> f64,
        out: &mut Vec<u8>,
    ) {
        let slot = self
            .slots
            .iter_mut()
            .find(|slot| slot.id == id)
            .expect("a slot defined by Mirror::slot");
        let width = slot.schema.num_attributes();
        let mut ids = Vec::new();
        let mut values = Vec::new();
        let mut row_values = vec![0.0; width];
        for (position, &row) in rows.iter().enumerate() {
            let row = row as usize;
            for (attribute, cell) in row_values.iter_mut().enumerate() {
                *cell = value(position, attribute);
            }
            if row >= slot.known.len() {
                slot.known.resize(row + 1, false);
                slot.values.resize((row + 1) * width, f64::NAN);
            }
            let held = &mut slot.values[row * width..(row + 1) * width];
            let current = slot.known[row]
                && held
                    .iter()
                    .zip(&row_values)
                    .all(|(&held, &value)| same(held, value));
            if !current {
                held.copy_from_slice(&row_values);
                slot.known[row] = true;
                ids.push(row as u64);
                values.extend_from_slice(&row_values);
            }
        }
        if !ids.is_empty() {
            protocol::rows(out, id, width, &ids, &values);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use data::Attribute;

    fn schema(class: &str) -> Schema {
        Schema {
            attributes: vec![Attribute::numeric("x")],
            class_name: "y".into(),
            class_values: vec![class.into(), "other".into()],
        }
    }

    /// The frame types in a buffer of frames.
    fn kinds(buffer: &[u8]) -> Vec<u8> {
        let mut kinds = Vec::new();
        let mut rest = buffer;
        while !rest.is_empty() {
            let length = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
            kinds.push(rest[4]);
            rest = &rest[4 + length..];
        }
        kinds
    }

    #[test]
    fn rows_are_sent_once_and_again_only_when_they_change() {
        let mut mirror = Mirror::default();
        let schema = schema("a");
        let mut out = Vec::new();
        let id = mirror.slot(&schema, 1, &mut out);
        mirror.sync(id, &[0, 2], |p, _| p as f64, &mut out);
        assert_eq!(kinds(&out), [protocol::DATASET, protocol::ROWS]);
        out.clear();
        assert_eq!(mirror.slot(&schema, 1, &mut out), id);
        mirror.sync(id, &[2, 0], |p, _| 1.0 - p as f64, &mut out);
        assert!(out.is_empty());
        mirror.sync(id, &[0], |_, _| f64::NAN, &mut out);
        assert_eq!(kinds(&out), [protocol::ROWS]);
        out.clear();
        mirror.sync(id, &[0], |_, _| -f64::NAN, &mut out);
        assert!(out.is_empty(), "every NaN is the same missing value");
    }

    #[test]
    fn another_schema_or_address_is_another_slot_and_old_slots_are_forgotten() {
        let mut mirror = Mirror::default();
        let mut out = Vec::new();
        let first = mirror.slot(&schema("a"), 1, &mut out);
        assert_ne!(mirror.slot(&schema("b"), 1, &mut out), first);
        assert_ne!(mirror.slot(&schema("a"), 2, &mut out), first);
        out.clear();
        for address in 10..10 + MAX_SLOTS {
            mirror.slot(&schema("a"), address, &mut out);
        }
        assert_eq!(mirror.slots.len(), MAX_SLOTS);
        assert!(kinds(&out).contains(&protocol::FORGET));
    }
}
