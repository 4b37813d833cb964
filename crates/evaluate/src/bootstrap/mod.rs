//! Bootstrap intervals of any two-class measure, and the measures prepared so that each
//! resample costs O(n).

pub(crate) mod fast_measures;
pub mod intervals;
