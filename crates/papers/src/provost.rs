//! Provost, Fawcett & Kohavi (1998): vertically averaged ROC curves with confidence intervals,
//! dominance between learners (on the averaged curves and fold by fold), and the ranges of
//! ROC-hull slope in which each learner is optimal (their Table 1) beside the published table,
//! and Section 3.4's composite curves of learners trained under several class weightings.
//!
//! Learners of kind `cost_sensitive` (method `reweight` or `resample`) whose `base` is another
//! configured learner are that learner trained under another class weighting: they are left out
//! of the dominance and slope tables and pooled with it into its composite curve.

use engine::config::experiment::ExperimentConfig;
use engine::file_safe;
use engine::{Analysis, AnalysisError, Figure, Plan, RunRecord, Section, SectionTable, Unit};
use evaluate::{IntervalMethod, RocCurve};
use report::{Cell, Curve, ErrorBar, PlotOptions, Table};

use crate::envelope::{SeedRuns, PROVOST_SEEDS};
use crate::error::{Error, Result};
use crate::provost_ranges::{
    named_ranges, share_of, shares_over, verdict, NamedRange, WHOLE_RANGE,
};
use crate::provost_resampling::{
    fold_resamples, fold_samples, interval_reading, resample_verdicts, IntervalReading,
    PublishedRange, NOISE_SHARE, RESAMPLES, SAMPLES,
};
use crate::published::{provost_table, ProvostRange, ProvostTable};

/// Provost et al.'s averaged ROC curves, dominance and hull slope ranges.
pub struct ProvostRoc;

impl Analysis for ProvostRoc {
    fn name(&self) -> &'static str {
        "provost_roc"
    }

    fn description(&self) -> &'static str {
        "Provost, Fawcett & Kohavi (1998): vertically averaged ROC curves with confidence \
         intervals, dominance between learners, the ROC-hull slope ranges where each learner \
         is optimal beside the published Table 1, and Section 3.4's composite curves (a \
         cost_sensitive learner that reweights or resamples, with another configured learner \
         as its base, is pooled with that learner by the convex hull)"
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

    fn sections(&self, record: &RunRecord) -> Result<Vec<Section>, AnalysisError> {
        self.check(&record.config, &record.plan)
            .map_err(Error::Needs)?;
        Ok(sections(record)?)
    }

    fn opening_sections(&self) -> usize {
        1
    }
}

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

/// The configured learners split into plain ones and the re-weighted variants of each.
struct LearnerGroups {
    /// Indices (into the plan's learners) of the plain learners.
    plain: Vec<usize>,
    /// For each plain learner, in the same order, the indices of its variants.
    variants: Vec<Vec<usize>>,
}

/// True when `candidate` is `base` trained under a class weighting: a `cost_sensitive` learner
/// that reweights or resamples (the default method is `reweight`) with `base` as its base.
fn is_variant_of(candidate: &toml::Table, base: &toml::Table) -> bool {
    let text = |key: &str| candidate.get(key).and_then(|value| value.as_str());
    text("kind") == Some("cost_sensitive")
        && matches!(
            text("method").unwrap_or("reweight"),
            "reweight" | "resample"
        )
        && candidate.get("base").and_then(|value| value.as_table()) == Some(base)
}

fn learner_groups(plan: &Plan) -> LearnerGroups {
    let tables: Vec<&toml::Table> = plan.learners.iter().map(|l| &l.table).collect();
    let is_variant = |index: usize| {
        (0..tables.len()).any(|other| other != index && is_variant_of(tables[index], tables[other]))
    };
    let plain: Vec<usize> = (0..tables.len()).filter(|&i| !is_variant(i)).collect();
    let variants = plain
        .iter()
        .map(|&base| {
            (0..tables.len())
                .filter(|&i| i != base && is_variant_of(tables[i], tables[base]))
                .collect()
        })
        .collect();
    LearnerGroups { plain, variants }
}

/// A range of iso-performance slopes and the learners (by name) optimal over it.
fn slope_text(slope: f64) -> String {
    if slope.is_infinite() {
        "inf".into()
    } else {
        format!("{slope}")
    }
}

/// Agreement counts with the published Table 1.
#[derive(Default)]
struct Agreement {
    whole: usize,
    part: usize,
    none: usize,
}

impl Agreement {
    fn count(&mut self, share: f64) {
        match verdict(share) {
            "whole range" => self.whole += 1,
            "part of it" => self.part += 1,
            _ => self.none += 1,
        }
    }

    fn total(&self) -> usize {
        self.whole + self.part + self.none
    }
}

/// How the differing ranges read under the fold resamples.
#[derive(Default)]
struct Noise {
    /// Ranges whose learner is optimal somewhere in them in at least [`NOISE_SHARE`] of the
    /// resamples.
    somewhere: usize,
    /// Ranges where ours differs (not the whole range).
    differing: usize,
    /// Of those, the ones within sampling noise.
    differing_within: usize,
    /// All ranges read.
    ranges: usize,
}

impl Noise {
    fn count(&mut self, share: f64, somewhere: f64) {
        self.ranges += 1;
        let within = somewhere >= NOISE_SHARE;
        self.somewhere += usize::from(within);
        if share < WHOLE_RANGE {
            self.differing += 1;
            self.differing_within += usize::from(within);
        }
    }
}

/// One domain's folds for the resampling reading of Table 1: the plain learners' true positive
/// rates fold by fold, their names, and the seeded resamples of the folds.
struct FoldReading {
    /// `tprs[learner][fold][sample]` over the complete folds.
    tprs: Vec<Vec<Vec<f64>>>,
    /// The plain learners' names, in the order of `tprs`.
    names: Vec<String>,
    /// The resamples (fold indices, with repeats).
    resamples: Vec<Vec<usize>>,
}

impl FoldReading {
    /// `[whole, part, none]` over the resamples for each published range; a range whose
    /// learner the run does not have is "none" in every resample.
    fn verdicts(&self, ranges: &[ProvostRange]) -> Result<Vec<[usize; 3]>> {
        let found: Vec<Option<PublishedRange>> = ranges
            .iter()
            .map(|range| {
                self.names
                    .iter()
                    .position(|name| *name == range.learner)
                    .map(|learner| PublishedRange {
                        low: range.low,
                        high: range.high,
                        learner,
                    })
            })
            .collect();
        let known: Vec<PublishedRange> = found.iter().flatten().copied().collect();
        let mut counts = if self.tprs.first().is_some_and(|folds| !folds.is_empty()) {
            resample_verdicts(&self.tprs, &known, &self.resamples)?.into_iter()
        } else {
            vec![[0, 0, 0]; known.len()].into_iter()
        };
        Ok(found
            .iter()
            .map(|range| match range {
                Some(_) => counts.next().unwrap_or_default(),
                None => [0, 0, self.resamples.len()],
            })
            .collect())
    }
}

/// Tables comparing the run with the published Table 1, filled dataset by dataset.
struct Comparison {
    published: ProvostTable,
    ranges: Table,
    domains: Table,
    agreement: Agreement,
    noise: Noise,
    /// The number of folds resampled (the largest over the domains).
    folds: usize,
}

impl Comparison {
    fn new() -> Result<Comparison> {
        let published = provost_table()?;
        let ranges = Table::new(
            format!(
                "{} beside ours: the learner on the hull of the averaged curves over each \
                 published slope range",
                published.source
            ),
            [
                "domain",
                "published range",
                "published learner",
                "ours over the range (share)",
                "same learner",
                "fold resamples: published learner optimal over the whole / part / none of the \
                 range",
                "likely cause of a difference",
            ]
            .map(String::from)
            .to_vec(),
        );
        let domains = Table::new(
            "Table 1 by domain: agreement, dominators, and what differs from the paper's set-up",
            [
                "domain",
                "our task",
                "ranges: whole / part / not at all",
                "published dominator",
                "ours: dominating averaged curve / optimal at every slope",
                "what differs in the data",
            ]
            .map(String::from)
            .to_vec(),
        );
        Ok(Comparison {
            published,
            ranges,
            domains,
            agreement: Agreement::default(),
            noise: Noise::default(),
            folds: 0,
        })
    }

    /// Adds the rows of the domain run as `dataset`, if the paper has it.
    fn add(
        &mut self,
        dataset: &str,
        averaged: &[NamedRange],
        folds: &FoldReading,
        dominators: (Option<String>, Option<String>),
    ) -> Result<()> {
        let Some(domain) = self
            .published
            .domains
            .iter()
            .find(|domain| domain.dataset.as_deref() == Some(dataset))
        else {
            return Ok(());
        };
        let resampled = folds.verdicts(&domain.ranges)?;
        self.folds = self.folds.max(folds.tprs.first().map_or(0, Vec::len));
        let mut agreement = Agreement::default();
        for (range, counts) in domain.ranges.iter().zip(resampled) {
            let share = share_of(averaged, range.low, range.high, &range.learner);
            agreement.count(share);
            self.agreement.count(share);
            let ours: Vec<String> = shares_over(averaged, range.low, range.high)
                .iter()
                .map(|(name, share)| format!("{name} {:.0}%", 100.0 * share))
                .collect();
            let total = counts.iter().sum::<usize>().max(1) as f64;
            let percent = |n: usize| 100.0 * n as f64 / total;
            let somewhere = (counts[0] + counts[1]) as f64 / total;
            self.noise.count(share, somewhere);
            let cause = if share >= WHOLE_RANGE {
                "-".to_string()
            } else {
                let data = if domain.same_data {
                    ""
                } else {
                    "different data (see the domain table); "
                };
                let noise = if somewhere >= NOISE_SHARE {
                    "within sampling noise"
                } else {
                    "not sampling noise: learner or data"
                };
                format!("{data}{noise}")
            };
            self.ranges.push_row(vec![
                Cell::text(&domain.name),
                Cell::text(format!(
                    "[{}, {}]",
                    slope_text(range.low),
                    slope_text(range.high)
                )),
                Cell::text(&range.learner),
                Cell::text(ours.join(", ")),
                Cell::text(verdict(share)),
                Cell::text(format!(
                    "{:.0}% / {:.0}% / {:.0}%",
                    percent(counts[0]),
                    percent(counts[1]),
                    percent(counts[2])
                )),
                Cell::text(cause),
            ]);
        }
        let published_dominator = match domain.ranges.as_slice() {
            [only] => only.learner.clone(),
            _ => "none".into(),
        };
        let none = || "none".to_string();
        self.domains.push_row(vec![
            Cell::text(&domain.name),
            Cell::text(dataset),
            Cell::text(format!(
                "{} / {} / {}",
                agreement.whole, agreement.part, agreement.none
            )),
            Cell::text(published_dominator),
            Cell::text(format!(
                "{} / {}",
                dominators.0.unwrap_or_else(none),
                dominators.1.unwrap_or_else(none)
            )),
            Cell::text(&domain.differences),
        ]);
        Ok(())
    }

    /// The finished tables, with the domains the run left out, and the agreement sentence.
    fn finish(mut self, run: &[String]) -> (Vec<(&'static str, Table)>, String) {
        for domain in &self.published.domains {
            let ran = domain
                .dataset
                .as_ref()
                .is_some_and(|dataset| run.contains(dataset));
            if !ran {
                self.domains.push_row(vec![
                    Cell::text(&domain.name),
                    Cell::text(domain.dataset.as_deref().unwrap_or("-")),
                    Cell::text(format!("not run ({} ranges)", domain.ranges.len())),
                    Cell::text(match domain.ranges.as_slice() {
                        [only] => only.learner.clone(),
                        _ => "none".into(),
                    }),
                    Cell::text("-"),
                    Cell::text(&domain.differences),
                ]);
            }
        }
        let a = &self.agreement;
        let sentence = format!(
            "Table 1: {} of {} ranges same learner over the whole range, {} more in part of it, \
             {} not at all",
            a.whole,
            a.total(),
            a.part,
            a.none
        );
        self.ranges.push_note(format!(
            "{sentence}. Shares are of the range's angle (atan of the slope), so that [0, inf) \
             has a finite length and every slope counts alike; \"whole range\" means at least \
             {:.0}% of it (the published bounds are rounded to two decimals). The resampling column \
             asks how much that answer moves with the sample of folds: the {} folds are \
             resampled with replacement {RESAMPLES} times (the same folds for every learner; \
             seeded), the curves averaged, their hull and the share recomputed, and the column \
             gives how often the published learner is then optimal over the whole range, over \
             part of it, and not at all. A difference is put down to sampling noise when the \
             published learner is optimal somewhere in the range in at least {:.0}% of the \
             resamples, and to our learners or data otherwise: {} of the {} ranges that differ \
             are within sampling noise ({} of all {} ranges pass the rule). The resamples cannot \
             speak for differences of data or learners. \"Different data\" marks domains whose \
             rows or positive class are not the paper's.",
            100.0 * WHOLE_RANGE,
            self.folds,
            100.0 * NOISE_SHARE,
            self.noise.differing_within,
            self.noise.differing,
            self.noise.somewhere,
            self.noise.ranges,
        ));
        self.domains.push_note(
            "The paper's only absolute dominator is Vehicle's Bagged-MC4 (Table 1: optimal for \
             every slope; Section 3.3: \"For only one (Vehicle) of these ten domains was there \
             an absolute dominator\"). Ours: whether one averaged curve is at least as high as \
             every other everywhere, and whether one learner owns every vertex of the hull of \
             the averaged curves.",
        );
        (
            vec![
                ("provost_table1", self.ranges),
                ("provost_table1_domains", self.domains),
            ],
            sentence,
        )
    }
}

/// Mean and sample standard deviation (0 for a single value).
fn mean_sd(values: &[f64]) -> (f64, f64) {
    let sd = if values.len() > 1 {
        stats::summary::sample_variance(values).sqrt()
    } else {
        0.0
    };
    (stats::summary::mean(values), sd)
}

/// The curves of `learners` on fold `split` (`curves[learner][split]`), if all are there.
fn fold_curves<'a>(
    curves: &'a [Vec<Option<RocCurve>>],
    learners: &[usize],
    split: usize,
) -> Option<Vec<&'a RocCurve>> {
    learners
        .iter()
        .map(|&learner| curves[learner][split].as_ref())
        .collect()
}

/// The Provost analysis as report sections.
fn sections(record: &RunRecord) -> Result<Vec<Section>> {
    let plan = &record.plan;
    let groups = learner_groups(plan);
    let names: Vec<&str> = groups
        .plain
        .iter()
        .map(|&l| plan.learners[l].name.as_str())
        .collect();
    let mut report = Report::new()?;
    for dataset in 0..plan.datasets.len() {
        report.add_dataset(record, (&groups, &names), dataset)?;
    }
    Ok(vec![report.finish(record)?])
}

/// Where the paper's Table 1 and its one dominator lie among our seed runs
/// (docs/reproductions/provost/seeds.csv), when the run has every domain the seeds ran.
fn envelope_sentence(record: &RunRecord) -> Result<String> {
    let seeds = SeedRuns::parse("docs/reproductions/provost/seeds.csv", PROVOST_SEEDS)?;
    let published = provost_table()?;
    let all_run = published
        .domains
        .iter()
        .filter_map(|domain| domain.dataset.as_deref())
        .all(|dataset| record.plan.datasets.iter().any(|d| d.name == dataset));
    if !all_run {
        return Ok(String::new());
    }
    let whole = seeds.envelope("whole", published_ranges(&published) as f64)?;
    let dominators = seeds.envelope("averaged_dominators", 1.0)?;
    let vehicle = seeds.column("vehicle_dominated_by_bmc4")?;
    Ok(format!(
        " Over {} seeds of this config with only the seed changed, without the Section 3.4 \
         weightings (docs/reproductions/provost/seeds.csv; scripts/fidelity/run_seeds.py \
         --plain and seeds_collect.py): ranges whose published learner is ours over the whole \
         range: {}; domains with a dominating averaged curve: {}; Vehicle's bagged MC4 \
         dominates the averaged curves, as in the paper, in {} of them.",
        seeds.seeds(),
        whole.sentence(0),
        dominators.sentence(0),
        vehicle.iter().filter(|&&v| v > 0.0).count(),
    ))
}

/// The number of published ranges over the domains the paper's table has.
fn published_ranges(published: &ProvostTable) -> usize {
    published
        .domains
        .iter()
        .filter(|domain| domain.dataset.is_some())
        .map(|domain| domain.ranges.len())
        .sum()
}

/// `curves[learner][split]`: each learner's test ROC curve on each split of a dataset.
type Curves = Vec<Vec<Option<RocCurve>>>;

/// A plain learner's vertically averaged curve: its position among the plain learners and its
/// points.
type Averaged = (usize, Vec<(f64, f64)>);

/// Each learner's test ROC curve on each split of a dataset (`curves[learner][split]`, over
/// every configured learner); `None` where a unit has no predictions.
fn roc_curves(record: &RunRecord, dataset: usize) -> Curves {
    let splits = record.plan.datasets[dataset].plan.splits.len();
    (0..record.plan.learners.len())
        .map(|learner| {
            (0..splits)
                .map(|split| {
                    record
                        .test_scores(Unit::on_split(dataset, learner, split))
                        .and_then(|scores| evaluate::roc_curve(&scores).ok())
                })
                .collect()
        })
        .collect()
}

/// Fold by fold, over the plain learners: how often each dominates, and each complete fold's
/// true positive rates at the averaging samples.
struct FoldDominance {
    /// Folds in which each plain learner dominates.
    per_learner: Vec<usize>,
    /// Folds with a dominating learner.
    dominated: usize,
    /// The complete folds (every plain learner has its curve).
    complete: usize,
    /// `tprs[learner][fold][sample]` over the complete folds.
    tprs: Vec<Vec<Vec<f64>>>,
    /// The complete folds' pooled positives.
    positives: f64,
}

/// Dominance fold by fold, and the complete folds' samples.
fn fold_dominance(
    curves: &[Vec<Option<RocCurve>>],
    groups: &LearnerGroups,
    splits: usize,
) -> FoldDominance {
    let mut folds = FoldDominance {
        per_learner: vec![0usize; groups.plain.len()],
        dominated: 0,
        complete: 0,
        tprs: Vec::new(),
        positives: 0.0,
    };
    let mut by_learner: Vec<Vec<&RocCurve>> = vec![Vec::new(); groups.plain.len()];
    for split in 0..splits {
        let Some(fold) = fold_curves(curves, &groups.plain, split) else {
            continue;
        };
        folds.complete += 1;
        folds.positives += fold.first().map_or(0.0, |curve| curve.positives());
        let owned: Vec<RocCurve> = fold.iter().map(|&curve| curve.clone()).collect();
        if let Some(winner) = dominating(&owned) {
            folds.dominated += 1;
            folds.per_learner[winner] += 1;
        }
        for (learner, curve) in by_learner.iter_mut().zip(fold) {
            learner.push(curve);
        }
    }
    folds.tprs = fold_samples(&by_learner);
    folds
}

/// The plain learners' curves averaged vertically over the folds: the curves to draw (with
/// the intervals of the mean true positive rate) and each learner's averaged points.
fn averaged_curves(
    curves: &[Vec<Option<RocCurve>>],
    (groups, names): (&LearnerGroups, &[&str]),
    alpha: f64,
) -> Result<(Vec<Curve>, Vec<Averaged>)> {
    let mut plot_curves = Vec::new();
    let mut averaged_points = Vec::new();
    for (position, &learner) in groups.plain.iter().enumerate() {
        let present: Vec<RocCurve> = curves[learner].iter().flatten().cloned().collect();
        if present.is_empty() {
            continue;
        }
        let samples = evaluate::vertical_average(&present, SAMPLES, IntervalMethod::Normal, alpha)?;
        let points: Vec<(f64, f64)> = samples.iter().map(|s| (s.fpr, s.mean_tpr)).collect();
        let color = report::PALETTE[learner % report::PALETTE.len()];
        let mut curve = Curve::new(names[position], points.clone(), color);
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
        averaged_points.push((position, points));
    }
    Ok((plot_curves, averaged_points))
}

/// The slope ranges on the hull of the averaged curves, and the learner optimal at every
/// slope, if one is.
fn averaged_hull(
    averaged_points: &[(usize, Vec<(f64, f64)>)],
    names: &[&str],
) -> Result<(Vec<NamedRange>, Option<String>)> {
    if averaged_points.is_empty() {
        return Ok((Vec::new(), None));
    }
    let point_lists: Vec<Vec<(f64, f64)>> =
        averaged_points.iter().map(|(_, p)| p.clone()).collect();
    let averaged_names: Vec<&str> = averaged_points.iter().map(|(l, _)| names[*l]).collect();
    let hull = evaluate::classifiers_hull(&point_lists)?;
    let winner = hull
        .dominating_classifier()
        .map(|c| averaged_names[c].to_string());
    Ok((named_ranges(&hull.slope_table(), &averaged_names), winner))
}

/// One learner's composite curve on a dataset: its plain model and its variants pooled by the
/// convex hull fold by fold.
struct Composite {
    /// The fold hulls of the pooled models.
    hulls: Vec<evaluate::RocHull>,
    /// The plain model's AUC on each fold.
    aucs: Vec<f64>,
    /// The area of the plain model's hull on each fold.
    plain_areas: Vec<f64>,
    /// The area of the composite hull on each fold.
    composite_areas: Vec<f64>,
}

/// The composite of `members` (a plain learner, then its variants) on each complete fold.
fn composite(
    curves: &[Vec<Option<RocCurve>>],
    members: &[usize],
    splits: usize,
) -> Result<Composite> {
    let mut composite = Composite {
        hulls: Vec::new(),
        aucs: Vec::new(),
        plain_areas: Vec::new(),
        composite_areas: Vec::new(),
    };
    for split in 0..splits {
        let Some(fold) = fold_curves(curves, members, split) else {
            continue;
        };
        let plain_hull = evaluate::roc_convex_hull(&fold[0].fpr_tpr())?;
        let pooled: Vec<(f64, f64)> = fold.iter().flat_map(|c| c.fpr_tpr()).collect();
        let hull = evaluate::roc_convex_hull(&pooled)?;
        composite.aucs.push(fold[0].area());
        composite.plain_areas.push(plain_hull.area());
        composite.composite_areas.push(hull.area());
        composite.hulls.push(hull);
    }
    Ok(composite)
}

/// The fold hulls averaged vertically at the sampled false positive rates.
fn averaged_hulls(hulls: &[evaluate::RocHull]) -> Result<Vec<(f64, f64)>> {
    let mut averaged = Vec::with_capacity(SAMPLES);
    for s in 0..SAMPLES {
        let fpr = s as f64 / (SAMPLES - 1) as f64;
        let tprs = hulls
            .iter()
            .map(|hull| hull.tpr_at_fpr(fpr))
            .collect::<evaluate::Result<Vec<f64>>>()?;
        averaged.push((fpr, mean_sd(&tprs).0));
    }
    Ok(averaged)
}

/// What the Provost analysis gathers over the datasets.
struct Report {
    /// Dominance per dataset.
    dominance: Table,
    /// The slope ranges of the averaged curves' hull.
    slopes: Table,
    /// The composite curves.
    composites: Table,
    /// Per dataset with composites, the dominating curve.
    composite_dominance: Vec<String>,
    /// The comparison with the published Table 1.
    comparison: Comparison,
    /// The figures.
    figures: Vec<Figure>,
    /// Datasets with a dominating averaged curve.
    averaged_dominance: usize,
    /// Folds with a dominating learner, and complete folds.
    folds_dominated: (usize, usize),
    /// Datasets with incomplete folds, in words.
    incomplete: Vec<String>,
}

impl Report {
    /// The empty tables.
    fn new() -> Result<Report> {
        let header = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
        Ok(Report {
            dominance: Table::new(
                "Dominance between learners (Provost et al. 1998, Section 3.3)",
                header(&[
                    "dataset",
                    "dominating averaged curve",
                    "optimal at every slope (hull of the averaged curves)",
                    "folds with a dominating learner",
                    "which",
                    "significant dominator (intervals)",
                    "never significantly below another",
                ]),
            ),
            slopes: Table::new(
                "Ranges of ROC-hull slope in which each learner is optimal, on the averaged \
                 curves (Provost et al. 1998, Table 1)",
                header(&["dataset", "slope from", "slope to", "optimal learner(s)"]),
            ),
            composites: Table::new(
                "Composite curves (Provost et al. 1998, Section 3.4): each learner trained under \
                 several class weightings, pooled by the convex hull of their ROC points, fold \
                 by fold",
                header(&[
                    "dataset",
                    "learner",
                    "weightings",
                    "AUC of the plain model",
                    "area of its hull",
                    "area of the composite hull",
                    "folds where the composite hull is larger",
                ]),
            ),
            composite_dominance: Vec::new(),
            comparison: Comparison::new()?,
            figures: Vec::new(),
            averaged_dominance: 0,
            folds_dominated: (0, 0),
            incomplete: Vec::new(),
        })
    }

    /// One dataset's dominance, slope ranges, figure and composites.
    fn add_dataset(
        &mut self,
        record: &RunRecord,
        (groups, names): (&LearnerGroups, &[&str]),
        d: usize,
    ) -> Result<()> {
        let dataset = &record.plan.datasets[d];
        let splits = dataset.plan.splits.len();
        let curves = roc_curves(record, d);
        let mut folds = fold_dominance(&curves, groups, splits);
        let complete = folds.complete;
        self.folds_dominated.0 += folds.dominated;
        self.folds_dominated.1 += complete;
        if complete < splits {
            self.incomplete
                .push(format!("{} ({} of {splits} folds)", dataset.name, complete));
        }
        let (plot_curves, averaged_points) =
            averaged_curves(&curves, (groups, names), record.config.alpha)?;
        let averaged_winner = dominating_points(&averaged_points);
        if averaged_winner.is_some() {
            self.averaged_dominance += 1;
        }
        let (averaged_ranges, hull_winner) = averaged_hull(&averaged_points, names)?;
        self.add_slopes(&dataset.name, &averaged_ranges);
        let averaged_winner_name = averaged_winner.map(|l| names[l].to_string());
        let intervals = if complete > 0 {
            interval_reading(&folds.tprs, folds.positives, record.config.alpha)?
        } else {
            Default::default()
        };
        self.add_dominance(
            &dataset.name,
            (averaged_winner_name.clone(), hull_winner.clone()),
            (&folds, &intervals),
            names,
        );
        let seed = seeds::derive_seed_from_label(
            record.config.seed,
            &format!("provost/fold-resamples/{}", dataset.name),
        );
        let reading = FoldReading {
            tprs: std::mem::take(&mut folds.tprs),
            names: names.iter().map(|name| name.to_string()).collect(),
            resamples: fold_resamples(complete, RESAMPLES, seed),
        };
        self.comparison.add(
            &dataset.name,
            &averaged_ranges,
            &reading,
            (averaged_winner_name, hull_winner),
        )?;
        self.add_averaged_figure(dataset, &plot_curves, record.config.alpha)?;
        self.add_composites(record, (groups, names), d, (&curves, &averaged_points))
    }

    /// The slope ranges of a dataset's averaged hull. Ranges of zero width (a vertex touched
    /// only by the vertical or horizontal edge of the hull) and the trivial all-negative /
    /// all-positive classifiers say nothing about which learner to use.
    fn add_slopes(&mut self, dataset: &str, ranges: &[NamedRange]) {
        for range in ranges
            .iter()
            .filter(|range| range.low < range.high && !range.learners.is_empty())
        {
            self.slopes.push_row(vec![
                Cell::text(dataset),
                Cell::number(range.low).with_decimals(3),
                Cell::number(range.high).with_decimals(3),
                Cell::text(range.learners.join(", ")),
            ]);
        }
    }

    /// A dataset's row of the dominance table.
    fn add_dominance(
        &mut self,
        dataset: &str,
        (averaged_winner, hull_winner): (Option<String>, Option<String>),
        (folds, intervals): (&FoldDominance, &IntervalReading),
        names: &[&str],
    ) {
        let listed = |learners: &[usize]| {
            if learners.is_empty() {
                "none".to_string()
            } else {
                let listed: Vec<&str> = learners.iter().map(|&l| names[l]).collect();
                listed.join(", ")
            }
        };
        let which: Vec<String> = folds
            .per_learner
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(l, n)| format!("{} {n}", names[l]))
            .collect();
        self.dominance.push_row(vec![
            Cell::text(dataset),
            Cell::text(averaged_winner.unwrap_or_else(|| "none".into())),
            Cell::text(hull_winner.unwrap_or_else(|| "none".into())),
            Cell::text(format!("{} of {}", folds.dominated, folds.complete)),
            Cell::text(if which.is_empty() {
                "-".to_string()
            } else {
                which.join(", ")
            }),
            Cell::text(listed(&intervals.significant)),
            Cell::text(listed(&intervals.never_below)),
        ]);
    }

    /// A dataset's figure of the vertically averaged curves.
    fn add_averaged_figure(
        &mut self,
        dataset: &engine::plan::units::PreparedDataset,
        plot_curves: &[Curve],
        alpha: f64,
    ) -> Result<()> {
        let svg = report::roc_plot(
            &PlotOptions::roc(format!(
                "{}: vertically averaged ROC curves ({} folds)",
                dataset.name,
                dataset.plan.splits.len()
            )),
            plot_curves,
        )?;
        self.figures.push(Figure {
            file: format!("figures/provost_{}.svg", file_safe(&dataset.name)),
            caption: format!(
                "{}: ROC curves of the folds averaged vertically at {SAMPLES} false positive \
                 rates, with {:.0}% binomial confidence intervals of the mean true positive rate",
                dataset.name,
                100.0 * (1.0 - alpha)
            ),
            svg,
        });
        Ok(())
    }

    /// Section 3.4: a dataset's composite curves of the learners with variants, their rows,
    /// the dominating curve and the figure.
    fn add_composites(
        &mut self,
        record: &RunRecord,
        (groups, names): (&LearnerGroups, &[&str]),
        d: usize,
        (curves, averaged_points): (&[Vec<Option<RocCurve>>], &[Averaged]),
    ) -> Result<()> {
        let dataset = &record.plan.datasets[d];
        let mut composite_curves = Vec::new();
        let mut contenders = Vec::new();
        for (position, &learner) in groups.plain.iter().enumerate() {
            let members: Vec<usize> = std::iter::once(learner)
                .chain(groups.variants[position].iter().copied())
                .collect();
            let found = composite(curves, &members, dataset.plan.splits.len())?;
            if found.hulls.is_empty() {
                continue;
            }
            // A learner's composite curve: its fold hulls (pooled with its variants' points)
            // averaged vertically; with no variant, the hull of its own curve.
            let averaged_composite = averaged_hulls(&found.hulls)?;
            if members.len() == 1 {
                contenders.push((format!("{} hull", names[position]), averaged_composite));
                continue;
            }
            self.add_composite_row(record, (&dataset.name, names[position]), &members, &found);
            let color = report::PALETTE[learner % report::PALETTE.len()];
            if let Some((_, points)) = averaged_points.iter().find(|(p, _)| *p == position) {
                composite_curves.push(Curve::new(names[position], points.clone(), color));
            }
            let mut dashed = Curve::new(
                format!("{} composite ({} models)", names[position], members.len()),
                averaged_composite.clone(),
                color,
            );
            dashed.dashed = true;
            composite_curves.push(dashed);
            contenders.push((format!("{} composite", names[position]), averaged_composite));
        }
        if composite_curves.is_empty() {
            return Ok(());
        }
        let indexed: Vec<(usize, Vec<(f64, f64)>)> = contenders
            .iter()
            .enumerate()
            .map(|(i, (_, points))| (i, points.clone()))
            .collect();
        self.composite_dominance.push(format!(
            "{}: {}",
            dataset.name,
            dominating_points(&indexed)
                .map(|i| contenders[i].0.clone())
                .unwrap_or_else(|| "none".into())
        ));
        let svg = report::roc_plot(
            &PlotOptions::roc(format!("{}: plain and composite curves", dataset.name)),
            &composite_curves,
        )?;
        self.figures.push(Figure {
            file: format!("figures/provost_composite_{}.svg", file_safe(&dataset.name)),
            caption: format!(
                "{}: each learner's plain averaged curve (solid) and its composite curve \
                 (dashed): the convex hull of the ROC points of its models trained under every \
                 class weighting, fold by fold, averaged vertically",
                dataset.name
            ),
            svg,
        });
        Ok(())
    }

    /// A learner's row of the composites table.
    fn add_composite_row(
        &mut self,
        record: &RunRecord,
        (dataset, learner): (&str, &str),
        members: &[usize],
        found: &Composite,
    ) {
        let larger = found
            .plain_areas
            .iter()
            .zip(&found.composite_areas)
            .filter(|&(plain, composite)| *composite > *plain + 1e-9)
            .count();
        let (auc, auc_sd) = mean_sd(&found.aucs);
        let (hull_area, hull_sd) = mean_sd(&found.plain_areas);
        let (composite_area, composite_sd) = mean_sd(&found.composite_areas);
        self.composites.push_row(vec![
            Cell::text(dataset),
            Cell::text(learner),
            Cell::text(
                members[1..]
                    .iter()
                    .map(|&m| record.plan.learners[m].name.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            Cell::text(format!("{auc:.4} ± {auc_sd:.4}")),
            Cell::text(format!("{hull_area:.4} ± {hull_sd:.4}")),
            Cell::text(format!("{composite_area:.4} ± {composite_sd:.4}")),
            Cell::text(format!("{larger} of {}", found.hulls.len())),
        ]);
    }

    /// The tables' notes, the reading, and the section.
    fn finish(mut self, record: &RunRecord) -> Result<Section> {
        self.add_notes();
        let plan = &record.plan;
        let run: Vec<String> = plan.datasets.iter().map(|d| d.name.clone()).collect();
        let (comparison_tables, agreement) = self.comparison.finish(&run);
        let mut tables = comparison_tables;
        tables.extend([
            ("provost_dominance", self.dominance),
            ("provost_slope_ranges", self.slopes),
        ]);
        if !self.composite_dominance.is_empty() {
            self.composites.push_note(format!(
                "Areas are means ± standard deviations over the folds. A composite hull can \
                 only be as large as the plain model's hull or larger; it is larger where a model \
                 trained under another weighting reaches a point above the plain model's hull. \
                 The hull is taken on the test fold itself, so it picks the best of the pooled \
                 models after seeing the test labels: part of the gain is that optimism, more of \
                 it the more models are pooled. The hypothesis of Section 3.4 (\"our standard \
                 learning algorithms produce dominating ROC curves\"), read on these averaged \
                 composite curves beside the averaged fold hulls of the learners without \
                 variants, gives as the dominating curve per dataset: {}.",
                self.composite_dominance.join("; ")
            ));
            tables.push(("provost_composite", self.composites));
        }
        let reading = format!(
            "{agreement} (the paper's Road domain is not run). A dominating averaged curve \
             exists in {} of {} domains, and a dominating learner in {} of {} single folds; \
             Provost et al. found one domain in ten (Vehicle) and \"very few of the 100 runs\". \
             Where no learner dominates, the slope table says which learner to use for which \
             costs and class distributions. The paper's text names k-nearest neighbour \
             \"for several k values\" and its Table 1 only IB3 and IB5: IB1 (k = 1, run with \
             experiments/configs/fidelity/provost_ib1.toml) is on no domain's averaged hull, so \
             leaving it out changes no row of the tables.{}",
            self.averaged_dominance,
            plan.datasets.len(),
            self.folds_dominated.0,
            self.folds_dominated.1,
            envelope_sentence(record)?
        );
        Ok(Section {
            title: "Provost, Fawcett & Kohavi (1998): Table 1 beside ours, averaged ROC curves, \
                    dominance and composite curves"
                .into(),
            reading,
            tables: tables
                .into_iter()
                .map(|(file, table)| SectionTable::new(file, table))
                .collect(),
            figures: self.figures,
            ..Section::default()
        })
    }

    /// The notes of the dominance and slope tables.
    fn add_notes(&mut self) {
        self.dominance.push_note(
            "An averaged curve dominates when it is at least as high as every other learner's \
             at every false positive rate and higher somewhere; the fold columns apply the same \
             test to each fold's own curves. A learner is optimal at every slope when it owns \
             every vertex of the convex hull of the averaged curves (Table 1's reading). Provost \
             et al. found an absolute dominator in one domain of ten (Vehicle) and a dominating \
             classifier in very few of the 100 fold runs. The last two columns read dominance \
             with the intervals the figures draw (each averaged true positive rate's binomial \
             interval, normal approximation, the folds' pooled positives as trials, at the \
             config's alpha): a learner significantly dominates when its lower bound is at \
             least every other learner's upper bound at every sampled false positive rate; a \
             learner is never significantly below another when no other learner's lower bound \
             is above its upper bound anywhere. The paper's \"(statistically significantly) \
             dominating\" Vehicle learner reads as the second: where one learner alone is never \
             significantly below another, it is the one the intervals cannot separate from the \
             top.",
        );
        self.slopes.push_note(
            "Slopes of iso-performance lines, m = (cost of a false positive x negatives) / (cost \
             of a false negative x positives): the learner(s) on the convex hull of the averaged \
             curves at the point where a line of that slope touches it.",
        );
        if !self.incomplete.is_empty() {
            self.dominance.push_note(format!(
                "Folds with a failed unit are left out of the fold counts: {}.",
                self.incomplete.join(", ")
            ));
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_is_a_reweighted_copy_of_another_learner() {
        let base: toml::Table = toml::from_str("kind = \"c45\"\nlaplace = true").unwrap();
        let variant: toml::Table = toml::from_str(
            "kind = \"cost_sensitive\"\ncosts = [[0.0, 1.0], [2.0, 0.0]]\n\
             base = { kind = \"c45\", laplace = true }",
        )
        .unwrap();
        let thresholding: toml::Table = toml::from_str(
            "kind = \"cost_sensitive\"\nmethod = \"threshold\"\n\
             base = { kind = \"c45\", laplace = true }",
        )
        .unwrap();
        assert!(is_variant_of(&variant, &base));
        assert!(!is_variant_of(&thresholding, &base));
        assert!(!is_variant_of(&base, &variant));
    }
}
