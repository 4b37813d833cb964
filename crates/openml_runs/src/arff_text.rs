//! ARFF's spelling of values and names, as liac-arff (openml-python's ARFF library) writes them.

use std::fmt::Write;

/// `text` as an ARFF value or name: bare when liac-arff would read it back unchanged, else in
/// single quotes with `\`-escapes (liac-arff's `encode_string`, which also quotes `{`, `}`, an
/// empty text and `?`, so that neither is read as a brace or a missing value).
pub fn arff_quoted(text: &str) -> String {
    let needs_quotes = text.is_empty()
        || text == "?"
        || text.chars().any(|c| {
            c.is_whitespace()
                || c.is_control()
                || matches!(c, '"' | '\'' | '\\' | '%' | ',' | '{' | '}')
        });
    if !needs_quotes {
        return text.to_string();
    }
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('\'');
    for c in text.chars() {
        match c {
            '"' | '\'' | '\\' | '%' => {
                quoted.push('\\');
                quoted.push(c);
            }
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            c if (c as u32) < 32 => {
                let _ = write!(quoted, "\\{:03o}", c as u32);
            }
            c => quoted.push(c),
        }
    }
    quoted.push('\'');
    quoted
}

/// `name` as an attribute's name: bare when it can be, else in double quotes without escapes
/// as liac-arff writes names (it reads a name by stripping its quotes, escapes left in); a name
/// holding `"`, `\` or a control character is single-quoted with escapes ([`arff_quoted`]).
pub fn arff_name(name: &str) -> String {
    if name
        .chars()
        .any(|c| c.is_control() || matches!(c, '"' | '\\'))
    {
        return arff_quoted(name);
    }
    let needs_quotes = name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '\'' | '%' | ',' | '{' | '}'));
    if needs_quotes {
        format!("\"{name}\"")
    } else {
        name.to_string()
    }
}

/// A number as the shortest text that reads back as the same `f64` (`1e-7`, `0.25`, `1.0`).
pub fn arff_number(value: f64) -> String {
    format!("{value:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_labels_stay_bare_and_others_are_quoted() {
        assert_eq!(arff_quoted("tested_positive"), "tested_positive");
        assert_eq!(arff_quoted("a b"), "'a b'");
        assert_eq!(arff_quoted("it's"), "'it\\'s'");
        assert_eq!(arff_quoted("?"), "'?'");
        assert_eq!(arff_quoted(""), "''");
        assert_eq!(arff_quoted("50%"), "'50\\%'");
    }

    #[test]
    fn names_are_double_quoted_as_liac_arff_writes_them() {
        assert_eq!(arff_name("confidence.a"), "confidence.a");
        assert_eq!(arff_name("confidence.it's 50%"), "\"confidence.it's 50%\"");
        assert_eq!(arff_name("a\"b"), "'a\\\"b'");
    }

    #[test]
    fn numbers_round_trip() {
        for value in [0.1 + 0.2, 1.0 / 3.0, 1e-300, 0.0, 1.0] {
            assert_eq!(arff_number(value).parse::<f64>().unwrap(), value);
        }
    }
}
