//! The plan's bounds refuse what cannot be split, before any split is made.

use engine::plan::bounds::{check_splits, Limits};
use engine::plan::protocols::Protocol;

/// A `cv` strategy as a protocol (the built-in wrapper is private to the engine).
struct Plain(cv::Strategy);

impl Protocol for Plain {
    fn plan(&self, dataset: &data::Dataset, seed: u64) -> Result<cv::SplitPlan, cv::CvError> {
        cv::SplitPlan::for_dataset(dataset, &self.0, seed)
    }

    fn split_count(&self, rows: usize) -> u64 {
        self.0.split_count(rows) as u64
    }

    fn count_keys(&self) -> &'static str {
        "protocol keys 'folds' and 'repetitions'"
    }
}

/// Limits that never refuse by themselves.
fn unlimited() -> Limits {
    Limits {
        units: u64::MAX,
        split_bytes: u64::MAX,
    }
}

#[test]
fn a_dataset_of_more_rows_than_u32_numbers_is_refused_naming_it_and_the_limit() {
    // 2^32 rows: one more than the largest 32-bit row count, 2^32 - 1 = 4294967295.
    let protocol = Plain(cv::Strategy::StratifiedKfold {
        folds: 10,
        repetitions: 1,
    });
    let message = check_splits("huge", 1usize << 32, &protocol, &unlimited())
        .unwrap_err()
        .to_string();
    assert!(message.contains("dataset 'huge'"), "{message}");
    assert!(message.contains("4294967296 rows"), "{message}");
    assert!(message.contains("4294967295"), "{message}");
    assert!(
        message.contains("a split can number (row numbers are 32-bit)"),
        "{message}"
    );
    assert!(message.contains("'subsample'"), "{message}");
}

#[test]
fn the_largest_32_bit_row_count_passes_the_row_check() {
    // 2^32 - 1 rows fit; a hold-out's two parts then weigh about 16 GiB of row numbers, so
    // only the estimate against this machine's memory can refuse them, and it says so.
    let protocol = Plain(cv::Strategy::Holdout {
        test_fraction: 0.5,
        repetitions: 1,
    });
    if let Err(error) = check_splits("largest", (1usize << 32) - 1, &protocol, &unlimited()) {
        let message = error.to_string();
        assert!(message.contains("this machine's memory"), "{message}");
    }
}
