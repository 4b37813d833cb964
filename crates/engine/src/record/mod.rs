//! Stage 4, the record: takes the units' results and gives a [`run_record::RunRecord`], plain
//! data: what became of every unit, the measures per fold, the tests over folds and on the test
//! set, with the predictions left in the cache and read on demand. [`execute::execute`] runs a
//! checked experiment's units and builds it; everything after it is recomputable from the cache
//! without fitting.

pub mod execute;
pub mod results;
pub mod run_record;
pub mod sequential;
pub mod test_set_run;
pub mod tuning;
