//! The leaderboard of k learners over N datasets, the one computation behind a run report's
//! summary and `compare TABLE --leaderboard`: per learner its mean rank (ranks on each dataset
//! of the learners' mean values, ties averaged, the measure's direction respected), its
//! wins/ties/losses against the control, its mean over the datasets with a seeded percentile
//! bootstrap interval (datasets resampled with replacement, the same draws for every learner),
//! AMLB's normalised score between two anchor learners (Gijsbers et al. 2024: the first anchor
//! scores 0, the second 1, on each dataset, then averaged), and, when the caller has them, its
//! failed units and seconds of fitting. Everything is computed on the complete datasets (every
//! learner has a finite mean), the table the across-datasets tests compare.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::error::StatsError;
use crate::intervals::bootstrap::quantile_linear;
use crate::summary::midranks;

/// What a leaderboard is computed from.
#[derive(Clone, Debug)]
pub struct LeaderboardInput<'a> {
    /// The learners (columns), in table order.
    pub learners: &'a [String],
    /// `means[dataset][learner]`: the learner's mean over the folds (`None` or non-finite:
    /// no result, the dataset is left out).
    pub means: &'a [Vec<Option<f64>>],
    /// True when higher values are better.
    pub higher_is_better: bool,
    /// The control learner's index (wins/ties/losses are counted against it).
    pub control: usize,
    /// The two anchor learners of the normalised score: the first scores 0, the second 1.
    pub anchors: Option<(usize, usize)>,
    /// Per learner, its failed units and seconds of fitting, when the caller has them.
    pub costs: Option<&'a [(usize, f64)]>,
}

/// The bootstrap of the means' intervals.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LeaderboardOptions {
    /// The interval is the central 1 - alpha of the bootstrap means.
    pub alpha: f64,
    /// Bootstrap resamples of the datasets.
    pub resamples: usize,
    /// Seed of the resamples (`ChaCha8Rng::seed_from_u64`).
    pub seed: u64,
}

impl Default for LeaderboardOptions {
    fn default() -> Self {
        LeaderboardOptions {
            alpha: 0.05,
            resamples: 2000,
            seed: 0,
        }
    }
}

/// One learner's line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeaderboardRow {
    /// The learner.
    pub learner: String,
    /// Mean over the complete datasets of its rank on each (1 = best, ties averaged).
    pub mean_rank: f64,
    /// Datasets where it is better than the control (`None` for the control itself).
    pub wins: Option<usize>,
    /// Datasets where it equals the control.
    pub ties: Option<usize>,
    /// Datasets where it is worse than the control.
    pub losses: Option<usize>,
    /// Its mean over the complete datasets.
    pub mean: f64,
    /// Lower end of the bootstrap interval of the mean.
    pub mean_low: f64,
    /// Upper end of the bootstrap interval of the mean.
    pub mean_high: f64,
    /// AMLB's normalised score averaged over the datasets where the anchors differ (`None`
    /// without anchors, or when they are equal on every dataset).
    pub normalised: Option<f64>,
    /// Its failed units, when known.
    pub failed: Option<usize>,
    /// Its seconds of fitting, summed over its units, when known.
    pub fit_seconds: Option<f64>,
}

/// The leaderboard: its rows, best mean rank first, and what they were computed on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leaderboard {
    /// True when higher values are better.
    pub higher_is_better: bool,
    /// The control learner.
    pub control: String,
    /// The anchors of the normalised score (0, 1), when declared.
    pub anchors: Option<[String; 2]>,
    /// The complete datasets the rows are computed on.
    pub datasets: usize,
    /// Datasets left out for lacking some learner's result.
    pub incomplete_datasets: usize,
    /// The bootstrap's settings.
    pub options: LeaderboardOptions,
    /// One row per learner, by mean rank (table order among equal ranks).
    pub rows: Vec<LeaderboardRow>,
}

/// The leaderboard of `input` with the bootstrap of `options`.
pub fn leaderboard(
    input: &LeaderboardInput<'_>,
    options: &LeaderboardOptions,
) -> Result<Leaderboard, StatsError> {
    check(input, options)?;
    let complete = complete_rows(input.means, input.learners.len());
    if complete.is_empty() {
        return Err(StatsError::TooFew {
            name: "datasets with a result for every learner",
            got: 0,
            needed: 1,
        });
    }
    let k = input.learners.len();
    let ranks = mean_ranks(&complete, input.higher_is_better);
    let intervals = bootstrap_means(&complete, options);
    let mut rows: Vec<LeaderboardRow> = (0..k)
        .map(|l| {
            let column: Vec<f64> = complete.iter().map(|row| row[l]).collect();
            let (wins, ties, losses) = against_control(input, &complete, l);
            LeaderboardRow {
                learner: input.learners[l].clone(),
                mean_rank: ranks[l],
                wins,
                ties,
                losses,
                mean: mean(&column),
                mean_low: intervals[l].0,
                mean_high: intervals[l].1,
                normalised: input.anchors.and_then(|a| normalised(&complete, l, a)),
                failed: input.costs.map(|costs| costs[l].0),
                fit_seconds: input.costs.map(|costs| costs[l].1),
            }
        })
        .collect();
    rows.sort_by(|a, b| a.mean_rank.total_cmp(&b.mean_rank));
    Ok(Leaderboard {
        higher_is_better: input.higher_is_better,
        control: input.learners[input.control].clone(),
        anchors: input
            .anchors
            .map(|(low, high)| [low, high].map(|a| input.learners[a].clone())),
        datasets: complete.len(),
        incomplete_datasets: input.means.len() - complete.len(),
        options: *options,
        rows,
    })
}

/// Refuses inputs the leaderboard cannot be computed on.
fn check(input: &LeaderboardInput<'_>, options: &LeaderboardOptions) -> Result<(), StatsError> {
    let k = input.learners.len();
    if k == 0 {
        return Err(StatsError::TooFew {
            name: "learners",
            got: 0,
            needed: 1,
        });
    }
    let index = |name: &'static str, value: usize| match value < k {
        true => Ok(()),
        false => Err(StatsError::OutOfRange {
            name,
            value: value as f64,
            allowed: "the index of a learner",
        }),
    };
    index("control", input.control)?;
    if let Some((low, high)) = input.anchors {
        index("anchors", low)?;
        index("anchors", high)?;
        if low == high {
            return Err(StatsError::Impossible {
                name: "anchors",
                reason: "the two anchors must be two different learners".to_string(),
            });
        }
    }
    if let Some(row) = input.means.iter().find(|row| row.len() != k) {
        return Err(StatsError::LengthMismatch {
            first: "learners",
            first_len: k,
            second: "a row of means",
            second_len: row.len(),
        });
    }
    if input.costs.is_some_and(|costs| costs.len() != k) {
        return Err(StatsError::LengthMismatch {
            first: "learners",
            first_len: k,
            second: "costs",
            second_len: input.costs.map_or(0, <[_]>::len),
        });
    }
    check_options(options)
}

/// Refuses an alpha outside (0, 1) and zero resamples.
fn check_options(options: &LeaderboardOptions) -> Result<(), StatsError> {
    if !(options.alpha > 0.0 && options.alpha < 1.0) {
        return Err(StatsError::OutOfRange {
            name: "alpha",
            value: options.alpha,
            allowed: "in (0, 1)",
        });
    }
    if options.resamples == 0 {
        return Err(StatsError::OutOfRange {
            name: "resamples",
            value: 0.0,
            allowed: ">= 1",
        });
    }
    Ok(())
}

/// The datasets with a finite mean for every learner, as plain rows.
pub fn complete_rows(means: &[Vec<Option<f64>>], learners: usize) -> Vec<Vec<f64>> {
    means
        .iter()
        .filter(|row| row.len() == learners && row.iter().all(|v| v.is_some_and(f64::is_finite)))
        .map(|row| row.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
        .collect()
}

/// Each learner's mean rank over the rows (1 = best, ties averaged).
pub fn mean_ranks(rows: &[Vec<f64>], higher_is_better: bool) -> Vec<f64> {
    let k = rows.first().map_or(0, Vec::len);
    let mut sums = vec![0.0; k];
    for row in rows {
        let oriented: Vec<f64> = row
            .iter()
            .map(|&v| if higher_is_better { -v } else { v })
            .collect();
        for (sum, rank) in sums.iter_mut().zip(midranks(&oriented)) {
            *sum += rank;
        }
    }
    sums.iter().map(|sum| sum / rows.len() as f64).collect()
}

/// Learner `l`'s wins, ties and losses against the control (`None`s for the control).
fn against_control(
    input: &LeaderboardInput<'_>,
    rows: &[Vec<f64>],
    l: usize,
) -> (Option<usize>, Option<usize>, Option<usize>) {
    if l == input.control {
        return (None, None, None);
    }
    let (mut wins, mut ties, mut losses) = (0, 0, 0);
    for row in rows {
        let (mine, theirs) = (row[l], row[input.control]);
        let better = if input.higher_is_better {
            mine > theirs
        } else {
            mine < theirs
        };
        match (better, mine == theirs) {
            (true, _) => wins += 1,
            (false, true) => ties += 1,
            (false, false) => losses += 1,
        }
    }
    (Some(wins), Some(ties), Some(losses))
}

/// The mean of `values` (NaN when empty).
fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// Per learner, the percentile interval (numpy's linear quantiles) of its mean over
/// `options.resamples` resamples of the rows, drawn once for all learners.
fn bootstrap_means(rows: &[Vec<f64>], options: &LeaderboardOptions) -> Vec<(f64, f64)> {
    let (n, k) = (rows.len(), rows[0].len());
    let mut generator = ChaCha8Rng::seed_from_u64(options.seed);
    let mut means = vec![Vec::with_capacity(options.resamples); k];
    for _ in 0..options.resamples {
        let mut sums = vec![0.0; k];
        for _ in 0..n {
            let row = &rows[generator.random_range(0..n)];
            for (sum, value) in sums.iter_mut().zip(row) {
                *sum += value;
            }
        }
        for (column, sum) in means.iter_mut().zip(sums) {
            column.push(sum / n as f64);
        }
    }
    means
        .into_iter()
        .map(|mut column| {
            column.sort_by(f64::total_cmp);
            (
                quantile_linear(&column, options.alpha / 2.0),
                quantile_linear(&column, 1.0 - options.alpha / 2.0),
            )
        })
        .collect()
}

/// Learner `l`'s normalised score (x - low) / (high - low) averaged over the rows where the
/// anchors `low` (0) and `high` (1) differ; `None` when they never do.
pub fn normalised(rows: &[Vec<f64>], l: usize, (low, high): (usize, usize)) -> Option<f64> {
    let scores: Vec<f64> = rows
        .iter()
        .filter(|row| row[high] != row[low])
        .map(|row| (row[l] - row[low]) / (row[high] - row[low]))
        .collect();
    (!scores.is_empty()).then(|| mean(&scores))
}

/// The win-rate matrix: `rates[a][b]` is the share of the rows where learner a is better than
/// b, a tie counting one half (`None` on the diagonal).
pub fn win_rates(rows: &[Vec<f64>], higher_is_better: bool) -> Vec<Vec<Option<f64>>> {
    let k = rows.first().map_or(0, Vec::len);
    (0..k)
        .map(|a| {
            (0..k)
                .map(|b| (a != b).then(|| win_rate(rows, a, b, higher_is_better)))
                .collect()
        })
        .collect()
}

/// The share of the rows where a is better than b, a tie counting one half.
fn win_rate(rows: &[Vec<f64>], a: usize, b: usize, higher_is_better: bool) -> f64 {
    let points: f64 = rows
        .iter()
        .map(|row| {
            let (x, y) = if higher_is_better {
                (row[a], row[b])
            } else {
                (row[b], row[a])
            };
            if x > y {
                1.0
            } else if x == y {
                0.5
            } else {
                0.0
            }
        })
        .sum();
    points / rows.len() as f64
}
