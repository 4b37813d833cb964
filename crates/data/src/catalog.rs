//! The catalog of shipped datasets (`datasets/catalog.toml`): where each file is, where it came
//! from, its expected counts and checksum, and named collections (`aslan`, `provost`,
//! `wu-flach`).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::dataset::Dataset;
use crate::error::DataError;
use crate::load::{load, load_with_report};
use crate::options::{LoadOptions, LoadReport};
use crate::shown::closest;

/// The catalog file's location relative to the repository root.
pub const CATALOG_FILE: &str = "datasets/catalog.toml";

/// One shipped dataset's catalog entry: provenance, licence and the facts the file must match.
#[derive(Clone, Debug, Deserialize)]
pub struct CatalogEntry {
    /// The dataset's name (the table key in the catalog).
    #[serde(skip)]
    pub name: String,
    /// The file, relative to the repository root.
    pub file: PathBuf,
    /// The dataset's name at the UCI repository.
    pub uci_name: String,
    /// Papers that use the dataset.
    #[serde(default)]
    pub papers: Vec<String>,
    /// `original` or `substitute` (or another role the catalog states).
    pub role: String,
    /// What a substitute stands in for.
    pub substitute_for: Option<String>,
    /// The registry the data came from (`debian`, `pypi`, `generated`).
    pub source_registry: String,
    /// The package the data came from.
    pub source_package: String,
    /// The package version.
    pub source_version: String,
    /// The package file downloaded.
    pub source_artifact: String,
    /// The package file's sha256.
    pub source_artifact_sha256: Option<String>,
    /// The path of the data inside the package.
    pub source_path: String,
    /// The package's licence.
    pub package_license: String,
    /// The data's licence.
    pub data_license: String,
    /// Number of rows.
    pub instances: usize,
    /// Number of rows in the UCI original.
    pub uci_instances: Option<usize>,
    /// Number of numeric attributes (class excluded).
    pub numeric_attributes: usize,
    /// Number of nominal attributes (class excluded).
    pub nominal_attributes: usize,
    /// Number of missing attribute values.
    pub missing_values: usize,
    /// Number of rows with at least one missing value.
    pub rows_with_missing: usize,
    /// Rows per class, in the catalog's class order (which the loaded dataset keeps).
    #[serde(deserialize_with = "ordered_counts")]
    pub class_counts: Vec<(String, usize)>,
    /// The nominal attribute columns; all others are numeric.
    #[serde(default)]
    pub nominal_columns: Vec<String>,
    /// The spellings of a missing value in the file; default: the empty field and `?`
    /// ([`crate::DEFAULT_MISSING_MARKERS`]). The empty field is missing in any case.
    pub missing_markers: Option<Vec<String>>,
    /// File size in bytes.
    pub csv_bytes: u64,
    /// File size gzipped (informative).
    pub csv_gzip_bytes: Option<u64>,
    /// sha256 of the file's bytes, lowercase hex.
    pub csv_sha256: String,
    /// Where the first `train_rows` rows are the original training file.
    pub train_rows: Option<usize>,
    /// Remarks on the conversion.
    pub notes: Option<String>,
}

fn ordered_counts<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<(String, usize)>, D::Error> {
    // The `preserve_order` feature of toml keeps the table in file order.
    let table = toml::Table::deserialize(deserializer)?;
    table
        .into_iter()
        .map(|(key, value)| match value {
            toml::Value::Integer(count) if count >= 0 => Ok((key, count as usize)),
            other => Err(serde::de::Error::custom(format!(
                "class count of '{key}' must be a non-negative integer, not {other}"
            ))),
        })
        .collect()
}

/// Counts of a loaded dataset, in the catalog's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Number of rows.
    pub instances: usize,
    /// Number of numeric attributes.
    pub numeric_attributes: usize,
    /// Number of nominal attributes.
    pub nominal_attributes: usize,
    /// Rows per class value, in the dataset's class order.
    pub class_counts: Vec<(String, usize)>,
    /// Number of missing attribute values.
    pub missing_values: usize,
    /// Number of rows with at least one missing value.
    pub rows_with_missing: usize,
}

impl Summary {
    /// Counts the rows, attributes, classes and missing values of a dataset.
    pub fn of(dataset: &Dataset) -> Summary {
        let schema = dataset.schema();
        let numeric_attributes = schema.attributes.iter().filter(|a| a.is_numeric()).count();
        let mut counts = vec![0usize; dataset.num_classes()];
        for &class in dataset.classes() {
            counts[class as usize] += 1;
        }
        let rows_with_missing = (0..dataset.len())
            .filter(|&row| (0..schema.num_attributes()).any(|a| dataset.value(row, a).is_nan()))
            .count();
        Summary {
            instances: dataset.len(),
            numeric_attributes,
            nominal_attributes: schema.num_attributes() - numeric_attributes,
            class_counts: schema.class_values.iter().cloned().zip(counts).collect(),
            missing_values: dataset.missing_count(),
            rows_with_missing,
        }
    }
}

/// A shipped dataset that matched its catalog entry.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The dataset as loaded.
    pub dataset: Dataset,
    /// Its counts.
    pub summary: Summary,
    /// sha256 of the file's bytes.
    pub sha256: String,
}

/// The parsed catalog and the repository root its file paths are relative to.
#[derive(Clone, Debug)]
pub struct Catalog {
    root: PathBuf,
    entries: Vec<CatalogEntry>,
    collections: Vec<(String, Vec<String>)>,
}

/// Lowercase hex of bytes.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The sha256 of a file's bytes, lowercase hex.
pub fn file_sha256(path: &Path) -> Result<String, DataError> {
    let bytes = std::fs::read(path).map_err(|error| DataError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    Ok(to_hex(&Sha256::digest(&bytes)))
}

impl Catalog {
    /// The repository root holding `datasets/catalog.toml`: the first such folder walking up
    /// from the current directory, else walking up from this crate's source folder.
    pub fn find_root() -> Option<PathBuf> {
        let starts = [
            std::env::current_dir().ok(),
            Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))),
        ];
        starts.into_iter().flatten().find_map(|start| {
            start
                .ancestors()
                .find(|dir| dir.join(CATALOG_FILE).is_file())
                .map(Path::to_path_buf)
        })
    }

    /// Finds (see [`Catalog::find_root`]) and opens the catalog.
    pub fn locate() -> Result<Catalog, DataError> {
        let root = Catalog::find_root().ok_or_else(|| DataError::Catalog {
            path: PathBuf::from(CATALOG_FILE),
            message: "not found in the current directory, its parents, or beside the data crate; run from the repository".into(),
        })?;
        Catalog::open(&root)
    }

    /// Opens `root/datasets/catalog.toml`.
    pub fn open(root: &Path) -> Result<Catalog, DataError> {
        let path = root.join(CATALOG_FILE);
        let text = std::fs::read_to_string(&path).map_err(|error| DataError::Io {
            path: path.clone(),
            error,
        })?;
        Catalog::parse(root, &path, &text)
    }

    /// Parses catalog text; `root` is the folder the entries' `file` paths are relative to.
    pub fn parse(root: &Path, path: &Path, text: &str) -> Result<Catalog, DataError> {
        let error = |message: String| DataError::Catalog {
            path: path.to_path_buf(),
            message,
        };
        let table: toml::Table = toml::from_str(text).map_err(|e| error(e.to_string()))?;
        let mut entries = Vec::new();
        let datasets = table
            .get("datasets")
            .and_then(toml::Value::as_table)
            .ok_or_else(|| error("no [datasets.NAME] tables".into()))?;
        for (name, value) in datasets {
            let mut entry: CatalogEntry = value
                .clone()
                .try_into()
                .map_err(|e| error(format!("dataset '{name}': {e}")))?;
            entry.name = name.clone();
            entries.push(entry);
        }
        let mut collections = Vec::new();
        if let Some(table) = table.get("collections").and_then(toml::Value::as_table) {
            for (name, members) in table {
                let members: Vec<String> = members
                    .clone()
                    .try_into()
                    .map_err(|e| error(format!("collection '{name}': {e}")))?;
                for member in &members {
                    if !entries.iter().any(|e| &e.name == member) {
                        return Err(error(format!(
                            "collection '{name}' names '{member}', which has no [datasets.\"{member}\"] entry"
                        )));
                    }
                }
                collections.push((name.clone(), members));
            }
        }
        Ok(Catalog {
            root: root.to_path_buf(),
            entries,
            collections,
        })
    }

    /// The repository root the file paths are relative to.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// All entries, in catalog order.
    pub fn entries(&self) -> &[CatalogEntry] {
        &self.entries
    }

    /// The entry of a shipped dataset.
    pub fn entry(&self, name: &str) -> Option<&CatalogEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    fn entry_or_error(&self, name: &str) -> Result<&CatalogEntry, DataError> {
        let here = std::env::current_dir().unwrap_or_default();
        self.entry(name)
            .ok_or_else(|| self.unknown(name, &[here.join(name)]))
    }

    /// The error of a name that is neither a file (looked for at `searched`) nor a shipped
    /// dataset or collection: the three shipped names nearest it.
    fn unknown(&self, name: &str, searched: &[PathBuf]) -> DataError {
        let mut names = self.names();
        names.extend(self.collections.iter().map(|(name, _)| name.as_str()));
        DataError::UnknownDataset {
            name: name.to_string(),
            searched: searched.to_vec(),
            catalog: self.root.join(CATALOG_FILE),
            closest: closest(name, &names, 3)
                .into_iter()
                .map(str::to_string)
                .collect(),
            shipped: self.entries.len(),
        }
    }

    /// The names of all shipped datasets, in catalog order.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }

    /// The file of an entry.
    pub fn path_of(&self, entry: &CatalogEntry) -> PathBuf {
        self.root.join(&entry.file)
    }

    /// Reading options that give the entry's column types and class order.
    pub fn load_options(&self, entry: &CatalogEntry) -> LoadOptions {
        LoadOptions {
            nominal_columns: Some(entry.nominal_columns.clone()),
            missing_markers: entry.missing_markers.clone(),
            class_values: Some(entry.class_counts.iter().map(|(v, _)| v.clone()).collect()),
            name: Some(entry.name.clone()),
            ..LoadOptions::default()
        }
    }

    /// Loads a shipped dataset by name (without checking it; see [`Catalog::verify`]).
    pub fn load(&self, name: &str) -> Result<Dataset, DataError> {
        let entry = self.entry_or_error(name)?;
        load(self.path_of(entry), &self.load_options(entry))
    }

    /// Loads a shipped dataset and checks its file size, sha256, rows, attribute counts, class
    /// counts and missing values against the catalog; any difference is an error listing all.
    pub fn verify(&self, name: &str) -> Result<Verified, DataError> {
        let entry = self.entry_or_error(name)?;
        let path = self.path_of(entry);
        let bytes = std::fs::read(&path).map_err(|error| DataError::Io {
            path: path.clone(),
            error,
        })?;
        let sha256 = to_hex(&Sha256::digest(&bytes));
        let dataset = load(&path, &self.load_options(entry))?;
        let summary = Summary::of(&dataset);
        let mut mismatches = Vec::new();
        let mut check = |what: &str, expected: String, got: String| {
            if expected != got {
                mismatches.push(format!("{what}: catalog {expected}, file {got}"));
            }
        };
        check(
            "bytes",
            entry.csv_bytes.to_string(),
            bytes.len().to_string(),
        );
        check("sha256", entry.csv_sha256.clone(), sha256.clone());
        check(
            "instances",
            entry.instances.to_string(),
            summary.instances.to_string(),
        );
        check(
            "numeric attributes",
            entry.numeric_attributes.to_string(),
            summary.numeric_attributes.to_string(),
        );
        check(
            "nominal attributes",
            entry.nominal_attributes.to_string(),
            summary.nominal_attributes.to_string(),
        );
        check(
            "class counts",
            format!("{:?}", entry.class_counts),
            format!("{:?}", summary.class_counts),
        );
        check(
            "missing values",
            entry.missing_values.to_string(),
            summary.missing_values.to_string(),
        );
        check(
            "rows with missing values",
            entry.rows_with_missing.to_string(),
            summary.rows_with_missing.to_string(),
        );
        if mismatches.is_empty() {
            Ok(Verified {
                dataset,
                summary,
                sha256,
            })
        } else {
            Err(DataError::Mismatch {
                name: name.to_string(),
                path,
                mismatches: mismatches.join("; "),
            })
        }
    }

    /// All collections with their members, in catalog order.
    pub fn collections(&self) -> &[(String, Vec<String>)] {
        &self.collections
    }

    /// The members of a collection.
    pub fn collection(&self, name: &str) -> Option<&[String]> {
        self.collections
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, members)| members.as_slice())
    }

    /// The collections a dataset belongs to.
    pub fn collections_of(&self, dataset: &str) -> Vec<&str> {
        self.collections
            .iter()
            .filter(|(_, members)| members.iter().any(|m| m == dataset))
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// Expands a config's dataset word: an existing file path stays itself, a collection name
    /// becomes its members, a shipped name stays itself; anything else is an error naming
    /// where the file was looked for (the current folder) and the closest shipped names.
    pub fn expand(&self, name_or_path: &str) -> Result<Vec<String>, DataError> {
        self.expand_in(name_or_path, &[std::env::current_dir().unwrap_or_default()])
    }

    /// Like [`Catalog::expand`], looking for a relative path in each of `folders` in turn (an
    /// absolute path as it is): the first file found stays itself (as found), else a collection
    /// or shipped name; anything else is an error naming every place looked in and the
    /// closest shipped names.
    pub fn expand_in(
        &self,
        name_or_path: &str,
        folders: &[PathBuf],
    ) -> Result<Vec<String>, DataError> {
        let given = Path::new(name_or_path);
        if given.is_file() {
            return Ok(vec![name_or_path.to_string()]);
        }
        let searched: Vec<PathBuf> = if given.is_absolute() || folders.is_empty() {
            vec![given.to_path_buf()]
        } else {
            folders.iter().map(|folder| folder.join(given)).collect()
        };
        if let Some(found) = searched.iter().find(|path| path.is_file()) {
            return Ok(vec![found.display().to_string()]);
        }
        if let Some(members) = self.collection(name_or_path) {
            return Ok(members.to_vec());
        }
        match self.entry(name_or_path) {
            Some(_) => Ok(vec![name_or_path.to_string()]),
            None => match searched.iter().find(|path| path.is_dir()) {
                Some(folder) => Err(DataError::Io {
                    path: folder.clone(),
                    error: std::io::Error::other("a folder; give a dataset file in it"),
                }),
                None => Err(self.unknown(name_or_path, &searched)),
            },
        }
    }

    /// Loads a user's file if `name_or_path` is an existing file (types inferred), else the
    /// shipped dataset of that name.
    pub fn resolve(&self, name_or_path: &str) -> Result<Dataset, DataError> {
        self.resolve_with(name_or_path, &LoadOptions::default())
    }

    /// Like [`Catalog::resolve`], reading a user's file with `file_options` (column types,
    /// missing markers, class column...); a shipped dataset is read with its catalog options
    /// and `file_options` is ignored.
    pub fn resolve_with(
        &self,
        name_or_path: &str,
        file_options: &LoadOptions,
    ) -> Result<Dataset, DataError> {
        if Path::new(name_or_path).is_file() {
            return load(name_or_path, file_options);
        }
        self.load(name_or_path)
    }

    /// Like [`Catalog::resolve_with`], with what the reader decided on its own about a user's
    /// file ([`LoadReport`]: inferred column types and [`crate::LoadNotice`]s; empty for a
    /// shipped dataset, whose types the catalog declares).
    pub fn resolve_with_report(
        &self,
        name_or_path: &str,
        file_options: &LoadOptions,
    ) -> Result<(Dataset, LoadReport), DataError> {
        if Path::new(name_or_path).is_file() {
            return load_with_report(name_or_path, file_options);
        }
        Ok((self.load(name_or_path)?, LoadReport::default()))
    }
}

/// Loads a user's file if `name_or_path` is an existing file, else the shipped dataset of that
/// name (locating the catalog only when needed).
pub fn resolve(name_or_path: &str) -> Result<Dataset, DataError> {
    if Path::new(name_or_path).is_file() {
        return load(name_or_path, &LoadOptions::default());
    }
    Catalog::locate()?.load(name_or_path)
}
