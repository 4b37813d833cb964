//! The linear perceptron of Aslan et al. (2009): one linear layer with softmax outputs, trained
//! by mini-batch gradient descent on the (instance-weighted) cross-entropy.
//!
//! Inputs come from [`crate::encoding::Encoder`] with standardisation: nominal attributes as
//! indicator columns (one for a two-valued attribute), missing values replaced by the training
//! mean (for a nominal attribute, the training share of each value), and every column
//! standardised with the training rows' weighted mean and standard deviation (a constant
//! column becomes 0). Weights start at small
//! seeded normal values; rows are shuffled with a seeded generator every epoch.

use data::{Features, Schema, View};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use crate::encoding::Encoder;
use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::tune_space::TuneSpace;

/// The perceptron's training parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct PerceptronConfig {
    /// Gradient step size.
    pub learning_rate: f64,
    /// Passes over the training rows.
    pub epochs: usize,
    /// Rows per gradient step (a batch at least as large as the data is full-batch descent).
    pub batch_size: usize,
}

impl Default for PerceptronConfig {
    /// The spec's defaults: learning rate 0.1, 100 epochs, batches of 32.
    fn default() -> Self {
        PerceptronLearner::from_params(Params::defaults(&spec()))
            .expect("the spec's defaults are valid")
            .config
    }
}

/// Revision of the perceptron implementation: bump it whenever its outputs change.
const REVISION: u32 = 2;

/// The `perceptron` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "perceptron",
        description: "linear perceptron: one softmax layer trained by mini-batch gradient descent on cross-entropy",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::real("learning_rate", 0.1, 1e-12, 100.0, "gradient step size")
            .tuned(TuneSpace::Reals(&[0.01, 0.1, 1.0])),
            ParameterSpec::integer(
                "epochs",
                100,
                1,
                MAX_EPOCHS,
                "passes over the training rows",
            )
            .tuned(TuneSpace::Integers(&[50, 100, 200])),
            ParameterSpec::integer(
                "batch_size",
                32,
                1,
                usize::MAX >> 1,
                "rows per gradient step (at least the number of rows: full-batch descent)",
            ),
        ],
        capabilities: Capabilities::ALL,
        build,
    }
}

/// The linear perceptron learner (`kind = "perceptron"`).
#[derive(Clone, Debug)]
pub struct PerceptronLearner {
    config: PerceptronConfig,
}

/// Writes softmax(weights * inputs + bias) into `out` (`weights` row-major, one row per class).
fn softmax_scores(weights: &[f64], bias: &[f64], inputs: &[f64], out: &mut [f64]) {
    let width = inputs.len();
    for (class, score) in out.iter_mut().enumerate() {
        let row = &weights[class * width..(class + 1) * width];
        *score = bias[class] + row.iter().zip(inputs).map(|(w, x)| w * x).sum::<f64>();
    }
    let largest = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for score in out.iter_mut() {
        // exp(0) is exactly 1: the largest score needs no call.
        *score = if *score == largest {
            1.0
        } else {
            (*score - largest).exp()
        };
        total += *score;
    }
    out.iter_mut().for_each(|s| *s /= total);
}

/// The softmax outputs of encoded rows (`inputs` row-major, `width` values a row) into `out`
/// (row-major, one value per class), each row as [`softmax_scores`] computes it; with two
/// classes, by [`two_class_probabilities`] (the same operations in the same order, so the same
/// bits).
fn score_rows(weights: &[f64], bias: &[f64], inputs: &[f64], width: usize, out: &mut [f64]) {
    let num_classes = bias.len();
    if num_classes != 2 || width == 0 {
        for (row, scores) in out.chunks_exact_mut(num_classes).enumerate() {
            softmax_scores(
                weights,
                bias,
                &inputs[row * width..(row + 1) * width],
                scores,
            );
        }
        return;
    }
    let pair_weights: Vec<Pair> = (0..width)
        .map(|i| [weights[i], weights[width + i]])
        .collect();
    let (out, _) = out.as_chunks_mut::<2>();
    let row = |k: usize| &inputs[k * width..(k + 1) * width];
    two_class_probabilities(&pair_weights, [bias[0], bias[1]], row, |_| &[], out);
}

/// The encoded training rows with their classes and instance weights.
#[derive(Clone, Copy)]
struct TrainingRows<'a> {
    /// Row-major, `width` values per row.
    inputs: &'a [f64],
    width: usize,
    targets: &'a [usize],
    row_weights: &'a [f64],
    mean_weight: f64,
}

/// One value per class of a two-class model: an operation on pairs rounds each side exactly as
/// the operation on one value does.
type Pair = [f64; 2];

#[inline(always)]
fn pair_add(a: Pair, b: Pair) -> Pair {
    [a[0] + b[0], a[1] + b[1]]
}

#[inline(always)]
fn pair_sub(a: Pair, b: Pair) -> Pair {
    [a[0] - b[0], a[1] - b[1]]
}

/// Each side times `factor`.
#[inline(always)]
fn pair_scale(a: Pair, factor: f64) -> Pair {
    [a[0] * factor, a[1] * factor]
}

/// Both classes' scores `bias + weights . inputs` of one row (`weights` one pair per input), the
/// dot product summed in input order as [`softmax_scores`] sums it.
#[inline(always)]
fn two_class_scores(weights: &[Pair], bias: Pair, inputs: &[f64]) -> Pair {
    let weights = &weights[..inputs.len()];
    // -0.0, the start of a float sum, plus the first product is that product.
    let mut sum = pair_scale(weights[0], inputs[0]);
    for (&w, &x) in weights.iter().zip(inputs).skip(1) {
        sum = pair_add(sum, pair_scale(w, x));
    }
    pair_add(bias, sum)
}

/// [`two_class_scores`] of `N` rows at once (`N` independent sums in flight, enough to keep
/// the processor's adders busy while each sum waits for its previous addition).
#[inline(always)]
fn two_class_scores_of<const N: usize>(
    weights: &[Pair],
    bias: Pair,
    rows: [&[f64]; N],
    ahead: [&[f64]; N],
) -> [Pair; N] {
    let width = weights.len();
    // Plain loops, not array maps: the compiler left those as calls in the hot loop.
    let mut rows = rows;
    for r in &mut rows {
        *r = &r[..width];
    }
    let mut sums = [[0.0; 2]; N];
    for (sum, r) in sums.iter_mut().zip(&rows) {
        *sum = pair_scale(weights[0], r[0]);
    }
    prefetch_at(&ahead, 0);
    for i in 1..width {
        if i % 8 == 0 {
            prefetch_at(&ahead, i);
        }
        let w = weights[i];
        for (sum, r) in sums.iter_mut().zip(&rows) {
            *sum = pair_add(*sum, pair_scale(w, r[i]));
        }
    }
    for sum in &mut sums {
        *sum = pair_add(bias, *sum);
    }
    sums
}

/// Adds `N` rows' gradient terms `error * input`, in row order, to each input's gradient
/// (`first` and `second`: the two classes' gradient rows; apart, so that the compiler handles
/// several inputs per instruction without shuffling).
#[inline(always)]
fn add_gradients<const N: usize>(
    first: &mut [f64],
    second: &mut [f64],
    errors: [Pair; N],
    rows: [&[f64]; N],
) {
    let width = first.len();
    let second = &mut second[..width];
    let mut rows = rows;
    for r in &mut rows {
        *r = &r[..width];
    }
    for i in 0..width {
        let (mut g, mut h) = (first[i], second[i]);
        for (e, r) in errors.iter().zip(&rows) {
            g += e[0] * r[i];
            h += e[1] * r[i];
        }
        first[i] = g;
        second[i] = h;
    }
}

/// [`softmax_scores`] of two scores, with the same operations: exp(0) = 1 for the largest, one
/// exp for the other, each divided by their sum. Without NaNs the exp call's argument does not
/// depend on a branch (which score is the larger is a coin toss the processor would mispredict).
#[inline(always)]
fn two_class_softmax(scores: Pair) -> Pair {
    let [first, second] = scores;
    if first.is_nan() || second.is_nan() {
        let mut out = scores;
        softmax_scores(&[], &scores, &[], &mut out);
        return out;
    }
    // The largest as softmax_scores finds it (when the two are equal, both give 1 below, so
    // which zero of +0 and -0 is taken does not matter), and the other score.
    let largest = if first < second { second } else { first };
    let other = if first < second { first } else { second };
    let exp_other = (other - largest).exp();
    let first = if first == largest { 1.0 } else { exp_other };
    let second = if second == largest { 1.0 } else { exp_other };
    let total = 0.0 + first + second;
    [first / total, second / total]
}

/// The two-class probabilities of `out.len()` rows (`row(k)`: the `k`-th, `weights.len()`
/// values) into `out`, as [`softmax_scores`] computes them: [`SCORED_TOGETHER`] rows at a time
/// (independent sums in flight), the same operations in the same order, so the same bits.
/// While a group is scored, the rows `ahead(k)` of the next group are fetched (an empty slice:
/// none).
#[inline(always)]
fn two_class_probabilities<'a>(
    weights: &[Pair],
    bias: Pair,
    row: impl Fn(usize) -> &'a [f64],
    ahead: impl Fn(usize) -> &'a [f64],
    out: &mut [Pair],
) {
    let mut outputs = out.chunks_exact_mut(SCORED_TOGETHER);
    let mut first = 0;
    for output in &mut outputs {
        let mut rows: [&[f64]; SCORED_TOGETHER] = [&[]; SCORED_TOGETHER];
        let mut next: [&[f64]; SCORED_TOGETHER] = [&[]; SCORED_TOGETHER];
        for (j, (r, n)) in rows.iter_mut().zip(&mut next).enumerate() {
            *r = row(first + j);
            *n = ahead(first + SCORED_TOGETHER + j);
        }
        let scores = two_class_scores_of(weights, bias, rows, next);
        for (out, score) in output.iter_mut().zip(scores) {
            *out = two_class_softmax(score);
        }
        first += SCORED_TOGETHER;
    }
    for (k, out) in outputs.into_remainder().iter_mut().enumerate() {
        *out = two_class_softmax(two_class_scores(weights, bias, row(first + k)));
    }
}

/// Adds the gradient terms `error * input` of `errors.len()` rows (`row(k)`: the `k`-th,
/// `first.len()` values; one error pair a row), in row order, to each input's gradient
/// (`first` and `second`: the two classes' gradient rows).
#[inline(always)]
fn add_batch_gradients<'a>(
    first: &mut [f64],
    second: &mut [f64],
    errors: &[Pair],
    row: impl Fn(usize) -> &'a [f64],
) {
    let mut groups = errors.chunks_exact(SCORED_TOGETHER);
    let mut start = 0;
    for group in &mut groups {
        let mut errors = [[0.0; 2]; SCORED_TOGETHER];
        errors.copy_from_slice(group);
        let mut rows: [&[f64]; SCORED_TOGETHER] = [&[]; SCORED_TOGETHER];
        for (j, r) in rows.iter_mut().enumerate() {
            *r = row(start + j);
        }
        add_gradients(first, second, errors, rows);
        start += SCORED_TOGETHER;
    }
    for (k, e) in groups.remainder().iter().enumerate() {
        for ((g, h), &xi) in first.iter_mut().zip(&mut *second).zip(row(start + k)) {
            *g += e[0] * xi;
            *h += e[1] * xi;
        }
    }
}

/// Asks the processor to bring the cache line holding value `i` of each row of `rows` (rows
/// scored next) into its cache; no effect on any value.
#[inline(always)]
fn prefetch_at<const N: usize>(rows: &[&[f64]; N], i: usize) {
    #[cfg(target_arch = "x86_64")]
    for row in rows {
        if let Some(value) = row.get(i) {
            // SAFETY: SSE is part of every x86_64 processor, and a prefetch of any address
            // neither faults nor changes memory (this one is inside the slice).
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    std::ptr::from_ref(value).cast(),
                )
            };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (rows, i);
}

/// Rows whose two-class scores [`PerceptronLearner::train_two_classes`] computes together.
const SCORED_TOGETHER: usize = 8;

/// Test rows encoded and scored at a time by [`PerceptronModel::predict_proba`].
const PREDICT_CHUNK: usize = 256;

/// Largest number of epochs accepted.
const MAX_EPOCHS: usize = 1_000_000;

impl PerceptronLearner {
    /// A learner with the given parameters.
    pub fn new(config: PerceptronConfig) -> Self {
        PerceptronLearner { config }
    }

    /// Reads `learning_rate`, `epochs` and `batch_size` from checked config parameters.
    pub fn from_params(params: Params) -> Result<Self, ParamError> {
        Ok(PerceptronLearner::new(PerceptronConfig {
            learning_rate: params.real("learning_rate")?,
            epochs: params.integer("epochs")?,
            batch_size: params.integer("batch_size")?,
        }))
    }

    /// The parameters in use.
    pub fn config(&self) -> &PerceptronConfig {
        &self.config
    }

    /// Mini-batch descent for any number of classes: `weights` (row-major, one row per class)
    /// and `bias` start at their initial values and end trained.
    fn train_any_classes(
        &self,
        data: &TrainingRows,
        weights: &mut [f64],
        bias: &mut [f64],
        generator: &mut ChaCha8Rng,
    ) {
        let TrainingRows {
            inputs,
            width,
            targets,
            row_weights,
            mean_weight,
        } = *data;
        let num_classes = bias.len();
        let rows = targets.len();
        let mut weight_gradient = vec![0.0; num_classes * width];
        let mut bias_gradient = vec![0.0; num_classes];
        let mut batch_scores = Vec::new();
        let mut order: Vec<usize> = (0..rows).collect();
        let batch_size = self.config.batch_size.min(rows);
        for _ in 0..self.config.epochs {
            order.shuffle(generator);
            for batch in order.chunks(batch_size) {
                weight_gradient.iter_mut().for_each(|g| *g = 0.0);
                bias_gradient.iter_mut().for_each(|g| *g = 0.0);
                // The batch's outputs first (independent of each other, so the processor
                // overlaps them), then the gradient summed row by row in batch order.
                batch_scores.resize(batch.len() * num_classes, 0.0);
                for (&row, scores) in batch.iter().zip(batch_scores.chunks_exact_mut(num_classes)) {
                    softmax_scores(
                        weights,
                        bias,
                        &inputs[row * width..(row + 1) * width],
                        scores,
                    );
                }
                for (&row, scores) in batch.iter().zip(batch_scores.chunks_exact(num_classes)) {
                    let x = &inputs[row * width..(row + 1) * width];
                    for class in 0..num_classes {
                        let target = if targets[row] == class { 1.0 } else { 0.0 };
                        let error = row_weights[row] * (scores[class] - target);
                        bias_gradient[class] += error;
                        let gradient_row = &mut weight_gradient[class * width..(class + 1) * width];
                        for (g, xi) in gradient_row.iter_mut().zip(x) {
                            *g += error * xi;
                        }
                    }
                }
                let step = self.config.learning_rate / (batch.len() as f64 * mean_weight);
                for (w, g) in weights.iter_mut().zip(&weight_gradient) {
                    *w -= step * g;
                }
                for (b, g) in bias.iter_mut().zip(&bias_gradient) {
                    *b -= step * g;
                }
            }
        }
    }

    /// [`Self::train_two_classes_portable`] with the widest vector instructions the processor
    /// has: the same operations in the same order (Rust never fuses a multiply and an add), so
    /// the same weights to the bit.
    fn train_two_classes(
        &self,
        data: &TrainingRows,
        weights: &mut [f64],
        bias: &mut [f64],
        generator: &mut ChaCha8Rng,
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            if vector_cap::allows(vector_cap::Level::Avx512)
                && std::arch::is_x86_feature_detected!("avx512f")
            {
                // SAFETY: the processor has AVX-512F (checked just above).
                return unsafe { self.train_two_classes_avx512(data, weights, bias, generator) };
            }
            if vector_cap::allows(vector_cap::Level::Avx2)
                && std::arch::is_x86_feature_detected!("avx2")
            {
                // SAFETY: the processor has AVX2 (checked just above).
                return unsafe { self.train_two_classes_avx2(data, weights, bias, generator) };
            }
        }
        self.train_two_classes_portable(data, weights, bias, generator)
    }

    /// [`Self::train_two_classes_portable`] compiled for AVX-512F.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn train_two_classes_avx512(
        &self,
        data: &TrainingRows,
        weights: &mut [f64],
        bias: &mut [f64],
        generator: &mut ChaCha8Rng,
    ) {
        self.train_two_classes_portable(data, weights, bias, generator)
    }

    /// [`Self::train_two_classes_portable`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn train_two_classes_avx2(
        &self,
        data: &TrainingRows,
        weights: &mut [f64],
        bias: &mut [f64],
        generator: &mut ChaCha8Rng,
    ) {
        self.train_two_classes_portable(data, weights, bias, generator)
    }

    /// [`Self::train_any_classes`] for two classes and at least one input, with the same
    /// arithmetic in the same order (so the same weights to the last bit), faster: both classes'
    /// weights of an input side by side (one pair operation rounds each side as the separate
    /// operation would), [`SCORED_TOGETHER`] rows' outputs computed together (independent sums
    /// that the processor overlaps) while the next group's rows are fetched, and as many rows'
    /// gradient terms added to each sum in one pass.
    #[inline(always)]
    fn train_two_classes_portable(
        &self,
        data: &TrainingRows,
        weights: &mut [f64],
        bias: &mut [f64],
        generator: &mut ChaCha8Rng,
    ) {
        let TrainingRows {
            inputs,
            width,
            targets,
            row_weights,
            mean_weight,
        } = *data;
        let rows = targets.len();
        let mut pair_weights: Vec<Pair> = (0..width)
            .map(|i| [weights[i], weights[width + i]])
            .collect();
        let mut pair_bias: Pair = [bias[0], bias[1]];
        let pair_targets: Vec<Pair> = targets
            .iter()
            .map(|&t| if t == 0 { [1.0, 0.0] } else { [0.0, 1.0] })
            .collect();
        // The two classes' weight gradients, one row each.
        let mut gradient = vec![0.0; 2 * width];
        let batch_size = self.config.batch_size.min(rows);
        let mut probabilities: Vec<Pair> = vec![[0.0; 2]; batch_size];
        let mut errors: Vec<Pair> = vec![[0.0; 2]; batch_size];
        let mut order: Vec<usize> = (0..rows).collect();
        for _ in 0..self.config.epochs {
            order.shuffle(generator);
            let mut batches = order.chunks(batch_size).peekable();
            while let Some(batch) = batches.next() {
                let next = batches.peek().copied().unwrap_or(&[]);
                let row = |k: usize| &inputs[batch[k] * width..(batch[k] + 1) * width];
                // The rows scored after a group, this batch's or the next one's, are fetched
                // from memory while it is scored.
                let ahead = |k: usize| match batch.get(k).or_else(|| next.get(k - batch.len())) {
                    Some(&r) => &inputs[r * width..(r + 1) * width],
                    None => &[],
                };
                let probabilities = &mut probabilities[..batch.len()];
                two_class_probabilities(&pair_weights, pair_bias, row, ahead, probabilities);
                let errors = &mut errors[..batch.len()];
                let mut bias_gradient: Pair = [0.0; 2];
                for ((e, &r), &p) in errors.iter_mut().zip(batch).zip(&*probabilities) {
                    *e = pair_scale(pair_sub(p, pair_targets[r]), row_weights[r]);
                    bias_gradient = pair_add(bias_gradient, *e);
                }
                gradient.fill(0.0);
                let (first_gradient, second_gradient) = gradient.split_at_mut(width);
                add_batch_gradients(first_gradient, second_gradient, errors, row);

                let step = self.config.learning_rate / (batch.len() as f64 * mean_weight);
                for ((w, &g), &h) in pair_weights
                    .iter_mut()
                    .zip(&*first_gradient)
                    .zip(&*second_gradient)
                {
                    *w = pair_sub(*w, pair_scale([g, h], step));
                }
                pair_bias = pair_sub(pair_bias, pair_scale(bias_gradient, step));
            }
        }
        for (i, w) in pair_weights.iter().enumerate() {
            weights[i] = w[0];
            weights[width + i] = w[1];
        }
        bias.copy_from_slice(&pair_bias);
    }

    /// Fits the concrete perceptron model.
    pub fn fit_perceptron(&self, train: &View, seed: u64) -> Result<PerceptronModel, LearnerError> {
        let positions: Vec<usize> = (0..train.len())
            .filter(|&p| train.weight(p) > 0.0)
            .collect();
        if positions.is_empty() {
            return Err(LearnerError::Data {
                learner: "perceptron".into(),
                message: "no training rows with positive weight".into(),
            });
        }
        let encoding = Encoder::fit(&train.subview(&positions), true);
        let width = encoding.width();
        let num_classes = train.num_classes();
        let rows = positions.len();
        let mut inputs = vec![0.0; rows * width];
        for (row, &p) in inputs.chunks_exact_mut(width.max(1)).zip(&positions) {
            encoding.encode_row(&|a| train.value(p, a), row);
        }
        let targets: Vec<usize> = positions.iter().map(|&p| train.class(p)).collect();
        let row_weights: Vec<f64> = positions.iter().map(|&p| train.weight(p)).collect();
        let mean_weight = row_weights.iter().sum::<f64>() / rows as f64;

        let mut generator =
            ChaCha8Rng::seed_from_u64(seeds::derive_seed(seed, &[0x7065_7263_6570_7472]));
        let mut weights: Vec<f64> = (0..num_classes * width)
            .map(|_| 0.01 * generator.sample::<f64, _>(StandardNormal))
            .collect();
        let mut bias = vec![0.0; num_classes];
        let data = TrainingRows {
            inputs: &inputs,
            width,
            targets: &targets,
            row_weights: &row_weights,
            mean_weight,
        };
        if num_classes == 2 && width > 0 {
            self.train_two_classes(&data, &mut weights, &mut bias, &mut generator);
        } else {
            self.train_any_classes(&data, &mut weights, &mut bias, &mut generator);
        }
        let mut scores = vec![0.0; rows * num_classes];
        score_rows(&weights, &bias, &inputs, width, &mut scores);
        let mut loss = 0.0;
        for (row, row_scores) in scores.chunks_exact(num_classes).enumerate() {
            loss -= row_weights[row] * row_scores[targets[row]].max(f64::MIN_POSITIVE).ln();
        }
        Ok(PerceptronModel {
            encoding,
            weights,
            bias,
            num_classes,
            training_cross_entropy: loss / (rows as f64 * mean_weight),
            epochs: self.config.epochs,
        })
    }
}

impl Learner for PerceptronLearner {
    /// The cost hint of the perceptron: about 45 times naive Bayes per row and attribute.
    fn cost_hint(&self) -> f64 {
        45.0
    }

    fn name(&self) -> &str {
        "perceptron"
    }

    fn describe(&self) -> String {
        format!(
            "perceptron(learning_rate={}, epochs={}, batch_size={})",
            self.config.learning_rate, self.config.epochs, self.config.batch_size
        )
    }

    fn fit(&self, train: &View, seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        Ok(Box::new(self.fit_perceptron(train, seed)?))
    }

    fn revision(&self) -> String {
        revision_text("perceptron", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    /// False: a duplicated row is visited twice per epoch, in other mini-batches, so the
    /// stochastic path differs from one row of weight 2 (both aim at the same optimum).
    fn exact_weights(&self) -> bool {
        false
    }
}

/// A fitted linear softmax model over encoded inputs.
pub struct PerceptronModel {
    encoding: Encoder,
    /// Row-major, one row of input weights per class.
    weights: Vec<f64>,
    bias: Vec<f64>,
    num_classes: usize,
    training_cross_entropy: f64,
    epochs: usize,
}

impl PerceptronModel {
    /// The weighted mean cross-entropy on the training rows after the last epoch.
    pub fn training_cross_entropy(&self) -> f64 {
        self.training_cross_entropy
    }
}

impl Model for PerceptronModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let width = self.encoding.width();
        let mut values = vec![0.0; test.len() * self.num_classes];
        // Rows encoded a chunk at a time: the scores of several rows are computed together,
        // and memory stays bounded however many rows there are.
        let mut inputs = vec![0.0; PREDICT_CHUNK * width];
        let starts = (0..test.len()).step_by(PREDICT_CHUNK);
        for (start, out) in starts.zip(values.chunks_mut(PREDICT_CHUNK * self.num_classes)) {
            let count = out.len() / self.num_classes;
            for (offset, row) in inputs
                .chunks_exact_mut(width.max(1))
                .take(count)
                .enumerate()
            {
                let position = start + offset;
                self.encoding.encode_row(&|a| test.value(position, a), row);
            }
            score_rows(
                &self.weights,
                &self.bias,
                &inputs[..count * width],
                width,
                out,
            );
        }
        Ok(Probabilities::from_flat(self.num_classes, values))
    }

    fn explain(&self, schema: &Schema) -> String {
        let names = self.encoding.column_names(schema);
        let mut text = format!(
            "linear perceptron (softmax) over {} inputs after {} epochs; training cross-entropy {:.6}\n",
            self.encoding.width(), self.epochs, self.training_cross_entropy
        );
        for (class, class_name) in schema.class_values.iter().enumerate() {
            text.push_str(&format!("  {class_name}: bias {:.6}", self.bias[class]));
            let width = self.encoding.width();
            for (name, weight) in names
                .iter()
                .zip(&self.weights[class * width..(class + 1) * width])
            {
                text.push_str(&format!(", {name} {weight:.6}"));
            }
            text.push('\n');
        }
        text
    }
}

/// Builds a [`PerceptronLearner`] from config parameters (the registry entry).
pub fn build(params: Params) -> Result<Box<dyn Learner>, ParamError> {
    Ok(Box::new(PerceptronLearner::from_params(params)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// Seeded two-class rows with uneven instance weights.
    fn two_class_rows(rows: usize, width: usize, seed: u64) -> (Vec<f64>, Vec<usize>, Vec<f64>) {
        let mut generator = ChaCha8Rng::seed_from_u64(seed);
        let inputs = (0..rows * width)
            .map(|_| generator.sample::<f64, _>(StandardNormal))
            .collect();
        let targets = (0..rows).map(|_| generator.random_range(0..2)).collect();
        let row_weights = (0..rows)
            .map(|_| 0.25 + generator.random::<f64>())
            .collect();
        (inputs, targets, row_weights)
    }

    #[test]
    fn two_class_training_matches_the_general_training_bit_for_bit() {
        for (rows, width, batch_size) in [
            (37, 1, 4),
            (50, 3, 1),
            (41, 5, 7),
            (64, 10, 32),
            (23, 2, 100),
            (45, 7, 16),
            (70, 8, 32),
            (53, 9, 13),
            (47, 33, 32),
            (39, 216, 32),
            (20, 216, 100),
        ] {
            check_two_class_training(rows, width, batch_size, 1.0);
        }
    }

    /// Finite rows large enough that scores overflow to infinities and NaNs during training:
    /// the pair path still matches the general one to the bit.
    #[test]
    fn two_class_training_matches_the_general_training_with_overflowing_scores() {
        for (rows, width, batch_size) in [(37, 1, 4), (41, 8, 32), (45, 9, 8), (39, 216, 32)] {
            check_two_class_training(rows, width, batch_size, 1e160);
        }
    }

    /// Trains seeded two-class rows (inputs times `scale`) with the general path, the pair path
    /// the processor gets and the portable pair path from the same start, and asserts the same
    /// weights, bias and generator state; then the same scores of every row.
    fn check_two_class_training(rows: usize, width: usize, batch_size: usize, scale: f64) {
        let (inputs, targets, row_weights) = two_class_rows(rows, width, rows as u64);
        let inputs: Vec<f64> = inputs.iter().map(|x| x * scale).collect();
        let mean_weight = row_weights.iter().sum::<f64>() / rows as f64;
        let data = TrainingRows {
            inputs: &inputs,
            width,
            targets: &targets,
            row_weights: &row_weights,
            mean_weight,
        };
        let learner = PerceptronLearner::new(PerceptronConfig {
            learning_rate: 0.3,
            epochs: 5,
            batch_size,
        });
        let mut start_generator = ChaCha8Rng::seed_from_u64(9);
        let start: Vec<f64> = (0..2 * width)
            .map(|_| start_generator.sample::<f64, _>(StandardNormal))
            .collect();
        let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let train = |path: usize| {
            let (mut weights, mut bias) = (start.clone(), vec![0.1, -0.2]);
            let mut generator = start_generator.clone();
            match path {
                0 => learner.train_any_classes(&data, &mut weights, &mut bias, &mut generator),
                1 => learner.train_two_classes(&data, &mut weights, &mut bias, &mut generator),
                _ => learner.train_two_classes_portable(
                    &data,
                    &mut weights,
                    &mut bias,
                    &mut generator,
                ),
            }
            (
                bits(&weights),
                bits(&bias),
                generator.next_u64(),
                weights,
                bias,
            )
        };
        let (general_weights, general_bias, general_next, weights, bias) = train(0);
        for path in [1, 2] {
            let (pair_weights, pair_bias, pair_next, _, _) = train(path);
            assert_eq!(general_weights, pair_weights, "{rows} {width} {path}");
            assert_eq!(general_bias, pair_bias, "{rows} {width} {path}");
            assert_eq!(general_next, pair_next, "{rows} {width} {path}");
        }
        let mut scores = vec![0.0; 2 * rows];
        score_rows(&weights, &bias, &inputs, width, &mut scores);
        for (row, got) in scores.chunks_exact(2).enumerate() {
            let mut expected = [0.0; 2];
            softmax_scores(
                &weights,
                &bias,
                &inputs[row * width..][..width],
                &mut expected,
            );
            assert_eq!(bits(&expected), bits(got), "{rows} {width} row {row}");
        }
    }

    #[test]
    fn two_class_softmax_matches_the_general_softmax_bit_for_bit() {
        let values = [
            0.0,
            -0.0,
            1.5,
            -2.25,
            700.0,
            -800.0,
            1e-300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for &first in &values {
            for &second in &values {
                let mut expected = [0.0; 2];
                softmax_scores(&[], &[first, second], &[], &mut expected);
                let got = two_class_softmax([first, second]);
                assert_eq!(
                    expected.map(f64::to_bits),
                    got.map(f64::to_bits),
                    "{first} {second}"
                );
            }
        }
    }
}
