//! The text the `roc` command prints: [`evaluate::RocSummary`] as Markdown tables (ranking
//! measures, each model's ROC points and hull, the hull over all models, the hull classifiers
//! at a target false positive rate, the repaired concavities; for more classes, the multi-class
//! AUCs and each class against the rest).

use evaluate::{
    BinaryOptions, BinarySummary, HullClassifier, ModelsHull, MulticlassSummary, RocHull,
    ScoreSummary, Target, DEFAULT_THRESHOLD,
};
use report::table::format_number;
use report::{Cell, ReportError, Table};

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
