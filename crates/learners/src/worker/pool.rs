//! The workers of one configured learner: started on first use, one per runner thread that
//! asks at the same time, kept idle between units (across datasets too), and stopped when the
//! learner is dropped at the end of the run (BYE; a worker also exits when its input closes).
//!
//! The first worker's handshake fixes the learner's identity (which goes into its revision,
//! hence every cache key) and capabilities. A worker that fails (crash, time-out, malformed or
//! short frame, wrong shape, non-finite probability) fails its unit with a message ending in
//! its stderr tail and is stopped; the next unit starts a new one, which must give the same
//! identity, so that every result of the run is cached under the identity that computed it.

use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

use data::{Features, Schema, View};

use crate::worker::mirror::Mirror;
use crate::worker::process::{Failure, Launch, Process};
use crate::worker::protocol::{self, Welcome};
use crate::Probabilities;

/// How far a probability may stray outside [0, 1], and a row's sum from 1.
const TOLERANCE: f64 = 1e-6;

/// What a model sends for its unit: the training rows (dataset row ids, classes, weights and
/// attribute values, row-major) and the seed, copied from the training view at `fit`.
pub struct Training {
    rows: Vec<u64>,
    classes: Vec<u32>,
    weights: Vec<f64>,
    values: Vec<f64>,
    width: usize,
    schema_address: usize,
    seed: u64,
}

/// Where a schema lives: one dataset's rows share it.
fn address(schema: &Schema) -> usize {
    schema as *const Schema as usize
}

impl Training {
    /// Copies a training view's rows, classes, weights and values.
    pub fn of(view: &View, seed: u64) -> Self {
        let width = view.num_attributes();
        let mut values = Vec::with_capacity(view.len() * width);
        for position in 0..view.len() {
            values.extend((0..width).map(|attribute| view.value(position, attribute)));
        }
        Training {
            rows: view.rows().iter().map(|&row| row as u64).collect(),
            classes: (0..view.len()).map(|p| view.class(p) as u32).collect(),
            weights: (0..view.len()).map(|p| view.weight(p)).collect(),
            values,
            width,
            schema_address: address(view.schema()),
            seed,
        }
    }
}

/// A worker process and what it holds.
struct Session {
    process: Process,
    mirror: Mirror,
}

/// The workers of one configured learner.
pub struct Pool {
    launch: Launch,
    welcome: OnceLock<Result<Welcome, String>>,
    idle: Mutex<Vec<Session>>,
}

impl Pool {
    /// A pool that starts workers as `launch` says; none is started yet.
    pub fn new(launch: Launch) -> Self {
        Pool {
            launch,
            welcome: OnceLock::new(),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// How this pool's workers start.
    pub fn launch(&self) -> &Launch {
        &self.launch
    }

    /// The first worker's handshake (starting it on the first call), or why it failed.
    pub fn welcome(&self) -> &Result<Welcome, String> {
        self.welcome.get_or_init(|| {
            let (session, welcome) = self.start()?;
            self.check_in(session);
            Ok(welcome)
        })
    }

    fn start(&self) -> Result<(Session, Welcome), String> {
        let mut process = Process::start(&self.launch)?;
        let welcome = process.handshake(&self.launch)?;
        Ok((
            Session {
                process,
                mirror: Mirror::default(),
            },
            welcome,
        ))
    }

    fn check_in(&self, session: Session) {
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(session);
    }

    /// An idle worker, or a new one whose handshake matches the first one's.
    fn check_out(&self) -> Result<Session, String> {
        let first = self.welcome().as_ref().map_err(Clone::clone)?;
        let idle = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        if let Some(session) = idle {
            return Ok(session);
        }
        let (session, welcome) = self.start()?;
        if welcome != *first {
            return Err(format!(
                "a new worker introduced itself differently from the first one of this run \
                 (identity {:?}, capabilities {}; the first: identity {:?}, capabilities {}), \
                 e.g. because its code changed during the run; its results would be cached \
                 under the first one's identity, so this unit is not run: run the experiment \
                 again",
                welcome.identity,
                welcome.capabilities.describe(),
                first.identity,
                first.capabilities.describe()
            ));
        }
        Ok(session)
    }

    /// Runs one unit in a worker: the training rows and `test`'s rows are sent as far as the
    /// worker does not hold them, then the unit; returns its probabilities.
    pub fn run(&self, training: &Training, test: &Features) -> Result<Probabilities, String> {
        let schema = test.schema();
        if address(schema) != training.schema_address {
            return Err(
                "the rows to predict come from another dataset than the training rows; \
                 a worker's model predicts rows of its training dataset only"
                    .into(),
            );
        }
        let mut session = self.check_out()?;
        session.process.clear_stderr();
        let mut out = Vec::new();
        let slot = session
            .mirror
            .slot(schema, training.schema_address, &mut out);
        let width = training.width;
        let values = &training.values;
        session
            .mirror
            .sync(slot, &training.rows, |p, a| values[p * width + a], &mut out);
        let test_rows: Vec<u64> = test.rows().iter().map(|&row| row as u64).collect();
        session
            .mirror
            .sync(slot, &test_rows, |p, a| test.value(p, a), &mut out);
        let unit = protocol::Unit {
            slot,
            seed: training.seed,
            train: &training.rows,
            classes: &training.classes,
            weights: &training.weights,
            test: &test_rows,
        };
        protocol::fit_predict(&mut out, &unit);
        session.process.send(out);
        self.answer(session, test.len(), schema)
    }

    /// Reads a unit's answer and checks it; a usable worker goes back to the idle ones.
    fn answer(
        &self,
        mut session: Session,
        rows: usize,
        schema: &Schema,
    ) -> Result<Probabilities, String> {
        let classes = schema.num_classes();
        let expected = protocol::probabilities_length(rows, classes);
        let allowed = [
            (protocol::PROBABILITIES, 2 * expected + (1 << 20)),
            (protocol::ERROR, protocol::MAX_TEXT_FRAME),
        ];
        let timeout = self.launch.unit_timeout;
        let received = session
            .process
            .receive(Instant::now() + timeout, timeout, &allowed);
        let failed = |session: &mut Session, failure| {
            session
                .process
                .failure_message(failure, "the unit", self.launch.unit_timeout_source)
        };
        let (kind, body) = match received {
            Ok(frame) => frame,
            Err(failure) => return Err(failed(&mut session, failure)),
        };
        if kind == protocol::ERROR {
            let message = match protocol::parse_error(&body) {
                Ok(message) => message,
                Err(problem) => return Err(failed(&mut session, Failure::Malformed(problem))),
            };
            self.check_in(session);
            return Err(format!("the worker's learner failed: {message}"));
        }
        match protocol::parse_probabilities(&body).and_then(|(got_rows, got_classes, values)| {
            check_probabilities(got_rows, got_classes, values, rows, schema)
        }) {
            Ok(probabilities) => {
                self.check_in(session);
                Ok(probabilities)
            }
            Err(problem) => Err(failed(&mut session, Failure::Malformed(problem))),
        }
    }
}

/// Checks a unit's answer: its shape, and every row a probability distribution.
fn check_probabilities(
    rows: usize,
    classes: usize,
    values: Vec<f64>,
    expected_rows: usize,
    schema: &Schema,
) -> Result<Probabilities, String> {
    let expected_classes = schema.num_classes();
    if rows != expected_rows || classes != expected_classes {
        return Err(format!(
            "probabilities of the wrong shape: {rows} rows of {classes} classes for \
             {expected_rows} rows of {expected_classes} classes"
        ));
    }
    let probabilities = Probabilities::from_flat(classes, values);
    for row in 0..rows {
        let values = probabilities.row(row);
        if let Some(class) = values.iter().position(|p| !p.is_finite()) {
            return Err(format!(
                "a non-finite probability ({}) for row {row}, class '{}'",
                values[class], schema.class_values[class]
            ));
        }
        let sum: f64 = values.iter().sum();
        let outside = values
            .iter()
            .any(|&p| !(-TOLERANCE..=1.0 + TOLERANCE).contains(&p));
        if outside || (sum - 1.0).abs() > TOLERANCE {
            return Err(format!(
                "probabilities that are not a distribution for row {row}: {values:?} (each \
                 in [0, 1], summing to 1)"
            ));
        }
    }
    Ok(probabilities)
}

impl Drop for Pool {
    fn drop(&mut self) {
        let sessions = std::mem::take(self.idle.get_mut().unwrap_or_else(PoisonError::into_inner));
        for session in sessions {
            session.process.shut_down();
        }
    }
}
