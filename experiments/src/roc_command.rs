//! `experiments roc FILE`: AUC, scored AUC, ROC points and convex hulls of a user's predictions.
//!
//! File layout (a CSV with a header row):
//! - the truth column (`--truth`, default `truth`, else the first column) holds the true labels;
//! - two-class reading (two labels, or `--positive` given): every other column is one model's
//!   score for the positive class (higher = more positive); the labels other than the positive
//!   one are negatives;
//! - multi-class reading (more than two labels and no `--positive`): every other column is the
//!   score of one class, named `CLASS` (a single model) or `MODEL:CLASS` (several models); each
//!   model has one column for every label of the truth column.
//!
//! `--json` prints one object (floats: JSON numbers, or "inf", "-inf", "nan"):
//! ```text
//! two-class:   { file, truth_column, kind: "binary", positive, negatives: [label],
//!                default_threshold: 0.5, models: [MEASURES with name],
//!                models_hull: null (one model) | { HULL with vertices[].models: [name],
//!                  slope_ranges: [{ low, high, models: [name] }], dominating_model: name | null,
//!                  target: TARGET | null } }
//! multi-class: { file, truth_column, kind: "multiclass", classes: [label], default_threshold,
//!                models: [{ name, columns: [column], hand_till_m, provost_domingos_auc,
//!                           classes: [MEASURES with class (that class against the rest)] }] }
//! MEASURES = { name | class, positives, negatives, auc, sauc, r_s_plus, r_s_minus,
//!              roc: [{ threshold, fp, tp, fpr, tpr }] (decreasing threshold, from (0, 0)),
//!              default_point: index in roc of the 0.5 threshold, hull: HULL,
//!              target: TARGET | null (with --target-fpr), repair: REPAIR | null (with --repair) }
//!   (two-class files only; in multi-class files target and repair are absent)
//! TARGET = { fpr, tpr, share_first, first: END, second: END }: the random mixture of two
//!          neighbouring hull vertices that reaches the target false positive rate on the hull
//!          (use `first` on a share `share_first` of the cases, `second` on the rest)
//! END = { fpr, tpr, threshold, models: [name] }: a hull vertex, the classifier "score >=
//!       threshold" (threshold "inf": all negative; "-inf": all positive); models only in
//!       models_hull
//! REPAIR = { intervals: [{ low, high }], auc }: the score intervals under the hull whose
//!          ranking is inverted, and the AUC of the repaired scores on this file
//! HULL = { area, vertices: [{ fpr, tpr, slope_low, slope_high }] (from (0, 0) to (1, 1)),
//!          segment_slopes: [slope] }
//! ```

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use evaluate::{
    auc, classifiers_hull, concavities, hand_till_m, invert_intervals, provost_domingos_auc,
    roc_convex_hull, roc_curve, scored_auc, BinaryScores, ClassifierHull, Mixture, Predictions,
    RocCurve, RocHull, ScoreInterval, ScoredAuc,
};
use report::{Cell, Table};
use serde::{Serialize, Serializer};

use crate::table_input::CsvTable;

/// Options of the `roc` subcommand.
#[derive(Args, Debug)]
pub struct RocArgs {
    /// Predictions CSV: a truth column, then one score column per model (two classes) or per
    /// class (`CLASS` or `MODEL:CLASS`, more than two classes).
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// Print the results as one JSON object instead of tables.
    #[arg(long)]
    json: bool,

    /// The column with the true labels (default: `truth` if there is one, else the first column).
    #[arg(long, value_name = "COLUMN")]
    truth: Option<String>,

    /// The positive label; the other labels are negative and every score column is one model's
    /// score for it (default for two labels: 1 of 0/1 and -1/1, true, yes, pos, positive).
    #[arg(long, value_name = "LABEL")]
    positive: Option<String>,

    /// Two classes: for each model and for the hull over all models, the mixture of two hull
    /// vertices (classifiers) that reaches this false positive rate, in [0, 1].
    #[arg(long, value_name = "RATE")]
    target_fpr: Option<f64>,

    /// Two classes: repair the concavities of each model's ROC curve (invert the ranking in
    /// every score interval whose curve lies under the hull) and report the repaired AUC.
    #[arg(long)]
    repair: bool,
}

/// The default decision threshold whose ROC point is marked (predict positive iff score >= it).
const DEFAULT_THRESHOLD: f64 = 0.5;

/// Measures of one binary score column.
struct BinaryAnalysis {
    positives: f64,
    negatives: f64,
    scored: ScoredAuc,
    curve: RocCurve,
    hull: RocHull,
    /// The hull's classifier for `--target-fpr`.
    target: Option<Mixture>,
    /// With `--repair`: the inverted score intervals and the repaired AUC.
    repair: Option<(Vec<ScoreInterval>, f64)>,
}

fn analyse(scores: &BinaryScores) -> Result<BinaryAnalysis> {
    let scored = scored_auc(scores)?;
    let curve = roc_curve(scores)?;
    let hull = roc_convex_hull(&curve.fpr_tpr())?;
    let (positives, negatives) = scores.class_totals();
    Ok(BinaryAnalysis {
        positives,
        negatives,
        scored,
        curve,
        hull,
        target: None,
        repair: None,
    })
}

/// One model of a multi-class file: its name and one score column per class (in class order).
struct MulticlassModel {
    name: String,
    columns: Vec<usize>,
}

/// Runs the command: reads the file, prints tables or JSON.
pub fn run(args: &RocArgs) -> Result<()> {
    let table = CsvTable::read(&args.file)?;
    let shown = args.file.display().to_string();
    if table.header().len() < 2 {
        bail!("'{shown}' has only {} column(s): expected a truth column and at least one score column", table.header().len());
    }
    if table.is_empty() {
        bail!("'{shown}' has a header but no row of predictions");
    }
    if let Some(rate) = args.target_fpr {
        if !(0.0..=1.0).contains(&rate) {
            bail!("--target-fpr {rate}: a false positive rate must be in [0, 1]");
        }
    }
    let (truth_column, truth, labels) = truth_labels(&table, args.truth.as_deref())?;
    let truth_name = table.header()[truth_column].clone();
    let output = if args.positive.is_some() || labels.len() <= 2 {
        let positive = positive_label(args.positive.as_deref(), &labels, &shown, &truth_name)?;
        binary(&table, truth_column, &truth, &positive, &labels, args)?
    } else {
        if args.target_fpr.is_some() || args.repair {
            bail!(
                "--target-fpr and --repair need a two-class reading, but column '{truth_name}' \
                 of '{shown}' has {} labels: give --positive LABEL",
                labels.len()
            );
        }
        multiclass(&table, truth_column, &truth, &labels, args.json)?
    };
    print!("{output}");
    Ok(())
}

/// The truth column of a predictions file (`given`, else `truth`, else the first column), its
/// labels row by row, and its distinct labels in order of appearance; an empty label is an
/// error naming the file and line.
pub(crate) fn truth_labels<'a>(
    table: &'a CsvTable,
    given: Option<&str>,
) -> Result<(usize, Vec<&'a str>, Vec<&'a str>)> {
    let truth_column = match given {
        Some(name) => table.column(name)?,
        None => table.find("truth").unwrap_or(0),
    };
    let truth = table.texts(truth_column);
    if let Some(row) = truth.iter().position(|label| label.is_empty()) {
        bail!(
            "{}:{}, column '{}': the true label is empty",
            table.path().display(),
            table.line_of(row),
            table.header()[truth_column]
        );
    }
    let mut labels: Vec<&str> = Vec::new();
    for label in &truth {
        if !labels.contains(label) {
            labels.push(label);
        }
    }
    Ok((truth_column, truth, labels))
}

/// Picks the positive label: the one given (it must occur), or the conventional one of a
/// two-label column.
pub(crate) fn positive_label(
    given: Option<&str>,
    labels: &[&str],
    file: &str,
    column: &str,
) -> Result<String> {
    let listed = labels
        .iter()
        .map(|label| format!("'{label}'"))
        .collect::<Vec<_>>()
        .join(", ");
    if let Some(positive) = given {
        if !labels.contains(&positive) {
            bail!("--positive '{positive}' never occurs in column '{column}' of '{file}' (its labels: {listed})");
        }
        if labels.len() < 2 {
            bail!("column '{column}' of '{file}' has only the label {listed}: a ROC curve needs positives and negatives");
        }
        return Ok(positive.to_string());
    }
    if labels.len() < 2 {
        bail!("column '{column}' of '{file}' has only the label {listed}: a ROC curve needs positives and negatives");
    }
    const PAIRS: [(&str, &str); 7] = [
        ("0", "1"),
        ("-1", "1"),
        ("-1", "+1"),
        ("false", "true"),
        ("no", "yes"),
        ("neg", "pos"),
        ("negative", "positive"),
    ];
    for (negative, positive) in PAIRS {
        let matches =
            |a: &str, b: &str| a.eq_ignore_ascii_case(negative) && b.eq_ignore_ascii_case(positive);
        if matches(labels[0], labels[1]) {
            return Ok(labels[1].to_string());
        }
        if matches(labels[1], labels[0]) {
            return Ok(labels[0].to_string());
        }
    }
    bail!("cannot tell which label of column '{column}' of '{file}' is positive ({listed}): give --positive LABEL")
}

fn binary(
    table: &CsvTable,
    truth_column: usize,
    truth: &[&str],
    positive: &str,
    labels: &[&str],
    args: &RocArgs,
) -> Result<String> {
    let as_json = args.json;
    let shown = table.path().display().to_string();
    let is_positive: Vec<bool> = truth.iter().map(|label| *label == positive).collect();
    let mut models = Vec::new();
    for (column, name) in table.header().iter().enumerate() {
        if column == truth_column {
            continue;
        }
        let scores = table.numbers(column, true)?;
        let data = BinaryScores::new(is_positive.clone(), scores)?
            .with_decision_threshold(DEFAULT_THRESHOLD)?;
        let context = || format!("'{shown}', column '{name}'");
        let mut analysis = analyse(&data).with_context(context)?;
        if let Some(rate) = args.target_fpr {
            analysis.target = Some(analysis.hull.mixture_at_fpr(rate).with_context(context)?);
        }
        if args.repair {
            let intervals = concavities(&data).with_context(context)?;
            let repaired = auc(&invert_intervals(&data, &intervals)?)?;
            analysis.repair = Some((intervals, repaired));
        }
        models.push((name.clone(), analysis));
    }
    let negatives: Vec<&str> = labels.iter().copied().filter(|l| *l != positive).collect();
    let curves: Vec<Vec<(f64, f64)>> = models.iter().map(|(_, m)| m.curve.fpr_tpr()).collect();
    let names: Vec<String> = models.iter().map(|(name, _)| name.clone()).collect();
    let all_hull = if models.len() > 1 {
        Some(classifiers_hull(&curves)?)
    } else {
        None
    };
    let all_target = match (&all_hull, args.target_fpr) {
        (Some(hull), Some(rate)) => Some(hull.hull().mixture_at_fpr(rate)?),
        _ => None,
    };

    if as_json {
        return render_json(&BinaryReport {
            file: shown,
            truth_column: table.header()[truth_column].clone(),
            kind: "binary",
            positive,
            negatives,
            default_threshold: DEFAULT_THRESHOLD,
            models: models
                .iter()
                .map(|(name, analysis)| MeasuresJson::new(analysis, Some(name), None))
                .collect(),
            models_hull: all_hull
                .as_ref()
                .map(|hull| ModelsHullJson::new(hull, &names, all_target, &models)),
        });
    }

    let first = &models[0].1;
    let mut text = format!(
        "{shown}: truth column '{}', positive '{positive}' ({} positives), negative {} ({} \
         negatives), {} model(s)\n\n",
        table.header()[truth_column],
        first.positives,
        negatives
            .iter()
            .map(|l| format!("'{l}'"))
            .collect::<Vec<_>>()
            .join(", "),
        first.negatives,
        models.len()
    );
    let mut summary = measures_table("Ranking measures", "model");
    for (name, analysis) in &models {
        summary.push_row(measures_row(name, analysis));
    }
    text.push_str(&summary.to_markdown()?);
    for (name, analysis) in &models {
        text.push('\n');
        text.push_str(&points_table(
            &format!("ROC points of {name}"),
            &analysis.curve,
        )?);
        text.push('\n');
        text.push_str(&hull_table(
            &format!("ROC convex hull of {name}"),
            &analysis.hull,
        )?);
    }
    if let Some(all_hull) = &all_hull {
        text.push('\n');
        text.push_str(&models_hull_table(all_hull, &names)?);
    }
    if let Some(rate) = args.target_fpr {
        text.push('\n');
        text.push_str(&target_table(rate, &models, all_target)?);
    }
    if args.repair {
        text.push('\n');
        text.push_str(&repair_table(&models)?);
    }
    Ok(text)
}

fn multiclass(
    table: &CsvTable,
    truth_column: usize,
    truth: &[&str],
    labels: &[&str],
    as_json: bool,
) -> Result<String> {
    let shown = table.path().display().to_string();
    let truth_name = &table.header()[truth_column];
    let classes: Vec<String> = labels.iter().map(|l| l.to_string()).collect();
    let listed = classes.join(", ");
    // Each score column is CLASS (the single unnamed model) or MODEL:CLASS.
    let mut models: Vec<MulticlassModel> = Vec::new();
    for (column, name) in table.header().iter().enumerate() {
        if column == truth_column {
            continue;
        }
        let (model, class) = if classes.contains(name) {
            (String::new(), name.as_str())
        } else {
            match name.rsplit_once(':') {
                Some((model, class)) if classes.iter().any(|c| c == class) => (model.to_string(), class),
                _ => bail!(
                    "'{shown}': column '{name}' is not named after a class: column '{truth_name}' has \
                     more than two labels ({listed}), so every score column must be named CLASS or \
                     MODEL:CLASS (or give --positive LABEL for one class against the rest)"
                ),
            }
        };
        let class_index = classes
            .iter()
            .position(|c| c == class)
            .expect("checked above");
        let entry = match models.iter().position(|m| m.name == model) {
            Some(index) => &mut models[index],
            None => {
                models.push(MulticlassModel {
                    name: model,
                    columns: vec![usize::MAX; classes.len()],
                });
                models.last_mut().expect("just pushed")
            }
        };
        entry.columns[class_index] = column;
    }
    for model in &models {
        if let Some(missing) = model.columns.iter().position(|&c| c == usize::MAX) {
            let expected = if model.name.is_empty() {
                classes[missing].clone()
            } else {
                format!("{}:{}", model.name, classes[missing])
            };
            bail!("'{shown}' has no column '{expected}': each model needs one score column per class ({listed})");
        }
    }
    let truth_index: Vec<usize> = truth
        .iter()
        .map(|label| classes.iter().position(|c| c == label).expect("a label"))
        .collect();

    let mut json_models = Vec::new();
    let mut summary = Table::new(
        "Multi-class AUC",
        vec![
            "model".to_string(),
            "Hand & Till M".to_string(),
            "Provost & Domingos AUC".to_string(),
        ],
    );
    summary.decimals = 4;
    let mut details = String::new();
    for model in &models {
        let display = if model.name.is_empty() {
            "scores".to_string()
        } else {
            model.name.clone()
        };
        let columns: Vec<Vec<f64>> = model
            .columns
            .iter()
            .map(|&c| table.numbers(c, true))
            .collect::<Result<_>>()?;
        let rows: Vec<Vec<f64>> = (0..table.len())
            .map(|row| columns.iter().map(|column| column[row]).collect())
            .collect();
        let predictions = Predictions::new(classes.len(), truth_index.clone(), &rows)?;
        let context = || format!("'{shown}', model '{display}'");
        let m = hand_till_m(&predictions).with_context(context)?;
        let pd = provost_domingos_auc(&predictions).with_context(context)?;
        summary.push_row(vec![
            Cell::text(&display),
            Cell::number(m),
            Cell::number(pd),
        ]);
        let mut per_class = measures_table(
            &format!("One class against the rest, model {display}"),
            "class",
        );
        let mut class_json = Vec::new();
        let mut curves = String::new();
        for (index, class) in classes.iter().enumerate() {
            let data = predictions
                .one_vs_rest(index)?
                .with_decision_threshold(DEFAULT_THRESHOLD)?;
            let analysis = analyse(&data)
                .with_context(|| format!("{}, class '{class}' against the rest", context()))?;
            per_class.push_row(measures_row(class, &analysis));
            if as_json {
                class_json.push(MeasuresJson::new(&analysis, None, Some(class)));
                continue;
            }
            curves.push('\n');
            curves.push_str(&points_table(
                &format!("ROC points of {display}, class {class} against the rest"),
                &analysis.curve,
            )?);
            curves.push('\n');
            curves.push_str(&hull_table(
                &format!("ROC convex hull of {display}, class {class} against the rest"),
                &analysis.hull,
            )?);
        }
        details.push('\n');
        details.push_str(&per_class.to_markdown()?);
        details.push_str(&curves);
        json_models.push(MulticlassModelJson {
            name: display,
            columns: model
                .columns
                .iter()
                .map(|&c| table.header()[c].clone())
                .collect(),
            hand_till_m: JsonFloat(m),
            provost_domingos_auc: JsonFloat(pd),
            classes: class_json,
        });
    }
    if as_json {
        return render_json(&MulticlassReport {
            file: shown,
            truth_column: truth_name.clone(),
            kind: "multiclass",
            classes,
            default_threshold: DEFAULT_THRESHOLD,
            models: json_models,
        });
    }
    let mut text = format!(
        "{shown}: truth column '{truth_name}', {} classes ({listed}), {} model(s)\n\n",
        classes.len(),
        models.len()
    );
    text.push_str(&summary.to_markdown()?);
    text.push_str(&details);
    Ok(text)
}

/// A float in the JSON output; non-finite values are written as the strings "inf", "-inf" and
/// "nan" (JSON has no literal for them), as in the shared test vectors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct JsonFloat(pub f64);

impl Serialize for JsonFloat {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let value = self.0;
        if value.is_nan() {
            serializer.serialize_str("nan")
        } else if value == f64::INFINITY {
            serializer.serialize_str("inf")
        } else if value == f64::NEG_INFINITY {
            serializer.serialize_str("-inf")
        } else {
            serializer.serialize_f64(value)
        }
    }
}

/// `roc --json` of a two-class file.
#[derive(Serialize)]
struct BinaryReport<'a> {
    file: String,
    truth_column: String,
    kind: &'static str,
    positive: &'a str,
    negatives: Vec<&'a str>,
    default_threshold: f64,
    models: Vec<MeasuresJson>,
    /// The hull over every model's ROC points; `None` with a single model.
    models_hull: Option<ModelsHullJson>,
}

/// `roc --json` of a multi-class file.
#[derive(Serialize)]
struct MulticlassReport {
    file: String,
    truth_column: String,
    kind: &'static str,
    classes: Vec<String>,
    default_threshold: f64,
    models: Vec<MulticlassModelJson>,
}

#[derive(Serialize)]
struct MulticlassModelJson {
    name: String,
    columns: Vec<String>,
    hand_till_m: JsonFloat,
    provost_domingos_auc: JsonFloat,
    classes: Vec<MeasuresJson>,
}

/// The measures of one score column (a model, or a class against the rest).
#[derive(Serialize)]
struct MeasuresJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    class: Option<String>,
    positives: JsonFloat,
    negatives: JsonFloat,
    auc: JsonFloat,
    sauc: JsonFloat,
    r_s_plus: JsonFloat,
    r_s_minus: JsonFloat,
    roc: Vec<PointJson>,
    default_point: usize,
    hull: HullJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<Option<TargetJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    repair: Option<Option<RepairJson>>,
}

/// A hull classifier reaching a target false positive rate.
#[derive(Serialize)]
struct TargetJson {
    fpr: JsonFloat,
    tpr: JsonFloat,
    share_first: JsonFloat,
    first: EndJson,
    second: EndJson,
}

/// One end of a mixture: a hull vertex and its threshold.
#[derive(Serialize)]
struct EndJson {
    fpr: JsonFloat,
    tpr: JsonFloat,
    threshold: JsonFloat,
    #[serde(skip_serializing_if = "Option::is_none")]
    models: Option<Vec<String>>,
}

/// The repaired concavities of one model.
#[derive(Serialize)]
struct RepairJson {
    intervals: Vec<IntervalJson>,
    auc: JsonFloat,
}

#[derive(Serialize)]
struct IntervalJson {
    low: JsonFloat,
    high: JsonFloat,
}

#[derive(Serialize)]
struct PointJson {
    threshold: JsonFloat,
    fp: JsonFloat,
    tp: JsonFloat,
    fpr: JsonFloat,
    tpr: JsonFloat,
}

#[derive(Serialize)]
struct HullJson {
    area: JsonFloat,
    vertices: Vec<VertexJson>,
    segment_slopes: Vec<JsonFloat>,
}

#[derive(Serialize)]
struct VertexJson {
    fpr: JsonFloat,
    tpr: JsonFloat,
    slope_low: JsonFloat,
    slope_high: JsonFloat,
    /// Models owning the vertex (only in the hull over all models).
    #[serde(skip_serializing_if = "Option::is_none")]
    models: Option<Vec<String>>,
}

#[derive(Serialize)]
struct ModelsHullJson {
    #[serde(flatten)]
    hull: HullJson,
    slope_ranges: Vec<SlopeRangeJson>,
    dominating_model: Option<String>,
    target: Option<TargetJson>,
}

#[derive(Serialize)]
struct SlopeRangeJson {
    low: JsonFloat,
    high: JsonFloat,
    models: Vec<String>,
}

/// The threshold of the curve's point at (fpr, tpr): +inf for (0, 0) (all negative), the
/// curve's lowest threshold for (1, 1).
fn threshold_of(curve: &RocCurve, point: (f64, f64)) -> f64 {
    curve
        .points()
        .iter()
        .find(|p| (p.fpr, p.tpr) == point)
        .map_or(f64::NEG_INFINITY, |p| p.threshold)
}

/// The models whose curves pass through `point`, and the threshold of the first of them.
fn owners_of(point: (f64, f64), models: &[(String, BinaryAnalysis)]) -> (Vec<String>, f64) {
    let owners: Vec<&(String, BinaryAnalysis)> = models
        .iter()
        .filter(|(_, m)| m.curve.points().iter().any(|p| (p.fpr, p.tpr) == point))
        .collect();
    let threshold = owners
        .first()
        .map_or(f64::NEG_INFINITY, |(_, m)| threshold_of(&m.curve, point));
    (
        owners.iter().map(|(name, _)| name.clone()).collect(),
        threshold,
    )
}

impl TargetJson {
    /// `models`: for the hull over all models, which models own each end.
    fn new(
        mixture: &Mixture,
        curve: Option<&RocCurve>,
        models: &[(String, BinaryAnalysis)],
    ) -> TargetJson {
        let end = |point: (f64, f64)| match curve {
            Some(curve) => EndJson {
                fpr: JsonFloat(point.0),
                tpr: JsonFloat(point.1),
                threshold: JsonFloat(threshold_of(curve, point)),
                models: None,
            },
            None => {
                let (owners, threshold) = owners_of(point, models);
                EndJson {
                    fpr: JsonFloat(point.0),
                    tpr: JsonFloat(point.1),
                    threshold: JsonFloat(threshold),
                    models: Some(owners),
                }
            }
        };
        TargetJson {
            fpr: JsonFloat(mixture.point.0),
            tpr: JsonFloat(mixture.point.1),
            share_first: JsonFloat(mixture.share_first),
            first: end(mixture.first),
            second: end(mixture.second),
        }
    }
}

impl MeasuresJson {
    fn new(analysis: &BinaryAnalysis, name: Option<&str>, class: Option<&str>) -> MeasuresJson {
        let curve = &analysis.curve;
        let binary = class.is_none();
        MeasuresJson {
            target: binary.then(|| {
                analysis
                    .target
                    .as_ref()
                    .map(|mixture| TargetJson::new(mixture, Some(curve), &[]))
            }),
            repair: binary.then(|| {
                analysis.repair.as_ref().map(|(intervals, auc)| RepairJson {
                    intervals: intervals
                        .iter()
                        .map(|i| IntervalJson {
                            low: JsonFloat(i.low),
                            high: JsonFloat(i.high),
                        })
                        .collect(),
                    auc: JsonFloat(*auc),
                })
            }),
            name: name.map(str::to_string),
            class: class.map(str::to_string),
            positives: JsonFloat(analysis.positives),
            negatives: JsonFloat(analysis.negatives),
            auc: JsonFloat(analysis.scored.auc),
            sauc: JsonFloat(analysis.scored.sauc),
            r_s_plus: JsonFloat(analysis.scored.r_s_plus),
            r_s_minus: JsonFloat(analysis.scored.r_s_minus),
            roc: curve
                .points()
                .iter()
                .map(|p| PointJson {
                    threshold: JsonFloat(p.threshold),
                    fp: JsonFloat(p.false_positives),
                    tp: JsonFloat(p.true_positives),
                    fpr: JsonFloat(p.fpr),
                    tpr: JsonFloat(p.tpr),
                })
                .collect(),
            default_point: curve.default_point(),
            hull: HullJson::new(&analysis.hull),
        }
    }
}

impl HullJson {
    fn new(hull: &RocHull) -> HullJson {
        HullJson {
            area: JsonFloat(hull.area()),
            vertices: hull
                .vertices()
                .iter()
                .map(|v| VertexJson {
                    fpr: JsonFloat(v.fpr),
                    tpr: JsonFloat(v.tpr),
                    slope_low: JsonFloat(v.slope_range.0),
                    slope_high: JsonFloat(v.slope_range.1),
                    models: None,
                })
                .collect(),
            segment_slopes: hull.segment_slopes().into_iter().map(JsonFloat).collect(),
        }
    }
}

impl ModelsHullJson {
    fn new(
        all: &ClassifierHull,
        names: &[String],
        target: Option<Mixture>,
        models: &[(String, BinaryAnalysis)],
    ) -> ModelsHullJson {
        let owner_names = |owners: &[usize]| owners.iter().map(|&o| names[o].clone()).collect();
        let mut hull = HullJson::new(all.hull());
        for (vertex, owners) in hull.vertices.iter_mut().zip(all.owners()) {
            vertex.models = Some(owner_names(owners));
        }
        ModelsHullJson {
            hull,
            slope_ranges: all
                .slope_table()
                .iter()
                .map(|range| SlopeRangeJson {
                    low: JsonFloat(range.low),
                    high: JsonFloat(range.high),
                    models: owner_names(&range.classifiers),
                })
                .collect(),
            dominating_model: all.dominating_classifier().map(|c| names[c].clone()),
            target: target.map(|mixture| TargetJson::new(&mixture, None, models)),
        }
    }
}

/// Pretty JSON with a final newline.
fn render_json(value: &impl Serialize) -> Result<String> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}

fn measures_table(title: &str, first: &str) -> Table {
    let mut table = Table::new(
        title,
        [
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
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    );
    table.decimals = 4;
    table
}

fn measures_row(name: &str, analysis: &BinaryAnalysis) -> Vec<Cell> {
    let point = analysis.curve.points()[analysis.curve.default_point()];
    vec![
        Cell::text(name),
        Cell::number(analysis.positives).with_decimals(0),
        Cell::number(analysis.negatives).with_decimals(0),
        Cell::number(analysis.scored.auc),
        Cell::number(analysis.scored.sauc),
        Cell::number(analysis.scored.r_s_plus),
        Cell::number(analysis.scored.r_s_minus),
        Cell::number(analysis.hull.area()),
        Cell::number(point.fpr),
        Cell::number(point.tpr),
    ]
}

fn points_table(title: &str, curve: &RocCurve) -> Result<String> {
    let mut table = Table::new(
        title,
        ["threshold", "FP", "TP", "FPR", "TPR"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    );
    table.decimals = 4;
    for (index, point) in curve.points().iter().enumerate() {
        let mut threshold = Cell::number(point.threshold);
        if index == curve.default_point() {
            threshold = threshold.with_marker(" (default)");
        }
        table.push_row(vec![
            threshold,
            Cell::number(point.false_positives).with_decimals(0),
            Cell::number(point.true_positives).with_decimals(0),
            Cell::number(point.fpr),
            Cell::number(point.tpr),
        ]);
    }
    table.push_note(format!(
        "Each point predicts positive iff score >= threshold; (default) marks the point of the threshold {DEFAULT_THRESHOLD}."
    ));
    Ok(table.to_markdown()?)
}

fn hull_table(title: &str, hull: &RocHull) -> Result<String> {
    let mut table = Table::new(
        title,
        ["FPR", "TPR", "optimal for slopes from", "to"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    );
    table.decimals = 4;
    for vertex in hull.vertices() {
        table.push_row(vec![
            Cell::number(vertex.fpr),
            Cell::number(vertex.tpr),
            Cell::number(vertex.slope_range.0),
            Cell::number(vertex.slope_range.1),
        ]);
    }
    table.push_note(
        "Slope = cost(FP) P(negative) / (cost(FN) P(positive)): the vertex minimises the \
         expected cost for the slopes in its range.",
    );
    Ok(table.to_markdown()?)
}

fn models_hull_table(all: &ClassifierHull, names: &[String]) -> Result<String> {
    let mut table = Table::new(
        "ROC convex hull over all models: which model is optimal for which slope",
        ["slopes from", "to", "models"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    );
    table.decimals = 4;
    for range in all.slope_table() {
        let owners = if range.classifiers.is_empty() {
            "(a trivial classifier: all negative or all positive)".to_string()
        } else {
            range
                .classifiers
                .iter()
                .map(|&c| names[c].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        table.push_row(vec![
            Cell::number(range.low),
            Cell::number(range.high),
            Cell::text(owners),
        ]);
    }
    if let Some(best) = all.dominating_classifier() {
        table.push_note(format!("{} is on the hull for every slope.", names[best]));
    }
    Ok(table.to_markdown()?)
}

fn end_text(point: (f64, f64), threshold: f64, owners: Option<&[String]>) -> String {
    let who = owners.map_or(String::new(), |owners| format!("{} ", owners.join("/")));
    format!(
        "{who}({:.4}, {:.4}), score >= {}",
        point.0,
        point.1,
        report::table::format_number(threshold, 4)
    )
}

fn target_table(
    rate: f64,
    models: &[(String, BinaryAnalysis)],
    all: Option<Mixture>,
) -> Result<String> {
    let mut table = Table::new(
        format!("Classifiers on the hull at false positive rate {rate}"),
        [
            "model",
            "TPR reached",
            "first classifier",
            "share of cases",
            "second classifier",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    );
    table.decimals = 4;
    let mut row = |name: &str, mixture: &Mixture, first: String, second: String| {
        table.push_row(vec![
            Cell::text(name),
            Cell::number(mixture.point.1),
            Cell::text(first),
            Cell::number(mixture.share_first),
            Cell::text(second),
        ]);
    };
    for (name, analysis) in models {
        if let Some(mixture) = &analysis.target {
            let end = |point| end_text(point, threshold_of(&analysis.curve, point), None);
            row(name, mixture, end(mixture.first), end(mixture.second));
        }
    }
    if let Some(mixture) = &all {
        let end = |point| {
            let (owners, threshold) = owners_of(point, models);
            end_text(point, threshold, Some(&owners))
        };
        row(
            "all models",
            mixture,
            end(mixture.first),
            end(mixture.second),
        );
    }
    table.push_note(
        "Use the first classifier on the given share of the cases, chosen at random, and the \
         second on the rest: the mixture reaches the hull at the target false positive rate \
         (score >= inf: all negative; the lowest score: all positive).",
    );
    Ok(table.to_markdown()?)
}

fn repair_table(models: &[(String, BinaryAnalysis)]) -> Result<String> {
    let mut table = Table::new(
        "Concavities repaired: the ranking inverted inside every score interval whose curve \
         lies under the hull",
        [
            "model",
            "AUC",
            "hull area",
            "repaired AUC",
            "inverted score intervals",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    );
    table.decimals = 4;
    for (name, analysis) in models {
        if let Some((intervals, repaired)) = &analysis.repair {
            let listed: Vec<String> = intervals
                .iter()
                .map(|i| {
                    format!(
                        "[{}, {}]",
                        report::table::format_number(i.low, 4),
                        report::table::format_number(i.high, 4)
                    )
                })
                .collect();
            table.push_row(vec![
                Cell::text(name),
                Cell::number(analysis.scored.auc),
                Cell::number(analysis.hull.area()),
                Cell::number(*repaired),
                Cell::text(if listed.is_empty() {
                    "none".to_string()
                } else {
                    listed.join(", ")
                }),
            ]);
        }
    }
    table.push_note(
        "Repaired on the same scores, the curve lies on or above the original hull (Flach & Wu \
         2005); to judge a repair honestly, find the intervals on validation scores and apply \
         them to test scores (evaluate::concavities, evaluate::invert_intervals).",
    );
    Ok(table.to_markdown()?)
}
