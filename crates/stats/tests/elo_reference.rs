//! Elo ratings (Bradley-Terry on every two learners' battles on every dataset, as TabArena
//! fits them, with one virtual tie per pair) against scikit-learn's LogisticRegression: the
//! vectors and their generator are in tests/data/elo/.

mod common;
use common::*;
use stats::elo::elo;
use stats::leaderboard::LeaderboardOptions;

/// Resamples of the Rust bootstrap (the vectors' tolerance assumes as many as theirs).
const RESAMPLES: usize = 4000;

#[test]
fn elo_vectors() {
    for case in cases("elo/elo") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let rows = matrix(&input["rows"]);
        let reference = input["reference"].as_u64().unwrap() as usize;
        let options = LeaderboardOptions {
            alpha: float(&input["alpha"]),
            resamples: RESAMPLES,
            seed: 3,
        };
        let ratings = elo(
            &rows,
            input["higher_is_better"].as_bool().unwrap(),
            reference,
            &options,
        );
        let expected = &case["expected"];
        // Three times the vectors' tolerance (0.75 of the bootstrap's standard deviation): on 5
        // datasets the bootstrap distribution is discrete and its outer quantiles sit on jumps.
        let tolerances: Vec<f64> = floats(&expected["interval_tolerance"])
            .iter()
            .map(|t| 3.0 * t)
            .collect();
        for (l, rating) in ratings.iter().enumerate() {
            let fitted = float(&expected["elo"][l]);
            assert!(
                (rating.elo - fitted).abs() < 1e-4,
                "{name}, learner {l}: {} against {fitted}",
                rating.elo
            );
            for (got, key) in [(rating.elo_low, "elo_low"), (rating.elo_high, "elo_high")] {
                let want = float(&expected[key][l]);
                assert!(
                    (got - want).abs() <= tolerances[l] + 1e-9,
                    "{name}, learner {l} {key}: {got} against {want} within {}",
                    tolerances[l]
                );
            }
        }
    }
}
