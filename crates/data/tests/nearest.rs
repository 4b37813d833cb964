//! The leave-one-out nearest neighbours (k-d tree, groups of nominal values, exhaustive search)
//! against a brute-force reference: every pair's full squared distance by
//! [`Distance::squared`], the smallest kept with all its ties, on random data made to tie.

use data::distance::Distance;
use data::nearest::leave_one_out_nearest_tied;
use data::{Attribute, Dataset, Schema};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every other row at the smallest squared distance from each row, ascending.
fn brute_force(dataset: &Dataset) -> Vec<Vec<usize>> {
    let distance = Distance::fit_dataset(dataset);
    let width = dataset.schema().num_attributes();
    let row = |r: usize| -> Vec<f64> { (0..width).map(|a| dataset.column(a)[r]).collect() };
    let rows: Vec<Vec<f64>> = (0..dataset.len()).map(row).collect();
    (0..rows.len())
        .map(|query| {
            let distances: Vec<(usize, f64)> = (0..rows.len())
                .filter(|&other| other != query)
                .map(|other| (other, distance.squared(&rows[query], &rows[other])))
                .collect();
            let nearest = distances.iter().map(|d| d.1).fold(f64::INFINITY, f64::min);
            distances
                .iter()
                .filter(|d| d.1 == nearest)
                .map(|d| d.0)
                .collect()
        })
        .collect()
}

/// What a random dataset is made of.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Numeric values among `levels` integers (ties and duplicates), some columns constant.
    NumericFew { levels: u32 },
    /// Numeric values drawn from a continuum (few ties).
    NumericMany,
    /// Nominal values among `levels`.
    Nominal { levels: u32 },
    /// Numeric and nominal columns with missing values.
    MixedMissing,
}

fn random_dataset(kind: Kind, rows: usize, width: usize, seed: u64) -> Dataset {
    let mut random = ChaCha8Rng::seed_from_u64(seed);
    let mut attributes = Vec::new();
    let mut columns = Vec::new();
    for a in 0..width {
        let nominal = match kind {
            Kind::Nominal { .. } => true,
            Kind::MixedMissing => a % 2 == 1,
            _ => false,
        };
        let levels = match kind {
            Kind::NumericFew { levels } | Kind::Nominal { levels } => levels,
            _ => 3,
        };
        let constant = matches!(kind, Kind::NumericFew { .. }) && a % 5 == 4;
        let column = (0..rows)
            .map(|_| match kind {
                Kind::NumericMany => random.random_range(-10.0..10.0),
                Kind::MixedMissing if random.random_range(0..6) == 0 => f64::NAN,
                _ if constant => 1.0,
                _ => random.random_range(0..levels) as f64,
            })
            .collect();
        columns.push(column);
        attributes.push(if nominal {
            Attribute::nominal(
                format!("n{a}"),
                (0..levels).map(|v| v.to_string()).collect(),
            )
        } else {
            Attribute::numeric(format!("a{a}"))
        });
    }
    let classes = (0..rows).map(|_| random.random_range(0..3)).collect();
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values: vec!["a".into(), "b".into(), "c".into()],
    };
    Dataset::new("random", schema, columns, classes, None).unwrap()
}

#[test]
fn every_search_matches_brute_force_with_ties() {
    let kinds = [
        Kind::NumericFew { levels: 2 },
        Kind::NumericFew { levels: 4 },
        Kind::NumericMany,
        Kind::Nominal { levels: 2 },
        Kind::Nominal { levels: 3 },
        Kind::MixedMissing,
    ];
    let shapes = [
        (2, 1),
        (3, 2),
        (17, 3),
        (40, 1),
        (150, 5),
        (300, 9),
        (400, 20),
        (90, 70),
    ];
    let mut seed = 0;
    for kind in kinds {
        for (rows, width) in shapes {
            seed += 1;
            let dataset = random_dataset(kind, rows, width, seed);
            assert_eq!(
                leave_one_out_nearest_tied(&dataset),
                brute_force(&dataset),
                "{kind:?}, {rows} rows, {width} attributes"
            );
        }
    }
}

#[test]
fn nominal_duplicates_and_far_rows() {
    // Many copies of a few rows (ties at distance 0) and rows differing in every attribute.
    let mut dataset = random_dataset(Kind::Nominal { levels: 2 }, 600, 4, 99);
    let columns: Vec<Vec<f64>> = (0..4)
        .map(|a| (0..600).map(|r| dataset.column(a)[r % 7]).collect())
        .collect();
    let (name, schema, _, classes, weights) = dataset.into_parts();
    dataset = Dataset::new(name, schema, columns, classes, Some(weights)).unwrap();
    assert_eq!(leave_one_out_nearest_tied(&dataset), brute_force(&dataset));
}
