//! Unit tests of the RIPPER internals.
