//! Rules and their conditions, grown by FOIL information gain and pruned by reduced error, the
//! way Weka's JRip does it.

use super::bits::{RowSet, ValueBits};
use super::sorted_cover::{run_splits, splits, sum_weights, RowWeight, Run, SortedCover, Split};

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
    /// For each numeric attribute, the values of the rows of `sorted`, in its order.
    pub sorted_values: Vec<Vec<f64>>,
    /// Whether every row's weight is 1.
    pub unit_weights: bool,
    /// When every weight is 1: the per-value row sets of each attribute with few values.
    pub value_bits: Vec<Option<ValueBits>>,
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

    /// Clears, in a mask over all rows, the rows whose value in `column` (this condition's
    /// attribute) fails the test: [`Condition::holds`] with the kind chosen outside the loop,
    /// compiled for the widest vectors the processor has (the same comparisons).
    pub fn narrow(&self, column: &[f64], mask: &mut [bool]) {
        #[cfg(target_arch = "x86_64")]
        {
            if vector_cap::allows(vector_cap::Level::Avx512)
                && std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                // SAFETY: the processor has AVX-512F and AVX-512BW (checked just above).
                return unsafe { self.narrow_avx512(column, mask) };
            }
            if vector_cap::allows(vector_cap::Level::Avx2)
                && std::arch::is_x86_feature_detected!("avx2")
            {
                // SAFETY: the processor has AVX2 (checked just above).
                return unsafe { self.narrow_avx2(column, mask) };
            }
        }
        self.narrow_portable(column, mask);
    }

    /// [`Condition::narrow`] compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn narrow_avx512(&self, column: &[f64], mask: &mut [bool]) {
        self.narrow_portable(column, mask);
    }

    /// [`Condition::narrow`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn narrow_avx2(&self, column: &[f64], mask: &mut [bool]) {
        self.narrow_portable(column, mask);
    }

    /// [`Condition::narrow`] for any processor.
    #[inline(always)]
    fn narrow_portable(&self, column: &[f64], mask: &mut [bool]) {
        let values = mask.iter_mut().zip(column);
        match *self {
            Condition::AtMost { threshold, .. } => {
                values.for_each(|(covered, &value)| *covered &= value <= threshold)
            }
            Condition::AtLeast { threshold, .. } => {
                values.for_each(|(covered, &value)| *covered &= value >= threshold)
            }
            Condition::Equals { value: wanted, .. } => {
                // `value as usize == wanted` for a known value, as two comparisons: `as`
                // truncates towards 0 and sends every negative value to 0.
                let low = if wanted == 0 {
                    f64::NEG_INFINITY
                } else {
                    wanted as f64
                };
                let high = (wanted + 1) as f64;
                values.for_each(|(covered, &value)| *covered &= low <= value && value < high)
            }
        }
    }

    /// Whether an attribute value satisfies the test.
    #[inline(always)]
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
            condition.narrow(&data.columns[condition.attribute()], &mut mask);
        }
        mask
    }

    /// A test of which of `rows` the rule covers: [`Rule::coverage`] when the rows are many
    /// (a row's test is then one byte of a small table instead of a cache miss per
    /// condition), else [`Rule::covers_row`].
    pub fn cover_test<'a>(&'a self, data: &'a TrainingData, rows: &[u32]) -> CoverTest<'a> {
        if !self.conditions.is_empty() && rows.len() * MASK_SHARE >= data.len() {
            CoverTest::Mask(self.coverage(data))
        } else {
            CoverTest::Rows(self, data)
        }
    }

    /// Whether a row given by an attribute lookup satisfies every condition.
    pub fn covers_with(&self, value: impl Fn(usize) -> f64) -> bool {
        self.conditions
            .iter()
            .all(|condition| condition.holds(value(condition.attribute())))
    }
}

/// A mask over all rows pays when at least one row in this many is tested.
const MASK_SHARE: usize = 8;

/// As [`Rule::cover_test`] for one condition (`column`: its attribute's): the rows of a mask over
/// all rows that it holds for, when `tested` rows are many; `None` when testing them one by
/// one costs less.
fn condition_mask(condition: &Condition, column: &[f64], tested: usize) -> Option<Vec<bool>> {
    (tested * MASK_SHARE >= column.len()).then(|| {
        let mut mask = vec![true; column.len()];
        condition.narrow(column, &mut mask);
        mask
    })
}

/// Which rows a rule covers, tested either way (see [`Rule::cover_test`]).
pub(crate) enum CoverTest<'a> {
    /// The rule's coverage of every training row.
    Mask(Vec<bool>),
    /// The rule's conditions tested on the row.
    Rows(&'a Rule, &'a TrainingData),
}

impl CoverTest<'_> {
    /// Whether the rule covers the row.
    #[inline]
    pub fn covers(&self, row: u32) -> bool {
        match self {
            CoverTest::Mask(mask) => mask[row as usize],
            CoverTest::Rows(rule, data) => rule.covers_row(data, row),
        }
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

/// The best `<=` or `>=` split of a numeric attribute among `splits` (in increasing order of
/// the value), if its gain exceeds `floor` (the best gain of earlier attributes, at least 0).
/// As in JRip, both sides include the rows equal to the threshold.
///
/// With whole weights the splits may leave out those at groups without positive weight: there
/// the `<=` side has the previous split's positives over more cover (a gain at most that
/// split's, which the best so far bounds; at the first group, no positives and gain 0), and
/// the `>=` side, while positives remain on it, the next split's positives over strictly more
/// cover, a strictly smaller gain (the `log2` table's steps are far wider than a rounding), so
/// below the next split's chosen gain: neither side can be the first best.
fn best_split(
    data: &TrainingData,
    attribute: usize,
    splits: impl Iterator<Item = Split>,
    log_default_rate: f64,
    floor: f64,
) -> Option<Candidate> {
    let log2_table = data.log2_table.as_deref();
    let mut best: Option<Candidate> = None;
    let mut max_gain = floor;
    for (value, [first_cover, first_accurate], [second_cover, second_accurate]) in splits {
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
            let condition = Condition::AtMost {
                attribute,
                threshold: value,
            };
            (first_gain, condition, first_accurate, first_cover)
        } else {
            let condition = Condition::AtLeast {
                attribute,
                threshold: value,
            };
            (second_gain, condition, second_accurate, second_cover)
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
    }
    best
}

/// The covered weight and covered positive weight of each value of a nominal attribute, in
/// row order, into `counts`.
fn nominal_counts(
    data: &TrainingData,
    attribute: usize,
    rows: &[u32],
    class: usize,
    counts: &mut Vec<(f64, f64)>,
) {
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
}

/// The best `=` test of a nominal attribute from each value's (cover, positive cover).
fn best_value(
    data: &TrainingData,
    attribute: usize,
    counts: &[(f64, f64)],
    log_default_rate: f64,
    floor: f64,
) -> Option<Candidate> {
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

/// Scratch space shared by the `grow` calls of one fit.
pub(crate) struct GrowScratch {
    /// A mask over the training rows, all `false` between calls.
    member: Vec<bool>,
    /// The same rows as bit sets (for the attributes with [`ValueBits`]).
    member_bits: RowSet,
    /// The rows of the class of the rule being grown.
    positive_bits: RowSet,
    /// Each row's weight, and its weight if it is a positive (of the class of the rule being
    /// grown) else 0, side by side so that the split search reads one place per row.
    weights: Vec<RowWeight>,
    /// Whether each row is a positive: with unit weights, its [`RowWeight`] in a byte.
    positive: Vec<bool>,
    /// The sorted covered rows of each numeric attribute without [`ValueBits`] (`None` for
    /// the others).
    lists: Vec<Option<SortedCover>>,
    /// Each value's cover and positive cover, for one attribute at a time.
    counts: Vec<(f64, f64)>,
    /// With unit weights, the runs of one attribute's list that hold a positive.
    runs: Vec<Run>,
}

impl GrowScratch {
    /// Scratch space for growing rules on some training data.
    pub fn new(data: &TrainingData) -> Self {
        GrowScratch {
            member: vec![false; data.len()],
            member_bits: RowSet::new(data.len()),
            positive_bits: RowSet::new(data.len()),
            weights: vec![[0.0; 2]; data.len()],
            positive: vec![false; data.len()],
            lists: (0..data.num_attributes())
                .map(|attribute| {
                    (data.numeric[attribute] && data.value_bits[attribute].is_none())
                        .then(|| SortedCover::new(data.len()))
                })
                .collect(),
            counts: Vec::new(),
            runs: vec![Run::default(); data.len()],
        }
    }
}

/// What one step of [`grow`] knows about the covered rows.
struct Step<'a> {
    /// The covered rows, in increasing order.
    current: &'a [u32],
    /// The class of the rule.
    class: usize,
    /// Whether this is the first step of the rule (the lists are filled, not narrowed).
    first: bool,
    /// Whether the first step sorts the covered rows itself (few rows) rather than filtering
    /// the presorted order of all rows.
    sort_directly: bool,
    /// With exact sums: the covered rows' total weight and positive weight.
    totals: Option<[f64; 2]>,
    /// `log2` of the current default rate.
    log_default_rate: f64,
}

/// The best condition on one attribute for the covered rows, if its gain exceeds `floor`.
fn attribute_candidate(
    data: &TrainingData,
    attribute: usize,
    step: &Step,
    floor: f64,
    scratch: &mut GrowScratch,
) -> Option<Candidate> {
    let log_default_rate = step.log_default_rate;
    if let Some(bits) = &data.value_bits[attribute] {
        bits.counts(
            &scratch.member_bits,
            &scratch.positive_bits,
            &mut scratch.counts,
        );
        if !data.numeric[attribute] {
            return best_value(data, attribute, &scratch.counts, log_default_rate, floor);
        }
        let totals = scratch
            .counts
            .iter()
            .fold([0.0; 2], |[cover, accurate], count| {
                [cover + count.0, accurate + count.1]
            });
        let groups = bits
            .values
            .iter()
            .zip(&scratch.counts)
            .filter(|(_, count)| count.0 > 0.0)
            .map(|(&value, &(cover, accurate))| (value, cover, accurate));
        return best_split(
            data,
            attribute,
            splits(groups, totals),
            log_default_rate,
            floor,
        );
    }
    let Some(list) = &mut scratch.lists[attribute] else {
        nominal_counts(
            data,
            attribute,
            step.current,
            step.class,
            &mut scratch.counts,
        );
        return best_value(data, attribute, &scratch.counts, log_default_rate, floor);
    };
    // The list is brought to the covered rows just before its scan, so that the scan finds it
    // in cache.
    let member = &scratch.member;
    let column = &data.columns[attribute];
    if !step.first {
        list.keep_marked(member);
    } else if step.sort_directly {
        let mut rows: Vec<u32> = (step.current.iter().copied())
            .filter(|&row| !column[row as usize].is_nan())
            .collect();
        rows.sort_unstable_by(|&a, &b| column[a as usize].total_cmp(&column[b as usize]));
        let values: Vec<f64> = rows.iter().map(|&row| column[row as usize]).collect();
        list.fill(&rows, &values, member);
    } else {
        list.fill(
            &data.sorted[attribute],
            &data.sorted_values[attribute],
            member,
        );
    }
    if data.unit_weights {
        // The same weights as `scratch.weights` holds, read from a table a byte a row.
        let positive = &scratch.positive;
        let weight = |row: u32| [1.0, f64::from(u8::from(positive[row as usize]))];
        let totals = list_totals(list, step, weight);
        let count = list.positive_runs(positive, &mut scratch.runs);
        let splits = run_splits(&scratch.runs[..count], totals);
        best_split(data, attribute, splits, step.log_default_rate, floor)
    } else {
        let weights = &scratch.weights;
        let weight = |row: u32| weights[row as usize];
        let totals = list_totals(list, step, weight);
        let splits = splits(list.runs(weight), totals);
        best_split(data, attribute, splits, step.log_default_rate, floor)
    }
}

/// The total [`RowWeight`] of a numeric attribute's sorted list of the covered rows (`weight`:
/// each row's).
fn list_totals(list: &SortedCover, step: &Step, weight: impl Fn(u32) -> RowWeight) -> [f64; 2] {
    // With exact sums, a list holding every covered row has the totals of the covered rows.
    match step.totals {
        Some(totals) if list.rows().len() == step.current.len() => totals,
        _ => sum_weights(list.rows(), weight),
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
    let class = rule.class;
    for ((pair, &row_class), &weight) in scratch
        .weights
        .iter_mut()
        .zip(&data.classes)
        .zip(&data.weights)
    {
        *pair = [weight, if row_class == class { weight } else { 0.0 }];
    }
    for (positive, &row_class) in scratch.positive.iter_mut().zip(&data.classes) {
        *positive = row_class == class;
    }
    scratch
        .positive_bits
        .fill(|row| data.classes.get(row) == Some(&class));
    let mut first = true;
    while !current.is_empty() && default_rate < 1.0 - SMALL {
        for &row in &current {
            scratch.member[row as usize] = true;
        }
        scratch.member_bits.set(&current, true);
        let step = Step {
            current: &current,
            class,
            first,
            // Few rows: sort them directly; many: filter the presorted order of all rows.
            sort_directly: rows.len() * 16 < data.len(),
            totals: data
                .exact_sums()
                .then(|| sum_weights(&current, |row| scratch.weights[row as usize])),
            log_default_rate: log2(default_rate),
        };
        let mut best: Option<Candidate> = None;
        let mut max_gain = 0.0;
        for attribute in (0..data.num_attributes()).filter(|&a| !used[a]) {
            if let Some(candidate) = attribute_candidate(data, attribute, &step, max_gain, scratch)
            {
                if candidate.gain > max_gain {
                    max_gain = candidate.gain;
                    best = Some(candidate);
                }
            }
        }
        for &row in &current {
            scratch.member[row as usize] = false;
        }
        scratch.member_bits.set(&current, false);
        first = false;
        let Some(best) = best else { break };
        if best.accurate < min_weight - SMALL {
            break;
        }
        let attribute = best.condition.attribute();
        if !data.numeric[attribute] {
            used[attribute] = true;
        }
        let column = &data.columns[attribute];
        let covered = current.len();
        current.retain(|&row| best.condition.holds(column[row as usize]));
        if current.len() == covered && data.numeric[attribute] && best.accuracy_rate == default_rate
        {
            // A numeric condition that every covered row meets, at the rate the rule already
            // has, leaves the state as it was: the next step would choose it again, forever.
            // Its gain is 0 in exact arithmetic (and in Weka's, which never chooses it); it
            // wins here only when the log2 table's difference rounds an ulp above log2 of the
            // rate. Stop, as when no condition gains.
            break;
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
        let mask = condition_mask(condition, column, current.len());
        let holds = |row: u32| match &mask {
            Some(mask) => mask[row as usize],
            None => condition.holds(column[row as usize]),
        };
        let mut coverage = 0.0;
        let mut worth = 0.0;
        let mut next = Vec::with_capacity(current.len());
        for &row in &current {
            let weight = data.weights[row as usize];
            let positive = data.classes[row as usize] == rule.class;
            if holds(row) {
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
