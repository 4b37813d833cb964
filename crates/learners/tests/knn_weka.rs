//! k-NN checked against Weka 3.6.14: neighbours and distances from `weka.core.EuclideanDistance`
//! and class distributions from `IBk -K 5`, `IBk -K 5 -I` and `IBk -K 1`, on fixed splits of
//! glass (numeric) and hepatitis (numeric + nominal, missing values). The fixtures and the
//! programs that made them are in `tests/data/knn_weka/`.

use data::{Attribute, Dataset, Schema};
use learners::knn::{KnnConfig, KnnLearner, KnnModel, SearchMethod, Weighting};
use learners::Model;

struct Fixture {
    train: Dataset,
    test: Dataset,
    table: toml::Table,
}

fn floats(value: &toml::Value) -> Vec<f64> {
    value
        .as_array()
        .expect("array")
        .iter()
        .map(|v| match v {
            toml::Value::Float(x) => *x,
            toml::Value::Integer(i) => *i as f64,
            other => panic!("not a number: {other}"),
        })
        .collect()
}

fn matrix(table: &toml::Table, key: &str) -> Vec<Vec<f64>> {
    table[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} missing"))
        .iter()
        .map(floats)
        .collect()
}

fn load(name: &str) -> Fixture {
    let path = format!(
        "{}/tests/data/knn_weka/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let table: toml::Table = std::fs::read_to_string(&path)
        .expect("fixture")
        .parse()
        .expect("toml");
    let attributes: Vec<Attribute> = table["attributes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let name = a["name"].as_str().unwrap();
            let values: Vec<String> = a["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            if values.is_empty() {
                Attribute::numeric(name)
            } else {
                Attribute::nominal(name, values)
            }
        })
        .collect();
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values: table["class_values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect(),
    };
    let build = |rows_key: &str, classes_key: &str| {
        let rows = matrix(&table, rows_key);
        let classes: Vec<u32> = floats(&table[classes_key])
            .into_iter()
            .map(|c| c as u32)
            .collect();
        let columns = (0..schema.num_attributes())
            .map(|a| rows.iter().map(|row| row[a]).collect())
            .collect();
        Dataset::new(name, schema.clone(), columns, classes, None).expect("dataset")
    };
    let train = build("train", "train_classes");
    let test = build("test", "test_classes");
    Fixture { train, test, table }
}

fn fixed(k: usize, weighting: Weighting, search: SearchMethod) -> KnnLearner {
    KnnLearner::new(KnnConfig {
        k,
        select_k: false,
        weighting,
        search,
        ..KnnConfig::default()
    })
}

fn model(fixture: &Fixture, learner: &KnnLearner) -> KnnModel {
    learner
        .fit_knn(&fixture.train.view(), None, 1)
        .expect("fit")
}

/// Neighbour order and distances equal Weka's, for both search methods.
fn check_neighbours(name: &str) {
    let fixture = load(name);
    let slots = matrix(&fixture.table, "neighbour_slots");
    let distances = matrix(&fixture.table, "neighbour_distances");
    let features = fixture.test.view().features();
    for search in [SearchMethod::Linear, SearchMethod::KdTree] {
        let model = model(&fixture, &fixed(5, Weighting::Uniform, search));
        let found = model.neighbours(&features, 21);
        for (row, found) in found.iter().enumerate() {
            for (rank, &(slot, squared)) in found.iter().enumerate() {
                let expected = distances[row][rank];
                assert!(
                    (squared.sqrt() - expected).abs() <= 1e-12 * expected.max(1.0),
                    "{name} row {row} rank {rank}: distance {} vs Weka {expected}",
                    squared.sqrt()
                );
                assert_eq!(
                    slot as f64, slots[row][rank],
                    "{name} row {row} rank {rank} ({search:?})"
                );
            }
        }
    }
}

#[test]
fn neighbours_and_distances_match_weka_on_glass() {
    check_neighbours("glass");
}

#[test]
fn neighbours_and_distances_match_weka_on_hepatitis_with_nominal_and_missing_values() {
    check_neighbours("hepatitis");
}

/// IBk adds `1/n` to every class before normalising; undo that to get Weka's vote shares.
/// `total` is the sum of the vote weights of the k neighbours and of every further one tied with
/// the k-th (IBk and we both let them all vote). Rows whose ties run to the end of the fixture's
/// neighbour list (so their extent is unknown) are skipped.
fn check_distribution(name: &str, key: &str, k: usize, weighting: Weighting) {
    let fixture = load(name);
    let weka = matrix(&fixture.table, key);
    let distances = matrix(&fixture.table, "neighbour_distances");
    let n = fixture.train.len() as f64;
    let classes = fixture.train.num_classes() as f64;
    let attributes = fixture.train.schema().num_attributes() as f64;
    let model = model(&fixture, &fixed(k, weighting, SearchMethod::Auto));
    let ours = model
        .predict_proba(&fixture.test.view().features())
        .expect("prediction");
    let mut compared = 0;
    for (row, weka_row) in weka.iter().enumerate() {
        let voters = distances[row]
            .iter()
            .take_while(|&&d| d <= distances[row][k - 1])
            .count();
        if voters == distances[row].len() {
            continue;
        }
        let total: f64 = distances[row][..voters]
            .iter()
            .map(|d| match weighting {
                Weighting::Uniform => 1.0,
                Weighting::InverseDistance => 1.0 / ((d * d / attributes).sqrt() + 0.001),
            })
            .sum();
        for (class, &p) in weka_row.iter().enumerate() {
            let share = (p * (total + classes / n) - 1.0 / n) / total;
            let got = ours.row(row)[class];
            assert!(
                (got - share).abs() <= 1e-9,
                "{name} {key} row {row} class {class}: {got} vs Weka's vote share {share}"
            );
        }
        compared += 1;
    }
    assert!(compared * 10 >= weka.len() * 8, "too few rows compared");
}

#[test]
fn uniform_votes_match_ibk_k5_on_glass() {
    check_distribution("glass", "ibk_k_5", 5, Weighting::Uniform);
}

#[test]
fn inverse_distance_votes_match_ibk_k5_i_on_glass() {
    check_distribution("glass", "ibk_k_5__i", 5, Weighting::InverseDistance);
}

#[test]
fn one_nearest_neighbour_matches_ibk_k1_on_glass() {
    check_distribution("glass", "ibk_k_1", 1, Weighting::Uniform);
}

#[test]
fn uniform_votes_match_ibk_k5_on_hepatitis() {
    check_distribution("hepatitis", "ibk_k_5", 5, Weighting::Uniform);
}

#[test]
fn inverse_distance_votes_match_ibk_k5_i_on_hepatitis() {
    check_distribution("hepatitis", "ibk_k_5__i", 5, Weighting::InverseDistance);
}

/// With `weka_smoothing` (every class starts at 1/n) our probabilities are IBk's own, on every
/// test row.
fn check_smoothed_distribution(name: &str, key: &str, k: usize, weighting: Weighting) {
    let fixture = load(name);
    let weka = matrix(&fixture.table, key);
    let learner = KnnLearner::new(KnnConfig {
        k,
        select_k: false,
        weighting,
        weka_smoothing: true,
        ..KnnConfig::default()
    });
    let ours = model(&fixture, &learner)
        .predict_proba(&fixture.test.view().features())
        .expect("prediction");
    for (row, weka_row) in weka.iter().enumerate() {
        for (class, &p) in weka_row.iter().enumerate() {
            let got = ours.row(row)[class];
            assert!(
                (got - p).abs() <= 1e-9,
                "{name} {key} row {row} class {class}: {got} vs Weka {p}"
            );
        }
    }
}

#[test]
fn weka_smoothing_gives_ibk_probabilities() {
    check_smoothed_distribution("glass", "ibk_k_5", 5, Weighting::Uniform);
    check_smoothed_distribution("glass", "ibk_k_5__i", 5, Weighting::InverseDistance);
    check_smoothed_distribution("glass", "ibk_k_1", 1, Weighting::Uniform);
    check_smoothed_distribution("hepatitis", "ibk_k_5", 5, Weighting::Uniform);
    check_smoothed_distribution("hepatitis", "ibk_k_5__i", 5, Weighting::InverseDistance);
}
