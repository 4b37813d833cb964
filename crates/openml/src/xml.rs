//! A small XML document as a flat list of its elements (OpenML's `task.xml` and a dataset's
//! `description.xml` are shallow): each element's path of local names, its direct text and its
//! line. An element with a `name` attribute is written `local[name]` in the path, so that
//! `task/input[source_data]/data_set/data_set_id` finds the dataset of a task.

use std::path::Path;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::error::OpenmlError;

/// One element: its path from the root, its direct text (trimmed) and its start tag's line.
#[derive(Clone, Debug)]
pub(crate) struct Element {
    /// Local names from the root joined by `/`, each `local[name]` when it has a `name`.
    pub path: String,
    /// The element's own text (its children's text excluded), entities resolved, trimmed.
    pub text: String,
    /// The 1-based line of the start tag.
    pub line: usize,
}

/// The elements of a parsed document in document order.
pub(crate) struct Document {
    /// Every element, in the order their start tags appear.
    pub elements: Vec<Element>,
    /// The 1-based line of the end of the text (for "missing" errors).
    pub last_line: usize,
}

impl Document {
    /// The first element at `path`.
    pub fn first(&self, path: &str) -> Option<&Element> {
        self.elements.iter().find(|e| e.path == path)
    }

    /// Every element at `path`, in order.
    pub fn all<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.elements.iter().filter(move |e| e.path == path)
    }
}

/// Parses `text` (read from `file`) into its elements; malformed XML is an error naming the
/// line.
pub(crate) fn parse(file: &Path, text: &str) -> Result<Document, OpenmlError> {
    let lines = Lines { file, text };
    let mut reader = Reader::from_str(text);
    let mut built = Builder::default();
    loop {
        let before = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| lines.error(reader.error_position(), format!("malformed XML: {e}")))?;
        match event {
            Event::Start(start) => built.open(&start, lines.line(before), true),
            Event::Empty(start) => built.open(&start, lines.line(before), false),
            Event::End(_) => built.close(),
            Event::Text(t) => built.text(&t.xml_content().unwrap_or_default()),
            Event::CData(t) => built.text(&t.decode().unwrap_or_default()),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => {
                        let name = r.decode().unwrap_or_default();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .ok_or_else(|| {
                                lines.error(before, format!("unknown entity '&{name};'"))
                            })?
                            .to_string()
                    }
                };
                built.text(&resolved);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some((path, index)) = built.open.last() {
        return Err(OpenmlError::Xml {
            path: file.to_path_buf(),
            line: built.elements[*index].line,
            message: format!("element '{path}' is not closed"),
        });
    }
    Ok(Document {
        elements: built.elements,
        last_line: lines.line(text.len() as u64),
    })
}

/// A text and its file, to turn byte offsets into lines and errors.
struct Lines<'a> {
    file: &'a Path,
    text: &'a str,
}

impl Lines<'_> {
    /// The 1-based line of a byte offset.
    fn line(&self, offset: u64) -> usize {
        let end = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1
    }

    /// An error at a byte offset.
    fn error(&self, offset: u64, message: String) -> OpenmlError {
        OpenmlError::Xml {
            path: self.file.to_path_buf(),
            line: self.line(offset),
            message,
        }
    }
}

/// The elements read so far and the open ones (path, index into `elements`).
#[derive(Default)]
struct Builder {
    elements: Vec<Element>,
    open: Vec<(String, usize)>,
}

impl Builder {
    /// Adds an element at `line`; `has_content` when it is a start tag, not `<a/>`.
    fn open(&mut self, start: &BytesStart, line: usize, has_content: bool) {
        let step = step_of(start);
        let path = match self.open.last() {
            Some((parent, _)) => format!("{parent}/{step}"),
            None => step,
        };
        self.elements.push(Element {
            path: path.clone(),
            text: String::new(),
            line,
        });
        if has_content {
            self.open.push((path, self.elements.len() - 1));
        }
    }

    /// Closes the innermost element, trimming its text.
    fn close(&mut self) {
        if let Some((_, index)) = self.open.pop() {
            let element = &mut self.elements[index];
            element.text = element.text.trim().to_string();
        }
    }

    /// Appends text to the innermost open element.
    fn text(&mut self, text: &str) {
        if let Some((_, index)) = self.open.last() {
            self.elements[*index].text.push_str(text);
        }
    }
}

/// The path step of a start tag: its local name, with `[name]` when it has a `name` attribute.
fn step_of(start: &BytesStart) -> String {
    let local = String::from_utf8_lossy(start.local_name().as_ref()).into_owned();
    let name = start
        .try_get_attribute("name")
        .ok()
        .flatten()
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()));
    match name {
        Some(name) => format!("{local}[{name}]"),
        None => local,
    }
}
