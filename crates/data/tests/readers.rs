//! The CSV, ARFF and KEEL readers on the same data written three ways, and the ARFF reader on
//! Weka's own example files (counts from scipy.io.arff: tests/data/reference/weka_counts.py).

use std::path::PathBuf;

use data::{load, AttributeKind, ClassColumn, Dataset, LoadOptions};

fn test_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn read(name: &str) -> Dataset {
    load(test_file(name), &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{name} should load: {e}"))
}

/// Values of a dataset as text, so that datasets whose nominal values are coded in a different
/// order compare equal when they hold the same data.
fn as_text(dataset: &Dataset) -> Vec<Vec<String>> {
    let schema = dataset.schema();
    (0..dataset.len())
        .map(|row| {
            let mut cells: Vec<String> = schema
                .attributes
                .iter()
                .enumerate()
                .map(|(a, attribute)| {
                    let value = dataset.value(row, a);
                    if value.is_nan() {
                        "?".to_string()
                    } else {
                        match &attribute.kind {
                            AttributeKind::Numeric => format!("{value:?}"),
                            AttributeKind::Nominal(values) => values[value as usize].clone(),
                        }
                    }
                })
                .collect();
            cells.push(schema.class_values[dataset.class(row)].clone());
            cells
        })
        .collect()
}

#[test]
fn csv_arff_and_keel_give_the_same_dataset() {
    let csv = read("three_ways.csv");
    let arff = read("three_ways.arff");
    let keel = read("three_ways.dat");
    let expected_rows: Vec<Vec<&str>> = vec![
        vec!["85.0", "sunny", "FALSE", "no"],
        vec!["80.5", "sunny", "TRUE", "no"],
        vec!["?", "overcast", "FALSE", "yes"],
        vec!["70.0", "light rain", "?", "yes"],
        vec!["68.0", "light rain", "FALSE", "yes"],
        vec!["-30.0", "overcast", "TRUE", "yes"],
    ];
    for dataset in [&csv, &arff, &keel] {
        assert_eq!(as_text(dataset), expected_rows, "{}", dataset.name());
        assert_eq!(dataset.schema(), csv.schema(), "{}", dataset.name());
        assert_eq!(dataset.classes(), csv.classes());
        assert_eq!(dataset.missing_count(), 2);
        // Identical content, identical hash; the value is computed independently by
        // tests/data/reference/content_hash.py from the layout documented in src/hash.rs.
        assert_eq!(
            dataset.content_hash(),
            "6ebb3d83f16a5eb935c25a00b12d8d0135dd7ae8d7de97f7fcd99f67ec3644ee"
        );
    }
    // Types: temperature numeric (inferred in the CSV), the others nominal; nominal values in
    // first-appearance order for CSV, declared order for ARFF/KEEL (the same here).
    let schema = csv.schema();
    assert!(schema.attributes[0].is_numeric());
    assert_eq!(
        schema.attributes[1].values().unwrap(),
        ["sunny", "overcast", "light rain"]
    );
    assert_eq!(schema.attributes[2].values().unwrap(), ["FALSE", "TRUE"]);
    assert_eq!(schema.class_name, "class");
    assert_eq!(schema.class_values, ["no", "yes"]);
    assert_eq!(csv.name(), "three_ways");
}

#[test]
fn class_column_and_types_can_be_chosen() {
    let options = LoadOptions {
        class_column: Some(ClassColumn::Name("windy".into())),
        nominal_columns: Some(vec!["outlook".into(), "class".into()]),
        class_values: Some(vec!["TRUE".into(), "FALSE".into()]),
        name: Some("renamed".into()),
        ..LoadOptions::default()
    };
    // Row 4 has no windy value: a missing class is an error naming line 5.
    let error = load(test_file("three_ways.csv"), &options).unwrap_err();
    assert!(error.to_string().contains("three_ways.csv:5:"), "{error}");

    let options = LoadOptions {
        class_column: Some(ClassColumn::Index(1)),
        class_values: Some(vec!["overcast".into(), "sunny".into(), "light rain".into()]),
        ..LoadOptions::default()
    };
    let dataset = load(test_file("three_ways.csv"), &options).unwrap();
    assert_eq!(dataset.schema().class_name, "outlook");
    assert_eq!(
        dataset.schema().class_values,
        ["overcast", "sunny", "light rain"]
    );
    assert_eq!(dataset.classes(), [1, 1, 0, 2, 2, 0]);
    let names: Vec<&str> = dataset
        .schema()
        .attributes
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["temperature", "windy", "class"]);
}

#[test]
fn weka_examples_match_scipy_counts() {
    let reference: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(test_file("reference/weka_counts.json")).unwrap(),
    )
    .unwrap();
    let mut checked = 0;
    for (file, expected) in reference.as_object().unwrap() {
        if file == "source" {
            continue;
        }
        let dataset = read(file);
        let schema = dataset.schema();
        let numeric = schema.attributes.iter().filter(|a| a.is_numeric()).count();
        assert_eq!(
            dataset.len() as u64,
            expected["rows"].as_u64().unwrap(),
            "{file}"
        );
        assert_eq!(
            numeric as u64,
            expected["numeric_attributes"].as_u64().unwrap()
        );
        assert_eq!(
            (schema.num_attributes() - numeric) as u64,
            expected["nominal_attributes"].as_u64().unwrap(),
            "{file}"
        );
        let values: Vec<String> = expected["class_values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(schema.class_values, values, "{file}");
        let counts: Vec<f64> = expected["class_counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(dataset.class_counts(), counts, "{file}");
        assert_eq!(
            dataset.missing_count() as u64,
            expected["missing_values"].as_u64().unwrap(),
            "{file}"
        );
        checked += 1;
    }
    assert_eq!(checked, 7);
}

#[test]
fn weka_cpu_with_a_numeric_class_is_refused_by_default() {
    let error = load(test_file("weka-cpu.arff"), &LoadOptions::default()).unwrap_err();
    assert!(
        error.to_string().contains("class must be nominal"),
        "{error}"
    );
}

/// Weka's ARFF files hold the same data as two shipped CSV files converted from them.
#[test]
fn weka_arff_and_shipped_csv_agree() {
    let catalog = data::Catalog::locate().unwrap();
    for (arff, shipped) in [
        ("weka-breast-cancer.arff", "breast-cancer"),
        ("weka-vote.arff", "house-votes-84"),
    ] {
        let from_arff = read(arff);
        let from_csv = catalog.load(shipped).unwrap();
        assert_eq!(as_text(&from_arff), as_text(&from_csv), "{arff}");
    }
}

#[test]
fn sparse_rows_and_weights() {
    let dir = std::env::temp_dir().join(format!("data-sparse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sparse.arff");
    std::fs::write(
        &path,
        "@relation s\n@attribute a numeric\n@attribute b {x,y}\n@attribute c numeric\n@attribute class {p,n}\n@data\n{0 2.5, 3 n}\n{1 y, 2 ?}, {0.25}\n{}\n1,x,3,p,{2}\n",
    )
    .unwrap();
    let dataset = load(&path, &LoadOptions::default()).unwrap();
    assert_eq!(dataset.column(0), [2.5, 0.0, 0.0, 1.0]);
    assert_eq!(dataset.column(1), [0.0, 1.0, 0.0, 0.0]);
    assert!(dataset.column(2)[1].is_nan());
    assert_eq!(dataset.column(2)[3], 3.0);
    assert_eq!(dataset.classes(), [1, 0, 0, 0]);
    assert_eq!(dataset.weights(), [1.0, 0.25, 1.0, 2.0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn content_hash_ignores_the_name_but_not_the_content() {
    let original = read("three_ways.csv");
    let renamed = original.clone().with_name("other");
    assert_eq!(original.content_hash(), renamed.content_hash());
    let (name, schema, columns, classes, mut weights) = original.clone().into_parts();
    weights[0] = 2.0;
    let reweighted = Dataset::new(name, schema, columns, classes, Some(weights)).unwrap();
    assert_ne!(original.content_hash(), reweighted.content_hash());
    let subset = original.select_rows(&[0, 1, 2, 3, 4]);
    assert_ne!(original.content_hash(), subset.content_hash());
}
