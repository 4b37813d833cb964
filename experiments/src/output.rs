//! Standard output. Everything the program prints goes through `print`, which meets a reader
//! that closed the pipe early (`experiments datasets | head -1`) as Unix tools do: the command
//! stops and the program exits quietly with status 0, where `print!` panics ("failed printing
//! to stdout: Broken pipe"), whichever command it is and however much it had to print.

use std::fmt;
use std::io::{ErrorKind, Write};

/// The reader of standard output has closed it: `main` exits quietly with status 0.
#[derive(Debug)]
pub struct Closed;

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the reader of standard output closed it")
    }
}

impl std::error::Error for Closed {}

/// Writes `text` to standard output, flushed; `Closed` when the reader has gone.
pub fn print(text: impl AsRef<str>) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_ref().as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == ErrorKind::BrokenPipe => Err(Closed.into()),
        Err(error) => Err(anyhow::anyhow!("cannot write to standard output: {error}")),
    }
}
