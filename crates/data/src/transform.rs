//! The transforms the papers need. Each is deterministic and returns, beside the new dataset,
//! a record of what it chose and why.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::dataset::{Dataset, Schema};
use crate::error::DataError;
use crate::nearest::leave_one_out_nearest_tied;

/// The revision of what [`reduce_to_most_confused`] chooses: a cache of its records keys them
/// with it. Bump it when a change could choose another pair or word the record otherwise.
pub const MOST_CONFUSED_REVISION: &str = "1";

/// What [`reduce_to_most_confused`] did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MostConfusedRecord {
    /// The dataset's name.
    pub dataset: String,
    /// The original class values, in order (the confusion matrix's rows and columns).
    pub class_values: Vec<String>,
    /// Leave-one-out 1-NN confusion counts, `confusion[true][predicted]`; empty when the
    /// dataset already had two classes and nothing was computed.
    pub confusion: Vec<Vec<usize>>,
    /// The two class indices kept, lower first.
    pub pair: (usize, usize),
    /// `confusion[pair.0][pair.1]` and `confusion[pair.1][pair.0]`.
    pub pair_confusions: (usize, usize),
    /// Rows kept (those of the two classes).
    pub kept_rows: usize,
    /// How rows tied at the nearest distance were treated.
    pub tie_rule: TieRule,
    /// Why this pair, in words.
    pub reason: String,
}

/// How leave-one-out 1-NN predicts when several rows are nearest at the same distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TieRule {
    /// The class of the nearest row with the lowest row index. Deterministic, but on nominal
    /// data with many ties it depends on the file's row order (kr-vs-k: 10% LOO accuracy).
    LowerRow,
    /// The majority class among all rows tied at the nearest distance, ties to the first class
    /// in class order (what Weka's IBk does with k = 1: it keeps every neighbour tied at the
    /// k-th distance and predicts the first class of largest vote). The default: it does not
    /// depend on row order, and equals `LowerRow` whenever the nearest row is unique.
    #[default]
    Vote,
}

/// The leave-one-out 1-nearest-neighbour confusion matrix (`[true][predicted]` row counts) over
/// the whole dataset, with the distance of [`crate::distance`] fitted on all rows and rows tied
/// at the nearest distance voting ([`TieRule::Vote`]).
pub fn leave_one_out_confusion(dataset: &Dataset) -> Vec<Vec<usize>> {
    leave_one_out_confusion_with(dataset, TieRule::Vote)
}

/// [`leave_one_out_confusion`] with a chosen [`TieRule`].
pub fn leave_one_out_confusion_with(dataset: &Dataset, rule: TieRule) -> Vec<Vec<usize>> {
    let classes = dataset.num_classes();
    let mut confusion = vec![vec![0usize; classes]; classes];
    if dataset.len() < 2 {
        return confusion;
    }
    let mut votes = vec![0usize; classes];
    for (row, tied) in leave_one_out_nearest_tied(dataset).into_iter().enumerate() {
        let predicted = match rule {
            TieRule::LowerRow => dataset.class(tied[0]),
            TieRule::Vote => {
                votes.iter_mut().for_each(|v| *v = 0);
                for &other in &tied {
                    votes[dataset.class(other)] += 1;
                }
                let mut best = 0;
                for (class, &count) in votes.iter().enumerate() {
                    if count > votes[best] {
                        best = class;
                    }
                }
                best
            }
        };
        confusion[dataset.class(row)][predicted] += 1;
    }
    confusion
}

/// The pair of classes with the largest symmetric off-diagonal count
/// `confusion[a][b] + confusion[b][a]`; ties go to the pair first in class order.
pub fn most_confused_pair(confusion: &[Vec<usize>]) -> (usize, usize) {
    let mut best = (0, 1);
    let mut best_count = None;
    for (a, row) in confusion.iter().enumerate() {
        for (b, other) in confusion.iter().enumerate().skip(a + 1) {
            let count = row[b] + other[a];
            if best_count.is_none_or(|c| count > c) {
                best = (a, b);
                best_count = Some(count);
            }
        }
    }
    best
}

/// Keeps only the rows of two classes and relabels them, in their original order.
fn keep_classes(dataset: &Dataset, keep: &[usize]) -> Result<Dataset, DataError> {
    let rows: Vec<usize> = (0..dataset.len())
        .filter(|&row| keep.contains(&dataset.class(row)))
        .collect();
    let selected = dataset.select_rows(&rows);
    let (name, schema, columns, classes, weights) = selected.into_parts();
    let classes = classes
        .into_iter()
        .map(|c| keep.iter().position(|&k| k == c as usize).unwrap_or(0) as u32)
        .collect();
    let schema = Schema {
        class_values: keep
            .iter()
            .map(|&k| schema.class_values[k].clone())
            .collect(),
        ..schema
    };
    Dataset::new(name, schema, columns, classes, Some(weights)).map_err(|e| DataError::Transform {
        transform: "keep classes",
        dataset: dataset.name().to_string(),
        message: e.to_string(),
    })
}

/// Reduces a multi-class dataset to the two classes that 1-nearest-neighbour confuses most
/// (Aslan et al. 2009): leave-one-out 1-NN over the whole dataset ([`leave_one_out_confusion`]),
/// then the pair with the largest `confusion[a][b] + confusion[b][a]`, ties to the pair first
/// in class order. Rows of other classes are dropped; the two classes keep their order. A
/// two-class dataset is returned unchanged.
pub fn reduce_to_most_confused(
    dataset: &Dataset,
) -> Result<(Dataset, MostConfusedRecord), DataError> {
    reduce_to_most_confused_with(dataset, TieRule::Vote)
}

/// [`reduce_to_most_confused`] with a chosen [`TieRule`] for the 1-NN run.
pub fn reduce_to_most_confused_with(
    dataset: &Dataset,
    rule: TieRule,
) -> Result<(Dataset, MostConfusedRecord), DataError> {
    let record = most_confused_record(dataset, rule)?;
    let reduced = keep_most_confused(dataset, &record)?;
    Ok((reduced, record))
}

/// What [`reduce_to_most_confused_with`] chooses, without reducing the dataset: the 1-NN run
/// (the slow part) and the pair. [`keep_most_confused`] then reduces the dataset.
pub fn most_confused_record(
    dataset: &Dataset,
    rule: TieRule,
) -> Result<MostConfusedRecord, DataError> {
    let class_values = dataset.schema().class_values.clone();
    if class_values.len() < 2 {
        return Err(DataError::Transform {
            transform: "reduce to the two most confused classes",
            dataset: dataset.name().to_string(),
            message: format!("needs at least 2 classes, found {}", class_values.len()),
        });
    }
    if class_values.len() == 2 {
        return Ok(MostConfusedRecord {
            dataset: dataset.name().to_string(),
            class_values,
            confusion: Vec::new(),
            pair: (0, 1),
            pair_confusions: (0, 0),
            kept_rows: dataset.len(),
            tie_rule: rule,
            reason: "the dataset already has two classes".into(),
        });
    }
    let confusion = leave_one_out_confusion_with(dataset, rule);
    let (a, b) = most_confused_pair(&confusion);
    let total: usize = confusion.iter().flatten().sum();
    let correct: usize = (0..confusion.len()).map(|i| confusion[i][i]).sum();
    let reason = format!(
        "leave-one-out 1-NN ({rule:?} ties) on all {total} rows ({correct} correct) confuses '{}' and '{}' most: {} + {} = {} rows",
        class_values[a],
        class_values[b],
        confusion[a][b],
        confusion[b][a],
        confusion[a][b] + confusion[b][a]
    );
    Ok(MostConfusedRecord {
        dataset: dataset.name().to_string(),
        class_values,
        pair_confusions: (confusion[a][b], confusion[b][a]),
        confusion,
        pair: (a, b),
        kept_rows: (0..dataset.len())
            .filter(|&row| [a, b].contains(&dataset.class(row)))
            .count(),
        tie_rule: rule,
        reason,
    })
}

/// The dataset reduced as `record` (from [`most_confused_record`] on the same data) says: the
/// rows of its pair's two classes, or the dataset unchanged when it has two classes.
pub fn keep_most_confused(
    dataset: &Dataset,
    record: &MostConfusedRecord,
) -> Result<Dataset, DataError> {
    if dataset.num_classes() == 2 {
        return Ok(dataset.clone());
    }
    keep_classes(dataset, &[record.pair.0, record.pair.1])
}

/// Which class is the positive one.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum PositiveClass {
    /// The class with the smallest total weight among those present (ties: first in order).
    #[default]
    Minority,
    /// The class with this name.
    Named(String),
}

/// What [`choose_positive`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct PositiveRecord {
    /// The dataset's name.
    pub dataset: String,
    /// The positive class's name (class index 1 of the result).
    pub positive: String,
    /// The negative class's name (class index 0): the other class, or `rest` for one-vs-rest.
    pub negative: String,
    /// Total weight of the positive and of the negative rows.
    pub weights: (f64, f64),
    /// True when more than two classes were merged into `rest`.
    pub one_vs_rest: bool,
    /// Why this class, in words.
    pub reason: String,
}

/// Relabels a dataset as binary with class values `[negative, positive]`, so the positive
/// class has index 1 (the convention of scores and AUC). With more than two classes, all
/// others become one negative class named `rest` (`rest_` if a class is already called so).
pub fn choose_positive(
    dataset: &Dataset,
    choice: &PositiveClass,
) -> Result<(Dataset, PositiveRecord), DataError> {
    into_positive(dataset.clone(), choice)
}

/// [`choose_positive`] on a dataset given up: its columns move into the result instead of
/// being copied, so a large dataset is never held twice.
pub fn into_positive(
    dataset: Dataset,
    choice: &PositiveClass,
) -> Result<(Dataset, PositiveRecord), DataError> {
    let values = dataset.schema().class_values.clone();
    let dataset_name = dataset.name().to_string();
    let counts = dataset.class_counts();
    let (positive, why) = match choice {
        PositiveClass::Named(name) => match values.iter().position(|v| v == name) {
            Some(index) => (index, format!("named '{name}'")),
            None => {
                return Err(DataError::Transform {
                    transform: "choose the positive class",
                    dataset: dataset.name().to_string(),
                    message: format!(
                        "class '{}' does not exist; classes are: {}",
                        crate::shown::shown(name),
                        crate::shown::shown_list(&values, 50)
                    ),
                })
            }
        },
        PositiveClass::Minority => {
            let mut best: Option<usize> = None;
            for (index, &count) in counts.iter().enumerate() {
                if count > 0.0 && best.is_none_or(|b| count < counts[b]) {
                    best = Some(index);
                }
            }
            let index = best.unwrap_or(0);
            (
                index,
                format!(
                    "minority class: weight {} of {}",
                    counts[index],
                    counts.iter().sum::<f64>()
                ),
            )
        }
    };
    let one_vs_rest = values.len() > 2;
    let negative_name = if one_vs_rest {
        let mut name = "rest".to_string();
        while values.contains(&name) {
            name.push('_');
        }
        name
    } else {
        values[1 - positive].clone()
    };
    let (name, schema, columns, classes, weights) = dataset.into_parts();
    let classes = classes
        .into_iter()
        .map(|c| u32::from(c as usize == positive))
        .collect();
    let positive_name = values[positive].clone();
    let schema = Schema {
        class_values: vec![negative_name.clone(), positive_name.clone()],
        ..schema
    };
    let relabelled = Dataset::new(name, schema, columns, classes, Some(weights)).map_err(|e| {
        DataError::Transform {
            transform: "choose the positive class",
            dataset: dataset_name.clone(),
            message: e.to_string(),
        }
    })?;
    let positive_weight = counts[positive];
    let negative_weight = counts.iter().sum::<f64>() - positive_weight;
    let record = PositiveRecord {
        dataset: dataset_name,
        positive: positive_name,
        negative: negative_name,
        weights: (positive_weight, negative_weight),
        one_vs_rest,
        reason: why,
    };
    Ok((relabelled, record))
}

/// What [`stratified_subsample`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct SubsampleRecord {
    /// The dataset's name.
    pub dataset: String,
    /// The seed given.
    pub seed: u64,
    /// Per class: its name, rows available, rows taken.
    pub per_class: Vec<(String, usize, usize)>,
    /// The original row indices taken, ascending.
    pub rows: Vec<usize>,
}

/// A stratified random subsample of `size` rows (Wu & Flach's 50-instance samples): each class
/// gets `size * count / total` rows rounded down, the rows left over go to the classes with the
/// largest remainders (ties: first in class order); within a class the rows are drawn by a
/// shuffle (`rand::seq::SliceRandom::shuffle`) from `rand_chacha::ChaCha8Rng::seed_from_u64(seed)`,
/// classes in order. The rows keep their original order.
/// `size` must be between 1 and the number of rows.
pub fn stratified_subsample(
    dataset: &Dataset,
    size: usize,
    seed: u64,
) -> Result<(Dataset, SubsampleRecord), DataError> {
    let total = dataset.len();
    if size == 0 || size > total {
        return Err(DataError::Transform {
            transform: "stratified subsample",
            dataset: dataset.name().to_string(),
            message: format!("size {size} is out of range; expected 1..={total}"),
        });
    }
    let classes = dataset.num_classes();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); classes];
    for row in 0..total {
        members[dataset.class(row)].push(row);
    }
    let mut quotas: Vec<usize> = members.iter().map(|m| size * m.len() / total).collect();
    let mut left = size - quotas.iter().sum::<usize>();
    let mut by_remainder: Vec<usize> = (0..classes).collect();
    by_remainder.sort_by_key(|&c| (std::cmp::Reverse(size * members[c].len() % total), c));
    for &class in &by_remainder {
        if left == 0 {
            break;
        }
        if quotas[class] < members[class].len() {
            quotas[class] += 1;
            left -= 1;
        }
    }
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let mut rows = Vec::with_capacity(size);
    let mut per_class = Vec::with_capacity(classes);
    for (class, mut candidates) in members.into_iter().enumerate() {
        per_class.push((
            dataset.schema().class_values[class].clone(),
            candidates.len(),
            quotas[class],
        ));
        candidates.shuffle(&mut generator);
        rows.extend_from_slice(&candidates[..quotas[class]]);
    }
    rows.sort_unstable();
    let sample = dataset.select_rows(&rows);
    Ok((
        sample,
        SubsampleRecord {
            dataset: dataset.name().to_string(),
            seed,
            per_class,
            rows,
        },
    ))
}
