//! The per-fold Parquet file's schema as a peer reader, pyarrow (Apache Arrow's C++ reader),
//! reads it: the one polars wrote before the file had a writer of its own (text columns as
//! `string_view`, every column nullable). The values are checked against per_fold.csv by
//! experiments/tests/runner.rs. Skipped, saying so, without python3 and pyarrow.

use std::process::Command;

#[test]
fn pyarrow_reads_the_schema_polars_wrote() {
    let Some(python) = ["/work/venv/bin/python", "python3"]
        .into_iter()
        .find(|python| {
            Command::new(python)
                .args(["-c", "import pyarrow"])
                .output()
                .is_ok_and(|out| out.status.success())
        })
    else {
        eprintln!("skipped: python3 with pyarrow is not available");
        return;
    };
    let bytes = engine::RunResults::empty().to_parquet().unwrap();
    let path = std::env::temp_dir().join(format!("engine-tidy-{}.parquet", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let script = "import sys, pyarrow.parquet as pq\n\
                  table = pq.read_table(sys.argv[1])\n\
                  print(table.num_rows)\n\
                  for field in table.schema: print(field.name, field.type, field.nullable)\n";
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
    // pyarrow 26's reading of a per_fold.parquet written by polars 0.55 (results/aslan, before)
    let expected = "0\n\
                    dataset string_view True\n\
                    learner string_view True\n\
                    repetition int64 True\n\
                    fold int64 True\n\
                    part string_view True\n\
                    measure string_view True\n\
                    value double True\n";
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}
