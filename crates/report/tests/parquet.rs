//! Parquet files read back by a peer reader, pyarrow (Apache Arrow's C++ reader): the schema
//! (names, types, nullability, and the Arrow types named in the file's metadata) and every value.
//! Skipped, saying so, when python3 with pyarrow is absent (`.ci/run` installs it).

use std::process::Command;

use report::{write_parquet, ParquetValues};

fn python() -> Option<&'static str> {
    ["/work/venv/bin/python", "python3"]
        .into_iter()
        .find(|python| {
            Command::new(python)
                .args(["-c", "import pyarrow"])
                .output()
                .is_ok_and(|out| out.status.success())
        })
}

/// pyarrow's reading of a file: its schema, one line per field, then its rows as Python lists.
fn read_with_pyarrow(python: &str, bytes: &[u8], name: &str) -> String {
    let path = std::env::temp_dir().join(format!("report-parquet-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let script = "import sys, pyarrow.parquet as pq\n\
                  table = pq.read_table(sys.argv[1])\n\
                  for field in table.schema: print(field.name, field.type, field.nullable)\n\
                  print(table.num_rows)\n\
                  for column in table.columns: print(column.to_pylist())\n";
    let out = Command::new(python)
        .args(["-c", script])
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn pyarrow_reads_every_column_and_value() {
    let Some(python) = python() else {
        eprintln!("skipped: python3 with pyarrow is not available");
        return;
    };
    let many: Vec<String> = (0..40).map(|i| format!("row {i} é")).collect();
    let columns = [
        (
            "name",
            ParquetValues::Text(many.iter().map(String::as_str).collect()),
        ),
        (
            "count",
            ParquetValues::Int64((0..40).map(|i| i * 1_000_000_007 - 5).collect()),
        ),
        (
            "value",
            ParquetValues::Float64((0..40).map(|i| f64::from(i) / 3.0 - 7.25).collect()),
        ),
    ];
    let text = read_with_pyarrow(python, &write_parquet(&columns, &[]).unwrap(), "many");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "name string True",
            "count int64 True",
            "value double True",
            "40"
        ]
    );
    let quoted: Vec<String> = many.iter().map(|s| format!("'{s}'")).collect();
    assert_eq!(lines[4], format!("[{}]", quoted.join(", ")));
    let counts: Vec<String> = (0..40)
        .map(|i: i64| (i * 1_000_000_007 - 5).to_string())
        .collect();
    assert_eq!(lines[5], format!("[{}]", counts.join(", ")));
    // Python prints the shortest repr that reads back, as Rust's `{:?}` does for these values
    let values: Vec<String> = (0..40)
        .map(|i| format!("{:?}", f64::from(i) / 3.0 - 7.25))
        .collect();
    assert_eq!(lines[6], format!("[{}]", values.join(", ")));
}

#[test]
fn pyarrow_takes_arrow_types_from_the_metadata_and_reads_empty_tables() {
    let Some(python) = python() else {
        eprintln!("skipped: python3 with pyarrow is not available");
        return;
    };
    let schema = script_schema(python);
    let columns = [
        ("dataset", ParquetValues::Text(vec!["a", "", "b"])),
        (
            "value",
            ParquetValues::Float64(vec![f64::NAN, -0.0, f64::INFINITY]),
        ),
    ];
    let bytes = write_parquet(&columns, &[("ARROW:schema", &schema)]).unwrap();
    let text = read_with_pyarrow(python, &bytes, "typed");
    assert_eq!(
        text,
        "dataset string_view True\nvalue double True\n3\n['a', '', 'b']\n[nan, -0.0, inf]\n"
    );
    let empty = [
        ("dataset", ParquetValues::Text(vec![])),
        ("value", ParquetValues::Float64(vec![])),
    ];
    let bytes = write_parquet(&empty, &[("ARROW:schema", &schema)]).unwrap();
    let text = read_with_pyarrow(python, &bytes, "empty");
    assert_eq!(
        text,
        "dataset string_view True\nvalue double True\n0\n[]\n[]\n"
    );
}

/// The Arrow schema of the second test, serialized by pyarrow itself.
fn script_schema(python: &str) -> String {
    let script = "import base64, pyarrow as pa\n\
                  schema = pa.schema([('dataset', pa.string_view()), ('value', pa.float64())])\n\
                  print(base64.b64encode(schema.serialize().to_pybytes()).decode())";
    let out = Command::new(python).args(["-c", script]).output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn ragged_columns_are_refused() {
    let columns = [
        ("a", ParquetValues::Int64(vec![1, 2])),
        ("b", ParquetValues::Int64(vec![1])),
    ];
    let error = write_parquet(&columns, &[]).unwrap_err().to_string();
    assert_eq!(
        error,
        "column 'b' has 1 values where the first column has 2"
    );
}
