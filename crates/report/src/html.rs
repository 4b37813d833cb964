//! A plain HTML page (the `index.html` of a results folder) collecting headings, text,
//! tables and plots.

use crate::table::{escape_html, Table};
use crate::ReportError;

/// What the summary screen atop a report shows.
#[derive(Clone, Copy, Debug)]
pub struct SummaryBlock<'a> {
    /// One sentence of the verdict.
    pub verdict: &'a str,
    /// The leaderboard.
    pub leaderboard: &'a Table,
    /// Its CSV file, linked under it.
    pub csv: Option<&'a str>,
    /// A table beside it (a paper's published numbers beside ours).
    pub side_table: Option<&'a Table>,
    /// The figure that carries the result: its SVG and caption.
    pub figure: Option<(&'a str, &'a str)>,
}

/// An HTML page built piece by piece, rendered as one self-contained file (inline CSS, images
/// referenced by relative path).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HtmlPage {
    title: String,
    body: String,
}

const STYLE: &str =
    "body { font-family: sans-serif; max-width: 76em; margin: 0.5em auto; padding: 0 1em; }\n\
h1 { font-size: 1.5em; margin: 0.3em 0; }\n\
#run-header { font-size: 0.85em; color: #444; margin: 0 0 0.4em 0; }\n\
#summary { border-bottom: 2px solid #333; padding-bottom: 0.4em; }\n\
#verdict { margin: 0.3em 0 0.5em 0; }\n\
#summary .grid { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }\n\
#summary table { margin: 0; font-size: 0.9em; }\n\
#summary .board { flex: 0 1 46em; min-width: 0; overflow-x: auto; }\n\
#summary .side { flex: 1 1 24em; min-width: 0; }\n\
#summary figure { margin: 0; }\n\
#summary figure svg { max-height: 22em; width: auto; max-width: 100%; }\n\
.wide { overflow-x: auto; max-width: 100%; }\n\
nav#contents ul { columns: 2; font-size: 0.9em; }\n\
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

    /// Adds a section heading (`<h2>`) with an `id`, the target of the table of contents.
    pub fn heading_with_id(&mut self, text: &str, id: &str) {
        self.body.push_str(&format!(
            "<h2 id=\"{}\">{}</h2>\n",
            escape_html(id),
            escape_html(text)
        ));
    }

    /// Adds the run's header line (`id="run-header"`): facts such as the machine, the version
    /// and the date, then links (href, text), e.g. to the per-fold results.
    pub fn run_header(&mut self, facts: &[String], links: &[(&str, &str)]) {
        let mut parts: Vec<String> = facts.iter().map(|fact| escape_html(fact)).collect();
        parts.extend(links.iter().map(|(href, text)| {
            format!(
                "<a href=\"{}\">{}</a>",
                escape_html(href),
                escape_html(text)
            )
        }));
        self.body
            .push_str(&format!("<p id=\"run-header\">{}</p>\n", parts.join(" · ")));
    }

    /// Adds the summary screen (`id="summary"`): the verdict, the leaderboard
    /// (`id="leaderboard"`) and beside it a table and the figure that carry the result.
    pub fn summary(&mut self, block: &SummaryBlock<'_>) -> Result<(), ReportError> {
        let leaderboard =
            block
                .leaderboard
                .to_html()?
                .replacen("<table", "<table id=\"leaderboard\"", 1);
        let mut side = String::new();
        if let Some(table) = block.side_table {
            side.push_str(&format!("<div class=\"wide\">{}</div>", table.to_html()?));
        }
        if let Some((svg, caption)) = block.figure {
            let start = svg.find("<svg").unwrap_or(0);
            side.push_str(&format!(
                "<figure id=\"summary-figure\">{}<figcaption class=\"note\">{}</figcaption></figure>",
                &svg[start..],
                escape_html(caption)
            ));
        }
        let csv = block.csv.map_or(String::new(), |href| {
            format!(" <a href=\"{}\">CSV</a>", escape_html(href))
        });
        self.body.push_str(&format!(
            "<section id=\"summary\">\n<p id=\"verdict\">{}</p>\n<div class=\"grid\">\n\
             <div class=\"board\">{leaderboard}<p class=\"note\">{csv}</p></div>\n\
             <div class=\"side\">{side}</div>\n</div>\n</section>\n",
            escape_html(block.verdict)
        ));
        Ok(())
    }

    /// Adds a table of contents (`<nav id="contents">`): (id, title) of each section.
    pub fn contents(&mut self, entries: &[(String, String)]) {
        let items: Vec<String> = entries
            .iter()
            .map(|(id, title)| {
                format!(
                    "<li><a href=\"#{}\">{}</a></li>",
                    escape_html(id),
                    escape_html(title)
                )
            })
            .collect();
        self.body.push_str(&format!(
            "<nav id=\"contents\"><strong>Contents</strong><ul>{}</ul></nav>\n",
            items.join("")
        ));
    }

    /// Adds a table that scrolls sideways rather than widen the page, folded in `<details>`
    /// when it has more than `fold_after` rows, with a link to its CSV file when it has one.
    pub fn table_in_page(
        &mut self,
        table: &Table,
        csv: Option<&str>,
        fold_after: usize,
    ) -> Result<(), ReportError> {
        let link = csv.map_or(String::new(), |href| {
            format!(
                "<p class=\"note\"><a href=\"{}\">{} (CSV)</a></p>",
                escape_html(href),
                escape_html(&table.title)
            )
        });
        let html = format!("<div class=\"wide\">{}</div>{link}\n", table.to_html()?);
        if table.rows.len() > fold_after {
            self.body.push_str(&format!(
                "<details><summary>{} ({} rows)</summary>\n{html}</details>\n",
                escape_html(&table.title),
                table.rows.len()
            ));
        } else {
            self.body.push_str(&html);
        }
        Ok(())
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
