//! C4.5 checked against Weka 3.6.14's J48: the same printed trees and tree sizes on Weka's
//! example files, and the same class probabilities on held-out rows (including missing
//! values). The expected files and the commands that made them are in `tests/data/`.

mod common;

use common::arff::parse_arff;
use data::Dataset;
use learners::{build_learner, Learner, Model, C45};

fn data_path(file: &str) -> String {
    format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"))
}

fn load(file: &str) -> Dataset {
    let text = std::fs::read_to_string(data_path(file)).expect("test data file");
    parse_arff(file, &text)
}

fn without_blank_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.trim_end().to_string())
        .collect()
}

/// J48's "Number of Leaves" and "Size of the tree" from its printout.
fn weka_sizes(text: &str) -> (usize, usize) {
    let number_after = |label: &str| -> usize {
        let line = text.lines().find(|l| l.starts_with(label)).expect(label);
        line.rsplit(|c: char| c.is_whitespace() || c == ':')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    (
        number_after("Number of Leaves"),
        number_after("Size of the tree"),
    )
}

fn check_tree(name: &str, suffix: &str, learner: C45) {
    let dataset = load(&format!("{name}.arff"));
    let expected = std::fs::read_to_string(data_path(&format!("{name}.j48-{suffix}.txt"))).unwrap();
    let model = learner.fit_tree(&dataset.view()).unwrap();
    let ours = model.explain(dataset.schema());
    assert_eq!(
        without_blank_lines(&ours),
        without_blank_lines(&expected),
        "{name} ({suffix}): our tree\n{ours}\nJ48's tree\n{expected}"
    );
    let (leaves, nodes) = weka_sizes(&expected);
    assert_eq!((model.num_leaves(), model.num_nodes()), (leaves, nodes));
}

const FILES: [&str; 6] = [
    "weather.nominal",
    "weather.numeric",
    "iris",
    "labor",
    "contact-lenses",
    "vote",
];

#[test]
fn pruned_trees_match_j48() {
    for name in FILES {
        check_tree(name, "default", C45::default());
    }
}

#[test]
fn unpruned_trees_match_j48_u() {
    for name in FILES {
        let learner = C45 {
            pruned: false,
            ..C45::default()
        };
        check_tree(name, "u", learner);
    }
}

#[test]
fn trees_without_subtree_raising_match_j48_s() {
    for name in FILES {
        let learner = C45 {
            subtree_raising: false,
            ..C45::default()
        };
        check_tree(name, "s", learner);
    }
}

#[test]
fn other_confidence_and_min_leaf_match_j48() {
    for name in ["vote", "labor", "iris"] {
        let learner = C45 {
            confidence: 0.1,
            min_leaf: 5,
            ..C45::default()
        };
        check_tree(name, "c0.1-m5", learner);
    }
}

#[test]
fn no_rows_is_an_error_not_a_panic() {
    let dataset = load("iris.arff");
    let empty = dataset.subset(Vec::new());
    assert!(C45::default().fit(&empty, 0).is_err());
}

#[test]
fn weighted_trees_match_j48() {
    for name in ["iris-weighted", "labor-weighted"] {
        check_tree(name, "default", C45::default());
        let unpruned = C45 {
            pruned: false,
            ..C45::default()
        };
        check_tree(name, "u", unpruned);
    }
}

/// The probability rows of `J48 -p 0 -distribution` (printed with three decimals).
fn weka_distributions(text: &str) -> Vec<Vec<f64>> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() < 4 || fields[0].parse::<usize>().is_err() {
                return None;
            }
            let last = fields.last().unwrap().replace('*', "");
            Some(last.split(',').map(|p| p.parse().unwrap()).collect())
        })
        .collect()
}

fn check_probabilities(name: &str, laplace: bool) {
    let train = load(&format!("{name}-train.arff"));
    let test = load(&format!("{name}-test.arff"));
    let suffix = if laplace { "a" } else { "default" };
    let expected = weka_distributions(
        &std::fs::read_to_string(data_path(&format!(
            "{name}-test.j48-{suffix}-distribution.txt"
        )))
        .unwrap(),
    );
    let learner = C45 {
        laplace,
        ..C45::default()
    };
    let model = learner.fit(&train.view(), 0).unwrap();
    let probabilities = model
        .predict_proba(&test.view().features())
        .expect("prediction");
    assert_eq!(probabilities.len(), expected.len());
    assert!(
        test.missing_count() > 0,
        "the check should cover missing values"
    );
    for (row, weka_row) in expected.iter().enumerate() {
        for (class, &weka) in weka_row.iter().enumerate() {
            let ours = probabilities.row(row)[class];
            assert!(
                (ours - weka).abs() <= 0.0005 + 1e-9,
                "{name} row {} class {class}: ours {ours}, J48 {weka}",
                row + 1
            );
        }
    }
}

#[test]
fn probabilities_match_j48_on_held_out_rows() {
    check_probabilities("labor", false);
    check_probabilities("vote", false);
}

#[test]
fn laplace_probabilities_match_j48_a() {
    check_probabilities("labor", true);
    check_probabilities("vote", true);
}

#[test]
fn many_missing_numeric_values_match_j48() {
    check_tree("glassm-train", "default", C45::default());
    check_tree(
        "glassm-train",
        "s",
        C45 {
            subtree_raising: false,
            ..C45::default()
        },
    );
    check_tree(
        "glassm-train",
        "u",
        C45 {
            pruned: false,
            ..C45::default()
        },
    );
    check_probabilities("glassm", false);
    check_probabilities("glassm", true);
}

#[test]
fn config_builds_c45_and_rejects_bad_parameters() {
    let table: toml::Table = "kind = \"c45\"\nconfidence = 0.1\nmin_leaf = 5\nlaplace = true"
        .parse()
        .unwrap();
    let learner = build_learner(&table).unwrap();
    assert_eq!(
        learner.describe(),
        "c45(confidence=0.1,min_leaf=5,laplace=true,pruned=true,subtree_raising=true)"
    );
    for bad in [
        "kind = \"c45\"\nconfidence = 0.7",
        "kind = \"c45\"\nmin_leaf = 0",
        "kind = \"c45\"\nprune = false",
        "kind = \"c45\"\nlaplace = 1",
    ] {
        let table: toml::Table = bad.parse().unwrap();
        assert!(build_learner(&table).is_err(), "{bad}");
    }
}
