//! Multinomial logistic regression with a ridge penalty, written for this project: Weka 3.6's
//! `Logistic` model (le Cessie and van Houwelingen's ridge estimator), fitted by Newton's method.
//!
//! The model and its preparation of the data follow Weka's:
//!
//! * missing values become the training mean (numeric) or mode (nominal), as Weka's
//!   `ReplaceMissingValues`;
//! * attributes that are useless after that are dropped, as Weka's `RemoveUseless`: a single
//!   value in training, or a nominal attribute with more than 99% distinct values (an identifier);
//!   likewise indicator columns that are constant in training (their coefficient would be 0);
//! * nominal attributes become indicator columns, as Weka's `NominalToBinary`
//!   ([`crate::encoding::Encoder`]: one column for a two-valued attribute, one per value else);
//! * each column is standardised by its weighted training mean and *sample* standard deviation
//!   (divisor total weight - 1), and the ridge applies to the coefficients of the standardised
//!   columns, not to the intercepts;
//! * the last class is the reference (score 0): `P(c | x) = exp(b_c . x) / (1 + sum_d exp(b_d . x))`,
//!   and the objective is `-log L + ridge |B|^2` with instance weights in the likelihood.
//!
//! Where Weka runs BFGS until its own convergence test, this module runs Newton's method with
//! an exact Hessian ([`newton`]) until a Newton step is below 1e-6 relative (taken whole: the
//! error after it is of the order of its square): a handful of passes over a contiguous
//! row-major matrix. Where the optimum is well determined both reach it, and the
//! probabilities agree with Weka's to about 1e-6 (Weka's tolerance). On training data that are
//! (nearly) linearly separable the ridge-1e-8 optimum lies at very large coefficients in a very
//! flat valley; this module reaches that optimum, while Weka's BFGS stops earlier, elsewhere in
//! the valley (see `docs/weka-comparison.md`).
//!
//! Classes absent from the training rows get probability 0 (the last class present is the
//! reference); one class present gives a constant model.
//!
//! The parameter `solver = "weka_bfgs"` fits the same model along Weka's own path instead
//! ([`quasi_newton`]), for reproducing a Weka-based result: Weka's BFGS with its line search,
//! tolerances and restarts every 200 iterations, on the data as Weka's `Logistic` holds them
//! (every class of the dataset, the last one the reference, absent ones included; standard
//! deviations by Weka's one-pass formula; indicator columns that are constant in training kept,
//! with coefficient 0). It stops where Weka stops, short of the optimum on separable data.

mod design;
mod exp;
mod gram;
pub mod newton;
pub mod quasi_newton;
mod two_valued;

use data::{Features, Schema, View};

use crate::adapters::ConstantModel;
use crate::encoding::{ColumnSource, Encoder, NominalMissing};
use crate::model::{Learner, LearnerError, Model, Probabilities};
use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::tune_space::TuneSpace;

/// Revision of the logistic-regression learner: bump it whenever its outputs change. (Revision
/// 1 was the linfa adapter, now the kind `linfa_logistic`; 2 the first Newton solver; 3 lengthens
/// steps across flat valleys, takes the last, tiny step without a line search and sums the
/// objective's logarithms as logarithms of products; 4 also stops, taking the step whole, when
/// the Newton decrement is below the objective's rounding, where nearly collinear designs had
/// walked on rounding noise for dozens of iterations; 5 sums the Hessian of designs whose
/// columns mostly take two values (indicator columns) over each column's rarer value, which
/// rounds differently; 6 also sums those designs' scores and gradient so, and fits on the rows
/// of nonzero weight built column by column, and takes the objective's exponentials from a
/// vectorisable polynomial within 2 units in the last place of the system's `exp`.)
const REVISION: u32 = 6;

/// Revision of the `weka_bfgs` solver, added to the revision text of learners that use it (so
/// that it can change without touching the cache keys of the default solver).
const WEKA_BFGS_REVISION: u32 = 1;

/// How the coefficients are fitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Newton's method to the optimum of the objective (the default).
    Newton,
    /// Weka 3.6's quasi-Newton path (`Logistic -M -1`), which stops short of the optimum on
    /// (nearly) separable data.
    WekaBfgs,
}

impl Solver {
    /// The config word.
    pub fn as_str(self) -> &'static str {
        match self {
            Solver::Newton => "newton",
            Solver::WekaBfgs => "weka_bfgs",
        }
    }
}

/// The share of distinct values above which Weka's `RemoveUseless` drops a nominal attribute.
const MAX_DISTINCT_PERCENT: f64 = 99.0;

/// The `logistic` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "logistic",
        description: "multinomial logistic regression with a ridge penalty, Weka's Logistic model (mean/mode imputation, indicator columns, standardisation, last class as reference) fitted by Newton's method, or along Weka 3.6's BFGS path with solver = \"weka_bfgs\"",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::real(
                "ridge",
                1e-8,
                0.0,
                1e6,
                "ridge (L2) penalty on the standardised coefficients, as Weka's -R",
            )
            .tuned(TuneSpace::Reals(&[1e-8, 1e-4, 1e-2, 1.0, 100.0])),
            ParameterSpec::integer(
                "max_iterations",
                100,
                1,
                1_000_000,
                "most Newton iterations (converged fits need fewer than 30, separable ones up to ~60); solver newton only",
            ),
            ParameterSpec::choice(
                "solver",
                "newton",
                &["newton", "weka_bfgs"],
                "newton: Newton's method to the optimum; weka_bfgs: Weka 3.6's BFGS path (Logistic -M -1, restarted every 200 iterations until its convergence test), Weka's coefficients where it stops short of the optimum",
            ),
        ],
        capabilities: Capabilities::ALL,
        build: Logistic::from_params,
    }
}

/// Ridge-penalised multinomial logistic regression (Weka's model, Newton's method or Weka's
/// BFGS path).
#[derive(Clone, Debug)]
pub struct Logistic {
    ridge: f64,
    max_iterations: usize,
    solver: Solver,
}

impl Logistic {
    /// A learner with the given ridge and Newton iteration limit (solver [`Solver::Newton`]).
    pub fn new(ridge: f64, max_iterations: usize) -> Self {
        Logistic {
            ridge,
            max_iterations,
            solver: Solver::Newton,
        }
    }

    /// The same learner fitting with `solver`.
    pub fn with_solver(mut self, solver: Solver) -> Self {
        self.solver = solver;
        self
    }

    /// Builds from checked config parameters: `ridge`, `max_iterations` and `solver`.
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        let solver = match params.choice("solver")? {
            "weka_bfgs" => Solver::WekaBfgs,
            _ => Solver::Newton,
        };
        Ok(Box::new(
            Logistic::new(params.real("ridge")?, params.integer("max_iterations")?)
                .with_solver(solver),
        ))
    }
}

/// A fitted logistic regression, with its coefficients in the units of the encoded (imputed,
/// indicator) columns, as Weka reports them.
#[derive(Clone, Debug)]
pub struct LogisticModel {
    encoder: Encoder,
    /// The encoder columns the model uses, in coefficient order.
    used: Vec<usize>,
    /// The classes of the dataset that have a score, the last one the reference (score 0).
    classes: Vec<usize>,
    /// `classes.len() - 1` blocks of `1 + used.len()` values: intercept, then one coefficient
    /// per used column.
    coefficients: Vec<f64>,
    num_classes: usize,
    /// Iterations the fit took (Newton or BFGS), and whether it converged.
    iterations: usize,
    converged: bool,
    /// The solver that fitted it (`WekaBfgs` models also predict with Weka's formula).
    solver: Solver,
    /// Runs of at most 200 BFGS iterations (`WekaBfgs`; 1 for Newton).
    runs: usize,
    /// The objective Weka's path ends with (`WekaBfgs`; NaN for Newton, which does not keep it).
    objective: f64,
}

impl Learner for Logistic {
    /// The cost hint of logistic regression: about 20 times naive Bayes per row and attribute.
    fn cost_hint(&self) -> f64 {
        20.0
    }

    fn name(&self) -> &str {
        "logistic"
    }

    fn revision(&self) -> String {
        match self.solver {
            Solver::Newton => revision_text("logistic", REVISION),
            Solver::WekaBfgs => format!(
                "{} (weka_bfgs r{WEKA_BFGS_REVISION})",
                revision_text("logistic", REVISION)
            ),
        }
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    /// False along Weka's path: Weka starts from the classes' row counts, not their weights, so a
    /// row of weight 2 and a duplicated row start (and so stop) at different points.
    fn exact_weights(&self) -> bool {
        self.solver == Solver::Newton
    }

    /// The default solver is left out, so that its text (and cache keys) stay as they were
    /// before the parameter existed.
    fn describe(&self) -> String {
        format!(
            "logistic(ridge={}, max_iterations={}{})",
            self.ridge,
            self.max_iterations,
            match self.solver {
                Solver::Newton => String::new(),
                solver => format!(", solver={}", solver.as_str()),
            }
        )
    }

    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        let num_classes = train.num_classes();
        let counts = train.class_counts();
        let classes: Vec<usize> = (0..num_classes).filter(|&c| counts[c] > 0.0).collect();
        match classes.len() {
            0 => {
                return Err(LearnerError::Data {
                    learner: self.name().into(),
                    message: "no training rows of positive weight".into(),
                })
            }
            // Weka's path fits every class of the dataset, present or not.
            1 if self.solver == Solver::Newton || num_classes == 1 => {
                return Ok(Box::new(ConstantModel::one_class(
                    classes[0],
                    num_classes,
                    false,
                )))
            }
            _ => {}
        }
        match self.solver {
            Solver::Newton => Ok(Box::new(self.fit_model(train, classes)?)),
            Solver::WekaBfgs => Ok(Box::new(self.fit_weka_path(train)?)),
        }
    }
}

impl Logistic {
    /// Fits on the classes present (at least two).
    fn fit_model(&self, train: &View, classes: Vec<usize>) -> Result<LogisticModel, LearnerError> {
        let rows = train.len();
        let encoded = Encoded::new(train);
        let statistics = encoded.statistics(train);
        let mut used = Vec::new();
        let mut shifts = Vec::new();
        let mut scales = Vec::new();
        let mut kept_slots = Vec::new();
        for (slot, (&index, statistic)) in encoded.candidates.iter().zip(&statistics).enumerate() {
            if let Some((mean, deviation)) = *statistic {
                used.push(index);
                shifts.push(mean);
                scales.push(deviation);
                kept_slots.push(slot);
            }
        }
        let width = used.len() + 1;
        // Newton's method reads the rows of nonzero weight only.
        let positive: Vec<usize> = (0..rows).filter(|&p| encoded.weights[p] != 0.0).collect();
        // Class positions among the present classes; the last present class is the reference.
        let mut position = vec![usize::MAX; train.num_classes()];
        for (index, &class) in classes.iter().enumerate() {
            position[class] = index;
        }
        // (Fewer than 2^32 classes: each has a value name in the schema.)
        let labels: Vec<u32> = (positive.iter())
            .map(|&p| position[train.class(p)] as u32)
            .collect();
        let weights: Vec<f64> = positive.iter().map(|&p| encoded.weights[p]).collect();
        let k = classes.len() - 1;
        // Start at Weka's null model: intercepts log((n_c + 1) / (n_ref + 1)), row counts.
        let mut row_counts = vec![0.0f64; classes.len()];
        for (&label, &weight) in labels.iter().zip(&weights) {
            if weight > 0.0 {
                row_counts[label as usize] += 1.0;
            }
        }
        let start = null_model(&row_counts, width);
        let standardised = Standardised {
            kept_slots: &kept_slots,
            shifts: &shifts,
            scales: &scales,
        };
        let design_rows = encoded.newton_rows(train, &standardised, &positive);
        let design = newton::Design {
            rows: &design_rows,
            width,
            classes: &labels,
            weights: &weights,
        };
        let solution = newton::minimise(&design, k, self.ridge, start, self.max_iterations);
        if solution.coefficients.iter().any(|b| !b.is_finite()) {
            return Err(LearnerError::Data {
                learner: self.name().into(),
                message: "Newton's method diverged (non-finite coefficients); a larger ridge \
                          keeps them finite"
                    .into(),
            });
        }
        let coefficients = to_encoded_units(solution.coefficients, &shifts, &scales);
        Ok(LogisticModel {
            encoder: encoded.encoder,
            used,
            classes,
            coefficients,
            num_classes: train.num_classes(),
            iterations: solution.iterations,
            converged: solution.converged,
            solver: Solver::Newton,
            runs: 1,
            objective: f64::NAN,
        })
    }

    /// Fits along Weka's path ([`quasi_newton`]) on the data as Weka's `Logistic` holds them:
    /// every class of the dataset (the last one the reference), the rows' class counts for the
    /// null model, every column of the attributes `RemoveUseless` keeps (a constant indicator
    /// column stays, unstandardised), standard deviations by Weka's one-pass formula.
    fn fit_weka_path(&self, train: &View) -> Result<LogisticModel, LearnerError> {
        let rows = train.len();
        let data = Imputed::new(train);
        let total_weight = data.encoded.total_weight;
        if total_weight <= 1.0 && rows > 1 {
            return Err(LearnerError::Data {
                learner: self.name().into(),
                message: format!(
                    "the training weights sum to {total_weight}, at most 1: Weka's Logistic \
                     refuses such data (\"Sum of weights of instances less than 1\")"
                ),
            });
        }
        let (encoder, candidates, stride) =
            (&data.encoded.encoder, &data.encoded.candidates, data.stride);
        // RemoveUseless also drops an attribute with a single value: one whose columns are all
        // constant over the rows of positive weight.
        let mut varies = vec![false; train.num_attributes()];
        let statistics = data.encoded.statistics(train);
        for (&index, statistic) in candidates.iter().zip(&statistics) {
            if statistic.is_some() {
                varies[source_attribute(&encoder.columns()[index].source)] = true;
            }
        }
        let kept_slots: Vec<usize> = (0..candidates.len())
            .filter(|&slot| varies[source_attribute(&encoder.columns()[candidates[slot]].source)])
            .collect();
        let used: Vec<usize> = kept_slots.iter().map(|&slot| candidates[slot]).collect();
        let (shifts, scales) =
            weka_column_statistics(&data.values, stride, &kept_slots, &data.encoded.weights);
        let width = used.len() + 1;
        let Imputed {
            encoded: Encoded {
                encoder, weights, ..
            },
            mut values,
            ..
        } = data;
        let standardised = Standardised {
            kept_slots: &kept_slots,
            shifts: &shifts,
            scales: &scales,
        };
        standardised.apply_in_place(&mut values, stride, width);
        let num_classes = train.num_classes();
        let k = num_classes - 1;
        // (Fewer than 2^32 classes: each has a value name in the schema.)
        let labels: Vec<u32> = (0..rows).map(|p| train.class(p) as u32).collect();
        // Weka's null model counts every row.
        let mut row_counts = vec![0.0f64; num_classes];
        for &label in &labels {
            row_counts[label as usize] += 1.0;
        }
        let start = null_model(&row_counts, width);
        let design = quasi_newton::Design {
            values: &values,
            width,
            classes: &labels,
            weights: &weights,
            k,
            ridge: self.ridge,
        };
        let solution =
            quasi_newton::minimise(&design, start).map_err(|error| LearnerError::Data {
                learner: self.name().into(),
                message: error.to_string(),
            })?;
        let coefficients = to_encoded_units(solution.coefficients, &shifts, &scales);
        Ok(LogisticModel {
            encoder,
            used,
            classes: (0..num_classes).collect(),
            coefficients,
            num_classes,
            iterations: solution.iterations,
            converged: true,
            solver: Solver::WekaBfgs,
            runs: solution.runs,
            objective: solution.objective,
        })
    }
}

/// Weka's starting point, the null model: each scored class's intercept
/// `log((n_c + 1) / (n_last + 1))` from the rows' class counts (the last class the reference),
/// every other coefficient 0; `width` values per scored class.
fn null_model(row_counts: &[f64], width: usize) -> Vec<f64> {
    let k = row_counts.len() - 1;
    let mut start = vec![0.0; k * width];
    for c in 0..k {
        start[c * width] = (row_counts[c] + 1.0).ln() - (row_counts[k] + 1.0).ln();
    }
    start
}

/// Coefficients of the standardised columns (blocks of intercept and one per column) back in
/// the units of the encoded columns, as Weka does (a column of scale 0, which Weka leaves
/// unstandardised, keeps its coefficient).
fn to_encoded_units(mut coefficients: Vec<f64>, shifts: &[f64], scales: &[f64]) -> Vec<f64> {
    for block in coefficients.chunks_exact_mut(shifts.len() + 1) {
        for (column, (&shift, &scale)) in shifts.iter().zip(scales).enumerate() {
            if scale != 0.0 {
                block[column + 1] /= scale;
                block[0] -= block[column + 1] * shift;
            }
        }
    }
    coefficients
}

/// The columns a solver keeps of the imputed rows, with each one's standardisation.
struct Standardised<'a> {
    /// The kept columns' positions after the constant column of [`Imputed`]'s rows, increasing.
    kept_slots: &'a [usize],
    /// Each kept column's shift and scale (a column of scale 0 is left as it is, as Weka does).
    shifts: &'a [f64],
    scales: &'a [f64],
}

impl Standardised<'_> {
    /// Rewrites rows of `from` values in place as rows of `to` values (`kept_slots.len() + 1
    /// <= to <= from`): the constant 1, the kept columns standardised, then zeros; `values` ends
    /// `to` values a row. One forward pass suffices: no value moves right.
    fn apply_in_place(&self, values: &mut Vec<f64>, from: usize, to: usize) {
        let rows = values.len() / from;
        let width = self.kept_slots.len() + 1;
        debug_assert!(width <= to && to <= from);
        // A column of scale 0 stays as it is: (x - 0) / 1 is x, to the bit.
        let (shifts, scales): (Vec<f64>, Vec<f64>) = (self.shifts.iter().zip(self.scales))
            .map(|(&shift, &scale)| {
                if scale != 0.0 {
                    (shift, scale)
                } else {
                    (0.0, 1.0)
                }
            })
            .unzip();
        if from == to
            && self
                .kept_slots
                .iter()
                .enumerate()
                .all(|(c, &slot)| c == slot)
        {
            // Every column kept in place (the usual case): no value moves.
            for row in values.chunks_exact_mut(to) {
                row[0] = 1.0;
                let standardised = row[1..width].iter_mut().zip(&shifts).zip(&scales);
                for ((z, &shift), &scale) in standardised {
                    *z = (*z - shift) / scale;
                }
            }
            return;
        }
        // A row's kept values, gathered before the row is rewritten (its start may overlap them).
        let mut kept = vec![0.0; width - 1];
        for row in 0..rows {
            let source = &values[row * from + 1..(row + 1) * from];
            for (x, &slot) in kept.iter_mut().zip(self.kept_slots) {
                *x = source[slot];
            }
            let target = &mut values[row * to..(row + 1) * to];
            target[0] = 1.0;
            let standardised = target[1..width].iter_mut().zip(&kept);
            for ((z, &x), (&shift, &scale)) in standardised.zip(shifts.iter().zip(&scales)) {
                *z = (x - shift) / scale;
            }
            target[width..].fill(0.0);
        }
        values.truncate(rows * to);
        values.shrink_to_fit();
    }
}

/// The training data's encoding as both solvers start from it.
struct Encoded {
    /// Mean/mode imputation and indicator columns, as Weka's filters.
    encoder: Encoder,
    /// The rows' weights and their total.
    weights: Vec<f64>,
    total_weight: f64,
    /// The encoder columns of the attributes `RemoveUseless` keeps (by its share of distinct
    /// values; constant columns are each solver's business).
    candidates: Vec<usize>,
}

impl Encoded {
    fn new(train: &View) -> Self {
        let encoder = Encoder::fit_with(train, false, NominalMissing::Mode);
        let weights: Vec<f64> = (0..train.len()).map(|p| train.weight(p)).collect();
        let total_weight: f64 = weights.iter().sum();
        let removed = useless_attributes(train, &encoder, &weights, total_weight);
        let candidates: Vec<usize> = encoder
            .columns()
            .iter()
            .enumerate()
            .filter(|(_, column)| !removed[source_attribute(&column.source)])
            .map(|(index, _)| index)
            .collect();
        Encoded {
            encoder,
            weights,
            total_weight,
            candidates,
        }
    }

    /// The imputed values of candidate `slot` over the training rows.
    fn imputed<'a>(&'a self, train: &'a View, slot: usize) -> impl Iterator<Item = f64> + 'a {
        let column = &self.encoder.columns()[self.candidates[slot]];
        imputed_values(train, &column.source, column.mean)
    }

    /// Newton's rows ([`design::Rows`]): the kept candidates, standardised, at the positions
    /// `positive` (increasing: the rows of nonzero weight); every scale is positive, as
    /// [`column_statistics`] keeps no column of deviation 0.
    fn newton_rows(
        &self,
        train: &View,
        standardised: &Standardised,
        positive: &[usize],
    ) -> design::Rows {
        let every_row = positive.len() == train.len();
        let columns = design::Columns {
            rows: positive.len(),
            width: standardised.kept_slots.len() + 1,
            shifts: standardised.shifts,
            scales: standardised.scales,
            raw: |j: usize, buffer: &mut Vec<f64>| {
                buffer.clear();
                let values = self.imputed(train, standardised.kept_slots[j - 1]);
                if every_row {
                    buffer.extend(values);
                } else {
                    let weighted = values.zip(&self.weights).filter(|(_, &w)| w != 0.0);
                    buffer.extend(weighted.map(|(x, _)| x));
                }
            },
            block: |j: usize, first: usize, out: &mut [f64]| {
                let column =
                    &self.encoder.columns()[self.candidates[standardised.kept_slots[j - 1]]];
                let (attribute, indicator) = attribute_and_indicator(&column.source);
                let values = train.column_of(attribute);
                for (x, &position) in out.iter_mut().zip(&positive[first..]) {
                    *x = impute(values.get(position), indicator, column.mean);
                }
            },
        };
        columns.into_rows()
    }

    /// Each candidate's weighted mean and sample standard deviation (see
    /// [`column_statistics`]), [`STATISTICS_GROUP`] candidates at a time.
    fn statistics(&self, train: &View) -> Vec<Option<(f64, f64)>> {
        let rows = train.len();
        let slots = self.candidates.len();
        let mut statistics = Vec::with_capacity(slots);
        // Above GROUPED_ROWS rows one column at a time: eight gathered columns of a
        // million-row fit would add 64 MB to the peak (the same sums either way).
        let group = if rows <= GROUPED_ROWS {
            STATISTICS_GROUP
        } else {
            1
        };
        let mut values = vec![0.0; group * rows];
        for first in (0..slots).step_by(group) {
            let count = group.min(slots - first);
            for (slot, column) in (first..first + count).zip(values.chunks_exact_mut(rows.max(1))) {
                for (target, x) in column.iter_mut().zip(self.imputed(train, slot)) {
                    *target = x;
                }
            }
            if count == STATISTICS_GROUP {
                let group: [&[f64]; STATISTICS_GROUP] =
                    std::array::from_fn(|g| &values[g * rows..(g + 1) * rows]);
                statistics.extend(column_statistics(group, &self.weights, self.total_weight));
            } else {
                for column in values.chunks_exact(rows.max(1)).take(count) {
                    let [statistic] = column_statistics([column], &self.weights, self.total_weight);
                    statistics.push(statistic);
                }
            }
        }
        statistics
    }
}

/// Columns whose statistics [`column_statistics`] sums side by side (their additions'
/// latencies overlap).
const STATISTICS_GROUP: usize = 8;

/// The most training rows whose columns' statistics are summed [`STATISTICS_GROUP`] at a time
/// (8 MiB of gathered values).
const GROUPED_ROWS: usize = 131_072;

/// The training data as Weka's path starts from it: the encoding and the imputed values.
struct Imputed {
    encoded: Encoded,
    /// Values per row of `values`: a constant column (left 0), then the candidates.
    stride: usize,
    /// The candidates' imputed values, row-major.
    values: Vec<f64>,
}

impl Imputed {
    fn new(train: &View) -> Self {
        let encoded = Encoded::new(train);
        let stride = encoded.candidates.len() + 1;
        let mut values = vec![0.0; train.len() * stride];
        for slot in 0..encoded.candidates.len() {
            let targets = values[1 + slot..].iter_mut().step_by(stride);
            for (target, x) in targets.zip(encoded.imputed(train, slot)) {
                *target = x;
            }
        }
        Imputed {
            encoded,
            stride,
            values,
        }
    }
}

/// The weighted mean and sample standard deviation of the given columns (`slots`, after the
/// first) of a row-major matrix as Weka's `Logistic` computes them, in one pass over the rows:
/// `sqrt(|sum w x^2 - W mean^2| / (W - 1))` (0 when the total weight `W` is at most 1).
fn weka_column_statistics(
    values: &[f64],
    stride: usize,
    slots: &[usize],
    weights: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let mut total_weight = 0.0;
    let mut sums = vec![0.0; slots.len()];
    let mut squares = vec![0.0; slots.len()];
    for (row, &w) in values.chunks_exact(stride).zip(weights) {
        total_weight += w;
        for ((sum, square), &slot) in sums.iter_mut().zip(&mut squares).zip(slots) {
            let x = row[1 + slot];
            *sum += w * x;
            *square += w * x * x;
        }
    }
    let means: Vec<f64> = sums.iter().map(|sum| sum / total_weight).collect();
    let deviations = squares
        .iter()
        .zip(&means)
        .map(|(&square, &mean)| {
            if total_weight > 1.0 {
                ((square - total_weight * mean * mean).abs() / (total_weight - 1.0)).sqrt()
            } else {
                0.0
            }
        })
        .collect();
    (means, deviations)
}

/// The attribute an encoded column comes from.
fn source_attribute(source: &ColumnSource) -> usize {
    match *source {
        ColumnSource::Numeric { attribute } | ColumnSource::Indicator { attribute, .. } => {
            attribute
        }
    }
}

/// The attribute an encoded column reads, and the value (as a number) whose indicator it is.
fn attribute_and_indicator(source: &ColumnSource) -> (usize, Option<f64>) {
    match *source {
        ColumnSource::Numeric { attribute } => (attribute, None),
        // A nominal value is stored as its index, a whole number.
        ColumnSource::Indicator { attribute, value } => (attribute, Some(value as f64)),
    }
}

/// An attribute's value `x` as its encoded column holds it: `fill` when missing, else the
/// indicator of `indicator` or (`None`) the value itself.
#[inline(always)]
fn impute(x: f64, indicator: Option<f64>, fill: f64) -> f64 {
    match indicator {
        _ if x.is_nan() => fill,
        Some(value) => f64::from(u8::from(x == value)),
        None => x,
    }
}

/// One encoded column over the training rows, missing values replaced by `fill`.
fn imputed_values<'a>(
    train: &'a View,
    source: &ColumnSource,
    fill: f64,
) -> impl Iterator<Item = f64> + 'a {
    let (attribute, indicator) = attribute_and_indicator(source);
    train
        .column(attribute)
        .map(move |x| impute(x, indicator, fill))
}

/// The weighted mean and sample standard deviation (divisor total weight - 1, or the total
/// weight when that is at most 1) of each of `G` columns of values over the rows, or `None` for
/// a column that is constant over the rows of positive weight (Weka's `RemoveUseless` drops it;
/// its coefficient would be 0). Each column's sums run over the rows in order, the `G` columns'
/// side by side.
#[inline(always)]
fn column_statistics<const G: usize>(
    columns: [&[f64]; G],
    weights: &[f64],
    total_weight: f64,
) -> [Option<(f64, f64)>; G] {
    let rows = weights.len();
    let columns = columns.map(|column| &column[..rows]);
    let Some(first_row) = weights.iter().position(|&w| w > 0.0) else {
        return [None; G];
    };
    let first = columns.map(|column| column[first_row]);
    let mut constant = [true; G];
    let mut sum = [0.0; G];
    for (row, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            for g in 0..G {
                let x = columns[g][row];
                constant[g] &= first[g] == x;
                sum[g] += w * x;
            }
        }
    }
    let mean = sum.map(|sum| sum / total_weight);
    let mut square = [0.0; G];
    for (row, &w) in weights.iter().enumerate() {
        for g in 0..G {
            let x = columns[g][row];
            square[g] += w * (x - mean[g]) * (x - mean[g]);
        }
    }
    let divisor = if total_weight > 1.0 {
        total_weight - 1.0
    } else {
        total_weight
    };
    std::array::from_fn(|g| {
        if constant[g] {
            return None;
        }
        let deviation = (square[g] / divisor).sqrt();
        (deviation > 0.0).then_some((mean[g], deviation))
    })
}

/// Which attributes Weka's `RemoveUseless` drops besides constant ones: nominal attributes with
/// more than 99% distinct values among the rows (weighted count), after mode imputation.
fn useless_attributes(
    train: &View,
    encoder: &Encoder,
    weights: &[f64],
    total_weight: f64,
) -> Vec<bool> {
    let schema = train.schema();
    let mut removed = vec![false; schema.num_attributes()];
    for (attribute, description) in schema.attributes.iter().enumerate() {
        let Some(values) = description.values() else {
            continue;
        };
        // The mode fills missing values: the value whose indicator is filled with 1.
        let mode = encoder
            .columns()
            .iter()
            .find_map(|column| match column.source {
                ColumnSource::Indicator {
                    attribute: a,
                    value,
                } if a == attribute && column.mean == 1.0 => Some(value),
                _ => None,
            });
        let mut seen = vec![false; values.len()];
        for (x, &w) in train.column(attribute).zip(weights) {
            if w > 0.0 {
                let value = if x.is_nan() {
                    mode.unwrap_or(0)
                } else {
                    x as usize
                };
                if let Some(flag) = seen.get_mut(value) {
                    *flag = true;
                }
            }
        }
        let distinct = seen.iter().filter(|&&s| s).count() as f64;
        if distinct / total_weight * 100.0 > MAX_DISTINCT_PERCENT {
            removed[attribute] = true;
        }
    }
    removed
}

impl LogisticModel {
    /// Iterations the fit took: Newton iterations, or BFGS iterations over all runs.
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// Whether the solver met its convergence test (Newton's within the iteration limit).
    pub fn converged(&self) -> bool {
        self.converged
    }

    /// Runs of at most 200 BFGS iterations along Weka's path (1 for Newton's method).
    pub fn runs(&self) -> usize {
        self.runs
    }

    /// The coefficients in the units of the encoded columns: one row per scored class (the
    /// classes fitted but the last, the reference: present classes for Newton's method, every
    /// class for Weka's path), intercept first.
    pub fn coefficients(&self) -> Vec<Vec<f64>> {
        self.coefficients
            .chunks_exact(self.used.len() + 1)
            .map(<[f64]>::to_vec)
            .collect()
    }
}

impl Model for LogisticModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let width = self.used.len() + 1;
        let k = self.classes.len() - 1;
        // The encoded values of the used columns, column by column, then row by row.
        let columns = self.encoder.columns();
        let rows = test.len();
        let mut encoded = vec![0.0; rows * width];
        for row in encoded.chunks_exact_mut(width) {
            row[0] = 1.0;
        }
        for (slot, &index) in self.used.iter().enumerate() {
            let column = &columns[index];
            for (row, x) in test.column(source_attribute(&column.source)).enumerate() {
                let value = match column.source {
                    _ if x.is_nan() => column.mean,
                    ColumnSource::Numeric { .. } => x,
                    ColumnSource::Indicator { value, .. } => {
                        if x as usize == value {
                            1.0
                        } else {
                            0.0
                        }
                    }
                };
                encoded[row * width + slot + 1] = value;
            }
        }
        let mut probabilities = Probabilities::zeros(rows, self.num_classes);
        let mut scores = vec![0.0; k + 1];
        if self.solver == Solver::WekaBfgs {
            // Weka's formula, so that saturated probabilities round as Weka's do:
            // p_m = 1 / (sum_n exp(v_n - v_m) + exp(-v_m)), with the reference's v = 0.
            for (row, values) in encoded.chunks_exact(width).enumerate() {
                for (score, block) in scores.iter_mut().zip(self.coefficients.chunks_exact(width)) {
                    *score = quasi_newton::sequential_dot(values, block);
                }
                scores[k] = 0.0;
                let out = probabilities.row_mut(row);
                for (&class, &own) in self.classes.iter().zip(&scores) {
                    let mut sum = 0.0;
                    for &other in &scores[..k] {
                        sum += (other - own).exp();
                    }
                    out[class] = 1.0 / (sum + (-own).exp());
                }
            }
            return Ok(probabilities);
        }
        for (row, values) in encoded.chunks_exact(width).enumerate() {
            for (score, block) in scores.iter_mut().zip(self.coefficients.chunks_exact(width)) {
                *score = gram::dot(values, block);
            }
            scores[k] = 0.0;
            crate::adapters::normalise_log_scores(&mut scores);
            let out = probabilities.row_mut(row);
            for (&class, &p) in self.classes.iter().zip(&scores) {
                out[class] = p;
            }
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let names = self.encoder.column_names(schema);
        let reference = &schema.class_values[*self.classes.last().expect("two classes")];
        let mut text = match self.solver {
            Solver::Newton => format!(
                "multinomial logistic regression, reference class {reference} ({} Newton iterations{})\n",
                self.iterations,
                if self.converged { "" } else { ", not converged" }
            ),
            Solver::WekaBfgs => format!(
                "multinomial logistic regression, reference class {reference} ({} BFGS iterations along Weka's path, {} run(s) of at most {}, objective {:e})\n",
                self.iterations,
                self.runs,
                quasi_newton::ITERATIONS_PER_RUN,
                self.objective
            ),
        };
        for (block, &class) in self
            .coefficients
            .chunks_exact(self.used.len() + 1)
            .zip(&self.classes)
        {
            text += &format!(
                "class {}: intercept {:.6}",
                schema.class_values[class], block[0]
            );
            for (slot, &index) in self.used.iter().enumerate() {
                text += &format!(", {} {:.6}", names[index], block[slot + 1]);
            }
            text.push('\n');
        }
        text
    }
}
