//! The tables of what [`stats::across_analysis::analyse`] adds to Demšar's core: the omnibus
//! tests beside Friedman's (Quade, aligned ranks, Skillings-Mack) with the missing-results
//! policy, every pairwise family with every adjustment, effect sizes, the Plackett-Luce
//! posterior and the hierarchical Bayesian test. A run's report and `compare` print the same
//! tables of the same [`AcrossAnalysis`].

use report::{Cell, Table};
use stats::across_analysis::{AcrossAnalysis, PairwiseFamily, PairwiseTest, ResultsTable};
use stats::effect_size::EffectSize;

use crate::across::missing_policy_name;

/// The tables, each with the suffix of its file name (`{stem}_{suffix}`).
pub fn extra_tables(
    measure: &str,
    analysis: &AcrossAnalysis,
    table: &ResultsTable,
) -> Vec<(String, Table)> {
    let mut tables = vec![(
        "omnibus".to_string(),
        omnibus_table(measure, analysis, table),
    )];
    for family in &analysis.pairwise {
        if family.test != PairwiseTest::Nemenyi {
            let suffix = format!("posthoc_{}", test_key(family.test));
            tables.push((suffix, family_table(measure, analysis, family)));
        }
    }
    if !analysis.effect_sizes.is_empty() {
        tables.push(("effect_sizes".to_string(), effect_table(measure, analysis)));
    }
    if analysis.plackett_luce.is_some() {
        tables.push((
            "plackett_luce".to_string(),
            plackett_luce_table(measure, analysis),
        ));
    }
    if !analysis.hierarchical.is_empty() {
        tables.push((
            "hierarchical".to_string(),
            hierarchical_table(measure, analysis, &table.learners),
        ));
        tables.push((
            "hierarchical_datasets".to_string(),
            hierarchical_datasets_table(measure, analysis, table),
        ));
    }
    tables
}

/// The test's name in file names.
pub fn test_key(test: PairwiseTest) -> &'static str {
    match test {
        PairwiseTest::Nemenyi => "nemenyi",
        PairwiseTest::Wilcoxon => "wilcoxon",
        PairwiseTest::FriedmanZ => "friedman_z",
        PairwiseTest::QuadeT => "quade_t",
        PairwiseTest::QuadeZ => "quade_z",
        PairwiseTest::AlignedRanksZ => "aligned_ranks_z",
    }
}

/// The test's name in titles.
fn test_title(test: PairwiseTest) -> &'static str {
    match test {
        PairwiseTest::Nemenyi => "Nemenyi",
        PairwiseTest::Wilcoxon => "Wilcoxon signed-rank over datasets",
        PairwiseTest::FriedmanZ => "Friedman z-test on average ranks",
        PairwiseTest::QuadeT => "Quade post-hoc t-test (Conover)",
        PairwiseTest::QuadeZ => "Quade post-hoc z-test (García et al.)",
        PairwiseTest::AlignedRanksZ => "Friedman aligned-ranks z-test",
    }
}

fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

fn p(value: f64) -> Cell {
    Cell::number(value).with_decimals(4)
}

/// A row of the omnibus table: a test, its statistic, df, p and decision.
fn omnibus_row(name: &str, statistic: f64, df: String, pvalue: f64, reject: bool) -> Vec<Cell> {
    vec![
        Cell::text(name),
        Cell::number(statistic).with_decimals(4),
        Cell::text(df),
        p(pvalue),
        if reject {
            Cell::text("differ").bold()
        } else {
            Cell::text("no difference")
        },
    ]
}

/// Quade, aligned ranks and Skillings-Mack, with the missing-results policy and the parts not
/// computed in the notes.
fn omnibus_table(measure: &str, analysis: &AcrossAnalysis, table: &ResultsTable) -> Table {
    let mut out = Table::new(
        format!("{measure}: omnibus tests beside Friedman's"),
        header(&["test", "statistic", "df", "p-value", "decision"]),
    );
    if let Some(q) = &analysis.quade {
        let df = format!("{}, {}", q.df.0, q.df.1);
        out.push_row(omnibus_row("Quade F", q.statistic, df, q.pvalue, q.reject));
    }
    if let Some(a) = &analysis.aligned_ranks {
        let df = format!("{}", a.df);
        let name = "Friedman aligned-ranks chi-square";
        out.push_row(omnibus_row(name, a.statistic, df, a.pvalue, a.reject));
    }
    if let Some(s) = &analysis.skillings_mack {
        let name = format!(
            "Skillings-Mack (whole table, {} missing cells)",
            s.n_missing
        );
        out.push_row(omnibus_row(
            &name,
            s.statistic,
            s.df.to_string(),
            s.pvalue,
            s.reject,
        ));
    }
    out.push_note(missing_sentence(analysis, table));
    for skipped in &analysis.skipped {
        out.push_note(format!(
            "Not computed: {}: {}",
            skipped.part, skipped.reason
        ));
    }
    out
}

/// The missing-results policy and what it dropped (named from `table`), as a sentence.
pub fn missing_sentence(analysis: &AcrossAnalysis, table: &ResultsTable) -> String {
    let missing = &analysis.missing;
    let mut text = format!(
        "Missing-results policy: {} (declared before the results were seen).",
        missing_policy_name(missing.policy)
    );
    if missing.dropped_datasets.is_empty() && missing.dropped_learners.is_empty() {
        text.push_str(" No result is missing.");
    }
    let named = |dropped: &[(usize, Vec<usize>)], names: &[String]| {
        let names: Vec<&str> = dropped.iter().map(|(i, _)| names[*i].as_str()).collect();
        names.join(", ")
    };
    if !missing.dropped_datasets.is_empty() {
        text.push_str(&format!(
            " Left out of the complete-table tests, because a learner has no result on them \
             (failed units or an undefined measure): {}.",
            named(&missing.dropped_datasets, &table.datasets)
        ));
    }
    if !missing.dropped_learners.is_empty() {
        text.push_str(&format!(
            " Learners left out, because they lack a result on some dataset: {}.",
            named(&missing.dropped_learners, &table.learners)
        ));
    }
    text
}

/// One pairwise family: statistic, raw p and every adjusted p (bold when rejected).
fn family_table(measure: &str, analysis: &AcrossAnalysis, family: &PairwiseFamily) -> Table {
    let mut columns = header(&["a", "b", "statistic", "p"]);
    columns.extend(
        family
            .adjusted
            .iter()
            .map(|(adjustment, _)| format!("{} p", adjustment.label())),
    );
    let mut out = Table::new(
        format!(
            "{measure}: {} of every pair, with every adjustment",
            test_title(family.test)
        ),
        columns,
    );
    let comparisons = &family.comparisons;
    for (index, &(i, j)) in comparisons.pairs.iter().enumerate() {
        let mut row = vec![
            Cell::text(&analysis.learners[i]),
            Cell::text(&analysis.learners[j]),
            statistic(comparisons.statistics[index]),
            p(comparisons.pvalues[index]),
        ];
        for (_, result) in &family.adjusted {
            let cell = p(result.corrected_pvalues[index]);
            row.push(if result.reject[index] {
                cell.bold()
            } else {
                cell
            });
        }
        out.push_row(row);
    }
    out.push_note(format!(
        "Adjusted p-values; bold: rejected at alpha = {} by that procedure (García & Herrera \
         2008). Bergmann-Hommel is computed for up to 9 learners.",
        analysis
            .core
            .as_ref()
            .map_or(0.05, |core| core.options.alpha)
    ));
    out
}

/// A statistic, empty when the family carries only p-values (Nemenyi's is in the core's
/// table); Wilcoxon's is W = min(R+, R-), as in the pairs table.
fn statistic(value: f64) -> Cell {
    if value.is_nan() {
        Cell::empty()
    } else {
        Cell::number(value).with_decimals(4)
    }
}

fn effect(size: &EffectSize) -> Cell {
    Cell::number(size.value)
        .with_decimals(3)
        .with_marker(format!(" ({})", size.magnitude.as_str()))
}

/// Cohen's d, Cliff's delta and Akinshin's gamma of every pair, with magnitudes.
fn effect_table(measure: &str, analysis: &AcrossAnalysis) -> Table {
    let mut out = Table::new(
        format!("{measure}: effect sizes of every pair over the datasets (positive: a better)"),
        header(&["a", "b", "Cohen's d", "Cliff's delta", "Akinshin's gamma"]),
    );
    for pair in &analysis.effect_sizes {
        out.push_row(vec![
            Cell::text(&analysis.learners[pair.first]),
            Cell::text(&analysis.learners[pair.second]),
            effect(&pair.cohen_d),
            effect(&pair.cliff_delta),
            effect(&pair.akinshin_gamma),
        ]);
    }
    out.push_note(
        "Magnitudes as autorank: |d| and |gamma| < 0.2 negligible, < 0.5 small, < 0.8 medium; \
         |delta| < 0.147, 0.33, 0.474.",
    );
    out
}

/// The Plackett-Luce posterior: probability of being best and expected rank.
fn plackett_luce_table(measure: &str, analysis: &AcrossAnalysis) -> Table {
    let pl = analysis
        .plackett_luce
        .as_ref()
        .expect("checked by the caller");
    let mut out = Table::new(
        format!("{measure}: Plackett-Luce posterior of the rankings over the datasets"),
        header(&["learner", "P(best)", "expected rank", "expected weight"]),
    );
    for (l, name) in analysis.learners.iter().enumerate() {
        out.push_row(vec![
            Cell::text(name),
            Cell::number(pl.probability_best[l]).with_decimals(3),
            Cell::number(pl.expected_rank[l]).with_decimals(3),
            Cell::number(pl.expected_win_probability[l]).with_decimals(3),
        ]);
    }
    out.push_note(format!(
        "Dirichlet prior, {} chains of {} draws after {} warm-up (Caron & Doucet's Gibbs sampler; seeded), max \
         split R-hat {:.3}, min effective sample size {:.0}: {}.",
        pl.options.chains,
        pl.options.samples,
        pl.options.warmup,
        pl.max_rhat,
        pl.min_effective_sample_size,
        converged(pl.converged)
    ));
    out
}

fn converged(yes: bool) -> &'static str {
    if yes {
        "converged (R-hat < 1.01, ESS > 400)"
    } else {
        "NOT converged (R-hat >= 1.01 or ESS <= 400): ask for more samples"
    }
}

/// The hierarchical test of every pair, overall.
fn hierarchical_table(measure: &str, analysis: &AcrossAnalysis, learners: &[String]) -> Table {
    let mut out = Table::new(
        format!(
            "{measure}: hierarchical Bayesian correlated t-test of every pair (Corani et al. \
             2017), on the folds of every dataset"
        ),
        header(&[
            "a",
            "b",
            "datasets",
            "P(a better)",
            "P(equivalent)",
            "P(b better)",
            "mean difference",
            "max R-hat",
            "min ESS",
            "converged",
        ]),
    );
    for pair in &analysis.hierarchical {
        let r = &pair.result;
        out.push_row(vec![
            Cell::text(&learners[pair.first]),
            Cell::text(&learners[pair.second]),
            Cell::integer(pair.datasets.len() as i64),
            Cell::number(r.probabilities.right).with_decimals(3),
            Cell::number(r.probabilities.rope).with_decimals(3),
            Cell::number(r.probabilities.left).with_decimals(3),
            Cell::number(r.delta0_mean).with_decimals(4),
            Cell::number(r.max_rhat).with_decimals(3),
            Cell::number(r.min_effective_sample_size).with_decimals(0),
            Cell::text(if r.converged { "yes" } else { "NO" }),
        ]);
    }
    if let Some(first) = analysis.hierarchical.first() {
        let o = &first.result.options;
        out.push_note(format!(
            "Rope {}, correlation {:.4} (the test fraction); sampled natively: Gibbs with slice \
             steps, {} chains of {} draws after {} warm-up, each pair seeded from the seed and \
             the names. Each probability is the share of draws in which that region is the most \
             probable for a new dataset (as baycomp). Converged: split R-hat < 1.01 and effective \
             sample size > 400 for every parameter (Vehtari et al. 2021).",
            o.rope, o.correlation, o.chains, o.samples, o.warmup
        ));
    }
    out
}

/// The hierarchical test's posterior of each pair on each dataset.
fn hierarchical_datasets_table(
    measure: &str,
    analysis: &AcrossAnalysis,
    table: &ResultsTable,
) -> Table {
    let learners = &table.learners;
    let mut out = Table::new(
        format!(
            "{measure}: hierarchical test, the posterior of each dataset's mean difference a - b"
        ),
        header(&[
            "a",
            "b",
            "dataset",
            "observed mean",
            "posterior mean",
            "P(a better)",
            "P(equivalent)",
            "P(b better)",
        ]),
    );
    for pair in &analysis.hierarchical {
        for (&d, posterior) in pair.datasets.iter().zip(&pair.result.datasets) {
            out.push_row(vec![
                Cell::text(&learners[pair.first]),
                Cell::text(&learners[pair.second]),
                Cell::text(&table.datasets[d]),
                Cell::number(posterior.observed_mean).with_decimals(4),
                Cell::number(posterior.posterior_mean).with_decimals(4),
                Cell::number(posterior.probabilities.right).with_decimals(3),
                Cell::number(posterior.probabilities.rope).with_decimals(3),
                Cell::number(posterior.probabilities.left).with_decimals(3),
            ]);
        }
    }
    out.push_note("Differences oriented so that positive means a is better.");
    out
}
