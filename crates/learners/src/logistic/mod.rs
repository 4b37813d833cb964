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

pub mod newton;

use data::{Features, Schema, View};

use crate::adapters::ConstantModel;
use crate::encoding::{ColumnSource, Encoder, NominalMissing};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::{Learner, LearnerError, Model, ParamError, Params, Probabilities};

/// Revision of the logistic-regression learner: bump it whenever its outputs change. (Revision
/// 1 was the linfa adapter, now the kind `linfa_logistic`; 2 the first Newton solver; 3 lengthens
/// steps across flat valleys, takes the last, tiny step without a line search and sums the
/// objective's logarithms as logarithms of products.)
const REVISION: u32 = 3;

/// The share of distinct values above which Weka's `RemoveUseless` drops a nominal attribute.
const MAX_DISTINCT_PERCENT: f64 = 99.0;

/// The `logistic` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "logistic",
        description: "multinomial logistic regression with a ridge penalty, Weka's Logistic model (mean/mode imputation, indicator columns, standardisation, last class as reference) fitted by Newton's method",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::real(
                "ridge",
                1e-8,
                0.0,
                1e6,
                "ridge (L2) penalty on the standardised coefficients, as Weka's -R",
            ),
            ParameterSpec::integer(
                "max_iterations",
                100,
                1,
                1_000_000,
                "most Newton iterations (converged fits need fewer than 30, separable ones up to ~60)",
            ),
        ],
        capabilities: Capabilities::ALL,
        build: Logistic::from_params,
    }
}

/// Ridge-penalised multinomial logistic regression (Weka's model, Newton's method).
#[derive(Clone, Debug)]
pub struct Logistic {
    ridge: f64,
    max_iterations: usize,
}

impl Logistic {
    /// A learner with the given ridge and iteration limit.
    pub fn new(ridge: f64, max_iterations: usize) -> Self {
        Logistic {
            ridge,
            max_iterations,
        }
    }

    /// Builds from checked config parameters: `ridge` and `max_iterations`.
    pub fn from_params(params: Params) -> Result<Box<dyn Learner>, ParamError> {
        Ok(Box::new(Logistic::new(
            params.real("ridge")?,
            params.integer("max_iterations")?,
        )))
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
    /// Newton iterations the fit took, and whether it converged.
    iterations: usize,
    converged: bool,
}

impl Learner for Logistic {
    fn name(&self) -> &str {
        "logistic"
    }

    fn revision(&self) -> String {
        revision_text("logistic", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    fn describe(&self) -> String {
        format!(
            "logistic(ridge={}, max_iterations={})",
            self.ridge, self.max_iterations
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
            1 => {
                return Ok(Box::new(ConstantModel::one_class(
                    classes[0],
                    num_classes,
                    false,
                )))
            }
            _ => {}
        }
        Ok(Box::new(self.fit_model(train, classes)?))
    }
}

impl Logistic {
    /// Fits on the classes present (at least two).
    fn fit_model(&self, train: &View, classes: Vec<usize>) -> Result<LogisticModel, LearnerError> {
        let encoder = Encoder::fit_with(train, false, NominalMissing::Mode);
        let rows = train.len();
        let weights: Vec<f64> = (0..rows).map(|p| train.weight(p)).collect();
        let total_weight: f64 = weights.iter().sum();
        let removed = useless_attributes(train, &encoder, &weights, total_weight);
        // The imputed values of the encoded columns of the attributes kept, row-major after a
        // constant column, then each column's weighted mean and sample standard deviation.
        let candidates: Vec<usize> = encoder
            .columns()
            .iter()
            .enumerate()
            .filter(|(_, column)| !removed[source_attribute(&column.source)])
            .map(|(index, _)| index)
            .collect();
        let stride = candidates.len() + 1;
        let mut values = vec![0.0; rows * stride];
        for (slot, &index) in candidates.iter().enumerate() {
            let column = &encoder.columns()[index];
            let targets = values[1 + slot..].iter_mut().step_by(stride);
            for (target, x) in targets.zip(imputed_values(train, &column.source, column.mean)) {
                *target = x;
            }
        }
        let statistics = column_statistics(&values, stride, &weights, total_weight);
        let mut used = Vec::new();
        let mut shifts = Vec::new();
        let mut scales = Vec::new();
        let mut kept_slots = Vec::new();
        for (slot, (&index, statistic)) in candidates.iter().zip(&statistics).enumerate() {
            if let Some((mean, deviation)) = *statistic {
                used.push(index);
                shifts.push(mean);
                scales.push(deviation);
                kept_slots.push(slot);
            }
        }
        let width = used.len() + 1;
        if width == stride {
            for row in values.chunks_exact_mut(width) {
                row[0] = 1.0;
                for ((x, shift), scale) in row[1..].iter_mut().zip(&shifts).zip(&scales) {
                    *x = (*x - shift) / scale;
                }
            }
        } else {
            // Constant columns (RemoveUseless drops them) are left out by moving the kept ones
            // left within each row; no value moves right, so one forward pass does it.
            for row in 0..rows {
                values[row * width] = 1.0;
                for (column, &slot) in kept_slots.iter().enumerate() {
                    let x = values[row * stride + 1 + slot];
                    values[row * width + 1 + column] = (x - shifts[column]) / scales[column];
                }
            }
            values.truncate(rows * width);
        }
        // Class positions among the present classes; the last present class is the reference.
        let mut position = vec![usize::MAX; train.num_classes()];
        for (index, &class) in classes.iter().enumerate() {
            position[class] = index;
        }
        let labels: Vec<usize> = (0..rows).map(|p| position[train.class(p)]).collect();
        let k = classes.len() - 1;
        // Start at Weka's null model: intercepts log((n_c + 1) / (n_ref + 1)), row counts.
        let mut row_counts = vec![0.0f64; classes.len()];
        for (&label, &weight) in labels.iter().zip(&weights) {
            if weight > 0.0 {
                row_counts[label] += 1.0;
            }
        }
        let mut start = vec![0.0; k * width];
        for c in 0..k {
            start[c * width] = (row_counts[c] + 1.0).ln() - (row_counts[k] + 1.0).ln();
        }
        let design = newton::Design {
            values: &values,
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
        // Back to the units of the encoded columns, as Weka does.
        let mut coefficients = solution.coefficients;
        for block in coefficients.chunks_exact_mut(width) {
            for column in 0..used.len() {
                block[column + 1] /= scales[column];
                block[0] -= block[column + 1] * shifts[column];
            }
        }
        Ok(LogisticModel {
            encoder,
            used,
            classes,
            coefficients,
            num_classes: train.num_classes(),
            iterations: solution.iterations,
            converged: solution.converged,
        })
    }
}

/// The attribute an encoded column comes from.
fn source_attribute(source: &ColumnSource) -> usize {
    match *source {
        ColumnSource::Numeric { attribute } | ColumnSource::Indicator { attribute, .. } => {
            attribute
        }
    }
}

/// One encoded column over the training rows, missing values replaced by `fill`.
fn imputed_values<'a>(
    train: &'a View,
    source: &ColumnSource,
    fill: f64,
) -> impl Iterator<Item = f64> + 'a {
    let (attribute, indicator) = match *source {
        ColumnSource::Numeric { attribute } => (attribute, None),
        ColumnSource::Indicator { attribute, value } => (attribute, Some(value)),
    };
    train.column(attribute).map(move |x| {
        if x.is_nan() {
            fill
        } else if let Some(value) = indicator {
            if x as usize == value {
                1.0
            } else {
                0.0
            }
        } else {
            x
        }
    })
}

/// The weighted mean and sample standard deviation (divisor total weight - 1, or the total
/// weight when that is at most 1) of each column after the first of a row-major matrix, or
/// `None` for a column that is constant over the rows of positive weight (Weka's
/// `RemoveUseless` drops it; its coefficient would be 0). Each column's sums run over the rows
/// in order, the columns side by side.
fn column_statistics(
    values: &[f64],
    stride: usize,
    weights: &[f64],
    total_weight: f64,
) -> Vec<Option<(f64, f64)>> {
    let columns = stride - 1;
    let Some(first_row) = weights.iter().position(|&w| w > 0.0) else {
        return vec![None; columns];
    };
    let first = &values[first_row * stride + 1..(first_row + 1) * stride];
    let mut constant = vec![true; columns];
    let mut sums = vec![0.0; columns];
    for (index, (row, &w)) in values.chunks_exact(stride).zip(weights).enumerate() {
        if w > 0.0 {
            if index != first_row {
                for ((flag, &x), &f) in constant.iter_mut().zip(&row[1..]).zip(first) {
                    *flag &= f == x;
                }
            }
            for (sum, &x) in sums.iter_mut().zip(&row[1..]) {
                *sum += w * x;
            }
        }
    }
    let means: Vec<f64> = sums.iter().map(|sum| sum / total_weight).collect();
    let mut squares = vec![0.0; columns];
    for (row, &w) in values.chunks_exact(stride).zip(weights) {
        for ((square, &x), &mean) in squares.iter_mut().zip(&row[1..]).zip(&means) {
            *square += w * (x - mean) * (x - mean);
        }
    }
    let divisor = if total_weight > 1.0 {
        total_weight - 1.0
    } else {
        total_weight
    };
    (0..columns)
        .map(|column| {
            if constant[column] {
                return None;
            }
            let deviation = (squares[column] / divisor).sqrt();
            (deviation > 0.0).then_some((means[column], deviation))
        })
        .collect()
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
    /// Newton iterations the fit took.
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// Whether Newton's method met its convergence test within the iteration limit.
    pub fn converged(&self) -> bool {
        self.converged
    }

    /// The coefficients in the units of the encoded columns: one row per scored class (all
    /// present classes but the last, the reference), intercept first.
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
        for (row, values) in encoded.chunks_exact(width).enumerate() {
            for (score, block) in scores.iter_mut().zip(self.coefficients.chunks_exact(width)) {
                *score = newton::dot(values, block);
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
        let mut text = format!(
            "multinomial logistic regression, reference class {reference} ({} Newton iterations{})\n",
            self.iterations,
            if self.converged { "" } else { ", not converged" }
        );
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
