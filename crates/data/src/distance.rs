//! The distance between rows used by nearest-neighbour methods, defined as Weka's `IBk`
//! defines its default (Euclidean, normalised) distance, so that the 1-NN confusion used by
//! [`crate::transform::reduce_to_most_confused`] and the k-NN learner agree:
//!
//! - a numeric value is normalised to `(x - min) / (max - min)` with `min`/`max` over the
//!   present values of the data the distance was fitted on (0 when `max == min` or no value is
//!   present); values outside the fitted range are not clamped;
//! - the difference of two numeric values is the difference of their normalised values; if
//!   one is missing it is `max(v, 1 - v)` for the normalised present value `v`, and 1 if both are;
//! - the difference of two nominal values is 0 when equal, else 1 (also when either is missing);
//! - the distance is the square root of the sum of squared differences (functions here return
//!   the squared distance, which orders neighbours the same way).
//!
//! Sums are always taken over attributes in schema order, so equal inputs give bit-identical
//! distances and ties can be broken by row index.

use crate::dataset::{Dataset, Schema, View};

/// Normalisation of one attribute.
#[derive(Clone, Debug, PartialEq)]
enum Scale {
    /// A nominal attribute (0/1 difference).
    Nominal,
    /// A numeric attribute: `(x - min) * inverse_width`, or 0 when `inverse_width` is 0.
    Numeric { min: f64, inverse_width: f64 },
}

/// A fitted distance function: the per-attribute normalisation learned from training rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Distance {
    scales: Vec<Scale>,
}

/// The difference of two normalised values of one attribute (`NaN` = missing).
#[inline]
pub fn normalised_difference(nominal: bool, a: f64, b: f64) -> f64 {
    if nominal {
        if a.is_nan() || b.is_nan() || a != b {
            1.0
        } else {
            0.0
        }
    } else {
        match (a.is_nan(), b.is_nan()) {
            (false, false) => a - b,
            (true, true) => 1.0,
            (true, false) => b.max(1.0 - b),
            (false, true) => a.max(1.0 - a),
        }
    }
}

impl Distance {
    /// Fits the normalisation on the rows of a view (the training data).
    pub fn fit(view: &View) -> Distance {
        let rows = view.rows();
        Distance::fit_rows(view.dataset(), rows.iter().copied())
    }

    /// Fits the normalisation on every row of a dataset.
    pub fn fit_dataset(dataset: &Dataset) -> Distance {
        Distance::fit_rows(dataset, 0..dataset.len())
    }

    fn fit_rows(dataset: &Dataset, rows: impl Iterator<Item = usize> + Clone) -> Distance {
        let scales = dataset
            .schema()
            .attributes
            .iter()
            .enumerate()
            .map(|(index, attribute)| {
                if !attribute.is_numeric() {
                    return Scale::Nominal;
                }
                let column = dataset.column(index);
                let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
                for row in rows.clone() {
                    let value = column[row];
                    if !value.is_nan() {
                        min = min.min(value);
                        max = max.max(value);
                    }
                }
                if min < max {
                    Scale::Numeric {
                        min,
                        inverse_width: 1.0 / (max - min),
                    }
                } else {
                    Scale::Numeric {
                        min: if min.is_finite() { min } else { 0.0 },
                        inverse_width: 0.0,
                    }
                }
            })
            .collect();
        Distance { scales }
    }

    /// A distance from explicit numeric ranges: `ranges[i]` is `Some((min, max))` for a numeric
    /// attribute and `None` for a nominal one.
    pub fn from_ranges(ranges: &[Option<(f64, f64)>]) -> Distance {
        let scales = ranges
            .iter()
            .map(|range| match *range {
                None => Scale::Nominal,
                Some((min, max)) if min < max => Scale::Numeric {
                    min,
                    inverse_width: 1.0 / (max - min),
                },
                Some((min, _)) => Scale::Numeric {
                    min,
                    inverse_width: 0.0,
                },
            })
            .collect();
        Distance { scales }
    }

    /// Number of attributes.
    pub fn num_attributes(&self) -> usize {
        self.scales.len()
    }

    /// True if attribute `attribute` is nominal.
    pub fn is_nominal(&self, attribute: usize) -> bool {
        self.scales[attribute] == Scale::Nominal
    }

    /// The normalised value of attribute `attribute` (nominal indices and `NaN` unchanged).
    #[inline]
    pub fn normalise(&self, attribute: usize, value: f64) -> f64 {
        match self.scales[attribute] {
            Scale::Nominal => value,
            Scale::Numeric { .. } if value.is_nan() => value,
            Scale::Numeric { min, inverse_width } => (value - min) * inverse_width,
        }
    }

    /// A row of raw values, normalised.
    pub fn normalise_row(&self, row: &[f64]) -> Vec<f64> {
        row.iter()
            .enumerate()
            .map(|(attribute, &value)| self.normalise(attribute, value))
            .collect()
    }

    /// The difference of two raw values of one attribute (before squaring).
    pub fn difference(&self, attribute: usize, a: f64, b: f64) -> f64 {
        normalised_difference(
            self.is_nominal(attribute),
            self.normalise(attribute, a),
            self.normalise(attribute, b),
        )
    }

    /// The squared distance between two rows of raw values.
    pub fn squared(&self, a: &[f64], b: &[f64]) -> f64 {
        let mut sum = 0.0;
        for attribute in 0..self.scales.len() {
            let difference = self.difference(attribute, a[attribute], b[attribute]);
            sum += difference * difference;
        }
        sum
    }

    /// The `k` rows of `view` nearest to `query` (raw attribute values), as (position in the
    /// view, squared distance), nearest first with ties in view order, followed by every other
    /// row tied with the k-th (Weka's IBk keeps those too). Exhaustive search; `k = 0` gives
    /// nothing.
    pub fn k_nearest(&self, view: &View, query: &[f64], k: usize) -> Vec<(usize, f64)> {
        if k == 0 || view.is_empty() {
            return Vec::new();
        }
        let query = self.normalise_row(query);
        let width = self.scales.len();
        let mut row = vec![0.0; width];
        let mut all: Vec<(usize, f64)> = (0..view.len())
            .map(|position| {
                for (attribute, value) in row.iter_mut().enumerate() {
                    *value = self.normalise(attribute, view.value(position, attribute));
                }
                (
                    position,
                    self.squared_normalised_within(&query, &row, f64::INFINITY),
                )
            })
            .collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let kth = all[k.min(all.len()) - 1].1;
        let keep = all.iter().take_while(|(_, d)| *d <= kth).count();
        all.truncate(keep.max(k.min(all.len())));
        all
    }

    /// The squared distance between two rows already normalised with [`Distance::normalise_row`].
    /// Stops early and returns a value above `bound` as soon as the partial sum exceeds it.
    #[inline]
    pub fn squared_normalised_within(&self, a: &[f64], b: &[f64], bound: f64) -> f64 {
        let mut sum = 0.0;
        for attribute in 0..self.scales.len() {
            let difference = normalised_difference(
                self.scales[attribute] == Scale::Nominal,
                a[attribute],
                b[attribute],
            );
            sum += difference * difference;
            if sum > bound {
                return sum;
            }
        }
        sum
    }
}

/// For every row of the dataset, the nearest other row (leave-one-out 1-NN) under a
/// [`Distance`] fitted on the whole dataset; ties go to the lower row index. Needs at least 2
/// rows.
pub fn leave_one_out_nearest(dataset: &Dataset) -> Vec<usize> {
    leave_one_out_nearest_tied(dataset)
        .into_iter()
        .map(|tied| tied[0])
        .collect()
}

/// For every row of the dataset, all other rows at the smallest distance from it (ascending
/// row order), under a [`Distance`] fitted on the whole dataset. Uses a k-d tree when every
/// attribute is numeric with no missing value, a mismatch count when every attribute is
/// nominal with no missing value, else an exhaustive search with early exit; all give
/// identical answers. Needs at least 2 rows.
pub fn leave_one_out_nearest_tied(dataset: &Dataset) -> Vec<Vec<usize>> {
    let distance = Distance::fit_dataset(dataset);
    let width = dataset.schema().num_attributes();
    let n = dataset.len();
    let mut points = vec![0.0; n * width];
    for attribute in 0..width {
        for (row, &value) in dataset.column(attribute).iter().enumerate() {
            points[row * width + attribute] = distance.normalise(attribute, value);
        }
    }
    if let Some(codes) = nominal_codes(dataset) {
        return nearest_tied_nominal(&codes, width, n);
    }
    let use_tree = width > 0 && all_numeric_present(dataset.schema(), dataset);
    let tree = use_tree.then(|| KdTree::build(&points, width));
    (0..n)
        .map(|row| {
            let query = &points[row * width..(row + 1) * width];
            let mut best = Nearest::default();
            match &tree {
                Some(tree) => tree.search(0, query, row, &distance, &mut best),
                None => {
                    for other in 0..n {
                        if other != row {
                            let candidate = &points[other * width..(other + 1) * width];
                            best.offer(
                                distance.squared_normalised_within(query, candidate, best.distance),
                                other,
                            );
                        }
                    }
                }
            }
            best.rows.sort_unstable();
            best.rows
        })
        .collect()
}

/// Row-major value codes when every attribute is nominal with at most 256 values and no value
/// is missing; then the squared distance is the number of differing attributes.
fn nominal_codes(dataset: &Dataset) -> Option<Vec<u8>> {
    let schema = dataset.schema();
    let width = schema.num_attributes();
    let fits = width > 0
        && schema.attributes.iter().enumerate().all(|(i, a)| {
            a.values().is_some_and(|v| v.len() <= 256)
                && !dataset.column(i).iter().any(|v| v.is_nan())
        });
    if !fits {
        return None;
    }
    let mut codes = vec![0u8; dataset.len() * width];
    for attribute in 0..width {
        for (row, &value) in dataset.column(attribute).iter().enumerate() {
            codes[row * width + attribute] = value as u8;
        }
    }
    Some(codes)
}

/// The exhaustive search specialised to complete nominal data: counts differing attributes,
/// stopping once the count exceeds the best so far. Gives the same rows as the general search
/// (the general distance is the same count, summed exactly in `f64`).
fn nearest_tied_nominal(codes: &[u8], width: usize, n: usize) -> Vec<Vec<usize>> {
    (0..n)
        .map(|row| {
            let query = &codes[row * width..(row + 1) * width];
            let mut best = usize::MAX;
            let mut rows = Vec::new();
            for other in 0..n {
                if other == row {
                    continue;
                }
                let candidate = &codes[other * width..(other + 1) * width];
                let mut differing = 0;
                for (a, b) in query.iter().zip(candidate) {
                    differing += usize::from(a != b);
                    if differing > best {
                        break;
                    }
                }
                if differing < best {
                    best = differing;
                    rows.clear();
                    rows.push(other);
                } else if differing == best {
                    rows.push(other);
                }
            }
            rows
        })
        .collect()
}

/// The smallest distance seen so far and every row at it.
struct Nearest {
    distance: f64,
    rows: Vec<usize>,
}

impl Default for Nearest {
    fn default() -> Self {
        Nearest {
            distance: f64::INFINITY,
            rows: Vec::new(),
        }
    }
}

impl Nearest {
    #[inline]
    fn offer(&mut self, distance: f64, row: usize) {
        if distance < self.distance {
            self.distance = distance;
            self.rows.clear();
            self.rows.push(row);
        } else if distance == self.distance {
            self.rows.push(row);
        }
    }
}

fn all_numeric_present(schema: &Schema, dataset: &Dataset) -> bool {
    schema
        .attributes
        .iter()
        .enumerate()
        .all(|(i, a)| a.is_numeric() && !dataset.column(i).iter().any(|v| v.is_nan()))
}

/// A k-d tree over normalised numeric points (no missing values), for exact nearest-neighbour
/// search with the same tie rule as the exhaustive search.
struct KdTree<'a> {
    points: &'a [f64],
    width: usize,
    order: Vec<usize>,
    nodes: Vec<Node>,
}

enum Node {
    Leaf {
        start: usize,
        end: usize,
    },
    Split {
        dimension: usize,
        value: f64,
        left: usize,
        right: usize,
    },
}

const LEAF_SIZE: usize = 16;

impl<'a> KdTree<'a> {
    fn build(points: &'a [f64], width: usize) -> KdTree<'a> {
        let n = points.len() / width;
        let mut tree = KdTree {
            points,
            width,
            order: (0..n).collect(),
            nodes: Vec::new(),
        };
        tree.build_node(0, n);
        tree
    }

    fn coordinate(&self, row: usize, dimension: usize) -> f64 {
        self.points[row * self.width + dimension]
    }

    fn build_node(&mut self, start: usize, end: usize) -> usize {
        let index = self.nodes.len();
        if end - start <= LEAF_SIZE {
            self.nodes.push(Node::Leaf { start, end });
            return index;
        }
        // Split on the dimension with the widest spread, at the median.
        let mut dimension = 0;
        let mut widest = -1.0;
        for d in 0..self.width {
            let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
            for &row in &self.order[start..end] {
                let v = self.coordinate(row, d);
                low = low.min(v);
                high = high.max(v);
            }
            if high - low > widest {
                widest = high - low;
                dimension = d;
            }
        }
        if widest <= 0.0 {
            self.nodes.push(Node::Leaf { start, end });
            return index;
        }
        let middle = start + (end - start) / 2;
        let points = self.points;
        let width = self.width;
        self.order[start..end].select_nth_unstable_by(middle - start, |&a, &b| {
            points[a * width + dimension]
                .total_cmp(&points[b * width + dimension])
                .then(a.cmp(&b))
        });
        let value = self.coordinate(self.order[middle], dimension);
        self.nodes.push(Node::Leaf { start, end }); // placeholder
        let left = self.build_node(start, middle);
        let right = self.build_node(middle, end);
        self.nodes[index] = Node::Split {
            dimension,
            value,
            left,
            right,
        };
        index
    }

    fn search(
        &self,
        node: usize,
        query: &[f64],
        excluded: usize,
        distance: &Distance,
        best: &mut Nearest,
    ) {
        match self.nodes[node] {
            Node::Leaf { start, end } => {
                for &row in &self.order[start..end] {
                    if row == excluded {
                        continue;
                    }
                    let point = &self.points[row * self.width..(row + 1) * self.width];
                    best.offer(
                        distance.squared_normalised_within(query, point, best.distance),
                        row,
                    );
                }
            }
            Node::Split {
                dimension,
                value,
                left,
                right,
            } => {
                // Left holds coordinates <= value, right >= value.
                let gap = query[dimension] - value;
                let (near, far) = if gap < 0.0 {
                    (left, right)
                } else {
                    (right, left)
                };
                self.search(near, query, excluded, distance, best);
                if gap * gap <= best.distance {
                    self.search(far, query, excluded, distance, best);
                }
            }
        }
    }
}
