//! Learners served by persistent worker processes, in any language: one process per runner
//! thread, started on first use and kept for the whole run, speaking a small binary protocol
//! over its standard input and output (`docs/worker-protocol.md`).
//!
//! - [`kinds`]: the `worker` kind (any program speaking the protocol) and the `python` kind (a
//!   scikit-learn estimator or a user's class, served by the `python/` package);
//! - [`weka`] and [`weka_build`]: the `weka` kind (a Weka 3.6 classifier, served by
//!   `workers/weka/WekaWorker.java`, compiled on first use into a cache folder);
//! - [`learner`]: the [`WorkerLearner`] both build;
//! - [`pool`]: the workers of one learner, their handshake and each unit's exchange;
//! - [`mirror`]: the datasets and rows one worker holds, so each row is sent once;
//! - [`process`]: one worker process, its pipes and time limits;
//! - [`protocol`]: the frames, byte by byte.
//!
//! A worker never sees a class label but those of its unit's training rows: datasets go to it
//! without classes, and each unit sends only its training rows' classes.

pub mod kinds;
pub mod learner;
pub mod mirror;
pub mod pool;
pub mod process;
pub mod protocol;
pub mod weka;
pub mod weka_build;

pub use learner::WorkerLearner;
