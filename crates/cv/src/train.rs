//! A split's training rows: a list, or every row its other parts leave (how every strategy
//! makes them), which a plan then holds in no memory at all rather than 4 bytes a row per split
//! (at a million rows and ten folds, 36 MB; leave-one-out's `n` splits of `n - 1` rows, `4 n^2`
//! bytes).

/// A split's training rows (see the module documentation).
#[derive(Clone, Debug)]
pub enum Train {
    /// These rows, ascending.
    Listed(Vec<u32>),
    /// Every row below `instances` in neither the split's test part nor its validation part,
    /// ascending.
    Rest {
        /// The dataset's number of rows.
        instances: usize,
    },
}

/// The rows of a [`Train`], ascending (see [`crate::Split::train_rows`]).
pub struct TrainRows<'a> {
    inner: Inner<'a>,
}

enum Inner<'a> {
    Listed(std::iter::Copied<std::slice::Iter<'a, u32>>),
    Rest {
        next: u32,
        end: u32,
        /// A bit per row, set for the rows of the other parts.
        taken: Vec<u64>,
    },
}

impl<'a> TrainRows<'a> {
    /// The rows of `train`, whose split's other parts are `others`.
    pub(crate) fn new(train: &'a Train, others: [&[u32]; 2]) -> TrainRows<'a> {
        let inner = match train {
            Train::Listed(rows) => Inner::Listed(rows.iter().copied()),
            Train::Rest { instances } => {
                let mut taken = vec![0u64; instances.div_ceil(64)];
                for &row in others.iter().copied().flatten() {
                    if let Some(word) = taken.get_mut(row as usize / 64) {
                        *word |= 1 << (row % 64);
                    }
                }
                // A plan's rows are numbered by `u32` (`crate::MAX_INSTANCES`).
                let end = u32::try_from(*instances).unwrap_or(u32::MAX);
                Inner::Rest {
                    next: 0,
                    end,
                    taken,
                }
            }
        };
        TrainRows { inner }
    }
}

impl Iterator for TrainRows<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        match &mut self.inner {
            Inner::Listed(rows) => rows.next(),
            Inner::Rest { next, end, taken } => {
                while *next < *end {
                    let row = *next;
                    *next += 1;
                    if taken[row as usize / 64] & (1 << (row % 64)) == 0 {
                        return Some(row);
                    }
                }
                None
            }
        }
    }
}
