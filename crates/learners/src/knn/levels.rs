//! Whole-number lower bounds of the squared distance from a query to every stored point at
//! once, from the attributes whose differences are whole numbers: binary numeric attributes
//! (every scaled training value 0 or 1; where the query's value is 0 or 1 too, the squared
//! difference is exactly 0 or 1) and nominal ones (a mismatch, missing values included, adds
//! exactly 1). The other attributes add non-negative squares, and rounding to nearest is
//! monotone, so the distance as computed, summed in any order, is at least this count.
//!
//! The bounds are counted with the stored points' words side by side (word `w` of every point
//! together), so one vector instruction serves several points. When every attribute is nominal
//! the bound is the distance itself.

/// Largest nominal value index stored as a byte code; [`CODE_UNSEEN`], [`CODE_QUERY_MISSING`]
/// and [`CODE_TRAINING_MISSING`] lie above it, so none of them ever equals a stored code.
const LARGEST_CODE: f64 = 250.0;
/// Code of a query value that is no training code (a value index above [`LARGEST_CODE`]).
const CODE_UNSEEN: u8 = 0xFD;
/// Code of a missing query value (differs from every stored code, as Weka's missing nominal).
const CODE_QUERY_MISSING: u8 = 0xFE;
/// Code of a missing training value.
const CODE_TRAINING_MISSING: u8 = 0xFF;

/// The stored points' binary values (one bit each) and nominal byte codes, word-major.
pub(crate) struct Levels {
    /// Number of stored points.
    count: usize,
    /// The binary attributes (numbers in the query's order), one bit each: attribute `i` of the
    /// list at bit `i % 64` of word `i / 64`.
    binary_attributes: Vec<usize>,
    /// Words of bits per point.
    bit_words: usize,
    /// Word `w` of point `s` at `w * count + s`.
    bits: Vec<u64>,
    /// The nominal attributes (numbers in the query's order), one byte code each, eight to a
    /// word (byte `i % 8` of word `i / 8`), padded with zero bytes.
    nominal_attributes: Vec<usize>,
    /// Words of codes per point.
    code_words: usize,
    /// Word `w` of point `s` at `w * count + s`.
    codes: Vec<u64>,
    /// True when every attribute is nominal: the bound is then the distance.
    exact: bool,
}

/// A query prepared for [`Levels::bounds`].
#[derive(Default)]
pub(crate) struct LevelQuery {
    /// The query's binary values as bits, then the mask of those that are 0 or 1 (the others
    /// bound nothing), `bit_words` words each.
    bits: Vec<u64>,
    /// The query's nominal codes.
    codes: Vec<u64>,
}

/// The byte code of a nominal value index (`None` for a value that is no whole number from 0
/// to [`LARGEST_CODE`]).
fn value_code(value: f64) -> Option<u8> {
    ((0.0..=LARGEST_CODE).contains(&value) && value.fract() == 0.0).then_some(value as u8)
}

/// The number of non-zero bytes of a word.
#[inline(always)]
fn nonzero_bytes(word: u64) -> u32 {
    const LOW_SEVEN: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte's high bit ends up set exactly when the byte is non-zero (no carry crosses bytes).
    ((((word & LOW_SEVEN) + LOW_SEVEN) | word) & HIGH).count_ones()
}

/// Appends `words` words holding the given bits (bit `i` of the sequence at bit `i % 64` of
/// word `i / 64`).
pub(crate) fn push_bits(bits: impl Iterator<Item = bool>, words: usize, out: &mut Vec<u64>) {
    let start = out.len();
    out.resize(start + words, 0);
    for (position, bit) in bits.enumerate() {
        out[start + position / 64] |= u64::from(bit) << (position % 64);
    }
}

/// Appends the codes of some values, eight to a word (byte `j` of a word holds value `j`), or
/// stops with `None` at the first value without a code.
fn push_codes(
    values: impl Iterator<Item = f64>,
    words: usize,
    out: &mut Vec<u64>,
    code: impl Fn(f64) -> Option<u8>,
) -> Option<()> {
    let start = out.len();
    out.resize(start + words, 0);
    for (position, value) in values.enumerate() {
        out[start + position / 8] |= u64::from(code(value)?) << (8 * (position % 8));
    }
    Some(())
}

/// Stores row-major words (`words` a row) word-major.
fn word_major(rows: &[u64], words: usize, count: usize) -> Vec<u64> {
    let mut columns = vec![0; rows.len()];
    for (point, row) in rows.chunks_exact(words.max(1)).enumerate() {
        for (word, &value) in row.iter().enumerate() {
            columns[word * count + point] = value;
        }
    }
    columns
}

impl Levels {
    /// The tables of `count` scaled rows (row-major, `dimensions` values a row) for the given
    /// binary and nominal attributes; `None` when there are neither, or a nominal value has no
    /// byte code, or the bound could exceed `u16::MAX`.
    pub(crate) fn new(
        rows: &[f64],
        dimensions: usize,
        count: usize,
        binary_attributes: Vec<usize>,
        nominal_attributes: Vec<usize>,
    ) -> Option<Levels> {
        let top = binary_attributes.len() + nominal_attributes.len();
        if top == 0 || top > usize::from(u16::MAX) || dimensions == 0 {
            return None;
        }
        let bit_words = binary_attributes.len().div_ceil(64);
        let code_words = nominal_attributes.len().div_ceil(8);
        let mut bits = Vec::with_capacity(count * bit_words);
        let mut codes = Vec::with_capacity(count * code_words);
        for row in rows.chunks_exact(dimensions).take(count) {
            let values = binary_attributes.iter().map(|&a| row[a] == 1.0);
            push_bits(values, bit_words, &mut bits);
            let values = nominal_attributes.iter().map(|&a| row[a]);
            push_codes(values, code_words, &mut codes, |value| {
                if value.is_nan() {
                    Some(CODE_TRAINING_MISSING)
                } else {
                    value_code(value)
                }
            })?;
        }
        Some(Levels {
            count,
            bits: word_major(&bits, bit_words, count),
            codes: word_major(&codes, code_words, count),
            exact: nominal_attributes.len() == dimensions,
            binary_attributes,
            bit_words,
            nominal_attributes,
            code_words,
        })
    }

    /// True when every attribute is nominal, so that the bound is the distance.
    pub(crate) fn exact(&self) -> bool {
        self.exact
    }

    /// The largest bound there can be.
    pub(crate) fn top(&self) -> usize {
        self.binary_attributes.len() + self.nominal_attributes.len()
    }

    /// Prepares a scaled query row (in the query's attribute order; missing values allowed).
    pub(crate) fn query(&self, query: &[f64], out: &mut LevelQuery) {
        out.bits.clear();
        let values = self.binary_attributes.iter().map(|&a| query[a] == 1.0);
        push_bits(values, self.bit_words, &mut out.bits);
        let binary = self
            .binary_attributes
            .iter()
            .map(|&a| query[a] == 0.0 || query[a] == 1.0);
        push_bits(binary, self.bit_words, &mut out.bits);
        out.codes.clear();
        let values = self.nominal_attributes.iter().map(|&a| query[a]);
        push_codes(values, self.code_words, &mut out.codes, |value| {
            Some(if value.is_nan() {
                CODE_QUERY_MISSING
            } else {
                value_code(value).unwrap_or(CODE_UNSEEN)
            })
        });
    }

    /// The bound of every stored point (`out[s]` for point `s`), word by word over all points.
    #[inline(always)]
    pub(crate) fn bounds(&self, query: &LevelQuery, out: &mut Vec<u16>) {
        out.clear();
        out.resize(self.count, 0);
        self.bounds_portable(query, out);
    }

    #[inline(always)]
    fn bounds_portable(&self, query: &LevelQuery, out: &mut [u16]) {
        let count = self.count;
        let (values, masks) = query.bits.split_at(self.bit_words);
        for (word, (&value, &mask)) in values.iter().zip(masks).enumerate() {
            let column = &self.bits[word * count..(word + 1) * count];
            for (bound, &stored) in out.iter_mut().zip(column) {
                *bound += ((stored ^ value) & mask).count_ones() as u16;
            }
        }
        for (word, &value) in query.codes.iter().enumerate() {
            let column = &self.codes[word * count..(word + 1) * count];
            for (bound, &stored) in out.iter_mut().zip(column) {
                *bound += nonzero_bytes(stored ^ value) as u16;
            }
        }
    }
}

/// Levels counted in one pass of [`first_level`].
const LEVELS_PER_PASS: usize = 8;

/// The number of bounds equal to each of `base..base + LEVELS_PER_PASS` (`base` at most
/// `u16::MAX`), in one pass (the compares of a level run across several bounds per vector
/// instruction).
#[inline(always)]
fn count_levels(bounds: &[u16], base: usize) -> [usize; LEVELS_PER_PASS] {
    let mut counts = [0usize; LEVELS_PER_PASS];
    // Partial counts in u16 lanes, over runs short enough not to overflow them.
    for run in bounds.chunks(u16::MAX as usize) {
        let mut partial = [0u16; LEVELS_PER_PASS];
        for &bound in run {
            let offset = bound.wrapping_sub(base as u16);
            for (level, count) in partial.iter_mut().enumerate() {
                *count += u16::from(offset == level as u16);
            }
        }
        for (count, partial) in counts.iter_mut().zip(partial) {
            *count += usize::from(partial);
        }
    }
    counts
}

/// The smallest level `first` that at least `wanted` of the bounds do not exceed (`top`, the
/// largest possible bound, when fewer than `wanted` do), with the number of bounds at each
/// level up to it in `at_level`.
#[inline(always)]
pub(crate) fn first_level(
    bounds: &[u16],
    wanted: usize,
    top: usize,
    at_level: &mut Vec<usize>,
) -> usize {
    at_level.clear();
    let mut seen = 0;
    let mut base = 0;
    while base <= top {
        for (offset, number) in count_levels(bounds, base).into_iter().enumerate() {
            at_level.push(number);
            seen += number;
            if seen >= wanted || base + offset == top {
                return base + offset;
            }
        }
        base += LEVELS_PER_PASS;
    }
    top
}

/// Appends the positions of the bounds from `low` to `high` (inclusive; `low` at most
/// `u16::MAX`), in increasing order.
#[inline(always)]
pub(crate) fn positions_between(bounds: &[u16], low: usize, high: usize, out: &mut Vec<u32>) {
    if low > high {
        return;
    }
    let (low, width) = (low as u16, (high.min(usize::from(u16::MAX)) - low) as u16);
    for (number, chunk) in bounds.chunks(64).enumerate() {
        let mut mask = 0u64;
        for (bit, &bound) in chunk.iter().enumerate() {
            mask |= u64::from(bound.wrapping_sub(low) <= width) << bit;
        }
        while mask != 0 {
            out.push((number * 64) as u32 + mask.trailing_zeros());
            mask &= mask - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn first_level_and_positions_agree_with_counting_one_by_one() {
        let mut generator = ChaCha8Rng::seed_from_u64(3);
        for (count, top) in [(1, 0), (7, 3), (300, 20), (1000, 40), (70, 9)] {
            let bounds: Vec<u16> = (0..count)
                .map(|_| generator.random_range(0..=top) as u16)
                .collect();
            for wanted in [1, 2, count / 2 + 1, count, count + 5] {
                let mut at_level = Vec::new();
                let first = first_level(&bounds, wanted, top, &mut at_level);
                let at_most =
                    |level: usize| bounds.iter().filter(|&&b| usize::from(b) <= level).count();
                let expected = (0..=top)
                    .find(|&level| at_most(level) >= wanted)
                    .unwrap_or(top);
                assert_eq!(first, expected, "{count} {top} {wanted}");
                let expected_counts: Vec<usize> = (0..=first)
                    .map(|level| bounds.iter().filter(|&&b| usize::from(b) == level).count())
                    .collect();
                assert_eq!(at_level, expected_counts);
            }
            for (low, high) in [(0, 0), (2, 5), (0, top), (top, top + 3), (5, 2)] {
                let mut found = Vec::new();
                positions_between(&bounds, low, high, &mut found);
                let expected: Vec<u32> = (0..count as u32)
                    .filter(|&p| (low..=high).contains(&usize::from(bounds[p as usize])))
                    .collect();
                assert_eq!(found, expected, "{low} {high}");
            }
        }
    }

    #[test]
    fn bounds_count_differing_binary_values_and_nominal_codes() {
        // Two rows: binary attributes 0 and 2, nominal attributes 1 and 3 (attribute 3 missing
        // in the second row).
        let rows = [1.0, 2.0, 0.0, 0.0, 0.0, 1.0, 1.0, f64::NAN];
        let levels = Levels::new(&rows, 4, 2, vec![0, 2], vec![1, 3]).unwrap();
        let mut query = LevelQuery::default();
        let mut bounds = Vec::new();
        // Query: binary 1 and 0.5 (not binary: bounds nothing), nominal 2 and missing.
        levels.query(&[1.0, 2.0, 0.5, f64::NAN], &mut query);
        levels.bounds(&query, &mut bounds);
        // Row 0: binary 0 equal; nominal 1 equal, 3 missing in the query: 1.
        // Row 1: binary 0 differs; nominal 1 differs, 3 missing in both: 3.
        assert_eq!(bounds, [1, 3]);
        assert_eq!(levels.top(), 4);
        assert!(!levels.exact());
    }
}
