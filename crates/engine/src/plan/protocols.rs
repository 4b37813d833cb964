//! Protocols: how a config's `protocol = { kind = ..., <options> }` splits every dataset,
//! declared by a [`ProtocolSpec`] in the open registry of [`builtin`] protocols (a user's crate
//! adds one with `engine.protocols.register(spec)`). A configured [`Protocol`] makes a
//! dataset's [`cv::SplitPlan`], says how many splits it makes (for the plan's bounds, before
//! any split is made) and which keys set that number (for the bound's message).

use std::sync::Arc;

use learners::{ParamError, ParameterSpec, Params};

use crate::measures::registry::{Entry, Registry};

/// A configured protocol.
pub trait Protocol: Send + Sync {
    /// The splits of a dataset (every learner shares them), from the experiment seed.
    fn plan(
        &self,
        dataset: &data::Dataset,
        experiment_seed: u64,
    ) -> Result<cv::SplitPlan, cv::CvError>;

    /// How many splits [`Protocol::plan`] makes of a dataset of `rows` rows (saturating: a
    /// number too large for memory is refused by the bounds, not computed).
    fn split_count(&self, rows: usize) -> u64;

    /// How many row numbers the splits of a dataset of `rows` rows list in all, for the plan's
    /// bounds on memory (saturating). By default every row of every split, an upper bound for
    /// a protocol that lists its training rows; a protocol whose splits hold their training
    /// rows as the rest ([`cv::Train::Rest`]), as every built-in one does, counts only its
    /// test and validation rows.
    fn listed_rows(&self, rows: usize) -> u64 {
        self.split_count(rows).saturating_mul(rows as u64)
    }

    /// The config keys that set the number of splits, for a bound's message ("protocol keys
    /// 'folds' and 'repetitions'").
    fn count_keys(&self) -> &'static str;

    /// Whether the protocol runs the splits each dataset comes with (an OpenML task's) rather
    /// than making them with [`Protocol::plan`].
    fn takes_given_splits(&self) -> bool {
        false
    }
}

/// Builds a protocol from its checked options.
pub type BuildProtocol = fn(&Params<'_>) -> Result<Arc<dyn Protocol>, ParamError>;

/// Everything a protocol declares.
pub struct ProtocolSpec {
    /// The `kind` configs use.
    pub name: &'static str,
    /// What it is, in one line.
    pub description: &'static str,
    /// Its options.
    pub options: Vec<ParameterSpec>,
    /// Builds it from its options.
    pub build: BuildProtocol,
}

crate::measures::registry::declares_fields!(ProtocolSpec, "protocol");

/// Reads a config's `protocol` table (`kind` and its options) against the registry; the error
/// names the key and what is allowed.
pub fn configure(
    registry: &Registry<ProtocolSpec>,
    table: &toml::Table,
    learners: &learners::Registry,
) -> Result<Arc<dyn Protocol>, String> {
    let kind = match table.get("kind") {
        Some(toml::Value::String(kind)) => kind.as_str(),
        _ => {
            return Err(format!(
                "give `kind`, one of {} (see `experiments analyses`)",
                registry.names()
            ))
        }
    };
    let entry: &Arc<Entry<ProtocolSpec>> = registry
        .find(kind)
        .ok_or_else(|| format!("unknown kind '{kind}' (allowed: {})", registry.names()))?;
    let params = entry.check(table, learners)?;
    (entry.spec.build)(&params).map_err(|error| entry.option_error(error))
}

/// A protocol of `cv`: one of its strategies.
struct Strategy(cv::Strategy);

impl Protocol for Strategy {
    fn plan(
        &self,
        dataset: &data::Dataset,
        experiment_seed: u64,
    ) -> Result<cv::SplitPlan, cv::CvError> {
        cv::SplitPlan::for_dataset(dataset, &self.0, experiment_seed)
    }

    fn split_count(&self, rows: usize) -> u64 {
        self.0.split_count(rows) as u64
    }

    fn listed_rows(&self, rows: usize) -> u64 {
        let rows = rows as u64;
        // A part of a fraction of the rows, rounded up by at most one row.
        let part = |fraction: f64| (rows as f64 * fraction).ceil() as u64 + 1;
        match self.0 {
            cv::Strategy::StratifiedKfold { repetitions, .. } => {
                rows.saturating_mul(repetitions as u64)
            }
            // Each row tests once and validates once a repetition.
            cv::Strategy::WuFlach { repetitions, .. } => {
                rows.saturating_mul(2).saturating_mul(repetitions as u64)
            }
            cv::Strategy::FiveByTwo => rows.saturating_mul(5),
            cv::Strategy::Holdout {
                test_fraction,
                repetitions,
            } => part(test_fraction).saturating_mul(repetitions as u64),
            cv::Strategy::LeaveOneOut => rows,
            // Every split lists the common test set and its own validation fold; the folds
            // partition the rest.
            cv::Strategy::Aslan {
                test_fraction,
                folds,
            } => part(test_fraction)
                .saturating_mul(folds as u64)
                .saturating_add(rows.saturating_sub((rows as f64 * test_fraction).floor() as u64)),
            cv::Strategy::Given => 0,
        }
    }

    fn count_keys(&self) -> &'static str {
        match self.0 {
            cv::Strategy::StratifiedKfold { .. } | cv::Strategy::WuFlach { .. } => {
                "protocol keys 'folds' and 'repetitions'"
            }
            cv::Strategy::FiveByTwo => "protocol kind",
            cv::Strategy::Holdout { .. } => "protocol key 'repetitions'",
            cv::Strategy::LeaveOneOut => "protocol kind (leave_one_out makes one split per row)",
            cv::Strategy::Aslan { .. } => "protocol key 'folds'",
            cv::Strategy::Given => "protocol kind",
        }
    }
}

/// `kind = "openml"`: every dataset's own splits, those of the OpenML task it was read from
/// (`crate::plan::openml_tasks` makes its plan; a dataset that is not a task is refused).
struct TaskSplits;

impl Protocol for TaskSplits {
    fn plan(&self, _: &data::Dataset, _: u64) -> Result<cv::SplitPlan, cv::CvError> {
        Err(cv::CvError::NotMade)
    }

    fn split_count(&self, _: usize) -> u64 {
        0
    }

    fn listed_rows(&self, _: usize) -> u64 {
        0
    }

    fn count_keys(&self) -> &'static str {
        "tasks' splits (their datasplits.arff)"
    }

    fn takes_given_splits(&self) -> bool {
        true
    }
}

/// A `cv` strategy checked by `cv` itself (the ranges it refuses beyond the declared ones, such
/// as a fraction of exactly 0 or 1), as a protocol.
fn strategy(strategy: cv::Strategy, params: &Params<'_>) -> Result<Arc<dyn Protocol>, ParamError> {
    strategy.validate().map_err(|error| match error {
        cv::CvError::OutOfRange {
            key,
            value,
            allowed,
            ..
        } => params.invalid(&key, value, allowed),
        other => params.invalid("kind", strategy.kind(), other.to_string()),
    })?;
    Ok(Arc::new(Strategy(strategy)))
}

/// The largest number of folds or repetitions a config may give (the bounds refuse far fewer).
const MANY: usize = usize::MAX >> 1;

/// The built-in protocols: cv's stratified k-fold, 5x2cv, hold-out, leave-one-out, Aslan et
/// al.'s and Wu & Flach's.
pub fn builtin() -> Registry<ProtocolSpec> {
    let mut registry = Registry::default();
    for spec in resampling_specs().into_iter().chain(paper_specs()) {
        registry
            .register(spec)
            .expect("the built-in protocols are valid");
    }
    registry
}

/// The `folds` option with its default and least value.
fn folds(default: usize, low: usize) -> ParameterSpec {
    ParameterSpec::integer("folds", default, low, MANY, "number of folds")
}

/// The `repetitions` option with its default.
fn repetitions(default: usize) -> ParameterSpec {
    ParameterSpec::integer(
        "repetitions",
        default,
        1,
        MANY,
        "number of repetitions, each a fresh shuffle",
    )
}

/// What the `test_fraction` option means.
const FRACTION: &str = "fraction of the rows in the test set (0 and 1 excluded)";

/// The general resampling protocols: stratified k-fold, 5x2cv, hold-out, leave-one-out.
fn resampling_specs() -> Vec<ProtocolSpec> {
    vec![
        ProtocolSpec {
            name: "stratified_kfold",
            description: "stratified k-fold cross-validation, repeated with fresh shuffles: \
                          folds x repetitions splits",
            options: vec![folds(10, 2), repetitions(1)],
            build: |params| {
                let folds = params.integer("folds")?;
                let repetitions = params.integer("repetitions")?;
                strategy(cv::Strategy::StratifiedKfold { folds, repetitions }, params)
            },
        },
        ProtocolSpec {
            name: "five_by_two",
            description: "Dietterich's 5x2cv: 5 repetitions of stratified 2-fold \
                          cross-validation, 10 splits",
            options: Vec::new(),
            build: |params| strategy(cv::Strategy::FiveByTwo, params),
        },
        ProtocolSpec {
            name: "holdout",
            description: "stratified hold-out, repeated: one split per repetition (with \
                          repetitions = 1, one fixed test set)",
            options: vec![
                ParameterSpec::required_real("test_fraction", 0.0, 1.0, FRACTION),
                repetitions(1),
            ],
            build: |params| {
                let test_fraction = params.real("test_fraction")?;
                let repetitions = params.integer("repetitions")?;
                strategy(
                    cv::Strategy::Holdout {
                        test_fraction,
                        repetitions,
                    },
                    params,
                )
            },
        },
        ProtocolSpec {
            name: "leave_one_out",
            description: "leave-one-out: one split per row, testing on that row alone (small \
                          data only)",
            options: Vec::new(),
            build: |params| strategy(cv::Strategy::LeaveOneOut, params),
        },
    ]
}

/// The papers' protocols and the OpenML tasks' own splits.
fn paper_specs() -> Vec<ProtocolSpec> {
    vec![
        ProtocolSpec {
            name: "aslan",
            description: "Aslan, Yildiz & Alpaydin (2009): one stratified test set; the rest \
                          by stratified folds-fold CV into training sets and validation folds, \
                          every model tested on the one test set",
            options: vec![
                ParameterSpec::real("test_fraction", 1.0 / 3.0, 0.0, 1.0, FRACTION),
                folds(30, 2),
            ],
            build: |params| {
                let test_fraction = params.real("test_fraction")?;
                let folds = params.integer("folds")?;
                strategy(
                    cv::Strategy::Aslan {
                        test_fraction,
                        folds,
                    },
                    params,
                )
            },
        },
        ProtocolSpec {
            name: "openml",
            description: "the splits of each dataset's OpenML task (datasets given by \
                          openml_task or openml_cache): every repeat and fold, rows as the \
                          task's datasplits.arff gives them",
            options: Vec::new(),
            build: |_| Ok(Arc::new(TaskSplits)),
        },
        ProtocolSpec {
            name: "wu_flach",
            description: "Wu & Flach (2005): stratified folds; round i tests on fold i, \
                          validates on fold i + 1 and trains on the rest; repeated",
            options: vec![folds(10, 3), repetitions(10)],
            build: |params| {
                let folds = params.integer("folds")?;
                let repetitions = params.integer("repetitions")?;
                strategy(cv::Strategy::WuFlach { folds, repetitions }, params)
            },
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::bounds::{check_splits, Limits};

    /// Every built-in strategy, with the options of the shipped configs.
    fn strategies() -> Vec<cv::Strategy> {
        vec![
            cv::Strategy::StratifiedKfold {
                folds: 10,
                repetitions: 3,
            },
            cv::Strategy::FiveByTwo,
            cv::Strategy::Holdout {
                test_fraction: 0.3,
                repetitions: 4,
            },
            cv::Strategy::LeaveOneOut,
            cv::Strategy::Aslan {
                test_fraction: 1.0 / 3.0,
                folds: 30,
            },
            cv::Strategy::WuFlach {
                folds: 10,
                repetitions: 2,
            },
        ]
    }

    /// The estimate of the listed rows against a recount of the splits `cv` makes: never
    /// below it, and above it by at most a row or two a split (rounding of the parts).
    #[test]
    fn listed_rows_bound_the_rows_the_splits_list() {
        for rows in [150usize, 997] {
            let classes: Vec<u32> = (0..rows).map(|row| (row % 3) as u32).collect();
            for strategy in strategies() {
                let plan = cv::SplitPlan::new("d", &classes, &strategy, 1).unwrap();
                let listed: usize = plan
                    .splits
                    .iter()
                    .map(|split| split.test.len() + split.validation.as_ref().map_or(0, Vec::len))
                    .sum();
                assert!(plan
                    .splits
                    .iter()
                    .all(|split| matches!(split.train, cv::Train::Rest { .. })));
                let estimate = Strategy(strategy.clone()).listed_rows(rows);
                let slack = 2 * plan.splits.len() as u64;
                assert!(
                    estimate >= listed as u64,
                    "{strategy:?}: {estimate} < {listed}"
                );
                assert!(
                    estimate <= listed as u64 + slack,
                    "{strategy:?}: {estimate} vs {listed}"
                );
            }
        }
    }

    /// A leave-one-out plan of 200,000 rows lists 200,000 row numbers (under 1 MB): within the
    /// default limit of 4 GiB, where counting every row of every split (160 GB) refused it.
    #[test]
    fn a_large_leave_one_out_plan_passes_the_bound() {
        let protocol = Strategy(cv::Strategy::LeaveOneOut);
        check_splits("large", 200_000, &protocol, &Limits::default()).unwrap();
    }
}
