//! Prints every built-in learner kind with its parameters and capabilities (the text of an
//! `experiments learners` listing): `cargo run -p learners --example list_learners`.
fn main() {
    print!("{}", learners::Registry::builtin().describe_all());
}
