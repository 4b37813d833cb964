//! The leaderboard (mean ranks, wins/ties/losses against the control, means with a bootstrap
//! interval, AMLB's normalised score, the win-rate matrix) against numpy and scipy: the
//! vectors and their generator are in tests/data/leaderboard/.

mod common;
use common::*;
use serde_json::Value;
use stats::leaderboard::{
    complete_rows, leaderboard, win_rates, LeaderboardInput, LeaderboardOptions,
};

/// Resamples of the Rust bootstrap (the vectors' tolerance assumes at least these).
const RESAMPLES: usize = 20_000;

fn count(value: &Value) -> Option<usize> {
    value.as_u64().map(|v| v as usize)
}

fn close(context: &str, got: f64, expected: f64, tolerance: f64) {
    assert!(
        (got - expected).abs() <= tolerance,
        "{context}: got {got}, expected {expected} within {tolerance}"
    );
}

#[test]
fn leaderboard_vectors() {
    for case in cases("leaderboard/leaderboard") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let learners: Vec<String> = input["learners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        let means: Vec<Vec<Option<f64>>> = input["means"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.as_array().unwrap().iter().map(Value::as_f64).collect())
            .collect();
        let anchors = input["anchors"]
            .as_array()
            .map(|a| (count(&a[0]).unwrap(), count(&a[1]).unwrap()));
        let higher = input["higher_is_better"].as_bool().unwrap();
        let board = leaderboard(
            &LeaderboardInput {
                learners: &learners,
                means: &means,
                higher_is_better: higher,
                control: count(&input["control"]).unwrap(),
                anchors,
                costs: None,
            },
            &LeaderboardOptions {
                alpha: float(&input["alpha"]),
                resamples: RESAMPLES,
                seed: 5,
            },
        )
        .unwrap();
        let expected = &case["expected"];
        assert_eq!(
            board.datasets,
            count(&expected["complete_datasets"]).unwrap()
        );
        for row in expected["rows"].as_array().unwrap() {
            let learner = row["learner"].as_str().unwrap();
            let got = board.rows.iter().find(|r| r.learner == learner).unwrap();
            let context = format!("{name}, {learner}");
            assert_statistic(
                &format!("{context} rank"),
                got.mean_rank,
                float(&row["mean_rank"]),
            );
            assert_statistic(&format!("{context} mean"), got.mean, float(&row["mean"]));
            assert_eq!(got.wins, count(&row["wins"]), "{context} wins");
            assert_eq!(got.ties, count(&row["ties"]), "{context} ties");
            assert_eq!(got.losses, count(&row["losses"]), "{context} losses");
            match row["normalised"].as_f64() {
                Some(value) => close(&context, got.normalised.unwrap(), value, 1e-12),
                None => assert_eq!(got.normalised, None, "{context} normalised"),
            }
            let tolerance = float(&row["interval_tolerance"]) + 1e-12;
            close(&context, got.mean_low, float(&row["mean_low"]), tolerance);
            close(&context, got.mean_high, float(&row["mean_high"]), tolerance);
        }
        let ranks: Vec<f64> = board.rows.iter().map(|r| r.mean_rank).collect();
        assert!(
            ranks.windows(2).all(|w| w[0] <= w[1]),
            "{name}: sorted by rank"
        );
        let rates = win_rates(&complete_rows(&means, learners.len()), higher);
        for (a, row) in expected["win_rates"].as_array().unwrap().iter().enumerate() {
            for (b, value) in row.as_array().unwrap().iter().enumerate() {
                match value.as_f64() {
                    Some(value) => close(name, rates[a][b].unwrap(), value, 1e-12),
                    None => assert_eq!(rates[a][b], None),
                }
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_intervals_and_bad_inputs_are_refused() {
    let learners = vec!["a".to_string(), "b".to_string()];
    let means = vec![vec![Some(0.1), Some(0.2)], vec![Some(0.3), Some(0.25)]];
    let input = LeaderboardInput {
        learners: &learners,
        means: &means,
        higher_is_better: true,
        control: 0,
        anchors: None,
        costs: None,
    };
    let options = LeaderboardOptions::default();
    assert_eq!(
        leaderboard(&input, &options).unwrap(),
        leaderboard(&input, &options).unwrap()
    );
    let same = LeaderboardInput {
        anchors: Some((1, 1)),
        ..input.clone()
    };
    assert!(leaderboard(&same, &options).is_err());
    let beyond = LeaderboardInput {
        control: 2,
        ..input.clone()
    };
    assert!(leaderboard(&beyond, &options).is_err());
    let empty = vec![vec![None, Some(0.2)]];
    let none = LeaderboardInput {
        means: &empty,
        ..input
    };
    assert!(leaderboard(&none, &options).is_err());
}
