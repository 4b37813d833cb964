//! Times loading and hashing one file: `cargo run -p data --example time_load -- datasets/sylva.csv`.
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let t = Instant::now();
    let d = data::load(&path, &data::LoadOptions::default()).unwrap();
    println!("load {:?} {}", t.elapsed(), d.len());
    let t = Instant::now();
    let h = data::catalog::file_sha256(std::path::Path::new(&path)).unwrap();
    println!("sha {:?} {h}", t.elapsed());
}
