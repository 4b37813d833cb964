//! The calibration, precision-recall and cost-curve figures of every run's report on a two-class
//! dataset: per learner, its test predictions of every split read from the cache one unit at a
//! time and reduced at once to fixed grids (pooled reliability bins, the interpolated precision
//! at fixed recalls, the precision gain at fixed recall gains, the lower cost envelope at fixed
//! probability costs), so the figures cost one unit's predictions of memory and one figure per
//! dataset, whatever the number of folds.

use evaluate::{BinInterval, Binning, CalibrationOptions, CalibrationPool, GridAverage};
use rayon::prelude::*;
use report::{Curve, PlotOptions, ReliabilityPanel, ReliabilityPoint};
use serde::Serialize;

use crate::error::Result;
use crate::plan::dataset_names::file_safe;
use crate::plan::units::Unit;
use crate::record::run_record::RunRecord;
use crate::report::figures::color;
use crate::report::section::Section;

/// Equal-width bins of the reliability diagrams.
pub const RELIABILITY_BINS: usize = 10;
/// Recalls, recall gains and probability costs at which the folds' curves are averaged.
pub const GRID_SAMPLES: usize = 101;
/// Lowest precision gain drawn (the curves are clipped there; the JSON keeps the values).
const LOWEST_PRECISION_GAIN: f64 = -1.0;

/// One learner's curves on one dataset, reduced over its splits.
pub struct LearnerCurves {
    /// Reliability bins of all the splits' test predictions together.
    pub calibration: CalibrationPool,
    /// Davis & Goadrich interpolated precision at fixed recalls, per split.
    pub precision: GridAverage,
    /// PR-Gain curve's precision gain at fixed recall gains, per split.
    pub precision_gain: GridAverage,
    /// Each split's lower cost envelope at fixed probability costs (`None`: no predictions or
    /// one class in the split's test part).
    pub cost: Vec<Option<Vec<f64>>>,
}

/// The grid of fold-averaged curves of one learner, as written to the figures' JSON.
#[derive(Serialize)]
struct LearnerData<'a> {
    learner: &'a str,
    folds: usize,
    reliability: evaluate::Calibration,
    precision_recall: Vec<evaluate::GridSample>,
    pr_gain: Vec<evaluate::GridSample>,
    cost: Vec<evaluate::GridSample>,
}

impl LearnerCurves {
    /// Empty curves for `splits` splits, with reliability intervals at level 1 - `alpha`.
    pub fn new(splits: usize, alpha: f64) -> Result<Self> {
        let options = CalibrationOptions::new(
            RELIABILITY_BINS,
            Binning::EqualWidth,
            BinInterval::Wilson,
            alpha,
        )?;
        Ok(LearnerCurves {
            calibration: CalibrationPool::new(&options)?,
            precision: GridAverage::new(0.0, 1.0, GRID_SAMPLES)?,
            precision_gain: GridAverage::new(0.0, 1.0, GRID_SAMPLES)?,
            cost: vec![None; splits],
        })
    }

    /// Adds the test scores of one split (`split` < the number of splits), to every curve or
    /// (on an error) to none; a split whose test part has one class counts in the reliability
    /// bins only.
    pub fn add_fold(&mut self, split: usize, scores: &evaluate::BinaryScores) -> Result<()> {
        let grid = self.precision.grid().to_vec();
        // One curve alive at a time: each is as long as the split's distinct scores.
        let Ok(pr) = evaluate::precision_recall_curve(scores) else {
            self.calibration.add(scores)?;
            return Ok(());
        };
        let precision = grid
            .iter()
            .map(|&r| pr.precision_at_recall(r))
            .collect::<evaluate::Result<Vec<f64>>>()?;
        drop(pr);
        let prg = evaluate::pr_gain_curve(scores)?;
        let gains: Vec<f64> = grid.iter().map(|&g| prg.precision_gain_at(g)).collect();
        drop(prg);
        let cost = evaluate::cost_curve(scores)?;
        let costs: Vec<f64> = grid.iter().map(|&pc| cost.cost_at(pc)).collect();
        drop(cost);
        self.calibration.add(scores)?;
        self.precision.add_values(&precision)?;
        self.precision_gain.add_values(&gains)?;
        self.cost[split] = Some(costs);
        Ok(())
    }
}

/// A learner's curves on a two-class dataset, reading its units one at a time.
pub fn learner_curves(record: &RunRecord, dataset: usize, learner: usize) -> Result<LearnerCurves> {
    let splits = record.plan.datasets[dataset].plan.splits.len();
    let mut curves = LearnerCurves::new(splits, record.config.alpha)?;
    for split in 0..splits {
        if let Some(scores) = record.test_scores(Unit::on_split(dataset, learner, split)) {
            // A split whose predictions no curve can take (a probability outside [0, 1]) is
            // left out, as the averaged ROC figure leaves out a split without a ROC curve.
            let _ = curves.add_fold(split, &scores);
        }
    }
    Ok(curves)
}

/// The mean of the splits' envelopes of one learner, or of the lowest over all learners on each
/// split (the ROC convex hull of all the learners' points, split by split); splits where a
/// learner has no envelope are left out of the latter.
pub fn average_cost(envelopes: &[&Vec<Option<Vec<f64>>>]) -> Result<Option<GridAverage>> {
    let mut average = GridAverage::new(0.0, 1.0, GRID_SAMPLES)?;
    let splits = envelopes.first().map_or(0, |e| e.len());
    for split in 0..splits {
        let folds: Option<Vec<&Vec<f64>>> = envelopes.iter().map(|e| e[split].as_ref()).collect();
        let Some(folds) = folds else { continue };
        let lowest: Vec<f64> = (0..GRID_SAMPLES)
            .map(|i| folds.iter().map(|f| f[i]).fold(f64::INFINITY, f64::min))
            .collect();
        average.add_values(&lowest)?;
    }
    Ok((average.folds() > 0).then_some(average))
}

/// The report section with each two-class dataset's reliability diagrams, averaged PR and
/// PR-Gain curves and averaged cost curves, and a sentence for the multi-class datasets.
pub fn section(record: &RunRecord) -> Result<Section> {
    let mut section = Section::new("Calibration, precision-recall and cost curves", "");
    let mut multi_class = Vec::new();
    for (d, dataset) in record.plan.datasets.iter().enumerate() {
        if dataset.positive.is_none() {
            multi_class.push(dataset.name.clone());
            continue;
        }
        // Each learner's units are read one at a time, the learners side by side.
        let all = (0..record.plan.learners.len())
            .into_par_iter()
            .map(|l| learner_curves(record, d, l))
            .collect::<Result<Vec<_>>>()?;
        dataset_figures(record, d, &all, &mut section)?;
    }
    let mut reading = format!(
        "On each two-class dataset: every learner's reliability diagram (its test predictions of \
         all the splits pooled into {RELIABILITY_BINS} equal-width bins, each bin's observed \
         frequency of the positive class with its Wilson interval at level {level}, and the bin \
         counts); the precision-recall curves (each split's curve with Davis & Goadrich's \
         interpolation, read at {GRID_SAMPLES} evenly spaced recalls and averaged over the splits \
         vertically); the PR-Gain curves (Flach & Kull; each split's curve interpolated linearly \
         in PR-Gain space at {GRID_SAMPLES} recall gains and averaged); and the cost curves \
         (Drummond & Holte; each split's lower envelope of normalised expected cost at \
         {GRID_SAMPLES} probability costs, averaged over the splits, with the envelope of the ROC \
         convex hull of all the learners' points on each split, averaged the same way). The \
         curves' values are in figures/curves_<dataset>.json.",
        level = 1.0 - record.config.alpha
    );
    if !multi_class.is_empty() {
        reading.push_str(&format!(
            " No reliability diagram, precision-recall or cost curve is drawn for the \
             multi-class datasets ({}): they are two-class figures.",
            multi_class.join(", ")
        ));
    }
    section.reading = reading;
    Ok(section)
}

/// A fold-averaged grid as a curve (the mean at each x), `None` without folds.
fn mean_points(average: &GridAverage) -> Option<Vec<(f64, f64)>> {
    let samples = average.samples().ok()?;
    Some(samples.iter().map(|s| (s.x, s.mean)).collect())
}

/// A learner's reliability panel from its pooled bins.
fn reliability_panel(
    label: &str,
    l: usize,
    calibration: &evaluate::Calibration,
) -> ReliabilityPanel {
    let bins = calibration
        .bins
        .iter()
        .map(|bin| ReliabilityPoint {
            edges: (bin.low, bin.high),
            count: bin.count,
            point: match (bin.mean_score, bin.frequency, &bin.interval) {
                (Some(x), Some(y), Some(interval)) => Some((x, y, (interval.low, interval.high))),
                _ => None,
            },
        })
        .collect();
    ReliabilityPanel {
        label: label.to_string(),
        color: color(l),
        bins,
    }
}

/// The four figures of one two-class dataset and the JSON of their values.
fn dataset_figures(
    record: &RunRecord,
    d: usize,
    all: &[LearnerCurves],
    section: &mut Section,
) -> Result<()> {
    let (plan, name) = (&record.plan, &record.plan.datasets[d].name);
    let stem = file_safe(name);
    let learners: Vec<&str> = plan.learners.iter().map(|l| l.name.as_str()).collect();
    let mut panels = Vec::new();
    let mut data = Vec::new();
    let (mut pr, mut prg, mut cost) = (Vec::new(), Vec::new(), Vec::new());
    for (l, curves) in all.iter().enumerate() {
        let Ok(calibration) = curves.calibration.calibration() else {
            continue;
        };
        panels.push(reliability_panel(learners[l], l, &calibration));
        let own_cost = average_cost(&[&curves.cost])?;
        if let Some(points) = mean_points(&curves.precision) {
            pr.push(Curve::new(learners[l], points, color(l)));
        }
        if let Some(points) = mean_points(&curves.precision_gain) {
            let clipped = points
                .iter()
                .map(|&(x, y)| (x, y.max(LOWEST_PRECISION_GAIN)))
                .collect();
            prg.push(Curve::new(learners[l], clipped, color(l)));
        }
        if let Some(points) = own_cost.as_ref().and_then(mean_points) {
            cost.push(Curve::new(learners[l], points, color(l)));
        }
        data.push(LearnerData {
            learner: learners[l],
            folds: curves.precision.folds(),
            reliability: calibration,
            precision_recall: curves.precision.samples().unwrap_or_default(),
            pr_gain: curves.precision_gain.samples().unwrap_or_default(),
            cost: own_cost.and_then(|c| c.samples().ok()).unwrap_or_default(),
        });
    }
    if panels.is_empty() {
        return Ok(());
    }
    let envelopes: Vec<&Vec<Option<Vec<f64>>>> = all.iter().map(|c| &c.cost).collect();
    let hull = average_cost(&envelopes)?;
    reliability_figure(record, d, &stem, &panels, section)?;
    curve_figures(record, d, &stem, (pr, prg, cost), hull.as_ref(), section)?;
    let json = serde_json::json!({
        "dataset": name,
        "learners": data,
        "hull_cost": hull.and_then(|h| h.samples().ok()).unwrap_or_default(),
    });
    section.files.push((
        format!("figures/curves_{stem}.json"),
        serde_json::to_string(&json).map_err(|source| crate::error::Error::Json {
            what: format!("the curves of dataset '{name}'"),
            source,
        })?,
    ));
    Ok(())
}

/// The positive class of a two-class dataset, by name.
fn positive_name(record: &RunRecord, d: usize) -> String {
    let dataset = &record.plan.datasets[d];
    dataset
        .positive
        .map(|class| dataset.dataset.schema().class_values[class].clone())
        .unwrap_or_default()
}

/// The reliability diagrams of one dataset's learners.
fn reliability_figure(
    record: &RunRecord,
    d: usize,
    stem: &str,
    panels: &[ReliabilityPanel],
    section: &mut Section,
) -> Result<()> {
    let name = &record.plan.datasets[d].name;
    let positive = positive_name(record, d);
    let options = PlotOptions::new(
        format!("{name}: reliability diagrams (test predictions of all splits pooled)"),
        format!("predicted probability of {positive}"),
        "observed frequency",
    );
    let svg = report::reliability_plot(&options, panels)?;
    section.figure(
        format!("figures/reliability_{stem}.svg"),
        format!(
            "{name}: each learner's test predictions of all {} splits pooled into \
             {RELIABILITY_BINS} equal-width bins of the predicted probability of {positive}: \
             the observed frequency of {positive} against the bin's mean predicted probability, \
             with its Wilson interval at level {}, and below it the number of predictions in \
             each bin. On the grey diagonal the probabilities are calibrated.",
            record.plan.datasets[d].plan.splits.len(),
            1.0 - record.config.alpha
        ),
        svg,
    );
    Ok(())
}

/// The averaged precision-recall, PR-Gain and cost curves of one dataset.
fn curve_figures(
    record: &RunRecord,
    d: usize,
    stem: &str,
    (pr, prg, cost): (Vec<Curve>, Vec<Curve>, Vec<Curve>),
    hull: Option<&GridAverage>,
    section: &mut Section,
) -> Result<()> {
    let name = &record.plan.datasets[d].name;
    let splits = record.plan.datasets[d].plan.splits.len();
    let positive = positive_name(record, d);
    let mut options = PlotOptions::new(
        format!("{name}: averaged precision-recall curves"),
        format!("recall ({positive})"),
        "precision",
    );
    (options.x_range, options.y_range) = (Some((0.0, 1.0)), Some((0.0, 1.0)));
    options.legend = report::LegendPosition::LowerLeft;
    section.figure(
        format!("figures/precision_recall_{stem}.svg"),
        format!(
            "{name}: each learner's test precision-recall curve of each of the {splits} splits, \
             interpolated between its points as Davis & Goadrich (2006) do (not linearly), read \
             at {GRID_SAMPLES} evenly spaced recalls and averaged over the splits (positive class \
             {positive})."
        ),
        report::line_plot(&options, &pr)?,
    );
    let lowest = prg
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .fold(0.0, f64::min);
    options.title = format!("{name}: averaged precision-recall-gain curves");
    (options.x_label, options.y_label) = ("recall gain".into(), "precision gain".into());
    options.y_range = Some(((lowest * 10.0).floor() / 10.0, 1.0));
    section.figure(
        format!("figures/pr_gain_{stem}.svg"),
        format!(
            "{name}: each learner's PR-Gain curve (Flach & Kull 2015; the part with recall gain \
             >= 0) of each split, interpolated linearly in PR-Gain space at {GRID_SAMPLES} recall \
             gains and averaged over the splits; precision gains below \
             {LOWEST_PRECISION_GAIN} are drawn at {LOWEST_PRECISION_GAIN}."
        ),
        report::line_plot(&options, &prg)?,
    );
    cost_figure(record, d, stem, cost, hull, section)
}

/// The averaged cost curves of one dataset, with the hull's envelope and the trivial
/// classifiers.
fn cost_figure(
    record: &RunRecord,
    d: usize,
    stem: &str,
    mut cost: Vec<Curve>,
    hull: Option<&GridAverage>,
    section: &mut Section,
) -> Result<()> {
    let name = &record.plan.datasets[d].name;
    let positive = positive_name(record, d);
    let trivial = report::Rgb(150, 150, 150);
    let mut all_negative = Curve::new("trivial classifiers", vec![(0.0, 0.0), (1.0, 1.0)], trivial);
    all_negative.width = 1;
    let mut all_positive = Curve::faint(vec![(0.0, 1.0), (1.0, 0.0)], trivial);
    all_positive.opacity = 1.0;
    cost.extend([all_negative, all_positive]);
    if let Some(points) = hull.and_then(mean_points) {
        let mut curve = Curve::new("ROC hull of all learners", points, report::Rgb(0, 0, 0));
        curve.dashed = true;
        cost.push(curve);
    }
    let mut options = PlotOptions::new(
        format!("{name}: averaged cost curves"),
        format!("probability cost PC({positive})"),
        "normalised expected cost",
    );
    // The envelopes stay below 0.5; the band above holds the legend.
    (options.x_range, options.y_range) = (Some((0.0, 1.0)), Some((0.0, 0.8)));
    options.size = (640, 560);
    options.legend = report::LegendPosition::UpperRight;
    section.figure(
        format!("figures/cost_{stem}.svg"),
        format!(
            "{name}: cost curves (Drummond & Holte 2006). Each learner's lower envelope of \
             normalised expected cost over its test ROC points of a split, read at \
             {GRID_SAMPLES} probability costs and averaged over the {} splits; dashed, the \
             envelope of the ROC convex hull of all the learners' points on each split (choosing \
             the best learner and threshold for each cost), averaged the same way; grey, the \
             trivial classifiers (all negative, all positive).",
            record.plan.datasets[d].plan.splits.len()
        ),
        report::line_plot(&options, &cost)?,
    );
    Ok(())
}
