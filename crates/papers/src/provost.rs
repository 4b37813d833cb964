//! Provost, Fawcett & Kohavi (1998): vertically averaged ROC curves with confidence intervals,
//! dominance between learners (on the averaged curves and fold by fold), and the ranges of
//! ROC-hull slope in which each learner is optimal (their Table 1).

use engine::cache::file_safe;
use engine::config::ExperimentConfig;
use engine::{bail, write_table, Analysis, AnalysisContext, Plan, Result, Section, Unit};
use evaluate::{IntervalMethod, RocCurve};
use report::{Cell, Curve, ErrorBar, PlotOptions, Table};

/// Provost et al.'s averaged ROC curves, dominance and hull slope ranges.
pub struct ProvostRoc;

impl Analysis for ProvostRoc {
    fn name(&self) -> &'static str {
        "provost_roc"
    }

    fn description(&self) -> &'static str {
        "Provost, Fawcett & Kohavi (1998): vertically averaged ROC curves with confidence \
         intervals, dominance between learners, and the ROC-hull slope ranges where each \
         learner is optimal"
    }

    fn check(&self, _config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        if let Some(dataset) = plan.datasets.iter().find(|d| d.positive.is_none()) {
            return Err(format!(
                "it needs two-class tasks, but '{}' has {} classes: set positive_class with \
                 one_vs_rest",
                dataset.name,
                dataset.dataset.num_classes()
            ));
        }
        Ok(())
    }

    fn sections(&self, context: &AnalysisContext) -> Result<Vec<Section>> {
        if let Err(problem) = self.check(context.config, context.plan) {
            bail!("analysis 'provost_roc': {problem}");
        }
        sections(context)
    }
}

/// Number of false positive rates at which the curves are averaged.
const SAMPLES: usize = 100;

/// True when curve `a` is at least as high as `b` at every false positive rate and higher
/// somewhere. Both are piecewise linear in FPR, so comparing at every breakpoint of either
/// curve and between consecutive breakpoints decides it.
fn dominates(a: &RocCurve, b: &RocCurve) -> bool {
    let mut rates: Vec<f64> = a
        .points()
        .iter()
        .chain(b.points())
        .map(|point| point.fpr)
        .collect();
    rates.sort_by(f64::total_cmp);
    rates.dedup();
    let mut probes = rates.clone();
    probes.extend(rates.windows(2).map(|pair| (pair[0] + pair[1]) / 2.0));
    let mut strictly = false;
    for fpr in probes {
        let (high, low) = (a.tpr_at_fpr(fpr), b.tpr_at_fpr(fpr));
        if high < low - 1e-12 {
            return false;
        }
        strictly |= high > low + 1e-12;
    }
    strictly
}

/// The learner whose curve dominates every other one, if any.
fn dominating(curves: &[RocCurve]) -> Option<usize> {
    (0..curves.len())
        .find(|&a| (0..curves.len()).all(|b| a == b || dominates(&curves[a], &curves[b])))
}

/// The Provost analysis: tables and figures written under `folder`, returned as sections.
fn sections(context: &AnalysisContext) -> Result<Vec<Section>> {
    let (folder, plan, alpha) = (context.folder, context.plan, context.config.alpha);
    let learners = plan.learners.len();
    let mut dominance = Table::new(
        "Dominance between learners (Provost et al. 1998, Section 4)",
        [
            "dataset",
            "dominating averaged curve",
            "folds with a dominating learner",
            "which",
        ]
        .map(String::from)
        .to_vec(),
    );
    let mut slopes = Table::new(
        "Ranges of ROC-hull slope in which each learner is optimal, on the averaged curves \
         (Provost et al. 1998, Table 1)",
        ["dataset", "slope from", "slope to", "optimal learner(s)"]
            .map(String::from)
            .to_vec(),
    );
    let mut figures = Vec::new();
    let mut averaged_dominance = 0;
    let mut folds_dominated = (0, 0);
    let mut incomplete = Vec::new();
    for (d, dataset) in plan.datasets.iter().enumerate() {
        let splits = dataset.plan.splits.len();
        // curves[learner][split]
        let mut curves: Vec<Vec<Option<RocCurve>>> = vec![vec![None; splits]; learners];
        for (learner, row) in curves.iter_mut().enumerate() {
            for (split, slot) in row.iter_mut().enumerate() {
                let unit = Unit {
                    dataset: d,
                    learner,
                    split,
                };
                *slot = context
                    .test_scores(unit)
                    .and_then(|scores| evaluate::roc_curve(&scores).ok());
            }
        }
        // Fold by fold: does one learner dominate the others?
        let mut per_fold = vec![0usize; learners];
        let mut dominated = 0;
        let mut complete = 0;
        let fold_curves = (0..splits).map(|split| {
            curves
                .iter()
                .map(|row| row[split].clone())
                .collect::<Option<Vec<RocCurve>>>()
        });
        for fold in fold_curves {
            let Some(fold) = fold else { continue };
            complete += 1;
            if let Some(winner) = dominating(&fold) {
                dominated += 1;
                per_fold[winner] += 1;
            }
        }
        folds_dominated.0 += dominated;
        folds_dominated.1 += complete;
        if complete < splits {
            incomplete.push(format!("{} ({} of {splits} folds)", dataset.name, complete));
        }
        // Vertically averaged curves.
        let mut plot_curves = Vec::new();
        let mut averaged_points = Vec::new();
        for (learner, row) in curves.iter().enumerate() {
            let present: Vec<RocCurve> = row.iter().flatten().cloned().collect();
            if present.is_empty() {
                continue;
            }
            let samples =
                evaluate::vertical_average(&present, SAMPLES, IntervalMethod::Normal, alpha)?;
            let points: Vec<(f64, f64)> = samples.iter().map(|s| (s.fpr, s.mean_tpr)).collect();
            let color = report::PALETTE[learner % report::PALETTE.len()];
            let mut curve = Curve::new(plan.learners[learner].name.clone(), points.clone(), color);
            curve.error_bars = samples
                .iter()
                .enumerate()
                .filter(|(index, _)| index % 10 == 5)
                .map(|(_, s)| ErrorBar {
                    at: (s.fpr, s.mean_tpr),
                    x_interval: None,
                    y_interval: Some((s.low, s.high)),
                })
                .collect();
            plot_curves.push(curve);
            averaged_points.push((learner, points));
        }
        let averaged_winner = dominating_points(&averaged_points);
        if averaged_winner.is_some() {
            averaged_dominance += 1;
        }
        let which: Vec<String> = per_fold
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(l, n)| format!("{} {n}", plan.learners[l].name))
            .collect();
        dominance.push_row(vec![
            Cell::text(&dataset.name),
            Cell::text(
                averaged_winner
                    .map(|l| plan.learners[l].name.clone())
                    .unwrap_or_else(|| "none".into()),
            ),
            Cell::text(format!("{dominated} of {complete}")),
            Cell::text(if which.is_empty() {
                "-".to_string()
            } else {
                which.join(", ")
            }),
        ]);
        // Slope ranges on the hull of the averaged curves.
        let point_lists: Vec<Vec<(f64, f64)>> =
            averaged_points.iter().map(|(_, p)| p.clone()).collect();
        if !point_lists.is_empty() {
            let hull = evaluate::classifiers_hull(&point_lists)?;
            // Ranges of zero width (a vertex touched only by the vertical or horizontal edge
            // of the hull) and the trivial all-negative / all-positive classifiers say nothing
            // about which learner to use.
            for range in hull
                .slope_table()
                .into_iter()
                .filter(|range| range.low < range.high && !range.classifiers.is_empty())
            {
                let owners: Vec<String> = range
                    .classifiers
                    .iter()
                    .map(|&c| plan.learners[averaged_points[c].0].name.clone())
                    .collect();
                slopes.push_row(vec![
                    Cell::text(&dataset.name),
                    Cell::number(range.low).with_decimals(3),
                    Cell::number(range.high).with_decimals(3),
                    Cell::text(owners.join(", ")),
                ]);
            }
        }
        let svg = report::roc_plot(
            &PlotOptions::roc(format!(
                "{}: vertically averaged ROC curves ({} folds)",
                dataset.name, splits
            )),
            &plot_curves,
        )?;
        let file = format!("figures/provost_{}.svg", file_safe(&dataset.name));
        report::write_file(&folder.join(&file), &svg)?;
        figures.push((
            file,
            format!(
                "{}: ROC curves of the folds averaged vertically at {SAMPLES} false positive \
                 rates, with {:.0}% binomial confidence intervals of the mean true positive rate",
                dataset.name,
                100.0 * (1.0 - alpha)
            ),
        ));
    }
    dominance.push_note(
        "An averaged curve dominates when it is at least as high as every other learner's at \
         every false positive rate and higher somewhere; the fold columns apply the same test to \
         each fold's own curves. Provost et al. found a dominating averaged curve in one domain \
         of ten (Vehicle) and a dominating classifier in very few of the 100 fold runs.",
    );
    slopes.push_note(
        "Slopes of iso-performance lines, m = (cost of a false positive x negatives) / (cost of \
         a false negative x positives): the learner(s) on the convex hull of the averaged curves \
         at the point where a line of that slope touches it.",
    );
    if !incomplete.is_empty() {
        dominance.push_note(format!(
            "Folds with a failed unit are left out of the fold counts: {}.",
            incomplete.join(", ")
        ));
    }
    write_table(&folder.join("tables"), "provost_dominance", &dominance)?;
    write_table(&folder.join("tables"), "provost_slope_ranges", &slopes)?;
    let reading = format!(
        "A dominating averaged curve exists in {averaged_dominance} of {} domains, and a \
         dominating learner in {} of {} single folds; Provost et al. found one domain in ten and \
         \"very few of the 100 runs\". Where no learner dominates, the slope table says which \
         learner to use for which costs and class distributions.",
        plan.datasets.len(),
        folds_dominated.0,
        folds_dominated.1
    );
    Ok(vec![Section {
        title: "Provost, Fawcett & Kohavi (1998): averaged ROC curves and dominance".into(),
        reading,
        tables: vec![dominance, slopes],
        figures,
        links: Vec::new(),
    }])
}

/// The learner whose averaged curve is at least as high as every other one at every sample
/// and higher somewhere (all curves share the same FPR samples).
fn dominating_points(curves: &[(usize, Vec<(f64, f64)>)]) -> Option<usize> {
    curves.iter().find_map(|(learner, a)| {
        let beats_all = curves.iter().all(|(other, b)| {
            other == learner || {
                let pairs = a.iter().zip(b);
                pairs.clone().all(|(p, q)| p.1 >= q.1 - 1e-12)
                    && pairs.clone().any(|(p, q)| p.1 > q.1 + 1e-12)
            }
        });
        beats_all.then_some(*learner)
    })
}
