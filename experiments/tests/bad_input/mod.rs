//! What the `bad_input_*` tests share: running the built program on a user's mistake and
//! checking the exit status and the words of the message.

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};

/// A folder of its own under the test scratch directory.
pub fn scratch(name: &str) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_input")
        .join(name);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// Writes `bytes` as `name` in `folder`; its path.
pub fn write(folder: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = folder.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs the program with `args` (in `folder`, when given).
pub fn experiments(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(args)
        .output()
        .expect("the experiments binary runs")
}

/// Runs a command that must be refused with exit status `code` and no panic; its stderr.
pub fn refused_with(code: i32, args: &[&str]) -> String {
    let output = experiments(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    stderr
}

/// A command refused by a check of ours (exit status 1).
pub fn refused(args: &[&str]) -> String {
    refused_with(1, args)
}

/// A command refused by the argument parser (exit status 2: a flag's type or range).
pub fn refused_by_parser(args: &[&str]) -> String {
    refused_with(2, args)
}

/// Runs a command that must succeed; its stdout.
pub fn accepted(args: &[&str]) -> String {
    let output = experiments(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs a command that must succeed; its stderr (the notes).
pub fn noted(args: &[&str]) -> String {
    let output = experiments(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?}: {stderr}");
    stderr
}

/// Every word is in the message.
pub fn assert_words(message: &str, words: &[&str]) {
    for word in words {
        assert!(message.contains(word), "expected '{word}' in: {message}");
    }
}

/// A spawned program's piped stderr, read to its end.
pub fn read_stderr(child: &mut Child) -> String {
    let mut stderr = String::new();
    let pipe = child.stderr.as_mut().expect("stderr is piped");
    pipe.read_to_string(&mut stderr).unwrap();
    stderr
}
