//! The written report of an [`AutoRankResult`]: a paragraph that says what was tested, why,
//! and what was found, and a LaTeX table of the learners (best first). Every number comes from
//! the result; nothing is computed here.

use crate::across::autorank::{AutoRankResult, HomogeneityTest, Omnibus, PostHoc};
use crate::across::effect_size::EffectSizeKind;

/// "a", "a and b", "a, b and c".
fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// "p=0.012", or "p<0.001" below the last decimal place shown.
pub fn format_pvalue(p: f64, decimals: usize) -> String {
    let floor = 10f64.powi(-(decimals as i32));
    if p < floor {
        format!("p<{floor:.decimals$}")
    } else {
        format!("p={p:.decimals$}")
    }
}

/// Short symbol of an effect size ("d", "gamma", "delta").
fn effect_symbol(kind: EffectSizeKind) -> &'static str {
    match kind {
        EffectSizeKind::CohenD => "d",
        EffectSizeKind::AkinshinGamma => "gamma",
        EffectSizeKind::CliffDelta => "delta",
    }
}

fn omnibus_name(omnibus: Omnibus) -> &'static str {
    match omnibus {
        Omnibus::PairedTTest => "the paired t-test",
        Omnibus::Wilcoxon => {
            "the one-sided Wilcoxon signed-rank test (the learner with the larger median against the other)"
        }
        Omnibus::RepeatedMeasuresAnova => "a repeated-measures ANOVA with Tukey's HSD as post-hoc test",
        Omnibus::Friedman => "Friedman's test with Nemenyi's post-hoc test",
    }
}

/// The sentences on normality, variances and the choice of test.
fn assumptions(result: &AutoRankResult, dp: usize) -> String {
    let mut text = String::new();
    if result.all_normal {
        let smallest = result
            .learners
            .iter()
            .map(|l| l.shapiro.pvalue)
            .fold(f64::INFINITY, f64::min);
        text += &format!(
            "Shapiro-Wilk tests at alpha/k={:.dp$} did not reject normality for any learner (smallest {}). ",
            result.alpha_normality,
            format_pvalue(smallest, dp)
        );
    } else {
        let rejected: Vec<String> = result
            .learners
            .iter()
            .filter(|l| l.shapiro.pvalue < result.alpha_normality)
            .map(|l| format!("{} ({})", l.name, format_pvalue(l.shapiro.pvalue, dp)))
            .collect();
        text += &format!(
            "Shapiro-Wilk tests at alpha/k={:.dp$} rejected normality for {}. ",
            result.alpha_normality,
            join(&rejected)
        );
    }
    let test = match result.homogeneity_test {
        HomogeneityTest::Bartlett => "Bartlett's",
        HomogeneityTest::Levene => "Levene's",
    };
    let verdict = if result.homoscedastic {
        "did not reject"
    } else {
        "rejected"
    };
    text += &format!(
        "{test} test {verdict} equal variances ({}). We therefore used {}. ",
        format_pvalue(result.homogeneity.pvalue, dp),
        omnibus_name(result.omnibus)
    );
    text
}

/// One learner with its statistics: "A (M=0.430+-0.107, SD=0.256, MR=1.900)".
fn describe(result: &AutoRankResult, index: usize, dp: usize) -> String {
    let l = &result.learners[index];
    let half = 0.5 * (l.interval.1 - l.interval.0);
    let (center, spread) = if result.parametric {
        ("M", "SD")
    } else {
        ("MD", "MAD")
    };
    format!(
        "{} ({center}={:.dp$}+-{half:.dp$}, {spread}={:.dp$}, MR={:.dp$})",
        l.name, l.center, l.spread, l.mean_rank
    )
}

/// The paragraph: what was tested, why, and what was found, with `decimals` decimal places.
pub fn paragraph(result: &AutoRankResult, decimals: usize) -> String {
    let dp = decimals;
    let k = result.learners.len();
    let mut text = format!(
        "We compared {k} learners on {} data sets at a family-wise significance level alpha={:.dp$}. ",
        result.n_datasets, result.alpha
    );
    text += &assumptions(result, dp);
    let ranked: Vec<String> = result
        .order
        .iter()
        .map(|&i| describe(result, i, dp))
        .collect();
    let verdict = if result.reject {
        "rejected"
    } else {
        "did not reject"
    };
    text += &format!(
        "The test {verdict} the hypothesis that all learners perform alike ({}). Best first: {}. ",
        format_pvalue(result.omnibus_pvalue, dp),
        join(&ranked)
    );
    match (result.posthoc, result.critical_difference, &result.tukey) {
        (Some(PostHoc::Nemenyi), Some(cd), _) => {
            text += &format!("Mean ranks that differ by more than the critical difference CD={cd:.dp$} differ significantly. ");
        }
        (Some(PostHoc::TukeyHsd), _, Some(t)) => {
            text += &format!(
                "Learners whose simultaneous intervals (half-width {:.dp$}) do not overlap differ significantly. ",
                t.half_width
            );
        }
        _ => {}
    }
    if result.reject {
        let groups: Vec<String> = result
            .cliques
            .iter()
            .map(|c| {
                join(
                    &c.members
                        .iter()
                        .map(|&i| result.learners[i].name.clone())
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        if groups.is_empty() {
            text += "Every pair of learners differs significantly. ";
        } else {
            text += &format!(
                "No significant differences were found within {}; all other pairs differ. ",
                groups.join("; ")
            );
        }
    }
    let best = result.order[0];
    let effects: Vec<String> = result.order[1..]
        .iter()
        .map(|&i| {
            let e = &result.effect_sizes[best][i];
            format!(
                "{} {}={:.dp$} ({})",
                result.learners[i].name,
                effect_symbol(e.kind),
                e.value,
                e.magnitude.as_str()
            )
        })
        .collect();
    text += &format!(
        "Effect sizes of {} against the others: {}.",
        result.learners[best].name,
        join(&effects)
    );
    text
}

/// Escapes LaTeX's special characters in a name.
fn latex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '_' | '&' | '%' | '#' | '$' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            _ => out.push(c),
        }
    }
    out
}

/// A LaTeX table (booktabs) of the learners, best first: centre, spread, mean rank (not for
/// Tukey's HSD), interval, effect size against the best and its magnitude.
pub fn latex_table(result: &AutoRankResult, decimals: usize, label: &str) -> String {
    let dp = decimals;
    let (center, spread) = if result.parametric {
        ("M", "SD")
    } else {
        ("MD", "MAD")
    };
    let with_rank = result.posthoc != Some(PostHoc::TukeyHsd);
    let symbol = match result.effect_size_kind {
        EffectSizeKind::CohenD => "$d$",
        EffectSizeKind::AkinshinGamma => "$\\gamma$",
        EffectSizeKind::CliffDelta => "$\\delta$",
    };
    let mut header = format!("Learner & {center} & {spread}");
    let mut columns = String::from("lrr");
    if with_rank {
        header += " & MR";
        columns += "r";
    }
    header += &format!(" & CI & {symbol} & Magnitude \\\\");
    columns += "lrl";
    let best = result.order[0];
    let mut lines = vec![
        "\\begin{table}[h]".to_string(),
        "\\centering".to_string(),
        format!("\\begin{{tabular}}{{{columns}}}"),
        "\\toprule".to_string(),
        header,
        "\\midrule".to_string(),
    ];
    for &i in &result.order {
        let l = &result.learners[i];
        let mut row = format!(
            "{} & {:.dp$} & {:.dp$}",
            latex_escape(&l.name),
            l.center,
            l.spread
        );
        if with_rank {
            row += &format!(" & {:.dp$}", l.mean_rank);
        }
        let e = &result.effect_sizes[best][i];
        row += &format!(
            " & [{:.dp$}, {:.dp$}] & {:.dp$} & {} \\\\",
            l.interval.0,
            l.interval.1,
            e.value,
            e.magnitude.as_str()
        );
        lines.push(row);
    }
    lines.push("\\bottomrule".to_string());
    lines.push("\\end{tabular}".to_string());
    lines.push(format!(
        "\\caption{{Learners best first, {}; effect sizes against {}.}}",
        omnibus_name(result.omnibus),
        latex_escape(&result.learners[best].name)
    ));
    lines.push(format!("\\label{{{}}}", latex_escape(label)));
    lines.push("\\end{table}".to_string());
    lines.join("\n")
}
