//! The `[stopping]` table: stop repeating a dataset's cross-validation when every pair of
//! learners on it is decided by an anytime-valid rule (issue 44; the rules are
//! `stats::sequential`'s). Every key is checked here, each error naming `stopping.<key>` and
//! what it allows; what depends on the rest of the config (the measure, the control learner,
//! the protocol's repetitions) is checked with the plan ([`crate::plan::stopping`]).

use serde::{Deserialize, Serialize};

/// The most repetitions `min_repetitions` and `max_repetitions` may name.
pub const MAX_REPETITIONS: i64 = 1_000_000;

/// The rule that decides a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopRule {
    /// The two-sided safe t-test's e-value reaching 1 / alpha.
    EValue,
    /// The empirical-Bernstein confidence sequence excluding the rope, or inside it.
    ConfidenceSequence,
}

/// Which pairs of learners decide.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopPairs {
    /// Every two learners.
    All,
    /// Each learner against the control learner.
    Control,
}

/// `[stopping]` as checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawStopping")]
pub struct StoppingConfig {
    /// The rule.
    pub rule: StopRule,
    /// The error rate, in (0, 1).
    pub alpha: f64,
    /// The e-value rule's standardised effect size (required by it).
    pub delta_min: Option<f64>,
    /// The confidence-sequence rule's rope (half-width, in the measure's units); none: 0.
    pub rope: Option<f64>,
    /// No decision before this many repetitions.
    pub min_repetitions: usize,
    /// At most this many repetitions; none: the protocol's.
    pub max_repetitions: Option<usize>,
    /// The measure the pairs are decided on; none: the config's first.
    pub measure: Option<String>,
    /// Which pairs decide.
    pub pairs: StopPairs,
    /// The control learner's name, with `pairs = "control"`.
    pub control: Option<String>,
}

/// `[stopping]` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStopping {
    rule: Option<String>,
    alpha: Option<toml::Value>,
    delta_min: Option<toml::Value>,
    rope: Option<toml::Value>,
    min_repetitions: Option<toml::Value>,
    max_repetitions: Option<toml::Value>,
    measure: Option<String>,
    pairs: Option<String>,
    control: Option<String>,
}

/// A number given as a TOML integer or float; NaN for anything else.
fn number(value: &toml::Value) -> f64 {
    match value {
        toml::Value::Integer(number) => *number as f64,
        toml::Value::Float(number) => *number,
        _ => f64::NAN,
    }
}

/// A real key's value, if given, when it lies in its range; else the message naming the key.
fn real(
    key: &str,
    value: Option<toml::Value>,
    fine: impl Fn(f64) -> bool,
    allowed: &str,
) -> Result<Option<f64>, String> {
    let Some(value) = value else {
        return Ok(None);
    };
    let x = number(&value);
    if fine(x) {
        Ok(Some(x))
    } else {
        Err(format!(
            "key 'stopping.{key}' = {}: allowed: {allowed}",
            data::shown(&value.to_string())
        ))
    }
}

/// A count key's value, if given, when it is a whole number from 1 to [`MAX_REPETITIONS`].
fn count(key: &str, value: Option<toml::Value>) -> Result<Option<usize>, String> {
    match value {
        None => Ok(None),
        Some(toml::Value::Integer(n)) if (1..=MAX_REPETITIONS).contains(&n) => Ok(Some(n as usize)),
        Some(value) => Err(format!(
            "key 'stopping.{key}' = {}: allowed: a whole number of repetitions from 1 to \
             {MAX_REPETITIONS}",
            data::shown(&value.to_string())
        )),
    }
}

impl TryFrom<RawStopping> for StoppingConfig {
    type Error = String;

    fn try_from(raw: RawStopping) -> Result<Self, String> {
        let rule = parse_rule(raw.rule.as_deref())?;
        let alpha = real("alpha", raw.alpha, |x| x > 0.0 && x < 1.0, ALPHA)?.unwrap_or(0.05);
        let positive = |x: f64| x > 0.0 && x.is_finite();
        let delta_min = real("delta_min", raw.delta_min, positive, DELTA_MIN)?;
        let rope = real("rope", raw.rope, |x| (0.0..1.0).contains(&x), ROPE)?;
        let pairs = check_pairs(raw.pairs.as_deref(), raw.control.as_ref())?;
        let min_repetitions = count("min_repetitions", raw.min_repetitions)?.unwrap_or(2);
        let max_repetitions = count("max_repetitions", raw.max_repetitions)?;
        check_rule_keys(rule, delta_min, rope)?;
        if let Some(max) = max_repetitions.filter(|max| min_repetitions > *max) {
            return Err(format!(
                "key 'stopping.min_repetitions' = {min_repetitions} is greater than \
                 'stopping.max_repetitions' = {max}: allowed: min_repetitions <= max_repetitions"
            ));
        }
        Ok(StoppingConfig {
            rule,
            alpha,
            delta_min,
            rope,
            min_repetitions,
            max_repetitions,
            measure: raw.measure,
            pairs,
            control: raw.control,
        })
    }
}

/// What `alpha` allows.
const ALPHA: &str = "a number with 0 < alpha < 1";
/// What `delta_min` allows.
const DELTA_MIN: &str =
    "a finite number greater than 0 (a standardised effect size: mean / sd of the differences)";
/// What `rope` allows.
const ROPE: &str = "a number from 0 up to 1 (excluded), in the measure's units";

/// `rule`: "e_value" (the default) or "confidence_sequence".
fn parse_rule(rule: Option<&str>) -> Result<StopRule, String> {
    match rule {
        None | Some("e_value") => Ok(StopRule::EValue),
        Some("confidence_sequence") => Ok(StopRule::ConfidenceSequence),
        Some(other) => Err(format!(
            "key 'stopping.rule' = \"{}\": allowed: \"e_value\" (the safe t-test) or \
             \"confidence_sequence\" (empirical Bernstein)",
            data::shown(other)
        )),
    }
}

/// `pairs` and `control`: "all" (the default) takes no control; "control" needs one.
fn check_pairs(pairs: Option<&str>, control: Option<&String>) -> Result<StopPairs, String> {
    match (pairs, control) {
        (None | Some("all"), None) => Ok(StopPairs::All),
        (Some("control"), Some(_)) => Ok(StopPairs::Control),
        (Some("control"), None) => Err("key 'stopping.control' is missing: pairs = \"control\" \
                                        needs the control learner's name"
            .to_string()),
        (None | Some("all"), Some(name)) => Err(format!(
            "key 'stopping.control' = \"{}\" is given but 'stopping.pairs' is not \
             \"control\": set pairs = \"control\" or remove control",
            data::shown(name)
        )),
        (Some(other), _) => Err(format!(
            "key 'stopping.pairs' = \"{}\": allowed: \"all\" (every two learners) or \
             \"control\" (each learner against 'stopping.control')",
            data::shown(other)
        )),
    }
}

/// The e-value rule needs `delta_min` and takes no rope; the confidence sequence takes no
/// `delta_min`.
fn check_rule_keys(
    rule: StopRule,
    delta_min: Option<f64>,
    rope: Option<f64>,
) -> Result<(), String> {
    match (rule, delta_min, rope) {
        (StopRule::EValue, None, _) => Err(
            "key 'stopping.delta_min' is missing: rule = \"e_value\" needs it (the standardised \
             effect size of the alternative, mean / sd of the per-repetition differences, e.g. \
             0.5 or 1)"
                .to_string(),
        ),
        (StopRule::EValue, _, Some(_)) => Err(
            "key 'stopping.rope' is given with rule = \"e_value\", which decides only which \
             learner is better: remove rope, or use rule = \"confidence_sequence\""
                .to_string(),
        ),
        (StopRule::ConfidenceSequence, Some(_), _) => Err(
            "key 'stopping.delta_min' is given with rule = \"confidence_sequence\", which does \
             not use it: remove it, or use rule = \"e_value\""
                .to_string(),
        ),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<StoppingConfig, String> {
        toml::from_str::<toml::Table>(text)
            .map_err(|e| e.to_string())
            .and_then(|table| {
                StoppingConfig::deserialize(toml::Value::Table(table)).map_err(|e| e.to_string())
            })
    }

    #[test]
    fn defaults_and_a_full_table() {
        let config = parse("delta_min = 0.5").unwrap();
        assert_eq!(config.rule, StopRule::EValue);
        assert_eq!((config.alpha, config.min_repetitions), (0.05, 2));
        let config = parse(
            "rule = \"confidence_sequence\"\nalpha = 0.1\nrope = 0.01\nmin_repetitions = 3\n\
             max_repetitions = 30\nmeasure = \"error\"\npairs = \"control\"\ncontrol = \"nb\"",
        )
        .unwrap();
        assert_eq!(config.pairs, StopPairs::Control);
        assert_eq!(config.max_repetitions, Some(30));
    }

    #[test]
    fn each_bad_key_is_named_with_what_it_allows() {
        for (text, words) in [
            ("delta_min = 1\nalpha = 1.5", "'stopping.alpha' = 1.5"),
            ("delta_min = 1\nalpha = 0", "0 < alpha < 1"),
            ("rule = \"sprt\"", "'stopping.rule' = \"sprt\""),
            ("alpha = 0.05", "'stopping.delta_min' is missing"),
            ("delta_min = -1", "'stopping.delta_min' = -1"),
            (
                "delta_min = 1\nmin_repetitions = 5\nmax_repetitions = 3",
                "min_repetitions <= max_repetitions",
            ),
            (
                "delta_min = 1\nmax_repetitions = 9999999999999",
                "'stopping.max_repetitions'",
            ),
            (
                "delta_min = 1\npairs = \"some\"",
                "'stopping.pairs' = \"some\"",
            ),
            (
                "delta_min = 1\npairs = \"control\"",
                "'stopping.control' is missing",
            ),
            ("delta_min = 1\nrope = 0.01", "'stopping.rope' is given"),
            ("delta_min = 1\nalpah = 0.1", "alpah"),
        ] {
            let message = parse(text).unwrap_err();
            assert!(message.contains(words), "{text}: {message}");
        }
    }
}
