//! A whole number in a config beyond TOML's integers (`folds = 99999999999999999999`), or a
//! float beyond f64 (`1e400`): the toml crate refuses it naming a Rust type ("as i128, expected
//! any valid TOML value") or saying "floating-point number overflowed"; this
//! file finds the key and its line, and asks the key's own check what it allows, by checking
//! the config again with the number replaced by the TOML integer at the other end of the range
//! (which every bounded key refuses, naming its range).

/// The TOML integers' range, as a message says it.
pub const TOML_INTEGERS: &str = "TOML's integers run from -9223372036854775808 to \
                                 9223372036854775807";

/// The range of TOML's floats, as a message says it.
pub const TOML_FLOATS: &str = "TOML's floats reach about -1.8e308 and 1.8e308";

/// A whole number beyond TOML's integers, where the config gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct HugeInteger {
    /// The line (from 1).
    pub line: usize,
    /// The key it is the value of (the last key before its `=`).
    pub key: String,
    /// The number as written.
    pub written: String,
    /// True for a number with a fraction or exponent beyond f64 (`1e400`), false for a whole
    /// number beyond TOML's integers.
    pub float: bool,
    /// The config with the number replaced by a TOML integer of the other sign (and every
    /// later such number by one of its own sign, so that the config parses).
    pub replaced: String,
}

impl HugeInteger {
    /// The message, with `allowed` (what the key's check says it allows), if known.
    pub fn message(&self, allowed: Option<&str>) -> String {
        let shown = data::shown(&self.written);
        let allowed = allowed.map_or_else(
            || "a whole number within that range".to_string(),
            str::to_string,
        );
        let (what, range) = match self.float {
            true => ("numbers", TOML_FLOATS),
            false => ("whole numbers", TOML_INTEGERS),
        };
        format!(
            "line {}: key '{}' = {shown} is beyond the {what} a config can hold ({range}); \
             allowed: {allowed}",
            self.line,
            data::shown(&self.key)
        )
    }
}

/// The most huge numbers replaced in one config.
const MOST_REPLACED: usize = 100;

/// The first whole number of config `text` beyond TOML's integers, if parsing fails on one.
pub fn find(text: &str) -> Option<HugeInteger> {
    let span = huge_span(text)?;
    let written = text[span.clone()].to_string();
    let key = key_before(&text[..span.start])?;
    let float = is_float(&written);
    let end = |negative: bool, other: bool| match (negative != other, float) {
        (true, false) => "-9223372036854775808",
        (false, false) => "9223372036854775807",
        (true, true) => "-1e308",
        (false, true) => "1e308",
    };
    let other_end = end(written.starts_with('-'), true);
    let mut replaced = format!("{}{other_end}{}", &text[..span.start], &text[span.end..]);
    for _ in 0..MOST_REPLACED {
        let Some(next) = huge_span(&replaced) else {
            break;
        };
        let same = replaced[next.clone()].to_string();
        let same_end = match (same.starts_with('-'), is_float(&same)) {
            (true, false) => "-9223372036854775808",
            (false, false) => "9223372036854775807",
            (true, true) => "-1e308",
            (false, true) => "1e308",
        };
        replaced.replace_range(next, same_end);
    }
    let line = text[..span.start].matches('\n').count() + 1;
    Some(HugeInteger {
        line,
        key,
        written,
        float,
        replaced,
    })
}

/// Where `text` holds its first whole number beyond TOML's integers, if parsing fails on one.
fn huge_span(text: &str) -> Option<std::ops::Range<usize>> {
    let error = toml::from_str::<toml::Table>(text).err()?;
    let message = error.message();
    let beyond = (message.starts_with("invalid type: integer")
        && (message.contains(" as i128") || message.contains(" as u128")))
        || message == "floating-point number overflowed";
    let span = error.span().filter(|_| beyond)?;
    text.get(span.clone()).map(|_| span)
}

/// True when a number as written is a float (has a fraction or an exponent).
fn is_float(written: &str) -> bool {
    !written.starts_with("0x") && written.contains(['.', 'e', 'E'])
}

/// The key whose `=` ends `before` (`folds = `, `{ k = `, `"a key" = `), unquoted; for an
/// item of a list (`k = [1, `), the list's key.
fn key_before(before: &str) -> Option<String> {
    let trimmed = before.trim_end();
    if trimmed.ends_with('[') || trimmed.ends_with(',') {
        return key_before(&trimmed[..list_start(trimmed)?]);
    }
    let before = trimmed.strip_suffix('=')?.trim_end();
    let quoted = before.ends_with('"') || before.ends_with('\'');
    let start = if quoted {
        let quote = before.chars().last()?;
        before[..before.len() - 1].rfind(quote)?
    } else {
        before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .map_or(0, |at| at + 1)
    };
    let key = before[start..].trim_matches(['"', '\'']).to_string();
    (!key.is_empty()).then_some(key)
}

/// Where the innermost list still open at the end of `text` starts (its `[`).
fn list_start(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, byte) in text.bytes().enumerate().rev() {
        match byte {
            b']' => depth += 1,
            b'[' if depth == 0 => return Some(at),
            b'[' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// What a check's `message` says `key` allows: the text after "allowed:" (or "allowed range
/// is") on the first line naming the key in quotes; serde's "expected usize" (a key read as a
/// count) as the counts a config can give.
pub fn allowed_in(message: &str, key: &str) -> Option<String> {
    let (quoted, dotted) = (format!("'{key}'"), format!(".{key}'"));
    let said = message
        .lines()
        .filter(|line| line.contains(&quoted) || line.contains(&dotted))
        .find_map(|line| {
            ["allowed: ", "allowed range is "]
                .iter()
                .find_map(|marker| line.find(marker).map(|at| line[at + marker.len()..].trim()))
        })
        .map(unbalanced_parenthesis);
    let count = ["expected usize", "expected u64", "expected u32"]
        .iter()
        .any(|expected| message.contains(expected));
    said.or_else(|| count.then(|| "a whole number from 0 to 9223372036854775807".to_string()))
}

/// `text` without a final `.` and a final `)` that closes nothing of it.
fn unbalanced_parenthesis(text: &str) -> String {
    let text = text.trim_end_matches('.');
    let open = text.matches('(').count();
    match text.strip_suffix(')') {
        Some(inner) if text.matches(')').count() > open => inner.to_string(),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_and_line_of_a_huge_number_are_found() {
        let text = "name = \"x\"\n[protocol]\nkind = \"a\"\nfolds = 99999999999999999999\n";
        let huge = find(text).unwrap();
        assert_eq!((huge.line, huge.key.as_str()), (4, "folds"));
        assert_eq!(huge.written, "99999999999999999999");
        assert!(huge.replaced.contains("folds = -9223372036854775808\n"));
        let inline = "m = [{ name = \"h\", \"alpha\" = -99999999999999999999 }]\n";
        let huge = find(inline).unwrap();
        assert_eq!((huge.line, huge.key.as_str()), (1, "alpha"));
        assert!(huge.replaced.contains("= 9223372036854775807 }"));
        let two = "a = 99999999999999999999\nb = -99999999999999999999\n";
        let huge = find(two).unwrap();
        assert_eq!(
            huge.replaced,
            "a = -9223372036854775808\nb = -9223372036854775808\n"
        );
        let listed = "tune = { k = [1, 99999999999999999999] }\n";
        let huge = find(listed).unwrap();
        assert_eq!((huge.line, huge.key.as_str()), (1, "k"));
        assert!(huge.replaced.contains("[1, -9223372036854775808]"));
        let float = find("alpha = 1e400\n").unwrap();
        assert!(float.float && float.replaced == "alpha = -1e308\n");
        assert!(float
            .message(None)
            .contains("beyond the numbers a config can hold"));
        assert_eq!(find("folds = 99\n"), None);
        assert_eq!(find("folds = \n"), None);
    }

    #[test]
    fn the_allowed_part_of_a_key_s_message_is_read() {
        let message = "x.toml: key 'protocol': option 'folds' = -9 is out of range; allowed: \
                       at least 2\nother";
        assert_eq!(allowed_in(message, "folds").as_deref(), Some("at least 2"));
        assert_eq!(allowed_in(message, "k"), None);
        let dotted = "key 'stopping.min_repetitions' = -9: allowed: 1 to 9";
        assert_eq!(allowed_in(dotted, "min_repetitions").unwrap(), "1 to 9");
        let unknown = "line 8: unknown key 'k' (allowed: folds, repetitions)";
        assert_eq!(allowed_in(unknown, "k").unwrap(), "folds, repetitions");
        let noted = "key 'w' = 1: allowed: 1 to 9 (seconds)";
        assert_eq!(allowed_in(noted, "w").unwrap(), "1 to 9 (seconds)");
        let count = "invalid value: integer `-9`, expected usize";
        assert!(allowed_in(count, "k")
            .unwrap()
            .starts_with("a whole number from 0"));
    }
}
