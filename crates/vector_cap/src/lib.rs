//! Which vector instructions the hand-written kernels may use: those the processor has, capped
//! by the environment variable [`VARIABLE`] so that one machine can run (and time) the kernels
//! a narrower processor would run. Every kernel gives the same results whichever runs (each
//! kernel's tests say so), so the cap changes speed only.
//!
//! `CLASSIFIERS_VECTOR_CAP=avx2` stops at AVX2 (what a processor without AVX-512 runs),
//! `portable` at the plain code; unset or empty, the widest the processor has.

use std::sync::OnceLock;

/// The environment variable read (once per process).
pub const VARIABLE: &str = "CLASSIFIERS_VECTOR_CAP";

/// The widest instructions the kernels may use, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Plain code (whatever the compiler's baseline target gives).
    Portable,
    /// AVX2 (with FMA and POPCNT where a kernel needs them).
    Avx2,
    /// AVX-512.
    Avx512,
}

/// The cap [`VARIABLE`] sets: `Ok(None)` when it is unset or empty, an error naming the value
/// and what is allowed otherwise.
pub fn parse(value: Option<&str>) -> Result<Option<Level>, String> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => match text.to_ascii_lowercase().as_str() {
            "portable" => Ok(Some(Level::Portable)),
            "avx2" => Ok(Some(Level::Avx2)),
            "avx512" => Ok(Some(Level::Avx512)),
            _ => Err(format!(
                "{VARIABLE}={text:?} is not a vector level: it allows portable, avx2 or avx512 \
                 (or unset: the widest the processor has)"
            )),
        },
    }
}

/// The cap of this process: an error when [`VARIABLE`] holds something else than a level (the
/// command lines check it at start and refuse to run; the kernels then use no cap).
pub fn check() -> Result<Option<Level>, String> {
    parse(std::env::var(VARIABLE).ok().as_deref())
}

/// Whether the kernels may use `level` (the processor must still be asked whether it has it).
#[inline]
pub fn allows(level: Level) -> bool {
    static CAP: OnceLock<Option<Level>> = OnceLock::new();
    let cap = *CAP.get_or_init(|| check().unwrap_or(None));
    cap.is_none_or(|cap| level <= cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_read_and_bad_values_named() {
        assert_eq!(parse(None), Ok(None));
        assert_eq!(parse(Some(" ")), Ok(None));
        assert_eq!(parse(Some("AVX2")), Ok(Some(Level::Avx2)));
        assert_eq!(parse(Some("portable")), Ok(Some(Level::Portable)));
        assert_eq!(parse(Some("avx512")), Ok(Some(Level::Avx512)));
        let error = parse(Some("sse9")).unwrap_err();
        assert!(error.contains("CLASSIFIERS_VECTOR_CAP=\"sse9\""), "{error}");
        assert!(error.contains("portable, avx2 or avx512"), "{error}");
        assert!(Level::Portable < Level::Avx2 && Level::Avx2 < Level::Avx512);
    }
}
