//! The in-memory dataset and cheap row views of it.

use std::sync::Arc;

/// What kind of values an attribute takes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttributeKind {
    /// Real numbers.
    Numeric,
    /// One of a fixed list of named values, stored as the index into that list.
    Nominal(Vec<String>),
}

/// A named input attribute (or the class attribute).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attribute {
    /// The attribute's name as written in the source file.
    pub name: String,
    /// Numeric or nominal with its values.
    pub kind: AttributeKind,
}

impl Attribute {
    /// A numeric attribute.
    pub fn numeric(name: impl Into<String>) -> Self {
        Attribute {
            name: name.into(),
            kind: AttributeKind::Numeric,
        }
    }

    /// A nominal attribute with the given values, in order.
    pub fn nominal(name: impl Into<String>, values: Vec<String>) -> Self {
        Attribute {
            name: name.into(),
            kind: AttributeKind::Nominal(values),
        }
    }

    /// True for a numeric attribute.
    pub fn is_numeric(&self) -> bool {
        matches!(self.kind, AttributeKind::Numeric)
    }

    /// The nominal values, or `None` for a numeric attribute.
    pub fn values(&self) -> Option<&[String]> {
        match &self.kind {
            AttributeKind::Nominal(values) => Some(values),
            AttributeKind::Numeric => None,
        }
    }
}

/// The attribute names and types, and the class attribute with its values: all that a model may
/// know about data without seeing labels.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Schema {
    /// Input attributes, in file order (the class excluded).
    pub attributes: Vec<Attribute>,
    /// The class attribute's name.
    pub class_name: String,
    /// The class values, in the order used by every probability row.
    pub class_values: Vec<String>,
}

impl Schema {
    /// Number of classes.
    pub fn num_classes(&self) -> usize {
        self.class_values.len()
    }

    /// Number of input attributes.
    pub fn num_attributes(&self) -> usize {
        self.attributes.len()
    }
}

/// A classification dataset: column-major attribute values (`NaN` = missing; a nominal value is
/// stored as its index as `f64`), one class index per row, and instance weights.
#[derive(Clone, Debug)]
pub struct Dataset {
    name: String,
    schema: Arc<Schema>,
    columns: Vec<Vec<f64>>,
    classes: Vec<u32>,
    weights: Vec<f64>,
}

/// Why a dataset could not be assembled from its parts.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DatasetError {
    /// Columns and classes disagree in length.
    #[error("dataset '{name}': attribute '{attribute}' has {got} values, expected {expected}")]
    ColumnLength {
        name: String,
        attribute: String,
        got: usize,
        expected: usize,
    },
    /// Wrong number of columns for the schema.
    #[error("dataset '{name}': {got} columns for {expected} attributes")]
    ColumnCount {
        name: String,
        got: usize,
        expected: usize,
    },
    /// A class index beyond the class values.
    #[error(
        "dataset '{name}': row {row} has class index {index}, but there are {classes} classes"
    )]
    ClassIndex {
        name: String,
        row: usize,
        index: u32,
        classes: usize,
    },
    /// A nominal value index beyond the attribute's values.
    #[error("dataset '{name}': row {row} of attribute '{attribute}' holds {value}, not a value index below {values}")]
    NominalIndex {
        name: String,
        attribute: String,
        row: usize,
        value: f64,
        values: usize,
    },
    /// A negative or non-finite weight.
    #[error("dataset '{name}': row {row} has weight {weight}; weights must be finite and >= 0")]
    Weight {
        name: String,
        row: usize,
        weight: f64,
    },
    /// Two attributes with the same name.
    #[error("dataset '{name}': attribute name '{attribute}' appears twice")]
    DuplicateName { name: String, attribute: String },
}

impl Dataset {
    /// Assembles a dataset from a schema, columns (one per attribute), class indices and weights
    /// (`None` = all 1), checking that the parts fit together.
    pub fn new(
        name: impl Into<String>,
        schema: Schema,
        columns: Vec<Vec<f64>>,
        classes: Vec<u32>,
        weights: Option<Vec<f64>>,
    ) -> Result<Self, DatasetError> {
        let name = name.into();
        let n = classes.len();
        if columns.len() != schema.attributes.len() {
            return Err(DatasetError::ColumnCount {
                name,
                got: columns.len(),
                expected: schema.attributes.len(),
            });
        }
        let mut seen = std::collections::HashSet::new();
        for attribute in schema.attributes.iter() {
            if !seen.insert(attribute.name.as_str()) || attribute.name == schema.class_name {
                return Err(DatasetError::DuplicateName {
                    name,
                    attribute: attribute.name.clone(),
                });
            }
        }
        for (attribute, column) in schema.attributes.iter().zip(&columns) {
            if column.len() != n {
                return Err(DatasetError::ColumnLength {
                    name,
                    attribute: attribute.name.clone(),
                    got: column.len(),
                    expected: n,
                });
            }
            if let Some(values) = attribute.values() {
                for (row, &value) in column.iter().enumerate() {
                    let valid_index =
                        value >= 0.0 && value.fract() == 0.0 && (value as usize) < values.len();
                    if !value.is_nan() && !valid_index {
                        return Err(DatasetError::NominalIndex {
                            name,
                            attribute: attribute.name.clone(),
                            row,
                            value,
                            values: values.len(),
                        });
                    }
                }
            }
        }
        for (row, &class) in classes.iter().enumerate() {
            if class as usize >= schema.class_values.len() {
                return Err(DatasetError::ClassIndex {
                    name,
                    row,
                    index: class,
                    classes: schema.class_values.len(),
                });
            }
        }
        let weights = weights.unwrap_or_else(|| vec![1.0; n]);
        if weights.len() != n {
            return Err(DatasetError::ColumnLength {
                name,
                attribute: "(weights)".into(),
                got: weights.len(),
                expected: n,
            });
        }
        for (row, &weight) in weights.iter().enumerate() {
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(DatasetError::Weight { name, row, weight });
            }
        }
        Ok(Dataset {
            name,
            schema: Arc::new(schema),
            columns,
            classes,
            weights,
        })
    }

    /// The dataset's name (file stem or catalog name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the dataset (e.g. after a transform).
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Attribute names and kinds and the class values.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Shared handle to the schema.
    pub fn schema_arc(&self) -> Arc<Schema> {
        Arc::clone(&self.schema)
    }

    /// Number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// True when the dataset has no rows.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// Number of classes.
    pub fn num_classes(&self) -> usize {
        self.schema.num_classes()
    }

    /// All values of one attribute, one per row (`NaN` = missing).
    #[inline]
    pub fn column(&self, attribute: usize) -> &[f64] {
        &self.columns[attribute]
    }

    /// One value (`NaN` = missing).
    #[inline]
    pub fn value(&self, row: usize, attribute: usize) -> f64 {
        self.columns[attribute][row]
    }

    /// Class index of every row.
    pub fn classes(&self) -> &[u32] {
        &self.classes
    }

    /// Class index of one row.
    #[inline]
    pub fn class(&self, row: usize) -> usize {
        self.classes[row] as usize
    }

    /// Instance weights, one per row.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Weighted count of each class over all rows.
    pub fn class_counts(&self) -> Vec<f64> {
        let mut counts = vec![0.0; self.num_classes()];
        for (&class, &weight) in self.classes.iter().zip(&self.weights) {
            counts[class as usize] += weight;
        }
        counts
    }

    /// Number of missing attribute values.
    pub fn missing_count(&self) -> usize {
        self.columns
            .iter()
            .map(|column| column.iter().filter(|v| v.is_nan()).count())
            .sum()
    }

    /// A labelled view of all rows.
    pub fn view(&self) -> View<'_> {
        View::new(self, (0..self.len()).collect())
    }

    /// A labelled view of the given rows (rows may repeat, as in a bootstrap sample).
    pub fn subset(&self, rows: Vec<usize>) -> View<'_> {
        View::new(self, rows)
    }

    /// Copies the given rows into a new dataset with the same schema (for transforms that must
    /// produce a standalone dataset; folds should use [`Dataset::subset`] instead).
    pub fn select_rows(&self, rows: &[usize]) -> Dataset {
        Dataset {
            name: self.name.clone(),
            schema: Arc::clone(&self.schema),
            columns: self
                .columns
                .iter()
                .map(|column| rows.iter().map(|&r| column[r]).collect())
                .collect(),
            classes: rows.iter().map(|&r| self.classes[r]).collect(),
            weights: rows.iter().map(|&r| self.weights[r]).collect(),
        }
    }

    /// Splits the dataset back into its parts (schema, columns, classes, weights).
    pub fn into_parts(self) -> (String, Schema, Vec<Vec<f64>>, Vec<u32>, Vec<f64>) {
        let schema = Arc::try_unwrap(self.schema).unwrap_or_else(|shared| (*shared).clone());
        (self.name, schema, self.columns, self.classes, self.weights)
    }
}

/// A labelled subset of a dataset's rows, with optional weights that replace the dataset's
/// own: what a learner trains on. Holds row indices, never a copy of the data.
///
/// A view gives access to its own rows only: nothing reachable from it reads the values or
/// labels of the dataset's other rows (such as a test set's labels). Its `Debug` output names
/// the dataset and lists the row indices, without any values.
#[derive(Clone)]
pub struct View<'a> {
    dataset: &'a Dataset,
    rows: Vec<usize>,
    weights: Option<Vec<f64>>,
}

impl<'a> View<'a> {
    fn new(dataset: &'a Dataset, rows: Vec<usize>) -> Self {
        View {
            dataset,
            rows,
            weights: None,
        }
    }

    /// Replaces the instance weights of this view (one per row of the view).
    ///
    /// Panics if the length differs from the view's: a programming error, not user input.
    pub fn with_weights(mut self, weights: Vec<f64>) -> Self {
        assert_eq!(
            weights.len(),
            self.rows.len(),
            "one weight per row of the view"
        );
        self.weights = Some(weights);
        self
    }

    /// The underlying dataset's schema.
    pub fn schema(&self) -> &'a Schema {
        self.dataset.schema()
    }

    /// Number of rows in the view.
    #[inline]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when the view has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Number of classes.
    pub fn num_classes(&self) -> usize {
        self.dataset.num_classes()
    }

    /// Number of input attributes.
    pub fn num_attributes(&self) -> usize {
        self.dataset.schema().num_attributes()
    }

    /// The dataset row index of each row of the view.
    #[inline]
    pub fn rows(&self) -> &[usize] {
        &self.rows
    }

    /// The number of rows of the dataset behind the view (all of them, not only the view's).
    pub fn dataset_len(&self) -> usize {
        self.dataset.len()
    }

    /// The dataset behind the view, every row of it: for this crate only, since a learner
    /// must not see rows outside its training view.
    #[inline]
    pub(crate) fn dataset(&self) -> &'a Dataset {
        self.dataset
    }

    /// The values of one attribute at every position of the view, in order (`NaN` = missing).
    #[inline]
    pub fn column(&self, attribute: usize) -> impl ExactSizeIterator<Item = f64> + '_ {
        let column: &[f64] = &self.dataset.columns[attribute];
        self.rows.iter().map(move |&row| column[row])
    }

    /// Value of attribute `attribute` at position `position` of the view (`NaN` = missing).
    #[inline]
    pub fn value(&self, position: usize, attribute: usize) -> f64 {
        self.dataset.columns[attribute][self.rows[position]]
    }

    /// One attribute of the view, read by position without copying it (for learners that
    /// would otherwise copy their training columns).
    #[inline]
    pub fn column_of(&self, attribute: usize) -> ColumnOf<'_> {
        ColumnOf {
            values: &self.dataset.columns[attribute],
            rows: &self.rows,
        }
    }

    /// Class index at a position of the view.
    #[inline]
    pub fn class(&self, position: usize) -> usize {
        self.dataset.classes[self.rows[position]] as usize
    }

    /// Weight at a position of the view.
    #[inline]
    pub fn weight(&self, position: usize) -> f64 {
        match &self.weights {
            Some(weights) => weights[position],
            None => self.dataset.weights[self.rows[position]],
        }
    }

    /// Weighted count of each class in the view.
    pub fn class_counts(&self) -> Vec<f64> {
        let mut counts = vec![0.0; self.num_classes()];
        for position in 0..self.len() {
            counts[self.class(position)] += self.weight(position);
        }
        counts
    }

    /// A view of some positions of this view (positions index this view, not the dataset).
    pub fn subview(&self, positions: &[usize]) -> View<'a> {
        View {
            dataset: self.dataset,
            rows: positions.iter().map(|&p| self.rows[p]).collect(),
            weights: self
                .weights
                .as_ref()
                .map(|w| positions.iter().map(|&p| w[p]).collect()),
        }
    }

    /// The same rows without their labels: what a model is allowed to see at prediction time.
    pub fn features(&self) -> Features<'a> {
        Features {
            dataset: self.dataset,
            rows: self.rows.clone(),
        }
    }
}

/// One attribute of a [`View`], read by the view's positions: like the view, it reaches the
/// view's own rows only.
#[derive(Clone, Copy)]
pub struct ColumnOf<'a> {
    values: &'a [f64],
    rows: &'a [usize],
}

impl ColumnOf<'_> {
    /// The value at a position of the view (`NaN` = missing).
    #[inline]
    pub fn get(&self, position: usize) -> f64 {
        self.values[self.rows[position]]
    }

    /// Number of positions (the view's rows).
    #[inline]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when the view has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The values at every position, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        self.rows.iter().map(|&row| self.values[row])
    }

    /// Asks the processor to start loading the value at `position`, for a loop that reads the
    /// values of scattered positions: a hint only (nothing happens past the end, or on a
    /// processor without the instruction), so the result of no read depends on it.
    #[inline]
    pub fn prefetch(&self, position: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(value) = self
            .rows
            .get(position)
            .and_then(|&row| self.values.get(row))
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch reads no data into the program and cannot fault; the address
            // is that of a live value of the column besides.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = position;
    }
}

/// An unlabelled set of rows: attribute values only. Models predict from this type, which has no
/// way to reach the class labels (nor other rows). Its `Debug` output names the dataset and
/// lists the row indices, without any values.
#[derive(Clone)]
pub struct Features<'a> {
    dataset: &'a Dataset,
    rows: Vec<usize>,
}

impl<'a> Features<'a> {
    /// Unlabelled view of the given rows of a dataset.
    pub fn of(dataset: &'a Dataset, rows: Vec<usize>) -> Self {
        Features { dataset, rows }
    }

    /// The dataset behind the features, every row of it: for this crate only.
    #[inline]
    pub(crate) fn dataset(&self) -> &'a Dataset {
        self.dataset
    }

    /// The dataset's schema (attribute kinds and class values, no labels).
    pub fn schema(&self) -> &'a Schema {
        self.dataset.schema()
    }

    /// Number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Number of input attributes.
    pub fn num_attributes(&self) -> usize {
        self.dataset.schema().num_attributes()
    }

    /// The dataset row index of each row (no labels: a learner that runs in another process
    /// keys the rows it was sent on them).
    #[inline]
    pub fn rows(&self) -> &[usize] {
        &self.rows
    }

    /// Value of an attribute at a position (`NaN` = missing).
    #[inline]
    pub fn value(&self, position: usize, attribute: usize) -> f64 {
        self.dataset.columns[attribute][self.rows[position]]
    }

    /// The values of one attribute at every position, in order (`NaN` = missing).
    pub fn column(&self, attribute: usize) -> impl ExactSizeIterator<Item = f64> + '_ {
        let column = &self.dataset.columns[attribute];
        self.rows.iter().map(move |&row| column[row])
    }

    /// All attribute values of the row at a position.
    pub fn row(&self, position: usize) -> Vec<f64> {
        let row = self.rows[position];
        self.dataset
            .columns
            .iter()
            .map(|column| column[row])
            .collect()
    }
}

impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("View")
            .field("dataset", &self.dataset.name)
            .field("rows", &self.rows)
            .field("weights", &self.weights)
            .finish()
    }
}

impl std::fmt::Debug for Features<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Features")
            .field("dataset", &self.dataset.name)
            .field("rows", &self.rows)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dataset() -> Dataset {
        let schema = Schema {
            attributes: vec![Attribute::numeric("x")],
            class_name: "class".into(),
            class_values: vec!["secret-a".into(), "secret-b".into()],
        };
        Dataset::new(
            "toy",
            schema,
            vec![vec![10.0, 11.0, 12.0, f64::NAN]],
            vec![0, 1, 1, 0],
            None,
        )
        .unwrap()
    }

    #[test]
    fn a_view_column_holds_its_own_rows_in_order() {
        let data = dataset();
        let view = data.subset(vec![2, 0, 2]);
        assert_eq!(view.column(0).collect::<Vec<_>>(), vec![12.0, 10.0, 12.0]);
        assert_eq!(view.column(0).len(), 3);
        let view = data.subset(vec![3]);
        assert!(view.column(0).next().unwrap().is_nan());
    }

    #[test]
    fn debug_output_shows_no_values_or_labels() {
        let data = dataset();
        let text = format!(
            "{:?} {:?}",
            data.subset(vec![1]),
            data.subset(vec![1]).features()
        );
        assert_eq!(
            text,
            "View { dataset: \"toy\", rows: [1], weights: None } Features { dataset: \"toy\", rows: [1] }"
        );
    }
}
