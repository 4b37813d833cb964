//! A plain HTML page (the `index.html` of a results folder) collecting headings, text,
//! tables and plots.

use crate::table::{escape_html, Table};
use crate::ReportError;

/// An HTML page built piece by piece, rendered as one self-contained file (inline CSS, images
/// referenced by relative path).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HtmlPage {
    title: String,
    body: String,
}

const STYLE: &str =
    "body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; }\n\
table { border-collapse: collapse; margin: 1em 0; }\n\
caption { font-weight: bold; text-align: left; padding-bottom: 0.3em; }\n\
th, td { border-bottom: 1px solid #ccc; padding: 0.2em 0.6em; }\n\
th { border-bottom: 2px solid #333; }\n\
.number { text-align: right; font-variant-numeric: tabular-nums; }\n\
.note { font-size: 0.9em; color: #444; margin: 0.2em 0; }\n\
figure { margin: 1em 0; }\n\
img, svg { max-width: 100%; height: auto; }\n\
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; }\n";

impl HtmlPage {
    /// An empty page with a title (also its first heading).
    pub fn new(title: impl Into<String>) -> HtmlPage {
        HtmlPage {
            title: title.into(),
            body: String::new(),
        }
    }

    /// Adds a section heading (`<h2>`).
    pub fn heading(&mut self, text: &str) {
        self.body
            .push_str(&format!("<h2>{}</h2>\n", escape_html(text)));
    }

    /// Adds a paragraph of text.
    pub fn paragraph(&mut self, text: &str) {
        self.body
            .push_str(&format!("<p>{}</p>\n", escape_html(text)));
    }

    /// Adds a link, e.g. to the CSV or LaTeX version of a table.
    pub fn link(&mut self, href: &str, text: &str) {
        self.body.push_str(&format!(
            "<p><a href=\"{}\">{}</a></p>\n",
            escape_html(href),
            escape_html(text)
        ));
    }

    /// Adds a table (see [`Table::to_html`]).
    pub fn table(&mut self, table: &Table) -> Result<(), ReportError> {
        self.body.push_str(&table.to_html()?);
        Ok(())
    }

    /// Adds an image (e.g. an SVG plot written next to the page) with a caption.
    pub fn image(&mut self, source: &str, caption: &str) {
        self.body.push_str(&format!(
            "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n",
            escape_html(source),
            escape_html(caption),
            escape_html(caption)
        ));
    }

    /// Adds an SVG plot inline (so the page needs no other file), with a caption.
    pub fn inline_svg(&mut self, svg: &str, caption: &str) {
        let start = svg.find("<svg").unwrap_or(0);
        self.body.push_str(&format!(
            "<figure>{}<figcaption>{}</figcaption></figure>\n",
            &svg[start..],
            escape_html(caption)
        ));
    }

    /// Adds preformatted text (e.g. the config file as run).
    pub fn preformatted(&mut self, text: &str) {
        self.body
            .push_str(&format!("<pre>{}</pre>\n", escape_html(text)));
    }

    /// The whole page as HTML5 text.
    pub fn render(&self) -> String {
        let title = escape_html(&self.title);
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n{}</body>\n</html>\n",
            self.body
        )
    }
}
