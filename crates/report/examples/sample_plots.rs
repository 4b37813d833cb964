//! Writes one SVG of each plot kind, with made-up data, into the directory given as the first
//! argument (default `target/report-samples`), to look at them:
//! `cargo run -p report --example sample_plots -- /tmp/plots`.

use report::{
    distribution_plot, line_plot, roc_plot, write_file, Cell, Curve, Distribution, ErrorBar,
    HtmlPage, Interval, LegendPosition, PlotOptions, Table, PALETTE,
};

/// A smooth made-up ROC curve tpr = fpr^(1/strength), with a small wobble per fold.
fn roc_points(strength: f64, wobble: f64) -> Vec<(f64, f64)> {
    (0..=20)
        .map(|step| {
            let fpr = step as f64 / 20.0;
            let tpr = (fpr.powf(1.0 / strength) + wobble * (fpr * 9.0).sin() * fpr * (1.0 - fpr))
                .clamp(0.0, 1.0);
            (fpr, tpr)
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let directory = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/report-samples".to_string());
    let directory = std::path::Path::new(&directory);

    // Several curves with default-threshold points.
    let mut first = Curve::new("naive Bayes (AUC 0.87)", roc_points(3.0, 0.0), PALETTE[0]);
    first.marked.push((0.2, 0.58));
    let mut second = Curve::new("C4.5 (AUC 0.79)", roc_points(2.0, 0.0), PALETTE[1]);
    second.marked.push((0.3, 0.55));
    let mut hull = Curve::new(
        "C4.5 convex hull",
        vec![(0.0, 0.0), (0.05, 0.3), (0.3, 0.62), (1.0, 1.0)],
        PALETTE[1],
    );
    hull.dashed = true;
    hull.width = 1;
    let svg = roc_plot(&PlotOptions::roc("ROC curves"), &[first, second, hull])?;
    write_file(&directory.join("roc.svg"), &svg)?;

    // 30 faint fold curves per learner, one labelled curve each.
    let mut curves = Vec::new();
    for (learner, (name, strength)) in [("k-NN", 2.5), ("SVM", 4.0)].into_iter().enumerate() {
        for fold in 0..30 {
            let wobble = (fold as f64 - 15.0) / 20.0;
            curves.push(Curve::faint(roc_points(strength, wobble), PALETTE[learner]));
        }
        curves.push(Curve::new(
            name,
            roc_points(strength, 0.0),
            PALETTE[learner],
        ));
    }
    let svg = roc_plot(&PlotOptions::roc("30 folds, two learners"), &curves)?;
    write_file(&directory.join("roc_folds.svg"), &svg)?;

    // Averaged ROC curve with vertical confidence bars.
    let mut averaged = Curve::new("vertical average, 95% CI", roc_points(3.0, 0.0), PALETTE[2]);
    averaged.error_bars = averaged
        .points
        .iter()
        .step_by(2)
        .map(|&(x, y)| ErrorBar {
            at: (x, y),
            x_interval: None,
            y_interval: Some(((y - 0.08).max(0.0), (y + 0.08).min(1.0))),
        })
        .collect();
    let svg = roc_plot(&PlotOptions::roc("Averaged ROC curve"), &[averaged])?;
    write_file(&directory.join("roc_averaged.svg"), &svg)?;

    // AUC over 30 folds for two learners with confidence intervals above.
    let values = |center: f64| -> Vec<f64> {
        (0..30)
            .map(|fold| {
                center + 0.04 * ((fold as f64 * 2.4).sin() + (fold as f64 * 0.7).cos()) / 2.0
            })
            .collect()
    };
    let distributions = [
        Distribution {
            label: "k-NN".to_string(),
            values: values(0.84),
            color: PALETTE[0],
        },
        Distribution {
            label: "SVM".to_string(),
            values: values(0.88),
            color: PALETTE[1],
        },
    ];
    let intervals = [
        Interval {
            label: Some("k-NN 95% CI".to_string()),
            low: 0.81,
            high: 0.87,
            center: Some(0.84),
            color: PALETTE[0],
        },
        Interval {
            label: Some("SVM 95% CI".to_string()),
            low: 0.85,
            high: 0.91,
            center: Some(0.88),
            color: PALETTE[1],
        },
    ];
    let mut options = PlotOptions::new("AUC over 30 folds", "AUC", "Number of folds");
    options.legend = LegendPosition::UpperLeft;
    let svg = distribution_plot(&options, &distributions, &intervals, 12)?;
    write_file(&directory.join("distribution.svg"), &svg)?;

    // C and D against 2n.
    let sizes = [4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0];
    let mut consistency = Curve::new(
        "C (consistency)",
        sizes.iter().map(|&n| (n, 0.95 - 0.1 / n)).collect(),
        PALETTE[0],
    );
    consistency.show_points = true;
    let mut discriminancy = Curve::new(
        "D (discriminancy)",
        sizes.iter().map(|&n| (n, 3.0 + n / 2.0)).collect(),
        PALETTE[1],
    );
    discriminancy.show_points = true;
    let mut options = PlotOptions::new("AUC vs accuracy", "2n (test set size)", "value");
    options.legend = LegendPosition::UpperLeft;
    let svg = line_plot(&options, &[consistency, discriminancy])?;
    write_file(&directory.join("line.svg"), &svg)?;

    // A page showing them all with a small table.
    let mut table = Table::new(
        "AUC (made-up numbers)",
        vec![
            "Learner".to_string(),
            "AUC".to_string(),
            "folds".to_string(),
        ],
    );
    table.push_row(vec![
        Cell::text("k-NN"),
        Cell::number(0.8412),
        Cell::integer(30),
    ]);
    table.push_row(vec![
        Cell::text("SVM"),
        Cell::number(0.8803).bold().with_marker("*"),
        Cell::integer(30),
    ]);
    table.push_note("* significantly better at 0.05 (made up)");
    let mut page = HtmlPage::new("Sample report");
    page.heading("Table");
    page.table(&table)?;
    page.heading("Plots");
    for name in ["roc", "roc_folds", "roc_averaged", "distribution", "line"] {
        page.image(&format!("{name}.svg"), name);
    }
    write_file(&directory.join("index.html"), &page.render())?;

    println!(
        "wrote 5 SVG files and index.html to {}",
        directory.display()
    );
    Ok(())
}
