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
        /// The rows not yet given.
        left: usize,
    },
}

impl<'a> TrainRows<'a> {
    /// The rows of `train`, whose split's other parts are `others`.
    pub(crate) fn new(train: &'a Train, others: [&[u32]; 2]) -> TrainRows<'a> {
        let inner = match train {
            Train::Listed(rows) => Inner::Listed(rows.iter().copied()),
            Train::Rest { instances } => {
                // A plan's rows are numbered by `u32` (`crate::MAX_INSTANCES`).
                let end = u32::try_from(*instances).unwrap_or(u32::MAX);
                let mut taken = vec![0u64; (end as usize).div_ceil(64)];
                for &row in others.iter().copied().flatten().filter(|&&row| row < end) {
                    taken[row as usize / 64] |= 1 << (row % 64);
                }
                let set: usize = taken.iter().map(|word| word.count_ones() as usize).sum();
                Inner::Rest {
                    next: 0,
                    end,
                    taken,
                    left: end as usize - set,
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
            Inner::Rest {
                next,
                end,
                taken,
                left,
            } => {
                while *next < *end {
                    let row = *next;
                    *next += 1;
                    if taken[row as usize / 64] & (1 << (row % 64)) == 0 {
                        *left -= 1;
                        return Some(row);
                    }
                }
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = match &self.inner {
            Inner::Listed(rows) => rows.len(),
            Inner::Rest { left, .. } => *left,
        };
        (left, Some(left))
    }
}

/// The number of rows is known from the start (a count of the other parts' bits for the rest).
impl ExactSizeIterator for TrainRows<'_> {}
