//! Per-value bit sets of the attributes with few distinct values, for growing rules when every
//! training weight is 1: a value's covered rows and covered positives are then counts, the
//! population counts of a few words ANDed together, instead of a pass over a sorted list of
//! the covered rows. The counts are whole numbers, so they equal the sums of the list's weights
//! in any order.

/// Most distinct values an attribute may have to get bit sets.
pub(crate) const MAX_VALUES: usize = 16;

/// A set of training rows, one bit each (row `r` at bit `r % 64` of word `r / 64`).
pub(crate) struct RowSet {
    words: Vec<u64>,
}

impl RowSet {
    /// The empty set over `rows` rows.
    pub fn new(rows: usize) -> Self {
        RowSet {
            words: vec![0; rows.div_ceil(64)],
        }
    }

    /// Adds (`true`) or removes (`false`) some rows.
    pub fn set(&mut self, rows: &[u32], member: bool) {
        for &row in rows {
            let (word, bit) = (row as usize / 64, row % 64);
            self.words[word] = (self.words[word] & !(1 << bit)) | (u64::from(member) << bit);
        }
    }

    /// Keeps exactly the rows for which `keep(row)` holds.
    pub fn fill(&mut self, keep: impl Fn(usize) -> bool) {
        for (number, word) in self.words.iter_mut().enumerate() {
            *word = (0..64)
                .filter(|bit| keep(number * 64 + bit))
                .fold(0, |word, bit| word | (1 << bit));
        }
    }
}

/// The rows of each distinct known value of one attribute, as bit sets.
pub(crate) struct ValueBits {
    /// The distinct known values in increasing order (for a nominal attribute every value
    /// index, present or not).
    pub values: Vec<f64>,
    /// Words per set.
    words: usize,
    /// The set of value `v` (of `values`) at `v * words..(v + 1) * words`.
    bits: Vec<u64>,
}

impl ValueBits {
    /// The sets of a numeric column (missing values in none), or `None` with more than
    /// [`MAX_VALUES`] distinct known values.
    pub fn numeric(column: &[f64]) -> Option<ValueBits> {
        let mut values: Vec<f64> = Vec::new();
        for &value in column.iter().filter(|value| !value.is_nan()) {
            match values.iter().position(|&known| known == value) {
                // Of -0.0 and 0.0 (one value to `==`), the first in `total_cmp` order, as
                // the sorted lists have it.
                Some(at) => values[at] = std::cmp::min_by(values[at], value, f64::total_cmp),
                None if values.len() == MAX_VALUES => return None,
                None => values.push(value),
            }
        }
        values.sort_by(f64::total_cmp);
        Some(ValueBits::with_values(column, values))
    }

    /// The sets of a nominal column with `count` values, or `None` with more than
    /// [`MAX_VALUES`] values.
    pub fn nominal(column: &[f64], count: usize) -> Option<ValueBits> {
        (count <= MAX_VALUES)
            .then(|| ValueBits::with_values(column, (0..count).map(|v| v as f64).collect()))
    }

    fn with_values(column: &[f64], values: Vec<f64>) -> ValueBits {
        let words = column.len().div_ceil(64);
        let mut bits = vec![0u64; words * values.len()];
        for (row, &value) in column.iter().enumerate() {
            // -0.0 and 0.0 are one value, as the sorted lists' `==` groups them.
            if let Some(number) = values.iter().position(|&v| v == value) {
                bits[number * words + row / 64] |= 1 << (row % 64);
            }
        }
        ValueBits {
            values,
            words,
            bits,
        }
    }

    /// For each value in order, how many rows of `member` hold it and how many of those are in
    /// `positive`.
    pub fn counts(&self, member: &RowSet, positive: &RowSet, out: &mut Vec<(f64, f64)>) {
        out.clear();
        for set in self.bits.chunks_exact(self.words) {
            let mut cover = 0u64;
            let mut accurate = 0u64;
            for ((&rows, &covered), &positives) in
                set.iter().zip(&member.words).zip(&positive.words)
            {
                let here = rows & covered;
                cover += u64::from(here.count_ones());
                accurate += u64::from((here & positives).count_ones());
            }
            out.push((cover as f64, accurate as f64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_the_covered_rows_and_positives_of_each_value() {
        let column = [2.0, f64::NAN, 1.0, 2.0, 0.0, -0.0, 1.0, 2.0];
        let bits = ValueBits::numeric(&column).unwrap();
        assert_eq!(bits.values, [-0.0, 1.0, 2.0]);
        let mut member = RowSet::new(column.len());
        member.set(&[0, 1, 2, 3, 4, 6], true);
        member.set(&[2], false);
        let mut positive = RowSet::new(column.len());
        positive.fill(|row| row % 2 == 0);
        let mut counts = Vec::new();
        bits.counts(&member, &positive, &mut counts);
        // Covered: 0 (2.0, +), 1 (missing), 3 (2.0), 4 (0.0, +), 6 (1.0, +).
        assert_eq!(counts, [(1.0, 1.0), (1.0, 1.0), (2.0, 1.0)]);
        let many: Vec<f64> = (0..=MAX_VALUES).map(|v| v as f64).collect();
        assert!(ValueBits::numeric(&many).is_none());
    }
}
