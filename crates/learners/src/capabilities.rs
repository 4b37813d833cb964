//! What data a learner can handle ([`Capabilities`]), declared by its spec and reported by the
//! learner itself.

use data::{Schema, View};

/// What data a learner can handle.
///
/// Every built-in learner reads nominal attributes, missing values and any number of classes;
/// some cannot use arbitrary (fractional) instance weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capabilities {
    /// Nominal attributes (values stored as indices into the attribute's value list).
    pub nominal_attributes: bool,
    /// Missing attribute values (`NaN`) in training and test rows.
    pub missing_values: bool,
    /// More than two classes.
    pub multi_class: bool,
    /// Any non-negative instance weights are honoured (as a row's importance in fitting).
    pub instance_weights: bool,
}

impl Default for Capabilities {
    /// [`Capabilities::ALL`].
    fn default() -> Self {
        Capabilities::ALL
    }
}

impl Capabilities {
    /// Every capability.
    pub const ALL: Capabilities = Capabilities {
        nominal_attributes: true,
        missing_values: true,
        multi_class: true,
        instance_weights: true,
    };

    /// Every capability but instance weights.
    pub const UNWEIGHTED: Capabilities = Capabilities {
        instance_weights: false,
        ..Capabilities::ALL
    };

    /// The capabilities both have.
    pub fn and(self, other: Capabilities) -> Capabilities {
        Capabilities {
            nominal_attributes: self.nominal_attributes && other.nominal_attributes,
            missing_values: self.missing_values && other.missing_values,
            multi_class: self.multi_class && other.multi_class,
            instance_weights: self.instance_weights && other.instance_weights,
        }
    }

    /// True when every capability of `other` is also one of these.
    pub fn covers(&self, other: &Capabilities) -> bool {
        self.and(*other) == *other
    }

    /// Checks a dataset's schema (and whether it has missing values) against these
    /// capabilities; the error says what the learner lacks.
    pub fn accepts(&self, schema: &Schema, has_missing: bool) -> Result<(), String> {
        let mut lacks = Vec::new();
        if !self.nominal_attributes {
            let nominal: Vec<&str> = schema
                .attributes
                .iter()
                .filter(|attribute| !attribute.is_numeric())
                .map(|attribute| attribute.name.as_str())
                .collect();
            if !nominal.is_empty() {
                lacks.push(format!(
                    "nominal attributes (the data has {})",
                    nominal.join(", ")
                ));
            }
        }
        if !self.missing_values && has_missing {
            lacks.push("missing values (the data has some)".to_string());
        }
        if !self.multi_class && schema.num_classes() > 2 {
            lacks.push(format!(
                "more than two classes (the data has {})",
                schema.num_classes()
            ));
        }
        if lacks.is_empty() {
            Ok(())
        } else {
            Err(format!("cannot handle {}", lacks.join("; ")))
        }
    }

    /// [`Capabilities::accepts`] for the rows of a training view, also checking that its
    /// weights are all 1 when instance weights are not honoured.
    pub fn accepts_view(&self, view: &View) -> Result<(), String> {
        let has_missing = (0..view.num_attributes())
            .any(|attribute| view.column(attribute).any(|value| value.is_nan()));
        self.accepts(view.schema(), has_missing)?;
        if !self.instance_weights {
            if let Some(position) = (0..view.len()).find(|&p| view.weight(p) != 1.0) {
                return Err(format!(
                    "cannot honour instance weights (training row {position} has weight {})",
                    view.weight(position)
                ));
            }
        }
        Ok(())
    }

    /// The capabilities in words: "nominal attributes, missing values, multi-class, instance
    /// weights", with "no ..." for those lacking.
    pub fn describe(&self) -> String {
        [
            (self.nominal_attributes, "nominal attributes"),
            (self.missing_values, "missing values"),
            (self.multi_class, "multi-class"),
            (self.instance_weights, "instance weights"),
        ]
        .iter()
        .map(|&(has, what)| {
            if has {
                what.to_string()
            } else {
                format!("no {what}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
    }
}
