//! Fair tuning, planned (its types are [`crate::plan::tuning`]'s): `[tuning]` read and checked,
//! each tuned learner's space and candidates, the inner splits of every outer split and the
//! inner units.

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::Result;
use crate::measures::measure::Measure;
use crate::plan::registries::Registries;
use crate::plan::tuning::{
    Candidate, Inner, Method, Space, TunedLearner, Tuning, TuningSettings, MAX_BUDGET,
    MAX_INNER_FOLDS,
};
use crate::plan::units::{ConfiguredLearner, Plan, PreparedDataset, Training, Unit};

/// The keys of the `[tuning]` table.
const KEYS: [&str; 5] = ["budget", "method", "measure", "inner", "compare_default"];

/// Reads `[tuning]`; `None` (and nothing added to `problems`) without the table.
pub fn settings(
    table: Option<&toml::Table>,
    registries: &Registries,
    learners: &learners::Registry,
    problems: &mut Vec<String>,
) -> Option<TuningSettings> {
    let table = table?;
    let before = problems.len();
    let mut problem = |text: String| problems.push(format!("key 'tuning': {text}"));
    for key in table.keys().filter(|key| !KEYS.contains(&key.as_str())) {
        problem(format!(
            "unknown key '{key}' (allowed: {})",
            KEYS.join(", ")
        ));
    }
    let budget = whole(table.get("budget"), 10, MAX_BUDGET)
        .map_err(|text| problem(format!("'budget' {text}")))
        .ok();
    let method = match table.get("method").map(toml::Value::as_str) {
        None | Some(Some("grid")) => Some(Method::Grid),
        Some(Some("random")) => Some(Method::Random),
        Some(other) => {
            problem(format!(
                "'method' = {} is not one of grid, random",
                other.map_or("(not a string)".to_string(), |text| format!("\"{text}\""))
            ));
            None
        }
    };
    let item = table
        .get("measure")
        .cloned()
        .unwrap_or_else(|| toml::Value::String("error".into()));
    let measure = registries
        .measures
        .lookup(&item)
        .and_then(|(entry, options)| Measure::build(entry, &entry.check(&options, learners)?))
        .map_err(|text| problem(format!("'measure': {text}")))
        .ok();
    let inner = inner(table.get("inner"))
        .map_err(|text| problem(format!("'inner' {text}")))
        .ok();
    let compare_default = match table.get("compare_default") {
        None => Some(false),
        Some(toml::Value::Boolean(flag)) => Some(*flag),
        Some(other) => {
            problem(format!("'compare_default' = {other}: give true or false"));
            None
        }
    };
    if problems.len() > before {
        return None;
    }
    Some(TuningSettings {
        budget: budget?,
        method: method?,
        measure: measure?,
        inner: inner?,
        compare_default: compare_default?,
    })
}

/// A whole number from 1 to `high` (`default` when absent), or what is wrong with it.
fn whole(
    value: Option<&toml::Value>,
    default: usize,
    high: usize,
) -> std::result::Result<usize, String> {
    match value {
        None => Ok(default),
        Some(toml::Value::Integer(n)) if *n >= 1 && *n as u64 <= high as u64 => Ok(*n as usize),
        Some(other) => Err(format!(
            "= {other} is out of range; allowed: a whole number from 1 to {high}"
        )),
    }
}

/// Reads `inner`: `"validation"`, or `{ kind = "stratified_kfold", folds = k }` (3 folds by
/// default, and without the key).
fn inner(value: Option<&toml::Value>) -> std::result::Result<Inner, String> {
    const ALLOWED: &str = "allowed: \"validation\", or { kind = \"stratified_kfold\", folds = k } \
                           with k from 2 to 100";
    match value {
        None => Ok(Inner::Folds(3)),
        Some(toml::Value::String(word)) if word == "validation" => Ok(Inner::Validation),
        Some(toml::Value::Table(table)) => {
            let kind = table.get("kind").and_then(toml::Value::as_str);
            let unknown = table
                .keys()
                .find(|key| !["kind", "folds"].contains(&key.as_str()));
            if kind != Some("stratified_kfold") || unknown.is_some() {
                return Err(format!("= {table} is not an inner protocol; {ALLOWED}"));
            }
            match whole(table.get("folds"), 3, MAX_INNER_FOLDS) {
                Ok(1) | Err(_) => Err(format!(
                    "'folds' = {} is out of range; {ALLOWED}",
                    table["folds"]
                )),
                Ok(folds) => Ok(Inner::Folds(folds)),
            }
        }
        Some(other) => Err(format!("= {other} is not an inner protocol; {ALLOWED}")),
    }
}

/// Reads a learner's `tune` value (a table of spaces, or `"declared"`) against its kind's
/// declared parameters: the tuned parameters with their spaces (a table's in the order of
/// their names, as scikit-learn's `ParameterGrid` sorts them; a declared space's in the order
/// declared), or the problem.
pub fn spaces(
    tune: &toml::Value,
    kind: &learners::LearnerSpec,
) -> std::result::Result<Vec<(String, Space)>, String> {
    match tune {
        toml::Value::String(word) if word == "declared" => declared(kind),
        toml::Value::Table(table) if !table.is_empty() => table
            .iter()
            .map(|(name, value)| {
                if learners::Declares::parameter(kind, name).is_none() {
                    return Err(format!(
                        "'tune': learner '{}' has no parameter '{name}' (allowed: {})",
                        kind.kind,
                        learners::Declares::parameter_names(kind)
                    ));
                }
                space(name, value).map(|space| (name.clone(), space))
            })
            .collect(),
        other => Err(format!(
            "'tune' = {other}: give a table of parameters and their values (tune = {{ k = [1, 3, 5] }}) or \"declared\""
        )),
    }
}

/// The space a kind declares beside its parameters, or the problem when it declares none.
fn declared(kind: &learners::LearnerSpec) -> std::result::Result<Vec<(String, Space)>, String> {
    let spaces: Vec<(String, Space)> = kind
        .parameters
        .iter()
        .filter_map(|parameter| {
            let space = parameter.tune_space()?;
            Some((parameter.name().to_string(), Space::Values(space.values())))
        })
        .collect();
    if spaces.is_empty() {
        return Err(format!(
            "'tune' = \"declared\": learner '{}' declares no search space; give one, e.g. \
             tune = {{ {} = [...] }}",
            kind.kind,
            kind.parameters.first().map_or("parameter", |p| p.name())
        ));
    }
    Ok(spaces)
}

/// One parameter's space: a non-empty list, or `{ low, high, log }`.
fn space(name: &str, value: &toml::Value) -> std::result::Result<Space, String> {
    match value {
        toml::Value::Array(values) if !values.is_empty() => Ok(Space::Values(values.clone())),
        toml::Value::Table(table) => {
            let number = |key: &str| table.get(key).and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)));
            let log = table.get("log").and_then(toml::Value::as_bool).unwrap_or(false);
            let unknown = table.keys().find(|key| !["low", "high", "log"].contains(&key.as_str()));
            match (number("low"), number("high"), unknown) {
                (Some(low), Some(high), None)
                    if low.is_finite() && high.is_finite() && low < high && (!log || low > 0.0) =>
                {
                    Ok(Space::Range { low, high, log })
                }
                _ => Err(format!(
                    "'tune.{name}' = {value}: a range is {{ low = a, high = b }} with a < b (and \
                     a > 0 with log = true)"
                )),
            }
        }
        other => Err(format!(
            "'tune.{name}' = {other}: give a non-empty list of values or a range {{ low = a, high = b, log = false }}"
        )),
    }
}

/// The candidates of a learner tuned over `spaces`: built from its table (`base`, without
/// `tune` and `name`) with each candidate's values, each checked as the learner's parameters
/// are; the error names the first bad value.
pub fn candidates(
    (name, base): (&str, &toml::Table),
    spaces: &[(String, Space)],
    settings: &TuningSettings,
    seed: u64,
    registry: &learners::Registry,
) -> std::result::Result<TunedLearner, String> {
    let points = match settings.method {
        Method::Grid => grid_points(spaces, settings.budget, seed)?,
        Method::Random => random_points(spaces, settings.budget, seed),
    };
    let grid_size = grid_size(spaces);
    let candidates = points
        .into_iter()
        .map(|values| {
            let mut table = base.clone();
            for ((parameter, _), value) in spaces.iter().zip(&values) {
                table.insert(parameter.clone(), value.clone());
            }
            let learner = registry
                .build(&table)
                .map_err(|error| format!("'tune': {error}"))?;
            let learner = ConfiguredLearner {
                name: name.to_string(),
                table,
                learner,
                tune: None,
            };
            Ok(Candidate { values, learner })
        })
        .collect::<std::result::Result<Vec<_>, String>>()?;
    Ok(TunedLearner {
        parameters: spaces.iter().map(|(name, _)| name.clone()).collect(),
        candidates,
        grid_size,
    })
}

/// The number of points of the grid over `spaces` (none when a space is a range).
fn grid_size(spaces: &[(String, Space)]) -> Option<usize> {
    spaces
        .iter()
        .try_fold(1usize, |size, (_, space)| match space {
            Space::Values(values) => Some(size.saturating_mul(values.len())),
            Space::Range { .. } => None,
        })
}

/// The grid's points in order (the last parameter varying fastest), sampled down to `budget`
/// distinct points (seeded, kept in grid order) when the grid is larger.
fn grid_points(
    spaces: &[(String, Space)],
    budget: usize,
    seed: u64,
) -> std::result::Result<Vec<Vec<toml::Value>>, String> {
    let Some(size) = grid_size(spaces) else {
        return Err(
            "'tune': a range needs method = \"random\" in [tuning]; a grid takes lists".into(),
        );
    };
    let lists: Vec<&Vec<toml::Value>> = spaces
        .iter()
        .filter_map(|(_, space)| match space {
            Space::Values(values) => Some(values),
            Space::Range { .. } => None,
        })
        .collect();
    let point = |mut index: usize| -> Vec<toml::Value> {
        let mut values = vec![toml::Value::Boolean(false); lists.len()];
        for (slot, list) in values.iter_mut().zip(&lists).rev() {
            *slot = list[index % list.len()].clone();
            index /= list.len();
        }
        values
    };
    if size <= budget {
        return Ok((0..size).map(point).collect());
    }
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let mut chosen = rand::seq::index::sample(&mut generator, size, budget).into_vec();
    chosen.sort_unstable();
    Ok(chosen.into_iter().map(point).collect())
}

/// `budget` distinct random points (fewer when the space has fewer), each value drawn on its
/// own: a list's uniformly, a range's uniformly or in the logarithm.
fn random_points(spaces: &[(String, Space)], budget: usize, seed: u64) -> Vec<Vec<toml::Value>> {
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let wanted = grid_size(spaces).map_or(budget, |size| size.min(budget));
    let mut points: Vec<Vec<toml::Value>> = Vec::with_capacity(wanted);
    let mut attempts = 0;
    while points.len() < wanted && attempts < 100 * budget {
        attempts += 1;
        let point: Vec<toml::Value> = spaces
            .iter()
            .map(|(_, space)| match space {
                Space::Values(values) => values[generator.random_range(0..values.len())].clone(),
                Space::Range { low, high, log } => {
                    let unit: f64 = generator.random();
                    let value = if *log {
                        (low.ln() + unit * (high.ln() - low.ln())).exp()
                    } else {
                        low + unit * (high - low)
                    };
                    toml::Value::Float(value.clamp(*low, *high))
                }
            })
            .collect();
        if !points.contains(&point) {
            points.push(point);
        }
    }
    points
}

/// The inner splits of every outer split of `dataset`: stratified `folds`-fold CV of its
/// training rows, drawn once per outer split from the experiment seed, the dataset and the
/// split (the same for every learner); each inner split trains on the listed rows of the other
/// inner folds and tests on its own fold.
pub fn inner_splits(
    dataset: &PreparedDataset,
    folds: usize,
    experiment_seed: u64,
) -> Result<Vec<Vec<cv::Split>>> {
    (0..dataset.plan.splits.len())
        .map(|index| inner_splits_of(dataset, index, folds, experiment_seed))
        .collect()
}

/// The inner splits of one outer split of `dataset` (at index `plan.splits.len()`, the whole
/// training part: see [`PreparedDataset::outer_split`]).
fn inner_splits_of(
    dataset: &PreparedDataset,
    index: usize,
    folds: usize,
    experiment_seed: u64,
) -> Result<Vec<cv::Split>> {
    let strategy = cv::Strategy::StratifiedKfold {
        folds,
        repetitions: 1,
    };
    let classes = dataset.dataset.classes();
    let outer = dataset.outer_split(index);
    let rows: Vec<u32> = outer.train_rows().collect();
    let inner_classes: Vec<u32> = rows.iter().map(|&row| classes[row as usize]).collect();
    let seed = seeds::derive_seed(
        seeds::derive_seed_from_label(experiment_seed, &dataset.name),
        &[INNER_TAG, index as u64],
    );
    let splits = strategy.splits(&inner_classes, seed).map_err(|error| {
        let which = if dataset.is_whole(index) {
            "the whole training part".to_string()
        } else {
            format!("repetition {} fold {}", outer.repetition, outer.fold)
        };
        crate::error::Error::config(format!(
            "key 'tuning': dataset '{}': the inner folds of {which}: {error}",
            dataset.name
        ))
    })?;
    Ok(splits
        .into_iter()
        .map(|inner| to_dataset_rows(inner, &rows, outer))
        .collect())
}

/// The seed label of the inner splits, apart from every other seed of a plan.
const INNER_TAG: u64 = 0x7475_6e65; // "tune"

/// An inner split over positions in `rows` as a split over the dataset's rows (its training rows
/// listed: they are not the rest of the dataset), numbered as its outer split.
fn to_dataset_rows(inner: cv::Split, rows: &[u32], outer: &cv::Split) -> cv::Split {
    let map = |positions: Vec<u32>| -> Vec<u32> {
        positions
            .into_iter()
            .map(|position| rows[position as usize])
            .collect()
    };
    let train: Vec<u32> = inner.train_rows().collect();
    cv::Split {
        repetition: outer.repetition,
        fold: outer.fold,
        train: cv::Train::Listed(map(train)),
        validation: None,
        test: map(inner.test),
    }
}

/// The inner units of a plan: for each dataset, tuned learner and outer split, each inner fold
/// (or the split itself with [`Inner::Validation`]) and each candidate.
pub fn inner_units(plan: &Plan, tuned: &[Option<TunedLearner>], inner: Inner) -> Vec<Unit> {
    let mut units = Vec::new();
    for (dataset, prepared) in plan.datasets.iter().enumerate() {
        for (learner, tuned) in tuned.iter().enumerate() {
            let Some(tuned) = tuned else { continue };
            for split in 0..prepared.plan.splits.len() {
                let folds: Vec<Option<usize>> = match inner {
                    Inner::Folds(folds) => (0..folds.min(prepared.inner_split_count(split)))
                        .map(Some)
                        .collect(),
                    Inner::Validation => vec![None],
                };
                for fold in folds {
                    for candidate in 0..tuned.candidates.len() {
                        units.push(Unit {
                            dataset,
                            learner,
                            training: Training::Inner {
                                split,
                                inner: fold,
                                candidate,
                            },
                        });
                    }
                }
            }
        }
    }
    units
}

/// Makes the plan's tuning: the inner splits of every dataset (with inner folds), or the check
/// that every split has validation rows (with `inner = "validation"`), and the inner units.
pub fn attach(
    plan: &mut Plan,
    settings: TuningSettings,
    tuned: Vec<Option<TunedLearner>>,
    experiment_seed: u64,
) -> Result<()> {
    match settings.inner {
        Inner::Folds(folds) => {
            for dataset in &mut plan.datasets {
                dataset.inner_splits = inner_splits(dataset, folds, experiment_seed)?;
            }
        }
        Inner::Validation => {
            if let Some(dataset) = plan.datasets.iter().find(|dataset| {
                dataset
                    .plan
                    .splits
                    .iter()
                    .any(|split| split.validation.is_none())
            }) {
                crate::error::bail!(
                    "key 'tuning': inner = \"validation\" scores the candidates on each split's \
                     validation rows, but the protocol gives dataset '{}' none (protocols \
                     'aslan' and 'wu_flach' have them): use inner = {{ kind = \
                     \"stratified_kfold\", folds = 3 }}",
                    dataset.name
                );
            }
        }
    }
    let units = inner_units(plan, &tuned, settings.inner);
    plan.tuning = Some(Tuning {
        settings,
        learners: tuned,
        units,
        choices: HashMap::new(),
    });
    Ok(())
}

/// Plans the tuning of the tuned learners' whole-training units (the tests on a fixed test set
/// and some analyses ask for them): inner folds of the whole training part, drawn as every
/// outer split's are, and each candidate on each of them; the chosen candidate is then fitted
/// on the whole training part. With `inner = "validation"` they are refused: the whole training
/// part has no validation rows.
pub fn attach_whole_training(plan: &mut Plan, experiment_seed: u64) -> Result<()> {
    let Some(tuning) = &plan.tuning else {
        return Ok(());
    };
    let wanted: Vec<Unit> = plan
        .whole_training_units()
        .map(|(_, unit)| unit)
        .filter(|unit| tuning.learners[unit.learner].is_some())
        .collect();
    let Some(first) = wanted.first() else {
        return Ok(());
    };
    let Inner::Folds(folds) = tuning.settings.inner else {
        crate::error::bail!(
            "key 'tuning': learner '{}' is tuned on the validation rows (inner = \
             \"validation\"), but the tests on the fixed test set (key 'tests') or an analysis \
             ask for its model on the whole training part, which has none: use inner = {{ kind \
             = \"stratified_kfold\", folds = 3 }}, or remove those tests (tests = [\"paired_t\"])",
            plan.learners[first.learner].name
        );
    };
    let mut datasets: Vec<usize> = wanted.iter().map(|unit| unit.dataset).collect();
    datasets.dedup();
    for &dataset in &datasets {
        let prepared = &plan.datasets[dataset];
        let index = prepared.plan.splits.len();
        let splits = inner_splits_of(prepared, index, folds, experiment_seed)?;
        plan.datasets[dataset].inner_splits.push(splits);
    }
    let tuning = plan.tuning.as_ref().expect("checked above");
    let units = whole_training_inner_units(plan, tuning, &wanted);
    plan.tuning
        .as_mut()
        .expect("checked above")
        .units
        .extend(units);
    Ok(())
}

/// Each candidate on each inner fold of the whole training part, for the whole-training units
/// `wanted` of tuned learners.
fn whole_training_inner_units(plan: &Plan, tuning: &Tuning, wanted: &[Unit]) -> Vec<Unit> {
    let mut units = Vec::new();
    for unit in wanted {
        let prepared = &plan.datasets[unit.dataset];
        let split = prepared.plan.splits.len();
        let tuned = tuning.learners[unit.learner]
            .as_ref()
            .expect("a tuned learner");
        for inner in 0..prepared.inner_split_count(split) {
            for candidate in 0..tuned.candidates.len() {
                units.push(Unit {
                    dataset: unit.dataset,
                    learner: unit.learner,
                    training: Training::Inner {
                        split,
                        inner: Some(inner),
                        candidate,
                    },
                });
            }
        }
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(items: &[i64]) -> Space {
        Space::Values(items.iter().map(|&i| toml::Value::Integer(i)).collect())
    }

    fn as_integers(points: &[Vec<toml::Value>]) -> Vec<Vec<i64>> {
        points
            .iter()
            .map(|point| point.iter().map(|v| v.as_integer().unwrap()).collect())
            .collect()
    }

    /// The grid is the product of the lists in the order written, the last varying fastest
    /// (as scikit-learn's ParameterGrid orders a grid of sorted keys).
    #[test]
    fn the_grid_is_the_product_in_order() {
        let spaces = [
            ("a".to_string(), values(&[1, 2])),
            ("b".to_string(), values(&[7, 8, 9])),
        ];
        let points = grid_points(&spaces, 100, 1).unwrap();
        assert_eq!(
            as_integers(&points),
            vec![
                vec![1, 7],
                vec![1, 8],
                vec![1, 9],
                vec![2, 7],
                vec![2, 8],
                vec![2, 9]
            ]
        );
    }

    /// A grid larger than the budget is sampled down to exactly `budget` distinct points, kept
    /// in grid order, the same for the same seed.
    #[test]
    fn a_larger_grid_is_sampled_down_to_the_budget() {
        let spaces = [
            ("a".to_string(), values(&(0..10).collect::<Vec<_>>())),
            ("b".to_string(), values(&[0, 1, 2])),
        ];
        let whole = as_integers(&grid_points(&spaces, 1000, 1).unwrap());
        let points = as_integers(&grid_points(&spaces, 7, 5).unwrap());
        assert_eq!(points.len(), 7);
        let positions: Vec<usize> = points
            .iter()
            .map(|p| whole.iter().position(|w| w == p).unwrap())
            .collect();
        assert!(positions.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(points, as_integers(&grid_points(&spaces, 7, 5).unwrap()));
        assert_ne!(points, as_integers(&grid_points(&spaces, 7, 6).unwrap()));
    }

    /// Random draws are distinct, within their ranges (a log range's too), and no more than a
    /// list-only space holds.
    #[test]
    fn random_draws_are_distinct_and_within_their_ranges() {
        let spaces = [
            (
                "r".to_string(),
                Space::Range {
                    low: 1e-4,
                    high: 10.0,
                    log: true,
                },
            ),
            ("k".to_string(), values(&[1, 3])),
        ];
        let points = random_points(&spaces, 50, 3);
        assert_eq!(points.len(), 50);
        for (index, point) in points.iter().enumerate() {
            let r = point[0].as_float().unwrap();
            assert!((1e-4..=10.0).contains(&r));
            assert!(!points[..index].contains(point));
        }
        // On a log scale about half the draws fall below the geometric middle, 0.0316.
        let low = points
            .iter()
            .filter(|p| p[0].as_float().unwrap() < 0.0316)
            .count();
        assert!((15..=35).contains(&low), "{low}");
        let small = [("k".to_string(), values(&[1, 3]))];
        assert_eq!(random_points(&small, 10, 1).len(), 2);
    }
}
