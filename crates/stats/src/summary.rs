//! Small descriptive helpers shared by the tests (mean, sample variance, midranks).

/// Arithmetic mean (sum / n); NaN for an empty slice.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// Sample variance with ddof = 1, computed in two passes; NaN for fewer than 2 values.
pub fn sample_variance(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return f64::NAN;
    }
    let center = mean(values);
    values
        .iter()
        .map(|v| (v - center) * (v - center))
        .sum::<f64>()
        / (values.len() - 1) as f64
}

/// Midranks in ascending order: the smallest value gets rank 1, tied values share the
/// average of their ranks. O(n log n). Values must not be NaN (NaN sorts last).
pub fn midranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end (0-based) hold ranks start+1..=end; their mean:
        let average = (start + 1 + end) as f64 / 2.0;
        for &index in &order[start..end] {
            ranks[index] = average;
        }
        start = end;
    }
    ranks
}

/// Sizes of the groups of equal values (only groups of size > 1 matter for tie terms).
pub(crate) fn tie_group_sizes(values: &[f64]) -> Vec<usize> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut sizes = Vec::new();
    let mut start = 0;
    while start < sorted.len() {
        let mut end = start + 1;
        while end < sorted.len() && sorted[end] == sorted[start] {
            end += 1;
        }
        sizes.push(end - start);
        start = end;
    }
    sizes
}
