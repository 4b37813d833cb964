//! A datasets x learners heat map as an SVG document: one cell per dataset and learner with
//! its value and a mark, coloured within its row from the row's worst value (light) to its best
//! (dark), so that each dataset's winners stand out whatever the scale of the measure.

use crate::table::{escape_html, format_number};
use crate::ReportError;

/// A heat map's input.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatMap {
    /// The title, drawn above the cells.
    pub title: String,
    /// The rows' labels (datasets).
    pub rows: Vec<String>,
    /// The columns' labels (learners).
    pub columns: Vec<String>,
    /// `values[row][column]`; `None` draws an empty grey cell.
    pub values: Vec<Vec<Option<f64>>>,
    /// `marks[row][column]`, written after the value (e.g. `+` significantly better than the
    /// control); empty for none.
    pub marks: Vec<Vec<String>>,
    /// True when higher values are better (the darkest cell of a row is its highest).
    pub higher_is_better: bool,
}

/// The narrowest cell and the height of a row.
const CELL: (usize, usize) = (96, 24);
/// The room above the cells, for the title and the column labels.
const TOP: usize = 64;
/// The width of a character of 12-pixel text, about.
const CHARACTER: usize = 7;

/// The heat map as an SVG document (with a `viewBox`, so that it scales).
pub fn heat_map(map: &HeatMap) -> Result<String, ReportError> {
    check(map)?;
    let left = 12
        + CHARACTER
            * map
                .rows
                .iter()
                .map(|r| r.chars().count())
                .max()
                .unwrap_or(4);
    let longest = map
        .columns
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0);
    let cell = CELL.0.max(CHARACTER * longest + 12);
    let width = left + cell * map.columns.len() + 12;
    let height = TOP + CELL.1 * map.rows.len() + 12;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"18\" font-size=\"14\">{}</text>\n",
        escape_html(&map.title)
    );
    for (c, column) in map.columns.iter().enumerate() {
        let x = left + cell * c + cell / 2;
        svg.push_str(&format!(
            "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            TOP - 8,
            escape_html(column)
        ));
    }
    for (r, row) in map.rows.iter().enumerate() {
        let y = TOP + CELL.1 * r;
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            left - 6,
            y + 16,
            escape_html(row)
        ));
        row_cells(map, r, (left, y, cell), &mut svg);
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// One row's cells, coloured from its worst value to its best.
fn row_cells(map: &HeatMap, r: usize, (left, y, cell): (usize, usize, usize), svg: &mut String) {
    let finite: Vec<f64> = map.values[r].iter().flatten().copied().collect();
    let low = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let high = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    for (c, value) in map.values[r].iter().enumerate() {
        let x = left + cell * c;
        let (fill, ink, text) = match value {
            Some(v) => {
                let mut share = if high > low {
                    (v - low) / (high - low)
                } else {
                    1.0
                };
                if !map.higher_is_better {
                    share = 1.0 - share;
                }
                let ink = if share > 0.55 { "white" } else { "black" };
                let text = format!("{}{}", format_number(*v, 3), map.marks[r][c]);
                (blue(share), ink, text)
            }
            None => ("#dddddd".to_string(), "black", "none".to_string()),
        };
        svg.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" \
             stroke=\"white\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" \
             fill=\"{ink}\">{}</text>\n",
            cell,
            CELL.1,
            x + cell / 2,
            y + 16,
            escape_html(&text)
        ));
    }
}

/// A blue from light (0) to dark (1).
fn blue(share: f64) -> String {
    let (light, dark) = ([239.0, 243.0, 255.0], [8.0, 69.0, 148.0]);
    let channel = |i: usize| (light[i] + (dark[i] - light[i]) * share.clamp(0.0, 1.0)).round();
    format!(
        "rgb({},{},{})",
        channel(0) as u8,
        channel(1) as u8,
        channel(2) as u8
    )
}

/// Refuses a map whose values or marks do not match its rows and columns.
fn check(map: &HeatMap) -> Result<(), ReportError> {
    let bad = |problem: String| ReportError::BadPlotInput {
        plot: map.title.clone(),
        problem,
    };
    if map.rows.is_empty() || map.columns.is_empty() {
        return Err(bad(
            "a heat map needs at least one row and one column".into()
        ));
    }
    if map.values.len() != map.rows.len() || map.marks.len() != map.rows.len() {
        return Err(bad("values and marks need one row per row label".into()));
    }
    let k = map.columns.len();
    if map.values.iter().any(|row| row.len() != k) || map.marks.iter().any(|row| row.len() != k) {
        return Err(bad("values and marks need one cell per column label".into()));
    }
    if map
        .values
        .iter()
        .flatten()
        .flatten()
        .any(|v| !v.is_finite())
    {
        return Err(bad("a value is not finite".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_is_coloured_from_its_worst_to_its_best_and_marks_are_written() {
        let map = HeatMap {
            title: "auc".into(),
            rows: vec!["pima".into()],
            columns: vec!["a".into(), "b".into()],
            values: vec![vec![Some(0.7), Some(0.8)]],
            marks: vec![vec![String::new(), "+".into()]],
            higher_is_better: true,
        };
        let svg = heat_map(&map).unwrap();
        assert!(svg.contains("0.800+"), "{svg}");
        assert!(svg.contains("rgb(8,69,148)") && svg.contains("rgb(239,243,255)"));
        let lower = HeatMap {
            higher_is_better: false,
            ..map.clone()
        };
        let svg = heat_map(&lower).unwrap();
        let dark = svg.find("rgb(8,69,148)").unwrap();
        assert!(
            dark < svg.find("0.800").unwrap(),
            "the lower value is the darker"
        );
    }

    #[test]
    fn a_ragged_map_is_refused() {
        let map = HeatMap {
            title: "auc".into(),
            rows: vec!["pima".into()],
            columns: vec!["a".into(), "b".into()],
            values: vec![vec![Some(0.7)]],
            marks: vec![vec![String::new()]],
            higher_is_better: true,
        };
        assert!(heat_map(&map).is_err());
    }
}
