//! Loads each file given and prints its counts, or the error: a quick check of the readers on
//! any corpus, e.g. `cargo run -p data --example load_files -- /usr/share/doc/weka/examples/*.arff`.

fn main() {
    for path in std::env::args().skip(1) {
        let start = std::time::Instant::now();
        match data::load(&path, &data::LoadOptions::default()) {
            Ok(dataset) => {
                let summary = data::Summary::of(&dataset);
                println!(
                    "ok    {path}: {} rows, {} numeric, {} nominal, {} classes, {} missing [{:.1?}]",
                    summary.instances,
                    summary.numeric_attributes,
                    summary.nominal_attributes,
                    summary.class_counts.len(),
                    summary.missing_values,
                    start.elapsed()
                );
            }
            Err(error) => println!("error {error}"),
        }
    }
}
