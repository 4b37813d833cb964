//! Seed derivation: a parent seed and a unit's identity give a child seed. This crate holds no
//! random generator; it also records how the workspace turns a seed into a random stream.
//!
//! # Derivation, exactly
//!
//! All arithmetic is on `u64`, wrapping modulo 2^64.
//!
//! * [`splitmix64`] is one step of Vigna's SplitMix64: `state += 0x9E3779B97F4A7C15`, then
//!   `z = state`, `z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9`,
//!   `z = (z ^ (z >> 27)) * 0x94D049BB133111EB`, result `z ^ (z >> 31)`.
//! * [`derive_seed`]`(parent, [p1, ..., pk])`: `state = parent`, `seed = splitmix64(state)`;
//!   then for each part in order `state = seed ^ (p * 0xD6E8FEB86659FD93)`,
//!   `seed = splitmix64(state)`; the result is the last `seed` (with no parts, one SplitMix64
//!   step of the parent). The order of the parts matters.
//! * [`derive_seed_from_label`]`(parent, label)` is `derive_seed(parent, [h])`, where `h` is the
//!   64-bit FNV-1a hash of the label's UTF-8 bytes (offset basis `0xCBF29CE484222325`, prime
//!   `0x100000001B3`).
//!
//! These are pure functions of their arguments: no global or thread-local state, so a seed
//! depends only on the identity it is derived from (a dataset's name, a learner's description,
//! a repetition and fold number), never on the number of threads, the order in which units run
//! or the order of a config. They are the functions of the former `rng` crate, unchanged, so
//! every dataset, unit and learner seed is what it was; only the streams drawn from the seeds
//! changed when that crate's generator was replaced.
//!
//! Where they are used: `cv::dataset_seed(experiment_seed, name)` is
//! `derive_seed_from_label(experiment_seed, name)` and repetition `r` of a resampling plan draws
//! from the seed `derive_seed(dataset_seed, [r])`; the engine gives a unit the seed
//! `derive_seed(derive_seed_from_label(dataset_seed, learner.describe()), [repetition, fold])`
//! and a subsample the seed `derive_seed_from_label(experiment_seed, "subsample/<dataset>")`;
//! learners derive their sub-seeds with `derive_seed(seed, [fixed salt, ...])`.
//!
//! # From a seed to a random stream
//!
//! Every random choice in the workspace draws from `rand_chacha::ChaCha8Rng::seed_from_u64(seed)`
//! through the `rand` traits (`rand::RngExt::random_range`, `rand::RngExt::random::<f64>`,
//! `rand::seq::SliceRandom::shuffle`; normal variates from `rand_distr::StandardNormal`).
//! Versions: `rand` 0.10.3, `rand_chacha` 0.10.0 (both on `rand_core` 0.10), `rand_distr` 0.6.0.
//! What their documentation promises about the values:
//!
//! * `ChaCha8Rng` is the ChaCha stream cipher (Bernstein 2008) with 8 rounds: the seed is the
//!   256-bit key, the 64-bit block counter and the 64-bit stream id start at 0, and the output is
//!   the key stream's 32-bit words in order. `rand_chacha` documents its generators as
//!   "deterministic and portable", tested against reference vectors (`tests/streams.rs` checks
//!   the first words against an independent ChaCha8 computation).
//! * `seed_from_u64` (provided by `rand_core`'s `SeedableRng`) fills the key from the `u64` with
//!   PCG32 steps; its documentation says that changing it "should be considered a
//!   value-breaking change".
//! * The rust-random book ("Reproducibility", "Portability"): everything not documented as
//!   non-portable (as `StdRng` and `SmallRng` are, which is why a named generator is used) is
//!   portable: reproducible across platforms and across patch releases; value-breaking changes
//!   are permitted in minor releases (0.10 -> 0.11) and are to be listed in the changelog.
//!   Bounded `usize` values (`random_range` on `usize`, the indices of `shuffle`) are sampled as
//!   `u32` whenever the bound fits, so 32- and 64-bit targets agree.
//!
//! So the streams, splits and randomised learners' outputs hold for every `0.10.x` of `rand`
//! and `rand_chacha` (and `0.6.x` of `rand_distr`). Moving to a new minor version may change
//! them: `tests/streams.rs` then fails, and the splits change and the randomised learners'
//! revisions must be bumped and their golden digests re-recorded.

/// One step of SplitMix64: adds the golden-ratio increment to `state` and returns it mixed.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A child seed from a parent seed and identifying parts (repetition, fold, ...), in order.
pub fn derive_seed(parent: u64, parts: &[u64]) -> u64 {
    let mut state = parent;
    let mut seed = splitmix64(&mut state);
    for &part in parts {
        state = seed ^ part.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        seed = splitmix64(&mut state);
    }
    seed
}

/// A child seed from a parent seed and a text label (a dataset's name, a learner's description).
pub fn derive_seed_from_label(parent: u64, label: &str) -> u64 {
    // FNV-1a 64: stable, simple, and good enough to separate labels.
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    for byte in label.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    derive_seed(parent, &[hash])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_reference_vector() {
        // Reference outputs of SplitMix64 seeded with 1234567 (Vigna's splitmix64.c).
        let mut state = 1_234_567u64;
        let expected = [
            6_457_827_717_110_365_317u64,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for value in expected {
            assert_eq!(splitmix64(&mut state), value);
        }
    }

    #[test]
    fn derived_seeds_differ_by_part() {
        assert_ne!(derive_seed(1, &[0, 1]), derive_seed(1, &[1, 0]));
        assert_eq!(derive_seed(1, &[3]), derive_seed(1, &[3]));
    }

    #[test]
    fn derivation_follows_the_documented_steps() {
        // The documented procedure, written out step by step with splitmix64 as the only helper.
        let parent = 2009u64;
        let mut state = parent;
        let first = splitmix64(&mut state);
        assert_eq!(derive_seed(parent, &[]), first);
        let mut state = first ^ 7u64.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let second = splitmix64(&mut state);
        assert_eq!(derive_seed(parent, &[7]), second);
        // FNV-1a 64 of "a" is 0xAF63DC4C8601EC8C (the published FNV test vector).
        assert_eq!(
            derive_seed_from_label(parent, "a"),
            derive_seed(parent, &[0xAF63_DC4C_8601_EC8C])
        );
    }
}
