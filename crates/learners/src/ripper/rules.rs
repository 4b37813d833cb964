//! Rules and their conditions, grown by FOIL information gain and pruned by reduced error, the
//! way Weka's JRip does it.

/// Weka's tolerance for comparing weighted counts (`Utils.SMALL`).
pub(crate) const SMALL: f64 = 1e-6;

/// Base-2 logarithm computed as `ln(x) / ln(2)`, as Weka does, so ties break the same way.
pub(crate) fn log2(x: f64) -> f64 {
    x.ln() / std::f64::consts::LN_2
}

/// The training rows copied into contiguous columns, with numeric attributes presorted.
pub(crate) struct TrainingData {
    /// Attribute values, one column per attribute, one entry per training row (`NaN` = missing).
    pub columns: Vec<Vec<f64>>,
    /// True for numeric attributes.
    pub numeric: Vec<bool>,
    /// Number of values of each nominal attribute (0 for numeric ones).
    pub num_values: Vec<usize>,
    /// Class index (in the dataset's class order) of each row.
    pub classes: Vec<usize>,
    /// Instance weight of each row.
    pub weights: Vec<f64>,
    /// For each numeric attribute, the rows with a known value sorted by that value, ties in row
    /// order (empty for nominal attributes).
    pub sorted: Vec<Vec<SortedRow>>,
    /// `log2(k)` for `k = 0..=total weight + 1` when every weight is a whole number, so that
    /// information gains need no logarithm calls.
    pub log2_table: Option<Vec<f64>>,
}

impl TrainingData {
    /// Number of input attributes.
    pub fn num_attributes(&self) -> usize {
        self.columns.len()
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// Total weight of some rows.
    pub fn weight_of(&self, rows: &[u32]) -> f64 {
        rows.iter().map(|&row| self.weights[row as usize]).sum()
    }

    /// Total weight of the rows of one class among some rows.
    pub fn class_weight_of(&self, rows: &[u32], class: usize) -> f64 {
        rows.iter()
            .filter(|&&row| self.classes[row as usize] == class)
            .map(|&row| self.weights[row as usize])
            .sum()
    }
}

/// A row in the sorted order of one numeric attribute, carrying its value, weight and class so
/// that the split search reads memory in order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SortedRow {
    /// The attribute's value in this row.
    pub value: f64,
    /// The row's instance weight.
    pub weight: f64,
    /// The row index.
    pub row: u32,
    /// The row's class index.
    pub class: u32,
}

impl SortedRow {
    /// The entry of a row for one attribute column.
    pub fn new(data: &TrainingData, column: &[f64], row: u32) -> Self {
        SortedRow {
            value: column[row as usize],
            weight: data.weights[row as usize],
            row,
            class: data.classes[row as usize] as u32,
        }
    }
}

/// One test on one attribute. A missing value never satisfies a condition.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Condition {
    /// Numeric attribute at most the threshold.
    AtMost { attribute: usize, threshold: f64 },
    /// Numeric attribute at least the threshold.
    AtLeast { attribute: usize, threshold: f64 },
    /// Nominal attribute equal to the value with this index.
    Equals { attribute: usize, value: usize },
}

impl Condition {
    /// The attribute tested.
    pub fn attribute(&self) -> usize {
        match *self {
            Condition::AtMost { attribute, .. }
            | Condition::AtLeast { attribute, .. }
            | Condition::Equals { attribute, .. } => attribute,
        }
    }

    /// Whether an attribute value satisfies the test.
    pub fn holds(&self, value: f64) -> bool {
        if value.is_nan() {
            return false;
        }
        match *self {
            Condition::AtMost { threshold, .. } => value <= threshold,
            Condition::AtLeast { threshold, .. } => value >= threshold,
            Condition::Equals { value: wanted, .. } => value as usize == wanted,
        }
    }
}

/// A conjunction of conditions predicting one class; with no conditions it covers every row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Rule {
    /// The class index (in the dataset's class order) predicted by the rule.
    pub class: usize,
    /// The conditions, all of which must hold.
    pub conditions: Vec<Condition>,
}

impl Rule {
    /// A rule with no conditions for a class.
    pub fn empty(class: usize) -> Self {
        Rule {
            class,
            conditions: Vec::new(),
        }
    }

    /// Number of conditions (the rule's size in the description length).
    pub fn size(&self) -> f64 {
        self.conditions.len() as f64
    }

    /// Whether a training row satisfies every condition.
    pub fn covers_row(&self, data: &TrainingData, row: u32) -> bool {
        self.conditions
            .iter()
            .all(|condition| condition.holds(data.columns[condition.attribute()][row as usize]))
    }

    /// Whether a row given by an attribute lookup satisfies every condition.
    pub fn covers_with(&self, value: impl Fn(usize) -> f64) -> bool {
        self.conditions
            .iter()
            .all(|condition| condition.holds(value(condition.attribute())))
    }
}

/// The best condition found on one attribute while growing.
struct Candidate {
    gain: f64,
    condition: Condition,
    accurate: f64,
    accuracy_rate: f64,
}

/// Laplace accuracy of covering `accurate` positives out of `cover`.
fn laplace_rate(accurate: f64, cover: f64) -> f64 {
    (accurate + 1.0) / (cover + 1.0)
}

/// A whole number below 2^52 as an index. Adding 2^52 puts it in the binade where the spacing is
/// exactly 1, so the sum is exact and its low bits are the number (cheaper than `as usize`).
fn whole_index(whole: f64) -> usize {
    const OFFSET: f64 = (1u64 << 52) as f64;
    ((whole + OFFSET).to_bits() - OFFSET.to_bits()) as usize
}

/// FOIL gain of covering `accurate` positives out of `cover`, against the current default rate.
fn foil_gain(accurate: f64, cover: f64, log_default_rate: f64, log2_table: Option<&[f64]>) -> f64 {
    if accurate == 0.0 {
        return 0.0;
    }
    let log_rate = match log2_table {
        Some(table) => table[whole_index(accurate) + 1] - table[whole_index(cover) + 1],
        None => log2(laplace_rate(accurate, cover)),
    };
    accurate * (log_rate - log_default_rate)
}

/// The best `<=` or `>=` split of a numeric attribute over its sorted entries for the covered
/// rows, if its gain exceeds `floor` (the best gain of earlier attributes). As in JRip, both
/// sides include the rows equal to the threshold.
fn best_numeric(
    attribute: usize,
    sorted: &SortedCover,
    class: usize,
    log_default_rate: f64,
    floor: f64,
    log2_table: Option<&[f64]>,
) -> Option<Candidate> {
    // A row's weight if it is a positive (of the rule's class), else 0.
    let positive_weight = |entry: &SortedRow| {
        if entry.class as usize == class {
            entry.weight
        } else {
            0.0
        }
    };
    let mut second_cover = sorted.cover;
    let mut second_accurate = sorted.accurate;
    let sorted = &sorted.entries;
    let mut first_cover = 0.0;
    let mut first_accurate = 0.0;
    let mut best: Option<Candidate> = None;
    let mut max_gain = floor;
    let mut start = 0;
    while start < sorted.len() {
        let value = sorted[start].value;
        let mut end = start;
        let mut group_cover = 0.0;
        let mut group_accurate = 0.0;
        while end < sorted.len() && sorted[end].value == value {
            group_cover += sorted[end].weight;
            group_accurate += positive_weight(&sorted[end]);
            end += 1;
        }
        first_cover += group_cover;
        first_accurate += group_accurate;
        // A gain is at most `accurate * -log2(default rate)` (the rate is at most 1): skip the
        // logarithms of a side that cannot beat the best so far. Such a side is either not
        // chosen or, when chosen, not kept, so this changes no choice.
        let bounded_gain = |accurate: f64, cover: f64| {
            if -accurate * log_default_rate > max_gain {
                foil_gain(accurate, cover, log_default_rate, log2_table)
            } else {
                f64::NEG_INFINITY
            }
        };
        let first_gain = bounded_gain(first_accurate, first_cover);
        let second_gain = bounded_gain(second_accurate, second_cover);
        let (gain, condition, accurate, cover) = if first_gain > second_gain {
            (
                first_gain,
                Condition::AtMost {
                    attribute,
                    threshold: value,
                },
                first_accurate,
                first_cover,
            )
        } else {
            (
                second_gain,
                Condition::AtLeast {
                    attribute,
                    threshold: value,
                },
                second_accurate,
                second_cover,
            )
        };
        if gain > max_gain {
            max_gain = gain;
            best = Some(Candidate {
                gain,
                condition,
                accurate,
                accuracy_rate: laplace_rate(accurate, cover),
            });
        }
        second_cover -= group_cover;
        second_accurate -= group_accurate;
        start = end;
    }
    best
}

/// The best `=` test of a nominal attribute over some rows.
fn best_nominal(
    data: &TrainingData,
    attribute: usize,
    rows: &[u32],
    class: usize,
    log_default_rate: f64,
    floor: f64,
    counts: &mut Vec<(f64, f64)>,
) -> Option<Candidate> {
    counts.clear();
    counts.resize(data.num_values[attribute], (0.0, 0.0));
    let column = &data.columns[attribute];
    for &row in rows {
        let value = column[row as usize];
        if value.is_nan() {
            continue;
        }
        let entry = &mut counts[value as usize];
        entry.0 += data.weights[row as usize];
        if data.classes[row as usize] == class {
            entry.1 += data.weights[row as usize];
        }
    }
    let mut best: Option<Candidate> = None;
    let mut max_gain = floor;
    for (value, &(cover, accurate)) in counts.iter().enumerate() {
        let gain = foil_gain(
            accurate,
            cover,
            log_default_rate,
            data.log2_table.as_deref(),
        );
        if gain > max_gain {
            max_gain = gain;
            best = Some(Candidate {
                gain,
                condition: Condition::Equals { attribute, value },
                accurate,
                accuracy_rate: laplace_rate(accurate, cover),
            });
        }
    }
    best
}

/// The covered rows of one numeric attribute in sorted order, with their total weight and
/// total weight of positives (summed in that order).
struct SortedCover {
    entries: Vec<SortedRow>,
    cover: f64,
    accurate: f64,
}

impl SortedCover {
    /// The entries of a sorted list whose rows are marked in `member`, in order, with their
    /// totals for a rule of class `class`.
    fn marked(list: &[SortedRow], member: &[bool], class: usize) -> Self {
        // Branch-free: write every entry, advance only past the marked ones.
        let mut entries = vec![SortedRow::default(); list.len()];
        let mut kept = 0;
        let mut cover = 0.0;
        let mut accurate = 0.0;
        for entry in list {
            let marked = member[entry.row as usize];
            entries[kept] = *entry;
            kept += usize::from(marked);
            cover += if marked { entry.weight } else { 0.0 };
            accurate += if marked && entry.class as usize == class {
                entry.weight
            } else {
                0.0
            };
        }
        entries.truncate(kept);
        SortedCover {
            entries,
            cover,
            accurate,
        }
    }
}

/// Adds conditions to `rule` greedily by FOIL information gain on the growing rows until the
/// rule covers only positives, no condition gains, or the best one covers fewer than
/// `min_weight` positives. Nominal attributes are used once, numeric ones any number of times.
/// `member` is a scratch mask of all `false`, one entry per training row, left all `false`.
pub(crate) fn grow(
    rule: &mut Rule,
    data: &TrainingData,
    rows: &[u32],
    min_weight: f64,
    member: &mut [bool],
) {
    let total = data.weight_of(rows);
    if total <= SMALL {
        return;
    }
    let positives = data.class_weight_of(rows, rule.class);
    let mut default_rate = (positives + 1.0) / (total + 1.0);
    let mut used = vec![false; data.num_attributes()];
    for condition in &rule.conditions {
        if !data.numeric[condition.attribute()] {
            used[condition.attribute()] = true;
        }
    }
    let mut current: Vec<u32> = rows.to_vec();
    for &row in &current {
        member[row as usize] = true;
    }
    // Few rows: sort them directly; many: filter the presorted order of all rows.
    let sort_directly = current.len() * 16 < data.len();
    let mut sorted: Vec<Option<SortedCover>> = (0..data.num_attributes())
        .map(|attribute| {
            if !data.numeric[attribute] {
                return None;
            }
            if sort_directly {
                let column = &data.columns[attribute];
                let mut list: Vec<u32> = current
                    .iter()
                    .copied()
                    .filter(|&row| !column[row as usize].is_nan())
                    .collect();
                list.sort_unstable_by(|&a, &b| column[a as usize].total_cmp(&column[b as usize]));
                let list: Vec<SortedRow> = list
                    .iter()
                    .map(|&row| SortedRow::new(data, column, row))
                    .collect();
                Some(SortedCover::marked(&list, member, rule.class))
            } else {
                Some(SortedCover::marked(
                    &data.sorted[attribute],
                    member,
                    rule.class,
                ))
            }
        })
        .collect();
    for &row in &current {
        member[row as usize] = false;
    }
    let mut counts = Vec::new();
    while !current.is_empty() && default_rate < 1.0 - SMALL {
        let log_default_rate = log2(default_rate);
        let mut best: Option<Candidate> = None;
        let mut max_gain = 0.0;
        for attribute in 0..data.num_attributes() {
            if used[attribute] {
                continue;
            }
            let candidate = if let Some(sorted) = &sorted[attribute] {
                best_numeric(
                    attribute,
                    sorted,
                    rule.class,
                    log_default_rate,
                    max_gain,
                    data.log2_table.as_deref(),
                )
            } else {
                best_nominal(
                    data,
                    attribute,
                    &current,
                    rule.class,
                    log_default_rate,
                    max_gain,
                    &mut counts,
                )
            };
            if let Some(candidate) = candidate {
                if candidate.gain > max_gain {
                    max_gain = candidate.gain;
                    best = Some(candidate);
                }
            }
        }
        let Some(best) = best else { break };
        if best.accurate < min_weight - SMALL {
            break;
        }
        let attribute = best.condition.attribute();
        if !data.numeric[attribute] {
            used[attribute] = true;
        }
        let column = &data.columns[attribute];
        current.retain(|&row| best.condition.holds(column[row as usize]));
        for &row in &current {
            member[row as usize] = true;
        }
        for list in sorted.iter_mut().flatten() {
            *list = SortedCover::marked(&list.entries, member, rule.class);
        }
        for &row in &current {
            member[row as usize] = false;
        }
        rule.conditions.push(best.condition);
        default_rate = best.accuracy_rate;
    }
}

/// Reduced-error pruning: keeps the shortest prefix of the conditions whose worth on the pruning
/// rows is highest, if it beats the worth of predicting the class for every row; otherwise
/// removes every condition. With `use_whole` the worth is the accuracy over all pruning rows
/// (true positives plus true negatives), otherwise the Laplace accuracy on the covered rows.
pub(crate) fn prune(rule: &mut Rule, data: &TrainingData, rows: &[u32], use_whole: bool) {
    let total = data.weight_of(rows);
    if total <= SMALL || rule.conditions.is_empty() {
        return;
    }
    let default_accurate = data.class_weight_of(rows, rule.class);
    let mut current: Vec<u32> = rows.to_vec();
    let mut true_negatives = 0.0;
    let mut worth_rates = Vec::with_capacity(rule.conditions.len());
    for condition in &rule.conditions {
        let column = &data.columns[condition.attribute()];
        let mut coverage = 0.0;
        let mut worth = 0.0;
        let mut next = Vec::with_capacity(current.len());
        for &row in &current {
            let weight = data.weights[row as usize];
            let positive = data.classes[row as usize] == rule.class;
            if condition.holds(column[row as usize]) {
                coverage += weight;
                next.push(row);
                if positive {
                    worth += weight;
                }
            } else if use_whole && !positive {
                true_negatives += weight;
            }
        }
        worth_rates.push(if use_whole {
            (worth + true_negatives) / total
        } else {
            (worth + 1.0) / (coverage + 2.0)
        });
        current = next;
    }
    let mut max_value = (default_accurate + 1.0) / (total + 2.0);
    let mut keep = 0;
    for (index, &rate) in worth_rates.iter().enumerate() {
        if rate > max_value {
            max_value = rate;
            keep = index + 1;
        }
    }
    rule.conditions.truncate(keep);
}
