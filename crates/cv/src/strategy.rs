//! Resampling strategies, their checked configuration, and their instantiation into splits.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use seeds::derive_seed;
use serde::{Deserialize, Serialize};

use crate::stratify::{fold_lists, stratified_fold_assignment, stratified_holdout};
use crate::{CvError, Split, Train};

/// A resampling strategy with its parameters. Build it directly (then [`Strategy::validate`]
/// checks it) or from a config table such as `{ kind = "stratified_kfold", folds = 10,
/// repetitions = 1 }` with [`Strategy::from_table`] / [`Strategy::from_toml_str`]; it
/// serialises back to the same table form.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Strategy {
    /// Stratified k-fold cross-validation, repeated with fresh shuffles (`repetitions = 1` is
    /// plain k-fold). Keys: `folds` (default 10, >= 2), `repetitions` (default 1, >= 1).
    StratifiedKfold {
        /// Number of folds k.
        folds: usize,
        /// Number of repetitions.
        repetitions: usize,
    },
    /// Dietterich's 5x2cv: 5 repetitions of stratified 2-fold cross-validation; the same splits
    /// as `StratifiedKfold { folds: 2, repetitions: 5 }`. No keys.
    FiveByTwo,
    /// Stratified hold-out, repeated. Keys: `test_fraction` (required, in (0, 1)),
    /// `repetitions` (default 1, >= 1).
    Holdout {
        /// Fraction of the instances in the test set.
        test_fraction: f64,
        /// Number of repetitions.
        repetitions: usize,
    },
    /// Leave-one-out: one split per instance, testing on that instance alone (no randomness,
    /// no stratification). No keys. Each split lists its one test row and holds its `n - 1`
    /// training rows as the rest ([`crate::Train::Rest`]), so the plan grows as `n`; the `n`
    /// fits make it meant for small data sets.
    LeaveOneOut,
    /// Aslan, Yildiz & Alpaydin (2009): a stratified test set (`test_fraction`, default 1/3);
    /// the rest is split by stratified `folds`-fold CV (default 30, >= 2) into training sets
    /// (the other folds) and validation folds. Every split shares the one test set.
    Aslan {
        /// Fraction of the instances in the common test set, in (0, 1).
        test_fraction: f64,
        /// Number of inner folds.
        folds: usize,
    },
    /// Wu & Flach (2005): stratified `folds`-fold partition (default 10, >= 3); round `i` tests
    /// on fold `i`, validates on fold `(i + 1) mod folds` and trains on the others; repeated
    /// `repetitions` times (default 10, >= 1).
    WuFlach {
        /// Number of folds.
        folds: usize,
        /// Number of repetitions.
        repetitions: usize,
    },
    /// Splits that come with the data rather than being made (an OpenML task's
    /// `datasplits.arff`): [`crate::SplitPlan::given`] holds them; [`Strategy::splits`] refuses
    /// to make them. Not a config table's kind.
    Given,
}

/// The strategy kinds, as written in the `kind` key.
const KINDS: &str = "stratified_kfold, five_by_two, holdout, leave_one_out, aslan, wu_flach";

/// Reads the keys of one config table, checking each and remembering which were used.
struct TableReader<'a> {
    kind: &'a str,
    table: &'a toml::Table,
    allowed: &'a [&'a str],
}

impl TableReader<'_> {
    fn check_unknown_keys(&self) -> Result<(), CvError> {
        for key in self.table.keys() {
            if key != "kind" && !self.allowed.contains(&key.as_str()) {
                let mut allowed = vec!["kind"];
                allowed.extend_from_slice(self.allowed);
                return Err(CvError::UnknownKey {
                    kind: self.kind.to_string(),
                    key: key.clone(),
                    allowed: allowed.join(", "),
                });
            }
        }
        Ok(())
    }

    fn integer(&self, key: &str, default: Option<usize>, minimum: usize) -> Result<usize, CvError> {
        let value = match (self.table.get(key), default) {
            (Some(value), _) => value,
            (None, Some(default)) => return Ok(default),
            (None, None) => return Err(self.missing(key, &format!("an integer >= {minimum}"))),
        };
        let toml::Value::Integer(number) = value else {
            return Err(self.wrong_type(key, "an integer", value));
        };
        if *number < minimum as i64 {
            return Err(CvError::OutOfRange {
                kind: self.kind.to_string(),
                key: key.to_string(),
                value: number.to_string(),
                allowed: format!("an integer >= {minimum}"),
            });
        }
        Ok(*number as usize)
    }

    fn fraction(&self, key: &str, default: Option<f64>) -> Result<f64, CvError> {
        let value = match (self.table.get(key), default) {
            (Some(value), _) => value,
            (None, Some(default)) => return Ok(default),
            (None, None) => return Err(self.missing(key, "a number in (0, 1)")),
        };
        let number = match value {
            toml::Value::Float(number) => *number,
            toml::Value::Integer(number) => *number as f64,
            other => return Err(self.wrong_type(key, "a number in (0, 1)", other)),
        };
        check_fraction(self.kind, key, number)?;
        Ok(number)
    }

    fn missing(&self, key: &str, expected: &str) -> CvError {
        CvError::WrongType {
            kind: self.kind.to_string(),
            key: key.to_string(),
            expected: expected.to_string(),
            got: "nothing (the key is required)".to_string(),
        }
    }

    fn wrong_type(&self, key: &str, expected: &str, value: &toml::Value) -> CvError {
        CvError::WrongType {
            kind: self.kind.to_string(),
            key: key.to_string(),
            expected: expected.to_string(),
            got: format!("{} {value}", value.type_str()),
        }
    }
}

fn check_fraction(kind: &str, key: &str, value: f64) -> Result<(), CvError> {
    if value > 0.0 && value < 1.0 {
        Ok(())
    } else {
        Err(CvError::OutOfRange {
            kind: kind.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            allowed: "a number in (0, 1), exclusive".to_string(),
        })
    }
}

fn check_minimum(kind: &str, key: &str, value: usize, minimum: usize) -> Result<(), CvError> {
    if value >= minimum {
        Ok(())
    } else {
        Err(CvError::OutOfRange {
            kind: kind.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            allowed: format!("an integer >= {minimum}"),
        })
    }
}

/// The "fold" of instances that are in no fold (the Aslan test set); real fold numbers are
/// below the number of rows, itself at most [`crate::MAX_INSTANCES`] = `u32::MAX`.
const NO_FOLD: u32 = u32::MAX;

/// The indices (ascending) whose fold, per `fold_of`, is `fold`.
fn indices_inside(fold_of: &[u32], fold: u32) -> Vec<u32> {
    fold_of
        .iter()
        .zip(0..)
        .filter(|&(&of, _)| of == fold)
        .map(|(_, index)| index)
        .collect()
}

impl Strategy {
    /// The `kind` name used in config tables.
    pub fn kind(&self) -> &'static str {
        match self {
            Strategy::StratifiedKfold { .. } => "stratified_kfold",
            Strategy::FiveByTwo => "five_by_two",
            Strategy::Holdout { .. } => "holdout",
            Strategy::LeaveOneOut => "leave_one_out",
            Strategy::Aslan { .. } => "aslan",
            Strategy::WuFlach { .. } => "wu_flach",
            Strategy::Given => "given",
        }
    }

    /// Reads a strategy from a config table (`kind` plus the kind's keys; see the variants for
    /// keys, defaults and ranges). Unknown keys, wrong types and out-of-range values are errors
    /// naming the key and what is allowed.
    pub fn from_table(table: &toml::Table) -> Result<Strategy, CvError> {
        let kind = match table.get("kind") {
            Some(toml::Value::String(kind)) => kind.as_str(),
            Some(other) => {
                return Err(CvError::UnknownKind {
                    got: other.to_string(),
                    allowed: KINDS.to_string(),
                })
            }
            None => {
                return Err(CvError::UnknownKind {
                    got: "missing".to_string(),
                    allowed: KINDS.to_string(),
                })
            }
        };
        let allowed: &[&str] = match kind {
            "stratified_kfold" | "wu_flach" => &["folds", "repetitions"],
            "holdout" => &["test_fraction", "repetitions"],
            "aslan" => &["test_fraction", "folds"],
            "five_by_two" | "leave_one_out" => &[],
            other => {
                return Err(CvError::UnknownKind {
                    got: format!("'{other}'"),
                    allowed: KINDS.to_string(),
                })
            }
        };
        let reader = TableReader {
            kind,
            table,
            allowed,
        };
        reader.check_unknown_keys()?;
        let strategy = match kind {
            "stratified_kfold" => Strategy::StratifiedKfold {
                folds: reader.integer("folds", Some(10), 2)?,
                repetitions: reader.integer("repetitions", Some(1), 1)?,
            },
            "wu_flach" => Strategy::WuFlach {
                folds: reader.integer("folds", Some(10), 3)?,
                repetitions: reader.integer("repetitions", Some(10), 1)?,
            },
            "holdout" => Strategy::Holdout {
                test_fraction: reader.fraction("test_fraction", None)?,
                repetitions: reader.integer("repetitions", Some(1), 1)?,
            },
            "aslan" => Strategy::Aslan {
                test_fraction: reader.fraction("test_fraction", Some(1.0 / 3.0))?,
                folds: reader.integer("folds", Some(30), 2)?,
            },
            "five_by_two" => Strategy::FiveByTwo,
            _ => Strategy::LeaveOneOut,
        };
        Ok(strategy)
    }

    /// Reads a strategy from TOML text holding one table, e.g.
    /// `kind = "wu_flach"\nfolds = 10\nrepetitions = 10`.
    pub fn from_toml_str(text: &str) -> Result<Strategy, CvError> {
        let table: toml::Table = text
            .parse()
            .map_err(|error: toml::de::Error| CvError::Toml(error.to_string()))?;
        Strategy::from_table(&table)
    }

    /// Checks the parameters of a directly built strategy (same ranges as [`Strategy::from_table`]).
    pub fn validate(&self) -> Result<(), CvError> {
        let kind = self.kind();
        match *self {
            Strategy::StratifiedKfold { folds, repetitions } => {
                check_minimum(kind, "folds", folds, 2)?;
                check_minimum(kind, "repetitions", repetitions, 1)
            }
            Strategy::WuFlach { folds, repetitions } => {
                check_minimum(kind, "folds", folds, 3)?;
                check_minimum(kind, "repetitions", repetitions, 1)
            }
            Strategy::Holdout {
                test_fraction,
                repetitions,
            } => {
                check_fraction(kind, "test_fraction", test_fraction)?;
                check_minimum(kind, "repetitions", repetitions, 1)
            }
            Strategy::Aslan {
                test_fraction,
                folds,
            } => {
                check_fraction(kind, "test_fraction", test_fraction)?;
                check_minimum(kind, "folds", folds, 2)
            }
            Strategy::FiveByTwo | Strategy::LeaveOneOut | Strategy::Given => Ok(()),
        }
    }

    /// True if the splits carry a validation part (the Aslan and Wu-Flach protocols).
    pub fn has_validation(&self) -> bool {
        matches!(self, Strategy::Aslan { .. } | Strategy::WuFlach { .. })
    }

    /// How many splits [`Strategy::splits`] makes for `instances` instances (saturating at
    /// `usize::MAX` for parameters far too large to split).
    pub fn split_count(&self, instances: usize) -> usize {
        match *self {
            Strategy::StratifiedKfold { folds, repetitions }
            | Strategy::WuFlach { folds, repetitions } => folds.saturating_mul(repetitions),
            Strategy::FiveByTwo => 10,
            Strategy::Holdout { repetitions, .. } => repetitions,
            Strategy::LeaveOneOut => instances,
            Strategy::Aslan { folds, .. } => folds,
            Strategy::Given => 0,
        }
    }

    /// Instantiates the strategy on a dataset's classes (`classes[i]` = class index of row `i`)
    /// into concrete splits, ordered by repetition then fold. Repetition `r` draws from
    /// `ChaCha8Rng::seed_from_u64(seeds::derive_seed(seed, &[r]))` (the Aslan protocol has one
    /// repetition, 0).
    /// Errors if the parameters are out of range, the data has more rows than
    /// [`crate::MAX_INSTANCES`] (row numbers are `u32`), or too few instances for every test
    /// (and validation) part to be non-empty. Every fold count is then at most the number of
    /// rows, so fold numbers fit in `u32` too.
    pub fn splits(&self, classes: &[u32], seed: u64) -> Result<Vec<Split>, CvError> {
        if *self == Strategy::Given {
            return Err(CvError::NotMade);
        }
        self.validate()?;
        let instances = classes.len();
        check_instances(instances)?;
        self.check_enough_instances(instances)?;
        let mut splits = Vec::with_capacity(self.split_count(instances));
        match *self {
            Strategy::StratifiedKfold { folds, repetitions } => {
                kfold_splits(classes, folds, repetitions, seed, &mut splits);
            }
            Strategy::FiveByTwo => kfold_splits(classes, 2, 5, seed, &mut splits),
            Strategy::Holdout {
                test_fraction,
                repetitions,
            } => holdout_splits(classes, test_fraction, repetitions, seed, &mut splits),
            Strategy::LeaveOneOut => leave_one_out_splits(instances, &mut splits),
            Strategy::Aslan {
                test_fraction,
                folds,
            } => aslan_splits(classes, test_fraction, folds, seed, &mut splits),
            Strategy::WuFlach { folds, repetitions } => {
                wu_flach_splits(classes, folds, repetitions, seed, &mut splits);
            }
            Strategy::Given => {}
        }
        Ok(splits)
    }

    /// Refuses too few instances for every test (and validation) part to be non-empty.
    fn check_enough_instances(&self, instances: usize) -> Result<(), CvError> {
        let needed = match *self {
            Strategy::StratifiedKfold { folds, .. } | Strategy::WuFlach { folds, .. } => {
                (instances < folds).then(|| format!("at least {folds} instances (one per fold)"))
            }
            Strategy::FiveByTwo | Strategy::LeaveOneOut => {
                (instances < 2).then(|| "at least 2 instances".to_string())
            }
            Strategy::Given => None,
            Strategy::Holdout { test_fraction, .. } => {
                let test_size = (instances as f64 * test_fraction).round() as usize;
                (test_size == 0 || test_size >= instances).then(|| format!(
                    "enough instances for a non-empty train and test part at test_fraction = {test_fraction}"
                ))
            }
            Strategy::Aslan {
                test_fraction,
                folds,
            } => {
                let test_size = (instances as f64 * test_fraction).round() as usize;
                (test_size == 0 || instances - test_size.min(instances) < folds).then(|| format!(
                    "a non-empty test set and at least {folds} instances left for the {folds} validation folds at test_fraction = {test_fraction}"
                ))
            }
        };
        match needed {
            Some(needed) => Err(CvError::TooFewInstances {
                kind: self.kind().to_string(),
                needed,
                instances,
            }),
            None => Ok(()),
        }
    }

    /// [`Strategy::splits`] on a dataset's class column.
    pub fn splits_of_dataset(
        &self,
        dataset: &data::Dataset,
        seed: u64,
    ) -> Result<Vec<Split>, CvError> {
        self.splits(dataset.classes(), seed)
    }
}

/// Refuses more rows than [`crate::MAX_INSTANCES`]: row numbers are held as `u32`.
pub(crate) fn check_instances(instances: usize) -> Result<(), CvError> {
    if instances > crate::MAX_INSTANCES {
        return Err(CvError::TooManyInstances {
            instances,
            limit: crate::MAX_INSTANCES,
        });
    }
    Ok(())
}

/// The generator of repetition `repetition` of a plan made with `seed`.
fn repetition_generator(seed: u64, repetition: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(derive_seed(seed, &[repetition as u64]))
}

/// Repeated stratified k-fold splits appended to `splits`.
fn kfold_splits(
    classes: &[u32],
    folds: usize,
    repetitions: usize,
    seed: u64,
    splits: &mut Vec<Split>,
) {
    for repetition in 0..repetitions {
        let mut rng = repetition_generator(seed, repetition);
        let fold_of = stratified_fold_assignment(classes, folds, &mut rng);
        let partition = fold_lists(&fold_of, folds);
        for (fold, test) in partition.into_iter().enumerate() {
            splits.push(Split {
                repetition,
                fold,
                train: Train::Rest {
                    instances: classes.len(),
                },
                validation: None,
                test,
            });
        }
    }
}

/// Repeated stratified hold-out splits (train = the rest) appended to `splits`.
fn holdout_splits(
    classes: &[u32],
    test_fraction: f64,
    repetitions: usize,
    seed: u64,
    splits: &mut Vec<Split>,
) {
    let instances = classes.len();
    for repetition in 0..repetitions {
        let mut rng = repetition_generator(seed, repetition);
        let (_, test) = stratified_holdout(classes, test_fraction, &mut rng);
        splits.push(Split {
            repetition,
            fold: 0,
            train: Train::Rest { instances },
            validation: None,
            test,
        });
    }
}

/// One split per instance, testing on it alone, appended to `splits`.
fn leave_one_out_splits(instances: usize, splits: &mut Vec<Split>) {
    for (fold, index) in (0..instances).zip(0..) {
        splits.push(Split {
            repetition: 0,
            fold,
            train: Train::Rest { instances },
            validation: None,
            test: vec![index],
        });
    }
}

/// The Aslan protocol's splits appended to `splits`: one stratified test set, the rest
/// partitioned into `folds` stratified validation folds (drawn from repetition 0's generator).
fn aslan_splits(
    classes: &[u32],
    test_fraction: f64,
    folds: usize,
    seed: u64,
    splits: &mut Vec<Split>,
) {
    let instances = classes.len();
    let mut rng = repetition_generator(seed, 0);
    let (train_all, test) = stratified_holdout(classes, test_fraction, &mut rng);
    let train_all_classes: Vec<u32> = train_all
        .iter()
        .map(|&index| classes[index as usize])
        .collect();
    let inner = stratified_fold_assignment(&train_all_classes, folds, &mut rng);
    // The inner fold of every row of train-all; test rows are in no fold.
    let mut fold_of = vec![NO_FOLD; instances];
    for (&index, &inner_fold) in train_all.iter().zip(&inner) {
        fold_of[index as usize] = inner_fold;
    }
    for (fold, number) in (0..folds).zip(0..) {
        splits.push(Split {
            repetition: 0,
            fold,
            train: Train::Rest { instances },
            validation: Some(indices_inside(&fold_of, number)),
            test: test.clone(),
        });
    }
}

/// Repeated Wu-Flach splits appended to `splits`: round `i` of a stratified partition tests on
/// fold `i` and validates on fold `(i + 1) mod folds`.
fn wu_flach_splits(
    classes: &[u32],
    folds: usize,
    repetitions: usize,
    seed: u64,
    splits: &mut Vec<Split>,
) {
    let instances = classes.len();
    for repetition in 0..repetitions {
        let mut rng = repetition_generator(seed, repetition);
        let fold_of = stratified_fold_assignment(classes, folds, &mut rng);
        let partition = fold_lists(&fold_of, folds);
        for fold in 0..folds {
            let validation_fold = (fold + 1) % folds;
            splits.push(Split {
                repetition,
                fold,
                train: Train::Rest { instances },
                validation: Some(partition[validation_fold].clone()),
                test: partition[fold].clone(),
            });
        }
    }
}

impl<'de> Deserialize<'de> for Strategy {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let table = toml::Table::deserialize(deserializer)?;
        // A saved plan of given splits (not a config's kind, so not read by `from_table`).
        if table.len() == 1 && table.get("kind").and_then(toml::Value::as_str) == Some("given") {
            return Ok(Strategy::Given);
        }
        Strategy::from_table(&table).map_err(serde::de::Error::custom)
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Strategy::StratifiedKfold { folds, repetitions } => {
                write!(formatter, "{repetitions}x stratified {folds}-fold CV")
            }
            Strategy::FiveByTwo => write!(formatter, "5x2cv"),
            Strategy::Holdout {
                test_fraction,
                repetitions,
            } => write!(
                formatter,
                "{repetitions}x stratified hold-out (test fraction {test_fraction})"
            ),
            Strategy::LeaveOneOut => write!(formatter, "leave-one-out"),
            Strategy::Aslan {
                test_fraction,
                folds,
            } => write!(
                formatter,
                "Aslan protocol (test fraction {test_fraction}, {folds} validation folds)"
            ),
            Strategy::WuFlach { folds, repetitions } => {
                write!(
                    formatter,
                    "{repetitions}x Wu-Flach {folds}-fold train/validation/test"
                )
            }
            Strategy::Given => write!(formatter, "splits given with the data"),
        }
    }
}
