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
    pub sorted: Vec<Vec<u32>>,
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

    /// Whether every sum of weights is an exact integer, so that its value does not depend on
    /// the order of the terms: the logarithm table exists only when every weight is a whole
    /// number and their total is far below 2^53.
    pub fn exact_sums(&self) -> bool {
        self.log2_table.is_some()
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

    /// Which training rows satisfy every condition, as a mask over all rows. Testing one column
    /// at a time reads memory in order, which beats testing rows one by one.
    pub fn coverage(&self, data: &TrainingData) -> Vec<bool> {
        let mut mask = vec![true; data.len()];
        for condition in &self.conditions {
            let column = &data.columns[condition.attribute()];
            let values = mask.iter_mut().zip(column);
            // `holds` for each kind of condition, with the kind chosen outside the loop.
            match *condition {
                Condition::AtMost { threshold, .. } => {
                    values.for_each(|(covered, &value)| *covered &= value <= threshold)
                }
                Condition::AtLeast { threshold, .. } => {
                    values.for_each(|(covered, &value)| *covered &= value >= threshold)
                }
                Condition::Equals { .. } => {
                    values.for_each(|(covered, &value)| *covered &= condition.holds(value))
                }
            }
        }
        mask
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

/// Total weight and total positive weight of some rows, summed in their order.
fn sum_weights(rows: &[u32], weights: &[[f64; 2]]) -> [f64; 2] {
    let mut totals = [0.0; 2];
    for &row in rows {
        let [weight, positive_weight] = weights[row as usize];
        totals[0] += weight;
        totals[1] += positive_weight;
    }
    totals
}

/// The best `<=` or `>=` split of a numeric attribute over the covered rows sorted by its value
/// (`weights` holds each row's weight and positive weight; `totals`, if known, their sums in
/// that order), if its gain exceeds `floor` (the best gain of earlier attributes). As in JRip, both
/// sides include the rows equal to the threshold.
fn best_numeric(
    data: &TrainingData,
    attribute: usize,
    sorted: &[u32],
    weights: &[[f64; 2]],
    totals: Option<[f64; 2]>,
    log_default_rate: f64,
    floor: f64,
) -> Option<Candidate> {
    if sorted.is_empty() {
        return None;
    }
    let column = &data.columns[attribute];
    let log2_table = data.log2_table.as_deref();
    let [mut second_cover, mut second_accurate] =
        totals.unwrap_or_else(|| sum_weights(sorted, weights));
    let mut first_cover = 0.0;
    let mut first_accurate = 0.0;
    let mut best: Option<Candidate> = None;
    let mut max_gain = floor;
    let mut start = 0;
    while start < sorted.len() {
        let value = column[sorted[start] as usize];
        let mut end = start;
        let mut group_cover = 0.0;
        let mut group_accurate = 0.0;
        while end < sorted.len() && column[sorted[end] as usize] == value {
            let [weight, positive_weight] = weights[sorted[end] as usize];
            group_cover += weight;
            group_accurate += positive_weight;
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

/// The covered rows of one numeric attribute in sorted order. The buffer is sized for every
/// training row once, so that growing rules allocates nothing per step.
struct SortedCover {
    buffer: Vec<u32>,
    len: usize,
}

impl SortedCover {
    /// An empty list with room for `capacity` rows.
    fn new(capacity: usize) -> Self {
        SortedCover {
            buffer: vec![0; capacity],
            len: 0,
        }
    }

    /// The rows, in sorted order.
    fn rows(&self) -> &[u32] {
        &self.buffer[..self.len]
    }

    /// Replaces the rows by those of a sorted list marked in `member`, in order.
    fn fill(&mut self, rows: &[u32], member: &[bool]) {
        // Branch-free: write every row, advance only past the marked ones.
        let mut kept = 0;
        for &row in rows {
            self.buffer[kept] = row;
            kept += usize::from(member[row as usize]);
        }
        self.len = kept;
    }

    /// Keeps, in order, the rows marked in `member` (as `fill` does, in place).
    fn keep_marked(&mut self, member: &[bool]) {
        let mut kept = 0;
        for index in 0..self.len {
            let row = self.buffer[index];
            self.buffer[kept] = row;
            kept += usize::from(member[row as usize]);
        }
        self.len = kept;
    }
}

/// Scratch space shared by the `grow` calls of one fit.
pub(crate) struct GrowScratch {
    /// A mask over the training rows, all `false` between calls.
    member: Vec<bool>,
    /// Each row's weight, and its weight if it is a positive (of the class of the rule being
    /// grown) else 0, side by side so that the split search reads one place per row.
    weights: Vec<[f64; 2]>,
    /// The sorted covered rows of each numeric attribute (`None` for nominal ones).
    lists: Vec<Option<SortedCover>>,
}

impl GrowScratch {
    /// Scratch space for growing rules on some training data.
    pub fn new(data: &TrainingData) -> Self {
        GrowScratch {
            member: vec![false; data.len()],
            weights: vec![[0.0; 2]; data.len()],
            lists: (0..data.num_attributes())
                .map(|attribute| data.numeric[attribute].then(|| SortedCover::new(data.len())))
                .collect(),
        }
    }
}

/// Adds conditions to `rule` greedily by FOIL information gain on the growing rows until the
/// rule covers only positives, no condition gains, or the best one covers fewer than
/// `min_weight` positives. Nominal attributes are used once, numeric ones any number of times.
pub(crate) fn grow(
    rule: &mut Rule,
    data: &TrainingData,
    rows: &[u32],
    min_weight: f64,
    scratch: &mut GrowScratch,
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
    let GrowScratch {
        member,
        weights,
        lists,
    } = scratch;
    for ((pair, &class), &weight) in weights.iter_mut().zip(&data.classes).zip(&data.weights) {
        *pair = [weight, if class == rule.class { weight } else { 0.0 }];
    }
    // Few rows: sort them directly; many: filter the presorted order of all rows.
    let sort_directly = current.len() * 16 < data.len();
    let mut first_step = true;
    let mut counts = Vec::new();
    while !current.is_empty() && default_rate < 1.0 - SMALL {
        for &row in &current {
            member[row as usize] = true;
        }
        let log_default_rate = log2(default_rate);
        let mut best: Option<Candidate> = None;
        let mut max_gain = 0.0;
        // With exact sums, a list holding every covered row has the totals of the covered rows.
        let current_totals = data.exact_sums().then(|| sum_weights(&current, weights));
        for attribute in 0..data.num_attributes() {
            if used[attribute] {
                continue;
            }
            let candidate = if let Some(list) = &mut lists[attribute] {
                // The list is brought to the covered rows just before its scan, so that the
                // scan finds it in cache.
                if !first_step {
                    list.keep_marked(member);
                } else if sort_directly {
                    let column = &data.columns[attribute];
                    let mut rows: Vec<u32> = current
                        .iter()
                        .copied()
                        .filter(|&row| !column[row as usize].is_nan())
                        .collect();
                    rows.sort_unstable_by(|&a, &b| {
                        column[a as usize].total_cmp(&column[b as usize])
                    });
                    list.fill(&rows, member);
                } else {
                    list.fill(&data.sorted[attribute], member);
                }
                let rows = list.rows();
                best_numeric(
                    data,
                    attribute,
                    rows,
                    weights,
                    current_totals.filter(|_| rows.len() == current.len()),
                    log_default_rate,
                    max_gain,
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
        for &row in &current {
            member[row as usize] = false;
        }
        first_step = false;
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
