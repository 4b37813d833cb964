//! Stage 3, execution: takes a plan and gives each unit's result. One function runs one unit
//! ([`unit::run_unit`]: a [`unit::UnitSpec`] in, a [`unit::UnitResult`] out); the runner runs
//! the plan's units on worker threads through the on-disk [`cache`]; [`shard`] cuts a plan into
//! slices for separate processes; [`shared`] holds what the units of a dataset share. The results folder's [`lock`] and its one-step [`publish`]
//! live here too: a run checks and locks the folder before its first fit, and the report
//! writes through them.

pub mod cache;
pub mod free_memory;
pub mod lock;
pub mod publish;
pub mod runner;
pub mod shard;
pub mod shared;
pub mod unit;
