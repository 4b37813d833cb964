//! The two stratification procedures shared by all strategies.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::Rng;

/// Tolerance added before rounding down a class's test quota, so that a fraction written as a
/// rounded decimal (1/3 as 0.3333333333333333) still gives exactly a third of 30, 300, ...
const QUOTA_TOLERANCE: f64 = 1e-9;

/// The instance indices of each class present, in increasing class index; each list ascending.
/// `classes` holds at most [`crate::MAX_INSTANCES`] rows (callers check).
fn indices_by_class(classes: &[u32]) -> Vec<Vec<u32>> {
    let mut groups: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    // The slice leads the zip, so the counter never steps past the last row.
    for (&class, index) in classes.iter().zip(0..) {
        groups.entry(class).or_default().push(index);
    }
    groups.into_values().collect()
}

/// Assigns the instances `0..classes.len()` to `folds` stratified folds and returns each fold's
/// indices in ascending order.
///
/// Procedure: group the indices by class (classes in increasing class index, indices
/// ascending); shuffle each group with `rng` (`SliceRandom::shuffle`, one generator continuing across
/// classes); deal the shuffled indices round-robin into the folds, the fold counter carrying
/// over from one class to the next. Each fold then holds `floor(n_c / folds)` or
/// `ceil(n_c / folds)` instances of class `c`, and fold sizes differ by at most one. With
/// fewer instances than folds some folds are empty; callers check that first. `folds` must be
/// at least 1 (0 is treated as 1). `classes` holds at most [`crate::MAX_INSTANCES`] rows
/// ([`crate::Strategy::splits`] checks that first).
pub fn stratified_folds<R: Rng + ?Sized>(
    classes: &[u32],
    folds: usize,
    rng: &mut R,
) -> Vec<Vec<u32>> {
    fold_lists(&stratified_fold_assignment(classes, folds, rng), folds)
}

/// The rows of each of `folds` folds (at least 1), ascending, from every row's fold number.
pub(crate) fn fold_lists(fold_of: &[u32], folds: usize) -> Vec<Vec<u32>> {
    let mut lists = vec![Vec::with_capacity(fold_of.len() / folds.max(1) + 1); folds.max(1)];
    // Scanning the rows in order leaves every fold's list ascending without sorting.
    for (&fold, index) in fold_of.iter().zip(0..) {
        lists[fold as usize].push(index);
    }
    lists
}

/// The fold of every instance under the procedure of [`stratified_folds`] (same `rng` use, so
/// `stratified_folds` lists exactly the instances with each fold number here). The fold
/// numbers are below `min(folds, classes.len())`, so they fit in `u32`.
pub fn stratified_fold_assignment<R: Rng + ?Sized>(
    classes: &[u32],
    folds: usize,
    rng: &mut R,
) -> Vec<u32> {
    // More folds than rows leave the extra folds empty: dealing never reaches them.
    let folds = folds.clamp(1, classes.len().max(1)) as u32;
    let mut fold_of = vec![0; classes.len()];
    let mut next_fold = 0;
    for mut group in indices_by_class(classes) {
        group.shuffle(rng);
        for index in group {
            fold_of[index as usize] = next_fold;
            next_fold = (next_fold + 1) % folds;
        }
    }
    fold_of
}

/// Splits the instances `0..classes.len()` into a stratified (train, test) pair, each in
/// ascending order, with `test_fraction` of the instances in the test part.
///
/// Procedure: the test set has `round(n * test_fraction)` instances. Each class `c` gets
/// `floor(n_c * test_fraction)` of them (with a 1e-9 tolerance), and the instances still
/// missing go one each to the classes with the largest remainders `n_c * test_fraction -
/// floor(...)`, ties to the lower class index (largest-remainder allocation). Each class's
/// indices are shuffled with `rng` (classes in increasing class index) and the first ones of
/// the shuffled list form its test part. So every class has `floor` or `ceil` of its exact
/// share in the test set. `test_fraction` is expected in (0, 1); `classes` holds at most
/// [`crate::MAX_INSTANCES`] rows.
pub fn stratified_holdout<R: Rng + ?Sized>(
    classes: &[u32],
    test_fraction: f64,
    rng: &mut R,
) -> (Vec<u32>, Vec<u32>) {
    let groups = indices_by_class(classes);
    let total = (classes.len() as f64 * test_fraction).round() as usize;
    let quotas: Vec<f64> = groups
        .iter()
        .map(|group| group.len() as f64 * test_fraction)
        .collect();
    let mut counts: Vec<usize> = quotas
        .iter()
        .map(|quota| (quota + QUOTA_TOLERANCE).floor() as usize)
        .collect();
    let assigned: usize = counts.iter().sum();
    let mut by_remainder: Vec<usize> = (0..groups.len()).collect();
    // Stable sort: equal remainders keep increasing class order.
    by_remainder.sort_by(|&a, &b| {
        let remainder = |class: usize| quotas[class] - counts[class] as f64;
        remainder(b).total_cmp(&remainder(a))
    });
    for &class in by_remainder.iter().take(total.saturating_sub(assigned)) {
        counts[class] = (counts[class] + 1).min(groups[class].len());
    }
    let mut in_test = vec![false; classes.len()];
    for (mut group, count) in groups.into_iter().zip(counts) {
        group.shuffle(rng);
        for &index in &group[..count] {
            in_test[index as usize] = true;
        }
    }
    // Scanning the rows in order gives ascending lists without sorting.
    let test_size = total.min(classes.len());
    let mut test = Vec::with_capacity(test_size);
    let mut train = Vec::with_capacity(classes.len() - test_size);
    for (&chosen, index) in in_test.iter().zip(0..) {
        if chosen {
            test.push(index);
        } else {
            train.push(index);
        }
    }
    (train, test)
}
