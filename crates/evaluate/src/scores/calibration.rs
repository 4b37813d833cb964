//! Calibration of probability scores: expected and maximum calibration error over equal-width or
//! equal-mass bins, reliability diagrams with a per-bin interval, for two classes, per class
//! (one-vs-rest) and for the top label of a multi-class model.
//!
//! Bins follow netcal 1.4 and scikit-learn 1.9: the edges are e_k = k (1/B) (numpy's
//! `linspace`) for equal width, and numpy's linear quantiles of the scores at those levels for
//! equal mass, with e_0 = 0 and e_B = 1; a score s falls in bin #{k in 1..B-1 : e_k <= s}
//! (numpy `searchsorted(..., side="right")` on the inner edges), so a score on an inner edge
//! goes to the bin above it and 1 goes to the last bin.

use stats::Interval;

use crate::error::{EvaluateError, Result};
use crate::predictions::{BinaryScores, Predictions};

/// How the score range is cut into bins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Binning {
    /// B bins of width 1/B on [0, 1].
    EqualWidth,
    /// B bins holding about the same number of scores (edges at the scores' quantiles);
    /// only for unit weights.
    EqualMass,
}

/// The interval put around each bin's observed frequency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum BinInterval {
    /// Clopper-Pearson ("exact", beta quantiles).
    ClopperPearson,
    /// Wilson score interval.
    Wilson,
}

/// Number of bins, binning, per-bin interval and its level.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct CalibrationOptions {
    /// Number of bins B (1 to 1 000 000).
    pub bins: usize,
    /// Equal-width or equal-mass bins.
    pub binning: Binning,
    /// Interval of each bin's frequency.
    pub interval: BinInterval,
    /// 1 - confidence level of the per-bin intervals, in (0, 1).
    pub alpha: f64,
}

impl CalibrationOptions {
    /// Checked options.
    pub fn new(bins: usize, binning: Binning, interval: BinInterval, alpha: f64) -> Result<Self> {
        check_bins(bins)?;
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(EvaluateError::BadParameter {
                name: "alpha",
                value: alpha,
                allowed: "strictly between 0 and 1",
            });
        }
        Ok(CalibrationOptions {
            bins,
            binning,
            interval,
            alpha,
        })
    }
}

fn check_bins(bins: usize) -> Result<()> {
    if !(1..=1_000_000).contains(&bins) {
        return Err(EvaluateError::BadParameter {
            name: "bins",
            value: bins as f64,
            allowed: "an integer from 1 to 1000000",
        });
    }
    Ok(())
}

/// One bin of a reliability diagram.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ReliabilityBin {
    /// Lower edge.
    pub low: f64,
    /// Upper edge.
    pub high: f64,
    /// Total weight of the scores in the bin (their number for unit weights).
    pub count: f64,
    /// Weight of the positives in the bin.
    pub positives: f64,
    /// Mean score in the bin (`None` when empty).
    pub mean_score: Option<f64>,
    /// Observed frequency of positives (`None` when empty).
    pub frequency: Option<f64>,
    /// Interval of the frequency (`None` when empty).
    pub interval: Option<Interval>,
}

/// Calibration errors and the reliability diagram of one set of probability scores.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Calibration {
    /// The bins, from 0 to 1.
    pub bins: Vec<ReliabilityBin>,
    /// Expected calibration error: sum over bins of count/total |frequency - mean score|.
    pub ece: f64,
    /// Maximum calibration error: the largest |frequency - mean score| over non-empty bins.
    pub mce: f64,
    /// Total weight.
    pub total: f64,
    /// The options used.
    pub options: CalibrationOptions,
}

/// Checks that every score is a probability in [0, 1].
pub(crate) fn check_probabilities(measure: &'static str, data: &BinaryScores) -> Result<()> {
    match data.scores().iter().position(|s| !(0.0..=1.0).contains(s)) {
        Some(index) => Err(EvaluateError::NotProbability {
            measure,
            index,
            column: 0,
            value: data.scores()[index],
        }),
        None => Ok(()),
    }
}

fn unit_weights(data: &BinaryScores) -> bool {
    data.weights().is_none_or(|w| w.iter().all(|&x| x == 1.0))
}

/// The B + 1 bin edges for these scores.
pub(crate) fn bin_edges(data: &BinaryScores, bins: usize, binning: Binning) -> Result<Vec<f64>> {
    let step = 1.0 / bins as f64;
    let mut edges: Vec<f64> = (0..bins).map(|k| k as f64 * step).collect();
    edges.push(1.0);
    if binning == Binning::EqualMass {
        if !unit_weights(data) {
            return Err(EvaluateError::WeightsUnsupported {
                measure: "equal-mass binning",
            });
        }
        let mut sorted = data.scores().to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        for edge in edges.iter_mut().take(bins).skip(1) {
            *edge = stats::quantile_linear(&sorted, *edge);
        }
    }
    Ok(edges)
}

/// Bin index of each score: the number of inner edges <= it.
pub(crate) fn bin_indices(data: &BinaryScores, edges: &[f64]) -> Vec<usize> {
    let inner = &edges[1..edges.len() - 1];
    data.scores()
        .iter()
        .map(|&s| inner.partition_point(|&e| e <= s))
        .collect()
}

/// Weighted sums of one bin.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BinSums {
    pub weight: f64,
    pub positives: f64,
    pub scores: f64,
}

pub(crate) fn bin_sums(data: &BinaryScores, indices: &[usize], bins: usize) -> Vec<BinSums> {
    let mut sums = vec![BinSums::default(); bins];
    for (i, &bin) in indices.iter().enumerate() {
        let w = data.weight(i);
        let sum = &mut sums[bin];
        sum.weight += w;
        sum.scores += w * data.scores()[i];
        if data.labels()[i] {
            sum.positives += w;
        }
    }
    sums
}

impl BinSums {
    /// |observed frequency - mean score| of a filled bin.
    fn gap(&self) -> f64 {
        (self.positives / self.weight - self.scores / self.weight).abs()
    }
}

/// The total weight of the bins' sums, in bin order (`Empty` when zero).
fn total_weight<'a>(sums: impl IntoIterator<Item = &'a BinSums>) -> Result<f64> {
    let total = sums.into_iter().fold(0.0, |total, sum| total + sum.weight);
    if total <= 0.0 {
        return Err(EvaluateError::Empty {
            what: "scores (total weight)",
        });
    }
    Ok(total)
}

/// The expected calibration error of the bins' sums: over the filled bins in order,
/// weight / total x |frequency - mean score|.
fn expected_error<'a>(sums: impl IntoIterator<Item = &'a BinSums>, total: f64) -> f64 {
    sums.into_iter()
        .filter(|sum| sum.weight > 0.0)
        .fold(0.0, |ece, sum| ece + sum.weight / total * sum.gap())
}

/// The equal-width bin of a score in [0, 1] among `bins`: the number of inner edges
/// k (1/B) (those of `bin_edges`) at or below it, found from s B without building the edges.
fn equal_width_bin(score: f64, bins: usize) -> usize {
    let step = 1.0 / bins as f64;
    let edge = |k: usize| k as f64 * step;
    let mut bin = ((score * bins as f64) as usize).min(bins - 1);
    while bin > 0 && edge(bin) > score {
        bin -= 1;
    }
    while bin + 1 < bins && edge(bin + 1) <= score {
        bin += 1;
    }
    bin
}

/// The expected calibration error over `bins` equal-width bins, equal to `calibration`'s `ece`
/// bit for bit, without the reliability diagram: O(n log n) whatever the number of bins, for
/// the bootstrap, which computes it on every resample. Errors as `calibration`'s.
pub fn expected_calibration_error(data: &BinaryScores, bins: usize) -> Result<f64> {
    check_bins(bins)?;
    check_probabilities("calibration", data)?;
    let mut rows: Vec<(usize, usize)> = (0..data.len())
        .map(|i| (equal_width_bin(data.scores()[i], bins), i))
        .collect();
    rows.sort_unstable();
    let mut sums: Vec<BinSums> = Vec::new();
    for (k, &(bin, i)) in rows.iter().enumerate() {
        if k == 0 || rows[k - 1].0 != bin {
            sums.push(BinSums::default());
        }
        let (w, sum) = (data.weight(i), sums.last_mut().expect("a bin was pushed"));
        sum.weight += w;
        sum.scores += w * data.scores()[i];
        if data.labels()[i] {
            sum.positives += w;
        }
    }
    Ok(expected_error(&sums, total_weight(&sums)?))
}

fn bin_interval(options: &CalibrationOptions, positives: f64, count: f64) -> Result<Interval> {
    let positives = positives.min(count);
    let interval = match options.interval {
        BinInterval::ClopperPearson => {
            stats::clopper_pearson_interval(positives, count, options.alpha)
        }
        BinInterval::Wilson => stats::wilson_interval(positives, count, options.alpha),
    };
    interval.map_err(|e| EvaluateError::Interval(e.to_string()))
}

/// Calibration of two-class probability scores (score = probability of the positive class, in
/// [0, 1]): ECE, MCE and the reliability diagram. O(n log B) for equal width, O(n log n) for
/// equal mass. Errors: no instance or zero total weight (`Empty`), a score outside [0, 1]
/// (`NotProbability`), equal-mass bins with non-unit weights (`WeightsUnsupported`).
pub fn calibration(data: &BinaryScores, options: &CalibrationOptions) -> Result<Calibration> {
    check_probabilities("calibration", data)?;
    let edges = bin_edges(data, options.bins, options.binning)?;
    let indices = bin_indices(data, &edges);
    let sums = bin_sums(data, &indices, options.bins);
    from_sums(&edges, &sums, options)
}

/// ECE, MCE and the reliability bins from each bin's sums.
fn from_sums(edges: &[f64], sums: &[BinSums], options: &CalibrationOptions) -> Result<Calibration> {
    let total = total_weight(sums)?;
    let mut mce = 0.0_f64;
    let mut bins = Vec::with_capacity(options.bins);
    for (k, sum) in sums.iter().enumerate() {
        let filled = sum.weight > 0.0;
        let (mean_score, frequency, interval) = if filled {
            let mean = sum.scores / sum.weight;
            let frequency = sum.positives / sum.weight;
            mce = mce.max(sum.gap());
            let interval = bin_interval(options, sum.positives, sum.weight)?;
            (Some(mean), Some(frequency), Some(interval))
        } else {
            (None, None, None)
        };
        bins.push(ReliabilityBin {
            low: edges[k],
            high: edges[k + 1],
            count: sum.weight,
            positives: sum.positives,
            mean_score,
            frequency,
            interval,
        });
    }
    Ok(Calibration {
        bins,
        ece: expected_error(sums, total),
        mce,
        total,
        options: *options,
    })
}

/// Reliability bins pooled over folds, one fold at a time: equal-width bins (the same edges for
/// every fold) whose counts, positives and score sums add up over the folds, so the pooled
/// diagram is that of all the folds' test scores together without holding them.
#[derive(Debug, Clone)]
pub struct CalibrationPool {
    options: CalibrationOptions,
    edges: Vec<f64>,
    sums: Vec<BinSums>,
}

impl CalibrationPool {
    /// An empty pool; equal-width binning only (equal-mass edges depend on the scores:
    /// `BadParameter`).
    pub fn new(options: &CalibrationOptions) -> Result<Self> {
        check_bins(options.bins)?;
        if options.binning != Binning::EqualWidth {
            return Err(EvaluateError::BadParameter {
                name: "binning",
                value: f64::NAN,
                allowed: "equal-width bins when pooling folds",
            });
        }
        let mut edges: Vec<f64> = (0..options.bins)
            .map(|k| k as f64 * (1.0 / options.bins as f64))
            .collect();
        edges.push(1.0);
        Ok(CalibrationPool {
            options: *options,
            edges,
            sums: vec![BinSums::default(); options.bins],
        })
    }

    /// Adds one fold's scores (probabilities in [0, 1]: `NotProbability` otherwise).
    pub fn add(&mut self, data: &BinaryScores) -> Result<()> {
        check_probabilities("calibration", data)?;
        let indices = bin_indices(data, &self.edges);
        for (total, fold) in self
            .sums
            .iter_mut()
            .zip(bin_sums(data, &indices, self.options.bins))
        {
            total.weight += fold.weight;
            total.positives += fold.positives;
            total.scores += fold.scores;
        }
        Ok(())
    }

    /// The pooled calibration (`Empty` when nothing was added).
    pub fn calibration(&self) -> Result<Calibration> {
        from_sums(&self.edges, &self.sums, &self.options)
    }
}

fn check_prediction_probabilities(predictions: &Predictions) -> Result<()> {
    for index in 0..predictions.len() {
        let row = predictions.scores_of(index);
        if let Some(column) = row.iter().position(|s| !(0.0..=1.0).contains(s)) {
            return Err(EvaluateError::NotProbability {
                measure: "calibration",
                index,
                column,
                value: row[column],
            });
        }
    }
    Ok(())
}

/// Top-label ("confidence") calibration of a multi-class model, as netcal computes for more
/// than two classes: the score is the largest class probability, the label whether that class
/// (the first one on ties) is the true class.
pub fn top_label_calibration(
    predictions: &Predictions,
    options: &CalibrationOptions,
) -> Result<Calibration> {
    check_prediction_probabilities(predictions)?;
    let predicted = predictions.predicted_classes();
    let labels = predicted
        .iter()
        .zip(predictions.truth())
        .map(|(p, t)| p == t)
        .collect();
    let scores = (0..predictions.len())
        .map(|i| predictions.scores_of(i)[predicted[i]])
        .collect();
    let data = BinaryScores::new(labels, scores)?.with_weights(predictions.weights().to_vec())?;
    calibration(&data, options)
}

/// One-vs-rest calibration of each class of a multi-class model: for class k the score is the
/// probability of k and the label whether k is the true class (one entry per class).
pub fn one_vs_rest_calibration(
    predictions: &Predictions,
    options: &CalibrationOptions,
) -> Result<Vec<Calibration>> {
    check_prediction_probabilities(predictions)?;
    (0..predictions.n_classes())
        .map(|class| calibration(&predictions.one_vs_rest(class)?, options))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `calibration` is checked against netcal (tests/issue29_reference.rs); the bootstrap's ECE
    /// without the diagram must give its `ece` bit for bit, scores on the edges included.
    #[test]
    fn the_ece_without_the_diagram_bins_scores_on_the_edges_as_the_diagram_does() {
        for bins in [1, 3, 7, 10, 1000, 999_983, 1_000_000] {
            let step = 1.0 / bins as f64;
            // Scores on and beside the edges k (1/B) and k / B, which can differ in the last bit.
            let mut scores = vec![0.0, 1.0, 0.5, 1.0 / 3.0, 0.1, 0.7];
            for k in [1, 2, bins / 3, bins / 2, bins - 1] {
                let (edge, other) = (k as f64 * step, k as f64 / bins as f64);
                let near = [edge.next_down(), edge.next_up(), other.next_up()];
                scores.extend([edge, other].into_iter().chain(near));
            }
            scores.retain(|s| (0.0..=1.0).contains(s));
            let labels = (0..scores.len()).map(|i| i % 2 == 1).collect();
            let data = BinaryScores::new(labels, scores).unwrap();
            let options =
                CalibrationOptions::new(bins, Binning::EqualWidth, BinInterval::Wilson, 0.05)
                    .unwrap();
            let diagram = calibration(&data, &options).unwrap().ece;
            let ece = expected_calibration_error(&data, bins).unwrap();
            assert_eq!(
                ece.to_bits(),
                diagram.to_bits(),
                "{bins} bins: {ece} vs {diagram}"
            );
        }
    }
}
