//! k nearest neighbours in the manner of Weka's IBk (Aslan et al. 2009; Provost et al. 1998):
//! numeric attributes scaled to [0, 1] on the training data, nominal attributes at distance 0/1,
//! Weka's rules for missing values, uniform or inverse-distance voting, and k chosen from a list
//! of candidates by error on a validation set.
//!
//! Probabilities are the (instance-weighted) vote shares of the k nearest training rows and, as
//! in Weka 3.6 IBk (whose neighbour list grows past k on ties), of every further training row at
//! exactly the k-th nearest distance; so results never depend on the search method or on row
//! order. In k selection each candidate k likewise votes with its k nearest plus the rows tied
//! with its k-th. By default, unlike Weka, no `1/n` is added to each class count before
//! normalising; `weka_smoothing = true` adds it (`n` = the number of training rows with positive
//! weight), which gives Weka IBk's probabilities exactly and never changes the predicted class.
//! Inverse-distance voting uses Weka's weight `1 / (d + 0.001)` with
//! `d = sqrt(squared distance / number of attributes)`.

mod distance;
mod lazy;
mod levels;
mod memory;
mod screen;
mod search;
mod shared;

use std::sync::Arc;

use data::{Features, Schema, View};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::model::{Learner, LearnerError, Model, Probabilities, ShareHint, SharedState};
use crate::params::{ParamError, Params};
use crate::spec::{revision_text, Capabilities, LearnerSpec, ParameterSpec};
use crate::tune_space::TuneSpace;
use distance::Scaling;
use lazy::LazyIndex;
use search::{tied_end, Neighbour, NeighbourIndex};
pub use search::{SearchMethod, KD_TREE_MAX_DIMENSIONS};
pub use shared::NeighbourLists;
use shared::SharedSearch;

/// How the k nearest neighbours' votes are weighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighting {
    /// Every neighbour votes with its instance weight.
    Uniform,
    /// Each neighbour's instance weight times `1 / (d + 0.001)` (Weka IBk `-I`).
    InverseDistance,
}

impl Weighting {
    /// The config word for this weighting.
    pub fn as_str(self) -> &'static str {
        match self {
            Weighting::Uniform => "uniform",
            Weighting::InverseDistance => "inverse_distance",
        }
    }
}

/// The k-NN parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct KnnConfig {
    /// The k used when `select_k` is false (and the fallback when no validation rows exist).
    pub k: usize,
    /// The candidate values of k scored on the validation set.
    pub candidates: Vec<usize>,
    /// Whether to choose k from `candidates` by validation error.
    pub select_k: bool,
    /// How votes are weighted.
    pub weighting: Weighting,
    /// Share of the training rows held out (stratified) to choose k when the protocol supplies
    /// no validation set.
    pub validation_fraction: f64,
    /// Neighbour search method.
    pub search: SearchMethod,
    /// Start every class at `1/n` before adding the votes (`n` training rows), as Weka IBk.
    pub weka_smoothing: bool,
}

impl Default for KnnConfig {
    /// The spec's defaults: k from {1, 3, 5, 7, 11, 21} by validation error, uniform votes.
    fn default() -> Self {
        KnnLearner::from_params(Params::defaults(&spec()))
            .expect("the spec's defaults are valid")
            .config
    }
}

/// Revision of the k-NN implementation: bump it whenever its outputs change.
const REVISION: u32 = 2;

/// The `knn` learner kind: parameters, capabilities, revision and constructor.
pub fn spec() -> LearnerSpec {
    LearnerSpec {
        kind: "knn",
        description: "k nearest neighbours (Weka IBk distance), k chosen by validation error",
        revision: REVISION,
        parameters: vec![
            ParameterSpec::integer(
                "k",
                5,
                1,
                MAX_K,
                "the k used when select_k is false (and when too few rows are left to validate)",
            )
            .tuned(TuneSpace::Integers(&[1, 3, 5, 7, 11, 21])),
            ParameterSpec::integer_list(
                "candidates",
                &[1, 3, 5, 7, 11, 21],
                1,
                MAX_K,
                "the values of k scored on the validation set",
            ),
            ParameterSpec::boolean(
                "select_k",
                true,
                "choose k from the candidates by validation error",
            ),
            ParameterSpec::choice(
                "weighting",
                "uniform",
                &["uniform", "inverse_distance"],
                "neighbour votes: instance weight, or times 1/(d + 0.001) (Weka IBk -I)",
            )
            .tuned(TuneSpace::Words(&["uniform", "inverse_distance"])),
            ParameterSpec::real(
                "validation_fraction",
                0.25,
                0.01,
                0.9,
                "share of training rows held out to choose k when the protocol gives no validation set",
            ),
            ParameterSpec::choice(
                "search",
                "auto",
                &["auto", "linear", "kd_tree"],
                "neighbour search (results never depend on it)",
            ),
            ParameterSpec::boolean(
                "weka_smoothing",
                false,
                "start every class at 1/n before the votes, giving Weka IBk's probabilities",
            ),
        ],
        capabilities: Capabilities::ALL,
        build,
    }
}

/// The k-NN learner (`kind = "knn"`).
#[derive(Clone, Debug)]
pub struct KnnLearner {
    config: KnnConfig,
}

/// Largest k accepted in parameters.
const MAX_K: usize = 100_000;

impl KnnLearner {
    /// A learner with the given configuration (candidates are sorted and deduplicated).
    pub fn new(mut config: KnnConfig) -> Self {
        config.candidates.sort_unstable();
        config.candidates.dedup();
        if config.candidates.is_empty() {
            config.candidates.push(config.k);
        }
        config.k = config.k.max(1);
        KnnLearner { config }
    }

    /// Reads `k`, `candidates`, `select_k`, `weighting`, `validation_fraction`, `search` and
    /// `weka_smoothing` from checked config parameters.
    pub fn from_params(params: Params) -> Result<Self, ParamError> {
        let k = params.integer("k")?;
        let candidates = params.integer_list("candidates")?;
        let select_k = params.boolean("select_k")?;
        let weighting = match params.choice("weighting")? {
            "inverse_distance" => Weighting::InverseDistance,
            _ => Weighting::Uniform,
        };
        let validation_fraction = params.real("validation_fraction")?;
        let search = match params.choice("search")? {
            "linear" => SearchMethod::Linear,
            "kd_tree" => SearchMethod::KdTree,
            _ => SearchMethod::Auto,
        };
        let weka_smoothing = params.boolean("weka_smoothing")?;
        Ok(KnnLearner::new(KnnConfig {
            k,
            candidates,
            select_k,
            weighting,
            validation_fraction,
            search,
            weka_smoothing,
        }))
    }

    /// The configuration in use.
    pub fn config(&self) -> &KnnConfig {
        &self.config
    }

    /// Fits the concrete k-NN model (see [`Learner::fit_with_validation`]).
    pub fn fit_knn(
        &self,
        train: &View,
        validation: Option<&View>,
        seed: u64,
    ) -> Result<KnnModel, LearnerError> {
        self.fit_knn_sharing(train, validation, seed, None)
    }

    /// [`KnnLearner::fit_knn`] with the dataset's neighbour lists, where they serve: the same
    /// model, the same predictions to the bit.
    pub fn fit_knn_sharing(
        &self,
        train: &View,
        validation: Option<&View>,
        seed: u64,
        lists: Option<&Arc<NeighbourLists>>,
    ) -> Result<KnnModel, LearnerError> {
        let positions: Vec<usize> = (0..train.len())
            .filter(|&position| train.weight(position) > 0.0)
            .collect();
        if positions.is_empty() {
            return Err(LearnerError::Data {
                learner: "knn".into(),
                message: "no training rows with positive weight".into(),
            });
        }
        let config = &self.config;
        let (index, shared) = fit_search(train, &positions, config.search, lists);
        let (k, selection) = if !config.select_k {
            (config.k, KSelection::Fixed)
        } else {
            let validation_positions = validation.map(|view| {
                (0..view.len())
                    .filter(|&position| view.weight(position) > 0.0)
                    .collect::<Vec<_>>()
            });
            match (validation, validation_positions) {
                (Some(view), Some(validation_positions)) if !validation_positions.is_empty() => {
                    let errors = self.score_candidates(
                        (&index, shared.as_ref()),
                        train,
                        &positions,
                        view,
                        &validation_positions,
                    );
                    let k = best_candidate(&config.candidates, &errors);
                    (
                        k,
                        KSelection::ProtocolValidation {
                            rows: validation_positions.len(),
                            errors,
                        },
                    )
                }
                _ => {
                    let (inner_train, inner_validation) =
                        stratified_split(train, &positions, config.validation_fraction, seed);
                    if inner_train.is_empty() || inner_validation.is_empty() {
                        (config.k, KSelection::TooFewRows)
                    } else {
                        let (inner_index, inner_shared) =
                            fit_search(train, &inner_train, config.search, lists);
                        let errors = self.score_candidates(
                            (&inner_index, inner_shared.as_ref()),
                            train,
                            &inner_train,
                            train,
                            &inner_validation,
                        );
                        let k = best_candidate(&config.candidates, &errors);
                        (
                            k,
                            KSelection::InnerSplit {
                                rows: inner_validation.len(),
                                errors,
                            },
                        )
                    }
                }
            }
        };
        Ok(KnnModel {
            index,
            shared,
            classes: positions.iter().map(|&p| train.class(p) as u32).collect(),
            weights: positions.iter().map(|&p| train.weight(p)).collect(),
            num_classes: train.num_classes(),
            k,
            candidates: config.candidates.clone(),
            weighting: config.weighting,
            weka_smoothing: config.weka_smoothing,
            selection,
        })
    }

    /// Weighted validation error of every candidate k, from one search for the largest.
    fn score_candidates(
        &self,
        (index, shared): (&LazyIndex, Option<&SharedSearch>),
        train: &View,
        train_positions: &[usize],
        validation: &View,
        validation_positions: &[usize],
    ) -> Vec<f64> {
        let candidates = &self.config.candidates;
        let largest = *candidates.last().expect("candidates are never empty");
        let classes: Vec<u32> = train_positions
            .iter()
            .map(|&p| train.class(p) as u32)
            .collect();
        let weights: Vec<f64> = train_positions.iter().map(|&p| train.weight(p)).collect();
        let num_classes = train.num_classes();
        let mut wrong = vec![0.0; candidates.len()];
        let mut total = 0.0;
        let queries = index.scaling().scale_view(validation, validation_positions);
        let rows: Vec<usize> = validation_positions
            .iter()
            .map(|&position| validation.rows()[position])
            .collect();
        let found = search(index, shared, (&queries, &rows), largest);
        let mut votes = vec![0.0; num_classes];
        for (&position, neighbours) in validation_positions.iter().zip(&found) {
            let truth = validation.class(position);
            let weight = validation.weight(position);
            total += weight;
            votes.iter_mut().for_each(|v| *v = 0.0);
            let mut used = 0;
            for (candidate, &k) in candidates.iter().enumerate() {
                // The first k plus those tied with the k-th (the search for the largest
                // candidate returned every row tied with its own k-th distance).
                let end = tied_end(neighbours, k);
                while used < end {
                    let neighbour = neighbours[used];
                    votes[classes[neighbour.slot as usize] as usize] += vote_weight(
                        self.config.weighting,
                        neighbour,
                        weights[neighbour.slot as usize],
                        index.dimensions(),
                    );
                    used += 1;
                }
                if argmax(&votes) != truth {
                    wrong[candidate] += weight;
                }
            }
        }
        wrong.iter().map(|w| w / total).collect()
    }
}

/// The candidate with the lowest error (the smallest such k on ties).
fn best_candidate(candidates: &[usize], errors: &[f64]) -> usize {
    let mut best = 0;
    for (candidate, &error) in errors.iter().enumerate() {
        if error < errors[best] {
            best = candidate;
        }
    }
    candidates[best]
}

fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (class, &value) in values.iter().enumerate() {
        if value > values[best] {
            best = class;
        }
    }
    best
}

#[inline]
fn vote_weight(
    weighting: Weighting,
    neighbour: Neighbour,
    instance_weight: f64,
    dimensions: usize,
) -> f64 {
    match weighting {
        Weighting::Uniform => instance_weight,
        Weighting::InverseDistance => {
            let distance = if dimensions == 0 {
                0.0
            } else {
                (neighbour.squared_distance / dimensions as f64).sqrt()
            };
            instance_weight / (distance + 0.001)
        }
    }
}

fn scale_row(scaling: &Scaling, value: impl Fn(usize) -> f64, out: &mut [f64]) {
    for (attribute, slot) in out.iter_mut().enumerate() {
        *slot = scaling.scale(attribute, value(attribute));
    }
}

/// The scaling fitted on the rows `positions` of `train`, and those rows scaled (row-major).
fn scaled_training(train: &View, positions: &[usize]) -> (Scaling, Vec<f64>) {
    let scaling = Scaling::fit(train, positions);
    let rows = scaling.scale_view(train, positions);
    (scaling, rows)
}

/// The index of the rows `positions` of `train`: without lists built at once; with them, its
/// points alone (the search structure built when a search needs it; the points remembered by
/// the lists when these rows come again), with the lists' search when they serve it.
fn fit_search(
    train: &View,
    positions: &[usize],
    method: SearchMethod,
    lists: Option<&Arc<NeighbourLists>>,
) -> (LazyIndex, Option<SharedSearch>) {
    let Some(lists) = lists else {
        let (scaling, rows) = scaled_training(train, positions);
        let index = NeighbourIndex::new(scaling, rows, positions.len(), method);
        return (LazyIndex::AtOnce(index), None);
    };
    let rows: Arc<[u32]> = positions.iter().map(|&p| train.rows()[p] as u32).collect();
    let fitted = lists.fitted_search((rows, train.dataset_len()), method, || {
        let (scaling, rows) = scaled_training(train, positions);
        NeighbourIndex::points_only(scaling, rows, positions.len())
    });
    let shared = SharedSearch::new(lists, &fitted);
    (LazyIndex::later(Arc::clone(&fitted.points), method), shared)
}

/// Splits positions into (inner training, inner validation), stratified by class, with a
/// seeded shuffle; every class keeps at least one training row. Both lists are in view order.
fn stratified_split(
    train: &View,
    positions: &[usize],
    fraction: f64,
    seed: u64,
) -> (Vec<usize>, Vec<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seeds::derive_seed(seed, &[0x6b6e_6e5f_7370_6c74]));
    let mut by_class = vec![Vec::new(); train.num_classes()];
    for &position in positions {
        by_class[train.class(position)].push(position);
    }
    let mut inner_train = Vec::new();
    let mut inner_validation = Vec::new();
    for mut members in by_class {
        if members.is_empty() {
            continue;
        }
        members.shuffle(&mut rng);
        let held_out = ((members.len() as f64 * fraction).round() as usize).min(members.len() - 1);
        inner_validation.extend_from_slice(&members[..held_out]);
        inner_train.extend_from_slice(&members[held_out..]);
    }
    inner_train.sort_unstable();
    inner_validation.sort_unstable();
    (inner_train, inner_validation)
}

impl Learner for KnnLearner {
    /// The cost hint of k-NN: about 50 times naive Bayes per row and attribute (distances to every training row).
    fn cost_hint(&self) -> f64 {
        50.0
    }

    fn name(&self) -> &str {
        "knn"
    }

    fn revision(&self) -> String {
        revision_text("knn", REVISION)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    fn describe(&self) -> String {
        let c = &self.config;
        format!(
            "knn(k={}, candidates={:?}, select_k={}, weighting={}, validation_fraction={}, search={}{})",
            c.k,
            c.candidates,
            c.select_k,
            c.weighting.as_str(),
            c.validation_fraction,
            c.search.as_str(),
            if c.weka_smoothing {
                ", weka_smoothing=true"
            } else {
                ""
            }
        )
    }

    fn fit(&self, train: &View, seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        self.fit_with_validation(train, None, seed)
    }

    /// Every k-NN of a dataset shares its neighbour lists, whatever its parameters.
    fn shared_key(&self) -> Option<String> {
        Some(format!("knn neighbour lists r{REVISION}"))
    }

    /// The dataset's neighbour lists, when they fit in `budget` and the units predict enough
    /// rows for them to pay (see [`shared::PAYING_PREDICTIONS_PER_ROW`]); with a reserve for
    /// what they remember when the budget holds it too (`memory.rs`), else remembering nothing.
    fn build_shared(
        &self,
        dataset: &data::Dataset,
        hint: ShareHint,
        budget: usize,
    ) -> Option<SharedState> {
        let bytes = NeighbourLists::bytes(dataset.len());
        let pays = hint.predicted_rows
            >= dataset
                .len()
                .saturating_mul(shared::PAYING_PREDICTIONS_PER_ROW);
        if bytes > budget || !pays {
            return None;
        }
        // Room for the walks and fitted searches the lists remember, when the budget has it.
        let reserve = memory::reserve_bytes(dataset.len(), dataset.schema().num_attributes());
        let reserve = if bytes.saturating_add(reserve) <= budget {
            reserve
        } else {
            0
        };
        let lists = NeighbourLists::build(dataset, reserve)?;
        Some(SharedState {
            state: Arc::new(lists),
            bytes: bytes + reserve,
        })
    }

    fn fit_shared(
        &self,
        train: &View,
        validation: Option<&View>,
        seed: u64,
        shared: &SharedState,
    ) -> Result<Box<dyn Model>, LearnerError> {
        let lists = Arc::clone(&shared.state).downcast::<NeighbourLists>().ok();
        Ok(Box::new(self.fit_knn_sharing(
            train,
            validation,
            seed,
            lists.as_ref(),
        )?))
    }

    /// False: a row of weight 2 is one neighbour with a double vote, while a duplicated row
    /// counts twice towards the k neighbour places (and the inner split for k selection differs).
    fn exact_weights(&self) -> bool {
        false
    }

    fn fit_with_validation(
        &self,
        train: &View,
        validation: Option<&View>,
        seed: u64,
    ) -> Result<Box<dyn Model>, LearnerError> {
        Ok(Box::new(self.fit_knn(train, validation, seed)?))
    }
}

/// Where k came from.
#[derive(Clone, Debug, PartialEq)]
pub enum KSelection {
    /// `select_k = false`: the configured k.
    Fixed,
    /// Chosen on the validation set the protocol supplied (`rows` rows; one error per candidate).
    ProtocolValidation {
        /// Validation rows of positive weight.
        rows: usize,
        /// Weighted validation error of each candidate k.
        errors: Vec<f64>,
    },
    /// Chosen on a stratified inner split of the training data (`rows` held out).
    InnerSplit {
        /// Training rows held out.
        rows: usize,
        /// Weighted error of each candidate k on the held-out rows.
        errors: Vec<f64>,
    },
    /// Selection was asked for but the training data was too small to hold rows out.
    TooFewRows,
}

/// The k nearest indexed rows (plus ties) of scaled queries that are the dataset rows `rows`:
/// from the dataset's neighbour lists when the unit has them, else by the index's own search.
fn search(
    index: &LazyIndex,
    shared: Option<&SharedSearch>,
    (queries, rows): (&[f64], &[usize]),
    k: usize,
) -> Vec<Vec<Neighbour>> {
    match shared {
        Some(shared) => shared.nearest_many(index, (queries, rows), k),
        None => index.full().nearest_many(queries, rows.len(), k),
    }
}

/// A fitted k-NN model: the scaled training rows, their search structure and the chosen k.
pub struct KnnModel {
    index: LazyIndex,
    /// The dataset's neighbour lists as this model's training rows see them, when shared.
    shared: Option<SharedSearch>,
    classes: Vec<u32>,
    weights: Vec<f64>,
    num_classes: usize,
    k: usize,
    candidates: Vec<usize>,
    weighting: Weighting,
    weka_smoothing: bool,
    selection: KSelection,
}

impl KnnModel {
    /// The k used for prediction.
    pub fn k(&self) -> usize {
        self.k
    }

    /// How k was chosen, with the validation errors of the candidates.
    pub fn selection(&self) -> &KSelection {
        &self.selection
    }

    /// True when a k-d tree serves complete queries (false: linear scan).
    pub fn uses_kd_tree(&self) -> bool {
        self.index.full().uses_tree()
    }

    /// The search used for complete queries: "k-d tree" or "linear scan".
    pub fn search_description(&self) -> &'static str {
        self.index.full().description()
    }

    /// The neighbours that vote for each row of `test`: the k nearest plus the rows tied with
    /// the k-th, found as [`Model::predict_proba`] finds them (with the dataset's lists when
    /// the model has them).
    fn voting(&self, test: &Features) -> Vec<Vec<Neighbour>> {
        let queries = self.index.scaling().scale_features(test);
        let found = (&queries[..], test.rows());
        search(&self.index, self.shared.as_ref(), found, self.k)
    }

    /// The slots and squared distances of the neighbours that vote for each row of `test`
    /// ([`KnnModel::neighbours`] at the model's k, found as predictions find them): for checks.
    pub fn voters(&self, test: &Features) -> Vec<Vec<(usize, f64)>> {
        let found = self.voting(test).into_iter();
        found
            .map(|list| {
                let pairs = list.iter().map(|n| (n.slot as usize, n.squared_distance));
                pairs.collect()
            })
            .collect()
    }

    /// The slots (positions among the training view's positive-weight rows, in view order) of the `k`
    /// nearest neighbours of each test row and of every further row tied with the k-th, with their
    /// squared scaled distances, nearest first (ties by slot): for checks.
    pub fn neighbours(&self, test: &data::Features, k: usize) -> Vec<Vec<(usize, f64)>> {
        let mut query = vec![0.0; self.index.dimensions()];
        let mut found = Vec::new();
        (0..test.len())
            .map(|position| {
                scale_row(
                    self.index.scaling(),
                    |a| test.value(position, a),
                    &mut query,
                );
                self.index.full().nearest(&query, k, &mut found);
                found
                    .iter()
                    .map(|n| (n.slot as usize, n.squared_distance))
                    .collect()
            })
            .collect()
    }
}

impl Model for KnnModel {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let mut probabilities = Probabilities::zeros(test.len(), self.num_classes);
        let found = self.voting(test);
        let prior = if self.weka_smoothing {
            1.0 / self.classes.len() as f64
        } else {
            0.0
        };
        for (position, neighbours) in found.iter().enumerate() {
            let row = probabilities.row_mut(position);
            row.iter_mut().for_each(|v| *v = prior);
            for &neighbour in neighbours {
                row[self.classes[neighbour.slot as usize] as usize] += vote_weight(
                    self.weighting,
                    neighbour,
                    self.weights[neighbour.slot as usize],
                    self.index.dimensions(),
                );
            }
            let total: f64 = row.iter().sum();
            if total > 0.0 && total.is_finite() {
                row.iter_mut().for_each(|v| *v /= total);
            } else {
                row.iter_mut()
                    .for_each(|v| *v = 1.0 / self.num_classes as f64);
            }
        }
        Ok(probabilities)
    }

    fn explain(&self, schema: &Schema) -> String {
        let errors_text = |errors: &[f64]| {
            self.candidates
                .iter()
                .zip(errors)
                .map(|(k, e)| format!("k={k}: {e:.4}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let how = match &self.selection {
            KSelection::Fixed => "fixed by configuration".to_string(),
            KSelection::ProtocolValidation { rows, errors } => format!(
                "chosen from {:?} by error on the protocol's validation set ({rows} rows): {}",
                self.candidates,
                errors_text(errors)
            ),
            KSelection::InnerSplit { rows, errors } => format!(
                "chosen from {:?} by error on an inner stratified split of the training data ({rows} rows held out): {}",
                self.candidates,
                errors_text(errors)
            ),
            KSelection::TooFewRows => {
                "the configured k: too few training rows to hold out a validation split"
                    .to_string()
            }
        };
        format!(
            "k-NN with k = {} ({how}); {} voting; {} training rows; {}; search: {}",
            self.k,
            self.weighting.as_str().replace('_', " "),
            self.classes.len(),
            distance::describe(schema),
            self.index.full().description()
        )
    }
}

/// Builds a [`KnnLearner`] from config parameters (the registry entry).
pub fn build(params: Params) -> Result<Box<dyn Learner>, ParamError> {
    Ok(Box::new(KnnLearner::from_params(params)?))
}
