//! Every shipped dataset loads with the catalog's counts and checksum; collections and name
//! resolution.

use std::collections::HashMap;

use data::{Catalog, ColumnType, LoadOptions};

/// The content hashes of every shipped dataset recorded before the strict column-type rules
/// (`cargo run -p data --example content_hashes`): name -> (through the catalog, from the bare
/// path with default options or the error then).
fn recorded_hashes() -> HashMap<String, (String, String)> {
    let text = include_str!("data/shipped_content_hashes.txt");
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let mut parts = line.splitn(3, ' ');
            let name = parts.next().unwrap().to_string();
            let declared = parts.next().unwrap().to_string();
            let inferred = parts.next().unwrap().to_string();
            (name, (declared, inferred))
        })
        .collect()
}

#[test]
fn every_shipped_dataset_matches_the_catalog() {
    let catalog = Catalog::locate().expect("the repository's datasets/catalog.toml");
    assert_eq!(catalog.entries().len(), 47);
    let recorded = recorded_hashes();
    assert_eq!(recorded.len(), 47);
    let mut failures = Vec::new();
    for name in catalog.names() {
        match catalog.verify(name) {
            Ok(verified) => {
                let entry = catalog.entry(name).unwrap();
                assert_eq!(verified.summary.instances, entry.instances);
                assert_eq!(verified.dataset.name(), name);
                let hash = verified.dataset.content_hash();
                if hash != recorded[name].0 {
                    failures.push(format!(
                        "{name}: content hash {hash}, recorded {}",
                        recorded[name].0
                    ));
                }
            }
            Err(error) => failures.push(error.to_string()),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn collections_have_the_papers_datasets() {
    let catalog = Catalog::locate().unwrap();
    let sizes: Vec<(&str, usize)> = catalog
        .collections()
        .iter()
        .map(|(name, members)| (name.as_str(), members.len()))
        .collect();
    assert_eq!(sizes, [("aslan", 15), ("provost", 9), ("wu-flach", 20)]);
    assert_eq!(catalog.collections_of("satimage"), ["aslan", "provost"]);
    assert_eq!(catalog.collections_of("crx"), ["provost", "wu-flach"]);
    assert_eq!(catalog.expand("provost").unwrap().len(), 9);
    assert_eq!(catalog.expand("sonar").unwrap(), ["sonar"]);
    let error = catalog.expand("no-such-dataset").unwrap_err().to_string();
    assert!(error.contains("'no-such-dataset' is neither"), "{error}");
}

#[test]
fn a_file_path_works_where_a_name_does() {
    let catalog = Catalog::locate().unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/weka-iris.arff");
    let dataset = catalog.resolve(path).unwrap();
    assert_eq!(dataset.len(), 150);
    assert_eq!(catalog.expand(path).unwrap(), [path]);
    let dataset = data::resolve("glass").unwrap();
    assert_eq!(dataset.len(), 214);
    // The catalog's class order is kept.
    let nursery = catalog.entry("nursery").unwrap();
    let order: Vec<&str> = nursery
        .class_counts
        .iter()
        .map(|(v, _)| v.as_str())
        .collect();
    assert_eq!(
        order,
        [
            "not_recom",
            "priority",
            "spec_prior",
            "very_recom",
            "recommend"
        ]
    );
}

#[test]
fn a_bad_catalog_is_an_error() {
    let root = std::path::Path::new("/nonexistent");
    let path = root.join("datasets/catalog.toml");
    let error = Catalog::parse(
        root,
        &path,
        "[collections]\nx = [\"missing\"]\n[datasets]\n",
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("collection 'x' names 'missing'"), "{error}");
    let error = Catalog::parse(root, &path, "[datasets.a]\nfile = 3\n")
        .unwrap_err()
        .to_string();
    assert!(error.contains("dataset 'a'"), "{error}");
}

/// Loading a shipped file from its bare path (types inferred, as for a user's file) gives the
/// same content as before the strict column-type rules, except nursery's `Children` column
/// (1, 2, 3 or `more`): three quarters numbers, so it is no longer guessed nominal but must be
/// declared; declared, it reads exactly as before.
#[test]
fn shipped_files_read_as_user_files_are_unchanged() {
    let catalog = Catalog::locate().expect("the repository's datasets/catalog.toml");
    let recorded = recorded_hashes();
    let mut failures = Vec::new();
    for entry in catalog.entries() {
        let expected = &recorded[&entry.name].1;
        let path = catalog.path_of(entry);
        if entry.name == "nursery" {
            let message = data::load(&path, &LoadOptions::default())
                .unwrap_err()
                .to_string();
            for words in [
                "nursery.csv:147:4: value 'more' of column 'Children' is not a number",
                "9720 of the column's 12960 present values are",
                "add it to the missing markers (missing_markers; by default the empty field and '?')",
                "declare it nominal",
            ] {
                assert!(message.contains(words), "{words:?} not in: {message}");
            }
            let declared = LoadOptions::default().declare("Children", ColumnType::Nominal);
            let (dataset, report) = data::load_with_report(&path, &declared).unwrap();
            assert_eq!(&dataset.content_hash(), expected);
            assert_eq!(report.inferred_nominal.len(), 7, "{report:?}");
            assert!(report.inferred_numeric.is_empty(), "{report:?}");
            continue;
        }
        let got = match data::load(&path, &LoadOptions::default()) {
            Ok(dataset) => dataset.content_hash(),
            Err(error) => format!("error: {error}"),
        };
        if &got != expected {
            failures.push(format!("{}: {got}, recorded {expected}", entry.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One file listed twice under two names with different column settings (issue 28): each name
/// reads the file with its own settings.
#[test]
fn one_file_can_be_listed_twice_with_different_column_settings() {
    let root = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("catalog_twice");
    std::fs::create_dir_all(root.join("datasets")).unwrap();
    let text = "size,x,class\n1,0.5,a\n2,1.5,b\n1,2.5,a\n3,3.5,b\n";
    std::fs::write(root.join("datasets/codes.csv"), text).unwrap();
    let entry = |name: &str, nominal: &str| {
        format!(
            "[datasets.{name}]\nfile = \"datasets/codes.csv\"\nuci_name = \"codes\"\n\
             role = \"original\"\nsource_registry = \"generated\"\nsource_package = \"-\"\n\
             source_version = \"-\"\nsource_artifact = \"-\"\nsource_path = \"-\"\n\
             package_license = \"-\"\ndata_license = \"-\"\ninstances = 4\n\
             numeric_attributes = 1\nnominal_attributes = 1\nmissing_values = 0\n\
             rows_with_missing = 0\nclass_counts = {{ a = 2, b = 2 }}\n\
             nominal_columns = [{nominal}]\ncsv_bytes = 0\ncsv_sha256 = \"-\"\n"
        )
    };
    let catalog_text = format!(
        "{}{}",
        entry("codes", ""),
        entry("codes-nominal", "\"size\"")
    );
    let path = root.join("datasets/catalog.toml");
    let catalog = Catalog::parse(&root, &path, &catalog_text).unwrap();
    let numeric = catalog.load("codes").unwrap();
    assert!(numeric.schema().attributes[0].is_numeric());
    assert_eq!(numeric.column(0), [1.0, 2.0, 1.0, 3.0]);
    let nominal = catalog.load("codes-nominal").unwrap();
    let values = nominal.schema().attributes[0].values().unwrap().to_vec();
    assert_eq!(values, ["1", "2", "3"]);
    assert_eq!(nominal.column(1), [0.5, 1.5, 2.5, 3.5]);
}
