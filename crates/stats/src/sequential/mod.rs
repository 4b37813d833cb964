//! Anytime-valid sequential comparison of two learners over repetitions (issue 44): the
//! noncentral t density, the two-sided safe t-test's e-value, an empirical-Bernstein confidence
//! sequence, and the decision on a pair from its per-repetition differences in order, valid
//! whenever one stops.

pub mod confidence_sequence;
pub mod decision;
pub mod noncentral_t;
pub mod safe_t;
