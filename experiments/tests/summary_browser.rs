//! The browser check of the report's first screen: the report of
//! `experiments/configs/aslan-quick.toml`, rendered by headless Chromium (Debian's `chromium`)
//! in a 1366 x 768 window, has its summary (the verdict, the leaderboard and the figure that
//! carries the result) inside the first screen, and no element widens the page (a wide table
//! scrolls in its own box). The page is measured by a script injected into a copy of it
//! (`tests/data/summary/probe.js`), whose result Chromium prints with `--dump-dom`. Skipped,
//! saying so, when `chromium` is absent (`apt-get install -y chromium`; CI installs it).

mod common;

use std::path::Path;
use std::process::Command;

use common::{run, scratch, stderr, workspace_root};

/// The window the first screen is measured in.
const WINDOW: (f64, f64) = (1366.0, 768.0);

/// The summary's elements that must lie inside the first screen.
const FIRST_SCREEN: [&str; 4] = ["summary", "verdict", "leaderboard", "summary-figure"];

/// True when `chromium --version` runs.
fn chromium_present() -> bool {
    Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// The probe's JSON from `index.html` of `folder` as Chromium lays it out.
fn measure(folder: &Path) -> serde_json::Value {
    let page = std::fs::read_to_string(folder.join("index.html")).unwrap();
    let probe = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/summary/probe.js"),
    )
    .unwrap();
    let probed = page.replacen("</body>", &format!("<script>{probe}</script></body>"), 1);
    let copy = folder.join("probe.html");
    std::fs::write(&copy, probed).unwrap();
    let output = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-background-networking",
            &format!("--window-size={},{}", WINDOW.0, WINDOW.1),
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", copy.canonicalize().unwrap().display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&output.stdout);
    let start = dom
        .rfind("<pre id=\"probe-result\">")
        .unwrap_or_else(|| panic!("no probe result in the DOM: {}", stderr(&output)));
    let text = &dom[start + "<pre id=\"probe-result\">".len()..];
    let text = &text[..text.find("</pre>").unwrap()];
    serde_json::from_str(&text.replace("&quot;", "\"").replace("&amp;", "&")).unwrap()
}

#[test]
fn the_summary_of_aslan_quick_fits_the_first_screen_and_nothing_widens_the_page() {
    if !chromium_present() {
        eprintln!(
            "skipped: Debian's `chromium` is not installed (apt-get install -y chromium), so the \
             report cannot be rendered"
        );
        return;
    }
    let results = scratch("summary-browser", "aslan-quick");
    let config = workspace_root().join("experiments/configs/aslan-quick.toml");
    let output = run(&["--config", config.to_str().unwrap()], &results);
    assert!(output.status.success(), "{}", stderr(&output));
    let probe = measure(&results.join("aslan-quick"));
    let width = probe["viewport"][0].as_f64().unwrap();
    let height = probe["viewport"][1].as_f64().unwrap();
    assert!(
        width <= WINDOW.0 && height <= WINDOW.1 && height > 500.0,
        "{probe}"
    );
    for id in FIRST_SCREEN {
        let bounds = probe["boxes"][id]
            .as_array()
            .unwrap_or_else(|| panic!("no element with id '{id}': {probe}"));
        let [left, top, right, bottom] = [0, 1, 2, 3].map(|i| bounds[i].as_f64().unwrap());
        assert!(
            left >= 0.0 && top >= 0.0 && right <= width + 0.5 && bottom <= height + 0.5,
            "'{id}' lies at {bounds:?}, outside the first screen of {width} x {height}"
        );
    }
    assert!(
        probe["scroll_width"].as_f64().unwrap() <= width + 0.5,
        "the page is wider than the window: {probe}"
    );
    assert_eq!(
        probe["overflowing"].as_array().unwrap().len(),
        0,
        "elements wider than the page: {probe}"
    );
    let _ = std::fs::remove_dir_all(&results);
}
