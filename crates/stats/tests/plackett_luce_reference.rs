//! The Plackett-Luce posterior (Caron & Doucet's Gibbs sampler) against Stan's NUTS on the same
//! model (`reference/plackett_luce_reference.py` -> `tests/data/plackett_luce.json`): two Monte
//! Carlo estimates compared within each case's tolerance.

mod common;
use common::{cases, float, floats, matrix};
use stats::plackett_luce::{plackett_luce, PlackettLuceOptions};

#[test]
fn gibbs_matches_stan() {
    for case in cases("plackett_luce") {
        let name = case["name"].as_str().unwrap();
        let scores = matrix(&case["input"]["scores"]);
        let expected = &case["expected"];
        let tolerance = float(&expected["tolerance"]);
        let options = PlackettLuceOptions {
            higher_is_better: case["input"]["higher_is_better"].as_bool().unwrap(),
            prior: Some(floats(&case["input"]["prior"])),
            seed: 11,
            ..PlackettLuceOptions::default()
        };
        let result = plackett_luce(&scores, &options).unwrap();
        assert!(result.converged, "{name}: R-hat {}", result.max_rhat);
        assert_eq!(result.datasets_with_ties, 0, "{name}");
        for (field, got, scale) in [
            (
                "expected_win_probability",
                &result.expected_win_probability,
                1.0,
            ),
            ("probability_best", &result.probability_best, 1.0),
            ("expected_rank", &result.expected_rank, 4.0),
        ] {
            for (l, want) in floats(&expected[field]).into_iter().enumerate() {
                assert!(
                    (got[l] - want).abs() <= tolerance * scale,
                    "{name} {field}[{l}]: ours {}, Stan {want}",
                    got[l]
                );
            }
        }
    }
}

#[test]
fn bad_input_and_ties() {
    let options = PlackettLuceOptions {
        samples: 50,
        warmup: 10,
        ..PlackettLuceOptions::default()
    };
    assert!(plackett_luce(&[vec![1.0, 2.0]], &options).is_err());
    let prior = PlackettLuceOptions {
        prior: Some(vec![1.0, 0.0]),
        ..options.clone()
    };
    assert!(plackett_luce(&[vec![1.0, 2.0], vec![2.0, 1.0]], &prior).is_err());
    let tied = plackett_luce(&[vec![1.0, 1.0], vec![2.0, 1.0]], &options).unwrap();
    assert_eq!(tied.datasets_with_ties, 1);
    let sum: f64 = tied.expected_win_probability.iter().sum();
    assert!((sum - 1.0).abs() < 1e-9);
}
