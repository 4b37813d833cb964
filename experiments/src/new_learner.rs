//! `experiments new-learner NAME [--path DIR]`: writes a crate that benchmarks a learner of
//! one's own against C4.5 and naive Bayes (the templates in `experiments/templates/new_learner/`):
//! a path dependency on this repository's `toolkit`, the workspace's build profiles (made to
//! apply to this repository's crates, which are dependencies there), the workspace's
//! `Cargo.lock` (the versions this repository is tested with), a learner with its spec, its
//! tests, a config and a README. Nothing that exists is overwritten.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
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

/// The templates: the file written and its text (`{{name}}`, `{{kind}}`, `{{crate}}`,
/// `{{repo}}`, `{{toolkit_toml}}` (the path as a TOML string) and `{{profiles}}` replaced).
const TEMPLATES: [(&str, &str); 7] = [
    (
        "Cargo.toml",
        include_str!("../templates/new_learner/Cargo.toml.in"),
    ),
    (
        "README.md",
        include_str!("../templates/new_learner/README.md.in"),
    ),
    (
        "benchmark.toml",
        include_str!("../templates/new_learner/benchmark.toml.in"),
    ),
    (
        "src/lib.rs",
        include_str!("../templates/new_learner/lib.rs.in"),
    ),
    (
        "src/main.rs",
        include_str!("../templates/new_learner/main.rs.in"),
    ),
    (
        "tests/conformance.rs",
        include_str!("../templates/new_learner/conformance.rs.in"),
    ),
    (
        ".gitignore",
        include_str!("../templates/new_learner/gitignore.in"),
    ),
];

/// Names a crate cannot take: Rust's keywords, Cargo's reserved names, and this repository's
/// crates (the new crate depends on them).
const RESERVED: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "gen",
    "macro",
    "override",
    "priv",
    "try",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "test",
    "std",
    "core",
    "alloc",
    "proc_macro",
    "proc-macro",
    "build",
    "deps",
    "examples",
    "incremental",
];

/// Writes the crate, or says why not (nothing existing is touched).
pub fn run(args: &NewLearnerArgs) -> Result<()> {
    let repo = repository()?;
    let members = crate::profiles::members(&repo)?;
    check_name(&args.name, &members)?;
    let folder = args
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from(&args.name));
    check_folder(&folder)?;
    let manifest = repo.join("Cargo.toml");
    let workspace: toml::Table = std::fs::read_to_string(&manifest)
        .with_context(|| format!("{}: cannot read", manifest.display()))?
        .parse()
        .with_context(|| format!("{}: not valid TOML", manifest.display()))?;
    let profiles = crate::profiles::dependent_profiles(&workspace, &members, "toolkit")
        .with_context(|| format!("{}: the [profile] tables", manifest.display()))?;
    let mut files = render(&args.name, &repo, &profiles)?;
    if let Ok(lock) = std::fs::read_to_string(repo.join("Cargo.lock")) {
        files.push(("Cargo.lock".into(), lock));
    }
    write_all(&folder, &files)?;
    println!(
        "wrote the crate '{}' in {} (learner kind '{}'):",
        args.name,
        folder.display(),
        kind(&args.name)
    );
    for (file, _) in &files {
        println!("  {file}");
    }
    println!(
        "next: cd {} && cargo test   (the first build compiles this repository's crates; see \
         its README.md)",
        folder.display()
    );
    Ok(())
}

/// The learner's kind: the name with `-` as `_`.
fn kind(name: &str) -> String {
    name.replace('-', "_")
}

/// This repository's root (where this binary was built from), with its toolkit crate.
fn repository() -> Result<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let toolkit = root.join("crates/toolkit/Cargo.toml");
    if !toolkit.is_file() {
        bail!(
            "this program was built from the repository at {}, which no longer has \
             crates/toolkit/Cargo.toml; run it from a checkout (cargo run -p experiments -- \
             new-learner NAME)",
            root.display()
        );
    }
    root.canonicalize()
        .with_context(|| format!("{}: cannot resolve the repository's path", root.display()))
}

/// Checks NAME: a valid crate name, not reserved, not a crate of this repository, and a kind
/// that no built-in learner has.
fn check_name(name: &str, members: &[crate::profiles::Member]) -> Result<()> {
    let allowed = "a crate name: letters, digits, '_' and '-', starting with a letter, at most \
                   64 characters";
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && name.len() <= 64;
    if !valid {
        bail!("new-learner {name:?}: not {allowed}");
    }
    if RESERVED.contains(&name) || RESERVED.contains(&kind(name).as_str()) {
        bail!("new-learner {name}: '{name}' is reserved by Rust or Cargo; choose another name");
    }
    let lib = kind(name);
    if let Some(member) = members.iter().find(|m| kind(&m.name) == lib) {
        bail!(
            "new-learner {name}: '{}' is a crate of this repository, which the new crate \
             depends on; choose another name",
            member.name
        );
    }
    let builtin = learners::Registry::builtin().kinds();
    if builtin.contains(&lib.as_str()) {
        bail!(
            "new-learner {name}: '{lib}' is a built-in learner kind (built-in: {}); choose \
             another name",
            builtin.join(", ")
        );
    }
    Ok(())
}

/// Checks that `folder` does not exist, or is an empty folder.
fn check_folder(folder: &Path) -> Result<()> {
    match std::fs::read_dir(folder) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                bail!(
                    "--path {}: the folder exists and is not empty; give a new or empty \
                     folder (nothing was written)",
                    folder.display()
                );
            }
            Ok(())
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(_) if folder.exists() && !folder.is_dir() => bail!(
            "--path {}: is a file; give a new or empty folder (nothing was written)",
            folder.display()
        ),
        Err(error) => Err(error).with_context(|| {
            format!(
                "--path {}: cannot create the folder, or read it (nothing was written)",
                folder.display()
            )
        }),
    }
}

/// The templates with the placeholders replaced: (path in the crate, text).
fn render(name: &str, repo: &Path, profiles: &str) -> Result<Vec<(String, String)>> {
    let Some(repo_text) = repo.to_str() else {
        bail!(
            "the repository's path {} is not UTF-8, which Cargo.toml cannot hold",
            repo.display()
        );
    };
    let toolkit = toml::Value::String(format!("{repo_text}/crates/toolkit")).to_string();
    let kind = kind(name);
    let replace = |text: &str| {
        text.replace("{{name}}", name)
            .replace("{{kind}}", &kind)
            .replace("{{crate}}", &kind)
            .replace("{{toolkit_toml}}", &toolkit)
            .replace("{{repo}}", repo_text)
            .replace("{{profiles}}", profiles)
    };
    Ok(TEMPLATES
        .iter()
        .map(|(file, text)| (file.to_string(), replace(text)))
        .collect())
}

/// Writes every file under `folder` (created if absent), never replacing one; on a failure
/// removes what it wrote and says which file failed.
fn write_all(folder: &Path, files: &[(String, String)]) -> Result<()> {
    let existed = folder.exists();
    let mut written: Vec<PathBuf> = Vec::new();
    let result = files.iter().try_for_each(|(file, text)| {
        let path = folder.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| {
                format!("--path {}: cannot create the folder", parent.display())
            })?;
        }
        let mut out = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .with_context(|| format!("--path {}: cannot create {file}", folder.display()))?;
        written.push(path.clone());
        out.write_all(text.as_bytes())
            .with_context(|| format!("{}: cannot write", path.display()))
    });
    if result.is_err() {
        written
            .iter()
            .for_each(|path| drop(std::fs::remove_file(path)));
        for sub in ["src", "tests"] {
            let _ = std::fs::remove_dir(folder.join(sub)); // only if empty
        }
        if !existed {
            let _ = std::fs::remove_dir(folder);
        }
    }
    result
}
