//! Stage 5, the report: takes a [`crate::record::run_record::RunRecord`] and gives sections
//! (tables and figures, as data: [`section`]), the engine's own and every selected
//! [`analysis::Analysis`]'s; [`write::report`] is the one writer of a results folder's files.

pub mod analysis;
pub mod curve_figures;
pub mod figures;
pub mod leaderboard;
pub mod leaderboard_section;
pub mod load_notices;
pub mod run_facts;
pub mod section;
pub mod sections;
pub mod stopping;
pub mod stopping_figures;
pub mod stopping_record;
pub mod summary;
pub mod tuning;
pub mod write;
