//! Serialising floats that may be infinite or NaN: JSON has no literal for them, so they are
//! written as the strings "inf", "-inf" and "nan" (the convention of the shared test vectors
//! and of the `experiments` tool's `--json` output). Use with `#[serde(serialize_with = ...)]`,
//! or [`Float`] in a hand-written `Serialize`. This is the one place that writes such floats.

use serde::{Serialize, Serializer};

/// A float that serialises as [`float`] writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Float(pub f64);

impl Serialize for Float {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        float(&self.0, serializer)
    }
}

/// Writes a list of floats, each as [`float`] does.
pub fn floats<S: Serializer>(values: &[f64], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(values.iter().map(|&value| Float(value)))
}

/// Writes a float, non-finite values as "inf", "-inf" or "nan".
pub fn float<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.is_nan() {
        serializer.serialize_str("nan")
    } else if *value == f64::INFINITY {
        serializer.serialize_str("inf")
    } else if *value == f64::NEG_INFINITY {
        serializer.serialize_str("-inf")
    } else {
        serializer.serialize_f64(*value)
    }
}

/// Writes an optional float as `null` or as [`float`] does.
pub fn optional_float<S: Serializer>(
    value: &Option<f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(value) => float(value, serializer),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize)]
    struct Sample {
        #[serde(serialize_with = "super::float")]
        value: f64,
        #[serde(serialize_with = "super::optional_float")]
        maybe: Option<f64>,
        #[serde(serialize_with = "super::floats")]
        list: Vec<f64>,
    }

    #[test]
    fn non_finite_floats_are_strings() {
        let text =
            |value, maybe, list| serde_json::to_string(&Sample { value, maybe, list }).unwrap();
        assert_eq!(
            text(f64::INFINITY, None, vec![]),
            r#"{"value":"inf","maybe":null,"list":[]}"#
        );
        assert_eq!(
            text(f64::NEG_INFINITY, Some(f64::NAN), vec![1.5, f64::INFINITY]),
            r#"{"value":"-inf","maybe":"nan","list":[1.5,"inf"]}"#
        );
        assert_eq!(
            text(0.5, Some(2.0), vec![f64::NAN]),
            r#"{"value":0.5,"maybe":2.0,"list":["nan"]}"#
        );
    }
}
