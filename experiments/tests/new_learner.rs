//! `experiments new-learner`, run as a user runs it: the crate's files, its path dependency on
//! this repository, and its build profiles, which must give every package it builds the
//! settings that package builds with in the workspace (read here from the workspace's
//! Cargo.toml by Cargo's documented rules: `[profile.dev]` for the members of the workspace
//! being built, then `[profile.dev.package."*"]` for every other package, then the package's
//! own table; `test` inherits `dev`). Bad input fails with a clear message and writes nothing.
//! (CI builds the crate and runs its tests: .ci/run; here nothing is compiled.)

mod common;

use std::path::Path;

use common::{binary, scratch, stderr, workspace_root};
use toml::{Table, Value};

fn read_toml(path: &Path) -> Table {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.parse()
        .unwrap_or_else(|e| panic!("{path:?}: not TOML: {e}"))
}

fn table(value: Option<&Value>) -> Table {
    value.and_then(Value::as_table).cloned().unwrap_or_default()
}

/// `profile` as Cargo reads it from `manifest`: its own keys and its package tables, over the
/// profile it inherits from (`test` from `dev`).
fn profile(manifest: &Table, name: &str) -> (Table, Table) {
    let profiles = table(manifest.get("profile"));
    let mut own = Table::new();
    let mut packages = Table::new();
    let chain: &[&str] = if name == "test" {
        &["dev", "test"]
    } else {
        &[name]
    };
    for layer in chain {
        let settings = table(profiles.get(*layer));
        for (key, value) in settings {
            if key == "package" {
                for (package, keys) in table(Some(&value)) {
                    let mut merged = table(packages.get(&package));
                    merged.extend(table(Some(&keys)));
                    packages.insert(package, Value::Table(merged));
                }
            } else {
                own.insert(key, value);
            }
        }
    }
    (own, packages)
}

/// The settings `package` builds with under `profile` of `manifest` (`member`: a member of
/// that manifest's workspace).
fn effective(manifest: &Table, name: &str, package: &str, member: bool) -> Table {
    let (mut settings, packages) = profile(manifest, name);
    if !member {
        settings.extend(table(packages.get("*")));
    }
    settings.extend(table(packages.get(package)));
    settings
}

/// This repository's crates that `toolkit` depends on, directly or not (from their
/// Cargo.toml files), and toolkit itself.
const BUILT: [&str; 11] = [
    "toolkit",
    "comparison",
    "data",
    "engine",
    "learners",
    "papers",
    "seeds",
    "stats",
    "cv",
    "evaluate",
    "report",
];

#[test]
fn it_writes_a_crate_with_the_workspaces_profiles() {
    let folder = scratch("new-learner", "crate").join("my-learner");
    std::fs::create_dir(&folder).unwrap(); // an empty folder is accepted
    let output = binary()
        .args(["new-learner", "my-learner", "--path"])
        .arg(&folder)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "benchmark.toml",
        "src/lib.rs",
        "src/main.rs",
        "tests/conformance.rs",
        ".gitignore",
    ] {
        let text = std::fs::read_to_string(folder.join(file)).unwrap();
        assert!(
            !text.contains("{{"),
            "{file}: a placeholder is left:\n{text}"
        );
    }
    let lib = std::fs::read_to_string(folder.join("src/lib.rs")).unwrap();
    assert!(lib.contains("pub const KIND: &str = \"my_learner\";"));
    let test = std::fs::read_to_string(folder.join("tests/conformance.rs")).unwrap();
    assert!(test.contains("toolkit::learners::conformance::check_spec(&my_learner::spec())"));
    let config = read_toml(&folder.join("benchmark.toml"));
    let kinds: Vec<&str> = (config["learners"].as_array().unwrap().iter())
        .map(|learner| learner["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["my_learner", "c45", "naive_bayes"]);
    assert_eq!(config["protocol"]["kind"].as_str(), Some("aslan"));
    let lock = std::fs::read_to_string(workspace_root().join("Cargo.lock")).unwrap();
    assert_eq!(
        std::fs::read_to_string(folder.join("Cargo.lock")).unwrap(),
        lock
    );

    let generated = read_toml(&folder.join("Cargo.toml"));
    assert_eq!(generated["package"]["name"].as_str(), Some("my-learner"));
    assert!(
        generated.contains_key("workspace"),
        "a workspace of its own"
    );
    let toolkit = workspace_root()
        .join("crates/toolkit")
        .canonicalize()
        .unwrap();
    let path = generated["dependencies"]["toolkit"]["path"]
        .as_str()
        .unwrap();
    assert_eq!(Path::new(path).canonicalize().unwrap(), toolkit);
    assert_profiles_match(&generated);
    let _ = std::fs::remove_dir_all(folder.parent().unwrap());
}

/// Every package the new crate builds gets the settings it has in the workspace.
fn assert_profiles_match(generated: &Table) {
    let workspace = read_toml(&workspace_root().join("Cargo.toml"));
    let members: Vec<String> = (workspace["workspace"]["members"].as_array().unwrap().iter())
        .map(|path| {
            read_toml(
                &workspace_root()
                    .join(path.as_str().unwrap())
                    .join("Cargo.toml"),
            )
        })
        .map(|manifest| manifest["package"]["name"].as_str().unwrap().to_string())
        .collect();
    let outside: Vec<String> = (profile(&workspace, "dev").1.keys())
        .filter(|package| *package != "*" && !members.contains(package))
        .cloned()
        .collect();
    assert!(outside.contains(&"linfa".to_string()), "{outside:?}");
    for name in ["dev", "test", "release"] {
        // This repository's crates build as in the workspace, but under `cargo test` as under
        // `cargo run` (the workspace's test-only tables are its own tests'), so that the two
        // commands share one build of them.
        let as_in = if name == "test" { "dev" } else { name };
        for package in BUILT {
            assert_eq!(
                effective(generated, name, package, false),
                effective(&workspace, as_in, package, true),
                "profile {name}, package {package}"
            );
        }
        for package in &outside {
            assert_eq!(
                effective(generated, name, package, false),
                effective(&workspace, name, package, false),
                "profile {name}, package {package}"
            );
        }
        // The new crate itself builds as a member of the workspace without a table of its own.
        assert_eq!(
            effective(generated, name, "my-learner", true),
            effective(&workspace, name, "a-member-without-a-table", true),
        );
    }
    // The learners are optimised, and without overflow checks in `cargo run`, as in the
    // workspace (the slow-down this exists for).
    let learners = effective(generated, "dev", "learners", false);
    assert_eq!(learners["opt-level"].as_integer(), Some(3));
    assert_eq!(learners["overflow-checks"].as_bool(), Some(false));
    // No table for a crate it does not build (Cargo would warn that it matches nothing).
    let packages = profile(generated, "dev").1;
    for unused in ["experiments", "slurm"] {
        assert!(!packages.contains_key(unused), "{unused}");
    }
}

/// Runs `experiments new-learner ARGS...`, expecting a failure whose message contains `says`.
fn refused(args: &[&str], folder: &Path, says: &str) {
    let output = binary()
        .arg("new-learner")
        .args(args)
        .arg("--path")
        .arg(folder)
        .output()
        .unwrap();
    let message = stderr(&output);
    assert!(!output.status.success(), "{args:?} was accepted");
    assert!(message.contains(says), "{args:?}: {message}");
    assert!(!message.contains("panicked"), "{message}");
}

#[test]
fn bad_input_is_refused_and_nothing_is_overwritten() {
    let root = scratch("new-learner", "refused");
    // A folder that is not empty: its file stays as it was, nothing is added.
    let full = root.join("full");
    std::fs::create_dir(&full).unwrap();
    std::fs::write(full.join("mine.txt"), "my own file").unwrap();
    refused(&["my_learner"], &full, "not empty");
    assert_eq!(std::fs::read_dir(&full).unwrap().count(), 1);
    assert_eq!(
        std::fs::read_to_string(full.join("mine.txt")).unwrap(),
        "my own file"
    );
    // Names that are not crate names, or are taken.
    let new = root.join("new");
    refused(&["1learner"], &new, "not a crate name");
    refused(&["my learner"], &new, "not a crate name");
    refused(&["my.learner"], &new, "not a crate name");
    refused(&[""], &new, "not a crate name");
    refused(&["self"], &new, "reserved");
    refused(&["toolkit"], &new, "a crate of this repository");
    refused(&["naive-bayes"], &new, "a built-in learner kind");
    assert!(!new.exists());
    // A path that cannot be written: under a file, or a file itself.
    let file = root.join("a-file");
    std::fs::write(&file, "mine").unwrap();
    refused(&["my_learner"], &file.join("crate"), "cannot create");
    refused(&["my_learner"], &file, "is a file");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    let _ = std::fs::remove_dir_all(&root);
}
