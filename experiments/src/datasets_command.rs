//! `experiments datasets`: the shipped datasets, checked against the catalog.

use anyhow::Result;
use clap::Args;

/// Options of the `datasets` subcommand.
#[derive(Args, Debug)]
pub struct DatasetsArgs {}

/// Lists the shipped datasets and checks each against the catalog.
pub fn run(_args: &DatasetsArgs) -> Result<()> {
    anyhow::bail!("the datasets listing lands with the data crate")
}
