//! A table as plain text for a terminal: the title, the header and the rows in aligned
//! columns (numbers right-aligned), then the notes.

use crate::table::{Table, Value};
use crate::ReportError;

impl Table {
    /// The table as aligned plain text (markers appended to their value, no emphasis).
    pub fn to_text(&self) -> Result<String, ReportError> {
        self.check()?;
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|cell| {
                        let marker = cell.marker.as_deref().unwrap_or("");
                        format!("{}{marker}", cell.value_text(self.decimals))
                    })
                    .collect()
            })
            .collect();
        let widths: Vec<usize> = (0..self.header.len())
            .map(|c| {
                let body = cells.iter().map(|row| row[c].chars().count());
                body.chain([self.header[c].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let numeric = |c: usize| {
            self.rows
                .iter()
                .all(|row| matches!(row[c].value, Value::Number(_) | Value::Integer(_)))
        };
        let line = |texts: &[String], align_right: &dyn Fn(usize) -> bool| {
            let parts: Vec<String> = texts
                .iter()
                .enumerate()
                .map(|(c, text)| match align_right(c) {
                    true => format!("{text:>width$}", width = widths[c]),
                    false => format!("{text:<width$}", width = widths[c]),
                })
                .collect();
            format!("{}\n", parts.join("  ").trim_end())
        };
        let mut out = format!("{}\n", self.title);
        out.push_str(&line(&self.header, &|c| {
            !self.rows.is_empty() && numeric(c)
        }));
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        out.push_str(&format!("{}\n", rule.join("  ")));
        for row in &cells {
            out.push_str(&line(row, &numeric));
        }
        for note in &self.notes {
            out.push_str(&format!("{note}\n"));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Cell, Table};

    #[test]
    fn columns_are_aligned_and_numbers_right_aligned() {
        let mut table = Table::new("t", vec!["learner".into(), "rank".into()]);
        table.push_row(vec![Cell::text("a"), Cell::number(1.5)]);
        table.push_row(vec![Cell::text("long name"), Cell::number(10.25)]);
        table.push_note("a note");
        let text = table.to_text().unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "t",
                "learner      rank",
                "---------  ------",
                "a           1.500",
                "long name  10.250",
                "a note"
            ]
        );
    }
}
