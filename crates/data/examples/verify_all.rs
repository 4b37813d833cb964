//! Loads every shipped dataset and checks it against the catalog, with the time each takes.
//!
//! `cargo run -p data --example verify_all`

use std::time::Instant;

fn main() -> Result<(), data::DataError> {
    let catalog = data::Catalog::locate()?;
    let mut failures = 0;
    let all = Instant::now();
    for name in catalog.names() {
        let start = Instant::now();
        match catalog.verify(name) {
            Ok(verified) => {
                let s = &verified.summary;
                println!(
                    "{name:26} {:6} rows {:3} num {:3} nom {:2} classes {:5} missing  {:?}",
                    s.instances,
                    s.numeric_attributes,
                    s.nominal_attributes,
                    s.class_counts.len(),
                    s.missing_values,
                    start.elapsed()
                );
            }
            Err(error) => {
                failures += 1;
                println!("ERROR {error}");
            }
        }
    }
    println!("{failures} mismatches; total {:?}", all.elapsed());
    Ok(())
}
