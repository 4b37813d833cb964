//! Helpers shared by the learner tests.

#![allow(dead_code)]

pub mod arff;
