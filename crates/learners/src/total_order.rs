//! Integer keys of `f64` values whose unsigned order is the order of `f64::total_cmp`: sorting
//! the keys sorts the values, and integers compare (and radix-sort) faster.

/// The key of a value: negative numbers with every bit flipped (a larger magnitude sorts
/// first), the others with the sign bit set.
pub(crate) fn key(value: f64) -> u64 {
    let bits = value.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// The value a key was made from.
pub(crate) fn value(key: u64) -> f64 {
    // Keys with the top bit set lose it; the others have every bit flipped (without a branch).
    f64::from_bits(key ^ (1 << 63 | (key >> 63).wrapping_sub(1)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_order_as_total_cmp_and_give_the_values_back() {
        let mut values = vec![
            2.5,
            -0.0,
            0.0,
            f64::NEG_INFINITY,
            -1e-300,
            f64::INFINITY,
            -7.0,
            1e-310,
            3.0,
        ];
        let mut by_key: Vec<u64> = values.iter().map(|&v| super::key(v)).collect();
        by_key.sort_unstable();
        values.sort_by(f64::total_cmp);
        let back: Vec<u64> = by_key.iter().map(|&k| super::value(k).to_bits()).collect();
        assert_eq!(back, values.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    }
}
