//! The covered rows of one numeric attribute in sorted order, each with its value beside it, and
//! the runs of equal values a split search walks. Keeping the values in the list makes the scan
//! read memory in order: looking each row's value up in the attribute's column was a cache miss
//! per row, half of RIPPER's time.

/// A row's weight and its weight if it is a positive (of the class of the rule being grown),
/// else 0.
pub(crate) type RowWeight = [f64; 2];

/// The covered rows holding one value of an attribute: (value, cover, positive cover).
pub(crate) type Group = (f64, f64, f64);

/// A split of the covered rows at a value: (value, the [`RowWeight`] sums of the rows at most
/// the value, those of the rows at least the value).
pub(crate) type Split = (f64, RowWeight, RowWeight);

/// A run of equal values of a sorted list with every weight 1: its value, its rows' positions
/// `start..end` in the list, the positives before it and the positives in it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Run {
    value: f64,
    start: u32,
    end: u32,
    before: u32,
    accurate: u32,
}

/// The covered rows of one numeric attribute in sorted order with their values. The buffers
/// are sized for every training row once, so that growing rules allocates nothing per step.
pub(crate) struct SortedCover {
    rows: Vec<u32>,
    values: Vec<f64>,
    len: usize,
}

impl SortedCover {
    /// An empty list with room for `capacity` rows.
    pub fn new(capacity: usize) -> Self {
        SortedCover {
            rows: vec![0; capacity],
            values: vec![0.0; capacity],
            len: 0,
        }
    }

    /// The rows, in sorted order.
    pub fn rows(&self) -> &[u32] {
        &self.rows[..self.len]
    }

    /// Replaces the list by the rows of a sorted list (`rows`, with their `values`) marked in
    /// `member`, in order.
    pub fn fill(&mut self, rows: &[u32], values: &[f64], member: &[bool]) {
        // Branch-free: write every row, advance only past the marked ones.
        let mut kept = 0;
        let (out_rows, out_values) = (&mut self.rows[..rows.len()], &mut self.values[..rows.len()]);
        for (&row, &value) in rows.iter().zip(values) {
            out_rows[kept] = row;
            out_values[kept] = value;
            kept += usize::from(member[row as usize]);
        }
        self.len = kept;
    }

    /// Keeps, in order, the rows marked in `member` (as `fill` does, in place).
    pub fn keep_marked(&mut self, member: &[bool]) {
        let mut kept = 0;
        let (rows, values) = (&mut self.rows[..self.len], &mut self.values[..self.len]);
        for index in 0..rows.len() {
            let (row, value) = (rows[index], values[index]);
            rows[kept] = row;
            values[kept] = value;
            kept += usize::from(member[row as usize]);
        }
        self.len = kept;
    }

    /// With every weight 1 (`positive`: whether each row is a positive), the runs of equal
    /// values of the list that hold a positive, into the front of `out` (at least as long as the
    /// list); returns their number. The others are written over without a branch: a run
    /// without a positive splits no better than its neighbours (see `rules::best_split`).
    pub fn positive_runs(&self, positive: &[bool], out: &mut [Run]) -> usize {
        let (rows, values) = (self.rows(), &self.values[..self.len]);
        let Some(&first) = values.first() else {
            return 0;
        };
        let mut run = Run {
            value: first,
            ..Run::default()
        };
        let mut kept = 0;
        for ((&row, &value), index) in rows.iter().zip(values).zip(0..) {
            if value != run.value {
                kept = keep_run(out, kept, Run { end: index, ..run });
                run = Run {
                    value,
                    start: index,
                    end: index,
                    before: run.before + run.accurate,
                    accurate: 0,
                };
            }
            run.accurate += u32::from(positive[row as usize]);
        }
        keep_run(
            out,
            kept,
            Run {
                end: self.len as u32,
                ..run
            },
        )
    }

    /// The runs of equal values of the list (`weight`: each row's [`RowWeight`]), as (value,
    /// cover, positive cover), the sums in list order. A run's value is its first row's.
    pub fn runs<'a>(
        &'a self,
        weight: impl Fn(u32) -> RowWeight + 'a,
    ) -> impl Iterator<Item = Group> + 'a {
        let (rows, values) = (self.rows(), &self.values[..self.len]);
        let mut start = 0;
        std::iter::from_fn(move || {
            let value = *values.get(start)?;
            let mut end = start;
            let mut cover = 0.0;
            let mut accurate = 0.0;
            while end < values.len() && values[end] == value {
                let [row_weight, positive_weight] = weight(rows[end]);
                cover += row_weight;
                accurate += positive_weight;
                end += 1;
            }
            start = end;
            Some((value, cover, accurate))
        })
    }
}

/// Writes a run at `out[kept]` and returns the number of runs kept: one more if it holds a
/// positive (else the next run writes over it).
fn keep_run(out: &mut [Run], kept: usize, run: Run) -> usize {
    out[kept] = run;
    kept + usize::from(run.accurate > 0)
}

/// The split at each of some groups in increasing order of value, given the groups' total
/// [`RowWeight`]: the sums of the groups up to it and from it, each summed group by group in
/// order.
pub(crate) fn splits(
    groups: impl Iterator<Item = Group>,
    totals: [f64; 2],
) -> impl Iterator<Item = Split> {
    let [mut second_cover, mut second_accurate] = totals;
    let (mut first_cover, mut first_accurate) = (0.0, 0.0);
    groups.map(move |(value, cover, accurate)| {
        first_cover += cover;
        first_accurate += accurate;
        let split = (
            value,
            [first_cover, first_accurate],
            [second_cover, second_accurate],
        );
        second_cover -= cover;
        second_accurate -= accurate;
        split
    })
}

/// The splits at some runs of a list of unit weights whose totals are `totals` (its length and
/// its positives): the sums [`splits`] gives them, whole numbers, so the same in any order.
pub(crate) fn run_splits(runs: &[Run], totals: [f64; 2]) -> impl Iterator<Item = Split> + '_ {
    runs.iter().map(move |run| {
        let first = [f64::from(run.end), f64::from(run.before + run.accurate)];
        let second = [
            totals[0] - f64::from(run.start),
            totals[1] - f64::from(run.before),
        ];
        (run.value, first, second)
    })
}

/// Total weight and total positive weight of some rows, summed in their order.
pub(crate) fn sum_weights(rows: &[u32], weight: impl Fn(u32) -> RowWeight) -> [f64; 2] {
    let mut totals = [0.0; 2];
    for &row in rows {
        let [row_weight, positive_weight] = weight(row);
        totals[0] += row_weight;
        totals[1] += positive_weight;
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_group_equal_values_of_the_marked_rows_in_order() {
        let rows = [4, 0, 2, 3, 1];
        let values = [-0.0, 0.0, 1.0, 1.0, 2.0];
        let member = [true, false, true, true, true];
        let mut list = SortedCover::new(rows.len());
        list.fill(&rows, &values, &member);
        assert_eq!(list.rows(), [4, 0, 2, 3]);
        let weight = |row: u32| {
            let w = 1.0 + f64::from(row);
            [w, if row.is_multiple_of(2) { w } else { 0.0 }]
        };
        let groups: Vec<Group> = list.runs(weight).collect();
        // -0.0 and 0.0 are one run (rows 4 and 0), its value the first row's.
        assert_eq!(groups, [(-0.0, 6.0, 6.0), (1.0, 7.0, 3.0)]);
        assert!(groups[0].0.is_sign_negative());
        assert_eq!(sum_weights(list.rows(), weight), [13.0, 9.0]);
        list.keep_marked(&[true, false, false, true, false]);
        assert_eq!(list.rows(), [0, 3]);
        let groups: Vec<Group> = list.runs(weight).collect();
        assert_eq!(groups, [(0.0, 1.0, 1.0), (1.0, 4.0, 0.0)]);
    }

    #[test]
    fn positive_runs_give_the_splits_of_unit_weights_at_runs_with_a_positive() {
        let rows = [5, 0, 2, 3, 1, 4, 6, 7];
        let values = [-1.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 3.0];
        let positive = [true, false, true, false, false, false, false, true];
        let mut list = SortedCover::new(rows.len());
        list.fill(&rows, &values, &[true; 8]);
        let weight = |row: u32| [1.0, f64::from(u8::from(positive[row as usize]))];
        let totals = sum_weights(list.rows(), weight);
        let every: Vec<Split> = splits(list.runs(weight), totals).collect();
        let mut out = vec![Run::default(); rows.len()];
        let count = list.positive_runs(&positive, &mut out);
        let kept: Vec<Split> = run_splits(&out[..count], totals).collect();
        // The runs of -1.0 (row 5), 1.0 (rows 3, 1) and 2.0 (row 4) hold no positive.
        assert_eq!(kept, [every[1], every[4]]);
        assert_eq!(kept[0], (0.0, [3.0, 2.0], [7.0, 3.0]));
    }
}
