//! `LoadOptions::skip_columns`: ARFF attributes dropped while reading, whatever their type; a
//! `string` attribute not skipped is still refused naming the line.

use data::{load, LoadOptions};

const ARFF: &str = "@relation r\n@attribute id string\n@attribute x numeric\n\
                    @attribute when date\n@attribute class {p,n}\n@data\n\
                    'row 1',1.5,'2020-01-01',p\n'row 2',?,'2020-01-02',n\nr3,2.5,x,n\n";

/// The ARFF in a scratch folder of its own (`name` tells the tests apart).
fn file(name: &str) -> std::path::PathBuf {
    let folder =
        std::env::temp_dir().join(format!("data-skip-columns-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("strings.arff");
    std::fs::write(&path, ARFF).unwrap();
    path
}

#[test]
fn skipped_attributes_of_any_type_are_dropped() {
    let path = file("dropped");
    let options = LoadOptions {
        skip_columns: vec!["id".into(), "when".into(), "absent".into()],
        ..LoadOptions::default()
    };
    let dataset = load(&path, &options).unwrap();
    let names: Vec<&str> = dataset
        .schema()
        .attributes
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["x"]);
    assert_eq!(dataset.len(), 3);
    assert_eq!(dataset.column(0)[0], 1.5);
    assert!(dataset.column(0)[1].is_nan());
    assert_eq!(dataset.classes(), [0, 1, 1]);
}

#[test]
fn a_string_attribute_not_skipped_is_refused_naming_its_line() {
    let path = file("refused");
    let options = LoadOptions {
        skip_columns: vec!["id".into()],
        ..LoadOptions::default()
    };
    let message = load(&path, &options).unwrap_err().to_string();
    assert!(message.contains("strings.arff:4:"), "{message}");
    assert!(message.contains("'when' has type 'date'"), "{message}");
}
