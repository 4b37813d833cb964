//! What a CSV reader notices about the class it chose: another column whose name says it is
//! the class (`class`, `target`, `label`) while the last column is used, and class values that
//! differ only by surrounding spaces or case (`' yes'` beside `'yes'`), which are distinct
//! classes. Both become [`LoadNotice`]s.

use crate::notices::LoadNotice;

/// Column names that say a column is the class.
pub const CLASS_LIKE_NAMES: [&str; 3] = ["class", "target", "label"];

/// The most pairs of look-alike class values a notice names.
const MOST_PAIRS: usize = 10;

/// The notices about the class of a file with columns `names`, class column `class` (chosen by
/// default when `defaulted`) and class values `values` (each spelling once).
pub(crate) fn class_notices(
    names: &[&str],
    class: usize,
    defaulted: bool,
    values: &[String],
) -> Vec<LoadNotice> {
    let mut notices = Vec::new();
    let class_like = |name: &str| CLASS_LIKE_NAMES.contains(&name.trim().to_lowercase().as_str());
    if defaulted && !class_like(names[class]) {
        if let Some(column) = names.iter().position(|name| class_like(name)) {
            notices.push(LoadNotice::ClassNamedElsewhere {
                column: names[column].to_string(),
                position: column + 1,
                used: names[class].to_string(),
            });
        }
    }
    let pairs = look_alike(values);
    if !pairs.is_empty() {
        notices.push(LoadNotice::LookAlikeClasses { pairs });
    }
    notices
}

/// The pairs of `values` equal once surrounding spaces are trimmed and case is ignored.
fn look_alike(values: &[String]) -> Vec<(String, String)> {
    let key = |value: &str| value.trim().to_lowercase();
    let mut pairs = Vec::new();
    let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for value in values {
        match seen.get(&key(value)) {
            Some(first) if pairs.len() < MOST_PAIRS => {
                pairs.push((first.to_string(), value.clone()))
            }
            Some(_) => {}
            None => {
                seen.insert(key(value), value);
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|value| value.to_string()).collect()
    }

    #[test]
    fn a_class_named_column_and_look_alike_values_are_noticed() {
        let names = ["Class", "age", "num"];
        let notices = class_notices(&names, 2, true, &strings(&["yes", " yes", "no", "No "]));
        assert_eq!(
            notices,
            [
                LoadNotice::ClassNamedElsewhere {
                    column: "Class".into(),
                    position: 1,
                    used: "num".into()
                },
                LoadNotice::LookAlikeClasses {
                    pairs: vec![("yes".into(), " yes".into()), ("no".into(), "No ".into())]
                }
            ]
        );
        // A declared class column, or a last column that is itself class-like: no notice.
        assert!(class_notices(&names, 2, false, &strings(&["a", "b"])).is_empty());
        let names = ["label", "x", "target"];
        assert!(class_notices(&names, 2, true, &strings(&["a", "b"])).is_empty());
    }
}
