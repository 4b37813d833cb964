//! Datasets for classifier comparison: attributes, missing values, weights, cheap row views,
//! file readers (CSV, ARFF, KEEL), the catalog of shipped datasets and the papers' transforms.
//!
//! - [`load`] reads a `.csv`, `.arff` or KEEL `.dat` file into a [`Dataset`] ([`LoadOptions`]
//!   declares column types and missing markers; [`load_with_report`] also tells which CSV column
//!   types were inferred, with [`LoadNotice`]s of what a user may not expect); a file must be
//!   UTF-8 text (other encodings and NUL bytes are refused, naming what was found);
//! - [`Catalog`] knows the shipped datasets (`datasets/catalog.toml`): [`Catalog::load`],
//!   [`Catalog::verify`], collections, and [`Catalog::resolve`] / [`resolve`] for "a shipped
//!   name or a path to the user's own file";
//! - [`Dataset::content_hash`] is a stable key for cached results ([`hash`] gives the layout);
//! - [`distance`] is the normalised distance of nearest-neighbour methods, [`nearest`] the
//!   leave-one-out nearest neighbours of every row under it;
//! - [`transform`]: the two classes 1-NN confuses most, the positive class, stratified
//!   subsamples, each returning a record of what it chose and why;
//! - [`visit_arff`] reads an ARFF file row by row (its declared attributes, then each row's
//!   values) without building a dataset, for files that are not datasets (OpenML's splits);
//! - [`shown`] quotes a user's text in a message, cut short when long.

mod arff;
pub mod catalog;
mod class_notices;
mod csv;
mod csv_scan;
pub mod dataset;
pub mod distance;
mod encoding;
pub mod error;
pub mod hash;
pub mod listing;
mod load;
pub mod nearest;
mod notices;
mod options;
mod shown;
mod table;
mod text_table;
pub mod transform;

/// The ARFF lexer, for ARFF files that are not datasets (OpenML's splits and predictions).
pub mod arff_lexer {
    pub use crate::arff::{attribute_line, tokenize_line, Located, Token};
    pub use crate::encoding::read_text;
}

pub use arff::{visit_arff, ArffAttribute};
pub use catalog::{resolve, Catalog, CatalogEntry, Summary, Verified};
pub use class_notices::CLASS_LIKE_NAMES;
pub use dataset::{
    Attribute, AttributeKind, ColumnOf, Dataset, DatasetError, Features, Schema, View,
};
pub use error::DataError;
pub use load::{load, load_with_report};
pub use notices::{LoadNotice, FEW_CODES};
pub use options::{ClassColumn, ColumnType, LoadOptions, LoadReport, DEFAULT_MISSING_MARKERS};
pub use shown::{
    closest, lines_within, shell_quoted, shown, shown_list, shown_within, SHOWN_CHARACTERS,
};
pub use text_table::TextTable;
pub use transform::{
    choose_positive, into_positive, reduce_to_most_confused, reduce_to_most_confused_with,
    stratified_subsample, MostConfusedRecord, PositiveClass, PositiveRecord, SubsampleRecord,
    TieRule,
};
