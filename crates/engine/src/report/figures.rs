//! The figures of every run's report, whatever its config: each measure's distribution over the
//! folds per dataset and learner (box plots), and on each two-class dataset the learners'
//! vertically averaged ROC curves.

use rayon::prelude::*;
use report::{BoxGroup, Curve, Distribution, PlotOptions};

use crate::error::Result;
use crate::plan::dataset_names::file_safe;
use crate::plan::units::Unit;
use crate::record::run_record::RunRecord;
use crate::report::section::Section;

/// Most datasets in one box-plot figure (more are split over several figures).
const DATASETS_PER_FIGURE: usize = 8;

/// False positive rates at which the ROC curves are averaged.
const ROC_SAMPLES: usize = 100;

/// A learner's test ROC curves on a dataset, one per split whose unit has predictions (none on
/// a task that is not two-class).
pub fn test_roc_curves(
    record: &RunRecord,
    dataset: usize,
    learner: usize,
) -> Vec<evaluate::RocCurve> {
    (0..record.plan.datasets[dataset].plan.splits.len())
        .filter_map(|split| {
            record
                .test_scores(Unit::on_split(dataset, learner, split))
                .and_then(|scores| evaluate::roc_curve(&scores).ok())
        })
        .collect()
}

/// A learner's test ROC curves on a dataset averaged vertically, as (fpr, mean tpr) points, or
/// `None` when it has none.
fn averaged_roc(
    record: &RunRecord,
    dataset: usize,
    learner: usize,
) -> Result<Option<Vec<(f64, f64)>>> {
    let folds = test_roc_curves(record, dataset, learner);
    if folds.is_empty() {
        return Ok(None);
    }
    let samples = evaluate::vertical_average(
        &folds,
        ROC_SAMPLES,
        evaluate::IntervalMethod::Normal,
        record.config.alpha,
    )?;
    Ok(Some(samples.iter().map(|s| (s.fpr, s.mean_tpr)).collect()))
}

/// The colour of a learner in every figure.
pub(crate) fn color(learner: usize) -> report::Rgb {
    report::PALETTE[learner % report::PALETTE.len()]
}

/// The report section with the box plots and averaged ROC curves.
pub fn section(record: &RunRecord) -> Result<Section> {
    let mut section = Section::new("Figures", "");
    box_plots(record, &mut section)?;
    let multi_class = roc_figures(record, &mut section)?;
    let mut reading = "The distribution of each measure over the folds, and the averaged ROC \
                       curves of the two-class datasets."
        .to_string();
    if !multi_class.is_empty() {
        reading.push_str(&format!(
            " No ROC curve is drawn for the multi-class datasets ({}).",
            multi_class.join(", ")
        ));
    }
    section.reading = reading;
    Ok(section)
}

/// Each measure's box plots over the folds, per dataset and learner (at most
/// [`DATASETS_PER_FIGURE`] datasets a figure).
fn box_plots(record: &RunRecord, section: &mut Section) -> Result<()> {
    let (plan, folds) = (&record.plan, &record.results.folds);
    let datasets: Vec<usize> = (0..plan.datasets.len()).collect();
    let chunks: Vec<&[usize]> = datasets.chunks(DATASETS_PER_FIGURE).collect();
    for (m, measure) in folds.measures.iter().enumerate() {
        for (part, chunk) in chunks.iter().enumerate() {
            let groups: Vec<BoxGroup> = chunk
                .iter()
                .map(|&d| BoxGroup {
                    label: plan.datasets[d].name.clone(),
                    boxes: plan
                        .learners
                        .iter()
                        .enumerate()
                        .map(|(l, learner)| Distribution {
                            label: learner.name.clone(),
                            values: folds.finite_values(d, l, m),
                            color: color(l),
                        })
                        .collect(),
                })
                .collect();
            let suffix = if chunks.len() > 1 {
                format!(" ({} of {})", part + 1, chunks.len())
            } else {
                String::new()
            };
            let mut options = PlotOptions::new(
                format!("{} over the folds{suffix}", measure.name()),
                "dataset",
                measure.name(),
            );
            options.size = (
                (260 + 110 * chunk.len() * plan.learners.len().max(1)).clamp(640, 1400) as u32,
                480,
            );
            let svg = report::box_plot(&options, &groups)?;
            let file = format!(
                "figures/folds_{}_{}.svg",
                file_safe(measure.name()),
                part + 1
            );
            let caption = format!(
                "{} of each learner over the folds of each dataset: boxes from the first to the \
                 third quartile with the median, whiskers to the furthest fold within 1.5 box \
                 lengths, folds beyond them as dots.",
                measure.name()
            );
            section.figure(file, caption, svg);
        }
    }
    Ok(())
}

/// Each two-class dataset's averaged ROC curves; returns the multi-class datasets, which have
/// none.
fn roc_figures(record: &RunRecord, section: &mut Section) -> Result<Vec<String>> {
    let plan = &record.plan;
    let mut multi_class = Vec::new();
    for (d, dataset) in plan.datasets.iter().enumerate() {
        if dataset.positive.is_none() {
            multi_class.push(dataset.name.clone());
            continue;
        }
        // The learners side by side, each holding its own curves.
        let averaged = (0..plan.learners.len())
            .into_par_iter()
            .map(|l| averaged_roc(record, d, l))
            .collect::<Result<Vec<_>>>()?;
        let curves: Vec<Curve> = averaged
            .into_iter()
            .zip(&plan.learners)
            .enumerate()
            .filter_map(|(l, (points, learner))| {
                points.map(|points| Curve::new(learner.name.clone(), points, color(l)))
            })
            .collect();
        if curves.is_empty() {
            continue;
        }
        let svg = report::roc_plot(
            &PlotOptions::roc(format!("{}: averaged ROC curves", dataset.name)),
            &curves,
        )?;
        let file = format!("figures/roc_{}.svg", file_safe(&dataset.name));
        section.figure(
            file,
            format!(
                "{}: each learner's test ROC curves of the {} splits, averaged vertically at {} \
                 false positive rates (positive class {}).",
                dataset.name,
                dataset.plan.splits.len(),
                ROC_SAMPLES,
                dataset
                    .positive
                    .map(|class| dataset.dataset.schema().class_values[class].clone())
                    .unwrap_or_default()
            ),
            svg,
        );
    }
    Ok(multi_class)
}
