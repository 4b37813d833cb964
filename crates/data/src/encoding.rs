//! How every reader turns a file's bytes into text: [`read_text`].
//!
//! A file must be UTF-8 text (a UTF-8 byte-order mark is dropped). Anything else is refused
//! with what was found, before a single field is read:
//!
//! - a UTF-16 or UTF-32 byte-order mark, or a UTF-16 file without one (found by its pattern of
//!   NUL bytes: in mostly-ASCII UTF-16 text every second byte is 0), names the encoding and how
//!   to convert the file;
//! - bytes that are not UTF-8 name the line and column of the first, and say that the file may
//!   be Latin-1 or Windows-1252;
//! - a NUL byte is named as such, with its line and column (no NUL is ever read as text).
//!
//! Line ends may be `\n`, `\r\n` or a lone `\r` (old Mac files): every lone `\r` becomes `\n`,
//! so that the readers, which split lines at `\n` (a `\r` before it is dropped), see the lines
//! the file has.

use std::path::Path;

use crate::error::DataError;

/// Line and column (1-based) of a byte offset in a text.
pub(crate) fn line_and_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset - line_start + 1)
}

/// The encoding a byte-order mark announces, if it is not UTF-8's.
fn foreign_bom(bytes: &[u8]) -> Option<&'static str> {
    // UTF-32 first: its little-endian mark begins with UTF-16's.
    if bytes.starts_with(&[0xff, 0xfe, 0, 0]) {
        Some("UTF-32 (little-endian, with a byte-order mark)")
    } else if bytes.starts_with(&[0, 0, 0xfe, 0xff]) {
        Some("UTF-32 (big-endian, with a byte-order mark)")
    } else if bytes.starts_with(&[0xff, 0xfe]) {
        Some("UTF-16 (little-endian, with a byte-order mark)")
    } else if bytes.starts_with(&[0xfe, 0xff]) {
        Some("UTF-16 (big-endian, with a byte-order mark)")
    } else {
        None
    }
}

/// UTF-16 without a byte-order mark: in the first 1,000 byte pairs, NUL bytes in at least 40%
/// of the odd (little-endian) or even (big-endian) positions and almost none in the others.
fn bomless_utf16(bytes: &[u8]) -> Option<&'static str> {
    let pairs = bytes.chunks_exact(2).take(1000);
    let count = pairs.len();
    if count < 2 {
        return None;
    }
    let (mut even, mut odd) = (0, 0);
    for pair in pairs {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    let many = |zeros: usize| 5 * zeros >= 2 * count;
    let few = |zeros: usize| 20 * zeros <= count;
    if many(odd) && few(even) {
        Some("UTF-16 (little-endian, without a byte-order mark)")
    } else if many(even) && few(odd) {
        Some("UTF-16 (big-endian, without a byte-order mark)")
    } else {
        None
    }
}

/// Reads a file as UTF-8 text (see the module documentation): the text without a UTF-8
/// byte-order mark and with lone `\r` line ends made `\n`.
pub fn read_text(path: &Path) -> Result<String, DataError> {
    let bytes = std::fs::read(path).map_err(|error| DataError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    if let Some(encoding) = foreign_bom(&bytes).or_else(|| bomless_utf16(&bytes)) {
        return Err(DataError::Encoding {
            path: path.to_path_buf(),
            encoding,
        });
    }
    let mut text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let offset = error.utf8_error().valid_up_to();
            let bytes = error.as_bytes();
            let (line, column) = line_and_column(bytes, offset);
            return Err(DataError::NotUtf8 {
                path: path.to_path_buf(),
                line,
                column,
                byte: bytes[offset],
            });
        }
    };
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    if let Some(offset) = text.bytes().position(|byte| byte == 0) {
        let (line, column) = line_and_column(text.as_bytes(), offset);
        return Err(DataError::NulByte {
            path: path.to_path_buf(),
            line,
            column,
        });
    }
    Ok(lone_cr_to_lf(text))
}

/// The text with every `\r` that is not followed by `\n` replaced by `\n`.
pub(crate) fn lone_cr_to_lf(text: String) -> String {
    let bytes = text.as_bytes();
    let lone =
        |position: usize| bytes[position] == b'\r' && bytes.get(position + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return text;
    }
    let mut fixed = text.into_bytes();
    for position in 0..fixed.len() {
        if fixed[position] == b'\r' && fixed.get(position + 1) != Some(&b'\n') {
            fixed[position] = b'\n';
        }
    }
    String::from_utf8(fixed).expect("replacing an ASCII byte by another keeps UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_is_recognised_with_and_without_a_mark() {
        let little: Vec<u8> = "a,b\n1,2\n".bytes().flat_map(|b| [b, 0]).collect();
        let big: Vec<u8> = "a,b\n1,2\n".bytes().flat_map(|b| [0, b]).collect();
        assert!(bomless_utf16(&little)
            .unwrap()
            .contains("little-endian, without"));
        assert!(bomless_utf16(&big).unwrap().contains("big-endian, without"));
        assert!(bomless_utf16(b"a,b\n1,2\n").is_none());
        assert!(foreign_bom(&[0xff, 0xfe, b'a', 0])
            .unwrap()
            .starts_with("UTF-16"));
        assert!(foreign_bom(&[0xff, 0xfe, 0, 0])
            .unwrap()
            .starts_with("UTF-32"));
        assert!(foreign_bom(&[0xef, 0xbb, 0xbf, b'a']).is_none());
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        assert_eq!(lone_cr_to_lf("a\rb\r\nc\r".into()), "a\nb\r\nc\n");
        assert_eq!(lone_cr_to_lf("a\r\nb".into()), "a\r\nb");
    }
}
