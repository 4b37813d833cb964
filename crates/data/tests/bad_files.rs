//! Dataset files a careful user might still get wrong (issue 28): each is read right or refused
//! with a message that names what was found and what is allowed, and what the reader decided
//! on its own is said in a notice (`LoadReport::notices`). The files are written here by hand;
//! every value asserted is the one written.

use std::path::PathBuf;

use data::{load, load_with_report, Catalog, DataError, LoadNotice, LoadOptions, LoadReport};

/// Writes `bytes` as `name` in a folder of this test binary and returns the path.
fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad_files");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Loads a file that must be refused; its message.
fn refused(name: &str, bytes: &[u8]) -> String {
    let path = write(name, bytes);
    let error = load(&path, &LoadOptions::default()).expect_err("refused");
    let message = error.to_string();
    assert!(message.contains(&path.display().to_string()), "{message}");
    message
}

/// Loads a file that must be read; the dataset's report.
fn read(name: &str, bytes: &[u8]) -> (data::Dataset, LoadReport) {
    let path = write(name, bytes);
    load_with_report(&path, &LoadOptions::default()).unwrap()
}

fn assert_words(message: &str, words: &[&str]) {
    for word in words {
        assert!(message.contains(word), "expected '{word}' in: {message}");
    }
}

#[test]
fn semicolons_and_tabs_separate_like_commas() {
    for (name, separator) in [("semicolons.csv", ";"), ("tabs.csv", "\t")] {
        let text = "x,y,class\n1.5,2,a\n3,4.25,b\n5,6,a\n".replace(',', separator);
        let (dataset, report) = read(name, text.as_bytes());
        assert_eq!(dataset.schema().num_attributes(), 2, "{name}");
        assert_eq!(dataset.column(0), [1.5, 3.0, 5.0], "{name}");
        assert_eq!(dataset.column(1), [2.0, 4.25, 6.0], "{name}");
        assert_eq!(dataset.schema().class_values, ["a", "b"], "{name}");
        assert_eq!(report.inferred_numeric, ["x", "y"], "{name}");
    }
}

#[test]
fn another_separator_is_refused_naming_it() {
    let message = refused("pipes.csv", b"x|y|class\n1|2|a\n3|4|b\n");
    assert_words(
        &message,
        &[
            ":1:",
            "no comma, semicolon or tab",
            "'|'",
            "not a separator",
        ],
    );
    let message = refused("one_column.csv", b"class\na\nb\n");
    assert_words(&message, &["one column", "separated by commas"]);
}

#[test]
fn decimal_commas_are_refused_not_read_as_labels() {
    let message = refused("decimal_comma.csv", b"x;class\n1,5;a\n2,25;b\n-3,0;a\n");
    assert_words(&message, &[":2, column 'x'", "'1,5'", "decimal comma"]);
}

#[test]
fn other_encodings_and_nul_bytes_are_refused() {
    let text = "x,class\n1,yes\n2,no\n";
    let little: Vec<u8> = text.bytes().flat_map(|b| [b, 0]).collect();
    let big: Vec<u8> = text.bytes().flat_map(|b| [0, b]).collect();
    let with_mark: Vec<u8> = [0xff, 0xfe].into_iter().chain(little.clone()).collect();
    let cases: [(&str, &[u8], &str); 4] = [
        ("utf16le.csv", &little, "UTF-16 (little-endian, without"),
        ("utf16be.csv", &big, "UTF-16 (big-endian, without"),
        (
            "utf16le_bom.csv",
            &with_mark,
            "UTF-16 (little-endian, with a byte-order mark)",
        ),
        (
            "utf32.csv",
            &[0xff, 0xfe, 0, 0, b'x', 0, 0, 0],
            "UTF-32 (little-endian",
        ),
    ];
    for (name, bytes, encoding) in cases {
        let message = refused(name, bytes);
        assert_words(&message, &[encoding, "must be UTF-8", "iconv"]);
    }
    let message = refused("nul.csv", b"x,class\n1,yes\n2\0,no\n");
    assert_words(&message, &[":3:2:", "NUL byte"]);
    let message = refused("latin1.csv", b"x,class\n1,caf\xe9\n2,no\n");
    assert_words(&message, &[":2:6:", "0xe9", "Windows-1252"]);
    let message = refused("nul.arff", b"@relation r\n@attribute a\0 numeric\n");
    assert_words(&message, &[":2:13:", "NUL byte"]);
}

#[test]
fn lone_carriage_returns_end_lines() {
    let (dataset, _) = read("lone_cr.csv", b"x,class\r1,a\r2,b\r3,a\r");
    assert_eq!(dataset.column(0), [1.0, 2.0, 3.0]);
    let (mixed, _) = read("mixed_ends.csv", b"x,class\r\n1,a\r2,b\n3,a\r\n");
    assert_eq!(mixed.column(0), [1.0, 2.0, 3.0]);
    let weka = "@relation r\r@attribute x numeric\r@attribute c {a,b}\r@data\r1,a\r2,b\r";
    let (arff, _) = read("lone_cr.arff", weka.as_bytes());
    assert_eq!(arff.column(0), [1.0, 2.0]);
}

#[test]
fn a_first_line_of_data_is_not_taken_for_a_header() {
    let message = refused("no_header.csv", b"5.1,3.5,a\n4.9,3.0,b\n4.7,3.2,a\n");
    assert_words(
        &message,
        &[
            ":1:",
            "looks like a row of data",
            "2 of its 3 fields",
            "5.1, 3.5",
            "add a header line",
        ],
    );
    // Whole-number names may be names (a numpy array saved by pandas): read, with a notice.
    let (dataset, report) = read("numbered.csv", b"0,1,2\n5,6,a\n7,8,b\n9,10,a\n");
    assert_eq!(dataset.len(), 3);
    let notice = LoadNotice::WholeNumberNames {
        names: vec!["0".into(), "1".into(), "2".into()],
    };
    assert_eq!(report.notices, std::slice::from_ref(&notice));
    assert_words(&notice.to_string(), &["(0, 1, 2)", "add a header line"]);
}

#[test]
fn digit_coded_categories_are_named_with_how_to_declare_them() {
    let mut text = String::from("size,spots,area,class\n");
    for row in 0..30 {
        text.push_str(&format!(
            "{},{},{}.5,{}\n",
            row % 6 + 1,
            row % 2,
            row,
            row % 3
        ));
    }
    let (_, report) = read("codes.csv", text.as_bytes());
    let expected = LoadNotice::FewWholeNumbers {
        columns: vec![("size".into(), 6), ("spots".into(), 2)],
    };
    assert_eq!(report.notices, std::slice::from_ref(&expected));
    assert_words(
        &expected.to_string(),
        &[
            "'size' (6 values), 'spots' (2 values)",
            "nominal_columns = [\"size\", \"spots\"]",
            "--nominal 'size' --nominal 'spots'",
        ],
    );
    // Declared nominal, no notice.
    let path = write("codes_declared.csv", text.as_bytes());
    let options = LoadOptions::default()
        .declare("size", data::ColumnType::Nominal)
        .declare("spots", data::ColumnType::Nominal);
    let (dataset, report) = load_with_report(&path, &options).unwrap();
    assert!(report.notices.is_empty(), "{:?}", report.notices);
    assert_eq!(dataset.schema().attributes[0].values().unwrap().len(), 6);
}

#[test]
fn a_mostly_missing_column_read_as_nominal_says_so() {
    // 6 of 10 values are NA or n/a (two spellings): the column turns nominal, with a notice.
    let mut text = String::from("x,class\n");
    for (row, value) in ["NA", "NA", "n/a", "NA", "NA", "NA", "5", "6", "7", "8"]
        .iter()
        .enumerate()
    {
        text.push_str(&format!("{value},{}\n", ["a", "b"][row % 2]));
    }
    let (dataset, report) = read("mostly_na.csv", text.as_bytes());
    assert!(!dataset.schema().attributes[0].is_numeric());
    let notice = LoadNotice::NominalWithNumbers {
        column: "x".into(),
        numbers: 4,
        present: 10,
        most_common: "NA".into(),
        count: 5,
    };
    assert_eq!(report.notices, std::slice::from_ref(&notice));
    assert_words(
        &notice.to_string(),
        &[
            "4 of its 10",
            "'NA' (5 times)",
            "missing_markers = [\"NA\"]",
            "--missing 'NA'",
        ],
    );
}

#[test]
fn a_huge_cell_gives_a_short_message() {
    let cell = "z".repeat(5 << 20);
    let text = format!("x,class\n1,a\n{cell},b\n2,a\n3,b\n");
    let message = refused("huge_cell.csv", text.as_bytes());
    assert!(message.len() < 2_000, "{} bytes", message.len());
    assert_words(&message, &[":3:1:", "(5242880 characters in all)"]);
    let table =
        data::TextTable::parse(std::path::Path::new("t.csv"), &format!("a,b\n1,{cell}\n")).unwrap();
    let message = table.numbers(1, false).unwrap_err().to_string();
    assert!(message.len() < 1_000, "{} bytes", message.len());
}

#[test]
fn a_missing_dataset_names_where_it_looked_and_the_closest_names() {
    let catalog = Catalog::locate().unwrap();
    let folder = PathBuf::from("/nonexistent/folder");
    let error = catalog
        .expand_in("glas", std::slice::from_ref(&folder))
        .unwrap_err();
    let DataError::UnknownDataset { closest, .. } = &error else {
        panic!("{error}");
    };
    assert_eq!(closest, &["glass"]);
    let message = error.to_string();
    assert_words(
        &message,
        &[
            "'glas' is neither",
            "/nonexistent/folder/glas",
            "datasets/catalog.toml",
            "the closest shipped names: glass",
            "lists all 47",
        ],
    );
    assert!(!message.contains("kr-vs-kp"), "{message}");
    let far = catalog.expand("qqqqqqqqqqqq").unwrap_err().to_string();
    assert_words(&far, &["no shipped name is close", "lists the 47"]);
}
