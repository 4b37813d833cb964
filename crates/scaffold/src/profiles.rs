//! The workspace's build profiles for a crate outside it that depends on its crates, read from
//! the workspace's `Cargo.toml` when the crate is written (so they cannot drift from it).
//!
//! Cargo applies `[profile.dev]` to the members of the workspace it builds, and
//! `[profile.dev.package."*"]` to every other package. In the workspace this repository's
//! crates are members (optimised); in a crate that depends on them they are not, so the `"*"`
//! table would leave them unoptimised (7-36x slower learners). The tables written here give
//! each of this repository's crates that the new crate builds its workspace settings
//! explicitly: the keys `"*"` sets, with the values `[profile.dev]` (or the crate's own table)
//! gives, plus the crate's own table.

use std::path::{Path, PathBuf};

use toml::{Table, Value};

use crate::{io, Result, ScaffoldError};

/// Why the workspace's `[profile]` tables cannot be written for a dependent crate.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// A `[profile...]` entry that must be a table is not.
    #[error("[{0}] is not a table")]
    NotATable(String),
    /// The `"*"` table sets a key that the profile itself does not.
    #[error(
        "[profile.{profile}.package.\"*\"] sets '{key}', which [profile.{profile}] does \
         not: give it there too, so that the workspace's own crates' value is written"
    )]
    StarKeyMissing {
        /// The profile.
        profile: String,
        /// The key.
        key: String,
    },
}

/// A crate of this workspace.
#[derive(Debug, Clone)]
pub struct Member {
    /// Its package name.
    pub name: String,
    /// The package names it depends on (normal and build dependencies).
    pub dependencies: Vec<String>,
}

/// Reads a TOML file.
pub(crate) fn read_toml(path: &Path) -> Result<Table> {
    let text =
        std::fs::read_to_string(path).map_err(io(format!("{}: cannot read", path.display())))?;
    text.parse().map_err(|source| ScaffoldError::Toml {
        path: path.to_path_buf(),
        source,
    })
}

/// The workspace's members (from `[workspace] members` of `repo/Cargo.toml`), with their
/// dependencies.
pub fn members(repo: &Path) -> Result<Vec<Member>> {
    let manifest = repo.join("Cargo.toml");
    let workspace = read_toml(&manifest)?;
    let paths: Vec<PathBuf> = workspace
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(Value::as_array)
        .ok_or_else(|| ScaffoldError::Manifest {
            path: manifest.clone(),
            what: "no [workspace] members",
        })?
        .iter()
        .filter_map(Value::as_str)
        .map(|member| repo.join(member).join("Cargo.toml"))
        .collect();
    paths
        .iter()
        .map(|path| {
            let table = read_toml(path)?;
            let name = table
                .get("package")
                .and_then(|p| p.get("name"))
                .and_then(Value::as_str)
                .ok_or_else(|| ScaffoldError::Manifest {
                    path: path.clone(),
                    what: "no [package] name",
                })?;
            let dependencies = ["dependencies", "build-dependencies"]
                .iter()
                .filter_map(|key| table.get(*key).and_then(Value::as_table))
                .flat_map(|deps| deps.keys().cloned())
                .collect();
            Ok(Member {
                name: name.to_string(),
                dependencies,
            })
        })
        .collect()
}

/// The members `root` builds: itself and the members it depends on, directly or not.
pub fn closure(members: &[Member], root: &str) -> Vec<String> {
    let mut found = vec![root.to_string()];
    let mut next = 0;
    while next < found.len() {
        let name = found[next].clone();
        next += 1;
        let Some(member) = members.iter().find(|m| m.name == name) else {
            continue;
        };
        for dependency in &member.dependencies {
            if members.iter().any(|m| &m.name == dependency) && !found.contains(dependency) {
                found.push(dependency.clone());
            }
        }
    }
    found
}

/// The `[profile]` tables of the workspace's manifest as a crate depending on `root` needs them
/// (see the module's documentation), as TOML text.
pub fn dependent_profiles(
    workspace: &Table,
    members: &[Member],
    root: &str,
) -> Result<String, ProfileError> {
    let Some(profiles) = workspace.get("profile").and_then(Value::as_table) else {
        return Ok(String::new());
    };
    let built = closure(members, root);
    let is_member = |name: &str| members.iter().any(|m| m.name == name);
    let mut text = String::new();
    for (profile, settings) in profiles {
        let settings = settings
            .as_table()
            .ok_or_else(|| ProfileError::NotATable(format!("profile.{profile}")))?;
        let empty = Table::new();
        let packages = match settings.get("package") {
            Some(value) => value
                .as_table()
                .ok_or_else(|| ProfileError::NotATable(format!("profile.{profile}.package")))?,
            None => &empty,
        };
        let own: Table = (settings.iter())
            .filter(|(key, _)| key.as_str() != "package")
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        if !own.is_empty() {
            text.push_str(&section(&format!("profile.{profile}"), &own));
        }
        // Everything but this repository's crates, as it is (not the members the new crate
        // does not build: Cargo would warn that the table matches no package).
        for (package, table) in packages {
            if !is_member(package) {
                text.push_str(&package_section(profile, package, table)?);
            }
        }
        // The test profile's own tables for this repository's crates (overflow checks in the
        // learners) are the repository's tests' business: left out, `cargo test` here builds
        // them as `cargo run` does (test inherits dev) and the two commands share one build.
        if profile == "test" {
            continue;
        }
        for member in &built {
            if let Some(table) = member_table(profile, &own, packages, member)? {
                text.push_str(&package_section(profile, member, &Value::Table(table))?);
            }
        }
    }
    Ok(text)
}

/// What `member`'s table in `[profile.<profile>.package]` must hold for it to build as in its
/// workspace: the keys the `"*"` table sets, with the workspace's values, and its own table.
fn member_table(
    profile: &str,
    own: &Table,
    packages: &Table,
    member: &str,
) -> Result<Option<Table>, ProfileError> {
    let specific = match packages.get(member) {
        Some(value) => value
            .as_table()
            .ok_or_else(|| ProfileError::NotATable(format!("profile.{profile}.package.{member}")))?
            .clone(),
        None => Table::new(),
    };
    let Some(star) = packages.get("*").and_then(Value::as_table) else {
        return Ok((!specific.is_empty()).then_some(specific));
    };
    let mut table = Table::new();
    for key in star.keys() {
        let value = specific.get(key).or_else(|| own.get(key));
        let Some(value) = value else {
            return Err(ProfileError::StarKeyMissing {
                profile: profile.to_string(),
                key: key.clone(),
            });
        };
        table.insert(key.clone(), value.clone());
    }
    table.extend(specific);
    Ok(Some(table))
}

/// `[profile.<profile>.package.<package>]` and its keys.
fn package_section(profile: &str, package: &str, table: &Value) -> Result<String, ProfileError> {
    let table = table
        .as_table()
        .ok_or_else(|| ProfileError::NotATable(format!("profile.{profile}.package.{package}")))?;
    Ok(section(
        &format!("profile.{profile}.package.{}", key(package)),
        table,
    ))
}

/// A TOML table header and its `key = value` lines, then a blank line.
fn section(header: &str, table: &Table) -> String {
    let mut text = format!("[{header}]\n");
    for (name, value) in table {
        text.push_str(&format!("{} = {value}\n", key(name)));
    }
    text.push('\n');
    text
}

/// A TOML key: bare when it can be, else quoted.
fn key(name: &str) -> String {
    let bare = !name.is_empty()
        && (name.chars()).all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        name.to_string()
    } else {
        Value::String(name.to_string()).to_string()
    }
}
