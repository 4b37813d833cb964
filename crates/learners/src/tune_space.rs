//! The values a learner's parameter is tuned over when a config asks for the learner's declared
//! space (`tune = "declared"`): each built-in learner declares one beside its parameters
//! ([`crate::ParameterSpec::tuned`]), so that every learner of a benchmark is tuned over a space
//! its author chose, not only the one the benchmark's author cares about.

/// A parameter's declared search space: the values a grid takes, in this order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TuneSpace {
    /// These real numbers.
    Reals(&'static [f64]),
    /// These whole numbers.
    Integers(&'static [usize]),
    /// These words of a choice.
    Words(&'static [&'static str]),
    /// `false`, then `true`.
    Booleans,
}

impl TuneSpace {
    /// The values as a config would give them.
    pub fn values(&self) -> Vec<toml::Value> {
        match *self {
            TuneSpace::Reals(values) => values.iter().map(|&v| toml::Value::Float(v)).collect(),
            TuneSpace::Integers(values) => values
                .iter()
                .map(|&v| toml::Value::Integer(v as i64))
                .collect(),
            TuneSpace::Words(words) => words
                .iter()
                .map(|&word| toml::Value::String(word.to_string()))
                .collect(),
            TuneSpace::Booleans => vec![toml::Value::Boolean(false), toml::Value::Boolean(true)],
        }
    }
}
