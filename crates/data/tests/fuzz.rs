//! The CSV, ARFF and KEEL readers under generated malformed input: whatever the bytes and the
//! reading options, `load` returns a dataset or a `DataError`, and never panics. Plus the
//! regression corpus `tests/data/fuzz-regressions/`, every file of which must load or fail
//! cleanly.
//!
//! `cargo test -p data --test fuzz` tries 256 inputs per generator (four generators).
//! A long run, by hand (docs/fuzzing.md records the last one):
//!
//! ```sh
//! DATA_FUZZ_CASES=50000 DATA_FUZZ_SEED=1 cargo test -p data --test fuzz -- --nocapture --test-threads 2
//! ```
//!
//! An input that panics is written to `$CARGO_TARGET_TMPDIR/fuzz-found/` before the test fails;
//! copy it into `tests/data/fuzz-regressions/` once fixed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use data::{load, ClassColumn, ColumnType, DataError, LoadOptions};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

/// Inputs per generator: `DATA_FUZZ_CASES`, default 256.
fn cases() -> u32 {
    std::env::var("DATA_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// A runner seeded by `DATA_FUZZ_SEED` (default 0), so that a run can be repeated.
fn runner() -> TestRunner {
    let seed: u64 = std::env::var("DATA_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// A scratch folder of this test binary.
fn scratch(name: &str) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// How many inputs of one generator loaded as a dataset (the rest were refused).
static LOADED: [AtomicUsize; 5] = [const { AtomicUsize::new(0) }; 5];

/// Writes the bytes as `input.EXT` in `folder`, loads them, and fails (after saving the input
/// under `fuzz-found/`) if the reader panics.
fn loads_or_fails_cleanly(
    generator: usize,
    folder: &Path,
    extension: &str,
    bytes: &[u8],
    options: &LoadOptions,
) -> Result<(), TestCaseError> {
    let path = folder.join(format!("input.{extension}"));
    std::fs::write(&path, bytes).unwrap();
    match catch_unwind(AssertUnwindSafe(|| load(&path, options))) {
        Ok(Ok(dataset)) => {
            // A dataset that loads is whole: its hash and counts are computable.
            let _ = dataset.content_hash();
            prop_assert!(dataset.num_classes() >= 2);
            LOADED[generator].fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Ok(Err(error)) => {
            let message = error.to_string();
            prop_assert!(!message.is_empty());
            if !matches!(
                error,
                DataError::ClassColumn { .. } | DataError::Declaration { .. }
            ) {
                prop_assert!(message.contains("input."), "{}", message);
            }
            Ok(())
        }
        Err(_) => {
            let found = scratch("fuzz-found");
            let name = format!("{:016x}.{extension}", fxhash(bytes));
            std::fs::write(found.join(&name), bytes).unwrap();
            std::fs::write(
                found.join(format!("{name}.options.txt")),
                format!("{options:?}"),
            )
            .unwrap();
            Err(TestCaseError::fail(format!(
                "the reader panicked on {} with {options:?}",
                found.join(name).display()
            )))
        }
    }
}

/// A small stable hash for naming found inputs.
fn fxhash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A field: mostly plausible (numbers, markers, short words), sometimes hostile.
fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop_oneof![
            any::<i8>().prop_map(|n| n.to_string()),
            (-100.0..100.0f64).prop_map(|x| format!("{x:.3}")),
            prop::sample::select(vec!["a", "b", "c", "", "?"]).prop_map(str::to_string),
        ],
        1 => hostile_cell(),
    ]
}

/// A class label: mostly one of three words.
fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        18 => prop::sample::select(vec!["x", "y", "z"]).prop_map(str::to_string),
        1 => any::<u8>().prop_map(|n| n.to_string()),
        1 => cell(),
    ]
}

/// A field that tries the reader: numbers ordinary and not, markers, words, quotes balanced or
/// not, odd characters.
fn hostile_cell() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => any::<i16>().prop_map(|n| n.to_string()),
        3 => any::<f64>().prop_map(|x| x.to_string()),
        2 => prop::sample::select(vec![
            "1e400", "-1e400", "1e-400", "NaN", "nan", "inf", "-inf", "+Infinity", "1e308",
            "-0", "0x10", "1,5", "1.5.2", "1_000", ".", "-", "+", "e5", "5e", " 7 ", "\t8",
        ])
        .prop_map(str::to_string),
        2 => prop::sample::select(vec!["?", "NA", "", " ", " ? ", "<null>", "'?'", "null"])
            .prop_map(str::to_string),
        3 => "[a-c]{1,3}",
        1 => "\"[a-c,\" \n]{0,5}\"?",
        1 => "[a-c]\"[a-c]",
        1 => "\\PC{0,3}",
        1 => prop::sample::select(vec!["\"", "\"\"", "\r", "\u{feff}", "{", "}", "%", "'"])
            .prop_map(str::to_string),
    ]
}

fn column_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["a", "b", "x", "class", "y"]).prop_map(str::to_string),
        1 => hostile_cell(),
    ]
}

/// Reading options, from the defaults to contradictory declarations.
fn options() -> impl Strategy<Value = LoadOptions> {
    let names = || vec(column_name(), 0..3);
    let declared = (
        prop_oneof![
            3 => Just(None),
            1 => column_name().prop_map(|n| Some(ClassColumn::Name(n))),
            1 => (0usize..6).prop_map(|i| Some(ClassColumn::Index(i))),
        ],
        prop_oneof![3 => Just(None), 1 => names().prop_map(Some)],
        vec(
            (
                column_name(),
                prop_oneof![Just(ColumnType::Numeric), Just(ColumnType::Nominal)],
            ),
            0..3,
        ),
        prop_oneof![
            3 => Just(None),
            1 => vec(
                prop::sample::select(vec!["", "?", "NA", "-999", "a", " "]).prop_map(str::to_string),
                0..3
            )
            .prop_map(Some),
        ],
        any::<bool>(),
        prop_oneof![3 => Just(None), 1 => names().prop_map(Some)],
    )
        .prop_map(
            |(class_column, nominal_columns, column_types, missing_markers, allow, class_values)| {
                LoadOptions {
                    class_column,
                    nominal_columns,
                    column_types,
                    missing_markers,
                    allow_numeric_class: allow,
                    class_values,
                    name: None,
                    skip_columns: Vec::new(),
                }
            },
        );
    prop_oneof![3 => Just(LoadOptions::default()), 2 => declared]
}

/// A CSV text: a header and rows, mostly of the header's width, with a random line end and an
/// optional byte-order mark.
fn csv_text() -> impl Strategy<Value = String> {
    (1usize..6)
        .prop_flat_map(|width| {
            let names: Vec<String> = (0..width).map(|i| format!("c{i}")).collect();
            (
                prop_oneof![4 => Just(names), 1 => vec(column_name(), width)],
                vec(
                    prop_oneof![
                        6 => (vec(cell(), width - 1), label()).prop_map(|(mut row, class)| {
                            row.push(class);
                            row
                        }),
                        1 => vec(cell(), 0..width + 2),
                    ],
                    0..14,
                ),
                prop::sample::select(vec!["\n", "\r\n", "\n\n", "\r"]),
                any::<bool>(),
                any::<bool>(),
            )
        })
        .prop_map(|(header, rows, end, bom, trailing)| {
            let mut text = String::new();
            if bom {
                text.push('\u{feff}');
            }
            text.push_str(&header.join(","));
            for row in rows {
                text.push_str(end);
                text.push_str(&row.join(","));
            }
            if trailing {
                text.push_str(end);
            }
            text
        })
}

/// An ARFF or KEEL header line: declarations of every kind, well-formed or not.
fn header_line() -> impl Strategy<Value = String> {
    let kind = prop::sample::select(vec![
        "numeric",
        "NUMERIC",
        "real",
        "integer",
        "real [0, 1]",
        "integer [1,5]",
        "{a,b,c}",
        "{a, 'b c', \"d\"}",
        "{}",
        "{a,",
        "{a,,b}",
        "string",
        "date \"yyyy-MM-dd\"",
        "relational",
        "bogus",
        "",
    ]);
    prop_oneof![
        4 => (column_name(), kind.clone()).prop_map(|(n, k)| format!("@attribute {n} {k}")),
        1 => (column_name(), kind).prop_map(|(n, k)| format!("@ATTRIBUTE '{n}' {k}")),
        1 => Just("@relation r".to_string()),
        1 => vec(column_name(), 0..3).prop_map(|n| format!("@inputs {}", n.join(", "))),
        1 => vec(column_name(), 0..3).prop_map(|n| format!("@outputs {}", n.join(", "))),
        1 => Just("% a comment".to_string()),
        1 => Just("@data".to_string()),
        1 => cell(),
    ]
}

/// An ARFF or KEEL data row: dense, sparse, weighted, or junk.
fn data_line() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => vec(cell(), 0..5).prop_map(|cells| cells.join(",")),
        2 => vec(
            prop_oneof![
                Just("a".to_string()), Just("b".to_string()), Just("?".to_string()),
                any::<i8>().prop_map(|n| n.to_string()),
            ],
            1..5
        )
        .prop_map(|cells| cells.join(", ")),
        1 => vec((0usize..6, cell()), 0..4).prop_map(|pairs| {
            let inner: Vec<String> = pairs.iter().map(|(i, v)| format!("{i} {v}")).collect();
            format!("{{{}}}", inner.join(", "))
        }),
        1 => (vec(cell(), 1..4), cell()).prop_map(|(cells, w)| format!("{}, {{{w}}}", cells.join(","))),
        1 => Just(String::new()),
    ]
}

/// An ARFF/KEEL text: declared attributes and a nominal class, rows that mostly fit, and a few
/// lines replaced, dropped or duplicated.
fn header_text() -> impl Strategy<Value = String> {
    prop_oneof![3 => plausible_header_text(), 1 => random_header_text()]
}

fn plausible_header_text() -> impl Strategy<Value = String> {
    let kinds = vec(
        prop::sample::select(vec!["numeric", "real [0, 10]", "integer", "{a,b,c}"]),
        0..4,
    );
    (kinds, any::<bool>())
        .prop_flat_map(|(kinds, keel)| {
            let values: Vec<_> = kinds
                .iter()
                .map(|kind| {
                    let fitting = if kind.starts_with('{') {
                        prop::sample::select(vec!["a", "b", "c", "?", "'b'"])
                            .prop_map(str::to_string)
                            .boxed()
                    } else {
                        prop_oneof![
                            any::<i8>().prop_map(|n| n.to_string()),
                            Just("?".to_string())
                        ]
                        .boxed()
                    };
                    prop_oneof![12 => fitting, 1 => hostile_cell()]
                })
                .collect();
            let row = prop_oneof![
                12 => (values, label())
                    .prop_map(|(mut cells, class)| {
                        cells.push(class);
                        cells.join(", ")
                    }),
                1 => data_line(),
            ];
            (
                Just(kinds),
                Just(keel),
                vec(row, 1..10),
                prop_oneof![
                    2 => Just(vec![]),
                    1 => vec((any::<usize>(), 0u8..3, header_line()), 1..3),
                ],
            )
        })
        .prop_map(|(kinds, keel, rows, edits)| {
            let mut lines = vec!["@relation r".to_string()];
            for (i, kind) in kinds.iter().enumerate() {
                lines.push(format!("@attribute a{i} {kind}"));
            }
            lines.push("@attribute class {x, y, z}".to_string());
            if keel {
                let inputs: Vec<String> = (0..kinds.len()).map(|i| format!("a{i}")).collect();
                lines.push(format!("@inputs {}", inputs.join(", ")));
                lines.push("@outputs class".to_string());
            }
            lines.push("@data".to_string());
            lines.extend(rows);
            for (at, kind, line) in edits {
                let index = at % lines.len();
                match kind {
                    0 => lines[index] = line,
                    1 => {
                        lines.remove(index);
                    }
                    _ => lines.insert(index, lines[index].clone()),
                }
            }
            lines.join("\n")
        })
}

fn random_header_text() -> impl Strategy<Value = String> {
    (
        vec(header_line(), 0..7),
        any::<bool>(),
        vec(data_line(), 0..10),
        prop::sample::select(vec!["\n", "\r\n", "\n\t"]),
    )
        .prop_map(|(header, data, rows, end)| {
            let mut lines = header;
            if data {
                lines.push("@data".to_string());
            }
            lines.extend(rows);
            lines.join(end)
        })
}

/// A valid file to mutate: the crate's test files.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for folder in ["tests/data", "tests/data/columns"] {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
        for entry in std::fs::read_dir(folder).unwrap().flatten() {
            let path = entry.path();
            let extension = path
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default();
            if ["csv", "arff", "dat"].contains(&extension.as_str()) {
                seeds.push((extension, std::fs::read(&path).unwrap()));
            }
        }
    }
    seeds.sort();
    seeds
}

/// One edit of a byte string.
#[derive(Clone, Debug)]
enum Mutation {
    Truncate(usize),
    Insert(usize, u8),
    Delete(usize, usize),
    Replace(usize, u8),
    DuplicateLine(usize),
    Splice(usize, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let special = prop::sample::select(vec![
        b',', b'"', b'\'', b'\n', b'\r', b'{', b'}', b'%', b'?', b' ', 0xff, 0xc3, b'@', b'\\',
    ]);
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), special.clone()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1usize..20).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), special).prop_map(|(i, b)| Mutation::Replace(i, b)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), cell()).prop_map(|(i, c)| Mutation::Splice(i, c)),
    ]
}

fn mutate(bytes: &mut Vec<u8>, edit: &Mutation) {
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
    match edit {
        Mutation::Truncate(i) => bytes.truncate(at(*i, bytes.len())),
        Mutation::Insert(i, b) => bytes.insert(at(*i, bytes.len()), *b),
        Mutation::Delete(i, n) => {
            let start = at(*i, bytes.len());
            let end = (start + n).min(bytes.len());
            bytes.drain(start..end);
        }
        Mutation::Replace(i, b) => {
            if !bytes.is_empty() {
                let index = i % bytes.len();
                bytes[index] = *b;
            }
        }
        Mutation::DuplicateLine(i) => {
            let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
            let line = lines[i % lines.len()].to_vec();
            bytes.extend_from_slice(b"\n");
            bytes.extend_from_slice(&line);
        }
        Mutation::Splice(i, text) => {
            let start = at(*i, bytes.len());
            bytes.splice(start..start, text.bytes());
        }
    }
}

/// Runs one generator and prints how many inputs it tried.
fn fuzz<S: Strategy>(
    generator: usize,
    name: &str,
    strategy: S,
    check: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let start = Instant::now();
    runner()
        .run(&strategy, check)
        .unwrap_or_else(|error| panic!("{name}: {error}"));
    eprintln!(
        "fuzz {name}: {} inputs, none panicked ({} loaded, the rest refused with an error), {:.1?}",
        cases(),
        LOADED[generator].load(Ordering::Relaxed),
        start.elapsed()
    );
}

#[test]
fn csv_reader_never_panics() {
    let folder = scratch("fuzz-csv");
    fuzz(0, "csv", (csv_text(), options()), |(text, options)| {
        loads_or_fails_cleanly(0, &folder, "csv", text.as_bytes(), &options)
    });
}

#[test]
fn arff_and_keel_readers_never_panic() {
    let folder = scratch("fuzz-arff");
    fuzz(
        1,
        "arff/keel",
        (header_text(), any::<bool>(), options()),
        |(text, keel, options)| {
            let extension = if keel { "dat" } else { "arff" };
            loads_or_fails_cleanly(1, &folder, extension, text.as_bytes(), &options)
        },
    );
}

#[test]
fn mutated_valid_files_never_panic() {
    let folder = scratch("fuzz-mutated");
    let seeds = seeds();
    assert!(seeds.len() >= 20, "{} seed files", seeds.len());
    fuzz(
        2,
        "mutated",
        (0..seeds.len(), vec(mutation(), 1..6), options()),
        |(seed, edits, options)| {
            let (extension, bytes) = &seeds[seed];
            let mut bytes = bytes.clone();
            for edit in &edits {
                mutate(&mut bytes, edit);
            }
            loads_or_fails_cleanly(2, &folder, extension, &bytes, &options)
        },
    );
}

#[test]
fn random_bytes_never_panic() {
    let folder = scratch("fuzz-bytes");
    fuzz(
        3,
        "bytes",
        (
            vec(any::<u8>(), 0..300),
            prop::sample::select(vec!["csv", "arff", "dat"]),
        ),
        |(bytes, extension)| {
            loads_or_fails_cleanly(3, &folder, extension, &bytes, &LoadOptions::default())
        },
    );
}

/// A value of a table written to be read back.
#[derive(Clone, Debug)]
enum Value {
    /// A finite number, and how it is written.
    Number(f64, String),
    /// A word (a nominal value or class label).
    Word(String),
    /// A missing value.
    Missing,
}

/// A table to write and read back: attribute columns (numeric or nominal) then a class column
/// of words; `columns[c][r]` is the value of row r.
#[derive(Clone, Debug)]
struct Written {
    names: Vec<String>,
    columns: Vec<Vec<Value>>,
}

/// A word that is neither a number nor a missing marker, with no space at either end; it may
/// hold separators, quotes, braces, `%`, tabs and line breaks (never `\r`, which ends a line).
fn word() -> impl Strategy<Value = String> {
    "[a-zA-Zé][a-zA-Z0-9é ,;\"'\t\n{}%_-]{0,6}".prop_filter("an inner word", |word| {
        !word.ends_with(char::is_whitespace) && word.trim().parse::<f64>().is_err()
    })
}

/// A finite number and its spelling: shortest, exponent, or with a `+`.
fn number() -> impl Strategy<Value = Value> {
    let value = prop_oneof![
        (-1_000_000i64..1_000_000).prop_map(|n| n as f64),
        -1e3..1e3f64,
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
    ];
    (value, 0..3u8).prop_map(|(x, style)| {
        let text = match style {
            0 => format!("{x}"),
            1 => format!("{x:e}"),
            _ if x.is_sign_positive() => format!("+{x}"),
            _ => format!("{x}"),
        };
        Value::Number(x, text)
    })
}

/// One attribute column of `rows` values, numeric or nominal, its first value present.
fn column(rows: usize) -> impl Strategy<Value = Vec<Value>> {
    let missing = || prop_oneof![4 => Just(false), 1 => Just(true)];
    let numbers = vec((number(), missing()), rows);
    let words = vec((word().prop_map(Value::Word), missing()), rows);
    prop_oneof![numbers, words].prop_map(|cells| {
        let present = |(row, (value, missing)): (usize, (Value, bool))| match missing && row > 0 {
            true => Value::Missing,
            false => value,
        };
        cells.into_iter().enumerate().map(present).collect()
    })
}

/// A table of 2 to 12 rows, 1 to 4 attributes and a class with at least two labels.
fn written() -> impl Strategy<Value = Written> {
    (2..12usize, 1..5usize)
        .prop_flat_map(|(rows, attributes)| {
            let names = prop::collection::hash_set(word(), attributes + 1);
            let labels = vec(word(), rows);
            (names, vec(column(rows), attributes), labels)
        })
        .prop_filter("two labels", |(_, _, labels)| labels[0] != labels[1])
        .prop_map(|(names, mut columns, labels)| {
            columns.push(labels.into_iter().map(Value::Word).collect());
            Written {
                names: names.into_iter().collect(),
                columns,
            }
        })
}

/// A CSV field: quoted (quotes doubled) when it holds a separator the reader could choose (a
/// comma, semicolon or tab, whichever the file uses: a semicolon file whose every line holds as
/// many bare commas is ambiguous), a quote, a line break or a space at an end.
fn csv_field(text: &str, separator: char) -> String {
    let special = |c: char| c == separator || matches!(c, '"' | '\n' | '\r' | '\t' | ',' | ';');
    if text.chars().any(special) || text.trim() != text {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The text of a value in a CSV file.
fn csv_value(value: &Value, separator: char) -> String {
    match value {
        Value::Number(_, text) => text.clone(),
        Value::Word(word) => csv_field(word, separator),
        Value::Missing => String::new(),
    }
}

/// The table as CSV with `separator` and `line_end`, maybe a byte-order mark and blank lines.
fn written_csv(table: &Written, separator: char, line_end: &str, extras: (bool, bool)) -> String {
    let (mark, blanks) = extras;
    let mut text = String::from(if mark { "\u{feff}" } else { "" });
    let names: Vec<String> = table
        .names
        .iter()
        .map(|n| csv_field(n, separator))
        .collect();
    text.push_str(&names.join(&separator.to_string()));
    text.push_str(line_end);
    for row in 0..table.columns[0].len() {
        let cells: Vec<String> = table
            .columns
            .iter()
            .map(|column| csv_value(&column[row], separator))
            .collect();
        text.push_str(&cells.join(&separator.to_string()));
        text.push_str(line_end);
        if blanks && row == 0 {
            text.push_str(line_end);
        }
    }
    text
}

/// An ARFF single-quoted string (backslash escapes).
fn arff_quoted(text: &str) -> String {
    let escaped = text
        .replace('\\', "\\\\")
        .replace('\'', "\\'")
        .replace('\n', "\\n")
        .replace('\t', "\\t");
    format!("'{escaped}'")
}

/// The table as an ARFF file (nominal values declared in order of first appearance).
fn arff_text(table: &Written) -> String {
    let mut text = String::from("@relation round-trip\n");
    for (name, column) in table.names.iter().zip(&table.columns) {
        let mut words: Vec<&str> = Vec::new();
        for value in column {
            if let Value::Word(word) = value {
                if !words.contains(&word.as_str()) {
                    words.push(word);
                }
            }
        }
        let kind = match column.iter().any(|v| matches!(v, Value::Number(..))) {
            true => "numeric".to_string(),
            false => {
                let quoted: Vec<String> = words.iter().map(|w| arff_quoted(w)).collect();
                format!("{{{}}}", quoted.join(","))
            }
        };
        text.push_str(&format!("@attribute {} {kind}\n", arff_quoted(name)));
    }
    text.push_str("@data\n");
    for row in 0..table.columns[0].len() {
        let cells: Vec<String> = table
            .columns
            .iter()
            .map(|column| match &column[row] {
                Value::Number(_, text) => text.clone(),
                Value::Word(word) => arff_quoted(word),
                Value::Missing => "?".to_string(),
            })
            .collect();
        text.push_str(&cells.join(","));
        text.push('\n');
    }
    text
}

/// The dataset holds exactly the written table: names, types, every value and label.
fn reads_back(table: &Written, dataset: &data::Dataset) -> Result<(), TestCaseError> {
    let schema = dataset.schema();
    let last = table.names.len() - 1;
    prop_assert_eq!(&schema.class_name, &table.names[last]);
    prop_assert_eq!(dataset.len(), table.columns[0].len());
    for (row, value) in table.columns[last].iter().enumerate() {
        let Value::Word(label) = value else {
            unreachable!("labels are words")
        };
        prop_assert_eq!(&schema.class_values[dataset.class(row)], label);
    }
    for (index, attribute) in schema.attributes.iter().enumerate() {
        prop_assert_eq!(&attribute.name, &table.names[index]);
        for (row, value) in table.columns[index].iter().enumerate() {
            let stored = dataset.value(row, index);
            match (value, attribute.values()) {
                (Value::Missing, _) => prop_assert!(stored.is_nan()),
                (Value::Number(x, _), None) => prop_assert_eq!(stored.to_bits(), x.to_bits()),
                (Value::Word(word), Some(values)) => {
                    prop_assert_eq!(&values[stored as usize], word)
                }
                (value, kind) => prop_assert!(false, "{:?} read as {:?}", value, kind),
            }
        }
    }
    Ok(())
}

/// A text table (the `compare` and `roc` reader) holds the written fields, trimmed.
fn table_reads_back(table: &Written, read: &data::TextTable) -> Result<(), TestCaseError> {
    let names: Vec<&str> = table.names.iter().map(|n| n.trim()).collect();
    prop_assert_eq!(read.header(), &names[..]);
    for (index, column) in table.columns.iter().enumerate() {
        let texts: Vec<String> = column
            .iter()
            .map(|value| match value {
                Value::Number(_, text) => text.clone(),
                Value::Word(word) => word.trim().to_string(),
                Value::Missing => String::new(),
            })
            .collect();
        prop_assert_eq!(read.texts(index), &texts[..]);
    }
    Ok(())
}

#[test]
fn what_the_readers_accept_reads_back_right() {
    let folder = scratch("fuzz-round-trip");
    let layout = (
        prop::sample::select(vec![',', ';', '\t']),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
        any::<(bool, bool)>(),
    );
    fuzz(4, "round trip", (written(), layout), |(table, layout)| {
        let (separator, line_end, extras) = layout;
        let csv = folder.join("table.csv");
        std::fs::write(&csv, written_csv(&table, separator, line_end, extras)).unwrap();
        let dataset = load(&csv, &LoadOptions::default());
        let dataset = dataset.map_err(|e| TestCaseError::fail(format!("{e}\n{table:?}")))?;
        reads_back(&table, &dataset)?;
        let read = data::TextTable::read(&csv)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{table:?}")))?;
        table_reads_back(&table, &read)?;
        let arff = folder.join("table.arff");
        std::fs::write(&arff, arff_text(&table)).unwrap();
        let dataset = load(&arff, &LoadOptions::default());
        let dataset = dataset.map_err(|e| TestCaseError::fail(format!("{e}\n{table:?}")))?;
        reads_back(&table, &dataset)?;
        LOADED[4].fetch_add(1, Ordering::Relaxed);
        Ok(())
    });
}

/// Every input once found by the fuzzer (or written to probe a corner) loads or fails with an
/// error naming the file; none panics.
#[test]
fn regression_corpus_loads_or_fails_cleanly() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&folder).unwrap().flatten() {
        let path = entry.path();
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !["csv", "arff", "dat"].contains(&extension.as_str()) {
            continue;
        }
        count += 1;
        let result = catch_unwind(|| load(&path, &LoadOptions::default()));
        match result {
            Ok(Ok(_)) => {}
            Ok(Err(error)) => {
                let message = error.to_string();
                assert!(
                    message.contains(&path.display().to_string()),
                    "{}: {message}",
                    path.display()
                );
            }
            Err(_) => panic!("{} panics the reader", path.display()),
        }
    }
    assert!(count > 0, "no files in {}", folder.display());
}
