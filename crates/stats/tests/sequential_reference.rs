//! The sequential module (issue 44) against independent implementations
//! (`tests/data/sequential/generate.py`): the noncentral t density against scipy's nct.pdf
//! and mpmath's series at 80 digits, the safe t-test's e-values against the formula
//! evaluated with scipy, the stitched boundary against PyPI `confseq`, the
//! empirical-Bernstein sequence and the decisions against a numpy implementation around it.

mod common;
use common::{cases, float, floats};
use stats::{
    empirical_bernstein_sequence, noncentral_t_density, polynomial_stitching_bound,
    safe_t_log_e_value, sequential_decision, SequentialRule, SequentialSettings, StitchingOptions,
};

fn close(what: &str, got: f64, want: f64, relative: f64) {
    assert!(
        (got - want).abs() <= relative * want.abs(),
        "{what}: got {got}, expected {want} (relative tolerance {relative})"
    );
}

#[test]
fn the_noncentral_t_density_matches_scipy_and_mpmath() {
    for case in cases("sequential/noncentral_t") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let got = noncentral_t_density(
            float(&input["t"]),
            float(&input["df"]),
            float(&input["ncp"]),
        );
        close(name, got, float(&case["expected"]["pdf_mpmath"]), 1e-11);
        // scipy (Boost) is itself off by up to 1e-8 at a few of these points, and NaN (null)
        // at a few far in the tail.
        if !case["expected"]["pdf"].is_null() {
            close(name, got, float(&case["expected"]["pdf"]), 2e-8);
        }
    }
}

#[test]
fn the_safe_t_e_values_match_the_formula_with_scipy() {
    for case in cases("sequential/safe_t") {
        let name = case["name"].as_str().unwrap();
        let differences = floats(&case["input"]["differences"]);
        let delta_min = float(&case["input"]["delta_min"]);
        // null where scipy's nct.pdf gives NaN: mpmath's value stands there.
        let scipy: Vec<Option<f64>> = case["expected"]["e_values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|value| (!value.is_null()).then(|| float(value)))
            .collect();
        let mpmath = floats(&case["expected"]["log_e_values_mpmath"]);
        for (index, (want, log_want)) in scipy.iter().zip(&mpmath).enumerate() {
            let n = index + 2;
            let log_e = safe_t_log_e_value(&differences[..n], delta_min).unwrap();
            if let Some(want) = want {
                close(&format!("{name} n={n} (scipy)"), log_e.exp(), *want, 1e-8);
            }
            assert!(
                (log_e - log_want).abs() <= 1e-11 * log_want.abs().max(1.0),
                "{name} n={n}: log e {log_e}, mpmath {log_want}"
            );
        }
    }
}

#[test]
fn the_stitched_boundary_and_the_sequence_match_confseq() {
    for case in cases("sequential/confidence_sequence") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        if input.get("v").is_some() {
            let got = polynomial_stitching_bound(
                float(&input["v"]),
                float(&input["alpha"]),
                float(&input["v_min"]),
                float(&input["c"]),
                1.4,
                2.0,
            );
            close(name, got, float(&case["expected"]["bound"]), 1e-12);
            continue;
        }
        let options = StitchingOptions {
            v_min: float(&input["v_min"]),
            ..StitchingOptions::default()
        };
        let bounds = empirical_bernstein_sequence(
            &floats(&input["values"]),
            float(&input["alpha"]),
            (float(&input["low"]), float(&input["high"])),
            options,
        )
        .unwrap();
        let lower = floats(&case["expected"]["lower"]);
        let upper = floats(&case["expected"]["upper"]);
        for (index, got) in bounds.iter().enumerate() {
            let scale = upper[index] - lower[index];
            assert!(
                (got.lower - lower[index]).abs() <= 1e-12 * scale
                    && (got.upper - upper[index]).abs() <= 1e-12 * scale,
                "{name} t={}: got {got:?}, expected [{}, {}]",
                index + 1,
                lower[index],
                upper[index]
            );
        }
    }
}

fn settings(input: &serde_json::Value) -> SequentialSettings {
    let rule = match input["rule"].as_str().unwrap() {
        "e_value" => SequentialRule::EValue {
            delta_min: float(&input["delta_min"]),
        },
        _ => SequentialRule::ConfidenceSequence {
            rope: float(&input["rope"]),
            range: (-1.0, 1.0),
            stitching: StitchingOptions {
                v_min: float(&input["v_min"]),
                ..StitchingOptions::default()
            },
        },
    };
    SequentialSettings {
        rule,
        alpha: float(&input["alpha"]),
        min_repetitions: input["min_repetitions"].as_u64().unwrap() as usize,
        max_repetitions: input["max_repetitions"].as_u64().unwrap() as usize,
    }
}

#[test]
fn the_decisions_match_the_python_rule() {
    for case in cases("sequential/decisions") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let decided =
            sequential_decision(&floats(&input["differences"]), &settings(input)).unwrap();
        let expected = &case["expected"];
        assert_eq!(
            decided.decision.name(),
            expected["decision"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(
            decided.repetitions as u64,
            expected["repetitions"].as_u64().unwrap(),
            "{name}"
        );
        match expected["e_value"].as_f64() {
            Some(want) => close(name, decided.e_value().unwrap(), want, 1e-8),
            None => assert_eq!(decided.e_value(), None, "{name}"),
        }
    }
}

#[test]
fn bad_settings_are_refused_naming_the_parameter() {
    let base = SequentialSettings {
        rule: SequentialRule::EValue { delta_min: 0.5 },
        alpha: 0.05,
        min_repetitions: 2,
        max_repetitions: 10,
    };
    let refused = |settings: SequentialSettings, name: &str| {
        let message = sequential_decision(&[0.1, 0.2, 0.3], &settings)
            .unwrap_err()
            .to_string();
        assert!(message.contains(name), "{message}");
    };
    refused(SequentialSettings { alpha: 1.0, ..base }, "alpha");
    refused(
        SequentialSettings {
            min_repetitions: 11,
            ..base
        },
        "min_repetitions",
    );
    refused(
        SequentialSettings {
            rule: SequentialRule::EValue { delta_min: 0.0 },
            ..base
        },
        "delta_min",
    );
    let message = sequential_decision(&[0.1, f64::NAN], &base)
        .unwrap_err()
        .to_string();
    assert!(message.contains("non-finite"), "{message}");
}
