//! Reliability diagrams as small multiples: one panel per model, the observed frequency of the
//! positive class against the mean predicted probability in each bin with the bin's interval and
//! the diagonal of perfect calibration, and below it the number of instances in each bin.

use plotters::prelude::*;

use crate::plot::{
    bad_input, draw_interval_bar, drawing_error, PlotOptions, Rgb, AXIS_LABEL_SIZE, FONT,
    TICK_LABEL_SIZE,
};
use crate::ReportError;

/// One bin of a reliability panel.
#[derive(Clone, Debug, PartialEq)]
pub struct ReliabilityPoint {
    /// Lower and upper edge of the bin on the predicted-probability axis.
    pub edges: (f64, f64),
    /// Number (or total weight) of instances in the bin.
    pub count: f64,
    /// Mean predicted probability and observed frequency, with the frequency's interval
    /// (`None` for an empty bin).
    pub point: Option<(f64, f64, (f64, f64))>,
}

/// One model's reliability diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct ReliabilityPanel {
    /// Panel title (the model).
    pub label: String,
    /// Its colour.
    pub color: Rgb,
    /// The bins, in order.
    pub bins: Vec<ReliabilityPoint>,
}

/// Panels per row of the figure.
const COLUMNS: usize = 3;
/// Pixels of one panel.
const PANEL: (u32, u32) = (440, 520);
/// Share of a panel's height given to the reliability diagram (the rest shows the counts).
const DIAGRAM_SHARE: f64 = 0.7;

fn check(options: &PlotOptions, panels: &[ReliabilityPanel]) -> Result<(), ReportError> {
    if panels.is_empty() {
        return Err(bad_input(options, "no panel to draw".to_string()));
    }
    for panel in panels {
        for bin in &panel.bins {
            let (a, b) = bin.edges;
            let mut values = vec![a, b, bin.count];
            if let Some((x, y, (low, high))) = bin.point {
                values.extend([x, y, low, high]);
            }
            if values.iter().any(|v| !v.is_finite()) || bin.count < 0.0 {
                return Err(bad_input(
                    options,
                    format!(
                        "panel '{}': a bin has a value that is not finite",
                        panel.label
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Reliability diagrams of several models, `COLUMNS` panels a row; `options.title` is written
/// above them and `options.size` is ignored (the size follows the number of panels). Each panel:
/// the diagonal (grey), the bins' (mean predicted probability, observed frequency)
/// joined, each with its interval bar, and below it the bins' counts as bars over the bins'
/// edges.
pub fn reliability_plot(
    options: &PlotOptions,
    panels: &[ReliabilityPanel],
) -> Result<String, ReportError> {
    check(options, panels)?;
    let failed = drawing_error(options);
    let columns = panels.len().min(COLUMNS);
    let rows = panels.len().div_ceil(COLUMNS);
    let title_height = 50;
    let size = (
        PANEL.0 * columns as u32,
        PANEL.1 * rows as u32 + title_height,
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let root = root
            .titled(&options.title, (FONT, AXIS_LABEL_SIZE + 2))
            .map_err(|e| failed(&e))?;
        let cells = root.split_evenly((rows, columns));
        for (panel, cell) in panels.iter().zip(&cells) {
            draw_panel(options, panel, cell)?;
        }
        root.present().map_err(|e| failed(&e))?;
    }
    Ok(svg)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn draw_panel(
    options: &PlotOptions,
    panel: &ReliabilityPanel,
    cell: &Area,
) -> Result<(), ReportError> {
    let failed = drawing_error(options);
    let split = (f64::from(cell.dim_in_pixel().1) * DIAGRAM_SHARE) as u32;
    let (upper, lower) = cell.split_vertically(split);
    let mut chart = ChartBuilder::on(&upper)
        .caption(&panel.label, (FONT, TICK_LABEL_SIZE + 2))
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..1.0, 0.0..1.0)
        .map_err(|e| failed(&e))?;
    chart
        .configure_mesh()
        .x_labels(6)
        .y_labels(6)
        .y_desc(options.y_label.as_str())
        .axis_desc_style((FONT, TICK_LABEL_SIZE))
        .label_style((FONT, TICK_LABEL_SIZE - 3))
        .bold_line_style(RGBColor(220, 220, 220))
        .max_light_lines(1)
        .light_line_style(RGBColor(242, 242, 242))
        .draw()
        .map_err(|e| failed(&e))?;
    let grey = RGBColor(170, 170, 170).stroke_width(1);
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], grey))
        .map_err(|e| failed(&e))?;
    let line = panel.color.with_opacity(1.0).stroke_width(2);
    let points: Vec<(f64, f64, (f64, f64))> = panel.bins.iter().filter_map(|b| b.point).collect();
    chart
        .draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.1)), line))
        .map_err(|e| failed(&e))?;
    let bar = panel.color.with_opacity(1.0).stroke_width(1);
    for &(x, y, (low, high)) in &points {
        draw_interval_bar(options, &mut chart, x, (low, high), true, bar)?;
        chart
            .draw_series([Circle::new(
                (x, y),
                3,
                panel.color.with_opacity(1.0).filled(),
            )])
            .map_err(|e| failed(&e))?;
    }
    draw_counts(options, panel, &lower)
}

fn draw_counts(
    options: &PlotOptions,
    panel: &ReliabilityPanel,
    area: &Area,
) -> Result<(), ReportError> {
    let failed = drawing_error(options);
    let highest = panel.bins.iter().map(|b| b.count).fold(0.0, f64::max);
    let top = if highest > 0.0 { highest * 1.1 } else { 1.0 };
    let mut chart = ChartBuilder::on(area)
        .margin_left(8)
        .margin_right(8)
        .margin_bottom(8)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..1.0, 0.0..top)
        .map_err(|e| failed(&e))?;
    chart
        .configure_mesh()
        .x_labels(6)
        .y_labels(3)
        .x_desc(options.x_label.as_str())
        .y_desc("count")
        .axis_desc_style((FONT, TICK_LABEL_SIZE))
        .label_style((FONT, TICK_LABEL_SIZE - 3))
        .y_label_formatter(&|v: &f64| format!("{v:.0}"))
        .bold_line_style(RGBColor(220, 220, 220))
        .max_light_lines(1)
        .light_line_style(RGBColor(242, 242, 242))
        .draw()
        .map_err(|e| failed(&e))?;
    let fill = panel.color.with_opacity(0.6).filled();
    chart
        .draw_series(
            panel
                .bins
                .iter()
                .map(|b| Rectangle::new([(b.edges.0, 0.0), (b.edges.1, b.count)], fill)),
        )
        .map_err(|e| failed(&e))?;
    Ok(())
}
