//! Datasets for classifier comparison: attributes, missing values, weights, cheap row views,
//! file readers (CSV, ARFF, KEEL), the catalog of shipped datasets and the papers' transforms.

mod arff;
mod csv;
pub mod dataset;
pub mod distance;
pub mod error;
mod load;
mod table;

pub use dataset::{Attribute, AttributeKind, Dataset, DatasetError, Features, Schema, View};
pub use error::DataError;
pub use load::{load, ClassColumn, LoadOptions};
pub mod catalog;
pub use catalog::{resolve, Catalog, CatalogEntry, Summary, Verified};
pub mod hash;
pub mod transform;
pub use transform::{
    choose_positive, reduce_to_most_confused, reduce_to_most_confused_with, stratified_subsample,
    MostConfusedRecord, PositiveClass, PositiveRecord, SubsampleRecord, TieRule,
};
