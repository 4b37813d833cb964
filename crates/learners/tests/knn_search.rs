//! Every neighbour search of the k-NN learner (k-d tree, exact block scan, block scan screened
//! with bit sets and lower bounds, byte codes for nominal data, row-by-row scan, the blocked
//! matrix-product screen) returns exactly
//! the neighbours of brute force, `data::distance::Distance::k_nearest` (an exhaustive scan that
//! sorts every training row by distance, then by position): the k nearest and every row tied
//! with the k-th, in the same order, with the same squared distances.
//!
//! The data is random on coarse grids (numeric values 0..=4 scaled by a training range of 4,
//! binary 0/1 columns, nominal values with three labels), so that many rows tie and every sum of
//! squares is exact whatever the order of its additions.

use data::{Attribute, Dataset, Schema};
use learners::knn::{KnnConfig, KnnLearner, SearchMethod};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The kind of a generated attribute.
#[derive(Clone, Copy)]
enum Column {
    /// Numeric, integers 0..=4 (0 and 4 always occur in training).
    Grid,
    /// Numeric, 0 or 1 in training; the test rows also take 2 when `test_outside` is set.
    Binary,
    /// Nominal with three values.
    Nominal,
}

/// A dataset of `rows` rows: the first `train_rows` for training, the rest for testing;
/// `missing` is the chance of a missing value (in the test rows only unless
/// `missing_in_training`).
fn dataset(
    seed: u64,
    columns: &[Column],
    rows: usize,
    train_rows: usize,
    missing: f64,
    missing_in_training: bool,
    test_outside: bool,
) -> Dataset {
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let mut values: Vec<Vec<f64>> = Vec::new();
    let mut attributes = Vec::new();
    for (number, column) in columns.iter().enumerate() {
        let name = format!("a{number}");
        let mut cells: Vec<f64> = (0..rows)
            .map(|row| match column {
                Column::Grid => generator.random_range(0..5) as f64,
                Column::Binary if test_outside && row >= train_rows => {
                    generator.random_range(0..3) as f64
                }
                Column::Binary => generator.random_range(0..2) as f64,
                Column::Nominal => generator.random_range(0..3) as f64,
            })
            .collect();
        match column {
            Column::Grid => {
                cells[0] = 0.0;
                cells[1] = 4.0;
            }
            Column::Binary => {
                cells[0] = 0.0;
                cells[1] = 1.0;
            }
            Column::Nominal => {}
        }
        let first_missing = if missing_in_training { 2 } else { train_rows };
        for cell in cells.iter_mut().skip(first_missing) {
            if generator.random_range(0.0..1.0) < missing {
                *cell = f64::NAN;
            }
        }
        attributes.push(match column {
            Column::Nominal => Attribute::nominal(&name, vec!["x".into(), "y".into(), "z".into()]),
            _ => Attribute::numeric(&name),
        });
        values.push(cells);
    }
    let classes = (0..rows)
        .map(|_| generator.random_range(0..2) as u32)
        .collect();
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values: vec!["p".into(), "n".into()],
    };
    Dataset::new("random-grid", schema, values, classes, None).unwrap()
}

/// Checks every search method against brute force for k in {1, 4, 21}, and that ties occur.
fn check(data: &Dataset, train_rows: usize) {
    let train = data.subset((0..train_rows).collect());
    let test_view = data.subset((train_rows..data.len()).collect());
    let test = test_view.features();
    let attributes = data.schema().num_attributes();
    let distance = data::distance::Distance::fit(&train);
    for k in [1, 4, 21] {
        let expected: Vec<Vec<(usize, f64)>> = (0..test_view.len())
            .map(|row| {
                let query: Vec<f64> = (0..attributes).map(|a| test_view.value(row, a)).collect();
                distance.k_nearest(&train, &query, k)
            })
            .collect();
        assert!(
            expected.iter().any(|row| row.len() > k),
            "the data should give ties at k = {k}"
        );
        for search in [
            SearchMethod::Auto,
            SearchMethod::Linear,
            SearchMethod::KdTree,
            SearchMethod::Blocked,
        ] {
            let model = KnnLearner::new(KnnConfig {
                k,
                select_k: false,
                search,
                ..KnnConfig::default()
            })
            .fit_knn(&train, None, 0)
            .unwrap();
            let found = model.neighbours(&test, k);
            for (row, (found, expected)) in found.iter().zip(&expected).enumerate() {
                assert_eq!(
                    found,
                    expected,
                    "test row {row}, k = {k}, {search:?} ({})",
                    model.search_description()
                );
            }
        }
    }
}

#[test]
fn low_dimensional_numeric_data_k_d_tree_and_exact_blocks() {
    check(
        &dataset(1, &[Column::Grid; 3], 700, 600, 0.0, false, false),
        600,
    );
}

#[test]
fn numeric_data_with_few_binary_attributes_exact_blocks() {
    let mut columns = vec![Column::Grid; 18];
    columns.extend([Column::Binary; 3]);
    check(&dataset(2, &columns, 500, 400, 0.0, false, false), 400);
}

#[test]
fn numeric_data_with_many_binary_attributes_screened_by_bit_sets() {
    let mut columns = vec![Column::Binary; 70];
    columns.extend([Column::Grid; 3]);
    check(&dataset(3, &columns, 500, 400, 0.0, false, false), 400);
}

#[test]
fn binary_attributes_whose_query_values_are_not_binary() {
    let mut columns = vec![Column::Grid; 2];
    columns.extend([Column::Binary; 12]);
    check(&dataset(4, &columns, 500, 400, 0.0, false, true), 400);
}

#[test]
fn only_binary_attributes() {
    check(
        &dataset(5, &[Column::Binary; 9], 400, 300, 0.0, false, false),
        300,
    );
}

#[test]
fn numeric_and_nominal_data_screened_then_exact() {
    let mut columns = vec![Column::Grid; 6];
    columns.extend([Column::Nominal; 3]);
    columns.extend([Column::Binary; 9]);
    check(&dataset(6, &columns, 500, 400, 0.0, false, false), 400);
}

#[test]
fn nominal_data_with_missing_values_byte_codes() {
    check(
        &dataset(7, &[Column::Nominal; 11], 500, 400, 0.1, true, false),
        400,
    );
}

#[test]
fn mixed_data_with_missing_values_row_by_row() {
    let columns = [
        Column::Grid,
        Column::Nominal,
        Column::Binary,
        Column::Grid,
        Column::Nominal,
    ];
    check(&dataset(8, &columns, 500, 400, 0.05, true, false), 400);
}

#[test]
fn complete_training_data_and_queries_with_missing_values() {
    let mut columns = vec![Column::Binary; 10];
    columns.extend([Column::Grid, Column::Nominal, Column::Grid]);
    check(&dataset(9, &columns, 500, 400, 0.1, false, false), 400);
    check(
        &dataset(10, &[Column::Grid; 20], 500, 400, 0.1, false, false),
        400,
    );
    check(
        &dataset(11, &[Column::Binary; 20], 500, 400, 0.1, false, false),
        400,
    );
}

#[test]
fn many_numeric_attributes_and_nominal_ones_blocked_screen() {
    // At least 48 numeric non-binary attributes and 256 training rows: `Auto` screens by the
    // blocked matrix product too.
    let mut columns = vec![Column::Grid; 50];
    columns.extend([Column::Nominal; 2]);
    columns.extend([Column::Binary; 3]);
    check(&dataset(12, &columns, 500, 400, 0.0, false, false), 400);
}
