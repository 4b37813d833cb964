//! Datasets for classifier comparison: attributes, missing values, weights, cheap row views,
//! file readers (CSV, ARFF, KEEL), the catalog of shipped datasets and the papers' transforms.

pub mod dataset;

pub use dataset::{Attribute, AttributeKind, Dataset, DatasetError, Features, Schema, View};
