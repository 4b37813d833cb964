//! Splits given with the data (an OpenML task's): a plan holds them as given, checked like a
//! saved plan, and saves and reads back; the strategy makes none and is no config kind.

use cv::{CvError, Split, SplitPlan, Strategy, Train};

fn split(repetition: usize, fold: usize, train: Train, test: Vec<u32>) -> Split {
    Split {
        repetition,
        fold,
        train,
        validation: None,
        test,
    }
}

#[test]
fn a_plan_of_given_splits_keeps_them_and_reads_back() {
    let splits = vec![
        split(0, 0, Train::Rest { instances: 6 }, vec![0, 3]),
        split(0, 1, Train::Listed(vec![0, 2, 3]), vec![1, 4]),
    ];
    let plan = SplitPlan::given("task-1", 6, splits.clone(), 7).unwrap();
    assert_eq!(plan.strategy, Strategy::Given);
    assert_eq!(plan.splits, splits);
    assert_eq!(plan.seed, cv::dataset_seed(7, "task-1"));
    let text = serde_json::to_string(&plan).unwrap();
    let back: SplitPlan = serde_json::from_str(&text).unwrap();
    assert_eq!(back, plan);
}

#[test]
fn given_splits_are_checked_and_never_made() {
    let overlapping = vec![split(0, 0, Train::Listed(vec![0, 1]), vec![1])];
    assert!(matches!(
        SplitPlan::given("t", 3, overlapping, 1),
        Err(CvError::InvalidPlan { .. })
    ));
    let beyond = vec![split(0, 0, Train::Listed(vec![0]), vec![3])];
    assert!(SplitPlan::given("t", 3, beyond, 1).is_err());
    assert_eq!(Strategy::Given.splits(&[0, 1, 0], 1), Err(CvError::NotMade));
    assert!(Strategy::from_toml_str("kind = \"given\"").is_err());
}
