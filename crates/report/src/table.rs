//! Result tables rendered as Markdown, CSV or LaTeX (booktabs).

use crate::ReportError;

/// What a table cell holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Free text (escaped for each output format).
    Text(String),
    /// A real number, written with the cell's or the table's number of decimals.
    Number(f64),
    /// An integer, written as is.
    Integer(i64),
    /// Nothing (an empty cell).
    Empty,
}

/// One table cell: a value, an optional number of decimals overriding the table's, and
/// emphasis (bold, a trailing marker such as `*` or a dagger for significance).
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The content.
    pub value: Value,
    /// Decimals for a number; `None` uses [`Table::decimals`].
    pub decimals: Option<usize>,
    /// Written in bold (Markdown `**`, LaTeX `\textbf`; plain in CSV).
    pub bold: bool,
    /// Text appended after the value (LaTeX: as a superscript), e.g. `*` for significant.
    pub marker: Option<String>,
}

impl Cell {
    fn plain(value: Value) -> Cell {
        Cell {
            value,
            decimals: None,
            bold: false,
            marker: None,
        }
    }

    /// A text cell.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::plain(Value::Text(text.into()))
    }

    /// A number cell, written with the table's decimals.
    pub fn number(value: f64) -> Cell {
        Cell::plain(Value::Number(value))
    }

    /// An integer cell.
    pub fn integer(value: i64) -> Cell {
        Cell::plain(Value::Integer(value))
    }

    /// An empty cell.
    pub fn empty() -> Cell {
        Cell::plain(Value::Empty)
    }

    /// The same cell written with `decimals` decimals.
    pub fn with_decimals(mut self, decimals: usize) -> Cell {
        self.decimals = Some(decimals);
        self
    }

    /// The same cell in bold.
    pub fn bold(mut self) -> Cell {
        self.bold = true;
        self
    }

    /// The same cell followed by `marker`.
    pub fn with_marker(mut self, marker: impl Into<String>) -> Cell {
        self.marker = Some(marker.into());
        self
    }

    /// The value as plain text (numbers formatted, no emphasis, no marker, no escaping).
    /// Non-finite numbers are written `NaN`, `inf`, `-inf`; a number that rounds to zero is
    /// written without a minus sign.
    pub fn value_text(&self, table_decimals: usize) -> String {
        match &self.value {
            Value::Text(text) => text.clone(),
            Value::Integer(value) => value.to_string(),
            Value::Empty => String::new(),
            Value::Number(value) => format_number(*value, self.decimals.unwrap_or(table_decimals)),
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self.value, Value::Number(_) | Value::Integer(_))
    }
}

/// Formats a number with a fixed number of decimals (`NaN`, `inf`, `-inf` for non-finite
/// values; no `-` on a value that rounds to zero).
pub fn format_number(value: f64, decimals: usize) -> String {
    if value.is_nan() {
        return "NaN".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

/// A table: a title, a header row, body rows of cells and notes below it.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The caption (Markdown: a bold line above; LaTeX: `\caption`; not written in CSV).
    pub title: String,
    /// Column names.
    pub header: Vec<String>,
    /// Body rows; each must have as many cells as the header.
    pub rows: Vec<Vec<Cell>>,
    /// Lines written below the table (not in CSV).
    pub notes: Vec<String>,
    /// Default number of decimals for number cells.
    pub decimals: usize,
}

/// The output formats of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// GitHub-flavoured Markdown.
    Markdown,
    /// Comma-separated values (RFC 4180 quoting, `\n` line ends).
    Csv,
    /// A LaTeX `table` environment with a booktabs `tabular`.
    Latex,
    /// An HTML `<table>` (for pages such as `index.html`).
    Html,
}

impl TableFormat {
    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Markdown => "md",
            TableFormat::Csv => "csv",
            TableFormat::Latex => "tex",
            TableFormat::Html => "html",
        }
    }
}

impl Table {
    /// An empty table with a title and column names, 3 decimals.
    pub fn new(title: impl Into<String>, header: Vec<String>) -> Table {
        Table {
            title: title.into(),
            header,
            rows: Vec::new(),
            notes: Vec::new(),
            decimals: 3,
        }
    }

    /// Appends a body row.
    pub fn push_row(&mut self, row: Vec<Cell>) {
        self.rows.push(row);
    }

    /// Appends a note line.
    pub fn push_note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// Checks that the header is non-empty and every row has one cell per column.
    pub fn check(&self) -> Result<(), ReportError> {
        if self.header.is_empty() {
            return Err(ReportError::EmptyHeader {
                title: self.title.clone(),
            });
        }
        for (row, cells) in self.rows.iter().enumerate() {
            if cells.len() != self.header.len() {
                return Err(ReportError::RowLength {
                    title: self.title.clone(),
                    row,
                    got: cells.len(),
                    expected: self.header.len(),
                });
            }
        }
        Ok(())
    }

    /// True for a column whose non-empty body cells are all numbers (right-aligned).
    fn is_numeric_column(&self, column: usize) -> bool {
        let mut cells = self
            .rows
            .iter()
            .map(|row| &row[column])
            .filter(|cell| cell.value != Value::Empty)
            .peekable();
        cells.peek().is_some() && cells.all(Cell::is_numeric)
    }

    /// Renders the table in the given format.
    pub fn render(&self, format: TableFormat) -> Result<String, ReportError> {
        match format {
            TableFormat::Markdown => self.to_markdown(),
            TableFormat::Csv => self.to_csv(),
            TableFormat::Latex => self.to_latex(),
            TableFormat::Html => self.to_html(),
        }
    }

    /// Markdown: `**title**`, a blank line, the pipe table (number columns right-aligned), and
    /// the notes as paragraphs. Text is escaped (`\`, `|`, `*`, `_`, `` ` ``).
    pub fn to_markdown(&self) -> Result<String, ReportError> {
        self.check()?;
        let mut out = String::new();
        if !self.title.is_empty() {
            out.push_str(&format!("**{}**\n\n", escape_markdown(&self.title)));
        }
        let header: Vec<String> = self.header.iter().map(|h| escape_markdown(h)).collect();
        out.push_str(&format!("| {} |\n", header.join(" | ")));
        let rules: Vec<&str> = (0..self.header.len())
            .map(|column| {
                if self.is_numeric_column(column) {
                    "---:"
                } else {
                    "---"
                }
            })
            .collect();
        out.push_str(&format!("| {} |\n", rules.join(" | ")));
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .map(|cell| {
                    let mut text = escape_markdown(&cell.value_text(self.decimals));
                    if cell.bold && !text.is_empty() {
                        text = format!("**{text}**");
                    }
                    if let Some(marker) = &cell.marker {
                        text.push_str(&escape_markdown(marker));
                    }
                    text
                })
                .collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        for note in &self.notes {
            out.push_str(&format!("\n{}\n", escape_markdown(note)));
        }
        Ok(out)
    }

    /// CSV: the header and the rows only (no title, no notes, no bold); numbers with their
    /// decimals and the marker appended. Fields containing `,`, `"`, CR or LF are quoted, with
    /// `"` doubled (RFC 4180); lines end in `\n`.
    pub fn to_csv(&self) -> Result<String, ReportError> {
        self.check()?;
        let mut out = String::new();
        let header: Vec<String> = self.header.iter().map(|h| quote_csv(h)).collect();
        out.push_str(&header.join(","));
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .map(|cell| {
                    let mut text = cell.value_text(self.decimals);
                    if let Some(marker) = &cell.marker {
                        text.push_str(marker);
                    }
                    quote_csv(&text)
                })
                .collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        Ok(out)
    }

    /// LaTeX: a `table` float with `\caption`, a booktabs `tabular` (`l` for text columns, `r`
    /// for number columns; needs `\usepackage{booktabs}`), and the notes in `\footnotesize`
    /// below. `& % $ # _ { } ~ ^ \` are escaped; a negative number's minus is `$-$`; bold is
    /// `\textbf`, a marker `\textsuperscript`.
    pub fn to_latex(&self) -> Result<String, ReportError> {
        self.check()?;
        let columns: String = (0..self.header.len())
            .map(|column| {
                if self.is_numeric_column(column) {
                    'r'
                } else {
                    'l'
                }
            })
            .collect();
        let mut out = String::from("\\begin{table}[htbp]\n\\centering\n");
        if !self.title.is_empty() {
            out.push_str(&format!("\\caption{{{}}}\n", escape_latex(&self.title)));
        }
        out.push_str(&format!("\\begin{{tabular}}{{{columns}}}\n\\toprule\n"));
        let header: Vec<String> = self.header.iter().map(|h| escape_latex(h)).collect();
        out.push_str(&format!("{} \\\\\n\\midrule\n", header.join(" & ")));
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .map(|cell| {
                    let mut text = escape_latex(&cell.value_text(self.decimals));
                    if cell.is_numeric() {
                        if let Some(magnitude) = text.strip_prefix('-') {
                            // A typeset minus sign rather than a hyphen.
                            text = format!("$-${magnitude}");
                        }
                    }
                    if cell.bold && !text.is_empty() {
                        text = format!("\\textbf{{{text}}}");
                    }
                    if let Some(marker) = &cell.marker {
                        text.push_str(&format!("\\textsuperscript{{{}}}", escape_latex(marker)));
                    }
                    text
                })
                .collect();
            out.push_str(&format!("{} \\\\\n", cells.join(" & ")));
        }
        out.push_str("\\bottomrule\n\\end{tabular}\n");
        for note in &self.notes {
            out.push_str(&format!(
                "\\par\\smallskip{{\\footnotesize {}}}\n",
                escape_latex(note)
            ));
        }
        out.push_str("\\end{table}\n");
        Ok(out)
    }
}

impl Table {
    /// HTML: a `<table>` with `<caption>`, `<thead>` and `<tbody>` (number columns get
    /// `class="number"`), followed by one `<p class="note">` per note. Bold is `<strong>`; text
    /// is escaped (`& < > " '`).
    pub fn to_html(&self) -> Result<String, ReportError> {
        self.check()?;
        let numeric: Vec<bool> = (0..self.header.len())
            .map(|column| self.is_numeric_column(column))
            .collect();
        let class = |column: usize| {
            if numeric[column] {
                " class=\"number\""
            } else {
                ""
            }
        };
        let mut out = String::from("<table>\n");
        if !self.title.is_empty() {
            out.push_str(&format!(
                "<caption>{}</caption>\n",
                escape_html(&self.title)
            ));
        }
        out.push_str("<thead><tr>");
        for (column, name) in self.header.iter().enumerate() {
            out.push_str(&format!("<th{}>{}</th>", class(column), escape_html(name)));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in &self.rows {
            out.push_str("<tr>");
            for (column, cell) in row.iter().enumerate() {
                let mut text = escape_html(&cell.value_text(self.decimals));
                if cell.bold && !text.is_empty() {
                    text = format!("<strong>{text}</strong>");
                }
                if let Some(marker) = &cell.marker {
                    text.push_str(&escape_html(marker));
                }
                out.push_str(&format!("<td{}>{text}</td>", class(column)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        for note in &self.notes {
            out.push_str(&format!("<p class=\"note\">{}</p>\n", escape_html(note)));
        }
        Ok(out)
    }
}

/// Escapes `& < > " '` for HTML text and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// Escapes the characters that Markdown (GitHub flavour) would interpret inside a table cell.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '\\' | '|' | '*' | '_' | '`' => {
                out.push('\\');
                out.push(character);
            }
            '\n' | '\r' => out.push(' '),
            other => out.push(other),
        }
    }
    out
}

/// Escapes LaTeX's special characters `& % $ # _ { } ~ ^ \` for text mode.
pub fn escape_latex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(character);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            other => out.push(other),
        }
    }
    out
}

/// Quotes a CSV field if it contains a comma, a double quote, CR or LF (RFC 4180).
pub fn quote_csv(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}
