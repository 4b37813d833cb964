//! The path Weka 3.6's `Logistic -M -1` takes to its coefficients: the quasi-Newton method of
//! `weka.core.Optimization` (Xin Xu's BFGS with a safeguarded line search), restarted from the
//! point reached whenever a run of 200 iterations ends without meeting its convergence tests.
//!
//! Written for this project (no Weka code copied) from the description of the method (Gill,
//! Murray and Wright 1981; Dennis and Schnabel 1983; Gill, Golub, Murray and Saunders 1974 for the
//! factor updates), with Weka 3.6's source and bytecode read as its specification, so that the
//! same data give the same sequence of steps: the
//! same objective and gradient in the same parametrisation (standardised columns, the last class
//! as reference, intercepts unpenalised), the same first direction (minus the gradient), the same
//! step bound, line search, tolerances and convergence tests, the same BFGS update of an
//! `L D L'` factor of the Hessian approximation, and the same restarts. Where the optimum is well
//! determined this ends near it, within Weka's tolerances; on (nearly) separable data, where the
//! optimum lies far out in a flat valley, it stops where Weka stops, short of the optimum.
//!
//! The sums run in Weka's order (row after row, column after column), so that the rounding is
//! the same as far as the elementary functions allow (`exp` and `ln` may differ from Java's in
//! the last bit).
//!
//! Weka's optimiser also handles bounds on the variables; `Logistic` gives none, so this module
//! has no bounds.

use std::borrow::Cow;

/// Weka's sufficient-decrease constant (the "alpha condition").
const SUFFICIENT_DECREASE: f64 = 1e-4;

/// Weka's curvature constant (the "beta condition": the slope must rise to this share of the
/// initial slope).
const CURVATURE: f64 = 0.9;

/// Weka's relative step tolerance: the line search gives up below `STEP_TOLERANCE / |direction|`
/// (largest relative component).
const STEP_TOLERANCE: f64 = 1e-6;

/// Weka's bound on the step: this many times the larger of the gradient's norm and the number of
/// variables.
const STEP_BOUND_FACTOR: f64 = 100.0;

/// Iterations per run of the optimiser; a run that ends without converging is restarted from its
/// last point with a fresh Hessian approximation (Weka's `-M -1`).
pub const ITERATIONS_PER_RUN: usize = 200;

/// Runs after which the fit is abandoned (Weka would go on): far beyond any fit seen.
const MAX_RUNS: usize = 5_000;

/// The machine epsilon as Weka computes it (`2^-52`).
const EPSILON: f64 = f64::EPSILON;

/// Weka's "zero": the square root of the machine epsilon (`2^-26`), its tolerance for slopes,
/// relative steps and gradients.
const ZERO: f64 = 1.490_116_119_384_765_6e-8;

/// The rows to fit, as Weka's `Logistic` holds them: `rows x width` values row-major, column 0
/// all ones, the others standardised.
pub struct Design<'a> {
    /// Row-major values.
    pub values: &'a [f64],
    /// Number of columns (with the constant column).
    pub width: usize,
    /// The class of each row, `0..=k` (`k`, the last class, is the reference).
    pub classes: &'a [u32],
    /// The weight of each row.
    pub weights: &'a [f64],
    /// Number of scored classes (all classes but the reference).
    pub k: usize,
    /// The ridge on the non-intercept coefficients.
    pub ridge: f64,
}

/// Why the optimisation stopped without coefficients (where Weka throws an exception).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QuasiNewtonError {
    /// The objective, a factor or the direction became NaN.
    #[error("Weka's BFGS path reached an undefined value ({0})")]
    Undefined(&'static str),
    /// The search direction pointed uphill (Weka: "g'*p positive").
    #[error("Weka's BFGS path produced an uphill direction (Weka stops with \"g'*p positive\")")]
    Uphill,
    /// [`MAX_RUNS`] runs of [`ITERATIONS_PER_RUN`] iterations without converging.
    #[error("Weka's BFGS path did not converge in {0} iterations")]
    NotConverged(usize),
}

/// The result of a fit.
pub struct Solution {
    /// Coefficients, class-major: `coefficients[c * width + j]`.
    pub coefficients: Vec<f64>,
    /// BFGS iterations over all runs.
    pub iterations: usize,
    /// Runs of at most [`ITERATIONS_PER_RUN`] iterations (1 when the first run converged).
    pub runs: usize,
    /// The objective at the coefficients.
    pub objective: f64,
}

/// The rows of nonzero weight of a [`Design`] (rows of weight 0 add exactly nothing to Weka's
/// sums), contiguous: the design's own when every weight is nonzero, else a copy; with the
/// objective and its gradient.
struct PositiveRows<'a> {
    values: Cow<'a, [f64]>,
    classes: Cow<'a, [u32]>,
    weights: Cow<'a, [f64]>,
    width: usize,
    k: usize,
    ridge: f64,
}

/// Rows whose class scores are summed side by side (each sum still in column order).
const ROWS_TOGETHER: usize = 4;

impl<'a> PositiveRows<'a> {
    fn new(design: &Design<'a>) -> Self {
        let mut rows = PositiveRows {
            values: Cow::Borrowed(design.values),
            classes: Cow::Borrowed(design.classes),
            weights: Cow::Borrowed(design.weights),
            width: design.width,
            k: design.k,
            ridge: design.ridge,
        };
        if design.weights.iter().all(|&weight| weight != 0.0) {
            return rows;
        }
        let (mut values, mut classes, mut weights) = (Vec::new(), Vec::new(), Vec::new());
        for ((row, &class), &weight) in design
            .values
            .chunks_exact(design.width)
            .zip(design.classes)
            .zip(design.weights)
        {
            if weight != 0.0 {
                values.extend_from_slice(row);
                classes.push(class);
                weights.push(weight);
            }
        }
        rows.values = Cow::Owned(values);
        rows.classes = Cow::Owned(classes);
        rows.weights = Cow::Owned(weights);
        rows
    }

    /// Fills `scores` (`k` per row) with each row's `b_c . z`, summed in column order from the
    /// first term as Weka's loops do; [`ROWS_TOGETHER`] rows at a time, so that their sums
    /// proceed side by side rather than one long chain after another (the same results).
    fn fill_scores(&self, x: &[f64], scores: &mut [f64]) {
        let (width, k) = (self.width, self.k);
        let block_values = ROWS_TOGETHER * width;
        let blocks = self.values.len() / block_values;
        let (head, tail) = self.values.split_at(blocks * block_values);
        let (head_scores, tail_scores) = scores.split_at_mut(blocks * ROWS_TOGETHER * k);
        for (rows, out) in head
            .chunks_exact(block_values)
            .zip(head_scores.chunks_exact_mut(ROWS_TOGETHER * k))
        {
            for (class, coefficients) in x.chunks_exact(width).enumerate() {
                let mut sums = [0.0; ROWS_TOGETHER];
                for (j, &b) in coefficients.iter().enumerate() {
                    for (r, sum) in sums.iter_mut().enumerate() {
                        *sum += rows[r * width + j] * b;
                    }
                }
                for (r, &sum) in sums.iter().enumerate() {
                    out[r * k + class] = sum;
                }
            }
        }
        for (row, out) in tail
            .chunks_exact(width)
            .zip(tail_scores.chunks_exact_mut(k))
        {
            for (score, coefficients) in out.iter_mut().zip(x.chunks_exact(width)) {
                *score = sequential_dot(row, coefficients);
            }
        }
    }

    /// The objective: weighted negative log-likelihood plus the ridge times the squared
    /// non-intercept coefficients. Also fills `probabilities` with the `k` scored classes'
    /// probabilities of each row, computed exactly as Weka's gradient computes them, for
    /// [`PositiveRows::gradient`] at the same point.
    fn objective(&self, x: &[f64], probabilities: &mut [f64]) -> f64 {
        self.fill_scores(x, probabilities);
        let mut total = 0.0;
        for ((&class, &weight), scores) in self
            .classes
            .iter()
            .zip(self.weights.iter())
            .zip(probabilities.chunks_exact_mut(self.k))
        {
            let class = class as usize;
            // The largest score (the first on ties).
            let mut largest = scores[0];
            for &score in &scores[1..] {
                if score > largest {
                    largest = score;
                }
            }
            let own = if class == self.k {
                -largest
            } else {
                scores[class] - largest
            };
            let mut denominator = (-largest).exp();
            for score in scores.iter_mut() {
                *score = super::exp::exp_or_one(*score - largest);
                denominator += *score;
            }
            total -= weight * (own - denominator.ln());
            for score in scores.iter_mut() {
                *score /= denominator;
            }
        }
        for block in x.chunks_exact(self.width) {
            for &b in &block[1..] {
                total += self.ridge * b * b;
            }
        }
        total
    }

    /// The objective's gradient at `x`, into `gradient`, from the rows' probabilities at `x`
    /// (as [`PositiveRows::objective`] leaves them).
    fn gradient(&self, x: &[f64], probabilities: &[f64], gradient: &mut [f64]) {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        let width = self.width;
        for (((row, &class), &weight), row_probabilities) in self
            .values
            .chunks_exact(width)
            .zip(self.classes.iter())
            .zip(self.weights.iter())
            .zip(probabilities.chunks_exact(self.k))
        {
            let class = class as usize;
            for (block, &probability) in gradient.chunks_exact_mut(width).zip(row_probabilities) {
                let factor = weight * probability;
                for (g, &z) in block.iter_mut().zip(row) {
                    *g += factor * z;
                }
            }
            if class != self.k {
                for (g, &z) in gradient[class * width..(class + 1) * width]
                    .iter_mut()
                    .zip(row)
                {
                    *g -= weight * z;
                }
            }
        }
        for (block, coefficients) in gradient.chunks_exact_mut(width).zip(x.chunks_exact(width)) {
            for (g, &b) in block[1..].iter_mut().zip(&coefficients[1..]) {
                *g += 2.0 * self.ridge * b;
            }
        }
    }
}

/// `sum_j a_j b_j`, added in order from the first term (as Weka's loops do).
#[inline]
pub fn sequential_dot(a: &[f64], b: &[f64]) -> f64 {
    let mut total = 0.0;
    for (x, y) in a.iter().zip(b) {
        total += x * y;
    }
    total
}

/// Java's `Math.max` (NaN if either is NaN), where Rust's `f64::max` would drop a NaN.
fn java_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// Minimises the objective from `start` (`k * width` values, Weka's null model) along Weka's
/// path: runs of [`ITERATIONS_PER_RUN`] BFGS iterations, each restarted from the last point,
/// until a run meets the convergence tests.
pub fn minimise(design: &Design, start: Vec<f64>) -> Result<Solution, QuasiNewtonError> {
    let rows = PositiveRows::new(design);
    let mut optimiser = Optimiser::new(&rows);
    let mut x = start;
    let mut iterations = 0;
    for run in 1..=MAX_RUNS {
        let outcome = optimiser.run(x)?;
        iterations += outcome.iterations;
        x = outcome.x;
        if outcome.converged {
            return Ok(Solution {
                coefficients: x,
                iterations,
                runs: run,
                objective: optimiser.value,
            });
        }
    }
    Err(QuasiNewtonError::NotConverged(iterations))
}

/// One run's end point, its iterations, and whether it met the convergence tests.
struct RunOutcome {
    x: Vec<f64>,
    iterations: usize,
    converged: bool,
}

/// The optimiser's state across the line search and the BFGS update: the current objective
/// value and the initial slope of the last line search, as Weka keeps them between calls.
struct Optimiser<'a> {
    rows: &'a PositiveRows<'a>,
    /// Number of variables.
    size: usize,
    /// The objective value the optimiser holds (not always the value at the current point:
    /// Weka keeps the last value computed, as this does).
    value: f64,
    /// `gradient . direction` at the start of the last line search.
    slope: f64,
    /// The rows' class probabilities at `probabilities_at` (the last point whose objective was
    /// computed), which the gradient there reuses: Weka computes them again, to the same bits.
    probabilities: Vec<f64>,
    probabilities_at: Vec<f64>,
}

impl<'a> Optimiser<'a> {
    fn new(rows: &'a PositiveRows<'a>) -> Self {
        Optimiser {
            rows,
            size: rows.k * rows.width,
            value: 0.0,
            slope: 0.0,
            probabilities: vec![0.0; rows.classes.len() * rows.k],
            probabilities_at: Vec::new(),
        }
    }

    fn objective(&mut self, x: &[f64]) -> Result<f64, QuasiNewtonError> {
        let value = self.rows.objective(x, &mut self.probabilities);
        self.probabilities_at.clear();
        self.probabilities_at.extend_from_slice(x);
        if value.is_nan() {
            return Err(QuasiNewtonError::Undefined("objective"));
        }
        Ok(value)
    }

    fn gradient(&mut self, x: &[f64]) -> Vec<f64> {
        let same_point = self.probabilities_at.len() == x.len()
            && self
                .probabilities_at
                .iter()
                .zip(x)
                .all(|(a, b)| a.to_bits() == b.to_bits());
        if !same_point {
            self.rows.objective(x, &mut self.probabilities);
            self.probabilities_at.clear();
            self.probabilities_at.extend_from_slice(x);
        }
        let mut gradient = vec![0.0; self.size];
        self.rows.gradient(x, &self.probabilities, &mut gradient);
        gradient
    }

    /// One run from `start`: at most [`ITERATIONS_PER_RUN`] iterations, starting from the
    /// identity as Hessian approximation and minus the gradient as direction.
    fn run(&mut self, start: Vec<f64>) -> Result<RunOutcome, QuasiNewtonError> {
        let size = self.size;
        self.value = self.objective(&start)?;
        let mut gradient = self.gradient(&start);
        let mut factor = Factor::identity(size);
        let mut direction: Vec<f64> = gradient.iter().map(|g| -g).collect();
        let mut squares = 0.0;
        for g in &gradient {
            squares += g * g;
        }
        let step_bound = STEP_BOUND_FACTOR * java_max(squares.sqrt(), size as f64);
        let mut x = start;
        let mut change = vec![0.0; size];
        let mut gradient_change = vec![0.0; size];
        for iteration in 1..=ITERATIONS_PER_RUN {
            let old_x = x;
            let old_gradient = gradient;
            x = self.line_search(&old_x, &old_gradient, &mut direction, step_bound)?;
            // Convergence on the step.
            let mut finished = false;
            let mut test: f64 = 0.0;
            for ((delta, &new), &old) in change.iter_mut().zip(&x).zip(&old_x) {
                *delta = new - old;
                let relative = delta.abs() / new.abs().max(1.0);
                if relative > test {
                    test = relative;
                }
            }
            if test < ZERO {
                finished = true;
            }
            // Convergence on the gradient, and the curvature along the step.
            gradient = self.gradient(&x);
            let mut test: f64 = 0.0;
            let mut curvature = 0.0;
            let mut change_squares = 0.0;
            let mut gradient_change_squares = 0.0;
            let scale = self.value.abs().max(1.0);
            for i in 0..size {
                gradient_change[i] = gradient[i] - old_gradient[i];
                curvature += change[i] * gradient_change[i];
                change_squares += change[i] * change[i];
                gradient_change_squares += gradient_change[i] * gradient_change[i];
                let relative = gradient[i].abs() * direction[i].abs().max(1.0) / scale;
                if relative > test {
                    test = relative;
                }
            }
            if test < ZERO || curvature.abs() < ZERO {
                finished = true;
            }
            if finished {
                self.value = self.objective(&x)?;
                return Ok(RunOutcome {
                    x,
                    iterations: iteration,
                    converged: true,
                });
            }
            // The BFGS update, when the curvature keeps the approximation positive definite:
            // B + dg dg' / (dg' dx) + g g' / (g' p).
            let threshold = java_max(
                ZERO * change_squares.sqrt() * gradient_change_squares.sqrt(),
                ZERO,
            );
            if curvature >= threshold {
                factor.add_rank_one(&gradient_change, 1.0 / curvature)?;
                factor.add_rank_one(&old_gradient, 1.0 / self.slope)?;
            }
            direction = factor.solve_negated(&gradient);
            if direction.iter().any(|d| d.is_nan()) {
                return Err(QuasiNewtonError::Undefined("direction"));
            }
        }
        Ok(RunOutcome {
            x,
            iterations: ITERATIONS_PER_RUN,
            converged: false,
        })
    }

    /// `old + step * direction`.
    fn along(old: &[f64], direction: &[f64], step: f64) -> Vec<f64> {
        old.iter()
            .zip(direction)
            .map(|(&x, &d)| x + step * d)
            .collect()
    }

    /// `gradient(x) . direction`.
    fn slope_at(&mut self, x: &[f64], direction: &[f64]) -> f64 {
        let gradient = self.gradient(x);
        let mut slope = 0.0;
        for (g, d) in gradient.iter().zip(direction) {
            slope += g * d;
        }
        slope
    }

    /// Weka's line search from `old` along `direction` (scaled down in place to the step bound):
    /// the first trial is the full step; if it decreases the objective sufficiently but the
    /// slope has not risen enough, the step is doubled while the decrease stays sufficient;
    /// otherwise it backtracks by quadratic, then cubic interpolation; a final stage interpolates
    /// between the last sufficient and the first insufficient step for the slope condition.
    /// Updates `self.value` to the objective Weka holds afterwards.
    fn line_search(
        &mut self,
        old: &[f64],
        gradient: &[f64],
        direction: &mut [f64],
        step_bound: f64,
    ) -> Result<Vec<f64>, QuasiNewtonError> {
        let old_value = self.value;
        let largest_step = bound_direction(direction, step_bound);
        let mut slope = 0.0;
        for (g, d) in gradient.iter().zip(direction.iter()) {
            slope += g * d;
        }
        self.slope = slope;
        if slope.abs() <= ZERO {
            return Ok(old.to_vec());
        }
        if slope > ZERO {
            return Err(QuasiNewtonError::Uphill);
        }
        let test = largest_relative(direction, old);
        if test <= ZERO {
            return Ok(old.to_vec());
        }
        let search = LineSearch {
            old,
            direction,
            old_value,
            slope,
            wanted_slope: CURVATURE * slope,
            smallest_step: STEP_TOLERANCE / test,
            largest_step,
        };
        match self.backtrack(&search)? {
            Backtracked::Done(x) => Ok(x),
            Backtracked::Bracket(bracket) => self.interpolate_slope(&search, bracket),
        }
    }

    /// The first stage of the line search: the full step, halved while the objective is
    /// infinite, then backtracking by interpolation while the decrease is insufficient. Ends
    /// the search at a step that meets both conditions, or when no step is acceptable; else
    /// gives the bracket for the slope stage (after doubling a full step that decreased the
    /// objective sufficiently).
    fn backtrack(&mut self, search: &LineSearch) -> Result<Backtracked, QuasiNewtonError> {
        let old_value = search.old_value;
        let mut step: f64 = 1.0;
        let mut first_value = old_value;
        // The previous trial's step and objective value (Weka starts them at 0 and the old
        // value; they are set before they are read).
        let mut previous_step = 0.0;
        let mut previous_value = old_value;
        let mut round = 0;
        loop {
            let mut x = search.at(step);
            self.value = self.objective(&x)?;
            while self.value.is_infinite() {
                step *= 0.5;
                if step <= EPSILON {
                    return Ok(Backtracked::Done(x));
                }
                x = search.at(step);
                self.value = self.objective(&x)?;
                first_value = f64::INFINITY;
            }
            if search.sufficient(self.value, step) {
                let new_slope = self.slope_at(&x, search.direction);
                if new_slope >= search.wanted_slope {
                    return Ok(Backtracked::Done(x));
                }
                if round == 0 {
                    return self.expand(search, step, x, new_slope);
                }
                return Ok(Backtracked::Bracket(Bracket {
                    low: step,
                    high: previous_step,
                    low_value: self.value,
                    high_value: previous_value,
                    last_slope: new_slope,
                    x,
                }));
            } else if step < search.smallest_step {
                // No acceptable step: take the full step if its first trial decreased the
                // objective at all (keeping the last value computed, as Weka does), else stay.
                if first_value < old_value {
                    return Ok(Backtracked::Done(search.at(1.0)));
                }
                self.value = old_value;
                return Ok(Backtracked::Done(search.old.to_vec()));
            }
            if round == 0 && !first_value.is_infinite() {
                first_value = self.value;
            }
            let candidate =
                search.backtracking_step(round, step, self.value, previous_step, previous_value);
            previous_step = step;
            previous_value = self.value;
            step = java_max(candidate, 0.1 * step);
            round += 1;
        }
    }

    /// Sufficient decrease at the first trial `step` (at `x`, where the slope `new_slope` is
    /// still too steep): doubles the step while the decrease stays sufficient, up to the
    /// largest step. Ends the search where the slope has risen enough, else gives the bracket
    /// of the last sufficient step and the step after it.
    fn expand(
        &mut self,
        search: &LineSearch,
        mut step: f64,
        mut x: Vec<f64>,
        mut new_slope: f64,
    ) -> Result<Backtracked, QuasiNewtonError> {
        // Weka starts the bracket at the full step and the old value.
        let mut low: f64 = 1.0;
        let mut low_value = search.old_value;
        let upper = search.largest_step;
        while step < upper && search.sufficient(self.value, step) {
            low = step;
            low_value = self.value;
            step *= 2.0;
            if step >= upper {
                step = upper;
            }
            x = search.at(step);
            self.value = self.objective(&x)?;
            new_slope = self.slope_at(&x, search.direction);
            if new_slope >= search.wanted_slope {
                return Ok(Backtracked::Done(x));
            }
        }
        Ok(Backtracked::Bracket(Bracket {
            low,
            high: step,
            low_value,
            high_value: self.value,
            last_slope: new_slope,
            x,
        }))
    }

    /// The last stage of the line search: between `low` (sufficient decrease, slope too steep)
    /// and `high`, quadratic interpolation of the slope until the curvature condition holds
    /// (or the gap falls below the smallest step, when the search ends at `low`).
    fn interpolate_slope(
        &mut self,
        search: &LineSearch,
        bracket: Bracket,
    ) -> Result<Vec<f64>, QuasiNewtonError> {
        let Bracket {
            mut low,
            high,
            mut low_value,
            mut high_value,
            last_slope: mut new_slope,
            mut x,
        } = bracket;
        let mut gap = high - low;
        while new_slope < search.wanted_slope && gap >= search.smallest_step {
            let mut increment =
                -0.5 * new_slope * gap * gap / (high_value - low_value - new_slope * gap);
            if increment < 0.2 * gap {
                increment = 0.2 * gap;
            }
            let mut step = low + increment;
            if step >= high {
                step = high;
                increment = gap;
            }
            x = search.at(step);
            self.value = self.objective(&x)?;
            if !search.sufficient(self.value, step) {
                gap = increment;
                high_value = self.value;
            } else {
                new_slope = self.slope_at(&x, search.direction);
                if new_slope < search.wanted_slope {
                    low = step;
                    gap -= increment;
                    low_value = self.value;
                }
            }
        }
        if new_slope < search.wanted_slope {
            x = search.at(low);
            self.value = low_value;
        }
        Ok(x)
    }
}

/// Scales `direction` down in place to length `step_bound` when it is longer; returns the
/// largest step along it that stays within the bound (1 when it was scaled).
fn bound_direction(direction: &mut [f64], step_bound: f64) -> f64 {
    let mut norm = 0.0;
    for d in direction.iter() {
        norm += d * d;
    }
    let norm: f64 = norm.sqrt();
    let mut largest_step = 1.0;
    if norm > step_bound {
        for d in direction.iter_mut() {
            *d *= step_bound / norm;
        }
    } else {
        largest_step = step_bound / norm;
    }
    largest_step
}

/// The largest relative component of `step` at `x`: `|step_i| / max(|x_i|, 1)`.
fn largest_relative(step: &[f64], x: &[f64]) -> f64 {
    let mut test: f64 = 0.0;
    for (d, x) in step.iter().zip(x) {
        let relative = d.abs() / x.abs().max(1.0);
        if relative > test {
            test = relative;
        }
    }
    test
}

/// What one line search keeps fixed: where it starts, along what, and its conditions.
struct LineSearch<'s> {
    /// The starting point.
    old: &'s [f64],
    /// The direction, within the step bound.
    direction: &'s [f64],
    /// The objective at `old`.
    old_value: f64,
    /// The slope along `direction` at `old` (negative).
    slope: f64,
    /// The slope at which a step meets the curvature condition.
    wanted_slope: f64,
    /// The step below which the search gives up.
    smallest_step: f64,
    /// The longest step within the step bound.
    largest_step: f64,
}

impl LineSearch<'_> {
    /// `old + step * direction`.
    fn at(&self, step: f64) -> Vec<f64> {
        Optimiser::along(self.old, self.direction, step)
    }

    /// True when `value`, the objective at `step`, is a sufficient decrease (Armijo).
    fn sufficient(&self, value: f64, step: f64) -> bool {
        value <= self.old_value + SUFFICIENT_DECREASE * step * self.slope
    }

    /// The next trial step after `step` (of objective `value`) decreased the objective
    /// insufficiently: in round 0 the minimum of the quadratic through the start and `step`,
    /// later that of the cubic through them and the previous trial (at most half of `step`).
    fn backtracking_step(
        &self,
        round: usize,
        step: f64,
        value: f64,
        previous_step: f64,
        previous_value: f64,
    ) -> f64 {
        let (old_value, slope) = (self.old_value, self.slope);
        if round == 0 {
            return -0.5 * step * slope / ((value - old_value) / step - slope);
        }
        let rhs1 = value - old_value - step * slope;
        let rhs2 = previous_value - old_value - previous_step * slope;
        let a = (rhs1 / (step * step) - rhs2 / (previous_step * previous_step))
            / (step - previous_step);
        let b = (-previous_step * rhs1 / (step * step)
            + step * rhs2 / (previous_step * previous_step))
            / (step - previous_step);
        let candidate = if a == 0.0 {
            -slope / (2.0 * b)
        } else {
            let mut discriminant = b * b - 3.0 * a * slope;
            if discriminant < 0.0 {
                discriminant = 0.0;
            }
            let mut numerator = -b + discriminant.sqrt();
            if numerator >= f64::MAX {
                numerator = f64::MAX;
            }
            numerator / (3.0 * a)
        };
        if candidate > 0.5 * step {
            0.5 * step
        } else {
            candidate
        }
    }
}

/// Where the first stage of a line search ended.
enum Backtracked {
    /// The search is over, at this point.
    Done(Vec<f64>),
    /// The slope stage follows, in this bracket.
    Bracket(Bracket),
}

/// Two steps bracketing the curvature condition: `low` decreases the objective sufficiently
/// but the slope there is too steep; `high` is longer.
struct Bracket {
    low: f64,
    high: f64,
    /// The objective at `low` and at `high`.
    low_value: f64,
    high_value: f64,
    /// The slope at the last step whose slope was computed (too steep).
    last_slope: f64,
    /// The last point tried.
    x: Vec<f64>,
}

/// The Hessian approximation `B = L D L'`: `L` unit lower triangular (row-major, full square),
/// `D` diagonal.
struct Factor {
    size: usize,
    lower: Vec<f64>,
    diagonal: Vec<f64>,
}

impl Factor {
    fn identity(size: usize) -> Self {
        let mut lower = vec![0.0; size * size];
        for i in 0..size {
            lower[i * size + i] = 1.0;
        }
        Factor {
            size,
            lower,
            diagonal: vec![1.0; size],
        }
    }

    /// `L[row][column]`.
    fn at(&self, row: usize, column: usize) -> f64 {
        self.lower[row * self.size + column]
    }

    /// Solves `L y = v` (forward substitution; `L`'s diagonal is 1).
    fn forward(&self, v: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; self.size];
        for j in 0..self.size {
            let mut value = v[j];
            for (l, &solved) in self.lower[j * self.size..j * self.size + j].iter().zip(&y) {
                value -= l * solved;
            }
            y[j] = value / self.at(j, j);
        }
        y
    }

    /// The direction `-B^-1 g`: `(L D) y = -g` forward, then `L' d = y` backward.
    fn solve_negated(&self, gradient: &[f64]) -> Vec<f64> {
        let size = self.size;
        let mut y = vec![0.0; size];
        for j in 0..size {
            let mut value = -gradient[j];
            let row = &self.lower[j * size..j * size + j];
            for ((l, d), solved) in row.iter().zip(&self.diagonal).zip(&y[..j]) {
                value -= l * d * solved;
            }
            y[j] = value / (self.at(j, j) * self.diagonal[j]);
        }
        let mut direction = vec![0.0; size];
        for j in (0..size).rev() {
            let mut value = y[j];
            for (k, solved) in direction.iter().enumerate().skip(j + 1) {
                value -= self.at(k, j) * solved;
            }
            direction[j] = value / self.at(j, j);
        }
        direction
    }

    /// `L D L' + coefficient v v'`, updating the factors in place: Gill, Golub, Murray and
    /// Saunders' method C1 for a positive coefficient, C2 for a negative one (with Weka's floor
    /// on one term of the latter, which keeps `D` away from zero).
    fn add_rank_one(&mut self, v: &[f64], coefficient: f64) -> Result<(), QuasiNewtonError> {
        let size = self.size;
        let mut w = v.to_vec();
        if coefficient > 0.0 {
            let mut t = coefficient;
            for j in 0..size {
                let p = w[j];
                let d = self.diagonal[j];
                let new_d = d + t * p * p;
                self.diagonal[j] = new_d;
                let b = p * t / new_d;
                t *= d / new_d;
                self.update_column(j, p, b, &mut w);
            }
        } else {
            let p_all = self.forward(v);
            let mut t = 0.0;
            for (p, d) in p_all.iter().zip(&self.diagonal) {
                t += p * p / d;
            }
            let root = 1.0 + coefficient * t;
            let root = if root < 0.0 { 0.0 } else { root.sqrt() };
            let mut alpha = coefficient;
            let mut sigma = coefficient / (1.0 + root);
            for (j, &p_j) in p_all.iter().enumerate() {
                let d = self.diagonal[j];
                let p = p_j * p_j / d;
                let theta = 1.0 + sigma * p;
                t -= p;
                if t < 0.0 {
                    t = 0.0;
                }
                let mut plus = sigma * sigma * p * t;
                if j + 1 < size && plus <= ZERO {
                    plus = ZERO;
                }
                let mut rho = theta * theta + plus;
                self.diagonal[j] = rho * d;
                if self.diagonal[j].is_nan() {
                    return Err(QuasiNewtonError::Undefined("factor diagonal"));
                }
                let b = alpha * p_j / (rho * d);
                alpha /= rho;
                rho = rho.sqrt();
                sigma *= (1.0 + rho) / (rho * (theta + rho));
                if j + 1 < size && !sigma.is_finite() {
                    return Err(QuasiNewtonError::Undefined("factor update"));
                }
                self.update_column(j, p_j, b, &mut w);
            }
        }
        Ok(())
    }

    /// The column `j` step of both update methods: below the diagonal, `w_r -= p L_rj`, then
    /// `L_rj += b w_r`.
    fn update_column(&mut self, j: usize, p: f64, b: f64, w: &mut [f64]) {
        let size = self.size;
        for (r, w_r) in w.iter_mut().enumerate().skip(j + 1) {
            let slot = &mut self.lower[r * size + j];
            let l = *slot;
            *w_r -= p * l;
            *slot = l + b * *w_r;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `L D L'` as a full matrix.
    fn product(factor: &Factor) -> Vec<f64> {
        let n = factor.size;
        let mut matrix = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                matrix[i * n + j] = (0..n)
                    .map(|m| factor.at(i, m) * factor.diagonal[m] * factor.at(j, m))
                    .sum();
            }
        }
        matrix
    }

    #[test]
    fn rank_one_updates_of_the_factor_match_the_matrix_formula() {
        // B = I + 0.5 v v' (method C1), then B - 0.1 w w' (method C2, still positive definite:
        // 0.1 |w|^2 < 1), against the matrices written out; the direction solves B d = -g.
        let v = [1.0, 2.0, 3.0];
        let w = [0.5, -1.0, 0.25];
        let mut factor = Factor::identity(3);
        factor.add_rank_one(&v, 0.5).unwrap();
        let mut expected = [0.0; 9];
        for i in 0..3 {
            for j in 0..3 {
                expected[i * 3 + j] = if i == j { 1.0 } else { 0.0 } + 0.5 * v[i] * v[j];
            }
        }
        let got = product(&factor);
        assert!(got
            .iter()
            .zip(&expected)
            .all(|(a, b)| (a - b).abs() < 1e-12));
        factor.add_rank_one(&w, -0.1).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                expected[i * 3 + j] -= 0.1 * w[i] * w[j];
            }
        }
        let got = product(&factor);
        // Weka's floor on one term of C2 may move the result by about 1.5e-8.
        assert!(got.iter().zip(&expected).all(|(a, b)| (a - b).abs() < 1e-7));
        let gradient = [0.3, -0.7, 1.1];
        let direction = factor.solve_negated(&gradient);
        for i in 0..3 {
            let row: f64 = (0..3).map(|j| got[i * 3 + j] * direction[j]).sum();
            assert!((row + gradient[i]).abs() < 1e-12);
        }
    }

    #[test]
    fn intercept_only_stops_where_weka_stops() {
        // Three rows of class 0, one of class 1 (the reference), no attributes: the optimum
        // intercept is log(3 / 1), but Weka stops once |gradient . direction| <= 2^-26, here
        // 1.1e-4 short of it. Weka 3.6.14's Logistic on the same rows
        // (tests/data/logistic/intercept-only.arff, whose one constant attribute RemoveUseless
        // drops; tests/data/logistic/WekaLogisticTrace.java prints its coefficients, objective
        // and iterations) gives intercept 1.0985039958788845 and objective 2.249340582873061
        // after 4 iterations.
        let values = [1.0; 4];
        let design = Design {
            values: &values,
            width: 1,
            classes: &[0, 0, 0, 1],
            weights: &[1.0; 4],
            k: 1,
            ridge: 1e-8,
        };
        // Weka's null model start: log((3 + 1) / (1 + 1)).
        let solution = minimise(&design, vec![2f64.ln()]).unwrap();
        assert_eq!((solution.iterations, solution.runs), (4, 1));
        assert!((solution.coefficients[0] - 1.0985039958788845).abs() < 1e-15);
        assert!((solution.objective - 2.249340582873061).abs() < 1e-15);
        assert!((solution.coefficients[0] - 3f64.ln()).abs() < 2e-4);
    }
}
