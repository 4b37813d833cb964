//! Newton's method for ridge-penalised multinomial logistic regression with the last class as
//! reference, on the rows of a design whose first column is the constant 1 ([`Rows`]: padded
//! rows, or the split of [`super::two_valued`]).
//!
//! The objective is Weka's:
//! `f(B) = sum_i w_i (log(1 + sum_c exp(b_c . z_i)) - b_{y_i} . z_i) + ridge sum_c sum_{j >= 1} b_cj^2`
//! over the `k = classes - 1` coefficient vectors `b_c` (the reference class has score 0), the
//! intercepts (column 0) unpenalised. Each iteration builds the exact gradient and Hessian from
//! the rows' probabilities that the line search computed at the accepted point, solves the
//! Newton system by a Cholesky factorisation (damped if rounding makes it indefinite) and
//! backtracks until the objective decreases sufficiently (Armijo). When a full step lowers the
//! objective clearly more than the quadratic model predicts (the exponential-like valleys of
//! nearly separable data, where Newton advances by a constant amount per iteration), the step
//! is doubled while the objective keeps falling. A step below 1e-6 relative is taken whole as
//! the last one: its error is of the order of its square. The objective's per-row logarithms are
//! summed as the logarithms of running products (one `ln` per few hundred rows), and their
//! exponentials taken a block of rows at a time ([`super::exp`]). Two classes are the special
//! case `k = 1` (iteratively reweighted least squares), with the same code.
//!
//! The Hessian's weighted sums of row products come from register tiles over cache-sized chunks
//! of rows ([`super::gram`]), or, when most columns take two values (the indicator columns of
//! nominal attributes), from sums over the rows where each takes its rarer value
//! ([`super::two_valued`]), which also gives those designs' scores and gradient.

use super::design::Rows;
use super::exp::exp_in_place;
use super::gram::{add_weighted_gram, dot, dots, PaddedRows, Residuals};

/// The rows to fit, each of nonzero weight, with their classes and weights.
pub struct Design<'a> {
    /// The rows (column 0 the constant 1).
    pub(super) rows: &'a Rows,
    /// Number of columns (with the constant column).
    pub(super) width: usize,
    /// The class of each row, `0..=k` (`k` is the reference class).
    pub(super) classes: &'a [u32],
    /// The weight of each row.
    pub(super) weights: &'a [f64],
}

impl Design<'_> {
    /// Each row's class and weight.
    fn classes_and_weights(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        (self.classes.iter().zip(self.weights)).map(|(&class, &weight)| (class as usize, weight))
    }
}

/// The result of a fit: coefficients (`k` blocks of `width`), iterations used, and whether the
/// convergence test was met within the iteration limit.
pub struct Solution {
    /// Coefficients, class-major: `coefficients[c * width + j]`.
    pub coefficients: Vec<f64>,
    /// Newton iterations made.
    pub iterations: usize,
    /// True when the last step was below the tolerance.
    pub converged: bool,
}

/// Largest relative step (`|step_i| / max(|b_i|, 1)`) at which the iteration stops; Newton
/// converges quadratically, so the point reached is then accurate to rounding.
const STEP_TOLERANCE: f64 = 1e-9;

/// Largest relative size of a Newton step that is taken whole, without a line search, as the
/// last one: Newton's error after it is of the order of its square.
const FINAL_STEP_TOLERANCE: f64 = 1e-6;

/// The Newton decrement (`-slope`, twice the decrease the quadratic model predicts for the full
/// step) below which, relative to the objective, no step can lower the objective by more than
/// its rounding (a sum over the rows, good to about `sqrt(rows)` units in the last place): the
/// step is then taken whole as the last one. Without this stop, nearly collinear designs (one
/// indicator column per value of a nominal attribute beside the intercept) walk the flat
/// direction on rounding noise for dozens of iterations.
const DECREMENT_TOLERANCE: f64 = 1e-20;

/// The largest relative change a step makes to the coefficients: `|step_i| / max(|b_i|, 1)`.
fn relative_size(step: &[f64], coefficients: &[f64]) -> f64 {
    step.iter()
        .zip(coefficients)
        .map(|(s, b)| s.abs() / b.abs().max(1.0))
        .fold(0.0, f64::max)
}

/// Armijo's sufficient-decrease constant.
const SUFFICIENT_DECREASE: f64 = 1e-4;

/// How many times more than the quadratic model's prediction a full Newton step must lower the
/// objective before longer steps are tried.
const EXPANSION_RATIO: f64 = 1.1;

/// Most doublings of an accepted full step (a step up to 2^20 times Newton's).
const MAX_EXPANSIONS: usize = 20;

/// Fills `scores[..k]` with `b_c . z` for one row.
#[inline(always)]
fn row_scores(row: &[f64], coefficients: &[f64], scores: &mut [f64]) {
    let width = row.len();
    for (score, block) in scores.iter_mut().zip(coefficients.chunks_exact(width)) {
        *score = dot(row, block);
    }
}

/// Fills `block` (`k` scores a row) with the scores `b_c . z` of the rows from `first` on, four
/// rows at a time ([`dots`]: each score the same sum as [`row_scores`] gives).
#[inline(always)]
fn block_scores(
    padded: &PaddedRows,
    width: usize,
    coefficients: &[f64],
    first: usize,
    block: &mut [f64],
) {
    let k = coefficients.len() / width;
    let mut groups = block.chunks_exact_mut(4 * k);
    let mut index = first;
    for group in &mut groups {
        let rows = [0, 1, 2, 3].map(|i| padded.row(index + i, width));
        for (c, class_coefficients) in coefficients.chunks_exact(width).enumerate() {
            for (i, score) in dots(rows, class_coefficients).into_iter().enumerate() {
                group[i * k + c] = score;
            }
        }
        index += 4;
    }
    for scores in groups.into_remainder().chunks_exact_mut(k) {
        row_scores(padded.row(index, width), coefficients, scores);
        index += 1;
    }
}

/// The sum of the logarithms of numbers from 1 to `largest`, as the logarithms of running
/// products: one logarithm per run of factors instead of one per factor, the runs kept short
/// enough that no product can overflow.
struct LogSum {
    sum: f64,
    product: f64,
    factors: usize,
    run: usize,
}

impl LogSum {
    /// An empty sum for factors no larger than `largest` (at least 1).
    #[inline(always)]
    fn new(largest: f64) -> Self {
        // At most 2^1000 per run.
        let run = (1000.0 / largest.log2().ceil().max(1.0)) as usize;
        LogSum {
            sum: 0.0,
            product: 1.0,
            factors: 0,
            run: run.max(1),
        }
    }

    /// Adds `log(factor)`.
    #[inline(always)]
    fn add(&mut self, factor: f64) {
        self.product *= factor;
        self.factors += 1;
        if self.factors == self.run {
            self.sum += self.product.ln();
            self.product = 1.0;
            self.factors = 0;
        }
    }

    /// The sum of the logarithms added.
    #[inline(always)]
    fn total(&self) -> f64 {
        self.sum + self.product.ln()
    }
}

/// The penalised objective at `coefficients`; also fills `probabilities` with the `k`
/// non-reference class probabilities of each row of positive weight (row after row), which the
/// next gradient and Hessian pass reuses when these coefficients are accepted.
#[inline(always)]
fn objective(
    design: &Design,
    k: usize,
    ridge: f64,
    coefficients: &[f64],
    probabilities: &mut [f64],
) -> f64 {
    let width = design.width;
    let loss = match design.rows {
        Rows::Dense(padded) => loss(
            design,
            k,
            probabilities,
            #[inline(always)]
            |first, block| block_scores(padded, width, coefficients, first, block),
        ),
        Rows::TwoValued(split) => {
            let folded = split.fold(coefficients, width);
            loss(
                design,
                k,
                probabilities,
                #[inline(always)]
                |first, block| {
                    for (i, scores) in block.chunks_exact_mut(k).enumerate() {
                        split.scores(first + i, &folded, scores);
                    }
                },
            )
        }
    };
    loss + ridge * penalty_sum(coefficients, design.width)
}

/// Rows per block of [`loss`]: their shifted scores are exponentiated together.
const BLOCK: usize = 256;

/// The unpenalised objective, the rows' scores coming from `scores_of` (given the index of a
/// block's first row and room for its rows' scores, `k` a row); fills `probabilities` as
/// [`objective`] says ([`loss_of`], for two classes with `k` known to the compiler).
#[inline(always)]
fn loss(
    design: &Design,
    k: usize,
    probabilities: &mut [f64],
    scores_of: impl FnMut(usize, &mut [f64]),
) -> f64 {
    if k == 1 {
        loss_of::<1>(design, k, probabilities, scores_of)
    } else {
        loss_of::<0>(design, k, probabilities, scores_of)
    }
}

/// [`loss`] with `k` equal to `K`, or any `k` when `K` is 0. A row's scores are
/// shifted by the largest of them and the reference's 0, so that every exponential is at most
/// 1, and `log(1 + sum exp(score))` is that largest plus the logarithm of the shifted
/// denominator, a number from 1 to `k + 1`.
#[inline(always)]
fn loss_of<const K: usize>(
    design: &Design,
    k: usize,
    probabilities: &mut [f64],
    mut scores_of: impl FnMut(usize, &mut [f64]),
) -> f64 {
    let k = if K > 0 { K } else { k };
    let mut total = 0.0;
    // The logarithms of the denominators of rows of weight 1, the usual case, by products.
    let mut unit_logarithms = LogSum::new((k + 1) as f64);
    // Each row's shifted reference score (then its exponential) and largest minus own score.
    let mut reference = [0.0; BLOCK];
    let mut margins = [0.0; BLOCK];
    let rows = design.classes.len();
    for first in (0..rows).step_by(BLOCK) {
        let count = BLOCK.min(rows - first);
        let block = &mut probabilities[first * k..(first + count) * k];
        scores_of(first, block);
        for (i, scores) in block.chunks_exact_mut(k).enumerate() {
            let class = design.classes[first + i] as usize;
            let own = if class < k { scores[class] } else { 0.0 };
            let max = scores.iter().copied().fold(0.0, f64::max);
            for score in scores.iter_mut() {
                *score -= max;
            }
            reference[i] = -max;
            margins[i] = max - own;
        }
        exp_in_place(block);
        exp_in_place(&mut reference[..count]);
        let weights = &design.weights[first..first + count];
        for (i, (scores, &weight)) in block.chunks_exact_mut(k).zip(weights).enumerate() {
            let mut denominator = reference[i];
            for &score in scores.iter() {
                denominator += score;
            }
            for score in scores.iter_mut() {
                *score /= denominator;
            }
            if weight == 1.0 {
                total += margins[i];
                unit_logarithms.add(denominator);
            } else {
                total += weight * (margins[i] + denominator.ln());
            }
        }
    }
    total + unit_logarithms.total()
}

/// `sum_c sum_{j >= 1} b_cj^2`.
#[inline(always)]
fn penalty_sum(coefficients: &[f64], width: usize) -> f64 {
    coefficients
        .chunks_exact(width)
        .map(|block| block[1..].iter().map(|b| b * b).sum::<f64>())
        .sum()
}

/// Minimises the objective from `start` (`k * width` values) by damped Newton steps, at most
/// `max_iterations` of them.
pub fn minimise(
    design: &Design,
    k: usize,
    ridge: f64,
    start: Vec<f64>,
    max_iterations: usize,
) -> Solution {
    #[cfg(target_arch = "x86_64")]
    if vector_cap::allows(vector_cap::Level::Avx2) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { minimise_avx2(design, k, ridge, start, max_iterations) };
    }
    minimise_portable(design, k, ridge, start, max_iterations)
}

/// [`minimise`] compiled for AVX2: the same operations (multiplications and additions kept
/// separate, never fused), four values per instruction, so the same results.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn minimise_avx2(
    design: &Design,
    k: usize,
    ridge: f64,
    start: Vec<f64>,
    max_iterations: usize,
) -> Solution {
    minimise_portable(design, k, ridge, start, max_iterations)
}

/// [`minimise`] for any processor.
#[inline(always)]
fn minimise_portable(
    design: &Design,
    k: usize,
    ridge: f64,
    start: Vec<f64>,
    max_iterations: usize,
) -> Solution {
    let mut newton = Newton::new(design, k, ridge, start);
    let mut value = objective(
        design,
        k,
        ridge,
        &newton.coefficients,
        &mut newton.probabilities,
    );
    let mut iterations = 0;
    let mut converged = false;
    while iterations < max_iterations {
        iterations += 1;
        // Descent along -step: f(b - t step) with slope -gradient . step.
        let slope = newton.newton_step();
        if slope >= 0.0 || !slope.is_finite() {
            converged = true;
            break;
        }
        let full_relative_step = relative_size(&newton.step, &newton.coefficients);
        if full_relative_step < FINAL_STEP_TOLERANCE || -slope <= DECREMENT_TOLERANCE * value.abs()
        {
            // Quadratic convergence: after this step the error is of the order of its square,
            // below what the objective's rounding lets a line search tell apart.
            newton.take_whole_step();
            converged = true;
            break;
        }
        let start_value = value;
        let Some((accepted_value, mut length)) = newton.backtrack(value, slope) else {
            // No decrease representable along the Newton direction: at the optimum to rounding.
            converged = true;
            break;
        };
        value = accepted_value;
        // The full step fell by clearly more than the quadratic model predicts (`slope / 2`):
        // the objective is exponential-like along the step, as in the flat valleys of nearly
        // separable data, where each Newton step advances by a constant amount. Doubling the
        // step while the objective keeps falling crosses such a valley in a few passes over
        // the rows instead of a Newton iteration per unit.
        if length == 1.0 && start_value - value > EXPANSION_RATIO * -0.5 * slope {
            (value, length) = newton.expand(value, length);
        }
        let relative_step = length * full_relative_step;
        newton.accept();
        if relative_step < STEP_TOLERANCE {
            converged = true;
            break;
        }
    }
    Solution {
        coefficients: newton.coefficients,
        iterations,
        converged,
    }
}

/// Newton's iterations on one design: the current coefficients and their rows'
/// probabilities, with the gradient, Hessian, step and trial points reused from iteration to
/// iteration.
struct Newton<'a> {
    design: &'a Design<'a>,
    k: usize,
    ridge: f64,
    /// The current coefficients, and their rows' probabilities.
    coefficients: Vec<f64>,
    probabilities: Vec<f64>,
    /// The penalised gradient and Hessian at `coefficients`.
    gradient: Vec<f64>,
    hessian: Vec<f64>,
    /// Upper triangles of the per-class-pair blocks, accumulated row by row.
    blocks: Vec<f64>,
    /// Scratch space of [`accumulate`].
    factors: Vec<f64>,
    /// The Newton step (taken as `coefficients - length * step`).
    step: Vec<f64>,
    /// The point the line search accepted, and its rows' probabilities (swapped in on
    /// acceptance).
    trial: Vec<f64>,
    trial_probabilities: Vec<f64>,
    /// A longer step tried beyond the accepted one, and its rows' probabilities.
    expanded: Vec<f64>,
    expanded_probabilities: Vec<f64>,
}

impl<'a> Newton<'a> {
    /// The iterations from `start`, with room for `k` classes' coefficients.
    #[inline(always)]
    fn new(design: &'a Design<'a>, k: usize, ridge: f64, start: Vec<f64>) -> Self {
        let width = design.width;
        let size = k * width;
        let pairs = k * (k + 1) / 2;
        let triangle = width * (width + 1) / 2;
        let rows = design.classes.len();
        Newton {
            design,
            k,
            ridge,
            coefficients: start,
            probabilities: vec![0.0; rows * k],
            gradient: vec![0.0; size],
            hessian: vec![0.0; size * size],
            blocks: vec![0.0; pairs * triangle],
            factors: vec![0.0; pairs * rows],
            step: vec![0.0; size],
            trial: vec![0.0; size],
            trial_probabilities: vec![0.0; rows * k],
            expanded: vec![0.0; size],
            expanded_probabilities: vec![0.0; rows * k],
        }
    }

    /// Computes the penalised gradient and Hessian at the current coefficients (from their
    /// rows' probabilities) and solves for the Newton step; returns the slope along `-step`.
    #[inline(always)]
    fn newton_step(&mut self) -> f64 {
        let (design, k, ridge) = (self.design, self.k, self.ridge);
        let width = design.width;
        let size = k * width;
        accumulate(
            design,
            k,
            &self.probabilities,
            &mut self.gradient,
            &mut self.blocks,
            &mut self.factors,
        );
        add_ridge_gradient(&self.coefficients, width, ridge, &mut self.gradient);
        assemble(&self.blocks, k, width, ridge, &mut self.hessian);
        solve(&mut self.hessian, size, &self.gradient, &mut self.step);
        -dot(&self.gradient, &self.step)
    }

    /// Takes the whole Newton step, without a line search.
    #[inline(always)]
    fn take_whole_step(&mut self) {
        for (b, s) in self.coefficients.iter_mut().zip(&self.step) {
            *b -= s;
        }
    }

    /// Armijo's backtracking from the full step, halving it up to 60 times: the objective and
    /// length of the first step that decreases the objective (`value` at the current point,
    /// `slope` along the step) sufficiently, left in `trial`; `None` when none does.
    #[inline(always)]
    fn backtrack(&mut self, value: f64, slope: f64) -> Option<(f64, f64)> {
        let (design, k, ridge) = (self.design, self.k, self.ridge);
        let mut length = 1.0;
        for _ in 0..60 {
            for ((t, b), s) in self
                .trial
                .iter_mut()
                .zip(&self.coefficients)
                .zip(&self.step)
            {
                *t = b - length * s;
            }
            let trial_value =
                objective(design, k, ridge, &self.trial, &mut self.trial_probabilities);
            if trial_value <= value + SUFFICIENT_DECREASE * length * slope {
                return Some((trial_value, length));
            }
            length *= 0.5;
        }
        None
    }

    /// Doubles the accepted step (of `length`, objective `value`, in `trial`) while the
    /// objective keeps falling, at most [`MAX_EXPANSIONS`] times; returns the objective and
    /// length of the step then in `trial`.
    #[inline(always)]
    fn expand(&mut self, mut value: f64, mut length: f64) -> (f64, f64) {
        let (design, k, ridge) = (self.design, self.k, self.ridge);
        for _ in 0..MAX_EXPANSIONS {
            let longer = 2.0 * length;
            for ((t, b), s) in self
                .expanded
                .iter_mut()
                .zip(&self.coefficients)
                .zip(&self.step)
            {
                *t = b - longer * s;
            }
            let expanded_value = objective(
                design,
                k,
                ridge,
                &self.expanded,
                &mut self.expanded_probabilities,
            );
            if expanded_value.is_nan() || expanded_value >= value {
                break;
            }
            value = expanded_value;
            length = longer;
            std::mem::swap(&mut self.trial, &mut self.expanded);
            std::mem::swap(
                &mut self.trial_probabilities,
                &mut self.expanded_probabilities,
            );
        }
        (value, length)
    }

    /// Moves to the point in `trial`, with its rows' probabilities.
    #[inline(always)]
    fn accept(&mut self) {
        std::mem::swap(&mut self.coefficients, &mut self.trial);
        std::mem::swap(&mut self.probabilities, &mut self.trial_probabilities);
    }
}

/// Adds the ridge's gradient, `2 ridge b_cj`, to that of every non-intercept coefficient.
#[inline(always)]
fn add_ridge_gradient(coefficients: &[f64], width: usize, ridge: f64, gradient: &mut [f64]) {
    for (c, block) in coefficients.chunks_exact(width).enumerate() {
        for j in 1..width {
            gradient[c * width + j] += 2.0 * ridge * block[j];
        }
    }
}

/// One pass over the rows: the unpenalised gradient and the upper triangles of the Hessian's
/// class-pair blocks `sum_i w_i p_a (delta_ab - p_b) z_i z_i^T`, from the rows' probabilities
/// (`k` per row of positive weight, as [`objective`] leaves them). `factors` is scratch space.
/// ([`accumulate_of`], for two classes with `k` known to the compiler.)
#[inline(always)]
fn accumulate(
    design: &Design,
    k: usize,
    probabilities: &[f64],
    gradient: &mut [f64],
    blocks: &mut [f64],
    factors: &mut [f64],
) {
    if k == 1 {
        accumulate_of::<1>(design, k, probabilities, gradient, blocks, factors);
    } else {
        accumulate_of::<0>(design, k, probabilities, gradient, blocks, factors);
    }
}

/// [`accumulate`] with `k` equal to `K`, or any `k` when `K` is 0.
#[inline(always)]
fn accumulate_of<const K: usize>(
    design: &Design,
    k: usize,
    probabilities: &[f64],
    gradient: &mut [f64],
    blocks: &mut [f64],
    factors: &mut [f64],
) {
    let k = if K > 0 { K } else { k };
    let width = design.width;
    let triangle = width * (width + 1) / 2;
    gradient.iter_mut().for_each(|g| *g = 0.0);
    blocks.iter_mut().for_each(|h| *h = 0.0);
    let pairs = k * (k + 1) / 2;
    let rows = factors.len() / pairs;
    let mut residuals = vec![0.0; rows * k];
    for (index, (((class, weight), scores), row_residuals)) in design
        .classes_and_weights()
        .zip(probabilities.chunks_exact(k))
        .zip(residuals.chunks_exact_mut(k))
        .enumerate()
    {
        for (c, residual) in row_residuals.iter_mut().enumerate() {
            *residual = weight * (scores[c] - if class == c { 1.0 } else { 0.0 });
        }
        let mut pair = 0;
        for a in 0..k {
            for b in a..k {
                let same = if a == b { 1.0 } else { 0.0 };
                factors[pair * rows + index] = weight * scores[a] * (same - scores[b]);
                pair += 1;
            }
        }
    }
    for pair in 0..pairs {
        let triangle = &mut blocks[pair * triangle..(pair + 1) * triangle];
        let factors = &factors[pair * rows..(pair + 1) * rows];
        match design.rows {
            // The gradient is summed in the first pair's pass over the rows.
            Rows::Dense(padded) => {
                let gradient = (pair == 0).then_some(Residuals {
                    residuals: &residuals,
                    gradient: &mut *gradient,
                });
                add_weighted_gram(triangle, width, padded, factors, gradient)
            }
            Rows::TwoValued(split) => split.add_gram(triangle, width, factors),
        }
    }
    if let Rows::TwoValued(split) = design.rows {
        split.gradient(&residuals, k, width, gradient);
    }
}

/// The full symmetric Hessian (`k * width` square) from the packed blocks, plus the ridge's
/// `2 ridge` on the diagonal of every non-intercept coefficient.
#[inline(always)]
fn assemble(blocks: &[f64], k: usize, width: usize, ridge: f64, hessian: &mut [f64]) {
    let size = k * width;
    let triangle = width * (width + 1) / 2;
    let mut pair = 0;
    for a in 0..k {
        for b in a..k {
            let block = &blocks[pair * triangle..(pair + 1) * triangle];
            let mut index = 0;
            for j in 0..width {
                for l in j..width {
                    let value = block[index];
                    index += 1;
                    let (row_a, col_b) = (a * width + j, b * width + l);
                    let (row_b, col_a) = (b * width + l, a * width + j);
                    hessian[row_a * size + col_b] = value;
                    hessian[row_b * size + col_a] = value;
                    // The block is symmetric: (j, l) and (l, j) hold the same value.
                    hessian[(a * width + l) * size + b * width + j] = value;
                    hessian[(b * width + j) * size + a * width + l] = value;
                }
            }
            pair += 1;
        }
    }
    for c in 0..k {
        for j in 1..width {
            let index = c * width + j;
            hessian[index * size + index] += 2.0 * ridge;
        }
    }
}

/// Solves `hessian * step = gradient` by Cholesky factorisation in place; if rounding makes the
/// matrix indefinite, a growing multiple of its largest diagonal entry is added to the diagonal
/// until the factorisation succeeds.
#[inline(always)]
fn solve(hessian: &mut [f64], size: usize, gradient: &[f64], step: &mut [f64]) {
    let original = hessian.to_vec();
    let largest = (0..size)
        .map(|i| original[i * size + i].abs())
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let mut damping = 0.0;
    loop {
        if damping > 0.0 {
            hessian.copy_from_slice(&original);
            for i in 0..size {
                hessian[i * size + i] += damping;
            }
        }
        if cholesky(hessian, size) {
            break;
        }
        damping = if damping == 0.0 {
            largest * 1e-12
        } else {
            damping * 100.0
        };
    }
    // Forward then backward substitution with the lower factor L (L L^T = H).
    for i in 0..size {
        let row = &hessian[i * size..i * size + i];
        let value = gradient[i] - dot(row, &step[..i]);
        step[i] = value / hessian[i * size + i];
    }
    for i in (0..size).rev() {
        let mut value = step[i];
        for j in i + 1..size {
            value -= hessian[j * size + i] * step[j];
        }
        step[i] = value / hessian[i * size + i];
    }
}

/// In-place Cholesky factorisation (lower triangle, row-major); false when a pivot is not
/// positive.
#[inline(always)]
fn cholesky(matrix: &mut [f64], size: usize) -> bool {
    for i in 0..size {
        for j in 0..=i {
            let (head, tail) = matrix.split_at_mut(i * size);
            let row_i = &tail[..size];
            let row_j: &[f64] = if j == i {
                row_i
            } else {
                &head[j * size..j * size + size]
            };
            let sum = row_i[j] - dot(&row_i[..j], &row_j[..j]);
            if i == j {
                if sum <= 0.0 || !sum.is_finite() {
                    return false;
                }
                tail[j] = sum.sqrt();
            } else {
                let pivot = head[j * size + j];
                tail[j] = sum / pivot;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::design::tests::{indicator_design, rows_of};
    use super::*;

    #[test]
    fn cholesky_solves_a_small_system() {
        // [[4, 2], [2, 3]] x = [2, 1]: x = [0.5, 0] by hand.
        let mut matrix = vec![4.0, 2.0, 2.0, 3.0];
        let mut step = vec![0.0; 2];
        solve(&mut matrix, 2, &[2.0, 1.0], &mut step);
        assert!((step[0] - 0.5).abs() < 1e-15 && step[1].abs() < 1e-15);
    }

    #[test]
    fn one_coefficient_closed_form() {
        // Intercept only, 3 rows of class 0 and 1 of class 1 (the reference): the optimum is
        // log(3 / 1).
        let rows = rows_of(&[1.0; 4], 1, false);
        let design = Design {
            rows: &rows,
            width: 1,
            classes: &[0, 0, 0, 1],
            weights: &[1.0; 4],
        };
        let solution = minimise(&design, 1, 0.0, vec![0.0], 50);
        assert!(solution.converged);
        assert!((solution.coefficients[0] - 3f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn the_two_valued_split_reaches_the_dense_rows_optimum() {
        // The indicator design of the split's own tests, 300 rows, three classes, uneven
        // weights: the fit on the split must reach the optimum of the fit on every column row
        // by row.
        let rows = 300;
        let (values, width) = indicator_design(rows);
        let classes: Vec<u32> = (0..rows)
            .map(|r| ((r * 7 + (values[r * width + 1] > 0.3) as usize) % 3) as u32)
            .collect();
        let weights: Vec<f64> = (0..rows).map(|r| 0.5 + (r % 4) as f64 * 0.25).collect();
        let fit = |split: bool| {
            let rows = rows_of(&values, width, split);
            assert_eq!(matches!(rows, Rows::TwoValued(_)), split);
            let design = Design {
                rows: &rows,
                width,
                classes: &classes,
                weights: &weights,
            };
            let solution = minimise(&design, 2, 0.1, vec![0.0; 2 * width], 50);
            assert!(solution.converged);
            solution.coefficients
        };
        let (dense, split) = (fit(false), fit(true));
        for (d, s) in dense.iter().zip(&split) {
            assert!((d - s).abs() <= 1e-9 * d.abs().max(1.0), "{d} against {s}");
        }
    }
}
