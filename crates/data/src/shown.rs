//! How a user's text is quoted in a message: [`shown`] keeps a message short whatever a file
//! holds (a 5 MB cell gives a message of a few hundred bytes, not one of 10 MB), and
//! [`closest`] finds the names nearest a misspelt one.

use std::borrow::Cow;

/// The most characters of one piece of a user's text a message quotes.
pub const SHOWN_CHARACTERS: usize = 120;

/// `text` as a message quotes it: whole when short, else its first [`SHOWN_CHARACTERS`]
/// characters, `...` and its length.
pub fn shown(text: &str) -> Cow<'_, str> {
    shown_within(text, SHOWN_CHARACTERS)
}

/// `text` whole when it has at most `most` characters, else its first `most`, `...` and its
/// length (as [`shown`], for a whole line of a message).
pub fn shown_within(text: &str, most: usize) -> Cow<'_, str> {
    match text.char_indices().nth(most) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!(
            "{}... ({} characters in all)",
            &text[..end],
            text.chars().count()
        )),
    }
}

/// `text` with each of its lines cut to `most` characters ([`shown_within`]): an error message
/// quoting a user's long value whole.
pub fn lines_within(text: &str, most: usize) -> String {
    let lines: Vec<_> = text.split('\n').map(|l| shown_within(l, most)).collect();
    lines.join("\n")
}

/// Names as a message lists them, comma-separated: each [`shown`], at most `most` of them,
/// then how many more there are.
pub fn shown_list<S: AsRef<str>>(names: &[S], most: usize) -> String {
    let mut listed: Vec<String> = names
        .iter()
        .take(most)
        .map(|name| shown(name.as_ref()).into_owned())
        .collect();
    if names.len() > most {
        listed.push(format!("... ({} more)", names.len() - most));
    }
    listed.join(", ")
}

/// `text` as one argument of a POSIX shell command, pasted as it is: in single quotes, each `'`
/// written `'\''` (so spaces, `>`, `$` and `;` stay part of it).
pub fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The edit (Levenshtein) distance between two texts, counted in characters, ignoring case.
fn edit_distance(first: &str, second: &str) -> usize {
    let first: Vec<char> = first.to_lowercase().chars().collect();
    let second: Vec<char> = second.to_lowercase().chars().collect();
    let mut previous: Vec<usize> = (0..=second.len()).collect();
    for (i, a) in first.iter().enumerate() {
        let mut current = vec![i + 1; second.len() + 1];
        for (j, b) in second.iter().enumerate() {
            let substitution = previous[j] + usize::from(a != b);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[second.len()]
}

/// Up to `most` of `names` nearest `wanted`: those within an edit distance of a third of its
/// length (at least 2), or that contain it or are contained in it, nearest first.
pub fn closest<'a>(wanted: &str, names: &[&'a str], most: usize) -> Vec<&'a str> {
    let wanted: String = wanted.chars().take(200).collect();
    let limit = (wanted.chars().count() / 3).max(2);
    let lower = wanted.to_lowercase();
    let mut near: Vec<(usize, &'a str)> = names
        .iter()
        .map(|&name| (edit_distance(&wanted, name), name))
        .filter(|&(distance, name)| {
            let name = name.to_lowercase();
            distance <= limit || name.contains(&lower) || lower.contains(&name)
        })
        .collect();
    near.sort_by_key(|&(distance, _)| distance);
    near.into_iter().take(most).map(|(_, name)| name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_and_measured() {
        assert_eq!(shown("short"), "short");
        let long = "é".repeat(5_000);
        let text = shown(&long);
        assert!(text.len() < 400, "{}", text.len());
        assert!(text.ends_with("... (5000 characters in all)"), "{text}");
        assert_eq!(shown_list(&["a", "b", "c"], 2), "a, b, ... (1 more)");
        assert_eq!(shown_within("abcdef", 3), "abc... (6 characters in all)");
        assert_eq!(shown_within("abc", 3), "abc");
        assert_eq!(shell_quoted("a > 120"), "'a > 120'");
        assert_eq!(shell_quoted("it's"), r"'it'\''s'");
    }

    #[test]
    fn the_closest_names_come_first() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let names = ["glass", "sonar", "german", "pima", "monks-1-train"];
        assert_eq!(closest("glas", &names, 3), ["glass"]);
        assert_eq!(closest("Sonar2", &names, 3), ["sonar"]);
        assert_eq!(closest("monks-1", &names, 3), ["monks-1-train"]);
        assert!(closest("zzzzzzzz", &names, 3).is_empty());
    }
}
