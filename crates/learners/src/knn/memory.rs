//! What a dataset's neighbour lists remember for the units that come back to the same rows (the
//! candidates of one inner fold in tuning, each its own unit): the search fitted on some
//! training rows (their scaled points and the slot of every dataset row), and the walk of some
//! query rows among them at the lists' largest k, from which a unit with a smaller k takes the
//! first k neighbours plus the rows tied with the k-th: what its own walk finds, to the bit.
//!
//! A key is remembered only on its second use (under Aslan's protocol, where every pair of
//! training and test rows comes once, nothing is), and only within a reserve that the lists
//! count with their own bytes against the engine's budget (the oldest things go first to make
//! room; what does not fit in the reserve is not remembered). Nothing remembered refers to the
//! lists, so it all goes with them.

use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex};

use super::search::{tied_end, Neighbour, NeighbourIndex, SearchMethod};

/// Neighbours per query row that the reserve allows for one walk of every row of the dataset
/// (the lists' largest k, 21, plus some ties).
const WALK_NEIGHBOURS: usize = 24;

/// Fitted searches of every row of the dataset that the reserve allows.
const SEARCHES: usize = 2;

/// Keys seen once that are kept (to know a second use).
const SEEN: usize = 64;

/// The bytes to reserve for the things remembered of a dataset of `rows` rows and `attributes`
/// attributes: one walk of every row at [`WALK_NEIGHBOURS`] neighbours and [`SEARCHES`]
/// fitted searches of every row.
pub(crate) fn reserve_bytes(rows: usize, attributes: usize) -> usize {
    let walk = WALK_NEIGHBOURS * size_of::<Neighbour>() + 2 * size_of::<u32>();
    let search = attributes * size_of::<f64>() + 3 * size_of::<u32>();
    rows.saturating_mul(walk + SEARCHES * search)
}

/// The search fitted on some training rows: their points (the search structure built by each
/// model that needs it) and where each dataset row sits among them.
pub(crate) struct FittedSearch {
    /// The dataset row of every slot.
    pub rows: Arc<[u32]>,
    /// The search method its models build.
    pub method: SearchMethod,
    /// The points-only index ([`NeighbourIndex::points_only`]).
    pub points: Arc<NeighbourIndex>,
    /// The slot of each dataset row (`u32::MAX`: not a training row); none when the lists
    /// cannot serve these rows.
    pub slot_of_row: Option<Vec<u32>>,
}

impl FittedSearch {
    /// Its size in bytes.
    fn bytes(&self) -> usize {
        let points = self.rows.len() * (self.points.dimensions() * size_of::<f64>() + 4);
        let slots = self.slot_of_row.as_ref().map_or(0, Vec::len);
        points + (self.rows.len() + slots) * size_of::<u32>()
    }
}

/// The neighbours of some query rows among some training rows, found for the lists' largest k.
struct Walk {
    /// The dataset rows of the training slots.
    training: Arc<[u32]>,
    /// The dataset rows of the queries.
    queries: Vec<u32>,
    /// Every query's neighbours, one list after another.
    neighbours: Vec<Neighbour>,
    /// Where each query's list ends in `neighbours`.
    ends: Vec<u32>,
}

impl Walk {
    /// Its size in bytes.
    fn bytes(&self) -> usize {
        let rows = self.training.len() + self.queries.len() + self.ends.len();
        self.neighbours.len() * size_of::<Neighbour>() + rows * size_of::<u32>()
    }

    /// The walk that found `found` for `queries` among `training`, unless it would take more
    /// than `reserve` bytes.
    fn of(
        training: &Arc<[u32]>,
        queries: &[usize],
        found: &[Vec<Neighbour>],
        reserve: usize,
    ) -> Option<Walk> {
        let total: usize = found.iter().map(Vec::len).sum();
        let rows = training.len() + 2 * queries.len();
        let bytes = total * size_of::<Neighbour>() + rows * size_of::<u32>();
        if bytes > reserve || u32::try_from(total).is_err() {
            return None;
        }
        let mut ends = Vec::with_capacity(found.len());
        let mut neighbours = Vec::with_capacity(total);
        for list in found {
            neighbours.extend_from_slice(list);
            ends.push(neighbours.len() as u32);
        }
        Some(Walk {
            training: Arc::clone(training),
            queries: queries.iter().map(|&row| row as u32).collect(),
            neighbours,
            ends,
        })
    }

    /// Whether it walked `queries` among `training`.
    fn is_of(&self, training: &Arc<[u32]>, queries: &[usize]) -> bool {
        (Arc::ptr_eq(&self.training, training) || self.training == *training)
            && self.queries.len() == queries.len()
            && self
                .queries
                .iter()
                .zip(queries)
                .all(|(&a, &b)| a as usize == b)
    }

    /// Every query's first `k` neighbours plus those tied with the k-th.
    fn take(&self, k: usize) -> Vec<Vec<Neighbour>> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let list = &self.neighbours[start..end as usize];
                start = end as usize;
                list[..tied_end(list, k)].to_vec()
            })
            .collect()
    }
}

/// A thing remembered.
enum Remembered {
    Search(Arc<FittedSearch>),
    Walk(Arc<Walk>),
}

impl Remembered {
    fn bytes(&self) -> usize {
        match self {
            Remembered::Search(search) => search.bytes(),
            Remembered::Walk(walk) => walk.bytes(),
        }
    }
}

/// The things remembered, oldest first, with their bytes, and the keys seen once.
#[derive(Default)]
struct Things {
    remembered: VecDeque<Remembered>,
    used: usize,
    seen: VecDeque<u64>,
}

impl Things {
    /// True when `key` was seen before; else it is marked seen.
    fn seen_again(&mut self, key: u64) -> bool {
        if self.seen.contains(&key) {
            return true;
        }
        if self.seen.len() == SEEN {
            self.seen.pop_front();
        }
        self.seen.push_back(key);
        false
    }

    /// Remembers `thing` if it fits in `reserve`, forgetting the oldest things to make room.
    fn remember(&mut self, thing: Remembered, reserve: usize) {
        let bytes = thing.bytes();
        if bytes > reserve {
            return;
        }
        while self.used + bytes > reserve {
            let Some(oldest) = self.remembered.pop_front() else {
                break;
            };
            self.used -= oldest.bytes();
        }
        self.used += bytes;
        self.remembered.push_back(thing);
    }
}

/// The lists' memory of fitted searches and walks, within its reserve of bytes.
pub(crate) struct Memory {
    reserve: usize,
    things: Mutex<Things>,
}

/// A hash of a key's parts.
fn key_of(parts: impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
}

impl Memory {
    /// A memory of at most `reserve` bytes (0: it remembers nothing).
    pub(crate) fn new(reserve: usize) -> Memory {
        Memory {
            reserve,
            things: Mutex::new(Things::default()),
        }
    }

    /// The bytes of the things remembered now.
    pub(crate) fn used(&self) -> usize {
        self.things.lock().unwrap_or_else(|e| e.into_inner()).used
    }

    /// The search fitted on the training rows `rows` for `method`: the one remembered, else
    /// `fit(rows)`, remembered when these rows and method come for the second time.
    pub(crate) fn search(
        &self,
        rows: Arc<[u32]>,
        method: SearchMethod,
        fit: impl FnOnce(Arc<[u32]>) -> FittedSearch,
    ) -> Arc<FittedSearch> {
        if self.reserve == 0 {
            return Arc::new(fit(rows));
        }
        let again = {
            let mut things = self.things.lock().unwrap_or_else(|e| e.into_inner());
            let found = things.remembered.iter().find_map(|thing| match thing {
                Remembered::Search(search) if search.method == method && search.rows == rows => {
                    Some(Arc::clone(search))
                }
                _ => None,
            });
            if let Some(search) = found {
                return search;
            }
            things.seen_again(key_of((&rows[..], method.as_str())))
        };
        let search = Arc::new(fit(rows));
        if again {
            let mut things = self.things.lock().unwrap_or_else(|e| e.into_inner());
            things.remember(Remembered::Search(Arc::clone(&search)), self.reserve);
        }
        search
    }

    /// The neighbours (the first `k` plus ties) of the dataset rows `queries` among the
    /// training rows `training`: taken from the walk remembered, else `walk(k)`; when the
    /// pair comes for the second time, `walk(largest)`, remembered, each list then cut to `k`.
    pub(crate) fn walk(
        &self,
        (training, queries): (&Arc<[u32]>, &[usize]),
        (k, largest): (usize, usize),
        walk: impl FnOnce(usize) -> Vec<Vec<Neighbour>>,
    ) -> Vec<Vec<Neighbour>> {
        let fits = queries.len() * (largest + 1) * size_of::<Neighbour>() <= self.reserve;
        if !fits || k > largest {
            return walk(k);
        }
        let again = {
            let mut things = self.things.lock().unwrap_or_else(|e| e.into_inner());
            let found = things.remembered.iter().find_map(|thing| match thing {
                Remembered::Walk(walked) if walked.is_of(training, queries) => {
                    Some(Arc::clone(walked))
                }
                _ => None,
            });
            if let Some(walked) = found {
                drop(things);
                return walked.take(k);
            }
            things.seen_again(key_of((&training[..], queries)))
        };
        if !again {
            return walk(k);
        }
        let mut found = walk(largest);
        if let Some(walked) = Walk::of(training, queries, &found, self.reserve) {
            let mut things = self.things.lock().unwrap_or_else(|e| e.into_inner());
            things.remember(Remembered::Walk(Arc::new(walked)), self.reserve);
        }
        for list in &mut found {
            list.truncate(tied_end(list, k));
        }
        found
    }
}
