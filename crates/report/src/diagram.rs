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
    check_diagram(diagram)?;
    let layout = CdLayout::new(diagram);
    draw_svg(&diagram.title, (layout.width, layout.height), |root| {
        let pen = Pen {
            root,
            title: &diagram.title,
        };
        layout.draw_axis(&pen)?;
        layout.draw_scale_bar(&pen)?;
        if let Some((control, half_width)) = diagram.control {
            layout.draw_control(&pen, control, half_width)?;
        }
        layout.draw_groups(&pen)?;
        layout.draw_learners(&pen)
    })
}

/// Refuses a diagram that cannot be drawn; see [`critical_difference_diagram`].
fn check_diagram(diagram: &CriticalDifferenceDiagram) -> Result<(), ReportError> {
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
    let difference = diagram.critical_difference.0;
    if !(difference.is_finite() && difference > 0.0) {
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
    Ok(())
}

/// A thick black line (the critical-difference bars).
const THICK_BLACK: ShapeStyle = ShapeStyle {
    stroke_width: 4,
    ..THIN_BLACK
};
/// Pixels between two group bars of a critical-difference diagram.
const GROUP_GAP: i32 = 11;
/// Pixels between two learners' label rows of a critical-difference diagram.
const ROW_HEIGHT: i32 = 28;

/// Draws lines, text and dots on a diagram's canvas, naming the diagram in its errors.
struct Pen<'p, 'a> {
    root: &'p Canvas<'a>,
    title: &'p str,
}

impl Pen<'_, '_> {
    /// Draws a polyline through `points`.
    fn line(&self, points: Vec<(i32, i32)>, style: ShapeStyle) -> Result<(), ReportError> {
        self.root
            .draw(&PathElement::new(points, style))
            .map_err(|e| drawing_error(self.title)(&e))
    }

    /// Writes `text` at `at`, placed as `style` says.
    fn text(&self, text: String, at: (i32, i32), style: &TextStyle) -> Result<(), ReportError> {
        self.root
            .draw(&Text::new(text, at, style.clone()))
            .map_err(|e| drawing_error(self.title)(&e))
    }

    /// Draws a circle of `radius` pixels around `centre`.
    fn circle(
        &self,
        centre: (i32, i32),
        radius: i32,
        style: ShapeStyle,
    ) -> Result<(), ReportError> {
        self.root
            .draw(&Circle::new(centre, radius, style))
            .map_err(|e| drawing_error(self.title)(&e))
    }
}

/// Where each part of a critical-difference diagram goes, in pixels from the top left corner,
/// and the learners in rank order (the better half labelled on the left, the rest on the
/// right).
struct CdLayout<'d> {
    diagram: &'d CriticalDifferenceDiagram,
    /// Learner indices from the best average rank to the worst (ties by index).
    order: Vec<usize>,
    /// How many learners are labelled on the left.
    left_count: usize,
    width: u32,
    height: u32,
    /// The x of rank 1 and of rank k.
    left: i32,
    right: i32,
    /// The y of the scale bar, the control's caption and interval, the axis, the first group
    /// bar and the first label row.
    scale_y: i32,
    control_caption_y: i32,
    control_y: i32,
    axis_y: i32,
    groups_top: i32,
    labels_top: i32,
}

impl<'d> CdLayout<'d> {
    /// Lays out a checked diagram: margins wide enough for the longest label, then from the top
    /// the title, the scale bar, the control (if any), the axis, the groups and the labels.
    fn new(diagram: &'d CriticalDifferenceDiagram) -> Self {
        let k = diagram.labels.len();
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by(|&a, &b| {
            diagram.ranks[a]
                .total_cmp(&diagram.ranks[b])
                .then(a.cmp(&b))
        });
        let left_count = k.div_ceil(2);
        let longest = order
            .iter()
            .map(|&i| label_text(diagram, i).chars().count())
            .max()
            .unwrap_or(0) as u32;
        let margin = (longest * CHARACTER_WIDTH + 40).clamp(120, 360);
        let width = (2 * margin + 420).max(760);
        let title_height = if diagram.title.is_empty() { 0 } else { 40 };
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
        let labels_top = groups_top + GROUP_GAP * diagram.groups.len() as i32 + 16;
        let height = (labels_top + ROW_HEIGHT * (left_count as i32 - 1) + 30) as u32;
        CdLayout {
            diagram,
            order,
            left_count,
            width,
            height,
            left: margin as i32,
            right: (width - margin) as i32,
            scale_y,
            control_caption_y,
            control_y,
            axis_y,
            groups_top,
            labels_top,
        }
    }

    /// The highest rank, k.
    fn highest(&self) -> f64 {
        self.diagram.labels.len() as f64
    }

    /// The x (pixel) of an average rank on the axis.
    fn x(&self, rank: f64) -> i32 {
        let (left, right) = (self.left, self.right);
        let x = left as f64 + (rank - 1.0) / (self.highest() - 1.0) * (right - left) as f64;
        x.round() as i32
    }

    /// The axis with a tick at every rank and a shorter one at every half rank.
    fn draw_axis(&self, pen: &Pen) -> Result<(), ReportError> {
        let (x, axis_y) = (|rank| self.x(rank), self.axis_y);
        pen.line(vec![(self.left, axis_y), (self.right, axis_y)], THIN_BLACK)?;
        for step in 0..=(2 * (self.diagram.labels.len() - 1)) {
            let rank = 1.0 + step as f64 / 2.0;
            let tall = step % 2 == 0;
            pen.line(
                vec![
                    (x(rank), axis_y),
                    (x(rank), axis_y - if tall { 8 } else { 4 }),
                ],
                THIN_BLACK,
            )?;
            if tall {
                pen.text(
                    format!("{rank:.0}"),
                    (x(rank), axis_y - 10),
                    &text_style(LABEL_SIZE, HPos::Center, VPos::Bottom),
                )?;
            }
        }
        Ok(())
    }

    /// The scale bar: the critical difference, from rank 1, with its caption.
    fn draw_scale_bar(&self, pen: &Pen) -> Result<(), ReportError> {
        let (difference, caption) = &self.diagram.critical_difference;
        let scale_y = self.scale_y;
        let end = (1.0 + difference).min(self.highest());
        pen.line(
            vec![(self.x(1.0), scale_y), (self.x(end), scale_y)],
            THICK_BLACK,
        )?;
        for at in [self.x(1.0), self.x(end)] {
            pen.line(vec![(at, scale_y - 5), (at, scale_y + 5)], THIN_BLACK)?;
        }
        pen.text(
            format!("{caption} = {difference:.3}"),
            (self.x(end) + 10, scale_y),
            &text_style(LABEL_SIZE, HPos::Left, VPos::Center),
        )
    }

    /// The control's interval of +- `half_width` around its rank, with its caption.
    fn draw_control(&self, pen: &Pen, control: usize, half_width: f64) -> Result<(), ReportError> {
        let accent = ShapeStyle {
            color: color(PALETTE[1]).to_rgba(),
            filled: true,
            stroke_width: 3,
        };
        let rank = self.diagram.ranks[control];
        let (low, high) = (
            (rank - half_width).max(1.0),
            (rank + half_width).min(self.highest()),
        );
        let control_y = self.control_y;
        pen.line(
            vec![(self.x(low), control_y), (self.x(high), control_y)],
            accent,
        )?;
        pen.circle((self.x(rank), control_y), 4, accent)?;
        pen.text(
            format!(
                "{} \u{b1} {:.3} (Bonferroni-Dunn, control)",
                self.diagram.labels[control], half_width
            ),
            ((self.left + self.right) / 2, self.control_caption_y),
            &text_style(LABEL_SIZE, HPos::Center, VPos::Center).color(&color(PALETTE[1])),
        )
    }

    /// A thick bar under each group of learners not significantly different.
    fn draw_groups(&self, pen: &Pen) -> Result<(), ReportError> {
        for (row, group) in self.diagram.groups.iter().enumerate() {
            let ranks = group.iter().map(|&index| self.diagram.ranks[index]);
            let low = ranks.clone().fold(f64::INFINITY, f64::min);
            let high = ranks.fold(f64::NEG_INFINITY, f64::max);
            let y = self.groups_top + GROUP_GAP * row as i32;
            pen.line(
                vec![(self.x(low) - 4, y), (self.x(high) + 4, y)],
                THICK_BLACK,
            )?;
        }
        Ok(())
    }

    /// Each learner: a line from its rank down to its row, then out to its label.
    fn draw_learners(&self, pen: &Pen) -> Result<(), ReportError> {
        let k = self.diagram.labels.len();
        for (position, &index) in self.order.iter().enumerate() {
            let on_left = position < self.left_count;
            let row = if on_left { position } else { k - 1 - position };
            let y = self.labels_top + ROW_HEIGHT * row as i32;
            let at = self.x(self.diagram.ranks[index]);
            let outer = if on_left {
                self.left - 12
            } else {
                self.right + 12
            };
            pen.line(vec![(at, self.axis_y), (at, y), (outer, y)], THIN_BLACK)?;
            let style = if on_left {
                text_style(LABEL_SIZE, HPos::Right, VPos::Center)
            } else {
                text_style(LABEL_SIZE, HPos::Left, VPos::Center)
            };
            pen.text(
                label_text(self.diagram, index),
                (outer + if on_left { -4 } else { 4 }, y),
                &style,
            )?;
        }
        Ok(())
    }
}

/// A learner's label in a critical-difference diagram: its name and average rank.
fn label_text(diagram: &CriticalDifferenceDiagram, index: usize) -> String {
    format!("{} ({:.2})", diagram.labels[index], diagram.ranks[index])
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
