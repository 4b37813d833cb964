//! The text the `compare` command prints for two learners' per-fold results: a summary line,
//! [`stats::FoldComparison`]'s tests as one Markdown table, the Bayesian correlated t-test's
//! probabilities, and a note for each test not computed.

use report::{Cell, ReportError, Table};
use stats::FoldComparison;

/// The text of `comparison` of columns `a` and `b` of `file`.
pub fn fold_text(
    file: &str,
    a: &str,
    b: &str,
    comparison: &FoldComparison,
) -> Result<String, ReportError> {
    let c = comparison;
    let mut out = format!(
        "{file}: {} paired results ({} run(s)); mean of {a} = {:.4}, mean of {b} = {:.4}, \
         mean difference {a} - {b} = {:.4}\n\n",
        c.n,
        c.runs,
        c.mean_a,
        c.mean_b,
        c.mean_a - c.mean_b
    );
    out.push_str(&tests_table(a, b, c).to_markdown()?);
    if let Some(r) = &c.bayesian_correlated_t {
        out.push_str(&format!(
            "\nBayesian correlated t-test (rope {}, {} run(s)): P({a} better) = {:.4}, \
             P(practically equivalent) = {:.4}, P({b} better) = {:.4}\n",
            c.rope, c.runs, r.probabilities.right, r.probabilities.rope, r.probabilities.left
        ));
    }
    for note in &c.notes {
        out.push_str(&format!("\nNote: {note}"));
    }
    if !c.notes.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

/// One row per frequentist test computed: statistic, df, p-value and decision.
fn tests_table(a: &str, b: &str, c: &FoldComparison) -> Table {
    let mut table = Table::new(
        format!(
            "Paired tests of {a} against {b} (d = {a} - {b}, alpha = {})",
            c.alpha
        ),
        ["test", "statistic", "df", "p-value", "decision"]
            .map(String::from)
            .to_vec(),
    );
    table.decimals = 4;
    let decision = |reject: bool| {
        Cell::text(if reject {
            "significant difference"
        } else {
            "no significant difference"
        })
    };
    let p_cell = |p: f64| Cell::number(p).with_decimals(if p < 1e-4 { 8 } else { 4 });
    let mut row = |test: String, statistic: Cell, df: Cell, p: f64, reject: bool| {
        table.push_row(vec![
            Cell::text(test),
            statistic,
            df,
            p_cell(p),
            decision(reject),
        ]);
    };
    // A test's statistic and its degrees of freedom.
    let statistic = |value: f64, df: f64| (Cell::number(value), Cell::number(df).with_decimals(0));
    let corrected = format!(
        "corrected resampled t (n_test/n_train = {})",
        c.test_fraction.unwrap_or(f64::NAN)
    );
    for (test, t) in [
        ("paired t".to_string(), &c.paired_t),
        (corrected, &c.corrected_t),
    ] {
        if let Some(t) = t {
            let (value, df) = statistic(t.statistic, t.df);
            row(test, value, df, t.pvalue, t.reject);
        }
    }
    if let Some(w) = &c.wilcoxon {
        let method = if w.exact {
            "exact"
        } else {
            "normal approximation"
        };
        let test = format!(
            "Wilcoxon signed-rank (R+ = {}, R- = {}, {method})",
            w.r_plus, w.r_minus
        );
        let n_used = Cell::integer(w.n_used as i64);
        row(test, Cell::number(w.statistic), n_used, w.pvalue, w.reject);
    }
    if let Some(s) = &c.sign {
        let test = format!(
            "sign (wins/ties/losses of {a}: {}/{}/{})",
            s.wins, s.ties, s.losses
        );
        let (wins, n) = (Cell::integer(s.wins as i64), Cell::integer(s.n as i64));
        row(test, wins, n, s.pvalue, s.reject);
    }
    if let Some(t) = &c.cv5x2_t {
        let (value, df) = statistic(t.statistic, t.df);
        row("5x2cv t (Dietterich)".into(), value, df, t.pvalue, t.reject);
    }
    if let Some(f) = &c.cv5x2_f {
        let denominator = f.df_denominator.unwrap_or(f64::NAN);
        let dfs = Cell::text(format!("{}, {denominator}", f.df));
        let test = "5x2cv F (Alpaydin)".into();
        row(test, Cell::number(f.statistic), dfs, f.pvalue, f.reject);
    }
    table.push_note(
        "df of the Wilcoxon test: the number of non-zero differences ranked; of the sign \
         test: the number of untied pairs (its statistic is the wins).",
    );
    table
}
