//! `experiments new-learner NAME [--path DIR]`: the `scaffold` crate writes a crate that
//! benchmarks a learner of one's own against C4.5 and naive Bayes.

use std::path::PathBuf;

use clap::Args;

/// Options of the `new-learner` subcommand.
#[derive(Args, Debug)]
pub struct NewLearnerArgs {
    /// The crate's name: letters, digits, `_` and `-`, starting with a letter; the learner's
    /// kind in configs is the same with `-` as `_`.
    #[arg(value_name = "NAME")]
    name: String,
    /// The folder to write the crate into (default: ./NAME); it must not exist, or be empty.
    #[arg(long, value_name = "DIR")]
    path: Option<PathBuf>,
}

/// Writes the crate, or says why not (nothing existing is touched).
pub fn run(args: &NewLearnerArgs) -> anyhow::Result<()> {
    let written = scaffold::new_learner(&args.name, args.path.as_deref())?;
    crate::output::print(written.to_string())
}
