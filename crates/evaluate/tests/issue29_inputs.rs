//! Bad and degenerate input for the issue-29 measures: typed errors, never a panic.

use evaluate::*;

fn width(bins: usize) -> CalibrationOptions {
    CalibrationOptions::new(bins, Binning::EqualWidth, BinInterval::ClopperPearson, 0.05).unwrap()
}

#[test]
fn options_are_checked() {
    assert!(CalibrationOptions::new(0, Binning::EqualWidth, BinInterval::Wilson, 0.05).is_err());
    assert!(
        CalibrationOptions::new(usize::MAX, Binning::EqualMass, BinInterval::Wilson, 0.05).is_err()
    );
    assert!(
        CalibrationOptions::new(10, Binning::EqualWidth, BinInterval::Wilson, f64::NAN).is_err()
    );
    assert!(BetaPrior::new(0.0, 1.0).is_err());
    assert!(BetaPrior::new(1.0, f64::INFINITY).is_err());
    assert!(BetaPrior::from_severity_ratio(-1.0).is_err());
    assert!(probability_cost(0.0, 1.0, 1.0).is_err());
    assert!(probability_cost(0.5, 0.0, 0.0).is_err());
    assert_eq!(probability_cost(0.5, 1.0, 1.0).unwrap(), 0.5);
}

#[test]
fn scores_outside_zero_one_are_refused_where_probabilities_are_needed() {
    let data = BinaryScores::new(vec![true, false], vec![1.5, 0.2]).unwrap();
    assert!(matches!(
        calibration(&data, &width(10)),
        Err(EvaluateError::NotProbability { index: 0, .. })
    ));
    assert!(matches!(
        brier_score(&data),
        Err(EvaluateError::NotProbability { .. })
    ));
    assert!(brier_decomposition(&data, 10, Binning::EqualWidth).is_err());
    // ranking measures accept any finite or infinite score
    let ranking = BinaryScores::new(vec![true, false], vec![f64::INFINITY, -3.0]).unwrap();
    assert_eq!(average_precision(&ranking).unwrap(), 1.0);
    assert_eq!(partial_auc(&ranking, 0.0, 0.2).unwrap().standardized, 1.0);
    assert!(BinaryScores::new(vec![true], vec![f64::NAN]).is_err());
}

#[test]
fn single_class_and_empty_inputs_give_typed_errors() {
    let positives = BinaryScores::new(vec![true, true], vec![0.2, 0.9]).unwrap();
    assert!(matches!(
        precision_recall_curve(&positives),
        Err(EvaluateError::SingleClass { .. })
    ));
    assert!(pr_gain_curve(&positives).is_err());
    assert!(partial_auc(&positives, 0.0, 0.5).is_err());
    assert!(h_measure(&positives, None).is_err());
    assert!(cost_curve(&positives).is_err());
    // calibration and Brier need no negatives
    assert!((brier_score(&positives).unwrap() - (0.8 * 0.8 + 0.1 * 0.1) / 2.0).abs() < 1e-15);
    assert!(calibration(&positives, &width(4)).is_ok());
    let empty = BinaryScores::new(vec![], vec![]).unwrap();
    assert!(matches!(
        calibration(&empty, &width(4)),
        Err(EvaluateError::Empty { .. })
    ));
    assert!(brier_score(&empty).is_err());
    assert!(average_precision(&empty).is_err());
    let weighted = BinaryScores::new(vec![true, false], vec![0.2, 0.9])
        .unwrap()
        .with_weights(vec![2.0, 1.0])
        .unwrap();
    let mass = CalibrationOptions::new(4, Binning::EqualMass, BinInterval::Wilson, 0.05).unwrap();
    assert!(matches!(
        calibration(&weighted, &mass),
        Err(EvaluateError::WeightsUnsupported { .. })
    ));
    assert!(partial_auc(&weighted, 0.5, 0.5).is_err());
    assert!(partial_auc(&weighted, -0.1, 0.5).is_err());
    assert!(partial_auc(&weighted, 0.1, 1.5).is_err());
}

#[test]
fn one_instance_per_class_and_all_tied_scores_are_defined() {
    let tied = BinaryScores::new(vec![true, false, true, false], vec![0.5; 4]).unwrap();
    assert_eq!(average_precision(&tied).unwrap(), 0.5);
    assert_eq!(partial_auc(&tied, 0.0, 1.0).unwrap().raw, 0.5);
    assert_eq!(h_measure(&tied, None).unwrap().h, 0.0);
    let mass = CalibrationOptions::new(5, Binning::EqualMass, BinInterval::Wilson, 0.05).unwrap();
    let result = calibration(&tied, &mass).unwrap();
    assert_eq!(result.ece, 0.0);
    let d = brier_decomposition(&tied, 3, Binning::EqualMass).unwrap();
    assert_eq!((d.brier, d.reliability, d.resolution), (0.25, 0.0, 0.0));
    let curve = cost_curve(&tied).unwrap();
    assert_eq!(curve.cost_at(0.5), 0.5);
    let pair = BinaryScores::new(vec![true, false], vec![0.7, 0.3]).unwrap();
    assert_eq!(pr_gain_curve(&pair).unwrap().area, 1.0);
    assert_eq!(average_precision(&pair).unwrap(), 1.0);
    assert_eq!(
        precision_recall_curve(&pair).unwrap().interpolated_area(),
        1.0
    );
}

#[test]
fn results_serialise_with_non_finite_floats_as_strings() {
    let data = BinaryScores::new(
        vec![true, false, true, false],
        vec![f64::INFINITY, 0.4, 0.35, f64::NEG_INFINITY],
    )
    .unwrap();
    let text = serde_json::to_string(&precision_recall_curve(&data).unwrap()).unwrap();
    assert!(text.contains(r#""threshold":"inf""#), "{text}");
    let text = serde_json::to_string(&cost_curve(&data).unwrap()).unwrap();
    assert!(text.contains(r#""threshold":"-inf""#), "{text}");
    let gains = pr_gain_curve(&data).unwrap();
    if gains.points.iter().any(|p| p.crossing) {
        assert!(serde_json::to_string(&gains)
            .unwrap()
            .contains(r#""threshold":"nan""#));
    }
}
