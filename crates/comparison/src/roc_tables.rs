//! The text the `roc` command prints: [`evaluate::RocSummary`] as Markdown tables (ranking
//! measures, each model's ROC points and hull, the hull over all models, the hull classifiers
//! at a target false positive rate, the repaired concavities; for more classes, the multi-class
//! AUCs and each class against the rest).

use evaluate::{
    BinaryOptions, BinarySummary, CostCurve, Evaluation, EvaluationOptions, HullClassifier,
    MeasureInterval, ModelsHull, MulticlassSummary, PairedInterval, RocHull, ScoreSummary, Target,
    DEFAULT_THRESHOLD,
};
use report::table::format_number;
use report::{Cell, ReportError, Table};
use stats::BootstrapInterval;

/// A table with these column names and 4 decimals.
fn table(title: impl Into<String>, columns: &[&str]) -> Table {
    let mut table = Table::new(title, columns.iter().map(|c| c.to_string()).collect());
    table.decimals = 4;
    table
}

/// The labels in quotes, comma-separated.
fn quoted(labels: &[String]) -> String {
    let quoted: Vec<String> = labels.iter().map(|label| format!("'{label}'")).collect();
    quoted.join(", ")
}

/// The text of a two-class summary of `file` (truth column `truth`).
pub fn binary_text(
    file: &str,
    truth: &str,
    summary: &BinarySummary,
    options: BinaryOptions,
) -> Result<String, ReportError> {
    let first = &summary.models[0].scores;
    let mut text = format!(
        "{file}: truth column '{truth}', positive '{}' ({} positives), negative {} ({} \
         negatives), {} model(s)\n\n",
        summary.positive,
        first.positives,
        quoted(&summary.negatives),
        first.negatives,
        summary.models.len()
    );
    let mut measures = measures_table("Ranking measures", "model");
    for model in &summary.models {
        measures.push_row(measures_row(&model.name, &model.scores));
    }
    text.push_str(&measures.to_markdown()?);
    for model in &summary.models {
        text.push('\n');
        text.push_str(&points_table(
            &format!("ROC points of {}", model.name),
            &model.scores,
        )?);
        text.push('\n');
        let title = format!("ROC convex hull of {}", model.name);
        text.push_str(&hull_table(&title, &model.scores.hull)?);
    }
    if let Some(all) = &summary.models_hull {
        text.push('\n');
        text.push_str(&models_hull_table(all)?);
    }
    if let Some(rate) = options.target_fpr {
        text.push('\n');
        text.push_str(&target_table(rate, summary)?);
    }
    if options.repair {
        text.push('\n');
        text.push_str(&repair_table(summary)?);
    }
    Ok(text)
}

/// The text of a multi-class summary of `file` (truth column `truth`).
pub fn multiclass_text(
    file: &str,
    truth: &str,
    summary: &MulticlassSummary,
) -> Result<String, ReportError> {
    let mut text = format!(
        "{file}: truth column '{truth}', {} classes ({}), {} model(s)\n\n",
        summary.classes.len(),
        summary.classes.join(", "),
        summary.models.len()
    );
    let mut aucs = table(
        "Multi-class AUC",
        &["model", "Hand & Till M", "Provost & Domingos AUC"],
    );
    let mut details = String::new();
    for model in &summary.models {
        aucs.push_row(vec![
            Cell::text(&model.name),
            Cell::number(model.hand_till_m),
            Cell::number(model.provost_domingos_auc),
        ]);
        let title = format!("One class against the rest, model {}", model.name);
        let mut per_class = measures_table(&title, "class");
        let mut curves = String::new();
        for class in &model.classes {
            per_class.push_row(measures_row(&class.class, &class.scores));
            let what = format!("{}, class {} against the rest", model.name, class.class);
            curves.push('\n');
            curves.push_str(&points_table(
                &format!("ROC points of {what}"),
                &class.scores,
            )?);
            curves.push('\n');
            let title = format!("ROC convex hull of {what}");
            curves.push_str(&hull_table(&title, &class.scores.hull)?);
        }
        details.push('\n');
        details.push_str(&per_class.to_markdown()?);
        details.push_str(&curves);
    }
    text.push_str(&aucs.to_markdown()?);
    text.push_str(&details);
    Ok(text)
}

fn measures_table(title: &str, first: &str) -> Table {
    table(
        title,
        &[
            first,
            "positives",
            "negatives",
            "AUC",
            "sAUC",
            "Rs+",
            "Rs-",
            "hull area",
            "FPR at 0.5",
            "TPR at 0.5",
        ],
    )
}

fn measures_row(name: &str, scores: &ScoreSummary) -> Vec<Cell> {
    let point = scores.roc[scores.default_point];
    vec![
        Cell::text(name),
        Cell::number(scores.positives).with_decimals(0),
        Cell::number(scores.negatives).with_decimals(0),
        Cell::number(scores.scored.auc),
        Cell::number(scores.scored.sauc),
        Cell::number(scores.scored.r_s_plus),
        Cell::number(scores.scored.r_s_minus),
        Cell::number(scores.hull.area()),
        Cell::number(point.fpr),
        Cell::number(point.tpr),
    ]
}

fn points_table(title: &str, scores: &ScoreSummary) -> Result<String, ReportError> {
    let mut points = table(title, &["threshold", "FP", "TP", "FPR", "TPR"]);
    for (index, point) in scores.roc.iter().enumerate() {
        let mut threshold = Cell::number(point.threshold);
        if index == scores.default_point {
            threshold = threshold.with_marker(" (default)");
        }
        points.push_row(vec![
            threshold,
            Cell::number(point.false_positives).with_decimals(0),
            Cell::number(point.true_positives).with_decimals(0),
            Cell::number(point.fpr),
            Cell::number(point.tpr),
        ]);
    }
    points.push_note(format!(
        "Each point predicts positive iff score >= threshold; (default) marks the point of the \
         threshold {DEFAULT_THRESHOLD}."
    ));
    points.to_markdown()
}

fn hull_table(title: &str, hull: &RocHull) -> Result<String, ReportError> {
    let mut vertices = table(title, &["FPR", "TPR", "optimal for slopes from", "to"]);
    for vertex in hull.vertices() {
        vertices.push_row(vec![
            Cell::number(vertex.fpr),
            Cell::number(vertex.tpr),
            Cell::number(vertex.slope_range.0),
            Cell::number(vertex.slope_range.1),
        ]);
    }
    vertices.push_note(
        "Slope = cost(FP) P(negative) / (cost(FN) P(positive)): the vertex minimises the \
         expected cost for the slopes in its range.",
    );
    vertices.to_markdown()
}

fn models_hull_table(all: &ModelsHull) -> Result<String, ReportError> {
    let mut ranges = table(
        "ROC convex hull over all models: which model is optimal for which slope",
        &["slopes from", "to", "models"],
    );
    for range in &all.slope_ranges {
        let owners = if range.models.is_empty() {
            "(a trivial classifier: all negative or all positive)".to_string()
        } else {
            range.models.join(", ")
        };
        ranges.push_row(vec![
            Cell::number(range.low),
            Cell::number(range.high),
            Cell::text(owners),
        ]);
    }
    if let Some(best) = &all.dominating_model {
        ranges.push_note(format!("{best} is on the hull for every slope."));
    }
    ranges.to_markdown()
}

/// A hull classifier in words: `[models ](fpr, tpr), score >= threshold`.
fn end_text(end: &HullClassifier) -> String {
    let who = end
        .models
        .as_ref()
        .map_or(String::new(), |owners| format!("{} ", owners.join("/")));
    format!(
        "{who}({:.4}, {:.4}), score >= {}",
        end.fpr,
        end.tpr,
        format_number(end.threshold, 4)
    )
}

fn target_table(rate: f64, summary: &BinarySummary) -> Result<String, ReportError> {
    let mut targets = table(
        format!("Classifiers on the hull at false positive rate {rate}"),
        &[
            "model",
            "TPR reached",
            "first classifier",
            "share of cases",
            "second classifier",
        ],
    );
    let mut row = |name: &str, target: &Target| {
        targets.push_row(vec![
            Cell::text(name),
            Cell::number(target.tpr),
            Cell::text(end_text(&target.first)),
            Cell::number(target.share_first),
            Cell::text(end_text(&target.second)),
        ]);
    };
    for model in &summary.models {
        if let Some(target) = &model.target {
            row(&model.name, target);
        }
    }
    if let Some(target) = summary
        .models_hull
        .as_ref()
        .and_then(|all| all.target.as_ref())
    {
        row("all models", target);
    }
    targets.push_note(
        "Use the first classifier on the given share of the cases, chosen at random, and the \
         second on the rest: the mixture reaches the hull at the target false positive rate \
         (score >= inf: all negative; the lowest score: all positive).",
    );
    targets.to_markdown()
}

fn repair_table(summary: &BinarySummary) -> Result<String, ReportError> {
    let mut repairs = table(
        "Concavities repaired: the ranking inverted inside every score interval whose curve \
         lies under the hull",
        &[
            "model",
            "AUC",
            "hull area",
            "repaired AUC",
            "inverted score intervals",
        ],
    );
    for model in &summary.models {
        let Some(repair) = &model.repair else {
            continue;
        };
        let listed: Vec<String> = repair
            .intervals
            .iter()
            .map(|i| {
                format!(
                    "[{}, {}]",
                    format_number(i.low, 4),
                    format_number(i.high, 4)
                )
            })
            .collect();
        repairs.push_row(vec![
            Cell::text(&model.name),
            Cell::number(model.scores.scored.auc),
            Cell::number(model.scores.hull.area()),
            Cell::number(repair.auc),
            Cell::text(if listed.is_empty() {
                "none".to_string()
            } else {
                listed.join(", ")
            }),
        ]);
    }
    repairs.push_note(
        "Repaired on the same scores, the curve lies on or above the original hull (Flach & Wu \
         2005); to judge a repair honestly, find the intervals on validation scores and apply \
         them to test scores (evaluate::concavities, evaluate::invert_intervals).",
    );
    repairs.to_markdown()
}

/// The text of `roc --evaluate`: precision-recall, partial AUC, H-measure, Brier and
/// calibration per model, the Brier decompositions, the bootstrap intervals, the cost curves'
/// lower envelope, and over several models DeLong's test and the paired differences.
pub fn evaluation_text(evaluation: &Evaluation) -> Result<String, ReportError> {
    let options = &evaluation.options;
    let mut text = String::from("\n");
    text.push_str(&beyond_roc_table(evaluation)?);
    text.push('\n');
    text.push_str(&decomposition_table(evaluation)?);
    text.push('\n');
    let rows: Vec<(&str, &[MeasureInterval])> = evaluation
        .models
        .iter()
        .map(|model| (model.name.as_str(), model.intervals.as_slice()))
        .collect();
    text.push_str(&intervals_table(options, &rows)?);
    for model in &evaluation.models {
        text.push('\n');
        text.push_str(&envelope_table(
            &format!("Cost curve lower envelope of {}", model.name),
            &model.cost_curve,
            None,
        )?);
    }
    if let Some(all) = &evaluation.models_cost_curve {
        let names: Vec<&str> = evaluation.models.iter().map(|m| m.name.as_str()).collect();
        text.push('\n');
        text.push_str(&envelope_table(
            "Cost curve lower envelope over all models (the ROC hull's classifiers)",
            all,
            Some(&names),
        )?);
    }
    if let Some(delong) = &evaluation.delong {
        text.push('\n');
        text.push_str(&delong_table(evaluation, delong)?);
    }
    if !evaluation.differences.is_empty() {
        text.push('\n');
        text.push_str(&differences_table(&evaluation.differences)?);
    }
    Ok(text)
}

/// The bootstrap intervals of each model's measures (`rows`: model name, its intervals).
pub fn intervals_table(
    options: &EvaluationOptions,
    rows: &[(&str, &[MeasureInterval])],
) -> Result<String, ReportError> {
    let mut table = interval_table(
        &format!(
            "Bootstrap intervals ({} class-stratified resamples, seed {}, level {})",
            options.bootstrap.resamples,
            options.bootstrap.seed,
            1.0 - options.bootstrap.alpha
        ),
        &["model", "measure"],
    );
    for (name, intervals) in rows {
        for interval in *intervals {
            let first = [Cell::text(*name), Cell::text(interval.measure.name())];
            table.push_row(interval_row(first, &interval.interval));
        }
    }
    table.to_markdown()
}

/// The paired bootstrap intervals of two models' differences.
pub fn differences_table(differences: &[PairedInterval]) -> Result<String, ReportError> {
    let mut paired = interval_table(
        "Paired bootstrap intervals of differences (first - second, same resamples)",
        &["first", "second", "measure"],
    );
    for d in differences {
        let first = [
            Cell::text(&d.first),
            Cell::text(&d.second),
            Cell::text(d.measure.name()),
        ];
        paired.push_row(interval_row(first, &d.difference));
    }
    paired.to_markdown()
}

/// An optional number: the number, or an empty cell.
fn maybe(value: Option<f64>) -> Cell {
    value.map_or_else(Cell::empty, Cell::number)
}

fn beyond_roc_table(evaluation: &Evaluation) -> Result<String, ReportError> {
    let options = &evaluation.options;
    let mut table = table(
        "Precision-recall, partial AUC, H-measure, Brier score and calibration",
        &[
            "model",
            "AP",
            "PR area",
            "PRG area",
            "pAUC",
            "pAUC (McClish)",
            "H",
            "Brier",
            "ECE width",
            "MCE width",
            "ECE mass",
            "MCE mass",
        ],
    );
    for model in &evaluation.models {
        let p = model.probabilities.as_ref();
        table.push_row(vec![
            Cell::text(&model.name),
            Cell::number(model.average_precision),
            Cell::number(model.pr_area),
            Cell::number(model.pr_gain.area),
            Cell::number(model.partial_auc.raw),
            Cell::number(model.partial_auc.standardized),
            Cell::number(model.h_measure.h),
            maybe(p.map(|p| p.brier)),
            maybe(p.map(|p| p.equal_width.ece)),
            maybe(p.map(|p| p.equal_width.mce)),
            maybe(p.map(|p| p.equal_mass.ece)),
            maybe(p.map(|p| p.equal_mass.mce)),
        ]);
    }
    table.push_note(format!(
        "AP: scikit-learn's average precision; PR area: under Davis & Goadrich's interpolated \
         curve; PRG: Flach & Kull's PR-Gain; pAUC over FPR [0, {}]; H-measure with {}; ECE/MCE \
         over {} equal-width or equal-mass bins. Brier and calibration are empty for a model \
         whose scores are not all in [0, 1].",
        options.max_fpr,
        options.prior.map_or(
            "the class-ratio Beta(2, 1 + n0/n1) prior".to_string(),
            |p| { format!("a Beta({}, {}) prior", p.alpha, p.beta) }
        ),
        options.bins
    ));
    table.to_markdown()
}

fn decomposition_table(evaluation: &Evaluation) -> Result<String, ReportError> {
    let mut table = table(
        format!(
            "Murphy's decomposition of the Brier score over {} equal-width bins",
            evaluation.options.bins
        ),
        &[
            "model",
            "Brier",
            "reliability",
            "resolution",
            "uncertainty",
            "within-bin variance",
            "within-bin covariance",
        ],
    );
    for model in &evaluation.models {
        let Some(p) = &model.probabilities else {
            continue;
        };
        let d = &p.brier_decomposition;
        table.push_row(vec![
            Cell::text(&model.name),
            Cell::number(d.brier),
            Cell::number(d.reliability),
            Cell::number(d.resolution),
            Cell::number(d.uncertainty),
            Cell::number(d.within_bin_variance),
            Cell::number(d.within_bin_covariance),
        ]);
    }
    table.push_note(
        "Brier = reliability - resolution + uncertainty + within-bin variance - within-bin \
         covariance (the last two vanish when every bin holds one score value).",
    );
    table.to_markdown()
}

/// A table of intervals with these first columns.
fn interval_table(title: &str, first: &[&str]) -> Table {
    let mut columns = first.to_vec();
    columns.extend([
        "estimate",
        "std. error",
        "percentile low",
        "percentile high",
        "BCa low",
        "BCa high",
    ]);
    table(title, &columns)
}

fn interval_row<const N: usize>(first: [Cell; N], interval: &BootstrapInterval) -> Vec<Cell> {
    let mut row = first.to_vec();
    row.extend([
        Cell::number(interval.estimate),
        Cell::number(interval.standard_error),
        Cell::number(interval.percentile.low),
        Cell::number(interval.percentile.high),
        maybe(interval.bca.map(|b| b.interval.low)),
        maybe(interval.bca.map(|b| b.interval.high)),
    ]);
    row
}

fn envelope_table(
    title: &str,
    curve: &CostCurve,
    names: Option<&[&str]>,
) -> Result<String, ReportError> {
    let mut table = table(
        title,
        &["PC from", "to", "FPR", "TPR", "threshold or models"],
    );
    for segment in &curve.segments {
        let who = match names {
            Some(_) if segment.models.is_empty() => "(trivial classifier)".to_string(),
            Some(names) => {
                let owners: Vec<&str> = segment.models.iter().map(|&m| names[m]).collect();
                owners.join(", ")
            }
            None => segment
                .threshold
                .map_or("(trivial classifier)".to_string(), |t| {
                    format!("score >= {}", format_number(t, 4))
                }),
        };
        table.push_row(vec![
            Cell::number(segment.pc_low),
            Cell::number(segment.pc_high),
            Cell::number(segment.fpr),
            Cell::number(segment.tpr),
            Cell::text(who),
        ]);
    }
    table.push_note(
        "Normalised expected cost = (1 - TPR) PC + FPR (1 - PC), PC = p(+) C(-|+) / (p(+) \
         C(-|+) + p(-) C(+|-)) (Drummond & Holte); each row is the operating point on the \
         lower envelope over its PC range.",
    );
    table.to_markdown()
}

fn delong_table(
    evaluation: &Evaluation,
    delong: &stats::DeLongContrastResult,
) -> Result<String, ReportError> {
    let mut table = table(
        "DeLong's test that all models' AUCs are equal",
        &["models", "chi-square", "df", "p-value"],
    );
    let names: Vec<&str> = evaluation.models.iter().map(|m| m.name.as_str()).collect();
    table.push_row(vec![
        Cell::text(names.join(", ")),
        Cell::number(delong.chi_square),
        Cell::integer(delong.df as i64),
        Cell::number(delong.pvalue),
    ]);
    table.push_note(
        "DeLong, DeLong & Clarke-Pearson (1988): the AUCs' covariance from the placement values \
         on the same rows; chi-square of the k - 1 successive differences.",
    );
    table.to_markdown()
}
