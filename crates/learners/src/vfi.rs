//! Voting feature intervals (Demiroz & Guvenir 1997), as Weka 3.6's
//! `weka.classifiers.misc.VFI` with its defaults (weighting by confidence, bias 0.6).
//!
//! Training: for each numeric attribute, the smallest and largest value of every class are the
//! interval bounds (with -inf and +inf, sorted, duplicates removed); every training value adds
//! its weight to the class count of the interval it falls in, or half to each of the two
//! intervals beside a bound it equals. A nominal attribute has one "interval" per value.
//!
//! Prediction: each attribute whose test value is present votes with the class counts of the
//! test value's interval (the average of the two intervals beside a bound it equals), each
//! divided by its class's total weight, normalised to sum to 1. With weighting by confidence a
//! small constant (1e-11) is added to every count and total, and a vote is multiplied by
//! `max(1, H^-bias)`, `H` being the entropy (bits) of the vote, so confident attributes weigh
//! more. The votes are summed and normalised. Instance weights add up like counts, so a row of
//! weight 2 is the row twice.
//!
//! Weka's edge case kept apart: a vote of entropy 0 (possible only when the training data has a
//! single class or without the small constant) has infinite weight in Weka and makes its sum
//! NaN; here the votes of infinite weight are summed alone (their limit).

use data::{AttributeKind, Features, Schema, View};

use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::tune_space::TuneSpace;

/// VFI's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct VfiConfig {
    /// Weight each attribute's vote by its confidence (Weka's default; `-C` turns it off).
    pub weight_by_confidence: bool,
    /// Exponential bias towards confident votes (Weka's `-B`, default 0.6).
    pub bias: f64,
}

impl Default for VfiConfig {
    /// The spec's defaults (Weka's: weighting by confidence, bias 0.6).
    fn default() -> Self {
        VfiLearner::from_params(Params::defaults(&spec()))
            .expect("the spec's defaults are valid")
            .config
    }
}

/// Revision of the VFI implementation: bump it whenever its outputs change.
const REVISION: u32 = 1;

/// The `vfi` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "vfi",
        description: "voting feature intervals (Demiroz & Guvenir 1997), as Weka's VFI (votes weighted by confidence, bias 0.6)",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::boolean(
                "weight_by_confidence",
                true,
                "weight each attribute's vote by its confidence (false = Weka -C)",
            )
            .tuned(TuneSpace::Booleans),
            ParameterSpec::real(
                "bias",
                0.6,
                0.0,
                100.0,
                "exponential bias towards confident votes (Weka -B)",
            )
            .tuned(TuneSpace::Reals(&[0.2, 0.6, 1.0])),
        ],
        capabilities: Capabilities::ALL,
        build,
    }
}

/// The VFI learner (`kind = "vfi"`).
#[derive(Clone, Debug)]
pub struct VfiLearner {
    config: VfiConfig,
}

/// Added to counts and totals when weighting by confidence (Weka's constant).
const TINY: f64 = 1e-11;

impl VfiLearner {
    /// A learner with the given parameters.
    pub fn new(config: VfiConfig) -> Self {
        VfiLearner { config }
    }

    /// Reads `weight_by_confidence` and `bias` from checked config parameters.
    pub fn from_params(params: Params) -> Result<Self, ParamError> {
        Ok(VfiLearner::new(VfiConfig {
            weight_by_confidence: params.boolean("weight_by_confidence")?,
            bias: params.real("bias")?,
        }))
    }

    /// The parameters in use.
    pub fn config(&self) -> &VfiConfig {
        &self.config
    }

    /// Fits the concrete VFI model (interval bounds and class counts).
    pub fn fit_vfi(&self, train: &View) -> Result<VfiModel, LearnerError> {
        // The positions of positive weight, with their class and weight.
        let mut positions = Vec::with_capacity(train.len());
        let mut classes = Vec::with_capacity(train.len());
        let mut weights = Vec::with_capacity(train.len());
        for position in 0..train.len() {
            let weight = train.weight(position);
            if weight > 0.0 {
                positions.push(position);
                classes.push(train.class(position));
                weights.push(weight);
            }
        }
        if positions.is_empty() {
            return Err(LearnerError::Data {
                learner: "vfi".into(),
                message: "no training rows with positive weight".into(),
            });
        }
        let num_classes = train.num_classes();
        let whole_weights = whole_weights(&weights);
        let class_totals = match &whole_weights {
            // Exact in any order: whole numbers, in integers.
            Some(whole_weights) => {
                let mut totals = vec![0u64; num_classes];
                for (&class, &weight) in classes.iter().zip(whole_weights) {
                    totals[class] += weight;
                }
                totals.iter().map(|&total| total as f64).collect()
            }
            None => {
                let mut totals = vec![0.0; num_classes];
                for (&class, &weight) in classes.iter().zip(&weights) {
                    totals[class] += weight;
                }
                totals
            }
        };
        // The rows of positive weight, whose columns are read below.
        let subview;
        let positive = if positions.len() == train.len() {
            train
        } else {
            subview = train.subview(&positions);
            &subview
        };
        let (mut values, mut places) = (Vec::new(), Vec::new());
        let mut attributes = Vec::with_capacity(train.num_attributes());
        for (attribute, info) in train.schema().attributes.iter().enumerate() {
            let column = positive.column(attribute);
            values.clear();
            values.resize(positions.len(), 0.0);
            let intervals = match &info.kind {
                AttributeKind::Numeric => {
                    let mut lowest = vec![f64::INFINITY; num_classes];
                    let mut highest = vec![f64::NEG_INFINITY; num_classes];
                    // Plain comparisons (false for NaN): after the first rows they are predictable
                    // branches, where min/max would chain every row through the same slot.
                    for ((slot, value), &class) in values.iter_mut().zip(column).zip(&classes) {
                        *slot = value;
                        if value < lowest[class] {
                            lowest[class] = value;
                        }
                        if value > highest[class] {
                            highest[class] = value;
                        }
                    }
                    let mut bounds = vec![f64::NEG_INFINITY, f64::INFINITY];
                    bounds.extend(lowest.iter().chain(&highest).copied());
                    bounds.sort_by(|a, b| a.total_cmp(b));
                    bounds.dedup();
                    find_places(&bounds, &values, &mut places);
                    let counts = interval_counts(
                        bounds.len() - 1,
                        num_classes,
                        &places,
                        &classes,
                        &weights,
                        whole_weights.as_deref(),
                    );
                    let counts = counts.chunks(num_classes).map(<[f64]>::to_vec).collect();
                    Intervals::Numeric { bounds, counts }
                }
                AttributeKind::Nominal(names) => {
                    for (slot, value) in values.iter_mut().zip(column) {
                        *slot = value;
                    }
                    let mut counts = vec![vec![0.0; num_classes]; names.len()];
                    for ((&value, &class), &weight) in values.iter().zip(&classes).zip(&weights) {
                        if !value.is_nan() {
                            counts[value as usize][class] += weight;
                        }
                    }
                    Intervals::Nominal { counts }
                }
            };
            attributes.push(intervals);
        }
        Ok(VfiModel::new(self.config.clone(), class_totals, attributes))
    }
}

impl Learner for VfiLearner {
    /// The cost hint of VFI: about 3 times naive Bayes per row and attribute.
    fn cost_hint(&self) -> f64 {
        3.0
    }

    fn name(&self) -> &str {
        "vfi"
    }

    fn revision(&self) -> String {
        revision_text("vfi", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    fn describe(&self) -> String {
        format!(
            "vfi(weight_by_confidence={}, bias={})",
            self.config.weight_by_confidence, self.config.bias
        )
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        Ok(Box::new(self.fit_vfi(train)?))
    }
}

/// Builds a VFI learner from config parameters (the registry's constructor).
pub fn build(params: Params) -> Result<Box<dyn Learner>, ParamError> {
    Ok(Box::new(VfiLearner::from_params(params)?))
}

/// Writes the place of each value among sorted `bounds` (from -inf to +inf) into `places`:
/// `2k` strictly inside interval `k` (between bounds `k` and `k + 1`), `2k - 1` on bound `k`,
/// and a number past every place (`u32::MAX - 1`) for a missing value.
fn find_places(bounds: &[f64], values: &[f64], places: &mut Vec<u32>) {
    #[cfg(target_arch = "x86_64")]
    if vector_cap::allows(vector_cap::Level::Avx2) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { find_places_avx2(bounds, values, places) };
    }
    find_places_portable(bounds, values, places)
}

/// [`find_places`] compiled for AVX2 (whole-number results, the same on every processor).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn find_places_avx2(bounds: &[f64], values: &[f64], places: &mut Vec<u32>) {
    find_places_portable(bounds, values, places)
}

/// [`find_places`] for any processor.
#[inline(always)]
fn find_places_portable(bounds: &[f64], values: &[f64], places: &mut Vec<u32>) {
    // A present value is above -inf and below +inf; then it is two places on for each inner
    // bound below it, one for a bound it equals. Four values at a time, each through every
    // bound (there are at most two bounds per class), which the compiler turns into vector
    // instructions without a branch.
    let inner_bounds = &bounds[1..bounds.len() - 1];
    let place_of = |value: f64| -> u32 {
        let mut place = 2 * u32::from(!value.is_nan());
        for &bound in inner_bounds {
            place += 2 * u32::from(bound < value) + u32::from(bound == value);
        }
        // A missing value has 0, which wraps past every place.
        place.wrapping_sub(2)
    };
    places.clear();
    places.resize(values.len(), 0);
    let mut place_chunks = places.chunks_exact_mut(4);
    let mut value_chunks = values.chunks_exact(4);
    for (place_chunk, value_chunk) in (&mut place_chunks).zip(&mut value_chunks) {
        let mut chunk = [0u64; 4];
        for (lane, &value) in chunk.iter_mut().zip(value_chunk) {
            *lane = 2 * u64::from(!value.is_nan());
        }
        for &bound in inner_bounds {
            for (lane, &value) in chunk.iter_mut().zip(value_chunk) {
                *lane += 2 * u64::from(bound < value) + u64::from(bound == value);
            }
        }
        for (place, lane) in place_chunk.iter_mut().zip(chunk) {
            *place = (lane as u32).wrapping_sub(2);
        }
    }
    for (place, &value) in place_chunks
        .into_remainder()
        .iter_mut()
        .zip(value_chunks.remainder())
    {
        *place = place_of(value);
    }
}

/// The weights as whole numbers, when every weight is one of at most 2^32 and there are at most
/// 2^20 rows (so that every sum of them is exact in a double).
fn whole_weights(weights: &[f64]) -> Option<Vec<u64>> {
    let whole = weights.len() <= 1 << 20
        && weights
            .iter()
            .all(|&weight| weight <= f64::from(u32::MAX) && weight == (weight as u64) as f64);
    whole.then(|| weights.iter().map(|&weight| weight as u64).collect())
}

/// Class counts of each of `num_intervals` intervals (`num_classes` per interval) from each
/// training row's place: a row inside an interval adds its weight there, a row on a bound adds
/// half to each interval beside it.
fn interval_counts(
    num_intervals: usize,
    num_classes: usize,
    places: &[u32],
    classes: &[usize],
    weights: &[f64],
    whole_weights: Option<&[u64]>,
) -> Vec<f64> {
    let num_places = 2 * num_intervals - 1;
    let mut counts = vec![0.0; num_intervals * num_classes];
    if let Some(whole_weights) = whole_weights {
        // Whole weights sum exactly in any order: integer tallies per place and class, in four
        // copies so that consecutive rows of the same place do not wait on each other's
        // additions. Missing values go to a last, unused place.
        let mut tallies = vec![[0u64; 4]; (num_places + 1) * num_classes];
        let mut add = |copy: usize, place: u32, class: usize, weight: u64| {
            let place = (place as usize).min(num_places);
            tallies[place * num_classes + class][copy] += weight;
        };
        let mut place_chunks = places.chunks_exact(4);
        let mut class_chunks = classes.chunks_exact(4);
        let mut weight_chunks = whole_weights.chunks_exact(4);
        for ((places, classes), weights) in (&mut place_chunks)
            .zip(&mut class_chunks)
            .zip(&mut weight_chunks)
        {
            add(0, places[0], classes[0], weights[0]);
            add(1, places[1], classes[1], weights[1]);
            add(2, places[2], classes[2], weights[2]);
            add(3, places[3], classes[3], weights[3]);
        }
        for ((&place, &class), &weight) in place_chunks
            .remainder()
            .iter()
            .zip(class_chunks.remainder())
            .zip(weight_chunks.remainder())
        {
            add(0, place, class, weight);
        }
        let tally = |place: usize, class: usize| -> f64 {
            tallies[place * num_classes + class].iter().sum::<u64>() as f64
        };
        for interval in 0..num_intervals {
            for class in 0..num_classes {
                let on_bounds_beside = if interval > 0 {
                    tally(2 * interval - 1, class)
                } else {
                    0.0
                } + if interval + 1 < num_intervals {
                    tally(2 * interval + 1, class)
                } else {
                    0.0
                };
                counts[interval * num_classes + class] =
                    tally(2 * interval, class) + on_bounds_beside / 2.0;
            }
        }
    } else {
        // Fractional weights: summed row by row, as Weka does.
        for ((&place, &class), &weight) in places.iter().zip(classes).zip(weights) {
            let place = place as usize;
            if place >= num_places {
                continue;
            }
            let interval = place.div_ceil(2);
            if place.is_multiple_of(2) {
                counts[interval * num_classes + class] += weight;
            } else {
                counts[interval * num_classes + class] += weight / 2.0;
                counts[(interval - 1) * num_classes + class] += weight / 2.0;
            }
        }
    }
    counts
}

/// Adds to each row's sums (`CLASSES` per row) the weighted vote of its place (`CLASSES` per
/// place); a row whose place is past every place has a missing value and gets nothing.
fn add_votes<const CLASSES: usize>(sums: &mut [f64], places: &[u32], weighted_votes: &[f64]) {
    let (rows, _) = sums.as_chunks_mut::<CLASSES>();
    let (votes, _) = weighted_votes.as_chunks::<CLASSES>();
    for (row, &place) in rows.iter_mut().zip(places) {
        if let Some(vote) = votes.get(place as usize) {
            for (slot, v) in row.iter_mut().zip(vote) {
                *slot += v;
            }
        }
    }
}

/// One attribute's intervals and their class counts.
#[derive(Clone, Debug)]
enum Intervals {
    Numeric {
        /// Sorted distinct bounds, from -inf to +inf.
        bounds: Vec<f64>,
        /// Class counts of the interval above each bound.
        counts: Vec<Vec<f64>>,
    },
    Nominal {
        /// Class counts of each value.
        counts: Vec<Vec<f64>>,
    },
}

/// `x ln x`, 0 for `x <= 0` (Weka 3.6's entropy helper).
fn x_log_x(x: f64) -> f64 {
    if x <= 0.0 {
        0.0
    } else {
        x * x.ln()
    }
}

/// Entropy in bits of an unnormalised distribution, as Weka's `ContingencyTables.entropy`.
fn entropy_bits(counts: &[f64]) -> f64 {
    let sum: f64 = counts.iter().sum();
    if sum.abs() < 1e-6 {
        return 0.0;
    }
    let minus_sum_x_log_x: f64 = counts.iter().map(|&c| -x_log_x(c)).sum();
    (minus_sum_x_log_x + x_log_x(sum)) / (sum * std::f64::consts::LN_2)
}

/// A fitted VFI model.
#[derive(Clone, Debug)]
pub struct VfiModel {
    config: VfiConfig,
    class_totals: Vec<f64>,
    attributes: Vec<Intervals>,
    /// Every vote an attribute can cast, computed once at fitting.
    votes: Vec<AttributeVotes>,
}

/// The votes one attribute can cast: one per place a test value can fall (numeric: inside an
/// interval or on a bound; nominal: a value), with their weights.
#[derive(Clone, Debug)]
struct AttributeVotes {
    /// Each place's normalised class votes times the vote's weight, `num_classes` per place;
    /// the votes alone where the weight is infinite.
    weighted_votes: Vec<f64>,
    /// Whether each place's vote has infinite weight (entropy 0: it outweighs all others).
    certain: Vec<bool>,
}

impl VfiModel {
    /// A model from its counts, with every possible vote computed.
    fn new(config: VfiConfig, class_totals: Vec<f64>, attributes: Vec<Intervals>) -> Self {
        let mut model = VfiModel {
            config,
            class_totals,
            attributes,
            votes: Vec::new(),
        };
        model.votes = model
            .attributes
            .iter()
            .map(|intervals| model.attribute_votes(intervals))
            .collect();
        model
    }

    /// The votes and weights of every place of one attribute.
    fn attribute_votes(&self, intervals: &Intervals) -> AttributeVotes {
        let places: Vec<Vec<f64>> = match intervals {
            // Place 2k is inside interval k; place 2k - 1 is on bound k, between k - 1 and k.
            Intervals::Numeric { counts, .. } => (0..2 * counts.len() - 1)
                .map(|place| {
                    let k = place.div_ceil(2);
                    if place.is_multiple_of(2) {
                        counts[place / 2].clone()
                    } else {
                        counts[k]
                            .iter()
                            .zip(&counts[k - 1])
                            .map(|(above, below)| (above + below) / 2.0)
                            .collect()
                    }
                })
                .collect(),
            Intervals::Nominal { counts } => counts.clone(),
        };
        let mut weighted_votes = Vec::with_capacity(places.len() * self.class_totals.len());
        let mut certain = Vec::with_capacity(places.len());
        for counts in &places {
            let vote = self.vote(counts);
            let weight = if self.config.weight_by_confidence {
                entropy_bits(&vote).powf(-self.config.bias).max(1.0)
            } else {
                1.0
            };
            certain.push(weight.is_infinite());
            if weight.is_infinite() {
                weighted_votes.extend(vote);
            } else {
                weighted_votes.extend(vote.iter().map(|v| v * weight));
            }
        }
        AttributeVotes {
            weighted_votes,
            certain,
        }
    }

    /// The normalised vote of a place with these class counts.
    fn vote(&self, counts: &[f64]) -> Vec<f64> {
        let tiny = if self.config.weight_by_confidence {
            TINY
        } else {
            0.0
        };
        let mut vote: Vec<f64> = counts
            .iter()
            .zip(&self.class_totals)
            .map(|(&count, &total)| {
                if total <= 0.0 {
                    0.0
                } else {
                    (count + tiny) / (total + tiny)
                }
            })
            .collect();
        let sum: f64 = vote.iter().sum();
        if sum <= 0.0 {
            let uniform = 1.0 / vote.len() as f64;
            vote.iter_mut().for_each(|v| *v = uniform);
        } else {
            vote.iter_mut().for_each(|v| *v /= sum);
        }
        vote
    }
}

impl Model for VfiModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let num_classes = self.class_totals.len();
        let mut probabilities = Probabilities::zeros(test.len(), num_classes);
        // Votes of infinite weight (entropy 0) are summed apart, per row; they win where present.
        let mut certain: Option<(Probabilities, Vec<bool>)> = None;
        // Attribute by attribute: each row still sums its votes in attribute order.
        let mut values = Vec::with_capacity(test.len());
        let mut places = Vec::with_capacity(test.len());
        for (attribute, votes) in self.votes.iter().enumerate() {
            values.clear();
            values.extend(test.column(attribute));
            match &self.attributes[attribute] {
                Intervals::Numeric { bounds, .. } => find_places(bounds, &values, &mut places),
                Intervals::Nominal { .. } => {
                    places.clear();
                    places.extend(values.iter().map(|&value| {
                        if value.is_nan() {
                            u32::MAX
                        } else {
                            value as u32
                        }
                    }));
                }
            }
            let num_places = votes.certain.len();
            if !votes.certain.contains(&true) {
                let sums = probabilities.as_flat_mut();
                match num_classes {
                    2 => add_votes::<2>(sums, &places, &votes.weighted_votes),
                    _ => {
                        for (row, &place) in sums.chunks_exact_mut(num_classes).zip(&places) {
                            let place = place as usize;
                            if place < num_places {
                                let vote =
                                    &votes.weighted_votes[place * num_classes..][..num_classes];
                                row.iter_mut().zip(vote).for_each(|(slot, v)| *slot += v);
                            }
                        }
                    }
                }
                continue;
            }
            for (position, &place) in places.iter().enumerate() {
                let place = place as usize;
                if place >= num_places {
                    continue;
                }
                let vote = &votes.weighted_votes[place * num_classes..][..num_classes];
                let sums = if votes.certain[place] {
                    let (sums, any) = certain.get_or_insert_with(|| {
                        (
                            Probabilities::zeros(test.len(), num_classes),
                            vec![false; test.len()],
                        )
                    });
                    any[position] = true;
                    sums
                } else {
                    &mut probabilities
                };
                for (slot, &v) in sums.row_mut(position).iter_mut().zip(vote) {
                    *slot += v;
                }
            }
        }
        for position in 0..test.len() {
            let row = probabilities.row_mut(position);
            if let Some((sums, any)) = &certain {
                if any[position] {
                    row.copy_from_slice(sums.row(position));
                }
            }
            let sum: f64 = row.iter().sum();
            if sum <= 0.0 || !sum.is_finite() {
                row.iter_mut().for_each(|p| *p = 1.0 / num_classes as f64);
            } else {
                row.iter_mut().for_each(|p| *p /= sum);
            }
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let mut text = String::from("Voting feature intervals\n");
        for (attribute, intervals) in self.attributes.iter().enumerate() {
            let name = &schema.attributes[attribute].name;
            match intervals {
                Intervals::Numeric { bounds, counts } => {
                    text.push_str(&format!("  {name}:\n"));
                    for (k, window) in bounds.windows(2).enumerate() {
                        text.push_str(&format!(
                            "    ({}, {}): {:?}\n",
                            window[0], window[1], counts[k]
                        ));
                    }
                }
                Intervals::Nominal { counts } => {
                    text.push_str(&format!("  {name}:\n"));
                    let values = schema.attributes[attribute].values().unwrap_or(&[]);
                    for (value, count) in counts.iter().enumerate() {
                        let label = values.get(value).map(String::as_str).unwrap_or("?");
                        text.push_str(&format!("    {label}: {count:?}\n"));
                    }
                }
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_on_bounds_and_inside_intervals() {
        let bounds = [f64::NEG_INFINITY, 1.0, 3.0, f64::INFINITY];
        let mut places = Vec::new();
        find_places(&bounds, &[0.5, 1.0, 2.0, 3.0, 7.0, f64::NAN], &mut places);
        // Inside interval 0, on bound 1, inside 1, on bound 2, inside 2, missing.
        assert_eq!(&places[..5], &[0, 1, 2, 3, 4]);
        assert!(places[5] as usize >= 2 * (bounds.len() - 1) - 1);
    }

    #[test]
    fn places_are_the_same_on_every_path() {
        // Values on, between and beyond the bounds, some missing, in a length that leaves a
        // remainder after the groups of four.
        let bounds = [f64::NEG_INFINITY, -1.5, 0.0, 0.25, 2.0, f64::INFINITY];
        let values: Vec<f64> = (0..103)
            .map(|i| match i % 7 {
                0 => f64::NAN,
                1 => bounds[1 + i % 4],
                _ => (i as f64 - 50.0) / 16.0,
            })
            .collect();
        let (mut dispatched, mut portable) = (Vec::new(), Vec::new());
        find_places(&bounds, &values, &mut dispatched);
        find_places_portable(&bounds, &values, &mut portable);
        assert_eq!(dispatched, portable);
        for (&value, &place) in values.iter().zip(&portable) {
            let below = bounds.iter().filter(|&&bound| bound < value).count() as u32;
            let expected = match () {
                _ if value.is_nan() => u32::MAX - 1,
                _ if bounds.contains(&value) => 2 * below - 1,
                _ => 2 * below - 2,
            };
            assert_eq!(place, expected, "value {value}");
        }
    }

    #[test]
    fn whole_and_fractional_weights_count_alike() {
        // Intervals (-inf,1), (1,3), (3,inf); rows inside 0, on bound 1, inside 1, on bound 2,
        // missing; two classes.
        let places = [0, 1, 2, 3, u32::MAX - 1, 2];
        let classes = [0, 1, 0, 1, 0, 1];
        let weights = [2.0, 3.0, 1.0, 4.0, 5.0, 1.0];
        let whole = whole_weights(&weights).unwrap();
        let by_tallies = interval_counts(3, 2, &places, &classes, &weights, Some(&whole));
        let by_rows = interval_counts(3, 2, &places, &classes, &weights, None);
        // Interval 0: class 0 weight 2, class 1 half of 3. Interval 1: class 0 weight 1,
        // class 1 half of 3 + half of 4 + 1. Interval 2: class 1 half of 4.
        let expected = [2.0, 1.5, 1.0, 4.5, 0.0, 2.0];
        assert_eq!(by_tallies, expected);
        assert_eq!(by_rows, expected);
        assert!(whole_weights(&[1.0, 0.5]).is_none());
    }

    #[test]
    fn parameters_are_checked() {
        let table = |text: &str| -> toml::Table { text.parse().unwrap() };
        let learner = crate::build_learner(&table(
            "kind = \"vfi\"\nbias = 1.5\nweight_by_confidence = false",
        ))
        .unwrap();
        assert_eq!(
            learner.describe(),
            "vfi(weight_by_confidence=false, bias=1.5)"
        );
        assert!(crate::build_learner(&table("kind = \"vfi\"\nbias = -1")).is_err());
        assert!(crate::build_learner(&table("kind = \"vfi\"\nweight_by_confidence = 1")).is_err());
        assert!(crate::build_learner(&table("kind = \"vfi\"\nblend = 3")).is_err());
    }

    #[test]
    fn votes_by_hand() {
        // One numeric attribute; class a at 1 and 2, class b at 3 and 4 (unit weights).
        // Bounds: -inf, 1, 2, 3, 4, +inf. Every training value sits on a bound and gives half
        // to each neighbouring interval: (-inf,1): a 0.5; (1,2): a 1; (2,3): a 0.5, b 0.5;
        // (3,4): b 1; (4,inf): b 0.5. Test value 1.5 lies in (1,2): a 1/2, b 0: P = (1, 0)
        // without weighting by confidence. Test value 2.5 in (2,3): a 0.5/2, b 0.5/2: (0.5, 0.5).
        let schema = data::Schema {
            attributes: vec![data::Attribute::numeric("x")],
            class_name: "class".into(),
            class_values: vec!["a".into(), "b".into()],
        };
        let dataset = data::Dataset::new(
            "toy",
            schema,
            vec![vec![1.0, 2.0, 3.0, 4.0, 1.5, 2.5, 3.0]],
            vec![0, 0, 1, 1, 0, 0, 0],
            None,
        )
        .unwrap();
        let learner = VfiLearner::new(VfiConfig {
            weight_by_confidence: false,
            bias: 0.6,
        });
        let model = learner.fit_vfi(&dataset.subset(vec![0, 1, 2, 3])).unwrap();
        let probabilities = model
            .predict_proba(&data::Features::of(&dataset, vec![4, 5, 6]))
            .unwrap();
        assert_eq!(probabilities.row(0), &[1.0, 0.0]);
        assert_eq!(probabilities.row(1), &[0.5, 0.5]);
        // On the bound 3: the average of (2,3) [a 0.5, b 0.5] and (3,4) [b 1]: a 0.25, b 0.75,
        // each over the class total 2: 0.125 and 0.375, normalised: (0.25, 0.75).
        assert_eq!(probabilities.row(2), &[0.25, 0.75]);
    }
}
