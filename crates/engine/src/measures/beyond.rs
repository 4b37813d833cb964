//! The measures beyond ROC (issue 29) a config can name, registered in the open measure
//! registry beside the built-in ones: average precision, the interpolated precision-recall
//! area, the PR-Gain area, the partial AUC, the H-measure, the calibration errors and the Brier
//! score's reliability and resolution. Each computes `evaluate`'s function on one part's
//! predictions (the positive class's probability on a two-class task); NaN when it cannot
//! (a class absent from the part).

use std::sync::Arc;

use evaluate::{BetaPrior, BinInterval, BinaryScores, Binning, CalibrationOptions, Predictions};
use learners::{ParamError, ParameterSpec, Params, Probabilities};

use crate::measures::measure_spec::{binary_scores, BuildMeasure, MeasureFn, MeasureSpec};

/// The binning words of the calibration measures.
const BINNINGS: &[&str] = &["equal_width", "equal_mass"];

/// The `bins` and `binning` options of the calibration measures.
fn bin_options() -> Vec<ParameterSpec> {
    vec![
        ParameterSpec::integer("bins", 10, 1, 1_000_000, "number of bins"),
        ParameterSpec::choice(
            "binning",
            "equal_width",
            BINNINGS,
            "equal-width bins of [0, 1], or equal-mass bins at the scores' quantiles",
        ),
    ]
}

/// The binning an option word names.
fn binning(word: &str) -> Binning {
    if word == "equal_mass" {
        Binning::EqualMass
    } else {
        Binning::EqualWidth
    }
}

/// A measure of the positive class's scores on a two-class task (NaN otherwise or on error).
fn on_binary(
    compute: impl Fn(&BinaryScores) -> evaluate::Result<f64> + Send + Sync + 'static,
) -> MeasureFn {
    Arc::new(
        move |probabilities: &Probabilities, truth: &[usize], positive: Option<usize>| {
            positive
                .and_then(|positive| binary_scores(probabilities, truth, positive))
                .and_then(|scores| compute(&scores).ok())
                .unwrap_or(f64::NAN)
        },
    )
}

/// A calibration error (ECE when `maximum` is false, MCE otherwise): of the positive class on
/// a two-class task; on a multi-class one of the top label, or with `per_class` of each class
/// one-vs-rest (Kull et al.'s 2019 class-wise ECE: the mean over the classes; MCE: the largest).
fn calibration_error(params: &Params<'_>, maximum: bool) -> Result<MeasureFn, ParamError> {
    let options = CalibrationOptions {
        bins: params.integer("bins")?,
        binning: binning(params.choice("binning")?),
        interval: BinInterval::Wilson,
        alpha: 0.05,
    };
    let per_class = params.boolean("per_class")?;
    let pick = move |c: &evaluate::Calibration| if maximum { c.mce } else { c.ece };
    let multi_class = move |p: &Predictions| -> evaluate::Result<f64> {
        if !per_class {
            return evaluate::top_label_calibration(p, &options).map(|c| pick(&c));
        }
        let classes = evaluate::one_vs_rest_calibration(p, &options)?;
        let values = classes.iter().map(pick);
        Ok(if maximum {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.sum::<f64>() / classes.len() as f64
        })
    };
    Ok(Arc::new(
        move |probabilities: &Probabilities, truth: &[usize], positive: Option<usize>| {
            let result = match positive {
                Some(positive) => binary_scores(probabilities, truth, positive)
                    .and_then(|scores| evaluate::calibration(&scores, &options).ok())
                    .map(|c| pick(&c)),
                None => Predictions::from_flat(
                    probabilities.num_classes(),
                    truth.to_vec(),
                    probabilities.as_flat().to_vec(),
                )
                .and_then(|p| multi_class(&p))
                .ok(),
            };
            result.unwrap_or(f64::NAN)
        },
    ))
}

/// The options of the calibration errors: the bins' and `per_class`.
fn calibration_options() -> Vec<ParameterSpec> {
    let mut options = bin_options();
    options.push(ParameterSpec::boolean(
        "per_class",
        false,
        "on a multi-class task, each class one-vs-rest (ece: their mean, Kull et al.'s \
         class-wise ECE; mce: their largest) instead of the top label; two-class tasks: the \
         positive class either way",
    ));
    options
}

/// A part of Murphy's decomposition of the Brier score.
fn decomposition(params: &Params<'_>, resolution: bool) -> Result<MeasureFn, ParamError> {
    let bins = params.integer("bins")?;
    let binning = binning(params.choice("binning")?);
    Ok(on_binary(move |scores| {
        let parts = evaluate::brier_decomposition(scores, bins, binning)?;
        Ok(if resolution {
            parts.resolution
        } else {
            parts.reliability
        })
    }))
}

/// The H-measure with the configured prior. One rule with `roc --h-alpha A --h-beta B`: give
/// both of the Beta prior's parameters or neither; both mean the Beta prior.
fn h_measure(params: &Params<'_>) -> Result<MeasureFn, ParamError> {
    let given = [params.is_given("alpha"), params.is_given("beta")];
    if given[0] != given[1] {
        let (key, missing) = if given[0] {
            ("alpha", "beta")
        } else {
            ("beta", "alpha")
        };
        return Err(params.invalid(
            key,
            params.real(key)?.to_string(),
            format!(
                "only with '{missing}' (give both of the Beta prior's parameters or neither, as \
                 roc's --h-alpha and --h-beta)"
            ),
        ));
    }
    let explicit = params.is_given("prior");
    if given[0] && explicit && params.choice("prior")? == "class_ratio" {
        return Err(params.invalid(
            "prior",
            "\"class_ratio\"",
            "\"beta\" or no prior key when 'alpha' and 'beta' are given",
        ));
    }
    let choice = if given[0] {
        "beta"
    } else {
        params.choice("prior")?
    };
    let prior = match choice {
        "beta" => Some(
            BetaPrior::new(params.real("alpha")?, params.real("beta")?)
                .map_err(|error| params.invalid("alpha", error.to_string(), "finite and > 0"))?,
        ),
        _ => None,
    };
    Ok(on_binary(move |scores| {
        Ok(evaluate::h_measure(scores, prior)?.h)
    }))
}

/// The partial AUC over [0, max_fpr], standardised or raw.
fn partial_auc(params: &Params<'_>) -> Result<MeasureFn, ParamError> {
    let max_fpr = params.real("max_fpr")?;
    let standardized = params.boolean("standardized")?;
    Ok(on_binary(move |scores| {
        let area = evaluate::partial_auc(scores, 0.0, max_fpr)?;
        Ok(if standardized {
            area.standardized
        } else {
            area.raw
        })
    }))
}

/// A two-class measure without options.
fn plain(
    name: &'static str,
    description: &'static str,
    lower_is_better: bool,
    build: BuildMeasure,
) -> MeasureSpec {
    MeasureSpec {
        name,
        description,
        lower_is_better,
        needs_binary_task: true,
        multi_class_note: None,
        options: Vec::new(),
        build,
    }
}

/// The measures beyond ROC, in the order `experiments measures` lists them.
pub fn specs() -> Vec<MeasureSpec> {
    let mut specs = vec![
        plain(
            "average_precision",
            "average precision as scikit-learn's average_precision_score; binary tasks only",
            false,
            |_| Ok(on_binary(evaluate::average_precision)),
        ),
        plain(
            "pr_auc",
            "area under the precision-recall curve with Davis & Goadrich's interpolation; \
             binary tasks only",
            false,
            |_| {
                Ok(on_binary(|scores| {
                    Ok(evaluate::precision_recall_curve(scores)?.interpolated_area())
                }))
            },
        ),
        plain(
            "prg_auc",
            "area under Flach & Kull's precision-recall-gain curve (pyprg); binary tasks only",
            false,
            |_| {
                Ok(on_binary(
                    |scores| Ok(evaluate::pr_gain_curve(scores)?.area),
                ))
            },
        ),
    ];
    specs.extend(option_specs());
    specs
}

/// The measures with options.
fn option_specs() -> Vec<MeasureSpec> {
    let top_label = Some(
        "is the top-label (confidence) calibration error: the largest probability against \
         whether its class is the true one, as netcal; with per_class = true, each class's \
         one-vs-rest calibration (ece: their mean, mce: their largest)",
    );
    vec![
        MeasureSpec {
            name: "partial_auc",
            description: "partial AUC over FPR [0, max_fpr], McClish-standardised as \
                          scikit-learn's roc_auc_score(max_fpr=) or raw; binary tasks only",
            lower_is_better: false,
            needs_binary_task: true,
            multi_class_note: None,
            options: vec![
                ParameterSpec::real("max_fpr", 0.2, 1e-9, 1.0, "upper end of the FPR range"),
                ParameterSpec::boolean(
                    "standardized",
                    true,
                    "McClish's standardisation (0.5 random, 1 perfect); false: the raw area",
                ),
            ],
            build: partial_auc,
        },
        MeasureSpec {
            name: "h_measure",
            description: "Hand's (2009) H-measure; binary tasks only",
            lower_is_better: false,
            needs_binary_task: true,
            multi_class_note: None,
            options: vec![
                ParameterSpec::choice(
                    "prior",
                    "class_ratio",
                    &["class_ratio", "beta"],
                    "the hmeasure packages' Beta(2, 1 + n0/n1), or Beta(alpha, beta) (giving \
                     alpha and beta implies beta; give both or neither)",
                ),
                ParameterSpec::real(
                    "alpha",
                    2.0,
                    1e-6,
                    1e6,
                    "Beta prior's first shape (prior = \"beta\")",
                ),
                ParameterSpec::real(
                    "beta",
                    2.0,
                    1e-6,
                    1e6,
                    "Beta prior's second shape (prior = \"beta\")",
                ),
            ],
            build: h_measure,
        },
        MeasureSpec {
            name: "ece",
            description: "expected calibration error (netcal's ECE) of the positive class's \
                          probability; top-label on a multi-class task",
            lower_is_better: true,
            needs_binary_task: false,
            multi_class_note: top_label,
            options: calibration_options(),
            build: |params| calibration_error(params, false),
        },
        MeasureSpec {
            name: "mce",
            description: "maximum calibration error (netcal's MCE) of the positive class's \
                          probability; top-label on a multi-class task",
            lower_is_better: true,
            needs_binary_task: false,
            multi_class_note: top_label,
            options: calibration_options(),
            build: |params| calibration_error(params, true),
        },
        MeasureSpec {
            name: "brier_reliability",
            description: "reliability term of Murphy's Brier decomposition over bins (lower is \
                          better); binary tasks only",
            lower_is_better: true,
            needs_binary_task: true,
            multi_class_note: None,
            options: bin_options(),
            build: |params| decomposition(params, false),
        },
        MeasureSpec {
            name: "brier_resolution",
            description: "resolution term of Murphy's Brier decomposition over bins (higher is \
                          better); binary tasks only",
            lower_is_better: false,
            needs_binary_task: true,
            multi_class_note: None,
            options: bin_options(),
            build: |params| decomposition(params, true),
        },
    ]
}
