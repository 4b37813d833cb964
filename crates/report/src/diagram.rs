//! Diagrams drawn in pixel coordinates rather than on axes of data: Demšar's (2006)
//! critical-difference diagram of average ranks, and the probability simplex of a Bayesian
//! comparison (Benavoli et al. 2017), as SVG.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::{Rgb, PALETTE};
use crate::ReportError;

const FONT: &str = "sans-serif";
/// plotters writes font-size = size / 1.24 into the SVG.
const LABEL_SIZE: u32 = 19;
const TITLE_SIZE: u32 = 24;
/// Estimated pixels per character of a label, for the margins.
const CHARACTER_WIDTH: u32 = 9;

/// A critical-difference diagram (Demšar 2006, Figures 1-2): learners placed on an axis of
/// average ranks (1 = best, on the left), groups of learners whose ranks differ by less than
/// the critical difference joined by a thick bar, and optionally a control learner's interval
/// of +- the Bonferroni-Dunn critical difference.
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalDifferenceDiagram {
    /// Caption above the diagram (may be empty).
    pub title: String,
    /// The learners' names.
    pub labels: Vec<String>,
    /// The learners' average ranks, in the order of `labels` (each in [1, k]).
    pub ranks: Vec<f64>,
    /// The critical difference drawn as the scale bar, and its caption (e.g. "CD (Nemenyi)").
    pub critical_difference: (f64, String),
    /// Groups of learners not significantly different, each a list of indices into `labels`.
    pub groups: Vec<Vec<usize>>,
    /// A control learner (index into `labels`) and the half-width of its interval.
    pub control: Option<(usize, f64)>,
}

fn bad_input(title: &str, problem: String) -> ReportError {
    ReportError::BadPlotInput {
        plot: title.to_string(),
        problem,
    }
}

fn drawing_error(title: &str) -> impl Fn(&dyn std::fmt::Display) -> ReportError + '_ {
    move |error| ReportError::Drawing {
        plot: title.to_string(),
        message: error.to_string(),
    }
}

fn color(rgb: Rgb) -> RGBColor {
    RGBColor(rgb.0, rgb.1, rgb.2)
}

fn text_style(size: u32, horizontal: HPos, vertical: VPos) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).pos(Pos::new(horizontal, vertical))
}

/// A thin black line.
const THIN_BLACK: ShapeStyle = ShapeStyle {
    color: RGBAColor(0, 0, 0, 1.0),
    filled: false,
    stroke_width: 1,
};

/// The drawing area of a diagram, in pixels from the top left corner.
type Canvas<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// Draws a diagram of `size` pixels: a white canvas with the title centred at the top (when
/// not empty), then whatever `draw` adds; returns the SVG.
fn draw_svg(
    title: &str,
    size: (u32, u32),
    draw: impl FnOnce(&Canvas) -> Result<(), ReportError>,
) -> Result<String, ReportError> {
    let failed = drawing_error(title);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        if !title.is_empty() {
            root.draw(&Text::new(
                title.to_string(),
                ((size.0 / 2) as i32, 10),
                text_style(TITLE_SIZE, HPos::Center, VPos::Top),
            ))
            .map_err(|e| failed(&e))?;
        }
        draw(&root)?;
        root.present().map_err(|e| failed(&e))?;
    }
    Ok(svg)
}

/// A critical-difference diagram as SVG. Refuses (naming the problem) fewer than two
/// learners, labels and ranks of different lengths, ranks outside [1, k] or not finite, a
/// critical difference that is not finite and positive, and group or control indices out of
/// range.
pub fn critical_difference_diagram(
    diagram: &CriticalDifferenceDiagram,
) -> Result<String, ReportError> {
    let title = diagram.title.as_str();
    let k = diagram.labels.len();
    if k < 2 || diagram.ranks.len() != k {
        return Err(bad_input(
            title,
            format!(
                "needs at least 2 learners with one rank each, got {} labels and {} ranks",
                k,
                diagram.ranks.len()
            ),
        ));
    }
    let highest = k as f64;
    if let Some(position) = diagram
        .ranks
        .iter()
        .position(|rank| !(rank.is_finite() && (1.0..=highest).contains(rank)))
    {
        return Err(bad_input(
            title,
            format!(
                "rank of '{}' = {} is outside [1, {k}]",
                diagram.labels[position], diagram.ranks[position]
            ),
        ));
    }
    let (difference, caption) = &diagram.critical_difference;
    if !(difference.is_finite() && *difference > 0.0) {
        return Err(bad_input(
            title,
            format!("critical difference {difference} must be finite and > 0"),
        ));
    }
    if diagram.groups.iter().flatten().any(|&index| index >= k)
        || diagram
            .control
            .is_some_and(|(index, width)| index >= k || !(width.is_finite() && width > 0.0))
    {
        return Err(bad_input(
            title,
            "a group or the control names a learner index out of range, or the control's \
             interval is not finite and > 0"
                .to_string(),
        ));
    }
    // Learners by rank; the better half is labelled on the left, the rest on the right.
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| {
        diagram.ranks[a]
            .total_cmp(&diagram.ranks[b])
            .then(a.cmp(&b))
    });
    let left_count = k.div_ceil(2);
    let label_text =
        |index: usize| format!("{} ({:.2})", diagram.labels[index], diagram.ranks[index]);
    let longest = order
        .iter()
        .map(|&i| label_text(i).chars().count())
        .max()
        .unwrap_or(0) as u32;
    let margin = (longest * CHARACTER_WIDTH + 40).clamp(120, 360);
    let width = (2 * margin + 420).max(760);
    let title_height = if title.is_empty() { 0 } else { 40 };
    let scale_y = title_height + 30;
    // The control's caption, then its interval bar, between the scale bar and the axis.
    let control_caption_y = scale_y + 28;
    let control_y = control_caption_y + 22;
    let axis_y = if diagram.control.is_some() {
        control_y + 36
    } else {
        scale_y + 40
    };
    let groups_top = axis_y + 22;
    let group_gap = 11;
    let labels_top = groups_top + group_gap * diagram.groups.len() as i32 + 16;
    let row_height = 28;
    let height = (labels_top + row_height * (left_count as i32 - 1) + 30) as u32;
    let (left, right) = (margin as i32, (width - margin) as i32);
    let x_of = |rank: f64| left as f64 + (rank - 1.0) / (highest - 1.0) * (right - left) as f64;
    let x = |rank: f64| x_of(rank).round() as i32;

    let failed = drawing_error(title);
    draw_svg(title, (width, height), |root| {
        let black = THIN_BLACK;
        let thick = ShapeStyle {
            stroke_width: 4,
            ..black
        };
        let draw_line = |points: Vec<(i32, i32)>, style: ShapeStyle| {
            root.draw(&PathElement::new(points, style))
                .map_err(|e| failed(&e))
        };
        let draw_text = |text: String, at: (i32, i32), style: &TextStyle| {
            root.draw(&Text::new(text, at, style.clone()))
                .map_err(|e| failed(&e))
        };
        // The axis with a tick at every rank and a shorter one at every half rank.
        draw_line(vec![(left, axis_y), (right, axis_y)], black)?;
        for step in 0..=(2 * (k - 1)) {
            let rank = 1.0 + step as f64 / 2.0;
            let tall = step % 2 == 0;
            draw_line(
                vec![
                    (x(rank), axis_y),
                    (x(rank), axis_y - if tall { 8 } else { 4 }),
                ],
                black,
            )?;
            if tall {
                draw_text(
                    format!("{rank:.0}"),
                    (x(rank), axis_y - 10),
                    &text_style(LABEL_SIZE, HPos::Center, VPos::Bottom),
                )?;
            }
        }
        // The scale bar: the critical difference, from rank 1.
        let end = (1.0 + difference).min(highest);
        draw_line(vec![(x(1.0), scale_y), (x(end), scale_y)], thick)?;
        for at in [x(1.0), x(end)] {
            draw_line(vec![(at, scale_y - 5), (at, scale_y + 5)], black)?;
        }
        draw_text(
            format!("{caption} = {difference:.3}"),
            (x(end) + 10, scale_y),
            &text_style(LABEL_SIZE, HPos::Left, VPos::Center),
        )?;
        if let Some((control, half_width)) = diagram.control {
            let accent = ShapeStyle {
                color: color(PALETTE[1]).to_rgba(),
                filled: true,
                stroke_width: 3,
            };
            let rank = diagram.ranks[control];
            let (low, high) = (
                (rank - half_width).max(1.0),
                (rank + half_width).min(highest),
            );
            draw_line(vec![(x(low), control_y), (x(high), control_y)], accent)?;
            root.draw(&Circle::new((x(rank), control_y), 4, accent))
                .map_err(|e| failed(&e))?;
            draw_text(
                format!(
                    "{} \u{b1} {:.3} (Bonferroni-Dunn, control)",
                    diagram.labels[control], half_width
                ),
                ((left + right) / 2, control_caption_y),
                &text_style(LABEL_SIZE, HPos::Center, VPos::Center).color(&color(PALETTE[1])),
            )?;
        }
        // Groups of learners not significantly different.
        for (row, group) in diagram.groups.iter().enumerate() {
            let ranks = group.iter().map(|&index| diagram.ranks[index]);
            let low = ranks.clone().fold(f64::INFINITY, f64::min);
            let high = ranks.fold(f64::NEG_INFINITY, f64::max);
            let y = groups_top + group_gap * row as i32;
            draw_line(vec![(x(low) - 4, y), (x(high) + 4, y)], thick)?;
        }
        // Each learner: a line from its rank down to its row, then out to its label.
        for (position, &index) in order.iter().enumerate() {
            let on_left = position < left_count;
            let row = if on_left { position } else { k - 1 - position };
            let y = labels_top + row_height * row as i32;
            let at = x(diagram.ranks[index]);
            let outer = if on_left { left - 12 } else { right + 12 };
            draw_line(vec![(at, axis_y), (at, y), (outer, y)], black)?;
            let style = if on_left {
                text_style(LABEL_SIZE, HPos::Right, VPos::Center)
            } else {
                text_style(LABEL_SIZE, HPos::Left, VPos::Center)
            };
            draw_text(
                label_text(index),
                (outer + if on_left { -4 } else { 4 }, y),
                &style,
            )?;
        }
        Ok(())
    })
}

/// The posterior of a Bayesian comparison of two learners over three regions (one better,
/// practically equivalent, the other better) drawn in a triangle, as baycomp's
/// `plot_simplex`: each posterior sample is a point in barycentric coordinates, and the three
/// lines from the centre to the edges separate where each region is the most probable.
#[derive(Clone, Debug, PartialEq)]
pub struct Simplex {
    /// Caption above the triangle (may be empty).
    pub title: String,
    /// The regions' names at the bottom-left, top and bottom-right corners (e.g. "b better",
    /// "equivalent", "a better").
    pub corners: [String; 3],
    /// The share of samples in which each region is the most probable, printed at its corner.
    pub probabilities: [f64; 3],
    /// Posterior samples: the three regions' probabilities, each triple summing to 1.
    pub samples: Vec<[f64; 3]>,
}

/// The most samples drawn as points (evenly spaced through the list beyond this).
const MOST_SIMPLEX_POINTS: usize = 4000;

/// A probability simplex as SVG. Refuses (naming the problem) samples that are not finite,
/// negative, or do not sum to 1 within 1e-6, and probabilities outside [0, 1].
pub fn simplex_plot(simplex: &Simplex) -> Result<String, ReportError> {
    let title = simplex.title.as_str();
    if let Some(position) = simplex.samples.iter().position(|sample| {
        !sample.iter().all(|p| p.is_finite() && *p >= -1e-12)
            || (sample.iter().sum::<f64>() - 1.0).abs() > 1e-6
    }) {
        return Err(bad_input(
            title,
            format!(
                "sample {position} = {:?} is not three probabilities summing to 1",
                simplex.samples[position]
            ),
        ));
    }
    if !simplex
        .probabilities
        .iter()
        .all(|p| p.is_finite() && (0.0..=1.0).contains(p))
    {
        return Err(bad_input(
            title,
            format!(
                "probabilities {:?} must be in [0, 1]",
                simplex.probabilities
            ),
        ));
    }
    let width = 720u32;
    let title_height = if title.is_empty() { 0 } else { 40 };
    let side = 440.0;
    let triangle_height = side * 3f64.sqrt() / 2.0;
    let bottom = f64::from(title_height) + 60.0 + triangle_height;
    let height = (bottom + 60.0) as u32;
    let corner_points = [
        (f64::from(width) / 2.0 - side / 2.0, bottom),
        (f64::from(width) / 2.0, bottom - triangle_height),
        (f64::from(width) / 2.0 + side / 2.0, bottom),
    ];
    let place = |p: [f64; 3]| -> (i32, i32) {
        let x: f64 = (0..3).map(|i| p[i] * corner_points[i].0).sum();
        let y: f64 = (0..3).map(|i| p[i] * corner_points[i].1).sum();
        (x.round() as i32, y.round() as i32)
    };
    let failed = drawing_error(title);
    draw_svg(title, (width, height), |root| {
        let black = THIN_BLACK;
        let stride = simplex.samples.len().div_ceil(MOST_SIMPLEX_POINTS).max(1);
        let dot = color(PALETTE[0]).mix(0.25).filled();
        for sample in simplex.samples.iter().step_by(stride) {
            root.draw(&Circle::new(place(*sample), 2, dot))
                .map_err(|e| failed(&e))?;
        }
        let corners: Vec<(i32, i32)> = (0..3)
            .map(|i| {
                let mut p = [0.0; 3];
                p[i] = 1.0;
                place(p)
            })
            .collect();
        let mut outline = corners.clone();
        outline.push(corners[0]);
        root.draw(&PathElement::new(outline, black))
            .map_err(|e| failed(&e))?;
        // Region borders: from the centre to the middle of each edge.
        let centre = place([1.0 / 3.0; 3]);
        let dashed = ShapeStyle {
            color: RGBColor(90, 90, 90).to_rgba(),
            filled: false,
            stroke_width: 1,
        };
        for (i, j) in [(0, 1), (1, 2), (0, 2)] {
            let mut middle = [0.0; 3];
            middle[i] = 0.5;
            middle[j] = 0.5;
            root.draw(&PathElement::new(vec![centre, place(middle)], dashed))
                .map_err(|e| failed(&e))?;
        }
        let positions = [
            (corners[0].0, corners[0].1 + 14, HPos::Center, VPos::Top),
            (corners[1].0, corners[1].1 - 12, HPos::Center, VPos::Bottom),
            (corners[2].0, corners[2].1 + 14, HPos::Center, VPos::Top),
        ];
        for (corner, (x, y, horizontal, vertical)) in positions.into_iter().enumerate() {
            let text = format!(
                "{}: {:.3}",
                simplex.corners[corner], simplex.probabilities[corner]
            );
            root.draw(&Text::new(
                text,
                (x, y),
                text_style(LABEL_SIZE, horizontal, vertical),
            ))
            .map_err(|e| failed(&e))?;
        }
        Ok(())
    })
}
