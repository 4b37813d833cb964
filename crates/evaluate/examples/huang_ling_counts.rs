//! Prints Huang & Ling's exact counts R, S, P, Q (AUC against accuracy over every ranking) as
//! CSV, one row per configuration, by the same dynamic program the report uses.
//! Run: `cargo run --release -p evaluate --example huang_ling_counts -- 2:2 1:3 100:100`
//! (arguments: POSITIVES:NEGATIVES; `scripts/fidelity/huang_ling_counts.sh` passes the report's
//! configurations).

use evaluate::RankingHistogram;

/// Parses one `POSITIVES:NEGATIVES` argument.
fn parse(argument: &str) -> Result<(usize, usize), String> {
    let (p, n) = argument
        .split_once(':')
        .ok_or_else(|| format!("'{argument}': expected POSITIVES:NEGATIVES, e.g. 5:15"))?;
    let number = |text: &str| {
        text.parse::<usize>()
            .map_err(|_| format!("'{argument}': '{text}' is not a whole number"))
    };
    Ok((number(p)?, number(n)?))
}

fn main() {
    let sizes: Result<Vec<(usize, usize)>, String> =
        std::env::args().skip(1).map(|a| parse(&a)).collect();
    let sizes = match sizes {
        Ok(sizes) if !sizes.is_empty() => sizes,
        Ok(_) => {
            eprintln!("give at least one POSITIVES:NEGATIVES, e.g. 10:10 5:15");
            std::process::exit(2);
        }
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    println!("positives,negatives,R,S,P,Q");
    for (positives, negatives) in sizes {
        let counts = match RankingHistogram::by_dynamic_program(positives, negatives) {
            Ok(histogram) => histogram.auc_vs_accuracy(),
            Err(e) => {
                eprintln!("{positives}:{negatives}: {e}");
                std::process::exit(1);
            }
        };
        println!(
            "{positives},{negatives},{},{},{},{}",
            counts.r, counts.s, counts.p, counts.q
        );
    }
}
