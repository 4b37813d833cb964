//! Reliability diagrams: well-formed SVG with a panel per model (its title, a point and an
//! interval bar per filled bin, a count bar per bin), and bad input refused naming the panel.

use report::{reliability_plot, PlotOptions, ReliabilityPanel, ReliabilityPoint, PALETTE};

fn panel(label: &str, color: usize) -> ReliabilityPanel {
    let bins = (0..4)
        .map(|k| {
            let (low, high) = (k as f64 / 4.0, (k + 1) as f64 / 4.0);
            ReliabilityPoint {
                edges: (low, high),
                count: if k == 2 { 0.0 } else { 10.0 + k as f64 },
                point: (k != 2).then_some((low + 0.1, low + 0.05, (low, low + 0.2))),
            }
        })
        .collect();
    ReliabilityPanel {
        label: label.to_string(),
        color: PALETTE[color],
        bins,
    }
}

#[test]
fn each_model_gets_a_panel_with_its_title_points_and_counts() {
    let options = PlotOptions::new("reliability", "predicted probability", "observed frequency");
    let svg = reliability_plot(&options, &[panel("nb", 0), panel("c45", 1)]).unwrap();
    let parsed: Vec<&str> = svg.split('<').collect();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let texts: Vec<&str> = parsed
        .iter()
        .filter(|e| e.starts_with("text"))
        .filter_map(|e| e.split_once('>').map(|(_, text)| text.trim()))
        .collect();
    for text in ["reliability", "nb", "c45", "count", "observed frequency"] {
        assert!(texts.contains(&text), "no text {text} in {texts:?}");
    }
    // 3 filled bins a panel: one dot each.
    assert_eq!(parsed.iter().filter(|e| e.starts_with("circle")).count(), 6);
    // 4 count bars a panel (the empty bin's has no height but is drawn) and the background.
    assert!(parsed.iter().filter(|e| e.starts_with("rect")).count() >= 8);
}

#[test]
fn bad_reliability_input_is_an_error_naming_the_panel() {
    let options = PlotOptions::new("r", "x", "y");
    assert!(reliability_plot(&options, &[]).is_err());
    let mut broken = panel("broken", 0);
    broken.bins[0].count = f64::NAN;
    let error = reliability_plot(&options, &[broken]).unwrap_err();
    assert!(error.to_string().contains("panel 'broken'"), "{error}");
}
