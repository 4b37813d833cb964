//! Times `stats::bootstrap_auc` on a CSV file of `label,score` rows (header line first):
//! `cargo run --release -p stats --example bootstrap_speed -- FILE [RESAMPLES] [SEED]`.
//! Prints the AUC, the percentile and BCa intervals and the seconds spent in the bootstrap.
//! Used by scripts/bootstrap_speed.sh beside pROC's `ci.auc(method = "bootstrap")`.

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .ok_or("usage: bootstrap_speed FILE [RESAMPLES] [SEED]")?;
    let resamples: usize = args.get(2).map_or(Ok(2000), |s| s.parse())?;
    let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let text = std::fs::read_to_string(path)?;
    let (mut labels, mut scores) = (Vec::new(), Vec::new());
    for (number, line) in text.lines().enumerate().skip(1) {
        let mut fields = line.split(',');
        let bad = || format!("{path}:{}: expected `label,score`", number + 1);
        let label: f64 = fields.next().ok_or_else(bad)?.trim().parse()?;
        let score: f64 = fields.next().ok_or_else(bad)?.trim().parse()?;
        labels.push(label == 1.0);
        scores.push(score);
    }
    let options = stats::BootstrapOptions::new(resamples, 0.05, seed)?;
    let start = Instant::now();
    let result = stats::bootstrap_auc(&labels, &scores, &options)?;
    let seconds = start.elapsed().as_secs_f64();
    let bca = result.bca.map(|b| (b.interval.low, b.interval.high));
    println!(
        "n {} resamples {resamples} auc {:.6} percentile [{:.6}, {:.6}] bca {bca:?} seconds {seconds:.3}",
        labels.len(),
        result.estimate,
        result.percentile.low,
        result.percentile.high
    );
    Ok(())
}
