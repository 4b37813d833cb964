//! Coverage statistics of a rule list and its description length (Quinlan 1995's MDL coding as
//! used by RIPPER and Weka's JRip).

use super::rules::{log2, Rule, TrainingData, SMALL};

/// Per-rule counts on the rows left by the rules before it (weighted):
/// covered, uncovered, true positives, true negatives, false positives, false negatives.
pub(crate) type Counts = [f64; 6];

const COVER: usize = 0;
const UNCOVER: usize = 1;
const TRUE_POSITIVE: usize = 2;
const TRUE_NEGATIVE: usize = 3;
const FALSE_POSITIVE: usize = 4;
const FALSE_NEGATIVE: usize = 5;

/// Bits to tell which `k` of `t` elements form a subset, each in it with probability `p`:
/// `-k log2 p - (t - k) log2 (1 - p)` (a zero count contributes nothing).
pub(crate) fn subset_dl(t: f64, k: f64, p: f64) -> f64 {
    let mut bits = if p > SMALL { -k * log2(p) } else { 0.0 };
    if t - k != 0.0 {
        bits -= (t - k) * log2(1.0 - p);
    }
    bits
}

/// Bits to encode a rule with `k` conditions chosen from `total_conditions` possible ones:
/// `0.5 * (log2 k + 2 log2 log2 k + S(total, k, k / total))`.
pub(crate) fn theory_dl(k: f64, total_conditions: f64) -> f64 {
    if k == 0.0 {
        return 0.0;
    }
    let mut bits = log2(k);
    if k > 1.0 {
        bits += 2.0 * log2(bits);
    }
    bits += subset_dl(total_conditions, k, k / total_conditions);
    0.5 * bits
}

/// Bits to encode the errors of a rule set: which covered rows are false positives and which
/// uncovered rows are false negatives, with `expected_fp_share` the expected share of false
/// positives among the errors.
pub(crate) fn data_dl(
    expected_fp_share: f64,
    cover: f64,
    uncover: f64,
    false_positives: f64,
    false_negatives: f64,
) -> f64 {
    let total_bits = log2(cover + uncover + 1.0);
    let errors = false_positives + false_negatives;
    let (cover_bits, uncover_bits) = if cover - uncover > SMALL {
        let expected = expected_fp_share * errors;
        let uncover_bits = if uncover > SMALL {
            subset_dl(uncover, false_negatives, false_negatives / uncover)
        } else {
            0.0
        };
        (
            subset_dl(cover, false_positives, expected / cover),
            uncover_bits,
        )
    } else {
        let expected = (1.0 - expected_fp_share) * errors;
        let cover_bits = if cover > SMALL {
            subset_dl(cover, false_positives, false_positives / cover)
        } else {
            0.0
        };
        (
            cover_bits,
            subset_dl(uncover, false_negatives, expected / uncover),
        )
    };
    total_bits + cover_bits + uncover_bits
}

/// Counts of one rule on some rows, the rows it leaves uncovered, and the weighted class
/// distribution of the rows it covers.
pub(crate) fn rule_counts(
    rule: &Rule,
    data: &TrainingData,
    rows: &[u32],
    num_classes: usize,
) -> (Counts, Vec<u32>, Vec<f64>) {
    let mut counts = [0.0; 6];
    let mut uncovered = Vec::with_capacity(rows.len());
    let mut distribution = vec![0.0; num_classes];
    let test = rule.cover_test(data, rows);
    for &row in rows {
        let weight = data.weights[row as usize];
        let class = data.classes[row as usize];
        let covered = test.covers(row);
        add_row(&mut counts, covered, class == rule.class, weight);
        if covered {
            distribution[class] += weight;
        } else {
            uncovered.push(row);
        }
    }
    (counts, uncovered, distribution)
}

/// Adds one row of this weight to a rule's counts: covered or not, of the rule's class or not.
fn add_row(counts: &mut Counts, covered: bool, positive: bool, weight: f64) {
    let (side, kind) = match (covered, positive) {
        (true, true) => (COVER, TRUE_POSITIVE),
        (true, false) => (COVER, FALSE_POSITIVE),
        (false, true) => (UNCOVER, FALSE_NEGATIVE),
        (false, false) => (UNCOVER, TRUE_NEGATIVE),
    };
    counts[side] += weight;
    counts[kind] += weight;
}

/// Covered and uncovered true positives, false positives, ... of the whole rule list, taking the
/// covered counts summed over the rules and the uncovered ones from the last rule.
fn ruleset_counts(counts: &[Counts]) -> Counts {
    let mut total = [0.0; 6];
    for rule in counts {
        total[COVER] += rule[COVER];
        total[TRUE_POSITIVE] += rule[TRUE_POSITIVE];
        total[FALSE_POSITIVE] += rule[FALSE_POSITIVE];
    }
    if let Some(last) = counts.last() {
        total[UNCOVER] = last[UNCOVER];
        total[TRUE_NEGATIVE] = last[TRUE_NEGATIVE];
        total[FALSE_NEGATIVE] = last[FALSE_NEGATIVE];
    }
    total
}

/// The description length saved by deleting a rule, assuming (as RIPPER does) that the rows it
/// covered become uncovered. Returns it and updates `ruleset` to the deletion when the saving is
/// not negative or (with `check_error`) the rule's error rate is at least 1/2; `None` otherwise.
fn potential(
    rule_size: f64,
    total_conditions: f64,
    expected_fp_share: f64,
    ruleset: &mut Counts,
    rule: &Counts,
    check_error: bool,
) -> Option<f64> {
    let cover = ruleset[COVER] - rule[COVER];
    let uncover = ruleset[UNCOVER] + rule[COVER];
    let false_positives = ruleset[FALSE_POSITIVE] - rule[FALSE_POSITIVE];
    let false_negatives = ruleset[FALSE_NEGATIVE] + rule[TRUE_POSITIVE];
    let with = data_dl(
        expected_fp_share,
        ruleset[COVER],
        ruleset[UNCOVER],
        ruleset[FALSE_POSITIVE],
        ruleset[FALSE_NEGATIVE],
    ) + theory_dl(rule_size, total_conditions);
    let without = data_dl(
        expected_fp_share,
        cover,
        uncover,
        false_positives,
        false_negatives,
    );
    let saving = with - without;
    let error_rate = rule[FALSE_POSITIVE] / rule[COVER];
    let over_error = check_error && 0.5 - error_rate < SMALL;
    if -saving < SMALL || over_error {
        ruleset[COVER] = cover;
        ruleset[UNCOVER] = uncover;
        ruleset[FALSE_POSITIVE] = false_positives;
        ruleset[FALSE_NEGATIVE] = false_negatives;
        Some(saving)
    } else {
        None
    }
}

/// Everything the relative description length of one rule needs.
pub(crate) struct DlContext<'a> {
    /// The training data.
    pub data: &'a TrainingData,
    /// Number of classes.
    pub num_classes: usize,
    /// Number of possible conditions (for the theory length).
    pub total_conditions: f64,
    /// Expected share of false positives among the errors.
    pub expected_fp_share: f64,
    /// Whether a rule with error rate >= 1/2 counts as deletable.
    pub check_error: bool,
}

impl DlContext<'_> {
    /// Description length of the rule list with rule `index` minus without it, each minimised
    /// by deleting later rules that do not pay for themselves. `counts` holds every rule's
    /// counts; `before` the rows left uncovered by the rules before `index`.
    pub fn relative_dl(
        &self,
        rules: &[Rule],
        counts: &[Counts],
        before: &[u32],
        index: usize,
    ) -> f64 {
        let later_rules = &rules[index + 1..];
        let first_later: Vec<usize> = before
            .iter()
            .map(|&row| {
                later_rules
                    .iter()
                    .position(|rule| rule.covers_row(self.data, row))
                    .unwrap_or(later_rules.len())
            })
            .collect();
        self.relative_dl_given_deleted(
            rules,
            counts,
            index,
            self.min_data_dl_if_deleted(rules, counts, before, index, &first_later),
        )
    }

    /// [`DlContext::relative_dl`] when the minimal data length without rule `index` is known
    /// (it does not depend on that rule, so variants of one rule can share it).
    pub fn relative_dl_given_deleted(
        &self,
        rules: &[Rule],
        counts: &[Counts],
        index: usize,
        if_deleted: f64,
    ) -> f64 {
        self.min_data_dl_if_exists(rules, counts, index)
            + theory_dl(rules[index].size(), self.total_conditions)
            - if_deleted
    }

    fn min_data_dl_if_exists(&self, rules: &[Rule], counts: &[Counts], index: usize) -> f64 {
        let mut ruleset = ruleset_counts(counts);
        let mut saved = 0.0;
        for later in index + 1..counts.len() {
            if let Some(saving) = potential(
                rules[later].size(),
                self.total_conditions,
                self.expected_fp_share,
                &mut ruleset,
                &counts[later],
                self.check_error,
            ) {
                saved += saving;
            }
        }
        data_dl(
            self.expected_fp_share,
            ruleset[COVER],
            ruleset[UNCOVER],
            ruleset[FALSE_POSITIVE],
            ruleset[FALSE_NEGATIVE],
        ) - saved
    }

    /// Minimal data description length of the list without rule `index`, later rules deleted
    /// where that pays; `before` holds the rows left by the rules before `index`, and
    /// `first_later` each such row's first covering rule after `index` (an offset into the
    /// later rules; their number = none).
    pub fn min_data_dl_if_deleted(
        &self,
        rules: &[Rule],
        counts: &[Counts],
        before: &[u32],
        index: usize,
        first_later: &[usize],
    ) -> f64 {
        let mut ruleset = [0.0; 6];
        for rule in &counts[..index] {
            ruleset[COVER] += rule[COVER];
            ruleset[TRUE_POSITIVE] += rule[TRUE_POSITIVE];
            ruleset[FALSE_POSITIVE] += rule[FALSE_POSITIVE];
        }
        let later_counts = self.later_counts(
            rules[index].class,
            before,
            first_later,
            rules.len() - index - 1,
        );
        for rule_counts in &later_counts {
            ruleset[COVER] += rule_counts[COVER];
            ruleset[TRUE_POSITIVE] += rule_counts[TRUE_POSITIVE];
            ruleset[FALSE_POSITIVE] += rule_counts[FALSE_POSITIVE];
        }
        if let Some(last) = later_counts.last() {
            ruleset[UNCOVER] = last[UNCOVER];
            ruleset[TRUE_NEGATIVE] = last[TRUE_NEGATIVE];
            ruleset[FALSE_NEGATIVE] = last[FALSE_NEGATIVE];
        } else if index > 0 {
            let previous = &counts[index - 1];
            ruleset[UNCOVER] = previous[UNCOVER];
            ruleset[TRUE_NEGATIVE] = previous[TRUE_NEGATIVE];
            ruleset[FALSE_NEGATIVE] = previous[FALSE_NEGATIVE];
        } else {
            // No rule left at all: every row is uncovered.
            let positives = self.data.class_weight_of(before, rules[index].class);
            let total = self.data.weight_of(before);
            ruleset[UNCOVER] = total;
            ruleset[TRUE_NEGATIVE] = total - positives;
            ruleset[FALSE_NEGATIVE] = positives;
        }
        let mut saved = 0.0;
        for (offset, rule_counts) in later_counts.iter().enumerate() {
            if let Some(saving) = potential(
                rules[index + 1 + offset].size(),
                self.total_conditions,
                self.expected_fp_share,
                &mut ruleset,
                rule_counts,
                self.check_error,
            ) {
                saved += saving;
            }
        }
        data_dl(
            self.expected_fp_share,
            ruleset[COVER],
            ruleset[UNCOVER],
            ruleset[FALSE_POSITIVE],
            ruleset[FALSE_NEGATIVE],
        ) - saved
    }

    /// The counts of the `later` rules after a deleted one on the rows it would see (`before`,
    /// each with its first covering later rule, `later` = none). Later rule `j` sees the rows
    /// whose first covering later rule is `j` or after, and covers those where it is `j`. Each
    /// count is summed in row order, as applying the rules one after another would; with exact
    /// sums (whole weights) any order gives the same, so the rows are counted once each.
    fn later_counts(
        &self,
        class: usize,
        before: &[u32],
        first_later: &[usize],
        later: usize,
    ) -> Vec<Counts> {
        let data = self.data;
        if data.exact_sums() {
            let mut positives = vec![0.0; later + 1];
            let mut negatives = vec![0.0; later + 1];
            for (&row, &first) in before.iter().zip(first_later) {
                let weight = data.weights[row as usize];
                match data.classes[row as usize] == class {
                    true => positives[first] += weight,
                    false => negatives[first] += weight,
                }
            }
            return later_rule_counts(&positives, &negatives);
        }
        let mut counts = vec![[0.0; 6]; later];
        for (&row, &first) in before.iter().zip(first_later) {
            let weight = data.weights[row as usize];
            let positive = data.classes[row as usize] == class;
            for rule_counts in &mut counts[..first.min(later)] {
                add_row(rule_counts, false, positive, weight);
            }
            if let Some(rule_counts) = counts.get_mut(first) {
                add_row(rule_counts, true, positive, weight);
            }
        }
        counts
    }
}

/// The counts of the later rules of a list from the weight of the positives and of the
/// negatives whose first covering later rule is each one (the last entry: none), the rows a
/// rule leaves summed from the last rule backwards.
pub(crate) fn later_rule_counts(positives: &[f64], negatives: &[f64]) -> Vec<Counts> {
    let later = positives.len() - 1;
    let mut left_positives = vec![0.0; later + 1];
    let mut left_negatives = vec![0.0; later + 1];
    left_positives[later] = positives[later];
    left_negatives[later] = negatives[later];
    for j in (0..later).rev() {
        left_positives[j] = left_positives[j + 1] + positives[j];
        left_negatives[j] = left_negatives[j + 1] + negatives[j];
    }
    (0..later)
        .map(|j| {
            let (uncovered_positives, uncovered_negatives) =
                (left_positives[j + 1], left_negatives[j + 1]);
            [
                positives[j] + negatives[j],
                uncovered_positives + uncovered_negatives,
                positives[j],
                uncovered_negatives,
                negatives[j],
                uncovered_positives,
            ]
        })
        .collect()
}

/// A rule list for one class applied in order to some rows, with each rule's counts, the rows it
/// leaves, and the class distribution of the rows it covers.
pub(crate) struct RuleList {
    /// The rows the list is applied to.
    pub rows: Vec<u32>,
    /// The rules, in order.
    pub rules: Vec<Rule>,
    /// Counts of each rule on the rows left by the rules before it.
    pub counts: Vec<Counts>,
    /// Rows left uncovered after each rule.
    pub uncovered: Vec<Vec<u32>>,
    /// Weighted class distribution of the rows each rule covers.
    pub distributions: Vec<Vec<f64>>,
}

impl RuleList {
    /// An empty list over some rows.
    pub fn new(rows: Vec<u32>) -> Self {
        RuleList {
            rows,
            rules: Vec::new(),
            counts: Vec::new(),
            uncovered: Vec::new(),
            distributions: Vec::new(),
        }
    }

    /// The rows left uncovered by the rules before `index`.
    pub fn before(&self, index: usize) -> &[u32] {
        if index == 0 {
            &self.rows
        } else {
            &self.uncovered[index - 1]
        }
    }

    /// The rows left uncovered by the whole list.
    pub fn remaining(&self) -> &[u32] {
        self.before(self.rules.len())
    }

    /// Appends a rule and counts it on the rows left by the others.
    pub fn push(&mut self, rule: Rule, context: &DlContext) {
        let (counts, uncovered, distribution) =
            rule_counts(&rule, context.data, self.remaining(), context.num_classes);
        self.rules.push(rule);
        self.counts.push(counts);
        self.uncovered.push(uncovered);
        self.distributions.push(distribution);
    }

    /// Removes the last rule and its statistics.
    pub fn pop(&mut self) {
        self.rules.pop();
        self.counts.pop();
        self.uncovered.pop();
        self.distributions.pop();
    }

    /// Relative description length of rule `index` (see [`DlContext::relative_dl`]).
    pub fn relative_dl(&self, index: usize, context: &DlContext) -> f64 {
        context.relative_dl(&self.rules, &self.counts, self.before(index), index)
    }

    /// Recounts every rule from the start.
    fn recount(&mut self, context: &DlContext) {
        let rules = std::mem::take(&mut self.rules);
        self.counts.clear();
        self.uncovered.clear();
        self.distributions.clear();
        for rule in rules {
            self.push(rule, context);
        }
    }

    /// Deletes, from the last rule backwards, the rules whose deletion does not lengthen the
    /// description (or whose error rate is at least 1/2), then recounts if a middle rule went.
    pub fn reduce_dl(&mut self, context: &DlContext) {
        let mut ruleset = ruleset_counts(&self.counts);
        let mut needs_recount = false;
        for index in (0..self.counts.len()).rev() {
            let rule_counts = self.counts[index];
            let deletable = potential(
                self.rules[index].size(),
                context.total_conditions,
                context.expected_fp_share,
                &mut ruleset,
                &rule_counts,
                context.check_error,
            )
            .is_some();
            if deletable {
                if index + 1 == self.counts.len() {
                    self.pop();
                } else {
                    self.rules.remove(index);
                    needs_recount = true;
                }
            }
        }
        if needs_recount {
            self.recount(context);
        }
    }
}
