//! Naive Bayes as Weka 3.6's `weka.classifiers.bayes.NaiveBayes` (and its `-D` option).
//!
//! * Class prior: Laplace-corrected weighted counts, `(w_c + 1) / (W + K)`.
//! * Nominal attribute (and a discretised numeric one): Laplace-corrected weighted counts per
//!   class, `(w_cv + 1) / (w_c + V)` with `V` the number of values in the schema, so a value
//!   never seen in training gets `1 / (w_c + V)`.
//! * Numeric attribute: a normal distribution per class with Weka's precision rules. The
//!   attribute's precision `d` is the mean gap between consecutive distinct training values,
//!   `(max - min) / (distinct - 1)`, or 0.01 when there are fewer than two distinct values.
//!   Values are rounded to the nearest multiple of `d` (ties to even) for fitting and predicting.
//!   Per class, the mean and standard deviation are the weighted ones (divisor = sum of weights);
//!   the standard deviation is floored at `d / 6`, and when it is below 1e-10 (a single distinct
//!   value, or no rows of that class) it is `d / 6`. The likelihood of a value `x` is the
//!   probability of the rounding interval, `Phi((x - mean + d/2) / sd) - Phi((x - mean - d/2) /
//!   sd)`. A narrow interval's logarithm comes from a series without cancellation (see
//!   `log_interval_by_series`); a wide one is computed with `erfc` in the tail where it is
//!   accurate. Weka subtracts two values near 1 in the upper tail, gets 0 earlier and floors it,
//!   so far-out values can get different probabilities there (60 of 1,534 spambase test rows in
//!   `docs/weka-speed.md`).
//! * As in Weka each attribute's likelihood is floored at 1e-75 before multiplying; missing
//!   values (training or test) are skipped.
//! * Everything is summed in log space and normalised with log-sum-exp, so hundreds of
//!   attributes cannot underflow.
//! * Computation, with the same results as one value at a time: the precision comes from the
//!   sorted distinct training values (zeros set aside in one pass, the other values collected
//!   in a hash table first when they repeat; a radix sort on the high halves of
//!   order-preserving keys for long columns). The per-class sums of four numeric attributes
//!   advance together, row by row, each in its own row order. At prediction an attribute's
//!   test values are divided by the precision and rounded together, and each distinct
//!   quotient's likelihoods are computed once (by the series in vector instructions where it
//!   applies) and looked up for every row in a table indexed by the quotient; where the
//!   quotients are too far apart for a table, they are found through a hash table where
//!   training values repeat, otherwise row by row (by the series in vector instructions where
//!   it applies, the rest once per run of equal values).
//! * With `discretize = true`, numeric attributes are first discretised by Fayyad and Irani's
//!   MDL method on the training rows (see [`crate::discretize`]) and then treated as nominal.

use data::{Features, Schema, View};

use crate::discretize::MdlDiscretizer;
use crate::model::{Learner, LearnerError, Model, Probabilities, ShareHint, SharedState};
use crate::params::{ParamError, Params};
use crate::sorted_columns::{self, Positions, SortedColumns};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::total_order;
use crate::tune_space::TuneSpace;

/// Revision of the naive Bayes implementation: bump it whenever its outputs change.
const REVISION: u32 = 1;

/// The `naive_bayes` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "naive_bayes",
        description: "naive Bayes as Weka's NaiveBayes: Gaussian numeric attributes (or MDL-discretised with discretize = true), Laplace-corrected nominal ones",
        revision: REVISION,
        parameters: vec![ParameterSpec::boolean(
            "discretize",
            false,
            "discretise numeric attributes by Fayyad and Irani's MDL method (Weka -D)",
        )
            .tuned(TuneSpace::Booleans)],
        capabilities: Capabilities::ALL,
        build: NaiveBayes::from_params,
    }
}

/// Weka's default precision of a numeric attribute with fewer than two distinct values.
const DEFAULT_PRECISION: f64 = 0.01;
/// Weka's floor of one attribute's likelihood.
const LIKELIHOOD_FLOOR: f64 = 1e-75;
/// Rounding intervals with `(|m| + 4) a` up to this (`m` the value's distance from the mean and
/// `a` half the interval, in standard deviations) are computed by a series.
const NARROW_REACH: f64 = 0.2;

/// The naive Bayes learner: Gaussian or MDL-discretised numeric attributes.
#[derive(Clone, Debug)]
pub struct NaiveBayes {
    discretize: bool,
}

impl NaiveBayes {
    /// A naive Bayes learner; `discretize` turns on MDL discretisation (Weka's `-D`).
    pub fn new(discretize: bool) -> Self {
        NaiveBayes { discretize }
    }

    /// Builds from checked config parameters: `discretize`.
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        Ok(Box::new(NaiveBayes::new(params.boolean("discretize")?)))
    }
}

/// The per-class normal distribution of one numeric attribute.
#[derive(Clone, Debug)]
struct Normal {
    mean: f64,
    standard_deviation: f64,
    /// Half the rounding interval in standard deviations, `precision / 2 sd`.
    half_width: f64,
    /// `ln(precision / sd)`, the log-width of the rounding interval in standard deviations.
    log_width: f64,
}

impl Normal {
    /// The distribution with this mean and standard deviation, for values of this precision.
    fn new(mean: f64, standard_deviation: f64, precision: f64) -> Self {
        Normal {
            mean,
            standard_deviation,
            half_width: precision / (2.0 * standard_deviation),
            log_width: (precision / standard_deviation).ln(),
        }
    }

    /// Whether the rounding interval is narrow enough for the series at some value.
    fn series_possible(&self) -> bool {
        4.0 * self.half_width <= NARROW_REACH
    }

    /// [`Normal::log_likelihood`] of many rounded values, where the narrow-interval series
    /// with its short logarithm applies; NaN for the other values (and missing ones), which
    /// need the general computation. One loop without branches, in vector instructions.
    fn narrow_log_likelihoods(&self, values: &[f64], out: &mut Vec<f64>) {
        out.clear();
        if !self.series_possible() {
            // Too wide an interval for the series at any value.
            out.resize(values.len(), f64::NAN);
            return;
        }
        out.resize(values.len(), 0.0);
        #[cfg(target_arch = "x86_64")]
        if vector_cap::allows(vector_cap::Level::Avx2)
            && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { self.narrow_log_likelihoods_avx2(values, out) };
        }
        self.narrow_log_likelihoods_portable(values, out);
    }

    /// [`Normal::narrow_log_likelihoods`] compiled for AVX2: the same operations, four values
    /// per instruction, so the same results.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn narrow_log_likelihoods_avx2(&self, values: &[f64], out: &mut [f64]) {
        self.narrow_log_likelihoods_portable(values, out);
    }

    /// [`Normal::narrow_log_likelihoods`] for any processor.
    #[inline(always)]
    fn narrow_log_likelihoods_portable(&self, values: &[f64], out: &mut [f64]) {
        let floor = LIKELIHOOD_FLOOR.ln();
        for (out, &value) in out.iter_mut().zip(values) {
            let centre = (value - self.mean) / self.standard_deviation;
            let correction = series_correction(centre, self.half_width);
            let log_likelihood = (-0.5 * centre * centre - LN_SQRT_2PI
                + self.log_width
                + log_one_plus_small(correction))
            .max(floor);
            let applies = (centre.abs() + 4.0) * self.half_width <= NARROW_REACH
                && correction.abs() < SMALL_CORRECTION;
            *out = if applies { log_likelihood } else { f64::NAN };
        }
    }

    /// Log of the floored probability of the rounding interval around a rounded value.
    fn log_likelihood(&self, value: f64, precision: f64) -> f64 {
        let centre = (value - self.mean) / self.standard_deviation;
        if (centre.abs() + 4.0) * self.half_width <= NARROW_REACH {
            return log_interval_by_series(centre, self.half_width, self.log_width)
                .max(LIKELIHOOD_FLOOR.ln());
        }
        let low = (value - self.mean - precision / 2.0) / self.standard_deviation;
        let high = (value - self.mean + precision / 2.0) / self.standard_deviation;
        normal_interval(low, high).max(LIKELIHOOD_FLOOR).ln()
    }
}

/// `ln(Phi(m + a) - Phi(m - a))` for a narrow interval (`log_width` = `ln 2a`), without the cancellation of subtracting
/// two probabilities: the integral of the density around `m` is
/// `phi(m) 2a sum_k He_2k(m) a^2k / (2k + 1)!` (`He` the probabilists' Hermite polynomials), so
/// the logarithm is `-m^2/2 - ln sqrt(2 pi) + ln 2a + ln(1 + sum_{k>=1} ...)`.
///
/// Used where `(|m| + 4) a <= 0.2`: the terms up to `k = 6` then leave an error below 1e-16
/// relative. Checked against mpmath at 50 digits: the largest error of `ln P` above the floor
/// was 5e-14 (from rounding `m^2/2` itself), where the difference of two `erfc` values is
/// off by up to 2e-9.
fn log_interval_by_series(centre: f64, half_width: f64, log_width: f64) -> f64 {
    let correction = series_correction(centre, half_width);
    let log_sum = if correction.abs() < SMALL_CORRECTION {
        log_one_plus_small(correction)
    } else {
        correction.ln_1p()
    };
    -0.5 * centre * centre - LN_SQRT_2PI + log_width + log_sum
}

/// `ln sqrt(2 pi)`.
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;
/// Below this size, `ln(1 + c)` comes from three terms of its series (error below `c^4 / 4`).
const SMALL_CORRECTION: f64 = 1e-5;

/// `ln(1 + c)` for `|c| <` [`SMALL_CORRECTION`].
#[inline(always)]
fn log_one_plus_small(correction: f64) -> f64 {
    correction * (1.0 - correction * (0.5 - correction / 3.0))
}

/// The sum `sum_{k>=1} He_2k(m) a^2k / (2k + 1)!` of [`log_interval_by_series`], with only the
/// terms that matter at this `(|m| + 4) a`. Without branches, so that a loop over many values
/// runs in vector instructions: a term left out is computed and replaced by zero.
#[inline(always)]
fn series_correction(centre: f64, half_width: f64) -> f64 {
    /// 1/3!, 1/5!, ..., 1/11!.
    const INVERSE_ODD_FACTORIALS: [f64; 5] = [
        0.166_666_666_666_666_66,
        0.008_333_333_333_333_333,
        0.000_198_412_698_412_698_4,
        2.755_731_922_398_589_3e-6,
        2.505_210_838_544_172e-8,
    ];
    /// Term k + 1 is needed once `(|m| + 4) a` passes the k-th limit: below it, the first term
    /// left out, at most `((|m| + 4) a)^2k / (2k + 1)!`, is under 1e-17.
    const TERM_LIMITS: [f64; 4] = [1.8e-4, 6.0e-3, 3.7e-2, 0.114];
    let reach = (centre.abs() + 4.0) * half_width;
    let half_width_squared = half_width * half_width;
    // He_{n-1} and He_n, starting from He_0 = 1 and He_1 = m.
    let (mut previous, mut current) = (1.0, centre);
    let mut power = 1.0;
    let mut correction = 0.0;
    for (k, inverse_factorial) in INVERSE_ODD_FACTORIALS.iter().enumerate() {
        let n = (2 * k + 1) as f64;
        // He_{n+1} = m He_n - n He_{n-1}, taken twice: to He_2k, then to He_2k+1.
        (previous, current) = (current, centre * current - n * previous);
        power *= half_width_squared;
        let term = current * power * inverse_factorial;
        let needed = k == 0 || reach > TERM_LIMITS[k - 1];
        correction += if needed { term } else { 0.0 };
        (previous, current) = (current, centre * current - (n + 1.0) * previous);
    }
    correction
}

/// Where each distinct value's log-likelihoods start, for one attribute at a time: an
/// open-addressing table on a value's bits, at most half full (it doubles as values come, so
/// it stays as small as the values of a round need), whose slots carry the attribute ("round")
/// that filled them, so that a new round starts empty without clearing.
struct StartsByValue {
    /// (value bits, round, start) per slot.
    slots: Vec<(u64, u32, usize)>,
    /// Bits of a hash that pick a slot (the table has `2^bits` slots).
    bits: u32,
    round: u32,
    /// Values the table holds in this round.
    len: usize,
}

impl StartsByValue {
    /// An empty table (of 64 slots to start with).
    fn new() -> Self {
        const BITS: u32 = 6;
        StartsByValue {
            slots: vec![(0, 0, 0); 1 << BITS],
            bits: BITS,
            round: 1,
            len: 0,
        }
    }

    /// Starts a round with no values.
    fn clear(&mut self) {
        self.len = 0;
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            // Slots of round 0 are empty: after 2^32 rounds, empty them all again.
            self.slots.iter_mut().for_each(|slot| slot.1 = 0);
            self.round = 1;
        }
    }

    /// The slot of `key`: where it is, or the empty slot where it would go.
    #[inline(always)]
    fn slot_of(&self, key: u64) -> usize {
        // Fibonacci hashing: the high bits of the product depend on every bit of the key.
        let mut index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        loop {
            let slot = &self.slots[index];
            if slot.1 != self.round || slot.0 == key {
                return index;
            }
            index = (index + 1) & (self.slots.len() - 1);
        }
    }

    /// The start of `value`, computed by `compute` when the round has not seen it.
    #[inline(always)]
    fn get_or_insert(&mut self, value: f64, compute: impl FnOnce() -> usize) -> usize {
        let key = value.to_bits();
        let mut index = self.slot_of(key);
        if self.slots[index].1 == self.round {
            return self.slots[index].2;
        }
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
            index = self.slot_of(key);
        }
        self.len += 1;
        self.slots[index] = (key, self.round, compute());
        self.slots[index].2
    }

    /// Doubles the table, keeping this round's values.
    #[cold]
    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.slots, vec![(0, 0, 0); 2 << self.bits]);
        self.bits += 1;
        for slot in old.into_iter().filter(|slot| slot.1 == self.round) {
            let index = self.slot_of(slot.0);
            self.slots[index] = slot;
        }
    }
}

/// What the model knows about one attribute.
#[derive(Clone, Debug)]
enum AttributeModel {
    /// Log-probability of each value, per class: `[class][value]`.
    Discrete(Vec<Vec<f64>>),
    /// Rounding precision and one normal distribution per class.
    Gaussian {
        precision: f64,
        classes: Vec<Normal>,
        /// Fewer than a quarter of the training values were distinct: test values will repeat
        /// too, so prediction keeps every distinct value's likelihoods (else only the last).
        repeats: bool,
    },
}

/// A fitted naive Bayes model.
#[derive(Clone, Debug)]
pub struct NaiveBayesModel {
    log_priors: Vec<f64>,
    attributes: Vec<AttributeModel>,
    discretizer: Option<MdlDiscretizer>,
}

/// Rounds to the nearest multiple of `precision`, ties to even (Java's `Math.rint`).
#[inline(always)]
fn round_to(value: f64, precision: f64) -> f64 {
    round_ties_even(value / precision) * precision
}

/// [`round_to`] on every value in place (NaN stays NaN), in vector instructions.
fn round_all_to(values: &mut [f64], precision: f64) {
    #[cfg(target_arch = "x86_64")]
    if vector_cap::allows(vector_cap::Level::Avx2) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { round_all_to_avx2(values, precision) };
    }
    values
        .iter_mut()
        .for_each(|value| *value = round_to(*value, precision));
}

/// [`round_all_to`] compiled for AVX2: the same operations, four values per instruction, so the
/// same results.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn round_all_to_avx2(values: &mut [f64], precision: f64) {
    values
        .iter_mut()
        .for_each(|value| *value = round_to(*value, precision));
}

/// Each value's quotient by `precision` rounded to an integer, ties to even, in place (NaN
/// stays NaN), in vector instructions: the first step of [`round_to`], which multiplies it by
/// `precision` after. Returns the smallest and largest known quotients (infinite when none is
/// known) and whether some are missing.
fn quotients_all(values: &mut [f64], precision: f64) -> (f64, f64, bool) {
    #[cfg(target_arch = "x86_64")]
    if vector_cap::allows(vector_cap::Level::Avx2) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { quotients_all_avx2(values, precision) };
    }
    quotients_all_portable(values, precision)
}

/// [`quotients_all`] compiled for AVX2: the same operations, four values per instruction, so
/// the same results.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn quotients_all_avx2(values: &mut [f64], precision: f64) -> (f64, f64, bool) {
    quotients_all_portable(values, precision)
}

/// [`quotients_all`] for any processor: four running extremes, one per lane.
#[inline(always)]
fn quotients_all_portable(values: &mut [f64], precision: f64) -> (f64, f64, bool) {
    const LANES: usize = 4;
    let mut low = [f64::INFINITY; LANES];
    let mut high = [f64::NEG_INFINITY; LANES];
    let mut missing = [0u64; LANES];
    let mut update = |value: &mut f64, lane: usize| {
        let quotient = round_ties_even(*value / precision);
        *value = quotient;
        // `min` and `max` pass over NaN (missing).
        low[lane] = low[lane].min(quotient);
        high[lane] = high[lane].max(quotient);
        missing[lane] |= u64::from(quotient.is_nan());
    };
    let mut chunks = values.chunks_exact_mut(LANES);
    for chunk in &mut chunks {
        for (lane, value) in chunk.iter_mut().enumerate() {
            update(value, lane);
        }
    }
    for value in chunks.into_remainder() {
        update(value, 0);
    }
    let low = low.into_iter().fold(f64::INFINITY, f64::min);
    let high = high.into_iter().fold(f64::NEG_INFINITY, f64::max);
    (low, high, missing.iter().any(|&missing| missing != 0))
}

/// `f64::round_ties_even` without a call into the C library (the baseline x86-64 target has no
/// rounding instruction): adding and subtracting 2^52 rounds to an integer, ties to even, in the
/// default rounding mode; beyond 2^52 every value is already an integer.
#[inline(always)]
fn round_ties_even(value: f64) -> f64 {
    const TWO_TO_52: f64 = 4_503_599_627_370_496.0;
    let magnitude = value.abs();
    if magnitude < TWO_TO_52 {
        ((magnitude + TWO_TO_52) - TWO_TO_52).copysign(value)
    } else {
        value
    }
}

/// Standard normal lower-tail probability.
fn normal_cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

/// Probability that a normal variable falls in `[low, high]` (standardised bounds), accurate in
/// both tails.
fn normal_interval(low: f64, high: f64) -> f64 {
    if low > 0.0 {
        normal_cdf(-low) - normal_cdf(-high)
    } else {
        normal_cdf(high) - normal_cdf(low)
    }
}

/// Weka's precision of a numeric attribute (the mean gap between distinct sorted values), the
/// number of gaps, and the number of values present (NaN = missing): every value sorted, the
/// reference of [`precision_of_repeating`] in the tests.
#[cfg(test)]
fn precision_of(values: &[f64]) -> (f64, usize, usize) {
    // Sorted as `f64::total_cmp` sorts, through integer keys with that order (faster to
    // compare).
    let mut keys: Vec<u64> = Vec::with_capacity(values.len());
    keys.extend(
        values
            .iter()
            .filter(|value| !value.is_nan())
            .map(|&value| total_order::key(value)),
    );
    sort_keys(&mut keys);
    precision_of_sorted(&mut keys)
}

/// Values read before [`precision_of_repeating`] judges whether they repeat.
const REPEAT_PROBE: usize = 512;

/// The work space of [`precision_of_repeating`], reused from attribute to attribute: the
/// values other than zeros and missing ones, the keys of the values to sort, and the keys
/// seen so far.
#[derive(Default)]
struct DistinctWork {
    others: Vec<f64>,
    keys: Vec<u64>,
    seen: KeySet,
}

/// [`precision_of`], found from the distinct values alone when values repeat (as counts of
/// words or codes do): zeros (most values of such columns) are set aside in one pass without
/// a branch, the distinct other values are collected in a hash table and only they are
/// sorted. When more than 7 in 8 of the first [`REPEAT_PROBE`] other values are distinct,
/// all the other values are sorted. Either way the same distinct values come out in the same
/// order (with the zeros), so the same precision.
fn precision_of_repeating(values: &[f64], work: &mut DistinctWork) -> (f64, usize, usize) {
    let DistinctWork { others, keys, seen } = work;
    // What `others` holds is overwritten before it is read: it only grows.
    if others.len() < values.len() {
        others.resize(values.len(), 0.0);
    }
    let Split {
        count,
        known,
        negative_zero,
        positive_zero,
    } = split_zeros(values, others);
    keys.clear();
    if negative_zero {
        keys.push(total_order::key(-0.0));
    }
    if positive_zero {
        keys.push(total_order::key(0.0));
    }
    let zero_keys = keys.len();
    keys.extend(others[..count].iter().map(|&value| total_order::key(value)));
    let probe = count.min(REPEAT_PROBE);
    seen.insert_all(&keys[zero_keys..zero_keys + probe]);
    if 8 * seen.len() <= 7 * probe {
        seen.insert_all(&keys[zero_keys + probe..]);
        keys.truncate(zero_keys);
        keys.extend_from_slice(seen.keys());
    }
    seen.clear();
    sort_keys(keys);
    let (precision, distinct_gaps, _) = precision_of_sorted(keys);
    (precision, distinct_gaps, known)
}

/// What [`split_zeros`] found: how many values were neither zero nor missing, how many were
/// known (not missing), and whether -0 and 0 were among them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Split {
    count: usize,
    known: usize,
    negative_zero: bool,
    positive_zero: bool,
}

/// Copies the values that are neither zero nor missing to the start of `out` (at least as long
/// as `values`), in order; the rest of `out` is left unspecified. Four values at a time in
/// AVX2 where it may be used, else one at a time; the same results either way.
fn split_zeros(values: &[f64], out: &mut [f64]) -> Split {
    assert!(out.len() >= values.len());
    #[cfg(target_arch = "x86_64")]
    if vector_cap::allows(vector_cap::Level::Avx2) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { split_zeros_avx2(values, out) };
    }
    split_zeros_portable(values, out, Split::default())
}

/// [`split_zeros`] one value at a time, continuing from what `split` found before (its count
/// values are at the start of `out`).
fn split_zeros_portable(values: &[f64], out: &mut [f64], split: Split) -> Split {
    let Split {
        mut count,
        mut known,
        mut negative_zero,
        mut positive_zero,
    } = split;
    for &value in values {
        out[count] = value;
        // Neither zero nor NaN (missing).
        count += usize::from(value != 0.0 && !value.is_nan());
        known += usize::from(!value.is_nan());
        negative_zero |= value.to_bits() == (-0.0f64).to_bits();
        positive_zero |= value.to_bits() == 0;
    }
    Split {
        count,
        known,
        negative_zero,
        positive_zero,
    }
}

/// For each 4-bit mask of lanes to keep, the 32-bit lane indices that move those 64-bit lanes
/// to the front, in order.
const KEPT_LANES: [[i32; 8]; 16] = {
    let mut table = [[0; 8]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut kept = 0;
        let mut lane = 0;
        while lane < 4 {
            if mask & (1 << lane) != 0 {
                table[mask][2 * kept] = 2 * lane;
                table[mask][2 * kept + 1] = 2 * lane + 1;
                kept += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// [`split_zeros`] in AVX2: four values are compared at a time, and the kept ones moved to
/// the front of a register that is stored where the kept values end (the store may write
/// past them, not past the values read so far).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn split_zeros_avx2(values: &[f64], out: &mut [f64]) -> Split {
    use std::arch::x86_64::{
        __m256i, _mm256_andnot_pd, _mm256_castpd_ps, _mm256_castps_pd, _mm256_cmp_pd,
        _mm256_loadu_pd, _mm256_loadu_si256, _mm256_movemask_pd, _mm256_permutevar8x32_ps,
        _mm256_setzero_pd, _mm256_storeu_pd, _CMP_EQ_OQ, _CMP_ORD_Q,
    };
    /// The number of bits set in each 4-bit mask, four bits each.
    const ONES: u64 = 0x4332_3221_3221_2110;
    assert!(out.len() >= values.len());
    let (mut count, mut known, mut negative_zeros, mut positive_zeros) = (0, 0, 0, 0);
    let chunks = values.chunks_exact(4);
    let rest = chunks.remainder();
    for chunk in chunks {
        // SAFETY: the chunk holds four values.
        let value = unsafe { _mm256_loadu_pd(chunk.as_ptr()) };
        let zero = _mm256_cmp_pd::<_CMP_EQ_OQ>(value, _mm256_setzero_pd());
        let ordered = _mm256_cmp_pd::<_CMP_ORD_Q>(value, value);
        let kept = _mm256_movemask_pd(_mm256_andnot_pd(zero, ordered)) as usize;
        let (zero, sign) = (_mm256_movemask_pd(zero), _mm256_movemask_pd(value));
        negative_zeros |= zero & sign;
        positive_zeros |= zero & !sign;
        known += (ONES >> (4 * _mm256_movemask_pd(ordered))) as usize & 0xF;
        // SAFETY: a row of the table holds eight indices; `count` is at most the number of
        // values before the chunk, so the four lanes stored end within `values.len()`, which
        // `out` holds.
        unsafe {
            let lanes = _mm256_loadu_si256(KEPT_LANES[kept].as_ptr().cast::<__m256i>());
            let packed = _mm256_permutevar8x32_ps(_mm256_castpd_ps(value), lanes);
            _mm256_storeu_pd(out.as_mut_ptr().add(count), _mm256_castps_pd(packed));
        }
        count += (ONES >> (4 * kept)) as usize & 0xF;
    }
    let split = Split {
        count,
        known,
        negative_zero: negative_zeros != 0,
        positive_zero: positive_zeros != 0,
    };
    split_zeros_portable(rest, out, split)
}

/// A set of keys ([`total_order::key`]s of values, never 0): an open-addressing table on the
/// key, at most a quarter full (it doubles as keys come), and the keys in the order they came
/// (for clearing it in time proportional to them). A key goes in without a branch on whether
/// it is new, unless its first slot holds another key.
struct KeySet {
    /// A key per slot, 0 for an empty slot.
    slots: Vec<u64>,
    /// Bits of a hash that pick a slot (the table has `2^bits` slots).
    bits: u32,
    /// The keys in the table, in the order they came, then room for more.
    keys: Vec<u64>,
    /// How many keys the table holds.
    len: usize,
}

impl Default for KeySet {
    fn default() -> Self {
        // Room for the keys of a probe ([`REPEAT_PROBE`]) without growing.
        const BITS: u32 = 12;
        KeySet {
            slots: vec![0; 1 << BITS],
            bits: BITS,
            keys: Vec::new(),
            len: 0,
        }
    }
}

/// Keys [`KeySet::insert_all`] adds between checks of the table's size.
const KEY_BATCH: usize = 64;

impl KeySet {
    /// The first slot to look at for `key`. Fibonacci hashing: the high bits of the product
    /// depend on every bit of the key.
    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    /// Adds every key of `keys`.
    fn insert_all(&mut self, keys: &[u64]) {
        if self.keys.len() < self.len + keys.len() {
            self.keys.resize(self.len + keys.len(), 0);
        }
        for batch in keys.chunks(KEY_BATCH) {
            while 4 * (self.len + KEY_BATCH) > self.slots.len() {
                self.grow();
            }
            for &key in batch {
                let home = self.home(key);
                let slot = self.slots[home];
                if (slot != 0) & (slot != key) {
                    self.insert_further(key, home);
                    continue;
                }
                // The key's own slot, or an empty one: written either way, and counted when
                // it was empty.
                self.slots[home] = key;
                self.keys[self.len] = key;
                self.len += usize::from(slot == 0);
            }
        }
    }

    /// Adds `key`, whose first slot `home` holds another key.
    #[inline(never)]
    fn insert_further(&mut self, key: u64, home: usize) {
        let mask = self.slots.len() - 1;
        let mut index = home;
        loop {
            index = (index + 1) & mask;
            let slot = self.slots[index];
            if slot == key {
                return;
            }
            if slot == 0 {
                self.slots[index] = key;
                self.keys[self.len] = key;
                self.len += 1;
                return;
            }
        }
    }

    /// The slot holding `key`, which is in the table.
    fn slot_of(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        while self.slots[index] != key {
            index = (index + 1) & mask;
        }
        index
    }

    /// The keys in the set, in the order they came.
    fn keys(&self) -> &[u64] {
        &self.keys[..self.len]
    }

    /// How many keys the set holds.
    fn len(&self) -> usize {
        self.len
    }

    /// Empties the set.
    fn clear(&mut self) {
        for index in 0..self.len {
            // Every key is in the table, so its search ends at it (slots emptied before it
            // included: the search looks for the key, not for an empty slot).
            let slot = self.slot_of(self.keys[index]);
            self.slots[slot] = 0;
        }
        self.len = 0;
    }

    /// Doubles the table.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        self.bits += 1;
        self.slots.clear();
        self.slots.resize(1 << self.bits, 0);
        for index in 0..self.len {
            let key = self.keys[index];
            let mask = self.slots.len() - 1;
            let mut place = self.home(key);
            while self.slots[place] != 0 {
                place = (place + 1) & mask;
            }
            self.slots[place] = key;
        }
    }
}

/// [`precision_of`] of the known values' keys, sorted ascending (equal keys are equal values,
/// so any sort of the same values gives the same keys); leaves the distinct keys first.
fn precision_of_sorted(keys: &mut [u64]) -> (f64, usize, usize) {
    let known = keys.len();
    // One key per distinct value, in place and without a branch (equal values, such as -0 and
    // 0, are one value).
    let mut distinct = 0;
    let mut previous = f64::NAN;
    for index in 0..known {
        let key = keys[index];
        let value = total_order::value(key);
        keys[distinct] = key;
        distinct += usize::from(value != previous);
        previous = value;
    }
    // The gaps in sorted order, summed as Weka sums them.
    let distinct_gaps = distinct.saturating_sub(1);
    let mut gap_sum = 0.0;
    for pair in keys[..distinct].windows(2) {
        gap_sum += total_order::value(pair[1]) - total_order::value(pair[0]);
    }
    if distinct_gaps == 0 {
        return (DEFAULT_PRECISION, 0, known);
    }
    (gap_sum / distinct_gaps as f64, distinct_gaps, known)
}

/// Sorts keys ascending: long lists by a radix sort on their high 32 bits, which leaves only
/// keys with equal high halves out of order, then an insertion pass for those.
fn sort_keys(keys: &mut Vec<u64>) {
    const FROM: usize = 4096;
    const BITS: u32 = 11;
    const RADIX: usize = 1 << BITS;
    const SHIFTS: [u32; 3] = [32, 32 + BITS, 32 + 2 * BITS];
    if keys.len() < FROM {
        keys.sort_unstable();
        return;
    }
    let mut counts = vec![[0u32; RADIX]; SHIFTS.len()];
    for &key in keys.iter() {
        for (counts, shift) in counts.iter_mut().zip(SHIFTS) {
            counts[(key >> shift) as usize & (RADIX - 1)] += 1;
        }
    }
    let mut other = vec![0u64; keys.len()];
    for (counts, shift) in counts.iter_mut().zip(SHIFTS) {
        if counts.iter().any(|&count| count as usize == keys.len()) {
            continue;
        }
        let mut start = 0;
        for slot in counts.iter_mut() {
            let count = *slot;
            *slot = start;
            start += count;
        }
        for &key in keys.iter() {
            let place = &mut counts[(key >> shift) as usize & (RADIX - 1)];
            other[*place as usize] = key;
            *place += 1;
        }
        std::mem::swap(keys, &mut other);
    }
    // Keys with equal high halves are next to each other, in any order: insertion sort, unless
    // that takes many moves (many such keys), when the standard sort finishes.
    let mut budget = 4 * keys.len();
    for index in 1..keys.len() {
        let key = keys[index];
        let mut place = index;
        while place > 0 && keys[place - 1] > key {
            keys[place] = keys[place - 1];
            place -= 1;
        }
        keys[place] = key;
        budget = budget.saturating_sub(index - place);
        if budget == 0 {
            keys.sort_unstable();
            return;
        }
    }
}

impl Learner for NaiveBayes {
    /// The cost hint of naive Bayes: the unit of the cost hints.
    fn cost_hint(&self) -> f64 {
        1.0
    }

    fn name(&self) -> &str {
        if self.discretize {
            "naive_bayes_mdl"
        } else {
            "naive_bayes"
        }
    }

    fn describe(&self) -> String {
        format!("naive_bayes(discretize={})", self.discretize)
    }

    fn revision(&self) -> String {
        revision_text("naive_bayes", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        self.fit_sorted(train, None)
    }

    /// Every naive Bayes and C4.5 of a dataset shares its sorted numeric columns (for the
    /// precisions).
    fn shared_key(&self) -> Option<String> {
        Some(sorted_columns::SHARED_KEY.into())
    }

    /// The dataset's numeric columns sorted, when two units or more would read them.
    fn build_shared(
        &self,
        dataset: &data::Dataset,
        hint: ShareHint,
        budget: usize,
    ) -> Option<SharedState> {
        SortedColumns::shared(dataset, hint, budget)
    }

    fn fit_shared(
        &self,
        train: &View,
        _validation: Option<&View>,
        _seed: u64,
        shared: &SharedState,
    ) -> Result<Box<dyn Model>, LearnerError> {
        let sorted = SortedColumns::of(shared);
        self.fit_sorted(train, sorted.as_deref())
    }
}

impl NaiveBayes {
    /// Fits the model, reading the dataset's sorted columns when given (the same model).
    fn fit_sorted(
        &self,
        train: &View,
        sorted: Option<&SortedColumns>,
    ) -> Result<Box<dyn Model>, LearnerError> {
        if train.num_classes() == 0 {
            return Err(LearnerError::Data {
                learner: self.name().into(),
                message: "the schema has no class values".into(),
            });
        }
        let shared = sorted.and_then(|sorted| Some((sorted, sorted.positions(train)?)));
        Ok(Box::new(self.fit_concrete(train, shared.as_ref())))
    }
}

impl NaiveBayes {
    /// Fits the model (the schema must have at least one class).
    fn fit_concrete(
        &self,
        train: &View,
        shared: Option<&(&SortedColumns, Positions)>,
    ) -> NaiveBayesModel {
        let schema = train.schema();
        let num_classes = train.num_classes();
        let class_weights = train.class_counts();
        let total_weight: f64 = class_weights.iter().sum();
        let log_priors = class_weights
            .iter()
            .map(|&w| ((w + 1.0) / (total_weight + num_classes as f64)).ln())
            .collect();
        let discretizer = self.discretize.then(|| MdlDiscretizer::fit(train));
        let classes: Vec<usize> = (0..train.len()).map(|p| train.class(p)).collect();
        let weights: Vec<f64> = (0..train.len()).map(|p| train.weight(p)).collect();
        let mut attributes = Vec::with_capacity(schema.num_attributes());
        let mut distinct = DistinctWork::default();
        let mut group = GaussianGroup::default();
        let rows = Rows {
            classes: &classes,
            weights: &weights,
            num_classes,
        };
        for (attribute, description) in schema.attributes.iter().enumerate() {
            let discrete_values = match &discretizer {
                Some(discretizer) => Some(discretizer.num_values(schema, attribute)),
                None => description.values().map(|values| values.len()),
            };
            if let Some(num_values) = discrete_values {
                attributes.push(discrete_model(
                    train,
                    discretizer.as_ref(),
                    attribute,
                    num_values,
                ));
                continue;
            }
            // The next numeric attribute's values are asked for while this one's are worked
            // on (the first read of a column waits for memory).
            if let Some(next) = (attribute + 1..schema.num_attributes())
                .find(|&next| schema.attributes[next].is_numeric())
            {
                let column = train.column_of(next);
                (0..column.len().min(PREFETCHED))
                    .step_by(8)
                    .for_each(|position| column.prefetch(position));
            }
            let values = group.next_column();
            values.extend(train.column(attribute));
            let presorted = shared.and_then(|(sorted, positions)| {
                sorted.known(attribute, positions, &train.column_of(attribute))
            });
            let (precision, distinct_gaps, known) = match presorted {
                Some(known) => {
                    precision_of_sorted(&mut known.iter().map(|pair| pair.0).collect::<Vec<_>>())
                }
                None => precision_of_repeating(values, &mut distinct),
            };
            round_all_to(values, precision);
            let repeats = 4 * (distinct_gaps + 1) < known;
            if known < values.len() {
                let classes = gaussians(values, rows, precision);
                attributes.push(AttributeModel::Gaussian {
                    precision,
                    classes,
                    repeats,
                });
                continue;
            }
            group.add(attributes.len(), precision);
            attributes.push(AttributeModel::Gaussian {
                precision,
                classes: Vec::new(),
                repeats,
            });
            if group.is_full() {
                group.fit(rows, &mut attributes);
            }
        }
        group.fit(rows, &mut attributes);
        NaiveBayesModel {
            log_priors,
            attributes,
            discretizer,
        }
    }
}

/// The Laplace-corrected log probabilities of a discrete (or discretised) attribute per class.
fn discrete_model(
    train: &View,
    discretizer: Option<&MdlDiscretizer>,
    attribute: usize,
    num_values: usize,
) -> AttributeModel {
    let mut counts = vec![vec![1.0; num_values]; train.num_classes()];
    for position in 0..train.len() {
        let raw = train.value(position, attribute);
        let value = match discretizer {
            Some(discretizer) => discretizer.discrete_value(attribute, raw),
            None => (!raw.is_nan()).then_some(raw as usize),
        };
        if let Some(value) = value {
            counts[train.class(position)][value] += train.weight(position);
        }
    }
    let log_probabilities = counts
        .into_iter()
        .map(|row| {
            let total: f64 = row.iter().sum();
            row.into_iter().map(|count| (count / total).ln()).collect()
        })
        .collect();
    AttributeModel::Discrete(log_probabilities)
}

/// The training rows' classes and weights.
#[derive(Clone, Copy)]
struct Rows<'a> {
    classes: &'a [usize],
    weights: &'a [f64],
    num_classes: usize,
}

/// The values of the next numeric attribute asked for ahead (a start, which the processor's
/// own prefetching carries on).
const PREFETCHED: usize = 2048;

/// Numeric attributes whose normal distributions [`gaussians`] sums together.
const GROUP: usize = 4;

/// Up to [`GROUP`] numeric attributes waiting for their normal distributions: their rounded
/// training values, precisions, and places among the attribute models.
#[derive(Default)]
struct GaussianGroup {
    columns: [Vec<f64>; GROUP],
    waiting: Vec<(usize, f64)>,
}

impl GaussianGroup {
    /// The (emptied) column of the next attribute to wait.
    fn next_column(&mut self) -> &mut Vec<f64> {
        let column = &mut self.columns[self.waiting.len()];
        column.clear();
        column
    }

    /// Makes the attribute whose values are in [`GaussianGroup::next_column`] wait, with its
    /// precision and place.
    fn add(&mut self, place: usize, precision: f64) {
        self.waiting.push((place, precision));
    }

    /// Whether [`GROUP`] attributes wait.
    fn is_full(&self) -> bool {
        self.waiting.len() == GROUP
    }

    /// Puts each waiting attribute's normal distributions in its model; none waits after.
    fn fit(&mut self, rows: Rows, attributes: &mut [AttributeModel]) {
        if self.waiting.is_empty() {
            return;
        }
        let count = self.waiting.len();
        // Missing places are filled with the first column, and their sums dropped.
        let columns: [&[f64]; GROUP] = std::array::from_fn(|slot| {
            self.columns[if slot < count { slot } else { 0 }].as_slice()
        });
        let sums = class_sums(columns, rows);
        for (slot, &(place, precision)) in self.waiting.iter().enumerate() {
            if let AttributeModel::Gaussian { classes, .. } = &mut attributes[place] {
                *classes = sums
                    .iter()
                    .map(|sums| {
                        normal_of_sums(sums[0][slot], sums[1][slot], sums[2][slot], precision)
                    })
                    .collect();
            }
        }
        self.waiting.clear();
    }
}

/// Per class, the weight, weighted sum and weighted sum of squares of each of [`GROUP`]
/// numeric attributes' rounded values, none missing (rows of weight 0 left out). Each is
/// summed in row order as one attribute at a time would sum it, but the attributes' sums
/// advance together, so that they overlap rather than wait for one another.
fn class_sums(columns: [&[f64]; GROUP], rows: Rows) -> Vec<[[f64; GROUP]; 3]> {
    let Rows {
        classes,
        weights,
        num_classes,
    } = rows;
    let count = classes.len().min(weights.len());
    let columns = columns.map(|column| &column[..count]);
    // Per class: the weight (the same for every attribute), the sums and sums of squares.
    let mut sums = vec![(0.0, [0.0; GROUP], [0.0; GROUP]); num_classes];
    // The running sums of the class at hand are kept in local variables, so a run of rows of
    // one class adds without a round trip through memory.
    let mut current_class = 0;
    let mut current = sums[0];
    for row in 0..count {
        let weight = weights[row];
        if weight == 0.0 {
            continue;
        }
        let class = classes[row];
        if class != current_class {
            sums[current_class] = current;
            current_class = class;
            current = sums[class];
        }
        current.0 += weight;
        for (slot, column) in columns.iter().enumerate() {
            let value = column[row];
            let weighted = weight * value;
            current.1[slot] += weighted;
            current.2[slot] += weighted * value;
        }
    }
    sums[current_class] = current;
    sums.into_iter()
        .map(|(weight, sum, sum_of_squares)| [[weight; GROUP], sum, sum_of_squares])
        .collect()
}

/// Each class's normal distribution of a numeric attribute's rounded `values` (some may be
/// missing).
fn gaussians(values: &[f64], rows: Rows, precision: f64) -> Vec<Normal> {
    let Rows {
        classes,
        weights,
        num_classes,
    } = rows;
    // Summed in row order, per class. The running sums of the class at hand are
    // kept in local variables, so a run of rows of one class adds without a round
    // trip through memory.
    let mut sums = vec![(0.0f64, 0.0f64, 0.0f64); num_classes];
    let mut current_class = 0;
    let mut current = sums[0];
    for ((&value, &class), &weight) in values.iter().zip(classes).zip(weights) {
        if value.is_nan() || weight == 0.0 {
            continue;
        }
        if class != current_class {
            sums[current_class] = current;
            current_class = class;
            current = sums[class];
        }
        current.0 += weight;
        current.1 += weight * value;
        current.2 += weight * value * value;
    }
    sums[current_class] = current;
    sums.into_iter()
        .map(|(weight, sum, sum_of_squares)| normal_of_sums(weight, sum, sum_of_squares, precision))
        .collect()
}

/// The normal distribution of one class of a numeric attribute from its values' weight,
/// weighted sum and weighted sum of squares.
fn normal_of_sums(weight: f64, sum: f64, sum_of_squares: f64, precision: f64) -> Normal {
    let floor = precision / 6.0;
    if weight <= 0.0 {
        return Normal::new(0.0, floor, precision);
    }
    let mean = sum / weight;
    let deviation = ((sum_of_squares - mean * sum).abs() / weight).sqrt();
    let standard_deviation = if deviation > 1e-10 {
        deviation.max(floor)
    } else {
        floor
    };
    Normal::new(mean, standard_deviation, precision)
}

impl NaiveBayesModel {
    /// Log of the floored likelihood of one attribute value under one class.
    fn log_likelihood(&self, attribute: usize, class: usize, raw: f64) -> Option<f64> {
        let likelihood_floor = LIKELIHOOD_FLOOR.ln();
        match &self.attributes[attribute] {
            AttributeModel::Discrete(log_probabilities) => {
                let value = match &self.discretizer {
                    Some(discretizer) => discretizer.discrete_value(attribute, raw)?,
                    None if raw.is_nan() => return None,
                    None => raw as usize,
                };
                let log_probability = log_probabilities[class].get(value).copied()?;
                Some(log_probability.max(likelihood_floor))
            }
            AttributeModel::Gaussian {
                precision, classes, ..
            } => {
                if raw.is_nan() {
                    return None;
                }
                Some(classes[class].log_likelihood(round_to(raw, *precision), *precision))
            }
        }
    }

    /// Adds to each row's `scores` (row-major, one per class) the floored log-likelihoods of
    /// its value of the discrete `attribute` under every class.
    fn add_discrete_scores(&self, attribute: usize, test: &Features, scores: &mut [f64]) {
        let num_classes = self.log_priors.len();
        for (raw, row) in test.column(attribute).zip(scores.chunks_mut(num_classes)) {
            for (class, score) in row.iter_mut().enumerate() {
                if let Some(log_likelihood) = self.log_likelihood(attribute, class, raw) {
                    *score += log_likelihood;
                }
            }
        }
    }
}

/// The work space of the Gaussian attributes' log-likelihoods in
/// [`NaiveBayesModel::predict_proba`], reused from attribute to attribute: the test values'
/// rounded quotients by the precision (then the rounded values themselves where the quotients
/// are too far apart for [`add_by_quotient`]), each class's log-likelihoods by the
/// narrow-interval series, the other values' log-likelihoods of every class (`terms`: where
/// values repeat, those of each distinct value, starting where `seen` says), and the work
/// space of [`add_by_quotient`].
struct GaussianScores {
    rounded: Vec<f64>,
    narrow: Vec<Vec<f64>>,
    terms: Vec<f64>,
    seen: StartsByValue,
    by_quotient: ByQuotient,
}

/// The span of rounded quotients [`add_by_quotient`] takes, as so many per test row, plus
/// [`QUOTIENT_SPAN_BASE`]: the span is about the number of distinct training values (the
/// precision is their mean gap), so it is seldom larger.
const QUOTIENT_SPAN_PER_ROW: usize = 4;
/// See [`QUOTIENT_SPAN_PER_ROW`].
const QUOTIENT_SPAN_BASE: usize = 4096;

impl GaussianScores {
    /// Room for `rows` test values and `num_classes` classes.
    fn new(rows: usize, num_classes: usize) -> Self {
        GaussianScores {
            rounded: Vec::with_capacity(rows),
            narrow: vec![Vec::with_capacity(rows); num_classes],
            terms: Vec::new(),
            seen: StartsByValue::new(),
            by_quotient: ByQuotient::default(),
        }
    }

    /// Adds to each row's `scores` (row-major, one per class) the log-likelihoods of its test
    /// value in `values` under the `classes`' normal distributions, once rounded to
    /// `precision`.
    fn add(
        &mut self,
        values: impl Iterator<Item = f64>,
        precision: f64,
        classes: &[Normal],
        repeats: bool,
        scores: &mut [f64],
    ) {
        let GaussianScores {
            rounded,
            narrow,
            terms,
            seen,
            by_quotient,
        } = self;
        rounded.clear();
        rounded.extend(values);
        let range = quotients_all(rounded, precision);
        let most = QUOTIENT_SPAN_BASE + QUOTIENT_SPAN_PER_ROW * rounded.len();
        if let Some(span) = quotient_span(range, most) {
            let likelihoods = Likelihoods { classes, precision };
            return add_by_quotient(rounded, span, likelihoods, by_quotient, narrow, scores);
        }
        // As `round_to` rounds.
        rounded.iter_mut().for_each(|value| *value *= precision);
        if repeats {
            add_by_value(rounded, classes, precision, seen, terms, scores);
        } else {
            add_by_row(rounded, classes, precision, narrow, terms, scores);
        }
    }
}

/// The known values among some rounded quotients: the smallest, the number of integers from
/// it to the largest, and whether some are missing.
#[derive(Clone, Copy)]
struct QuotientSpan {
    low: f64,
    span: usize,
    missing: bool,
}

/// The [`QuotientSpan`] of quotients with this smallest and largest known one and whether
/// some are missing (from [`quotients_all`]), when one is known and the span is at most
/// `most`.
fn quotient_span((low, high, missing): (f64, f64, bool), most: usize) -> Option<QuotientSpan> {
    // Below 2^52 in magnitude every integer is a value, so offsets and the quotients they
    // stand for are exact. Also false for no known value, or an infinite one.
    const TWO_TO_52: f64 = 4_503_599_627_370_496.0;
    let within = -TWO_TO_52 < low && high < TWO_TO_52;
    (within && high - low < most.min(u32::MAX as usize) as f64).then(|| QuotientSpan {
        low,
        span: (high - low) as usize + 1,
        missing,
    })
}

/// One numeric attribute's normal distributions, one per class, and its precision.
#[derive(Clone, Copy)]
struct Likelihoods<'a> {
    classes: &'a [Normal],
    precision: f64,
}

/// The work space of [`add_by_quotient`]: each row's quotient's offset from the smallest, the
/// offsets present, the distinct rounded values, and the log-likelihoods of every class by
/// offset.
#[derive(Default)]
struct ByQuotient {
    offsets: Vec<u32>,
    present: Vec<bool>,
    distinct_offsets: Vec<u32>,
    distinct: Vec<f64>,
    terms: Vec<f64>,
}

/// Adds to each row's `scores` (row-major, one per class) the log-likelihoods of its value,
/// given as its rounded quotient by the precision (`quotients`, within `span`), under every
/// class: each distinct quotient's once, the value it stands for rounded as [`round_to`]
/// rounds (0 for -0, which has the same likelihoods), by the narrow-interval series (into
/// `narrow`) where it applies, else one by one; then every row's from a table indexed by its
/// quotient's offset.
fn add_by_quotient(
    quotients: &[f64],
    span: QuotientSpan,
    likelihoods: Likelihoods,
    work: &mut ByQuotient,
    narrow: &mut [Vec<f64>],
    scores: &mut [f64],
) {
    let Likelihoods { classes, precision } = likelihoods;
    let num_classes = classes.len();
    let QuotientSpan { low, span, missing } = span;
    // NaN casts to offset 0, the smallest known quotient's.
    work.offsets.clear();
    work.offsets
        .extend(quotients.iter().map(|&quotient| (quotient - low) as u32));
    work.present.clear();
    work.present.resize(span, false);
    let present = work.present.as_mut_slice();
    for &offset in &work.offsets {
        present[offset as usize] = true;
    }
    // The present offsets and the values they stand for, in order, without a branch: every
    // offset is written, and kept when present.
    if work.distinct.len() < span {
        work.distinct.resize(span, 0.0);
        work.distinct_offsets.resize(span, 0);
    }
    let mut count = 0;
    for (offset, &present) in present.iter().enumerate() {
        work.distinct_offsets[count] = offset as u32;
        work.distinct[count] = (low + offset as f64) * precision;
        count += usize::from(present);
    }
    let distinct = &work.distinct[..count];
    for (normal, narrow) in classes.iter().zip(narrow.iter_mut()) {
        normal.narrow_log_likelihoods(distinct, narrow);
    }
    // Only the present offsets' terms are read: the others keep what they held.
    if work.terms.len() < span * num_classes {
        work.terms.resize(span * num_classes, 0.0);
    }
    let terms = work.terms.as_mut_slice();
    for (index, (&value, &offset)) in distinct.iter().zip(&work.distinct_offsets).enumerate() {
        let start = offset as usize * num_classes;
        for ((normal, narrow), term) in classes
            .iter()
            .zip(narrow.iter())
            .zip(&mut terms[start..start + num_classes])
        {
            let narrow = narrow[index];
            *term = if narrow.is_nan() {
                normal.log_likelihood(value, precision)
            } else {
                narrow
            };
        }
    }
    let offsets = work.offsets.as_slice();
    if missing {
        for ((&quotient, &offset), row) in quotients
            .iter()
            .zip(offsets)
            .zip(scores.chunks_exact_mut(num_classes))
        {
            if !quotient.is_nan() {
                let start = offset as usize * num_classes;
                add_terms(row, &terms[start..start + num_classes]);
            }
        }
    } else if num_classes == 2 {
        add_offset_terms::<2>(offsets, terms, scores);
    } else {
        for (&offset, row) in offsets.iter().zip(scores.chunks_exact_mut(num_classes)) {
            let start = offset as usize * num_classes;
            add_terms(row, &terms[start..start + num_classes]);
        }
    }
}

/// Adds to each row of `scores` (`N` classes a row) the terms at its offset in `terms`.
#[inline(always)]
fn add_offset_terms<const N: usize>(offsets: &[u32], terms: &[f64], scores: &mut [f64]) {
    let (terms, _) = terms.as_chunks::<N>();
    let (rows, _) = scores.as_chunks_mut::<N>();
    for (&offset, row) in offsets.iter().zip(rows) {
        let terms = &terms[offset as usize];
        for (score, term) in row.iter_mut().zip(terms) {
            *score += term;
        }
    }
}

/// Adds to each row's `scores` (row-major, one per class) the log-likelihoods of its `rounded`
/// value under every class of `classes`, where values seldom repeat: by the narrow-interval
/// series for all rows at once (in vector instructions, into `narrow`) where it applies to
/// every class, the others one by one (once per run of equal values, in `terms`); the series
/// gives the same results where it applies.
fn add_by_row(
    rounded: &[f64],
    classes: &[Normal],
    precision: f64,
    narrow: &mut [Vec<f64>],
    terms: &mut Vec<f64>,
    scores: &mut [f64],
) {
    let num_classes = classes.len();
    let series_possible = classes.iter().all(Normal::series_possible);
    if series_possible {
        for (normal, narrow) in classes.iter().zip(narrow.iter_mut()) {
            normal.narrow_log_likelihoods(rounded, narrow);
        }
    }
    let mut last_value = f64::NAN;
    for (position, (&value, row)) in rounded
        .iter()
        .zip(scores.chunks_exact_mut(num_classes))
        .enumerate()
    {
        if series_possible && narrow.iter().all(|narrow| !narrow[position].is_nan()) {
            for (score, narrow) in row.iter_mut().zip(narrow.iter()) {
                *score += narrow[position];
            }
            continue;
        }
        if value.is_nan() {
            continue;
        }
        if value.to_bits() != last_value.to_bits() {
            terms.clear();
            push_terms(classes, value, precision, terms);
            last_value = value;
        }
        for (score, term) in row.iter_mut().zip(terms.iter()) {
            *score += term;
        }
    }
}

/// Adds to each row's `scores` the log-likelihoods of its `rounded` value under every class of
/// `classes`, computed once per distinct value (kept in `terms`, found through `seen`).
fn add_by_value(
    rounded: &[f64],
    classes: &[Normal],
    precision: f64,
    seen: &mut StartsByValue,
    terms: &mut Vec<f64>,
    scores: &mut [f64],
) {
    seen.clear();
    terms.clear();
    let num_classes = classes.len();
    for (&value, row) in rounded.iter().zip(scores.chunks_exact_mut(num_classes)) {
        if value.is_nan() {
            continue;
        }
        let start = seen.get_or_insert(value, || push_terms(classes, value, precision, terms));
        add_terms(row, &terms[start..start + num_classes]);
    }
}

/// Adds each class's term to its score; two classes without a loop (most datasets).
#[inline(always)]
fn add_terms(scores: &mut [f64], terms: &[f64]) {
    if let ([score0, score1], [term0, term1]) = (&mut *scores, terms) {
        *score0 += term0;
        *score1 += term1;
        return;
    }
    for (score, term) in scores.iter_mut().zip(terms) {
        *score += term;
    }
}

/// Appends every class's log-likelihood of the rounded `value` to `terms`; returns where they
/// start.
#[inline]
fn push_terms(classes: &[Normal], value: f64, precision: f64, terms: &mut Vec<f64>) -> usize {
    let start = terms.len();
    terms.extend(
        classes
            .iter()
            .map(|normal| normal.log_likelihood(value, precision)),
    );
    start
}

/// The class probabilities of `rows` rows of log-scores (row-major, `num_classes` a row): each
/// row's exponentials, shifted by its largest score, over their sum.
fn probabilities_of_scores(scores: &[f64], rows: usize, num_classes: usize) -> Probabilities {
    let mut probabilities = Probabilities::zeros(rows, num_classes);
    for (position, scores) in scores.chunks(num_classes).enumerate() {
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let row = probabilities.row_mut(position);
        let mut total = 0.0;
        for (out, &score) in row.iter_mut().zip(scores) {
            *out = (score - max).exp();
            total += *out;
        }
        for out in row.iter_mut() {
            *out /= total;
        }
    }
    probabilities
}

impl Model for NaiveBayesModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let num_classes = self.log_priors.len();
        // Log-scores, row-major; attribute by attribute, so each row still sums its terms in
        // attribute order after its prior.
        let mut scores = Vec::with_capacity(test.len() * num_classes);
        for _ in 0..test.len() {
            scores.extend_from_slice(&self.log_priors);
        }
        let mut gaussian = GaussianScores::new(test.len(), num_classes);
        for attribute in 0..self.attributes.len() {
            match &self.attributes[attribute] {
                AttributeModel::Gaussian {
                    precision,
                    classes,
                    repeats,
                } => gaussian.add(
                    test.column(attribute),
                    *precision,
                    classes,
                    *repeats,
                    &mut scores,
                ),
                AttributeModel::Discrete(_) => {
                    self.add_discrete_scores(attribute, test, &mut scores);
                }
            }
        }
        Ok(probabilities_of_scores(&scores, test.len(), num_classes))
    }

    fn explain(&self, schema: &Schema) -> String {
        let mut text = String::from("naive Bayes\nclass priors:");
        for (class, log_prior) in self.log_priors.iter().enumerate() {
            text += &format!(" {}={:.4}", schema.class_values[class], log_prior.exp());
        }
        text.push('\n');
        for (attribute, model) in self.attributes.iter().enumerate() {
            let name = &schema.attributes[attribute].name;
            match model {
                AttributeModel::Discrete(_) => match self
                    .discretizer
                    .as_ref()
                    .and_then(|d| d.cut_points(attribute))
                {
                    Some(cuts) => text += &format!("{name}: MDL cut points {cuts:?}\n"),
                    None => text += &format!("{name}: discrete, Laplace-corrected counts\n"),
                },
                AttributeModel::Gaussian {
                    precision, classes, ..
                } => {
                    text += &format!("{name}: normal, precision {precision:.6}");
                    for (class, normal) in classes.iter().enumerate() {
                        text += &format!(
                            "; {}: mean {:.4} sd {:.4}",
                            schema.class_values[class], normal.mean, normal.standard_deviation
                        );
                    }
                    text.push('\n');
                }
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use data::{Attribute, Dataset};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn two_class_schema(attribute: Attribute) -> Schema {
        Schema {
            attributes: vec![attribute],
            class_name: "class".into(),
            class_values: vec!["yes".into(), "no".into()],
        }
    }

    #[test]
    fn laplace_corrected_counts_by_hand() {
        // (a, yes), (a, yes), (b, yes), (b, no). Priors (3+1)/6 and (1+1)/6; P(a|yes) = 3/5,
        // P(a|no) = 1/3; so P(yes | a) = (2/5) / (2/5 + 1/9) = 18/23.
        let schema = two_class_schema(Attribute::nominal("v", vec!["a".into(), "b".into()]));
        let dataset = Dataset::new(
            "toy",
            schema,
            vec![vec![0.0, 0.0, 1.0, 1.0]],
            vec![0, 0, 0, 1],
            None,
        )
        .unwrap();
        let model = NaiveBayes::new(false).fit(&dataset.view(), 0).unwrap();
        let probabilities = model
            .predict_proba(&Features::of(&dataset, vec![0]))
            .expect("prediction");
        assert!((probabilities.row(0)[0] - 18.0 / 23.0).abs() < 1e-15);
    }

    #[test]
    fn precision_is_the_mean_gap_between_distinct_values() {
        assert_eq!(precision_of(&[4.0, 1.0, f64::NAN, 2.0, 2.0]), (1.5, 2, 4));
        assert_eq!(precision_of(&[7.0, 7.0]), (DEFAULT_PRECISION, 0, 2));
        assert_eq!(precision_of(&[]), (DEFAULT_PRECISION, 0, 0));
        // -0 and 0 are one value; the gaps are summed in ascending order.
        assert_eq!(precision_of(&[0.5, 0.0, -1.0, -0.0]), (0.75, 2, 4));
    }

    #[test]
    fn starts_by_value_forgets_earlier_rounds() {
        let mut table = StartsByValue::new();
        let mut next = 0;
        let mut start = |table: &mut StartsByValue, value: f64| {
            table.get_or_insert(value, || {
                next += 1;
                next
            })
        };
        // Colliding or not, each value keeps its first start within a round.
        let values = [0.0, -0.0, 1.5, 0.0, 7.25, 1.5, 1e300, 0.0];
        let starts: Vec<usize> = values.iter().map(|&v| start(&mut table, v)).collect();
        assert_eq!(starts, [1, 2, 3, 1, 4, 3, 5, 1]);
        table.clear();
        assert_eq!(start(&mut table, 1.5), 6);
        assert_eq!(start(&mut table, 1.5), 6);
        // The round counter wraps without reviving old slots.
        table.round = u32::MAX;
        table.clear();
        assert_eq!(start(&mut table, 1.5), 7);
    }

    #[test]
    fn starts_by_value_keeps_starts_as_it_grows() {
        // Far more values than the first 64 slots: every value keeps its first start through
        // the doublings, and a new round after a growth starts empty.
        let mut table = StartsByValue::new();
        let values: Vec<f64> = (0..3000).map(|i| f64::from(i % 1500) * 0.01).collect();
        let starts: Vec<usize> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| table.get_or_insert(v, || i))
            .collect();
        let expected: Vec<usize> = (0..3000).map(|i| i % 1500).collect();
        assert_eq!(starts, expected);
        table.clear();
        assert_eq!(table.get_or_insert(0.5, || 9), 9);
    }

    #[test]
    fn precision_from_distinct_values_equals_the_sorted_one() {
        // Repeating values (the hash pass), values that seldom repeat (the full sort after the
        // probe), missing values, -0 and 0: the same precision, gaps and count as sorting all.
        let mut generator = ChaCha8Rng::seed_from_u64(11);
        let columns: Vec<Vec<f64>> = vec![
            (0..3000)
                .map(|_| f64::from(generator.next_u32() % 40) * 0.03)
                .collect(),
            (0..3000)
                .map(|_| (generator.next_u64() % 1_000_000) as f64 * 1e-3)
                .collect(),
            (0..2000)
                .map(|i| match i % 7 {
                    0 => f64::NAN,
                    1 => -0.0,
                    2 => 0.0,
                    _ => f64::from(generator.next_u32() % 9) - 4.0,
                })
                .collect(),
            vec![f64::NAN; 600],
            vec![],
        ];
        let mut work = DistinctWork::default();
        for column in columns {
            let ours = precision_of_repeating(&column, &mut work);
            let sorted = precision_of(&column);
            assert_eq!(ours.0.to_bits(), sorted.0.to_bits());
            assert_eq!((ours.1, ours.2), (sorted.1, sorted.2));
        }
    }

    #[test]
    fn long_key_lists_sort_as_the_standard_sort() {
        let mut generator = ChaCha8Rng::seed_from_u64(7);
        // Distinct keys; keys sharing their high halves (the insertion pass); so many of those
        // that the standard sort takes over; and a short list.
        let lists: Vec<Vec<u64>> = vec![
            (0..9000).map(|_| generator.next_u64()).collect(),
            (0..9000)
                .map(|_| ((generator.next_u64() % 50) << 32) | (generator.next_u64() % 1000))
                .collect(),
            (0..9000)
                .map(|_| (5 << 40) | (generator.next_u64() & 0xffff_ffff))
                .collect(),
            (0..100).map(|_| generator.next_u64()).collect(),
        ];
        for list in lists {
            let mut ours = list.clone();
            sort_keys(&mut ours);
            let mut expected = list;
            expected.sort_unstable();
            assert_eq!(ours, expected);
        }
    }

    #[test]
    fn narrow_likelihoods_in_bulk_equal_one_at_a_time() {
        // Standard deviation 1, precisions from wide (no series) to very narrow, values out to
        // the far tails: the bulk results are the single ones, bit for bit, where they apply.
        for precision in [1e-6, 1e-4, 3e-3, 0.02, 0.1, 0.5] {
            let normal = Normal::new(0.3, 1.0, precision);
            let values: Vec<f64> = (-4000..4000)
                .map(|i| round_to(f64::from(i) * 0.01 + 0.001, precision))
                .chain([f64::NAN])
                .collect();
            let mut bulk = Vec::new();
            normal.narrow_log_likelihoods(&values, &mut bulk);
            let mut applied = 0;
            for (&value, &narrow) in values.iter().zip(&bulk) {
                if !narrow.is_nan() {
                    applied += 1;
                    let single = normal.log_likelihood(value, precision);
                    assert_eq!(narrow.to_bits(), single.to_bits(), "{value} {precision}");
                }
            }
            assert!(bulk.last().unwrap().is_nan());
            assert_eq!(applied > 0, precision <= 0.02, "{precision}: {applied}");
        }
    }

    #[test]
    fn narrow_intervals_match_mpmath() {
        // (value, precision, ln(Phi(value + precision/2) - Phi(value - precision/2))) for a
        // standard normal, by mpmath at 50 digits from the same doubles.
        let cases = [
            (0.5, 0.001, -7.951_693_843_436_809),
            (-2.25, 0.01, -8.055_341_792_261_786),
            (7.0, 0.002, -31.633_538_631_641_28),
            (0.0, 1e-6, -14.734_449_091_168_99),
            (1.0, 0.05, -4.414_670_813_268_305),
            (-12.5, 0.0001, -88.254_278_840_493_36),
        ];
        for (value, precision, expected) in cases {
            let ours = Normal::new(0.0, 1.0, precision).log_likelihood(value, precision);
            assert!(
                (ours - expected).abs() <= 1e-13,
                "{value} {precision}: {ours}"
            );
        }
    }

    #[test]
    fn rounding_agrees_with_the_standard_library() {
        let values = [
            -2.5,
            -1.5,
            -0.5,
            -0.0,
            0.0,
            0.5,
            1.5,
            2.5,
            0.49999999999999994,
            -3.7,
            1e300,
            -1e-300,
            4_503_599_627_370_497.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            7.25,
            7.75,
        ];
        for value in values {
            let ours = round_ties_even(value);
            assert_eq!(ours.to_bits(), value.round_ties_even().to_bits(), "{value}");
        }
        assert!(round_ties_even(f64::NAN).is_nan());
        // The vector rounding rounds as one value at a time does.
        let mut all = values.to_vec();
        all.push(f64::NAN);
        round_all_to(&mut all, 0.5);
        for (rounded, value) in all.iter().zip(values) {
            assert_eq!(rounded.to_bits(), round_to(value, 0.5).to_bits(), "{value}");
        }
        assert!(all.last().unwrap().is_nan());
    }

    #[test]
    fn gaussian_rounds_to_precision_ties_to_even() {
        // Values 1 and 3: precision 2; 1/2 = 0.5 rounds to 0 and 3/2 = 1.5 to 2, so the rounded
        // values are 0 and 4: mean 2, standard deviation 2 (divisor = weight). The likelihood of
        // x = 2 is Phi(0.5) - Phi(-0.5) = 0.38292492254802624 (scipy.stats.norm.cdf).
        // Class "no" has no rows: mean 0, standard deviation 2/6; the likelihood of x = 0 is
        // Phi(3) - Phi(-3) = 0.9973002039367398 (scipy).
        let schema = two_class_schema(Attribute::numeric("x"));
        let dataset = Dataset::new("toy", schema, vec![vec![1.0, 3.0]], vec![0, 0], None).unwrap();
        let concrete = NaiveBayes::new(false).fit_concrete(&dataset.view(), None);
        let yes = concrete.log_likelihood(0, 0, 2.0).unwrap().exp();
        assert!((yes - 0.38292492254802624).abs() < 1e-15, "{yes}");
        let no = concrete.log_likelihood(0, 1, 0.0).unwrap().exp();
        assert!((no - 0.9973002039367398).abs() < 1e-15, "{no}");
    }

    /// Values of the naive Bayes tests: repeating round numbers of both signs, zeros of both
    /// signs, missing values (when `missing`) and values that seldom repeat.
    fn awkward_values(generator: &mut ChaCha8Rng, count: usize, missing: bool) -> Vec<f64> {
        (0..count)
            .map(|_| match generator.next_u32() % 8 {
                0 | 1 => 0.0,
                2 => -0.0,
                3 if missing => f64::NAN,
                4 => (generator.next_u32() % 1000) as f64 * 1e-3 - 0.2,
                _ => f64::from(generator.next_u32() % 40) * 0.05,
            })
            .collect()
    }

    #[test]
    fn zeros_split_in_vectors_as_one_at_a_time() {
        let mut generator = ChaCha8Rng::seed_from_u64(3);
        for count in (0..40).chain([1000, 1003]) {
            let values = awkward_values(&mut generator, count, count % 2 == 0);
            let mut ours = vec![0.0; count];
            let mut portable = vec![0.0; count];
            let split = split_zeros(&values, &mut ours);
            assert_eq!(
                split,
                split_zeros_portable(&values, &mut portable, Split::default())
            );
            let kept = |out: &[f64]| -> Vec<u64> {
                out[..split.count].iter().map(|v| v.to_bits()).collect()
            };
            assert_eq!(kept(&ours), kept(&portable), "{count}");
            // Neither zero nor missing, in order.
            let expected: Vec<u64> = values
                .iter()
                .filter(|v| **v != 0.0 && !v.is_nan())
                .map(|v| v.to_bits())
                .collect();
            assert_eq!(kept(&ours), expected);
        }
    }

    #[test]
    fn key_sets_hold_each_key_once_through_growth_and_clearing() {
        let mut generator = ChaCha8Rng::seed_from_u64(5);
        let mut set = KeySet::default();
        // Few keys, keys sharing their first slot, and more keys than the first table holds.
        let lists: Vec<Vec<u64>> = vec![
            (0..500).map(|_| 1 + generator.next_u64() % 30).collect(),
            (0..500)
                .map(|_| (generator.next_u64() % 20 + 1) << 58)
                .collect(),
            (0..20_000)
                .map(|_| 1 + generator.next_u64() % 9000)
                .collect(),
            vec![],
        ];
        for list in lists {
            set.insert_all(&list[..list.len() / 3]);
            set.insert_all(&list[list.len() / 3..]);
            let mut ours = set.keys().to_vec();
            ours.sort_unstable();
            let mut expected = list.clone();
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(ours, expected);
            assert_eq!(set.len(), expected.len());
            set.clear();
            assert!(set.slots.iter().all(|&slot| slot == 0));
        }
    }

    #[test]
    fn grouped_class_sums_equal_one_attribute_at_a_time() {
        let mut generator = ChaCha8Rng::seed_from_u64(9);
        let count = 700;
        let classes: Vec<usize> = (0..count)
            .map(|_| generator.next_u32() as usize % 3)
            .collect();
        let weights: Vec<f64> = (0..count)
            .map(|row| {
                if row % 17 == 0 {
                    0.0
                } else {
                    0.5 + (row % 5) as f64
                }
            })
            .collect();
        let rows = Rows {
            classes: &classes,
            weights: &weights,
            num_classes: 4,
        };
        let columns: Vec<Vec<f64>> = (0..GROUP)
            .map(|_| awkward_values(&mut generator, count, false))
            .collect();
        let sums = class_sums(std::array::from_fn(|slot| columns[slot].as_slice()), rows);
        for (slot, column) in columns.iter().enumerate() {
            let precision = 0.05 * (slot + 1) as f64;
            let single = gaussians(column, rows, precision);
            for (class, normal) in single.iter().enumerate() {
                let [weight, sum, squares] = sums[class];
                let grouped = normal_of_sums(weight[slot], sum[slot], squares[slot], precision);
                assert_eq!(grouped.mean.to_bits(), normal.mean.to_bits());
                let deviation = grouped.standard_deviation;
                assert_eq!(deviation.to_bits(), normal.standard_deviation.to_bits());
            }
        }
    }

    #[test]
    fn negative_zero_has_the_likelihoods_of_zero() {
        // The quotient table computes the likelihoods of 0 for -0.
        for (mean, deviation, precision) in [(0.0, 1.0, 0.01), (0.0, 0.3, 0.2), (0.7, 2.0, 1e-4)] {
            let normal = Normal::new(mean, deviation, precision);
            let zero = normal.log_likelihood(0.0, precision);
            assert_eq!(
                normal.log_likelihood(-0.0, precision).to_bits(),
                zero.to_bits()
            );
            let (mut positive, mut negative) = (Vec::new(), Vec::new());
            normal.narrow_log_likelihoods(&[0.0], &mut positive);
            normal.narrow_log_likelihoods(&[-0.0], &mut negative);
            assert_eq!(positive[0].to_bits(), negative[0].to_bits());
        }
    }

    #[test]
    fn scores_by_quotient_equal_those_by_value_and_by_row() {
        let mut generator = ChaCha8Rng::seed_from_u64(13);
        let classes = [
            Normal::new(0.3, 0.4, 0.05),
            Normal::new(-0.1, 1.5, 0.05),
            Normal::new(2.0, 0.02, 0.05),
        ];
        for (precision, missing) in [(0.05, true), (0.05, false), (1e-3, false)] {
            let classes: Vec<Normal> = classes
                .iter()
                .map(|normal| Normal::new(normal.mean, normal.standard_deviation, precision))
                .collect();
            for num_classes in [2, 3] {
                let classes = &classes[..num_classes];
                let values = awkward_values(&mut generator, 900, missing);
                let start: Vec<f64> = (0..values.len() * num_classes)
                    .map(|i| -(i as f64))
                    .collect();
                let mut quotients = values.clone();
                let range = quotients_all(&mut quotients, precision);
                let span = quotient_span(range, usize::MAX).expect("a known value");
                assert_eq!(span.missing, missing);
                let mut ours = start.clone();
                let mut narrow = vec![Vec::new(); num_classes];
                let likelihoods = Likelihoods { classes, precision };
                let mut work = ByQuotient::default();
                add_by_quotient(
                    &quotients,
                    span,
                    likelihoods,
                    &mut work,
                    &mut narrow,
                    &mut ours,
                );
                let rounded: Vec<f64> = values.iter().map(|&v| round_to(v, precision)).collect();
                let (mut by_value, mut by_row) = (start.clone(), start);
                let mut terms = Vec::new();
                let mut seen = StartsByValue::new();
                add_by_value(
                    &rounded,
                    classes,
                    precision,
                    &mut seen,
                    &mut terms,
                    &mut by_value,
                );
                add_by_row(
                    &rounded,
                    classes,
                    precision,
                    &mut narrow,
                    &mut terms,
                    &mut by_row,
                );
                let bits =
                    |scores: &[f64]| -> Vec<u64> { scores.iter().map(|s| s.to_bits()).collect() };
                assert_eq!(bits(&ours), bits(&by_value), "{precision} {num_classes}");
                assert_eq!(bits(&ours), bits(&by_row), "{precision} {num_classes}");
            }
        }
    }
}
