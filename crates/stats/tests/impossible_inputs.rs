//! Inputs no data could have given, and counts too large to compute on, are refused with what
//! is allowed, at once (issue 28: before, `9,9,9` gave chi-square 1155 and "reject", counts
//! near 1e18 hung, and positives x negatives overflowed). Every value asserted is an input or
//! a documented bound.

use stats::{
    auc_intervals, binomial_summary, friedman_from_average_ranks, mcnemar_test, paired_t_test,
    ranks_summary, sign_summary, sign_test_critical_losses, SignAlternative, SignMethod,
    StatsError, Tails, MAX_CORTES_MOHRI_INSTANCES, MAX_EXACT_COUNT, MAX_RANKED_LEARNERS,
};

fn message(error: StatsError) -> String {
    error.to_string()
}

#[test]
fn average_ranks_outside_one_to_k_or_with_the_wrong_sum_are_impossible() {
    for (ranks, words) in [
        (vec![9.0, 9.0, 9.0], "outside 1..3"),
        (vec![0.5, 0.5], "outside 1..2"),
        (vec![-1.0, 4.0], "outside 1..2"),
        (vec![1.0, 1.0, 1.0], "sum to 3"),
        (vec![2.0, 2.0, 3.0], "k(k+1)/2 = 6"),
    ] {
        let error = friedman_from_average_ranks(&ranks, 10, 0.05).unwrap_err();
        assert!(matches!(error, StatsError::Impossible { .. }), "{error}");
        assert!(message(error).contains(words), "{ranks:?}");
        assert!(ranks_summary(&ranks, 10, 0.05).is_err());
    }
    // Demsar (2006), Section 3.2.4: published ranks rounded to three decimals are accepted.
    let demsar = [3.143, 2.000, 2.893, 1.964];
    assert!(friedman_from_average_ranks(&demsar, 14, 0.05).is_ok());
}

#[test]
fn too_many_learners_or_datasets_are_refused_at_once() {
    let k = MAX_RANKED_LEARNERS + 1;
    let ranks = vec![(k as f64 + 1.0) / 2.0; k];
    let error = ranks_summary(&ranks, 10, 0.05).unwrap_err();
    assert!(message(error).contains("at most 100"));
    let learners_20000 = vec![10_000.5; 20_000];
    assert!(ranks_summary(&learners_20000, 10, 0.05).is_err());
    let error = ranks_summary(&[1.0, 2.0], 1_000_000_000_000_000_000, 0.05).unwrap_err();
    assert!(message(error).contains("at most 1,000,000"));
}

#[test]
fn counts_beyond_the_exact_tests_range_are_refused_not_hung() {
    let huge = 1_000_000_000_000_000_000u64;
    let words = "at most 10,000,000";
    let error = mcnemar_test([[0, huge], [huge - 1, 0]], 0.05).unwrap_err();
    assert!(message(error).contains(words));
    let error = mcnemar_test([[0, u64::MAX], [u64::MAX, 0]], 0.05).unwrap_err();
    assert!(
        message(error).contains(words),
        "an overflowing sum is refused too"
    );
    let error = binomial_summary(huge / 2, huge, 0.05).unwrap_err();
    assert!(message(error).contains(words));
    let (two, exact) = (SignAlternative::TwoSided, SignMethod::Exact);
    let error = sign_summary(huge, huge - 1, 0, 0.05, two, exact).unwrap_err();
    assert!(message(error).contains(words));
    let error = sign_test_critical_losses(MAX_EXACT_COUNT + 1, 0.05, Tails::Two).unwrap_err();
    assert!(message(error).contains(words));
    // At the bound the exact computations answer (bisection of the critical values).
    assert!(sign_summary(
        MAX_EXACT_COUNT / 2,
        MAX_EXACT_COUNT / 2,
        0,
        0.05,
        two,
        exact
    )
    .is_ok());
}

#[test]
fn auc_intervals_of_huge_counts_do_not_overflow() {
    let huge = 1_000_000_000_000;
    // Hanley-McNeil and Agarwal are closed forms: any counts.
    assert!(auc_intervals(0.8, huge, huge, None, None, 0.05).is_ok());
    // Cortes & Mohri's exact sums are bounded.
    let error = auc_intervals(0.8, huge, huge, Some(1_000_000), None, 0.05).unwrap_err();
    assert!(message(error).contains("at most 10,000"), "the bound");
    let half = MAX_CORTES_MOHRI_INSTANCES / 2;
    let error = auc_intervals(0.8, usize::MAX, usize::MAX, Some(1), None, 0.05).unwrap_err();
    assert!(message(error).contains("at most 10,000"));
    assert!(auc_intervals(0.8, half, half, Some(10), None, 0.05).is_ok());
}

#[test]
fn differences_beyond_f64_are_refused_not_an_infinite_t() {
    let a = [1e308, 1e308, 1e308];
    let b = [-1e308, -1e308, -1e308];
    let error = paired_t_test(&a, &b, 0.05).unwrap_err();
    assert!(message(error).contains("a - b"));
    // Finite differences whose squares overflow.
    let error = paired_t_test(&[1e200, -1e200, 1e200], &[0.0; 3], 0.05).unwrap_err();
    assert!(message(error).contains("overflows f64"));
}
