//! A learner served by persistent worker processes: `fit` keeps the training rows, and the
//! model's `predict_proba` sends the unit to a worker and reads its probabilities back.
//!
//! The worker's identity (from its handshake) is part of the learner's revision, so that results
//! are cached under the code and versions that computed them; it is not part of `describe`,
//! whose text also seeds the units' random choices.

use std::sync::Arc;

use data::{Features, Schema, View};

use crate::spec::{revision_text, Capabilities};
use crate::worker::pool::{Pool, Training};
use crate::worker::process::Launch;
use crate::worker::protocol::Welcome;
use crate::{Learner, LearnerError, Model, Probabilities};

/// A learner whose fits and predictions run in worker processes.
pub struct WorkerLearner {
    kind: &'static str,
    revision: u32,
    name: String,
    describe: String,
    pool: Arc<Pool>,
}

impl WorkerLearner {
    /// A learner of kind `kind` (at `revision`), shown as `name`, described by `describe`
    /// (its kind and parameters), whose workers start as `launch` says. No worker starts
    /// until the learner is first used.
    pub fn new(
        kind: &'static str,
        revision: u32,
        name: String,
        describe: String,
        launch: Launch,
    ) -> Self {
        WorkerLearner {
            kind,
            revision,
            name,
            describe,
            pool: Arc::new(Pool::new(launch)),
        }
    }

    fn error(&self, message: String) -> LearnerError {
        LearnerError::External {
            learner: self.name.clone(),
            message,
        }
    }

    /// The first worker's handshake (starting it on the first call), or why there is none.
    fn started(&self) -> Result<&Welcome, LearnerError> {
        self.pool
            .welcome()
            .as_ref()
            .map_err(|problem| self.error(format!("the worker could not be started: {problem}")))
    }
}

impl Learner for WorkerLearner {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        self.describe.clone()
    }

    /// The kind's revision and the worker's identity (starting the first worker if needed).
    fn revision(&self) -> String {
        let revision = revision_text(self.kind, self.revision);
        match self.pool.welcome() {
            Ok(welcome) => format!("{revision} (worker {})", welcome.identity),
            Err(problem) => format!("{revision} (worker unavailable: {problem})"),
        }
    }

    /// What the worker said it handles; everything when it could not start (its units then
    /// fail with the reason).
    fn capabilities(&self) -> Capabilities {
        match self.pool.welcome() {
            Ok(welcome) => welcome.capabilities,
            Err(_) => Capabilities::ALL,
        }
    }

    /// Starts the first worker (kept for the run) and completes its handshake; the log line
    /// names its command and time limits.
    fn check_ready(&self) -> Result<Option<String>, LearnerError> {
        self.started()?;
        Ok(Some(self.pool.launch().started_note()))
    }

    fn fit(&self, train: &View, seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        let welcome = self.started()?;
        if !welcome.capabilities.instance_weights {
            if let Some(position) = (0..train.len()).find(|&p| train.weight(p) != 1.0) {
                return Err(LearnerError::Data {
                    learner: self.name.clone(),
                    message: format!(
                        "training row {position} has weight {}, and the worker's learner takes \
                         no instance weights",
                        train.weight(position)
                    ),
                });
            }
        }
        Ok(Box::new(WorkerModel {
            learner: self.name.clone(),
            pool: Arc::clone(&self.pool),
            training: Training::of(train, seed),
        }))
    }

    /// Whether weight 2 equals a duplicated row depends on the worker's learner.
    fn exact_weights(&self) -> bool {
        false
    }
}

/// The training rows of one unit, fitted in a worker when the test rows come.
struct WorkerModel {
    learner: String,
    pool: Arc<Pool>,
    training: Training,
}

impl Model for WorkerModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        self.pool
            .run(&self.training, test)
            .map_err(|message| LearnerError::External {
                learner: self.learner.clone(),
                message,
            })
    }

    fn explain(&self, _schema: &Schema) -> String {
        format!("fitted in a worker process of {}", self.learner)
    }
}
