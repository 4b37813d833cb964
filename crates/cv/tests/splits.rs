//! Properties of the resampling plans; the expected counts are worked out by hand in comments.

use cv::{CvError, Split, SplitPlan, Strategy};

/// 47 instances of class 0, 23 of class 1, 5 of class 2, interleaved.
fn three_classes() -> Vec<u32> {
    let mut classes = Vec::new();
    classes.extend(vec![0u32; 47]);
    classes.extend(vec![1u32; 23]);
    classes.extend(vec![2u32; 5]);
    // Interleave deterministically so that class blocks are not contiguous.
    let mut interleaved = vec![0; classes.len()];
    for (position, class) in classes.into_iter().enumerate() {
        interleaved[(position * 31) % 75] = class;
    }
    interleaved
}

fn class_count(indices: &[u32], classes: &[u32], class: u32) -> usize {
    indices
        .iter()
        .filter(|&&index| classes[index as usize] == class)
        .count()
}

fn sorted(mut indices: Vec<u32>) -> Vec<u32> {
    indices.sort_unstable();
    indices
}

fn is_ascending(indices: &[u32]) -> bool {
    indices.windows(2).all(|pair| pair[0] < pair[1])
}

#[test]
fn stratified_kfold_test_folds_partition_the_data_with_balanced_classes() {
    let classes = three_classes();
    let strategy = Strategy::StratifiedKfold {
        folds: 10,
        repetitions: 3,
    };
    let splits = strategy.splits(&classes, 42).unwrap();
    assert_eq!(splits.len(), 30);
    for repetition in 0..3 {
        let rounds: Vec<&Split> = splits
            .iter()
            .filter(|split| split.repetition == repetition)
            .collect();
        assert_eq!(rounds.len(), 10);
        let all_tests = sorted(rounds.iter().flat_map(|s| s.test.clone()).collect());
        assert_eq!(
            all_tests,
            (0..75).collect::<Vec<_>>(),
            "test folds partition"
        );
        for (fold, split) in rounds.iter().enumerate() {
            assert_eq!(split.fold, fold);
            assert!(split.validation.is_none());
            assert!(split.is_disjoint());
            assert_eq!(split.len(), 75, "train and test cover everything");
            assert!(
                is_ascending(&split.train_rows().collect::<Vec<_>>()) && is_ascending(&split.test)
            );
            // 75 / 10: fold sizes 7 or 8.
            assert!((7..=8).contains(&split.test.len()));
            // Class 0: 47/10 -> 4 or 5; class 1: 23/10 -> 2 or 3; class 2: 5/10 -> 0 or 1.
            assert!((4..=5).contains(&class_count(&split.test, &classes, 0)));
            assert!((2..=3).contains(&class_count(&split.test, &classes, 1)));
            assert!((0..=1).contains(&class_count(&split.test, &classes, 2)));
        }
    }
    // Repetitions shuffle afresh.
    assert_ne!(splits[0].test, splits[10].test);
}

#[test]
fn splits_are_deterministic_for_a_seed_and_differ_between_seeds() {
    let classes = three_classes();
    let strategies = [
        Strategy::StratifiedKfold {
            folds: 5,
            repetitions: 2,
        },
        Strategy::FiveByTwo,
        Strategy::Holdout {
            test_fraction: 0.3,
            repetitions: 2,
        },
        Strategy::Aslan {
            test_fraction: 1.0 / 3.0,
            folds: 10,
        },
        Strategy::WuFlach {
            folds: 5,
            repetitions: 2,
        },
    ];
    for strategy in strategies {
        let first = strategy.splits(&classes, 7).unwrap();
        assert_eq!(first, strategy.splits(&classes, 7).unwrap(), "{strategy}");
        assert_ne!(first, strategy.splits(&classes, 8).unwrap(), "{strategy}");
    }
}

#[test]
fn five_by_two_is_five_repetitions_of_two_fold() {
    let classes = three_classes();
    let splits = Strategy::FiveByTwo.splits(&classes, 3).unwrap();
    let same = Strategy::StratifiedKfold {
        folds: 2,
        repetitions: 5,
    }
    .splits(&classes, 3)
    .unwrap();
    assert_eq!(splits, same);
    assert_eq!(splits.len(), 10);
    for (position, split) in splits.iter().enumerate() {
        assert_eq!((split.repetition, split.fold), (position / 2, position % 2));
        // The two folds of a repetition swap roles.
        let partner = &splits[position ^ 1];
        assert_eq!(split.train_rows().collect::<Vec<_>>(), partner.test);
        // 75 / 2 -> 37 or 38.
        assert!((37..=38).contains(&split.test.len()));
    }
}

#[test]
fn holdout_uses_largest_remainder_allocation() {
    // 7 of class 0 and 3 of class 1 at 0.3: test size round(3.0) = 3; quotas 2.1 and 0.9 give
    // floors 2 and 0; the missing instance goes to class 1 (remainder 0.9 > 0.1).
    let classes = [0, 0, 1, 0, 0, 1, 0, 0, 1, 0];
    let splits = Strategy::Holdout {
        test_fraction: 0.3,
        repetitions: 4,
    }
    .splits(&classes, 11)
    .unwrap();
    assert_eq!(splits.len(), 4);
    for (repetition, split) in splits.iter().enumerate() {
        assert_eq!((split.repetition, split.fold), (repetition, 0));
        assert_eq!(class_count(&split.test, &classes, 0), 2);
        assert_eq!(class_count(&split.test, &classes, 1), 1);
        assert_eq!(split.train_len(), 7);
        assert!(split.is_disjoint());
    }
}

#[test]
fn aslan_test_set_is_an_exactly_stratified_third_shared_by_all_folds() {
    // 60 of class 0 and 30 of class 1: a third is exactly 20 and 10 (1/3 written as the
    // decimal 0.3333333333333333, as in a config file).
    let classes: Vec<u32> = (0..90).map(|row| u32::from(row % 3 == 2)).collect();
    let strategy =
        Strategy::from_toml_str("kind = \"aslan\"\ntest_fraction = 0.3333333333333333\nfolds = 30")
            .unwrap();
    let splits = strategy.splits(&classes, 5).unwrap();
    assert_eq!(splits.len(), 30);
    let test = &splits[0].test;
    assert_eq!(class_count(test, &classes, 0), 20);
    assert_eq!(class_count(test, &classes, 1), 10);
    let mut validations = Vec::new();
    for (fold, split) in splits.iter().enumerate() {
        assert_eq!((split.repetition, split.fold), (0, fold));
        assert_eq!(
            &split.test, test,
            "every model is tested on the same test set"
        );
        assert!(split.is_disjoint());
        assert_eq!(split.len(), 90);
        let validation = split.validation.clone().unwrap();
        // Train-all: 40 + 20 = 60 instances, 2 per validation fold; class 0: 40/30 -> 1 or 2,
        // class 1: 20/30 -> 0 or 1.
        assert_eq!(validation.len(), 2);
        assert!((1..=2).contains(&class_count(&validation, &classes, 0)));
        assert_eq!(split.train_len(), 58);
        validations.extend(validation);
    }
    let train_all: Vec<u32> = (0..90).filter(|index| !test.contains(index)).collect();
    assert_eq!(
        sorted(validations),
        train_all,
        "validation folds partition train-all"
    );
}

#[test]
fn aslan_on_three_equal_classes_gives_extra_test_instances_to_lower_classes() {
    // 50/50/50 at 1/3: test size 50, quotas 16.67 each -> floors 16 (48), the two missing go to
    // the equal-remainder classes 0 and 1: 17, 17, 16.
    let classes: Vec<u32> = (0..150).map(|row| (row % 3) as u32).collect();
    let splits = Strategy::Aslan {
        test_fraction: 1.0 / 3.0,
        folds: 30,
    }
    .splits(&classes, 1)
    .unwrap();
    let test = &splits[0].test;
    assert_eq!(
        [0, 1, 2].map(|class| class_count(test, &classes, class)),
        [17, 17, 16]
    );
}

#[test]
fn wu_flach_rotates_test_and_validation_folds() {
    let classes = three_classes();
    let strategy = Strategy::WuFlach {
        folds: 10,
        repetitions: 10,
    };
    let splits = strategy.splits(&classes, 99).unwrap();
    assert_eq!(splits.len(), 100);
    for repetition in 0..10 {
        let rounds = &splits[repetition * 10..(repetition + 1) * 10];
        let tests = sorted(rounds.iter().flat_map(|s| s.test.clone()).collect());
        let validations = sorted(
            rounds
                .iter()
                .flat_map(|s| s.validation.clone().unwrap())
                .collect(),
        );
        // Each instance is tested exactly once and validated exactly once per repetition.
        assert_eq!(tests, (0..75).collect::<Vec<_>>());
        assert_eq!(validations, (0..75).collect::<Vec<_>>());
        for (fold, split) in rounds.iter().enumerate() {
            assert_eq!((split.repetition, split.fold), (repetition, fold));
            assert!(split.is_disjoint());
            assert_eq!(split.len(), 75);
            // The validation fold of round i is the test fold of round i + 1.
            let next = &rounds[(fold + 1) % 10];
            assert_eq!(split.validation.as_ref().unwrap(), &next.test);
            // Training on 8 folds: 75 - two folds of 7 or 8.
            assert!((59..=61).contains(&split.train_len()));
        }
    }
}

#[test]
fn leave_one_out_tests_each_instance_once() {
    let classes = [0, 1, 1, 0];
    let splits = Strategy::LeaveOneOut.splits(&classes, 0).unwrap();
    assert_eq!(splits.len(), 4);
    assert_eq!(
        splits[2],
        Split {
            repetition: 0,
            fold: 2,
            train: cv::Train::Listed(vec![0, 1, 3]),
            validation: None,
            test: vec![2],
        }
    );
}

#[test]
fn rare_class_may_be_missing_from_folds_but_no_test_fold_is_empty() {
    // 2 instances of class 1 among 12, 5 folds: class 1 is in two folds only.
    let classes = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1];
    let splits = Strategy::StratifiedKfold {
        folds: 5,
        repetitions: 1,
    }
    .splits(&classes, 2)
    .unwrap();
    let folds_with_rare = splits
        .iter()
        .filter(|split| class_count(&split.test, &classes, 1) > 0)
        .count();
    assert_eq!(folds_with_rare, 2);
    assert!(splits.iter().all(|split| !split.test.is_empty()));
}

#[test]
fn too_few_instances_is_an_error() {
    let classes = [0, 1, 0];
    let kfold = Strategy::StratifiedKfold {
        folds: 4,
        repetitions: 1,
    };
    assert!(matches!(
        kfold.splits(&classes, 0),
        Err(CvError::TooFewInstances { instances: 3, .. })
    ));
    let holdout = Strategy::Holdout {
        test_fraction: 0.1,
        repetitions: 1,
    };
    assert!(
        holdout.splits(&classes, 0).is_err(),
        "round(0.3) = 0 test instances"
    );
    assert!(Strategy::LeaveOneOut.splits(&[], 0).is_err());
    let aslan = Strategy::Aslan {
        test_fraction: 0.5,
        folds: 30,
    };
    assert!(aslan.splits(&[0; 40], 0).is_err(), "20 left for 30 folds");
}

#[test]
fn config_tables_from_the_design_parse() {
    let cases = [
        (
            "kind = \"stratified_kfold\"\nfolds = 10\nrepetitions = 1",
            Strategy::StratifiedKfold {
                folds: 10,
                repetitions: 1,
            },
        ),
        (
            "kind = \"aslan\"\ntest_fraction = 0.3333333333333333\nfolds = 30",
            Strategy::Aslan {
                test_fraction: 0.3333333333333333,
                folds: 30,
            },
        ),
        (
            "kind = \"wu_flach\"\nfolds = 10\nrepetitions = 10",
            Strategy::WuFlach {
                folds: 10,
                repetitions: 10,
            },
        ),
        ("kind = \"five_by_two\"", Strategy::FiveByTwo),
        (
            "kind = \"holdout\"\ntest_fraction = 0.3\nrepetitions = 1",
            Strategy::Holdout {
                test_fraction: 0.3,
                repetitions: 1,
            },
        ),
        ("kind = \"leave_one_out\"", Strategy::LeaveOneOut),
    ];
    for (text, expected) in cases {
        let strategy = Strategy::from_toml_str(text).unwrap();
        assert_eq!(strategy, expected, "{text}");
        let with_validation = text.contains("aslan") || text.contains("wu_flach");
        assert_eq!(strategy.has_validation(), with_validation, "{text}");
    }
    // Defaults.
    assert_eq!(
        Strategy::from_toml_str("kind = \"wu_flach\"").unwrap(),
        Strategy::WuFlach {
            folds: 10,
            repetitions: 10
        }
    );
}

#[test]
fn config_errors_name_the_key_and_the_allowed_range() {
    let message = |text: &str| Strategy::from_toml_str(text).unwrap_err().to_string();
    let unknown = message("kind = \"stratified_kfold\"\nfold = 10");
    assert!(
        unknown.contains("'fold'") && unknown.contains("folds, repetitions"),
        "{unknown}"
    );
    let range = message("kind = \"stratified_kfold\"\nfolds = 1");
    assert!(
        range.contains("folds = 1") && range.contains(">= 2"),
        "{range}"
    );
    let fraction = message("kind = \"holdout\"\ntest_fraction = 1.5");
    assert!(
        fraction.contains("test_fraction") && fraction.contains("(0, 1)"),
        "{fraction}"
    );
    let wrong_type = message("kind = \"wu_flach\"\nfolds = \"ten\"");
    assert!(
        wrong_type.contains("'folds'") && wrong_type.contains("integer"),
        "{wrong_type}"
    );
    let wu_flach = message("kind = \"wu_flach\"\nfolds = 2");
    assert!(wu_flach.contains(">= 3"), "{wu_flach}");
    let kind = message("kind = \"bootstrap\"");
    assert!(
        kind.contains("'bootstrap'") && kind.contains("wu_flach"),
        "{kind}"
    );
    let missing = message("folds = 3");
    assert!(missing.contains("missing"), "{missing}");
    let required = message("kind = \"holdout\"");
    assert!(required.contains("test_fraction"), "{required}");
    assert!(matches!(
        Strategy::from_toml_str("kind = "),
        Err(CvError::Toml(_))
    ));
    // Directly built strategies are checked too.
    let direct = Strategy::Holdout {
        test_fraction: 0.0,
        repetitions: 1,
    };
    assert!(direct.splits(&[0, 1, 0, 1], 0).is_err());
}

#[test]
fn strategies_and_splits_round_trip_through_serde() {
    let strategy = Strategy::Aslan {
        test_fraction: 0.25,
        folds: 3,
    };
    let json = serde_json::to_string(&strategy).unwrap();
    assert_eq!(json, r#"{"kind":"aslan","test_fraction":0.25,"folds":3}"#);
    assert_eq!(serde_json::from_str::<Strategy>(&json).unwrap(), strategy);
    let unit = serde_json::to_string(&Strategy::FiveByTwo).unwrap();
    assert_eq!(unit, r#"{"kind":"five_by_two"}"#);
    let toml_text = toml::to_string(&strategy).unwrap();
    assert_eq!(Strategy::from_toml_str(&toml_text).unwrap(), strategy);
    // Unknown keys are refused through serde as well.
    assert!(serde_json::from_str::<Strategy>(r#"{"kind":"five_by_two","folds":2}"#).is_err());

    let splits = strategy.splits(&[0, 1, 0, 1, 0, 1, 0, 1], 9).unwrap();
    let json = serde_json::to_string(&splits).unwrap();
    assert_eq!(serde_json::from_str::<Vec<Split>>(&json).unwrap(), splits);
}

#[test]
fn dataset_class_column_is_used() {
    let schema = data::Schema {
        attributes: vec![data::Attribute::numeric("x")],
        class_name: "class".to_string(),
        class_values: vec!["a".to_string(), "b".to_string()],
    };
    let classes = vec![0, 1, 0, 1, 0, 1];
    let dataset = data::Dataset::new(
        "toy",
        schema,
        vec![vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]],
        classes.clone(),
        None,
    )
    .unwrap();
    let strategy = Strategy::StratifiedKfold {
        folds: 3,
        repetitions: 1,
    };
    assert_eq!(
        strategy.splits_of_dataset(&dataset, 4).unwrap(),
        strategy.splits(&classes, 4).unwrap()
    );
}

#[test]
fn split_plans_are_seeded_per_dataset_and_checked_when_read_back() {
    let classes = three_classes();
    let strategy = Strategy::StratifiedKfold {
        folds: 5,
        repetitions: 2,
    };
    let plan = SplitPlan::new("iris", &classes, &strategy, 2009).unwrap();
    assert_eq!(plan.seed, cv::dataset_seed(2009, "iris"));
    assert_eq!(plan.splits, strategy.splits(&classes, plan.seed).unwrap());
    assert_ne!(
        cv::dataset_seed(2009, "iris"),
        cv::dataset_seed(2009, "wine")
    );
    plan.check().unwrap();

    let json = serde_json::to_string(&plan).unwrap();
    let read_back: SplitPlan = serde_json::from_str(&json).unwrap();
    assert_eq!(read_back, plan);

    let mut out_of_range = plan.clone();
    out_of_range.splits[3].test.push(75);
    let error = out_of_range.check().unwrap_err().to_string();
    assert!(error.contains("'iris', repetition 0, fold 3"), "{error}");
    // A plan read back lists its training rows, which may then overlap the other parts.
    assert!(matches!(read_back.splits[0].train, cv::Train::Listed(_)));
    let mut overlapping = read_back.clone();
    let stolen = overlapping.splits[0].train_rows().next().unwrap();
    overlapping.splits[0].test.push(stolen);
    assert!(overlapping.check().is_err());
}

#[test]
fn a_strategy_can_sit_inside_a_larger_toml_config() {
    #[derive(serde::Deserialize, Debug)]
    struct Experiment {
        seed: u64,
        resampling: Strategy,
    }
    let experiment: Experiment = toml::from_str(
        "seed = 2009\nresampling = { kind = \"wu_flach\", folds = 10, repetitions = 10 }",
    )
    .unwrap();
    assert_eq!(experiment.seed, 2009);
    assert_eq!(
        experiment.resampling,
        Strategy::WuFlach {
            folds: 10,
            repetitions: 10
        }
    );
    let error = toml::from_str::<Experiment>(
        "seed = 1\n[resampling]\nkind = \"holdout\"\ntest_fraction = 0.3\nrepeats = 2",
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("unknown key 'repeats'"), "{error}");
}

#[test]
fn training_rows_held_as_the_rest_are_every_other_row() {
    let split = Split {
        repetition: 0,
        fold: 0,
        train: cv::Train::Rest { instances: 10 },
        validation: Some(vec![7]),
        test: vec![2, 5],
    };
    let rows = split.train_rows();
    assert_eq!(rows.len(), 7);
    assert_eq!(rows.collect::<Vec<_>>(), vec![0, 1, 3, 4, 6, 8, 9]);
    assert_eq!(split.len(), 10);
    let listed = Split {
        train: cv::Train::Listed(vec![0, 1, 3, 4, 6, 8, 9]),
        ..split.clone()
    };
    assert_eq!(split, listed);
    assert_eq!(
        serde_json::to_string(&split).unwrap(),
        r#"{"repetition":0,"fold":0,"train":[0,1,3,4,6,8,9],"validation":[7],"test":[2,5]}"#
    );
}
