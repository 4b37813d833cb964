//! The Parquet writer checked by a peer reader: pyarrow (Apache Arrow's C++ reader) must read
//! back exactly the values written. Skipped, with a message, where python3 has no pyarrow
//! (`.ci/run` installs it, so CI always runs it).

use report::parquet::{to_parquet, Column};

/// True if python3 can import pyarrow; otherwise says the test is skipped.
fn pyarrow_available() -> bool {
    let probe = std::process::Command::new("python3")
        .args(["-c", "import pyarrow"])
        .output();
    let available = probe.is_ok_and(|output| output.status.success());
    if !available {
        eprintln!("skipped: python3 with pyarrow is not available");
    }
    available
}

/// Writes the bytes to a temporary file, runs the Python script on its path and parses the
/// JSON it prints.
fn read_with_pyarrow(bytes: &[u8], tag: &str, script: &str) -> serde_json::Value {
    let path = std::env::temp_dir().join(format!(
        "report-parquet-{tag}-{}.parquet",
        std::process::id()
    ));
    std::fs::write(&path, bytes).unwrap();
    let output = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn pyarrow_reads_back_every_value() {
    if !pyarrow_available() {
        return;
    }
    let many: Vec<String> = (0..40).map(|i| format!("row {i} é")).collect();
    let columns = vec![
        ("name".to_string(), Column::Text(many.clone())),
        (
            "count".to_string(),
            Column::Integer((0..40).map(|i| i * 1_000_000_007 - 7).collect()),
        ),
        (
            "value".to_string(),
            Column::Real((0..40).map(|i| (i as f64).sqrt() / 3.0 - 1e-300).collect()),
        ),
    ];
    let bytes = to_parquet(&columns).unwrap();
    let script = r#"
import sys, json, pyarrow.parquet as pq
table = pq.read_table(sys.argv[1])
print(json.dumps({"schema": [f"{f.name}:{f.type}:{f.nullable}" for f in table.schema],
                  "columns": {name: [repr(v) if isinstance(v, float) else v
                                     for v in table.column(name).to_pylist()]
                              for name in table.column_names}}))
"#;
    let read = read_with_pyarrow(&bytes, "values", script);
    assert_eq!(
        read["schema"],
        serde_json::json!([
            "name:string:False",
            "count:int64:False",
            "value:double:False"
        ])
    );
    let names: Vec<String> = read["columns"]["name"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, many);
    let counts: Vec<i64> = read["columns"]["count"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(
        counts,
        (0..40).map(|i| i * 1_000_000_007 - 7).collect::<Vec<_>>()
    );
    // Python's repr of a float is its shortest round-trip form: parse it back exactly.
    let values: Vec<f64> = read["columns"]["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().parse().unwrap())
        .collect();
    let expected: Vec<f64> = (0..40).map(|i| (i as f64).sqrt() / 3.0 - 1e-300).collect();
    assert_eq!(values, expected);
}

#[test]
fn pyarrow_reads_a_table_with_more_than_fifteen_columns() {
    if !pyarrow_available() {
        return;
    }
    let columns: Vec<(String, Column)> = (0..17)
        .map(|c| (format!("c{c}"), Column::Integer(vec![c, -c, 100 * c])))
        .collect();
    let read = read_with_pyarrow(&to_parquet(&columns).unwrap(), "wide", "import sys, json, pyarrow.parquet as pq; print(json.dumps(pq.read_table(sys.argv[1]).to_pydict()))");
    for c in 0..17i64 {
        assert_eq!(read[format!("c{c}")], serde_json::json!([c, -c, 100 * c]));
    }
}
