//! State shared by the units of a dataset (k-NN's neighbour lists, C4.5's and naive Bayes'
//! sorted numeric columns, see `learners::Learner::build_shared`): built by the first unit of the dataset that is computed
//! and asks for it, lent to every later one, dropped when the dataset's last unit of this run
//! has finished, and bounded in memory: a state that would take the live states past the
//! budget is not built, and its units compute alone, as they always may. Outputs never depend
//! on it (the learners promise the same predictions to the bit; the tests hold them to it).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use learners::{ShareHint, SharedState};

use crate::plan::units::{Plan, Unit};

/// One dataset's state for one key: built once, on demand.
struct Entry {
    /// The state (none when it was not built: over the budget, or not worth it).
    cell: Arc<OnceLock<Option<SharedState>>>,
    /// The units of this run still to finish that could read it.
    remaining: usize,
    /// What the units that would read it are.
    hint: ShareHint,
}

/// The shared states of one runner call, by (dataset, key).
pub struct SharedStates {
    budget: usize,
    entries: Mutex<HashMap<(usize, String), Entry>>,
    /// Bytes of the live states; states built; seconds spent building them.
    used: Mutex<(usize, usize, f64)>,
}

impl SharedStates {
    /// The states the `units` of `plan` could share within the plan's budget (none is built
    /// yet).
    pub fn new(plan: &Plan, units: &[Unit]) -> SharedStates {
        let budget = plan.shared_memory;
        let mut entries: HashMap<(usize, String), Entry> = HashMap::new();
        if budget > 0 {
            for &unit in units {
                let Some(key) = plan.learner_of(unit).learner.shared_key() else {
                    continue;
                };
                let predicted = plan.spec(unit).predicted_len();
                let entry = entries.entry((unit.dataset, key)).or_insert_with(|| Entry {
                    cell: Arc::new(OnceLock::new()),
                    remaining: 0,
                    hint: ShareHint::default(),
                });
                entry.remaining += 1;
                entry.hint.units += 1;
                entry.hint.predicted_rows += predicted;
            }
        }
        SharedStates {
            budget,
            entries: Mutex::new(entries),
            used: Mutex::new((0, 0, 0.0)),
        }
    }

    /// The state `unit` may read, built now if it is the first to ask; none when its learner
    /// shares nothing, or the state was not built.
    pub fn get(&self, plan: &Plan, unit: Unit) -> Option<SharedState> {
        let learner = &plan.learner_of(unit).learner;
        let key = learner.shared_key()?;
        let (cell, hint) = {
            let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            let entry = entries.get(&(unit.dataset, key))?;
            (Arc::clone(&entry.cell), entry.hint)
        };
        cell.get_or_init(|| {
            let started = Instant::now();
            let free = {
                let used = self.used.lock().unwrap_or_else(|e| e.into_inner());
                self.budget.saturating_sub(used.0)
            };
            let dataset = &plan.datasets[unit.dataset].dataset;
            let state = learner.build_shared(dataset, hint, free)?;
            let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
            used.0 += state.bytes;
            used.1 += 1;
            used.2 += started.elapsed().as_secs_f64();
            Some(state)
        })
        .clone()
    }

    /// Marks `unit` finished (computed, reused or failed): after a dataset's last unit, its
    /// states are dropped and their memory returns to the budget.
    pub fn finished(&self, plan: &Plan, unit: Unit) {
        let Some(key) = plan.learner_of(unit).learner.shared_key() else {
            return;
        };
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let Some(entry) = entries.get_mut(&(unit.dataset, key.clone())) else {
            return;
        };
        entry.remaining = entry.remaining.saturating_sub(1);
        if entry.remaining == 0 {
            let entry = entries.remove(&(unit.dataset, key)).expect("just found");
            if let Some(Some(state)) = entry.cell.get() {
                let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
                used.0 = used.0.saturating_sub(state.bytes);
            }
        }
    }

    /// Writes [`SharedStates::summary`] to the log, when states were built.
    pub fn log_summary(&self) {
        if let Some(line) = self.summary() {
            eprintln!("{line}");
        }
    }

    /// A line for the log when states were built: how many, and the seconds they took.
    pub fn summary(&self) -> Option<String> {
        let used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        (used.1 > 0).then(|| {
            format!(
                "shared per dataset: {} states built in {:.1}s (k-NN's neighbour lists, sorted \
                 numeric columns), read by every unit of their dataset",
                used.1, used.2
            )
        })
    }
}
