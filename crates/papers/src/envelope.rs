//! The replication envelope: a paper's headline figures over many seeds, committed as
//! `docs/reproductions/<paper>/seeds.csv` (one row per seed, made by
//! `scripts/fidelity/run_seeds.py` and `scripts/fidelity/seeds_collect.py`), and where a
//! published value lies among them.

use crate::error::{Error, Result};

/// Aslan et al.'s seed runs (`docs/reproductions/aslan/seeds.csv`), as committed.
pub const ASLAN_SEEDS: &str = include_str!("../../../docs/reproductions/aslan/seeds.csv");

/// Wu & Flach's seed runs (`docs/reproductions/wu_flach/seeds.csv`), as committed.
pub const WU_FLACH_SEEDS: &str = include_str!("../../../docs/reproductions/wu_flach/seeds.csv");

/// Provost et al.'s seed runs (`docs/reproductions/provost/seeds.csv`), as committed.
pub const PROVOST_SEEDS: &str = include_str!("../../../docs/reproductions/provost/seeds.csv");

/// A seeds.csv: its column names and one row of numbers per seed.
#[derive(Clone, Debug)]
pub struct SeedRuns {
    /// Where the table comes from (for messages).
    file: String,
    /// Column names, `seed` first.
    columns: Vec<String>,
    /// One row per seed.
    rows: Vec<Vec<f64>>,
}

/// A figure's spread over the seeds and where a published value lies in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope {
    /// Number of seeds.
    pub seeds: usize,
    /// Lowest value over the seeds.
    pub min: f64,
    /// Median over the seeds.
    pub median: f64,
    /// Highest value over the seeds.
    pub max: f64,
    /// The published value.
    pub published: f64,
    /// Its mid-rank percentile among the seeds: 100 (#{x < v} + #{x = v} / 2) / n.
    pub percentile: f64,
}

/// The mid-rank percentile of `value` among `values` (scipy's `percentileofscore`, kind
/// "mean"): 0 below every value, 100 above every value.
pub fn percentile(values: &[f64], value: f64) -> f64 {
    let below = values.iter().filter(|&&x| x < value).count() as f64;
    let equal = values.iter().filter(|&&x| x == value).count() as f64;
    100.0 * (below + equal / 2.0) / values.len().max(1) as f64
}

/// The median (the mean of the two middle values for an even count).
fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

impl SeedRuns {
    /// Parses a seeds.csv (a header, then numbers; an empty cell is not allowed).
    pub fn parse(file: &str, text: &str) -> Result<SeedRuns> {
        let problem = |problem: String| Error::Published {
            file: file.to_string(),
            problem,
        };
        let mut lines = text.lines().filter(|line| !line.trim().is_empty());
        let header = lines.next().ok_or_else(|| problem("empty file".into()))?;
        let columns: Vec<String> = header.split(',').map(str::to_string).collect();
        let mut rows = Vec::new();
        for (i, line) in lines.enumerate() {
            let row = line
                .split(',')
                .map(|cell| cell.trim().parse::<f64>())
                .collect::<std::result::Result<Vec<f64>, _>>()
                .map_err(|_| problem(format!("line {}: not a number in '{line}'", i + 2)))?;
            if row.len() != columns.len() {
                return Err(problem(format!(
                    "line {}: {} cells, the header has {}",
                    i + 2,
                    row.len(),
                    columns.len()
                )));
            }
            rows.push(row);
        }
        Ok(SeedRuns {
            file: file.to_string(),
            columns,
            rows,
        })
    }

    /// Number of seeds (rows).
    pub fn seeds(&self) -> usize {
        self.rows.len()
    }

    /// The values of one column over the seeds.
    pub fn column(&self, name: &str) -> Result<Vec<f64>> {
        let index =
            self.columns
                .iter()
                .position(|c| c == name)
                .ok_or_else(|| Error::Published {
                    file: self.file.clone(),
                    problem: format!("no column '{name}'"),
                })?;
        Ok(self.rows.iter().map(|row| row[index]).collect())
    }

    /// The spread of one column and where `published` lies in it.
    pub fn envelope(&self, name: &str, published: f64) -> Result<Envelope> {
        let mut values = self.column(name)?;
        values.sort_by(f64::total_cmp);
        Ok(Envelope {
            seeds: values.len(),
            min: values.first().copied().unwrap_or(f64::NAN),
            median: median(&values),
            max: values.last().copied().unwrap_or(f64::NAN),
            published,
            percentile: percentile(&values, published),
        })
    }
}

/// "3rd", "11th", "22nd".
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A number as short as it can be written with up to `decimals` decimals.
fn short(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

impl Envelope {
    /// Where the published value lies: "at our 3rd percentile", "above every seed".
    pub fn place(&self) -> String {
        if self.percentile <= 0.0 {
            "below every seed".to_string()
        } else if self.percentile >= 100.0 {
            "above every seed".to_string()
        } else {
            format!(
                "at our {} percentile",
                ordinal(self.percentile.round() as u64)
            )
        }
    }

    /// "121 to 140 (median 131)".
    pub fn range(&self, decimals: usize) -> String {
        format!(
            "{} to {} (median {})",
            short(self.min, decimals),
            short(self.max, decimals),
            // a median of an even count may fall halfway: one decimal more
            short(self.median, decimals + 1)
        )
    }

    /// "their 130 lies at our 3rd percentile (21 seeds: 121 to 140 (median 131))".
    pub fn sentence(&self, decimals: usize) -> String {
        format!(
            "their {} lies {} ({} seeds: {})",
            short(self.published, decimals),
            self.place(),
            self.seeds,
            self.range(decimals)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// scipy.stats.percentileofscore(values, value, kind="mean"), written by
    /// tests/data/envelope_reference.py.
    #[test]
    fn percentiles_match_scipy() {
        let text = include_str!("../tests/data/envelope_reference.csv");
        let mut checked = 0;
        for line in text.lines().skip(1) {
            let (values, rest) = line.split_once(';').unwrap();
            let (value, expected) = rest.split_once(';').unwrap();
            let values: Vec<f64> = values.split(' ').map(|v| v.parse().unwrap()).collect();
            let got = percentile(&values, value.parse().unwrap());
            let expected: f64 = expected.parse().unwrap();
            assert!((got - expected).abs() < 1e-9, "{line}: {got}");
            checked += 1;
        }
        assert!(checked >= 5);
    }

    #[test]
    fn committed_seed_files_parse_with_at_least_twenty_seeds() {
        let aslan = SeedRuns::parse("aslan/seeds.csv", ASLAN_SEEDS).unwrap();
        let wu_flach = SeedRuns::parse("wu_flach/seeds.csv", WU_FLACH_SEEDS).unwrap();
        assert!(wu_flach.seeds() >= 20, "{}", wu_flach.seeds());
        assert!(aslan.seeds() >= 20, "{}", aslan.seeds());
        let provost = SeedRuns::parse("provost/seeds.csv", PROVOST_SEEDS).unwrap();
        assert!(provost.column("vehicle_dominated_by_bmc4").is_ok());
        assert!(aslan.column("t_both_reject").is_ok());
        assert!(aslan.column("no such column").is_err());
        assert!(SeedRuns::parse("bad.csv", "seed,a\n1,x\n").is_err());
        assert!(SeedRuns::parse("bad.csv", "seed,a\n1\n").is_err());
    }

    #[test]
    fn places_and_ordinals_read_right() {
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
        let runs = SeedRuns::parse("t.csv", "seed,x\n1,1\n2,2\n3,3\n4,4\n").unwrap();
        let envelope = runs.envelope("x", 5.0).unwrap();
        assert_eq!(envelope.place(), "above every seed");
        assert_eq!(envelope.range(1), "1 to 4 (median 2.5)");
        assert_eq!(runs.envelope("x", 0.0).unwrap().place(), "below every seed");
        assert_eq!(
            runs.envelope("x", 2.0).unwrap().place(),
            "at our 38th percentile"
        );
    }
}
