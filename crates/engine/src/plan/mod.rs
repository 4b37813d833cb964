//! Stage 2, the plan: takes a checked config and the registries, and gives a
//! [`units::Plan`]: the datasets loaded, transformed and split (the splits identical for every
//! learner), the configured learners, and every unit (dataset x learner x split, plus the
//! whole-training units the tests on a test set and the analyses ask for). Everything that can
//! fail before a fit fails here ([`check`]), within the bounds of [`bounds`].

pub mod bounds;
pub mod check;
pub mod dataset_names;
pub mod huge_integers;
pub mod notices;
pub mod openml_requests;
pub mod openml_tasks;
pub mod parts;
pub mod protocols;
pub mod registries;
pub mod requests;
pub mod stopping;
pub mod stopping_decisions;
pub mod summary_check;
pub mod test_set_needs;
pub mod transform_cache;
pub mod tuning;
pub mod tuning_plan;
pub mod units;
