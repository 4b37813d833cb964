//! For the multi-class datasets of the Aslan set, the two classes leave-one-out 1-NN confuses
//! most, with the confusion counts and the time taken.
//!
//! `cargo run -p data --example most_confused [--lower-row] [NAME ...]` (default: rows tied at
//! the nearest distance vote, as in Weka's IBk; `--lower-row`: the lowest row index wins).

use std::time::Instant;

fn main() -> Result<(), data::DataError> {
    let catalog = data::Catalog::locate()?;
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    let rule = if names.iter().any(|a| a == "--lower-row") {
        names.retain(|a| a != "--lower-row");
        data::TieRule::LowerRow
    } else {
        data::TieRule::Vote
    };
    if names.is_empty() {
        names = [
            "satimage",
            "optdigits",
            "page-blocks",
            "shuttle",
            "nursery",
            "kr-vs-k",
            "waveform-21",
        ]
        .map(String::from)
        .to_vec();
    }
    for name in &names {
        let dataset = catalog.load(name)?;
        let start = Instant::now();
        let (reduced, record) = data::reduce_to_most_confused_with(&dataset, rule)?;
        let elapsed = start.elapsed();
        let (a, b) = record.pair;
        println!(
            "{name}: {} rows, {} classes -> '{}' vs '{}' ({} + {} confusions), {} rows kept [{:.2?}]",
            dataset.len(),
            dataset.num_classes(),
            record.class_values[a],
            record.class_values[b],
            record.pair_confusions.0,
            record.pair_confusions.1,
            reduced.len(),
            elapsed
        );
        println!("  {}", record.reason);
        // The largest off-diagonal symmetric counts, for context.
        let mut pairs = Vec::new();
        for i in 0..record.confusion.len() {
            for j in i + 1..record.confusion.len() {
                let count = record.confusion[i][j] + record.confusion[j][i];
                if count > 0 {
                    pairs.push((count, i, j));
                }
            }
        }
        pairs.sort_by(|x, y| y.0.cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
        let top: Vec<String> = pairs
            .iter()
            .take(3)
            .map(|(count, i, j)| {
                format!(
                    "{}/{}: {count}",
                    record.class_values[*i], record.class_values[*j]
                )
            })
            .collect();
        println!("  largest symmetric confusions: {}", top.join(", "));
    }
    Ok(())
}
