//! Writes a crate that benchmarks a learner of one's own against C4.5 and naive Bayes (what
//! `experiments new-learner NAME [--path DIR]` runs; the templates in `crates/scaffold/templates/`):
//! a path dependency on this repository's `toolkit`, the workspace's build profiles (made to
//! apply to this repository's crates, which are dependencies there), the workspace's
//! `Cargo.lock` (the versions this repository is tested with), a learner with its spec, its
//! tests, a config and a README. Nothing that exists is overwritten.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

mod profiles;

pub use profiles::{closure, dependent_profiles, members, Member, ProfileError};

/// Why the crate was not written (each names the path or flag concerned).
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    /// This program's repository no longer has its toolkit crate.
    #[error(
        "this program was built from the repository at {}, which no longer has \
         crates/toolkit/Cargo.toml; run it from a checkout (cargo run -p experiments -- \
         new-learner NAME)", .0.display()
    )]
    NoRepository(PathBuf),
    /// A path could not be resolved, read, created or written.
    #[error("{message}")]
    Io {
        /// What failed, naming the path (or flag and path).
        message: String,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// A manifest is not valid TOML.
    #[error("{}: not valid TOML", .path.display())]
    Toml {
        /// The manifest.
        path: PathBuf,
        /// The parser's error.
        #[source]
        source: toml::de::Error,
    },
    /// A manifest lacks what it must have.
    #[error("{}: {what}", .path.display())]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What it lacks.
        what: &'static str,
    },
    /// The workspace's `[profile]` tables cannot be written for the new crate.
    #[error("{}: the [profile] tables", .path.display())]
    Profiles {
        /// The workspace's manifest.
        path: PathBuf,
        /// What is wrong with them.
        #[source]
        source: ProfileError,
    },
    /// NAME, `--path` or the repository's path is not allowed (the sentence says why).
    #[error("{0}")]
    Refused(String),
}

/// What this crate's functions return.
pub type Result<T, E = ScaffoldError> = std::result::Result<T, E>;

/// An I/O error with the sentence naming its path.
fn io(message: String) -> impl FnOnce(std::io::Error) -> ScaffoldError {
    move |source| ScaffoldError::Io { message, source }
}

/// The crate written: where, its learner's kind, and its files.
#[derive(Debug, Clone)]
pub struct Written {
    /// The crate's name.
    pub name: String,
    /// The folder it was written into.
    pub folder: PathBuf,
    /// The files written, relative to the folder.
    pub files: Vec<String>,
}

impl std::fmt::Display for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let folder = self.folder.display();
        writeln!(
            f,
            "wrote the crate '{}' in {folder} (learner kind '{}'):",
            self.name,
            kind(&self.name)
        )?;
        for file in &self.files {
            writeln!(f, "  {file}")?;
        }
        writeln!(
            f,
            "next: cd {folder} && cargo test   (the first build compiles this repository's crates; \
             see its README.md)"
        )
    }
}

/// The templates: the file written and its text (`{{name}}`, `{{kind}}`, `{{crate}}`,
/// `{{repo}}`, `{{toolkit_toml}}` (the path as a TOML string) and `{{profiles}}` replaced).
const TEMPLATES: [(&str, &str); 7] = [
    ("Cargo.toml", include_str!("../templates/Cargo.toml.in")),
    ("README.md", include_str!("../templates/README.md.in")),
    (
        "benchmark.toml",
        include_str!("../templates/benchmark.toml.in"),
    ),
    ("src/lib.rs", include_str!("../templates/lib.rs.in")),
    ("src/main.rs", include_str!("../templates/main.rs.in")),
    (
        "tests/conformance.rs",
        include_str!("../templates/conformance.rs.in"),
    ),
    (".gitignore", include_str!("../templates/gitignore.in")),
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

/// Writes the crate NAME into `path` (default: ./NAME), or says why not (nothing existing is
/// touched).
pub fn new_learner(name: &str, path: Option<&Path>) -> Result<Written> {
    let repo = repository()?;
    let members = profiles::members(&repo)?;
    check_name(name, &members)?;
    let folder = path.map_or_else(|| PathBuf::from(name), Path::to_path_buf);
    check_folder(&folder)?;
    let manifest = repo.join("Cargo.toml");
    let workspace = profiles::read_toml(&manifest)?;
    let profiles =
        profiles::dependent_profiles(&workspace, &members, "toolkit").map_err(|source| {
            ScaffoldError::Profiles {
                path: manifest.clone(),
                source,
            }
        })?;
    let mut files = render(name, &repo, &profiles)?;
    if let Ok(lock) = std::fs::read_to_string(repo.join("Cargo.lock")) {
        files.push(("Cargo.lock".into(), lock));
    }
    write_all(&folder, &files)?;
    Ok(Written {
        name: name.to_string(),
        folder,
        files: files.into_iter().map(|(file, _)| file).collect(),
    })
}

/// The learner's kind: the name with `-` as `_`.
fn kind(name: &str) -> String {
    name.replace('-', "_")
}

/// This repository's root (where this binary was built from), with its toolkit crate.
fn repository() -> Result<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let toolkit = root.join("crates/toolkit/Cargo.toml");
    if !toolkit.is_file() {
        return Err(ScaffoldError::NoRepository(root));
    }
    let message = format!("{}: cannot resolve the repository's path", root.display());
    root.canonicalize().map_err(io(message))
}

/// Checks NAME: a valid crate name, not reserved, not a crate of this repository, and a kind
/// that no built-in learner has.
fn check_name(name: &str, members: &[Member]) -> Result<()> {
    let allowed = "a crate name: letters, digits, '_' and '-', starting with a letter, at most \
                   64 characters";
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && name.len() <= 64;
    if !valid {
        return Err(ScaffoldError::Refused(format!(
            "new-learner {name:?}: not {allowed}"
        )));
    }
    if RESERVED.contains(&name) || RESERVED.contains(&kind(name).as_str()) {
        return Err(ScaffoldError::Refused(format!(
            "new-learner {name}: '{name}' is reserved by Rust or Cargo; choose another name"
        )));
    }
    let lib = kind(name);
    if let Some(member) = members.iter().find(|m| kind(&m.name) == lib) {
        return Err(ScaffoldError::Refused(format!(
            "new-learner {name}: '{}' is a crate of this repository, which the new crate \
             depends on; choose another name",
            member.name
        )));
    }
    let mut builtin = learners::Registry::builtin().kinds();
    // The adapter kinds too, built in or not (a build with the `adapters` feature has them).
    for kind in learners::adapters::ADAPTER_KINDS {
        if !builtin.contains(kind) {
            builtin.push(kind);
        }
    }
    if builtin.contains(&lib.as_str()) {
        return Err(ScaffoldError::Refused(format!(
            "new-learner {name}: '{lib}' is a built-in learner kind (built-in: {}); choose \
             another name",
            builtin.join(", ")
        )));
    }
    Ok(())
}

/// Checks that `folder` does not exist, or is an empty folder.
fn check_folder(folder: &Path) -> Result<()> {
    match std::fs::read_dir(folder) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(ScaffoldError::Refused(format!(
                    "--path {}: the folder exists and is not empty; give a new or empty \
                     folder (nothing was written)",
                    folder.display()
                )));
            }
            Ok(())
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(_) if folder.exists() && !folder.is_dir() => Err(ScaffoldError::Refused(format!(
            "--path {}: is a file; give a new or empty folder (nothing was written)",
            folder.display()
        ))),
        Err(error) => Err(io(format!(
            "--path {}: cannot create the folder, or read it (nothing was written)",
            folder.display()
        ))(error)),
    }
}

/// The templates with the placeholders replaced: (path in the crate, text).
fn render(name: &str, repo: &Path, profiles: &str) -> Result<Vec<(String, String)>> {
    let Some(repo_text) = repo.to_str() else {
        return Err(ScaffoldError::Refused(format!(
            "the repository's path {} is not UTF-8, which Cargo.toml cannot hold",
            repo.display()
        )));
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
            std::fs::create_dir_all(parent).map_err(io(format!(
                "--path {}: cannot create the folder",
                parent.display()
            )))?;
        }
        let mut out = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(io(format!(
                "--path {}: cannot create {file}",
                folder.display()
            )))?;
        written.push(path.clone());
        out.write_all(text.as_bytes())
            .map_err(io(format!("{}: cannot write", path.display())))
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
