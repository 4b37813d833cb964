//! SVG plots are well-formed XML, carry their legend labels as text, and refuse bad input.

use quick_xml::events::Event;
use quick_xml::Reader;
use report::{
    box_plot, critical_difference_diagram, distribution_plot, line_plot, roc_plot, simplex_plot,
    BoxGroup, CriticalDifferenceDiagram, Curve, Distribution, ErrorBar, Interval, PlotOptions,
    ReportError, Simplex, PALETTE,
};

/// Parses the SVG (quick-xml checks that end tags match) and returns the element names and
/// the text content of every `<text>` element, entity references decoded.
fn parse_svg(svg: &str) -> (Vec<String>, Vec<String>) {
    let mut reader = Reader::from_str(svg);
    let mut elements = Vec::new();
    let mut texts = Vec::new();
    let mut open: Vec<String> = Vec::new();
    let mut current_text = String::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(start) => {
                let name = String::from_utf8(start.name().as_ref().to_vec()).unwrap();
                elements.push(name.clone());
                open.push(name);
                current_text.clear();
            }
            Event::Empty(empty) => {
                elements.push(String::from_utf8(empty.name().as_ref().to_vec()).unwrap());
            }
            Event::End(end) => {
                let name = String::from_utf8(end.name().as_ref().to_vec()).unwrap();
                assert_eq!(open.pop().as_deref(), Some(name.as_str()));
                if name == "text" {
                    texts.push(current_text.trim().to_string());
                }
            }
            Event::Text(text) => current_text.push_str(&text.decode().unwrap()),
            Event::GeneralRef(reference) => {
                let decoded = match reference.decode().unwrap().as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    other => panic!("unexpected entity {other}"),
                };
                current_text.push_str(decoded);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(open.is_empty(), "unclosed elements {open:?}");
    assert_eq!(elements.first().map(String::as_str), Some("svg"));
    (elements, texts)
}

fn staircase(steps: usize) -> Vec<(f64, f64)> {
    (0..=steps)
        .map(|step| {
            let x = step as f64 / steps as f64;
            (x, x.sqrt())
        })
        .collect()
}

#[test]
fn roc_plot_is_well_formed_with_legend_labels_and_marked_points() {
    let mut first = Curve::new("naive Bayes <NB> & co", staircase(10), PALETTE[0]);
    first.marked.push((0.3, 0.55));
    let mut second = Curve::new("C4.5", staircase(4), PALETTE[1]);
    second.marked.push((0.5, 0.7));
    second.error_bars.push(ErrorBar {
        at: (0.5, 0.7),
        x_interval: Some((0.45, 0.55)),
        y_interval: Some((0.6, 0.8)),
    });
    let svg = roc_plot(&PlotOptions::roc("Two learners"), &[first, second]).unwrap();
    let (elements, texts) = parse_svg(&svg);
    for expected in [
        "naive Bayes <NB> & co",
        "C4.5",
        "Two learners",
        "False positive rate",
        "True positive rate",
    ] {
        assert!(
            texts.iter().any(|t| t == expected),
            "{expected} in {texts:?}"
        );
    }
    // Two marked points, each a filled and an outline circle.
    assert!(elements.iter().filter(|e| *e == "circle").count() >= 4);
}

#[test]
fn many_faint_fold_curves_get_one_legend_entry_per_learner() {
    let mut curves = Vec::new();
    for (learner, name) in ["k-NN", "SVM"].iter().enumerate() {
        for _ in 0..30 {
            curves.push(Curve::faint(staircase(5), PALETTE[learner]));
        }
        curves.push(Curve::new(*name, Vec::new(), PALETTE[learner]));
    }
    let svg = roc_plot(&PlotOptions::roc(""), &curves).unwrap();
    let (elements, texts) = parse_svg(&svg);
    assert_eq!(texts.iter().filter(|t| *t == "k-NN").count(), 1);
    assert_eq!(texts.iter().filter(|t| *t == "SVM").count(), 1);
    // 60 fold curves, the diagonal, and the legend glyphs are polylines.
    assert!(elements.iter().filter(|e| *e == "polyline").count() >= 61);
    assert!(svg.contains("opacity=\"0.3\""));
}

#[test]
fn distribution_plot_has_bars_intervals_and_labels() {
    let distributions = [
        Distribution {
            label: "k-NN".to_string(),
            values: vec![0.80, 0.81, 0.81, 0.83, 0.85],
            color: PALETTE[0],
        },
        Distribution {
            label: "SVM".to_string(),
            values: vec![0.84, 0.86, 0.86, 0.88, 0.90],
            color: PALETTE[1],
        },
    ];
    let intervals = [Interval {
        label: Some("SVM 95% CI".to_string()),
        low: 0.84,
        high: 0.89,
        center: Some(0.868),
        color: PALETTE[1],
    }];
    let options = PlotOptions::new("AUC over folds", "AUC", "Number of folds");
    let svg = distribution_plot(&options, &distributions, &intervals, 5).unwrap();
    let (elements, texts) = parse_svg(&svg);
    for expected in ["k-NN", "SVM", "SVM 95% CI", "AUC", "Number of folds"] {
        assert!(
            texts.iter().any(|t| t == expected),
            "{expected} in {texts:?}"
        );
    }
    assert!(elements.iter().filter(|e| *e == "rect").count() >= 5);
}

#[test]
fn line_plot_has_series_labels() {
    let mut consistency = Curve::new("C", vec![(4.0, 0.9), (8.0, 0.95)], PALETTE[0]);
    consistency.show_points = true;
    let discriminancy = Curve::new("D", vec![(4.0, 3.0), (8.0, 5.0)], PALETTE[1]);
    let options = PlotOptions::new("C and D", "2n", "value");
    let svg = line_plot(&options, &[consistency, discriminancy]).unwrap();
    let (_, texts) = parse_svg(&svg);
    assert!(texts.iter().any(|t| t == "C") && texts.iter().any(|t| t == "D"));
    assert!(texts.iter().any(|t| t == "2n"));
}

#[test]
fn bad_plot_input_is_an_error_naming_the_problem() {
    let curve = Curve::new("broken", vec![(0.0, 0.0), (f64::NAN, 0.5)], PALETTE[0]);
    let error = roc_plot(&PlotOptions::roc("p"), &[curve]).unwrap_err();
    assert!(matches!(error, ReportError::BadPlotInput { .. }));
    assert!(
        error.to_string().contains("curve 'broken': point 1"),
        "{error}"
    );

    let options = PlotOptions::new("h", "x", "y");
    let error = distribution_plot(&options, &[], &[], 0).unwrap_err();
    assert!(error.to_string().contains("bins = 0"), "{error}");

    let mut tiny = PlotOptions::roc("tiny");
    tiny.size = (50, 50);
    assert!(roc_plot(&tiny, &[]).is_err());

    let mut reversed = PlotOptions::new("r", "x", "y");
    reversed.x_range = Some((1.0, 0.0));
    let error = line_plot(&reversed, &[]).unwrap_err();
    assert!(error.to_string().contains("x range"), "{error}");
}

#[test]
fn box_plot_names_the_categories_and_the_series_and_draws_outliers() {
    let series = |label: &str, values: Vec<f64>, color| Distribution {
        label: label.to_string(),
        values,
        color,
    };
    let groups = [
        BoxGroup {
            label: "pima".to_string(),
            boxes: vec![
                series("nb", vec![0.20, 0.22, 0.23, 0.24, 0.60], PALETTE[0]),
                series("c45", vec![0.25, 0.26, 0.27, 0.28, 0.29], PALETTE[1]),
            ],
        },
        BoxGroup {
            label: "sonar".to_string(),
            boxes: vec![
                series("nb", vec![0.30, 0.31], PALETTE[0]),
                series("c45", Vec::new(), PALETTE[1]),
            ],
        },
    ];
    let svg = box_plot(&PlotOptions::new("error", "dataset", "error"), &groups).unwrap();
    let (elements, texts) = parse_svg(&svg);
    for expected in ["pima", "sonar", "nb", "c45", "dataset"] {
        assert!(
            texts.iter().any(|t| t == expected),
            "{expected} in {texts:?}"
        );
    }
    // 0.60 lies beyond 1.5 interquartile ranges of nb's box on pima: one outlier dot.
    assert_eq!(elements.iter().filter(|e| *e == "circle").count(), 1);
    let mut bad = groups.clone();
    bad[1].boxes[0].values.push(f64::NAN);
    let error = box_plot(&PlotOptions::new("error", "dataset", "error"), &bad).unwrap_err();
    assert!(
        error.to_string().contains("category 'sonar', series 'nb'"),
        "{error}"
    );
}

#[test]
fn critical_difference_diagram_labels_every_learner_with_its_rank() {
    let diagram = CriticalDifferenceDiagram {
        title: "AUC".to_string(),
        labels: vec![
            "C4.5".into(),
            "naive Bayes".into(),
            "k-NN".into(),
            "RIPPER".into(),
        ],
        ranks: vec![3.143, 2.0, 2.893, 1.964],
        critical_difference: (1.25, "CD".to_string()),
        groups: vec![vec![3, 1, 2], vec![2, 0]],
        control: Some((1, 1.17)),
    };
    let svg = critical_difference_diagram(&diagram).unwrap();
    let (_, texts) = parse_svg(&svg);
    for expected in [
        "C4.5 (3.14)",
        "naive Bayes (2.00)",
        "k-NN (2.89)",
        "RIPPER (1.96)",
        "CD = 1.250",
        "naive Bayes \u{b1} 1.170 (Bonferroni-Dunn, control)",
        "AUC",
    ] {
        assert!(
            texts.iter().any(|t| t == expected),
            "{expected} in {texts:?}"
        );
    }
    let mut bad = diagram.clone();
    bad.ranks[0] = 4.5;
    let error = critical_difference_diagram(&bad).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("rank of 'C4.5' = 4.5 is outside [1, 4]"),
        "{error}"
    );
}

#[test]
fn simplex_plot_draws_the_samples_and_the_corner_probabilities() {
    let simplex = Simplex {
        title: "a vs b".to_string(),
        corners: ["b better".into(), "equivalent".into(), "a better".into()],
        probabilities: [0.1, 0.2, 0.7],
        samples: vec![[0.1, 0.2, 0.7], [0.0, 0.0, 1.0], [1.0 / 3.0; 3]],
    };
    let svg = simplex_plot(&simplex).unwrap();
    let (elements, texts) = parse_svg(&svg);
    for expected in [
        "b better: 0.100",
        "equivalent: 0.200",
        "a better: 0.700",
        "a vs b",
    ] {
        assert!(
            texts.iter().any(|t| t == expected),
            "{expected} in {texts:?}"
        );
    }
    assert_eq!(elements.iter().filter(|e| *e == "circle").count(), 3);
    let mut bad = simplex.clone();
    bad.samples.push([0.5, 0.5, 0.5]);
    let error = simplex_plot(&bad).unwrap_err();
    assert!(error.to_string().contains("sample 3"), "{error}");
}
