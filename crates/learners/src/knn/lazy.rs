//! A unit's index whose search structure (tree, blocks, screen or levels) is built only when a
//! search needs it. A unit that the dataset's neighbour lists serve walks its queries' lists
//! over its scaled points alone ([`NeighbourIndex::nearest_in_order`] on
//! [`NeighbourIndex::points_only`], stored in the attribute order [`NeighbourIndex::new`]
//! uses, so its exact distances are the same numbers); only a query whose list runs out, or a
//! k above the lists' largest, builds the structure, once per model.

use std::sync::{Arc, OnceLock};

use super::distance::Scaling;
use super::search::{NeighbourIndex, SearchMethod};

/// A unit's scaled training rows and their search structure, built at once or on demand.
pub(crate) enum LazyIndex {
    /// The index built at once (no lists serve the unit).
    AtOnce(NeighbourIndex),
    /// The points alone (shared by the units fitted on the same rows), and the index that
    /// `method` builds from them, once a search needs it.
    Later {
        /// The points-only index ([`NeighbourIndex::points_only`]).
        points: Arc<NeighbourIndex>,
        /// The search method of the index built from them.
        method: SearchMethod,
        /// That index, once built.
        full: OnceLock<NeighbourIndex>,
    },
}

impl LazyIndex {
    /// An index over `points` (a points-only index) that `method` builds when first searched.
    pub(crate) fn later(points: Arc<NeighbourIndex>, method: SearchMethod) -> LazyIndex {
        LazyIndex::Later {
            points,
            method,
            full: OnceLock::new(),
        }
    }

    /// The index with its search structure, built now if it was not.
    pub(crate) fn full(&self) -> &NeighbourIndex {
        match self {
            LazyIndex::AtOnce(index) => index,
            LazyIndex::Later {
                points,
                method,
                full,
            } => full.get_or_init(|| points.built(*method)),
        }
    }

    /// The points in slot order (storage position = slot), for walks in a given order; none
    /// for an index built at once (stored in its own order).
    pub(crate) fn points(&self) -> Option<&NeighbourIndex> {
        match self {
            LazyIndex::AtOnce(_) => None,
            LazyIndex::Later { points, .. } => Some(points),
        }
    }

    /// True when the search structure was built.
    #[cfg(test)]
    pub(crate) fn is_built(&self) -> bool {
        match self {
            LazyIndex::AtOnce(_) => true,
            LazyIndex::Later { full, .. } => full.get().is_some(),
        }
    }

    /// Number of attributes.
    pub(crate) fn dimensions(&self) -> usize {
        self.stored().dimensions()
    }

    /// The per-attribute scaling.
    pub(crate) fn scaling(&self) -> &Scaling {
        self.stored().scaling()
    }

    /// The index built at once, or the points.
    fn stored(&self) -> &NeighbourIndex {
        match self {
            LazyIndex::AtOnce(index) => index,
            LazyIndex::Later { points, .. } => points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knn::search::Neighbour;
    use data::{Attribute, Dataset, Schema};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `rows` rows: `continuous` attributes on a coarse grid (many ties), `binary` 0/1 ones,
    /// `nominal` ones of three values, a share `missing` of every value missing.
    fn dataset(
        seed: u64,
        rows: usize,
        (continuous, binary, nominal): (usize, usize, usize),
        missing: f64,
    ) -> Dataset {
        let mut generator = ChaCha8Rng::seed_from_u64(seed);
        let mut attributes = Vec::new();
        let mut columns: Vec<Vec<f64>> = Vec::new();
        let draw = |high: u32, generator: &mut ChaCha8Rng| -> Vec<f64> {
            (0..rows)
                .map(|_| {
                    if generator.random_range(0.0..1.0) < missing {
                        f64::NAN
                    } else {
                        f64::from(generator.random_range(0..high))
                    }
                })
                .collect()
        };
        for number in 0..continuous {
            attributes.push(Attribute::numeric(format!("c{number}")));
            columns.push(draw(if number % 2 == 0 { 7 } else { 1000 }, &mut generator));
        }
        for number in 0..binary {
            attributes.push(Attribute::numeric(format!("b{number}")));
            columns.push(draw(2, &mut generator));
        }
        for number in 0..nominal {
            let values = ["x", "y", "z"].map(String::from).to_vec();
            attributes.push(Attribute::nominal(format!("n{number}"), values));
            columns.push(draw(3, &mut generator));
        }
        let classes = (0..rows).map(|row| (row % 2) as u32).collect();
        let schema = Schema {
            attributes,
            class_name: "class".into(),
            class_values: vec!["no".into(), "yes".into()],
        };
        Dataset::new("lazy", schema, columns, classes, None).expect("a valid dataset")
    }

    /// The scaled training rows (every third row left out) and the scaled queries (those).
    fn scaled(data: &Dataset) -> (Scaling, Vec<f64>, usize, Vec<f64>) {
        let train: Vec<usize> = (0..data.len()).filter(|row| row % 3 != 0).collect();
        let view = data.subset(train.clone());
        let positions: Vec<usize> = (0..train.len()).collect();
        let scaling = Scaling::fit(&view, &positions);
        let scale = |row: usize| (0..scaling.len()).map(move |a| (row, a));
        let rows = train
            .iter()
            .flat_map(|&row| scale(row))
            .map(|(row, a)| scaling.scale(a, data.value(row, a)))
            .collect();
        let queries = (0..data.len())
            .filter(|row| row % 3 == 0)
            .flat_map(scale)
            .map(|(row, a)| scaling.scale(a, data.value(row, a)))
            .collect();
        (scaling, rows, train.len(), queries)
    }

    /// Every slot with a lower bound of its distance (its distance less a hair, or 0 for
    /// `blind`), in increasing order of the bound.
    fn candidates(
        scaling: &Scaling,
        rows: &[f64],
        query: &[f64],
        blind: bool,
    ) -> Vec<(usize, f64)> {
        let dimensions = scaling.len();
        let mut all: Vec<(usize, f64)> = rows
            .chunks_exact(dimensions)
            .enumerate()
            .map(|(slot, row)| {
                let exact = scaling
                    .squared_distance_within(query, row, f64::INFINITY)
                    .unwrap_or(f64::INFINITY);
                (slot, if blind { 0.0 } else { exact * (1.0 - 1e-12) })
            })
            .collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        all
    }

    #[test]
    fn the_points_only_index_walks_to_what_the_index_built_at_once_finds() {
        let cases = [
            ((4, 0, 0), 0.0, SearchMethod::Auto, "tree"),
            ((4, 0, 0), 0.0, SearchMethod::Linear, "exact blocks"),
            ((20, 0, 0), 0.0, SearchMethod::Auto, "exact blocks"),
            ((3, 10, 0), 0.0, SearchMethod::Linear, "bit sets"),
            ((6, 0, 2), 0.0, SearchMethod::Auto, "bit sets"),
            ((60, 0, 0), 0.0, SearchMethod::Auto, "screen"),
            ((6, 0, 2), 0.0, SearchMethod::Blocked, "screen"),
            ((3, 4, 4), 0.0, SearchMethod::Auto, "levels"),
            ((0, 0, 8), 0.0, SearchMethod::Auto, "counts"),
            ((1, 0, 6), 0.1, SearchMethod::Auto, "levels"),
            ((5, 0, 2), 0.1, SearchMethod::Auto, "rows"),
            ((5, 0, 0), 0.1, SearchMethod::Auto, "rows"),
        ];
        for (seed, (shape, missing, method, layout)) in cases.into_iter().enumerate() {
            let data = dataset(seed as u64, 600, shape, missing);
            let (scaling, rows, count, queries) = scaled(&data);
            let at_once = NeighbourIndex::new(scaling.clone(), rows.clone(), count, method);
            assert_eq!(at_once.layout(), layout, "{shape:?} {missing} {method:?}");
            let points = Arc::new(NeighbourIndex::points_only(
                scaling.clone(),
                rows.clone(),
                count,
            ));
            let all_numeric_with_holes = scaling.all_numeric() && missing > 0.0;
            // The one layout the lists never walk: its searches sum some pairs differently.
            assert_eq!(points.serves_ordered(), !all_numeric_with_holes);
            let dimensions = scaling.len();
            for k in [1, 4, 21] {
                let lazy = LazyIndex::later(Arc::clone(&points), method);
                let expected = at_once.nearest_many(&queries, queries.len() / dimensions, k);
                for (query, wanted) in queries.chunks_exact(dimensions).zip(&expected) {
                    for blind in [false, true]
                        .into_iter()
                        .filter(|_| !all_numeric_with_holes)
                    {
                        let order = candidates(&scaling, &rows, query, blind);
                        let mut found: Vec<Neighbour> = Vec::new();
                        let walked = points.nearest_in_order(
                            query,
                            k,
                            (order.into_iter(), true),
                            &mut found,
                        );
                        assert!(walked);
                        assert_eq!(&found, wanted, "{layout} k = {k}");
                        assert_eq!(
                            found
                                .iter()
                                .map(|n| n.squared_distance.to_bits())
                                .collect::<Vec<_>>(),
                            wanted
                                .iter()
                                .map(|n| n.squared_distance.to_bits())
                                .collect::<Vec<_>>()
                        );
                    }
                }
                assert!(!lazy.is_built());
                let built = lazy
                    .full()
                    .nearest_many(&queries, queries.len() / dimensions, k);
                assert_eq!(built, expected, "{layout} k = {k}, built later");
                assert_eq!(lazy.full().layout(), layout);
            }
        }
    }

    #[test]
    fn queries_the_screen_turns_away_find_what_the_blocks_find() {
        let cases = [
            (7, (60, 0, 0), "exact blocks"),
            (8, (50, 12, 3), "bit sets"),
        ];
        for (seed, shape, layout) in cases {
            queries_turned_away(seed, shape, layout);
        }
    }

    /// [`queries_the_screen_turns_away_find_what_the_blocks_find`] on one dataset, whose linear
    /// scan reads `layout`.
    fn queries_turned_away(seed: u64, shape: (usize, usize, usize), layout: &str) {
        let data = dataset(seed, 600, shape, 0.0);
        let (scaling, rows, count, mut queries) = scaled(&data);
        let dimensions = scaling.len();
        let screened =
            NeighbourIndex::new(scaling.clone(), rows.clone(), count, SearchMethod::Auto);
        let blocks = NeighbourIndex::new(scaling, rows, count, SearchMethod::Linear);
        assert_eq!((screened.layout(), blocks.layout()), ("screen", layout));
        let queries_count = queries.len() / dimensions;
        assert_eq!(
            screened.nearest_many(&queries, queries_count, 5),
            blocks.nearest_many(&queries, queries_count, 5)
        );
        assert!(screened.exact_blocks_pending());
        // Every third query far beyond the screen's range in one attribute.
        for query in queries.chunks_exact_mut(dimensions).step_by(3) {
            query[1] = 2f64.powi(40);
        }
        for k in [1, 5, 21] {
            assert_eq!(
                screened.nearest_many(&queries, queries_count, k),
                blocks.nearest_many(&queries, queries_count, k),
                "k = {k}"
            );
            let mut one = Vec::new();
            let mut other = Vec::new();
            screened.nearest(&queries[..dimensions], k, &mut one);
            blocks.nearest(&queries[..dimensions], k, &mut other);
            assert_eq!(one, other, "{layout} k = {k}");
        }
        assert!(!screened.exact_blocks_pending());
    }
}
