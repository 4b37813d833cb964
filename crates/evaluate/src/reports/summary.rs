//! The ROC summary of a file of predictions, as the `roc` command prints it: for each score
//! column (a model, or a class against the rest) its class totals, AUC and scored AUC, ROC
//! points with the default threshold's point, and convex hull; for two classes also the hull
//! over all models (which model is optimal for which slope), the hull classifiers that reach a
//! target false positive rate, and the repair of each model's concavities; for more classes
//! Hand & Till's M and Provost & Domingos' AUC. Every type serialises as the command's `--json`
//! output (non-finite numbers as "inf", "-inf", "nan").

use serde::Serialize;
use stats::json::float;

use crate::error::{EvaluateError, Result};
use crate::predictions::{BinaryScores, Predictions};
use crate::roc_curves::concavity::{concavities, invert_intervals, ScoreInterval};
use crate::roc_curves::hull::{
    classifiers_hull, roc_convex_hull, ClassifierHull, HullVertex, RocHull,
};
use crate::roc_curves::interpolation::Mixture;
use crate::roc_curves::multiclass::{hand_till_m, provost_domingos_auc};
use crate::roc_curves::roc::{auc, roc_curve, scored_auc, RocPoint, ScoredAuc};

/// The default decision threshold whose ROC point is marked (predict positive iff score >= it).
pub const DEFAULT_THRESHOLD: f64 = 0.5;

/// The measures of one score column against two classes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoreSummary {
    /// Total positive weight.
    #[serde(serialize_with = "float")]
    pub positives: f64,
    /// Total negative weight.
    #[serde(serialize_with = "float")]
    pub negatives: f64,
    /// AUC, scored AUC and its parts.
    #[serde(flatten)]
    pub scored: ScoredAuc,
    /// The ROC points, by decreasing threshold from (0, 0).
    pub roc: Vec<RocPoint>,
    /// Index in `roc` of the point of [`DEFAULT_THRESHOLD`].
    pub default_point: usize,
    /// The convex hull of the points.
    pub hull: RocHull,
}

impl ScoreSummary {
    /// The measures of `scores` (both classes present).
    pub fn of(scores: &BinaryScores) -> Result<ScoreSummary> {
        let scored = scored_auc(scores)?;
        let curve = roc_curve(scores)?;
        let hull = roc_convex_hull(&curve.fpr_tpr())?;
        let (positives, negatives) = scores.class_totals();
        Ok(ScoreSummary {
            positives,
            negatives,
            scored,
            roc: curve.points().to_vec(),
            default_point: curve.default_point(),
            hull,
        })
    }

    /// The threshold of the ROC point at `point`: +inf for (0, 0), -inf when no point is there.
    fn threshold_at(&self, point: (f64, f64)) -> f64 {
        self.roc
            .iter()
            .find(|p| (p.fpr, p.tpr) == point)
            .map_or(f64::NEG_INFINITY, |p| p.threshold)
    }

    /// Whether the curve passes through `point`.
    fn passes(&self, point: (f64, f64)) -> bool {
        self.roc.iter().any(|p| (p.fpr, p.tpr) == point)
    }
}

/// One end of a [`Target`]: a hull vertex, the classifier "score >= threshold".
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HullClassifier {
    /// Its false positive rate.
    #[serde(serialize_with = "float")]
    pub fpr: f64,
    /// Its true positive rate.
    #[serde(serialize_with = "float")]
    pub tpr: f64,
    /// Its threshold (+inf: all negative; the lowest score: all positive).
    #[serde(serialize_with = "float")]
    pub threshold: f64,
    /// In the hull over all models: the models whose curves pass through the vertex (the
    /// threshold is the first one's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub models: Option<Vec<String>>,
}

/// The random mixture of two neighbouring hull vertices that reaches a target false positive
/// rate on the hull: use `first` on a share `share_first` of the cases, `second` on the rest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    /// The mixture's false positive rate.
    #[serde(serialize_with = "float")]
    pub fpr: f64,
    /// The true positive rate it reaches.
    #[serde(serialize_with = "float")]
    pub tpr: f64,
    /// The share of the cases given to `first`.
    #[serde(serialize_with = "float")]
    pub share_first: f64,
    /// The first classifier.
    pub first: HullClassifier,
    /// The second classifier.
    pub second: HullClassifier,
}

impl Target {
    /// The target of `mixture`, its ends named by `end`.
    fn new(mixture: &Mixture, end: impl Fn((f64, f64)) -> HullClassifier) -> Target {
        Target {
            fpr: mixture.point.0,
            tpr: mixture.point.1,
            share_first: mixture.share_first,
            first: end(mixture.first),
            second: end(mixture.second),
        }
    }
}

/// A model's concavities repaired (Flach & Wu 2005).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Repair {
    /// The score intervals under the hull whose ranking is inverted.
    pub intervals: Vec<ScoreInterval>,
    /// The AUC of the repaired scores on the same data.
    #[serde(serialize_with = "float")]
    pub auc: f64,
}

/// One model of a two-class file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelSummary {
    /// The score column's name.
    pub name: String,
    /// Its measures.
    #[serde(flatten)]
    pub scores: ScoreSummary,
    /// With a target false positive rate: the mixture of this model's hull vertices reaching it.
    pub target: Option<Target>,
    /// With repair: the inverted intervals and the repaired AUC.
    pub repair: Option<Repair>,
}

/// A vertex of the hull over all models, with the models whose curves pass through it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OwnedVertex {
    /// The vertex.
    #[serde(flatten)]
    pub vertex: HullVertex,
    /// Its models (none: a trivial classifier).
    pub models: Vec<String>,
}

/// A range of iso-performance slopes and the models optimal over it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlopeRange {
    /// Lowest slope.
    #[serde(serialize_with = "float")]
    pub low: f64,
    /// Highest slope.
    #[serde(serialize_with = "float")]
    pub high: f64,
    /// The models (none: a trivial classifier, all negative or all positive).
    pub models: Vec<String>,
}

/// The ROC convex hull over every model's points (Provost & Fawcett).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelsHull {
    /// Area under the hull.
    #[serde(serialize_with = "float")]
    pub area: f64,
    /// Its vertices from (0, 0) to (1, 1).
    pub vertices: Vec<OwnedVertex>,
    /// The slope of each edge.
    #[serde(serialize_with = "stats::json::floats")]
    pub segment_slopes: Vec<f64>,
    /// Which models are optimal for which slopes, from high slopes to low.
    pub slope_ranges: Vec<SlopeRange>,
    /// The model on the hull for every slope, if one is.
    pub dominating_model: Option<String>,
    /// With a target false positive rate: the mixture of hull vertices reaching it.
    pub target: Option<Target>,
}

/// A file of two-class predictions: each model's measures and the hull over them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BinarySummary {
    /// The positive label.
    pub positive: String,
    /// The other labels, in order of first appearance.
    pub negatives: Vec<String>,
    /// [`DEFAULT_THRESHOLD`].
    pub default_threshold: f64,
    /// One entry per score column, in file order.
    pub models: Vec<ModelSummary>,
    /// The hull over all models; `None` with a single model.
    pub models_hull: Option<ModelsHull>,
}

/// What to add to a two-class summary.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BinaryOptions {
    /// The false positive rate, in [0, 1], for each model's and the models' hull classifiers.
    pub target_fpr: Option<f64>,
    /// Repair each model's concavities.
    pub repair: bool,
}

/// An error marked with what it concerns ("column 'x'").
fn within<T>(what: impl Fn() -> String, result: Result<T>) -> Result<T> {
    result.map_err(|error| EvaluateError::In {
        what: what(),
        error: Box::new(error),
    })
}

/// The two-class summary of score columns `(name, scores)` against labels `truth`, of which
/// `positive` is the positive one.
pub fn binary_summary(
    truth: &[String],
    positive: &str,
    columns: &[(String, Vec<f64>)],
    options: BinaryOptions,
) -> Result<BinarySummary> {
    let is_positive: Vec<bool> = truth.iter().map(|label| label == positive).collect();
    let mut models = Vec::with_capacity(columns.len());
    for (name, scores) in columns {
        let data = BinaryScores::new(is_positive.clone(), scores.clone())?
            .with_decision_threshold(DEFAULT_THRESHOLD)?;
        let column = || format!("column '{name}'");
        models.push(within(column, model_summary(name, &data, options))?);
    }
    let models_hull = if models.len() > 1 {
        Some(models_hull(&models, options.target_fpr)?)
    } else {
        None
    };
    let mut negatives: Vec<String> = Vec::new();
    for label in truth {
        if label != positive && !negatives.contains(label) {
            negatives.push(label.clone());
        }
    }
    Ok(BinarySummary {
        positive: positive.to_string(),
        negatives,
        default_threshold: DEFAULT_THRESHOLD,
        models,
        models_hull,
    })
}

/// One model's measures, target and repair.
fn model_summary(name: &str, data: &BinaryScores, options: BinaryOptions) -> Result<ModelSummary> {
    let scores = ScoreSummary::of(data)?;
    let target = match options.target_fpr {
        Some(rate) => Some(Target::new(&scores.hull.mixture_at_fpr(rate)?, |point| {
            HullClassifier {
                fpr: point.0,
                tpr: point.1,
                threshold: scores.threshold_at(point),
                models: None,
            }
        })),
        None => None,
    };
    let repair = if options.repair {
        let intervals = concavities(data)?;
        let repaired = auc(&invert_intervals(data, &intervals)?)?;
        Some(Repair {
            intervals,
            auc: repaired,
        })
    } else {
        None
    };
    Ok(ModelSummary {
        name: name.to_string(),
        scores,
        target,
        repair,
    })
}

/// The hull over all models' points, with its owners, slope ranges and target.
fn models_hull(models: &[ModelSummary], target_fpr: Option<f64>) -> Result<ModelsHull> {
    let curves: Vec<Vec<(f64, f64)>> = models
        .iter()
        .map(|model| model.scores.roc.iter().map(|p| (p.fpr, p.tpr)).collect())
        .collect();
    let all: ClassifierHull = classifiers_hull(&curves)?;
    let names = |owners: &[usize]| -> Vec<String> {
        owners.iter().map(|&o| models[o].name.clone()).collect()
    };
    let end = |point: (f64, f64)| {
        let owners: Vec<&ModelSummary> = models.iter().filter(|m| m.scores.passes(point)).collect();
        HullClassifier {
            fpr: point.0,
            tpr: point.1,
            threshold: owners
                .first()
                .map_or(f64::NEG_INFINITY, |m| m.scores.threshold_at(point)),
            models: Some(owners.iter().map(|m| m.name.clone()).collect()),
        }
    };
    let target = match target_fpr {
        Some(rate) => Some(Target::new(&all.hull().mixture_at_fpr(rate)?, end)),
        None => None,
    };
    Ok(ModelsHull {
        area: all.hull().area(),
        vertices: all
            .hull()
            .vertices()
            .iter()
            .zip(all.owners())
            .map(|(vertex, owners)| OwnedVertex {
                vertex: vertex.clone(),
                models: names(owners),
            })
            .collect(),
        segment_slopes: all.hull().segment_slopes(),
        slope_ranges: all
            .slope_table()
            .into_iter()
            .map(|range| SlopeRange {
                low: range.low,
                high: range.high,
                models: names(&range.classifiers),
            })
            .collect(),
        dominating_model: all.dominating_classifier().map(|c| models[c].name.clone()),
        target,
    })
}

/// Pairs of (negative, positive) labels read as two classes without being told which is
/// positive, in any case.
const LABEL_PAIRS: [(&str, &str); 7] = [
    ("0", "1"),
    ("-1", "1"),
    ("-1", "+1"),
    ("false", "true"),
    ("no", "yes"),
    ("neg", "pos"),
    ("negative", "positive"),
];

/// Which of two labels is conventionally the positive one (1 of 0/1, -1/1 and -1/+1; true,
/// yes, pos, positive; in any case): 0 or 1, or `None` for another pair.
pub fn conventional_positive(labels: [&str; 2]) -> Option<usize> {
    let is = |label: &str, word: &str| label.eq_ignore_ascii_case(word);
    LABEL_PAIRS.iter().find_map(|&(negative, positive)| {
        if is(labels[0], negative) && is(labels[1], positive) {
            Some(1)
        } else if is(labels[1], negative) && is(labels[0], positive) {
            Some(0)
        } else {
            None
        }
    })
}

/// The models of multi-class score columns: a column named `CLASS` belongs to the one unnamed
/// model (named ""), `MODEL:CLASS` to `MODEL`; each model needs one column of every class.
/// Returns each model's name and its column indices in class order.
pub fn class_columns(names: &[String], classes: &[String]) -> Result<Vec<(String, Vec<usize>)>> {
    let listed = || classes.join(", ");
    let mut models: Vec<(String, Vec<Option<usize>>)> = Vec::new();
    for (column, name) in names.iter().enumerate() {
        let (model, class) = match name.rsplit_once(':') {
            _ if classes.contains(name) => ("", name.as_str()),
            Some(("", class)) if classes.iter().any(|c| c == class) => {
                return Err(EvaluateError::ClassColumn {
                    problem: format!(
                        "column '{name}' has an empty model name before ':'; name it \
                         MODEL:{class}, or '{class}' for the one unnamed model"
                    ),
                })
            }
            Some((model, class)) if classes.iter().any(|c| c == class) => (model, class),
            _ => {
                return Err(EvaluateError::ClassColumn {
                    problem: format!(
                        "column '{name}' is not named after a class: with more than two labels \
                         ({}), every score column must be named CLASS or MODEL:CLASS",
                        listed()
                    ),
                })
            }
        };
        let index = match models.iter().position(|(known, _)| known == model) {
            Some(index) => index,
            None => {
                models.push((model.to_string(), vec![None; classes.len()]));
                models.len() - 1
            }
        };
        let class = classes.iter().position(|c| c == class).expect("a class");
        if let Some(earlier) = models[index].1[class] {
            return Err(EvaluateError::ClassColumn {
                problem: format!(
                    "columns '{}' and '{name}' both give {} scores of class '{}'; each model \
                     needs exactly one column per class",
                    names[earlier],
                    if model.is_empty() {
                        "the unnamed model's".to_string()
                    } else {
                        format!("model '{model}''s")
                    },
                    classes[class]
                ),
            });
        }
        models[index].1[class] = Some(column);
    }
    models
        .into_iter()
        .map(
            |(model, columns)| match columns.iter().position(Option::is_none) {
                Some(missing) => Err(EvaluateError::ClassColumn {
                    problem: format!(
                        "no column '{}{}': each model needs one score column per class ({})",
                        if model.is_empty() {
                            String::new()
                        } else {
                            format!("{model}:")
                        },
                        classes[missing],
                        listed()
                    ),
                }),
                None => Ok((model, columns.into_iter().flatten().collect())),
            },
        )
        .collect()
}

/// One model's scores in a multi-class file: one score column per class, in class order.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassScores {
    /// The model's name.
    pub name: String,
    /// The names of its score columns, in class order.
    pub columns: Vec<String>,
    /// The score columns, in class order.
    pub scores: Vec<Vec<f64>>,
}

/// One class against the rest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassSummary {
    /// The class.
    pub class: String,
    /// Its measures against the rest.
    #[serde(flatten)]
    pub scores: ScoreSummary,
}

/// One model of a multi-class file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MulticlassModel {
    /// The model's name.
    pub name: String,
    /// Its score columns, in class order.
    pub columns: Vec<String>,
    /// Hand & Till's M.
    #[serde(serialize_with = "float")]
    pub hand_till_m: f64,
    /// Provost & Domingos' prevalence-weighted AUC.
    #[serde(serialize_with = "float")]
    pub provost_domingos_auc: f64,
    /// Each class against the rest.
    pub classes: Vec<ClassSummary>,
}

/// A file of multi-class predictions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MulticlassSummary {
    /// The classes, in order of first appearance.
    pub classes: Vec<String>,
    /// [`DEFAULT_THRESHOLD`].
    pub default_threshold: f64,
    /// One entry per model.
    pub models: Vec<MulticlassModel>,
}

/// The multi-class summary of `models` against labels `truth`, each one of `classes`.
pub fn multiclass_summary(
    truth: &[String],
    classes: &[String],
    models: &[ClassScores],
) -> Result<MulticlassSummary> {
    let truth_index: Vec<usize> = truth
        .iter()
        .map(|label| classes.iter().position(|c| c == label))
        .collect::<Option<_>>()
        .ok_or(EvaluateError::Empty {
            what: "a class list holding every true label",
        })?;
    let mut summaries = Vec::with_capacity(models.len());
    for model in models {
        let rows: Vec<Vec<f64>> = (0..truth.len())
            .map(|row| model.scores.iter().map(|column| column[row]).collect())
            .collect();
        let predictions = Predictions::new(classes.len(), truth_index.clone(), &rows)?;
        let context = || format!("model '{}'", model.name);
        let hand_till = within(context, hand_till_m(&predictions))?;
        let provost_domingos = within(context, provost_domingos_auc(&predictions))?;
        let mut per_class = Vec::with_capacity(classes.len());
        for (index, class) in classes.iter().enumerate() {
            let data = predictions
                .one_vs_rest(index)?
                .with_decision_threshold(DEFAULT_THRESHOLD)?;
            let what = || format!("{}, class '{class}' against the rest", context());
            per_class.push(ClassSummary {
                class: class.clone(),
                scores: within(what, ScoreSummary::of(&data))?,
            });
        }
        summaries.push(MulticlassModel {
            name: model.name.clone(),
            columns: model.columns.clone(),
            hand_till_m: hand_till,
            provost_domingos_auc: provost_domingos,
            classes: per_class,
        });
    }
    Ok(MulticlassSummary {
        classes: classes.to_vec(),
        default_threshold: DEFAULT_THRESHOLD,
        models: summaries,
    })
}

/// A summary of either kind, tagged `kind: "binary"` or `"multiclass"` in JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RocSummary {
    /// Two classes.
    Binary(Box<BinarySummary>),
    /// More than two classes.
    Multiclass(MulticlassSummary),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    /// Hand-worked: positives a (0.9, 0.2), negatives b (0.8) and c (0.1). Of the 4 ordered
    /// pairs 3 are ranked right: AUC 0.75. Curve (0,0) (0,.5) (.5,.5) (.5,1) (1,1); hull
    /// (0,0) (0,.5) (.5,1) (1,1); at fpr 0.25 the mixture of (0,.5) (threshold 0.9) and (.5,1)
    /// (threshold 0.2), half each, reaches tpr 0.75. Inverting the section of 0.8 and 0.2 ranks
    /// every positive first: repaired AUC 1.
    #[test]
    fn one_model_against_the_rest_worked_by_hand() {
        let truth = labels("a b c a");
        let columns = vec![("m".to_string(), vec![0.9, 0.8, 0.1, 0.2])];
        let options = BinaryOptions {
            target_fpr: Some(0.25),
            repair: true,
        };
        let summary = binary_summary(&truth, "a", &columns, options).unwrap();
        assert_eq!(summary.negatives, ["b", "c"]);
        assert!(summary.models_hull.is_none());
        let model = &summary.models[0];
        assert_eq!((model.scores.positives, model.scores.negatives), (2.0, 2.0));
        assert_eq!(model.scores.scored.auc, 0.75);
        // Threshold 0.5 predicts 0.9 and 0.8 positive: one of each class.
        let point = model.scores.roc[model.scores.default_point];
        assert_eq!((point.fpr, point.tpr), (0.5, 0.5));
        let target = model.target.as_ref().unwrap();
        assert_eq!(
            (target.first.threshold, target.second.threshold),
            (0.9, 0.2)
        );
        assert!((target.share_first - 0.5).abs() < 1e-12 && (target.tpr - 0.75).abs() < 1e-12);
        let repair = model.repair.as_ref().unwrap();
        assert_eq!(repair.auc, 1.0);
        for interval in &repair.intervals {
            assert!(interval.low >= 0.2 && interval.high <= 0.8, "{interval:?}");
        }
        let json = serde_json::to_value(model).unwrap();
        assert_eq!(json["roc"][0]["threshold"], "inf");
        assert_eq!(json["auc"], 0.75);
        assert_eq!(json["hull"]["vertices"][0]["slope_high"], "inf");
    }

    /// Two models: y's point (0, 1) dominates x's (0.5, 0.5), so y owns the hull.
    #[test]
    fn the_hull_over_models_names_its_owners() {
        let truth = labels("1 1 0 0");
        let columns = vec![
            ("x".to_string(), vec![1.0, 0.0, 1.0, 0.0]),
            ("y".to_string(), vec![1.0, 1.0, 0.0, 0.0]),
        ];
        let summary = binary_summary(&truth, "1", &columns, BinaryOptions::default()).unwrap();
        let all = summary.models_hull.unwrap();
        assert_eq!(all.dominating_model.as_deref(), Some("y"));
        assert_eq!(all.vertices.len(), 3);
        assert_eq!(all.vertices[1].models, ["y"]);
    }

    #[test]
    fn class_columns_group_models_and_name_what_is_missing() {
        let classes = labels("a b c");
        let names = labels("a b c m:a m:c m:b");
        let models = class_columns(&names, &classes).unwrap();
        assert_eq!(models[0], (String::new(), vec![0, 1, 2]));
        assert_eq!(models[1], ("m".to_string(), vec![3, 5, 4]));
        let missing = class_columns(&labels("a b"), &classes).unwrap_err();
        assert!(missing.to_string().contains("no column 'c'"), "{missing}");
        let stray = class_columns(&labels("a b c knn"), &classes).unwrap_err();
        assert!(stray.to_string().contains("column 'knn'"), "{stray}");
    }

    #[test]
    fn conventional_positive_labels() {
        assert_eq!(conventional_positive(["0", "1"]), Some(1));
        assert_eq!(conventional_positive(["Yes", "no"]), Some(0));
        assert_eq!(conventional_positive(["+1", "-1"]), Some(0));
        assert_eq!(conventional_positive(["red", "blue"]), None);
    }

    /// Perfectly separated scores: every class's AUC against the rest is 1, so are M and PD.
    #[test]
    fn separated_multiclass_scores_give_one() {
        let truth = labels("a b c");
        let model = ClassScores {
            name: "m".into(),
            columns: labels("a b c"),
            scores: vec![
                vec![0.8, 0.1, 0.1],
                vec![0.1, 0.8, 0.1],
                vec![0.1, 0.1, 0.8],
            ],
        };
        let summary = multiclass_summary(&truth, &truth, &[model]).unwrap();
        let model = &summary.models[0];
        assert_eq!((model.hand_till_m, model.provost_domingos_auc), (1.0, 1.0));
        assert!(model
            .classes
            .iter()
            .all(|class| class.scores.scored.auc == 1.0));
    }
}
