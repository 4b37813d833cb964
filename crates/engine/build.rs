//! Records the commit the engine is built from (`git rev-parse --short=12 HEAD`) as
//! `EXPERIMENTS_COMMIT`, shown in the header of every report; outside a git checkout (a copy
//! of the sources) the header says "unknown". Rebuilt when HEAD or the branch it names moves.

use std::process::Command;

fn git(arguments: &[&str]) -> Option<String> {
    let output = Command::new("git").args(arguments).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    if let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) {
        println!("cargo:rustc-env=EXPERIMENTS_COMMIT={commit}");
    }
    for path in ["HEAD", "packed-refs"]
        .into_iter()
        .filter_map(|name| git(&["rev-parse", "--git-path", name]))
        .chain(
            git(&["symbolic-ref", "-q", "HEAD"])
                .and_then(|branch| git(&["rev-parse", "--git-path", &branch])),
        )
        // A path that does not exist would rebuild the engine on every build.
        .filter(|path| std::path::Path::new(path).exists())
    {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
