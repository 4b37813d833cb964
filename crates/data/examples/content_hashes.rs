//! Prints every shipped dataset's content hash as loaded through the catalog, and as loaded from
//! its bare path with default (inferred) options; used to check that a reader change leaves
//! every shipped dataset exactly as it was (`crates/data/tests/data/shipped_content_hashes.txt`).
//!
//! `cargo run -p data --example content_hashes > crates/data/tests/data/shipped_content_hashes.txt`

fn main() -> Result<(), data::DataError> {
    let catalog = data::Catalog::locate()?;
    println!("# dataset catalog-options-hash default-options-hash-or-error");
    for entry in catalog.entries() {
        let declared = catalog.load(&entry.name)?.content_hash();
        let inferred = match data::load(catalog.path_of(entry), &data::LoadOptions::default()) {
            Ok(dataset) => dataset.content_hash(),
            Err(error) => format!("error: {error}"),
        };
        println!("{} {declared} {inferred}", entry.name);
    }
    Ok(())
}
