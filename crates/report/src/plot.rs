//! SVG plots drawn with `plotters`' SVG backend (no font feature; text becomes `<text>`).

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::ReportError;

/// An opaque colour as red, green, blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// A colour-blind-safe palette (Okabe & Ito): blue, vermilion, bluish green, orange, reddish
/// purple, sky blue, yellow, black.
pub const PALETTE: [Rgb; 8] = [
    Rgb(0, 114, 178),
    Rgb(213, 94, 0),
    Rgb(0, 158, 115),
    Rgb(230, 159, 0),
    Rgb(204, 121, 167),
    Rgb(86, 180, 233),
    Rgb(240, 228, 66),
    Rgb(0, 0, 0),
];

impl Rgb {
    pub(crate) fn with_opacity(self, opacity: f64) -> RGBAColor {
        RGBColor(self.0, self.1, self.2).mix(opacity.clamp(0.0, 1.0))
    }
}

/// Where the legend box goes inside the plotting area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegendPosition {
    /// Top left corner.
    UpperLeft,
    /// Top right corner.
    UpperRight,
    /// Bottom left corner.
    LowerLeft,
    /// Bottom right corner.
    LowerRight,
}

/// Title, axis labels, size and ranges of a plot.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotOptions {
    /// Caption above the plot (may be empty).
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// Fixed x range; `None` fits the data.
    pub x_range: Option<(f64, f64)>,
    /// Fixed y range; `None` fits the data.
    pub y_range: Option<(f64, f64)>,
    /// Where the legend goes.
    pub legend: LegendPosition,
}

impl PlotOptions {
    /// Options with a title and axis labels, 640 x 480 pixels, ranges fitted to the data and
    /// the legend in the lower right corner.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        PlotOptions {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            size: (640, 480),
            x_range: None,
            y_range: None,
            legend: LegendPosition::LowerRight,
        }
    }

    /// ROC plot options: axes "False positive rate" and "True positive rate", both [0, 1].
    pub fn roc(title: impl Into<String>) -> Self {
        PlotOptions {
            x_range: Some((0.0, 1.0)),
            y_range: Some((0.0, 1.0)),
            ..PlotOptions::new(title, "False positive rate", "True positive rate")
        }
    }
}

/// An interval bar around a point of a curve (e.g. a confidence interval of the true positive
/// rate at a fixed false positive rate, Provost et al.'s vertical averaging; both directions
/// for threshold averaging).
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorBar {
    /// The point the bar belongs to.
    pub at: (f64, f64),
    /// Horizontal extent (low, high), if any.
    pub x_interval: Option<(f64, f64)>,
    /// Vertical extent (low, high), if any.
    pub y_interval: Option<(f64, f64)>,
}

/// One curve (polyline) with optional legend label, marked points and interval bars.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Legend entry; `None` draws the curve without an entry (e.g. the 29 other folds of a
    /// learner whose first fold carries the label).
    pub label: Option<String>,
    /// The points, joined in order.
    pub points: Vec<(f64, f64)>,
    /// Line colour.
    pub color: Rgb,
    /// Line opacity in [0, 1]; low values for many overlapping faint curves.
    pub opacity: f64,
    /// Line width in pixels.
    pub width: u32,
    /// Draw a small dot at every point (line plots).
    pub show_points: bool,
    /// Draw the line dashed (e.g. a convex hull next to the curve it covers).
    pub dashed: bool,
    /// Points drawn as large outlined dots (e.g. the default-threshold operating point).
    pub marked: Vec<(f64, f64)>,
    /// Interval bars drawn in the curve's colour.
    pub error_bars: Vec<ErrorBar>,
}

impl Curve {
    /// A solid curve, 2 pixels wide, with a legend label.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>, color: Rgb) -> Curve {
        Curve {
            label: Some(label.into()),
            points,
            color,
            opacity: 1.0,
            width: 2,
            show_points: false,
            dashed: false,
            marked: Vec::new(),
            error_bars: Vec::new(),
        }
    }

    /// A faint unlabelled curve (1 pixel, opacity 0.3) for drawing many folds at once.
    pub fn faint(points: Vec<(f64, f64)>, color: Rgb) -> Curve {
        Curve {
            label: None,
            opacity: 0.3,
            width: 1,
            ..Curve::new("", points, color)
        }
    }
}

/// The values of one measure over folds for one learner, for a histogram.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// Legend label (the learner).
    pub label: String,
    /// The values (e.g. AUC of each of 30 folds).
    pub values: Vec<f64>,
    /// Bar colour.
    pub color: Rgb,
}

/// An interval drawn as a horizontal bar above the histograms (e.g. a confidence interval of
/// a learner's AUC, Aslan et al. Figures 6-7).
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    /// Label written above the bar, if any.
    pub label: Option<String>,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// A centre value drawn as a dot (e.g. the point estimate), if any.
    pub center: Option<f64>,
    /// Colour.
    pub color: Rgb,
}

pub(crate) const FONT: &str = "sans-serif";
// plotters writes font-size = size / 1.24 into the SVG, so 20 becomes about 16 px.
pub(crate) const CAPTION_SIZE: u32 = 26;
pub(crate) const AXIS_LABEL_SIZE: u32 = 22;
pub(crate) const TICK_LABEL_SIZE: u32 = 19;
pub(crate) const LEGEND_SIZE: u32 = 19;
/// Pixels of the frame outside the plotting area: margins, the x tick and axis labels, and
/// the caption (estimated), used to size the bands above a histogram.
const FRAME_HEIGHT: u32 = 2 * 16 + 56;
const CAPTION_HEIGHT: u32 = 40;
/// Pixel height of one interval row and of one legend entry above a histogram.
const INTERVAL_ROW_HEIGHT: f64 = 34.0;
const LEGEND_ENTRY_HEIGHT: f64 = 26.0;
const CAP_HALF_WIDTH: i32 = 4;

type Chart<'area, 'text> =
    ChartContext<'area, SVGBackend<'text>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

pub(crate) fn bad_input(options: &PlotOptions, problem: String) -> ReportError {
    ReportError::BadPlotInput {
        plot: options.title.clone(),
        problem,
    }
}

pub(crate) fn drawing_error(
    options: &PlotOptions,
) -> impl Fn(&dyn std::fmt::Display) -> ReportError + '_ {
    move |error| ReportError::Drawing {
        plot: options.title.clone(),
        message: error.to_string(),
    }
}

/// Checks that every value of every curve, marked point and bar is finite.
fn check_curves(options: &PlotOptions, curves: &[Curve]) -> Result<(), ReportError> {
    for (number, curve) in curves.iter().enumerate() {
        let name = curve
            .label
            .clone()
            .unwrap_or_else(|| format!("number {number}"));
        let finite = |(x, y): (f64, f64)| x.is_finite() && y.is_finite();
        if let Some(position) = curve.points.iter().position(|&p| !finite(p)) {
            return Err(bad_input(
                options,
                format!("curve '{name}': point {position} is not finite"),
            ));
        }
        if curve.marked.iter().any(|&p| !finite(p)) {
            return Err(bad_input(
                options,
                format!("curve '{name}': a marked point is not finite"),
            ));
        }
        for bar in &curve.error_bars {
            let intervals = [bar.x_interval, bar.y_interval];
            if !finite(bar.at) || intervals.iter().flatten().any(|&p| !finite(p)) {
                return Err(bad_input(
                    options,
                    format!("curve '{name}': an error bar is not finite"),
                ));
            }
        }
    }
    Ok(())
}

/// A range covering the values with 5% padding (±0.5 around a single value); `fixed` wins.
fn fitted_range(
    options: &PlotOptions,
    axis: &str,
    fixed: Option<(f64, f64)>,
    values: impl Iterator<Item = f64>,
) -> Result<(f64, f64), ReportError> {
    if let Some((low, high)) = fixed {
        if !(low.is_finite() && high.is_finite() && low < high) {
            return Err(bad_input(
                options,
                format!("{axis} range ({low}, {high}) must be finite with low < high"),
            ));
        }
        return Ok((low, high));
    }
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), value| {
        (low.min(value), high.max(value))
    });
    if !low.is_finite() {
        return Ok((0.0, 1.0));
    }
    if low == high {
        return Ok((low - 0.5, high + 0.5));
    }
    let pad = 0.05 * (high - low);
    Ok((low - pad, high + pad))
}

/// Draws the frame, grid, axis labels and caption, lets `draw` add the content, then the legend.
fn render(
    options: &PlotOptions,
    x_range: (f64, f64),
    y_range: (f64, f64),
    integer_y_labels: bool,
    x_names: Option<&[String]>,
    draw: impl FnOnce(&mut Chart) -> Result<(), ReportError>,
) -> Result<String, ReportError> {
    let failed = drawing_error(options);
    let (width, height) = options.size;
    if width < 100 || height < 100 {
        return Err(bad_input(
            options,
            format!("size {width} x {height} is too small; both must be >= 100 pixels"),
        ));
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, options.size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .margin(16)
            .x_label_area_size(56)
            .y_label_area_size(72);
        if !options.title.is_empty() {
            builder.caption(&options.title, (FONT, CAPTION_SIZE));
        }
        let mut chart = builder
            .build_cartesian_2d(x_range.0..x_range.1, y_range.0..y_range.1)
            .map_err(|e| failed(&e))?;
        // Counts: label whole numbers only (a tick at 0.5 would otherwise print as "0" or "1").
        let integer_labels = |value: &f64| {
            if (value - value.round()).abs() < 1e-9 {
                format!("{value:.0}")
            } else {
                String::new()
            }
        };
        // Named categories at x = 1, 2, ...: label those whole numbers with the names.
        let named = |value: &f64| {
            let index = value.round();
            match x_names {
                Some(names) if (value - index).abs() < 1e-9 && index >= 1.0 => {
                    names.get(index as usize - 1).cloned().unwrap_or_default()
                }
                _ => String::new(),
            }
        };
        let mut mesh = chart.configure_mesh();
        if integer_y_labels {
            mesh.y_label_formatter(&integer_labels);
        }
        if let Some(names) = x_names {
            mesh.x_label_formatter(&named).x_labels(names.len() + 1);
        } else {
            mesh.x_labels(6);
        }
        mesh.x_desc(options.x_label.as_str())
            .y_desc(options.y_label.as_str())
            .axis_desc_style((FONT, AXIS_LABEL_SIZE))
            .label_style((FONT, TICK_LABEL_SIZE))
            .bold_line_style(RGBColor(220, 220, 220))
            .light_line_style(RGBColor(242, 242, 242))
            .y_labels(6)
            .draw()
            .map_err(|e| failed(&e))?;
        draw(&mut chart)?;
        let position = match options.legend {
            LegendPosition::UpperLeft => SeriesLabelPosition::UpperLeft,
            LegendPosition::UpperRight => SeriesLabelPosition::UpperRight,
            LegendPosition::LowerLeft => SeriesLabelPosition::LowerLeft,
            LegendPosition::LowerRight => SeriesLabelPosition::LowerRight,
        };
        chart
            .configure_series_labels()
            .position(position)
            .margin(10)
            .legend_area_size(30)
            .label_font((FONT, LEGEND_SIZE))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(120, 120, 120))
            .draw()
            .map_err(|e| failed(&e))?;
        root.present().map_err(|e| failed(&e))?;
    }
    Ok(svg)
}

/// Draws curves: lines (with a legend entry if labelled), dots, interval bars, marked points.
fn draw_curves(
    options: &PlotOptions,
    chart: &mut Chart,
    curves: &[Curve],
) -> Result<(), ReportError> {
    let failed = drawing_error(options);
    // Faint, unlabelled curves first so that labelled ones are drawn on top.
    let mut order: Vec<&Curve> = curves.iter().collect();
    order.sort_by_key(|curve| curve.label.is_some());
    for curve in order {
        draw_curve_line(options, chart, curve)?;
        if curve.show_points {
            let dot = curve.color.with_opacity(curve.opacity).filled();
            chart
                .draw_series(curve.points.iter().map(|&point| Circle::new(point, 3, dot)))
                .map_err(|e| failed(&e))?;
        }
        let bar_style = ShapeStyle {
            color: curve.color.with_opacity(1.0),
            filled: false,
            stroke_width: 1,
        };
        for bar in &curve.error_bars {
            let (x, y) = bar.at;
            if let Some(interval) = bar.y_interval {
                draw_interval_bar(options, chart, x, interval, true, bar_style)?;
            }
            if let Some(interval) = bar.x_interval {
                draw_interval_bar(options, chart, y, interval, false, bar_style)?;
            }
        }
        let marked_fill = curve.color.with_opacity(1.0).filled();
        let outline = ShapeStyle {
            color: BLACK.to_rgba(),
            filled: false,
            stroke_width: 1,
        };
        for &point in &curve.marked {
            chart
                .draw_series([EmptyElement::at(point)
                    + Circle::new((0, 0), 5, marked_fill)
                    + Circle::new((0, 0), 5, outline)])
                .map_err(|e| failed(&e))?;
        }
    }
    Ok(())
}

/// Draws a curve's line, solid or dashed, and its legend entry (a short line of the same
/// kind) when it has a label.
fn draw_curve_line(
    options: &PlotOptions,
    chart: &mut Chart,
    curve: &Curve,
) -> Result<(), ReportError> {
    let failed = drawing_error(options);
    let style = ShapeStyle {
        color: curve.color.with_opacity(curve.opacity),
        filled: false,
        stroke_width: curve.width.max(1),
    };
    let points = curve.points.iter().copied();
    let series = if curve.dashed {
        chart.draw_series(DashedLineSeries::new(points, 7, 5, style))
    } else {
        chart.draw_series(LineSeries::new(points, style))
    }
    .map_err(|e| failed(&e))?;
    if let Some(label) = &curve.label {
        let legend_style = ShapeStyle {
            color: curve.color.with_opacity(1.0),
            filled: false,
            stroke_width: if curve.dashed { 1 } else { curve.width.max(2) },
        };
        let series = series.label(label.as_str());
        if curve.dashed {
            series.legend(move |(x, y)| {
                plotters::element::DashedPathElement::new(
                    vec![(x, y), (x + 22, y)],
                    5,
                    3,
                    legend_style,
                )
            });
        } else {
            series.legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], legend_style));
        }
    }
    Ok(())
}

/// Draws an interval bar from `low` to `high` with a cap across each end: vertical at x = `at`
/// when `vertical`, else horizontal at y = `at`.
pub(crate) fn draw_interval_bar(
    options: &PlotOptions,
    chart: &mut Chart,
    at: f64,
    (low, high): (f64, f64),
    vertical: bool,
    style: ShapeStyle,
) -> Result<(), ReportError> {
    let point = |value: f64| if vertical { (at, value) } else { (value, at) };
    chart
        .draw_series([PathElement::new(vec![point(low), point(high)], style)])
        .map_err(|e| drawing_error(options)(&e))?;
    for end in [low, high] {
        draw_cap(options, chart, point(end), CAP_HALF_WIDTH, vertical, style)?;
    }
    Ok(())
}

/// Draws the short line, `half_width` pixels each side of `end`, that caps an interval bar:
/// horizontal across a vertical bar, vertical across a horizontal one.
fn draw_cap(
    options: &PlotOptions,
    chart: &mut Chart,
    end: (f64, f64),
    half_width: i32,
    vertical_bar: bool,
    style: ShapeStyle,
) -> Result<(), ReportError> {
    let across = if vertical_bar {
        vec![(-half_width, 0), (half_width, 0)]
    } else {
        vec![(0, -half_width), (0, half_width)]
    };
    chart
        .draw_series([EmptyElement::at(end) + PathElement::new(across, style)])
        .map_err(|e| drawing_error(options)(&e))?;
    Ok(())
}

/// The legend mark of a filled series (histogram bars, boxes): a small rectangle of its fill.
fn square_legend(fill: ShapeStyle) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
    move |(x, y)| Rectangle::new([(x, y - 6), (x + 16, y + 6)], fill)
}

/// ROC space plot: the chance diagonal (grey, dashed), the curves (each a list of (fpr, tpr) points),
/// their marked points (e.g. the default-threshold point) and interval bars (averaged ROC
/// curves with confidence intervals). For Aslan et al.'s fold plots pass 30 [`Curve::faint`]
/// curves per learner and one labelled curve (or a labelled empty curve) per learner for the
/// legend. Use [`PlotOptions::roc`] for the usual axes.
pub fn roc_plot(options: &PlotOptions, curves: &[Curve]) -> Result<String, ReportError> {
    check_curves(options, curves)?;
    let all = || curves.iter().flat_map(|curve| curve.points.iter().copied());
    let x_range = fitted_range(options, "x", options.x_range, all().map(|p| p.0))?;
    let y_range = fitted_range(options, "y", options.y_range, all().map(|p| p.1))?;
    render(options, x_range, y_range, false, None, |chart| {
        let diagonal = ShapeStyle {
            color: RGBColor(150, 150, 150).to_rgba(),
            filled: false,
            stroke_width: 1,
        };
        let low = x_range.0.max(y_range.0);
        let high = x_range.1.min(y_range.1);
        chart
            .draw_series(DashedLineSeries::new(
                [(low, low), (high, high)],
                6,
                4,
                diagonal,
            ))
            .map_err(|e| drawing_error(options)(&e))?;
        draw_curves(options, chart, curves)
    })
}

/// A line plot of several series against x (e.g. Huang & Ling's consistency C and
/// discriminancy D against 2n); set [`Curve::show_points`] to mark the data points.
pub fn line_plot(options: &PlotOptions, curves: &[Curve]) -> Result<String, ReportError> {
    check_curves(options, curves)?;
    let all = || curves.iter().flat_map(|curve| curve.points.iter().copied());
    let x_range = fitted_range(options, "x", options.x_range, all().map(|p| p.0))?;
    let y_range = fitted_range(options, "y", options.y_range, all().map(|p| p.1))?;
    render(options, x_range, y_range, false, None, |chart| {
        draw_curves(options, chart, curves)
    })
}

/// Histograms of a measure over folds for several learners, bars of a bin side by side, with
/// optional intervals drawn as horizontal bars, labelled above, stacked above the highest bar
/// (Aslan et al. Figures 6-7); the legend (one entry per distribution) has its own band at the
/// top, so it never hides a bar or an interval. `bins` equal-width bins span `options.x_range` or the range of all values and
/// interval ends; a value equal to the upper end falls in the last bin, values outside a fixed
/// range are not counted. The y axis counts instances.
pub fn distribution_plot(
    options: &PlotOptions,
    distributions: &[Distribution],
    intervals: &[Interval],
    bins: usize,
) -> Result<String, ReportError> {
    check_histogram_input(options, distributions, intervals, bins)?;
    let values = distributions
        .iter()
        .flat_map(|d| d.values.iter().copied())
        .chain(intervals.iter().flat_map(|i| [i.low, i.high]));
    let (low, high) = fitted_range(options, "x", options.x_range, values)?;
    let bin_width = (high - low) / bins as f64;
    let counts: Vec<Vec<usize>> = distributions
        .iter()
        .map(|distribution| bin_counts(&distribution.values, (low, high), bins, bin_width))
        .collect();
    let highest = counts.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
    let layout = HistogramLayout::new(options, highest, distributions.len(), intervals.len());
    // The legend goes in the band reserved for it at the top.
    let options = &PlotOptions {
        legend: match options.legend {
            LegendPosition::LowerLeft | LegendPosition::UpperLeft => LegendPosition::UpperLeft,
            LegendPosition::LowerRight | LegendPosition::UpperRight => LegendPosition::UpperRight,
        },
        ..options.clone()
    };
    let y_range = options.y_range.unwrap_or((0.0, layout.top));
    let groups = distributions.len().max(1) as f64;
    render(options, (low, high), y_range, true, None, |chart| {
        let failed = drawing_error(options);
        for (group, (distribution, counts)) in distributions.iter().zip(&counts).enumerate() {
            let fill = distribution.color.with_opacity(0.85).filled();
            let bars = counts
                .iter()
                .enumerate()
                .filter(|(_, &count)| count > 0)
                .map(|(bin, &count)| {
                    let left = low + bin as f64 * bin_width + group as f64 * bin_width / groups;
                    let right = left + bin_width / groups;
                    Rectangle::new([(left, 0.0), (right, count as f64)], fill)
                });
            chart
                .draw_series(bars)
                .map_err(|e| failed(&e))?
                .label(distribution.label.as_str())
                .legend(square_legend(fill));
        }
        for (number, interval) in intervals.iter().enumerate() {
            let y = layout.bar_top + layout.row_height * (number as f64 + 0.3);
            draw_labelled_interval(options, chart, interval, y)?;
        }
        Ok(())
    })
}

/// Refuses no bins, values that are not finite, and intervals that are not finite or whose
/// low end is above the high end.
fn check_histogram_input(
    options: &PlotOptions,
    distributions: &[Distribution],
    intervals: &[Interval],
    bins: usize,
) -> Result<(), ReportError> {
    if bins == 0 {
        return Err(bad_input(
            options,
            "bins = 0; allowed: an integer >= 1".to_string(),
        ));
    }
    for distribution in distributions {
        if let Some(position) = distribution.values.iter().position(|v| !v.is_finite()) {
            return Err(bad_input(
                options,
                format!(
                    "distribution '{}': value {position} is not finite",
                    distribution.label
                ),
            ));
        }
    }
    for (number, interval) in intervals.iter().enumerate() {
        let ends = [interval.low, interval.high];
        if !ends.iter().chain(&interval.center).all(|v| v.is_finite())
            || interval.low > interval.high
        {
            return Err(bad_input(
                options,
                format!("interval {number}: ends must be finite with low <= high"),
            ));
        }
    }
    Ok(())
}

/// How many of `values` fall in each of `bins` bins of `bin_width` from `low` to `high` (the
/// upper end in the last bin; values outside not counted).
fn bin_counts(values: &[f64], (low, high): (f64, f64), bins: usize, bin_width: f64) -> Vec<usize> {
    let mut counts = vec![0usize; bins];
    for &value in values {
        if value >= low && value <= high {
            let bin = (((value - low) / bin_width) as usize).min(bins - 1);
            counts[bin] += 1;
        }
    }
    counts
}

/// The heights, in counts, of a histogram's parts: the bars up to `bar_top`, then one row per
/// interval, then the legend's band up to `top`, sized from their heights in pixels.
struct HistogramLayout {
    /// Just above the highest bar: where the interval rows start.
    bar_top: f64,
    /// Height of one interval row.
    row_height: f64,
    /// Top of the y axis.
    top: f64,
}

impl HistogramLayout {
    /// The layout of a histogram whose highest bar counts `highest`, with a legend entry per
    /// distribution and a row per interval.
    fn new(options: &PlotOptions, highest: f64, distributions: usize, intervals: usize) -> Self {
        // Above the bars: one row per interval, then room for the legend, sized in pixels.
        let caption = if options.title.is_empty() {
            0
        } else {
            CAPTION_HEIGHT
        };
        let plot_height = f64::from(
            options
                .size
                .1
                .saturating_sub(FRAME_HEIGHT + caption)
                .max(50),
        );
        let interval_share = intervals as f64 * INTERVAL_ROW_HEIGHT / plot_height;
        let legend_share = (distributions as f64 * LEGEND_ENTRY_HEIGHT + 24.0) / plot_height;
        let bar_share = (1.0 - interval_share - legend_share).max(0.3);
        let bar_top = highest * 1.05;
        let top = bar_top / bar_share;
        HistogramLayout {
            bar_top,
            row_height: top * INTERVAL_ROW_HEIGHT / plot_height,
            top,
        }
    }
}

/// Draws an interval as a horizontal bar at height `y`: its label above the middle, a cap at
/// each end and its centre as a dot.
fn draw_labelled_interval(
    options: &PlotOptions,
    chart: &mut Chart,
    interval: &Interval,
    y: f64,
) -> Result<(), ReportError> {
    let failed = drawing_error(options);
    let style = ShapeStyle {
        color: interval.color.with_opacity(1.0),
        filled: false,
        stroke_width: 2,
    };
    chart
        .draw_series([PathElement::new(
            vec![(interval.low, y), (interval.high, y)],
            style,
        )])
        .map_err(|e| failed(&e))?;
    if let Some(label) = &interval.label {
        let color = interval.color.with_opacity(1.0);
        let font = TextStyle::from((FONT, LEGEND_SIZE).into_font())
            .color(&color)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        let middle = (interval.low + interval.high) / 2.0;
        chart
            .draw_series([EmptyElement::at((middle, y))
                + Text::new(label.clone(), (0, -CAP_HALF_WIDTH - 3), font)])
            .map_err(|e| failed(&e))?;
    }
    for end in [interval.low, interval.high] {
        draw_cap(options, chart, (end, y), CAP_HALF_WIDTH + 1, false, style)?;
    }
    if let Some(center) = interval.center {
        chart
            .draw_series([Circle::new((center, y), 4, style.filled())])
            .map_err(|e| failed(&e))?;
    }
    Ok(())
}

/// One category of a box plot (e.g. a dataset): a distribution per learner, drawn side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxGroup {
    /// The category's name, written under its boxes.
    pub label: String,
    /// One distribution per series (e.g. per learner), in legend order.
    pub boxes: Vec<Distribution>,
}

/// The quartiles of sorted values by linear interpolation between order statistics (numpy's
/// default `percentile` method).
fn quantile(sorted: &[f64], probability: f64) -> f64 {
    let position = probability * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    sorted[below] + (position - below as f64) * (sorted[above] - sorted[below])
}

/// Box plots of several series per category (Tukey's boxes: quartiles by linear
/// interpolation, the median, whiskers to the most extreme values within 1.5 interquartile
/// ranges of the box, and every value beyond them as a dot), categories along x, one colour
/// per series with a legend from the first category's labels, in the corner with the fewest
/// values near it (`options.legend` on a tie). An empty distribution draws nothing; a value that is not finite is refused, naming the category and series.
pub fn box_plot(options: &PlotOptions, groups: &[BoxGroup]) -> Result<String, ReportError> {
    for group in groups {
        for series in &group.boxes {
            if let Some(position) = series.values.iter().position(|v| !v.is_finite()) {
                return Err(bad_input(
                    options,
                    format!(
                        "category '{}', series '{}': value {position} is not finite",
                        group.label, series.label
                    ),
                ));
            }
        }
    }
    let names: Vec<String> = groups.iter().map(|group| group.label.clone()).collect();
    let values = groups
        .iter()
        .flat_map(|group| group.boxes.iter().flat_map(|d| d.values.iter().copied()));
    let y_range = fitted_range(options, "y", options.y_range, values)?;
    let x_range = (0.5, groups.len().max(1) as f64 + 0.5);
    let options = &PlotOptions {
        legend: emptiest_corner(groups, y_range, options.legend),
        ..options.clone()
    };
    render(options, x_range, y_range, false, Some(&names), |chart| {
        let failed = drawing_error(options);
        let series = groups
            .iter()
            .map(|group| group.boxes.len())
            .max()
            .unwrap_or(0);
        let slot = 0.8 / series.max(1) as f64;
        for (position, group) in groups.iter().enumerate() {
            let centre = position as f64 + 1.0;
            for (number, distribution) in group.boxes.iter().enumerate() {
                if distribution.values.is_empty() {
                    continue;
                }
                let middle = centre - 0.4 + slot * (number as f64 + 0.5);
                draw_box(options, chart, distribution, middle, slot)?;
            }
        }
        if let Some(first) = groups.first() {
            for distribution in &first.boxes {
                let fill = distribution.color.with_opacity(0.85).filled();
                chart
                    .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                    .map_err(|e| failed(&e))?
                    .label(distribution.label.as_str())
                    .legend(square_legend(fill));
            }
        }
        Ok(())
    })
}

/// The legend's corner with the fewest values near it: the first or last category, the top or
/// bottom 40% of `y_range` (`preferred` on a tie).
fn emptiest_corner(
    groups: &[BoxGroup],
    y_range: (f64, f64),
    preferred: LegendPosition,
) -> LegendPosition {
    let count = |group: Option<&BoxGroup>, upper: bool| {
        let span = y_range.1 - y_range.0;
        group.map_or(0, |group| {
            group
                .boxes
                .iter()
                .flat_map(|d| d.values.iter())
                .filter(|&&v| {
                    if upper {
                        v > y_range.0 + 0.6 * span
                    } else {
                        v < y_range.0 + 0.4 * span
                    }
                })
                .count()
        })
    };
    let corners = [
        (LegendPosition::UpperLeft, count(groups.first(), true)),
        (LegendPosition::UpperRight, count(groups.last(), true)),
        (LegendPosition::LowerLeft, count(groups.first(), false)),
        (LegendPosition::LowerRight, count(groups.last(), false)),
    ];
    let fewest = corners.iter().map(|(_, n)| *n).min().unwrap_or(0);
    if corners.contains(&(preferred, fewest)) {
        preferred
    } else {
        corners
            .iter()
            .find(|(_, n)| *n == fewest)
            .map_or(preferred, |(corner, _)| *corner)
    }
}

/// Tukey's box of some values: sorted, their quartiles, and the whiskers' ends (the most
/// extreme values within 1.5 interquartile ranges of the box).
struct BoxSummary {
    sorted: Vec<f64>,
    q1: f64,
    median: f64,
    q3: f64,
    low_whisker: f64,
    high_whisker: f64,
}

impl BoxSummary {
    /// The box of `values` (not empty).
    fn of(values: &[f64]) -> Self {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let (q1, median, q3) = (
            quantile(&sorted, 0.25),
            quantile(&sorted, 0.5),
            quantile(&sorted, 0.75),
        );
        let reach = 1.5 * (q3 - q1);
        let low_whisker = sorted
            .iter()
            .copied()
            .find(|&v| v >= q1 - reach)
            .unwrap_or(q1);
        let high_whisker = sorted
            .iter()
            .rev()
            .copied()
            .find(|&v| v <= q3 + reach)
            .unwrap_or(q3);
        BoxSummary {
            sorted,
            q1,
            median,
            q3,
            low_whisker,
            high_whisker,
        }
    }
}

/// Draws one distribution's box centred at x = `middle` in a slot `slot` wide: the filled box,
/// its outline, the whiskers and their ends, the median (thick), and the values beyond the
/// whiskers as dots.
fn draw_box(
    options: &PlotOptions,
    chart: &mut Chart,
    distribution: &Distribution,
    middle: f64,
    slot: f64,
) -> Result<(), ReportError> {
    let failed = drawing_error(options);
    let BoxSummary {
        sorted,
        q1,
        median,
        q3,
        low_whisker,
        high_whisker,
    } = BoxSummary::of(&distribution.values);
    let (left, right) = (middle - 0.4 * slot, middle + 0.4 * slot);
    let line = ShapeStyle {
        color: distribution.color.with_opacity(1.0),
        filled: false,
        stroke_width: 1,
    };
    let fill = distribution.color.with_opacity(0.3).filled();
    chart
        .draw_series([Rectangle::new([(left, q1), (right, q3)], fill)])
        .map_err(|e| failed(&e))?;
    let mut shapes = vec![
        vec![(left, q1), (right, q1), (right, q3), (left, q3), (left, q1)],
        vec![(middle, q3), (middle, high_whisker)],
        vec![(middle, q1), (middle, low_whisker)],
        vec![
            (middle - 0.2 * slot, high_whisker),
            (middle + 0.2 * slot, high_whisker),
        ],
        vec![
            (middle - 0.2 * slot, low_whisker),
            (middle + 0.2 * slot, low_whisker),
        ],
    ];
    let median_line = vec![(left, median), (right, median)];
    shapes.push(median_line);
    for (index, points) in shapes.into_iter().enumerate() {
        let style = if index == 5 {
            ShapeStyle {
                stroke_width: 3,
                ..line
            }
        } else {
            line
        };
        chart
            .draw_series([PathElement::new(points, style)])
            .map_err(|e| failed(&e))?;
    }
    let dot = distribution.color.with_opacity(1.0).filled();
    chart
        .draw_series(
            sorted
                .iter()
                .filter(|&&v| v < low_whisker || v > high_whisker)
                .map(|&v| Circle::new((middle, v), 3, dot)),
        )
        .map_err(|e| failed(&e))?;
    Ok(())
}
