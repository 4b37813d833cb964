//! Wu & Flach (2005): select a model on each validation fold by its AUC and by its scored AUC
//! (sAUC), and compare the test AUC of the two selected models (their Tables 4 and 5).

use engine::config::ExperimentConfig;
use engine::{bail, write_table, Analysis, AnalysisContext, Measure, Plan, Result, Section};
use report::{Cell, Table};

use crate::published::wu_flach_totals;

/// Wu & Flach's model selection by validation AUC against validation sAUC.
pub struct Selection;

impl Analysis for Selection {
    fn name(&self) -> &'static str {
        "wu_flach_selection"
    }

    fn description(&self) -> &'static str {
        "Wu & Flach (2005): on each validation fold, select a model by AUC and by scored AUC, \
         and compare the test AUC of the two selected models (their Tables 4 and 5)"
    }

    fn check(&self, config: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
        for wanted in [Measure::Auc, Measure::Sauc] {
            if !config.measures.contains(&wanted) {
                return Err(format!(
                    "it needs the measures auc and sauc (key 'measures'; '{}' is missing)",
                    wanted.name()
                ));
            }
        }
        if plan
            .datasets
            .iter()
            .any(|d| d.plan.splits.iter().any(|s| s.validation.is_none()))
        {
            return Err(
                "it needs a protocol with validation folds (e.g. kind = \"wu_flach\")".into(),
            );
        }
        if plan.learners.len() < 2 {
            return Err("it selects among learners: name at least two".into());
        }
        Ok(())
    }

    fn sections(&self, context: &AnalysisContext) -> Result<Vec<Section>> {
        if let Err(problem) = self.check(context.config, context.plan) {
            bail!("analysis 'wu_flach_selection': {problem}");
        }
        sections(context)
    }
}

/// Indices of the largest finite value (all of them when several tie); empty if none is finite.
fn best_set(values: &[Option<f64>]) -> Vec<usize> {
    let top = values
        .iter()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    values
        .iter()
        .enumerate()
        .filter(|(_, value)| **value == Some(top))
        .map(|(index, _)| index)
        .collect()
}

/// The test AUC of the model selected among `tied` (learners tied at the best validation
/// value): its expected value when the tie is broken uniformly at random, i.e. the mean over
/// the tied learners. `None` if any of them lacks a finite test AUC.
fn selected_test_auc(tied: &[usize], test: &[Option<f64>]) -> Option<f64> {
    let values: Option<Vec<f64>> = tied
        .iter()
        .map(|&l| test[l].filter(|v| v.is_finite()))
        .collect();
    let values = values?;
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The selection analysis: tables written under `folder`, returned as a report section.
fn sections(context: &AnalysisContext) -> Result<Vec<Section>> {
    let (folder, plan, folds) = (context.folder, context.plan, &context.results.folds);
    let alpha = context.config.alpha;
    let position = |wanted: Measure| folds.measures.iter().position(|&m| m == wanted);
    let (Some(auc), Some(sauc)) = (position(Measure::Auc), position(Measure::Sauc)) else {
        bail!("analysis 'wu_flach_selection' needs the measures auc and sauc (key 'measures')");
    };
    let sampled = plan
        .datasets
        .iter()
        .any(|d| d.transforms.subsample.is_some());
    let totals = wu_flach_totals()?;
    let published = if sampled {
        &totals.samples
    } else {
        &totals.full
    };
    let paper = (
        published.wins,
        published.losses,
        published
            .auc_selected_mean
            .zip(published.sauc_selected_mean),
    );
    let header = [
        "dataset",
        "AUC-selected mean",
        "AUC-selected sd",
        "sAUC-selected mean",
        "sAUC-selected sd",
        "p-value",
        "sAUC",
        "folds",
        "same model chosen",
        "chosen by AUC / by sAUC",
        "folds with a tie, AUC / sAUC",
    ]
    .map(String::from)
    .to_vec();
    let title = if sampled {
        "Test AUC (x100) of the model selected by validation AUC and by validation sAUC, on \
         stratified samples (Wu & Flach Table 5)"
    } else {
        "Test AUC (x100) of the model selected by validation AUC and by validation sAUC (Wu & \
         Flach Table 4)"
    };
    let mut table = Table::new(title, header);
    let (mut wins, mut losses) = (0, 0);
    let mut averages = (Vec::new(), Vec::new());
    let mut skipped_total = 0;
    for (d, dataset) in plan.datasets.iter().enumerate() {
        let learners = plan.learners.len();
        let validation_auc: Vec<Vec<Option<f64>>> = (0..learners)
            .map(|l| folds.validation_values(d, l, auc))
            .collect();
        let validation_sauc: Vec<Vec<Option<f64>>> = (0..learners)
            .map(|l| folds.validation_values(d, l, sauc))
            .collect();
        let test_auc: Vec<Vec<Option<f64>>> =
            (0..learners).map(|l| folds.values(d, l, auc)).collect();
        let mut by_auc = Vec::new();
        let mut by_sauc = Vec::new();
        let mut chosen = (vec![0.0f64; learners], vec![0.0f64; learners]);
        let mut tied = (0usize, 0usize);
        let mut same = 0;
        let mut skipped = 0;
        for split in 0..dataset.plan.splits.len() {
            let column = |table: &Vec<Vec<Option<f64>>>| -> Vec<Option<f64>> {
                (0..learners).map(|l| table[l][split]).collect()
            };
            let by_validation_auc = best_set(&column(&validation_auc));
            let by_validation_sauc = best_set(&column(&validation_sauc));
            let test = column(&test_auc);
            let (Some(test_a), Some(test_s)) = (
                selected_test_auc(&by_validation_auc, &test),
                selected_test_auc(&by_validation_sauc, &test),
            ) else {
                skipped += 1;
                continue;
            };
            by_auc.push(100.0 * test_a);
            by_sauc.push(100.0 * test_s);
            for (set, counts) in [
                (&by_validation_auc, &mut chosen.0),
                (&by_validation_sauc, &mut chosen.1),
            ] {
                for &l in set.iter() {
                    counts[l] += 1.0 / set.len() as f64;
                }
            }
            tied.0 += usize::from(by_validation_auc.len() > 1);
            tied.1 += usize::from(by_validation_sauc.len() > 1);
            same += usize::from(by_validation_auc == by_validation_sauc);
        }
        skipped_total += skipped;
        let summary = |values: &[f64]| -> (f64, f64) {
            if values.is_empty() {
                return (f64::NAN, f64::NAN);
            }
            let mean = stats::summary::mean(values);
            let sd = if values.len() > 1 {
                stats::summary::sample_variance(values).sqrt()
            } else {
                f64::NAN
            };
            (mean, sd)
        };
        let (mean_a, sd_a) = summary(&by_auc);
        let (mean_s, sd_s) = summary(&by_sauc);
        let test = stats::paired_t_test(&by_sauc, &by_auc, alpha);
        let (pvalue, verdict) = match &test {
            Ok(result) if result.reject && result.mean_difference > 0.0 => {
                wins += 1;
                (result.pvalue, Cell::text("win").bold())
            }
            Ok(result) if result.reject => {
                losses += 1;
                (result.pvalue, Cell::text("loss").bold())
            }
            Ok(result) => (result.pvalue, Cell::text("tie")),
            Err(error) => (f64::NAN, Cell::text(format!("not tested: {error}"))),
        };
        if !by_auc.is_empty() {
            averages.0.push(mean_a);
            averages.1.push(mean_s);
        }
        let chosen_text = |counts: &[f64]| -> String {
            counts
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0.0)
                .map(|(l, n)| {
                    format!(
                        "{} {}",
                        plan.learners[l].name,
                        report::table::format_number(*n, 1)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut folds_cell = Cell::integer(by_auc.len() as i64);
        if skipped > 0 {
            folds_cell = folds_cell.with_marker(format!("{skipped} skipped"));
        }
        table.push_row(vec![
            Cell::text(&dataset.name),
            Cell::number(mean_a).with_decimals(2),
            Cell::number(sd_a).with_decimals(2),
            Cell::number(mean_s).with_decimals(2),
            Cell::number(sd_s).with_decimals(2),
            Cell::number(pvalue).with_decimals(4),
            verdict,
            folds_cell,
            Cell::integer(same as i64),
            Cell::text(format!(
                "{} / {}",
                chosen_text(&chosen.0),
                chosen_text(&chosen.1)
            )),
            Cell::text(format!("{} / {}", tied.0, tied.1)),
        ]);
    }
    let average = |values: &[f64]| {
        if values.is_empty() {
            f64::NAN
        } else {
            stats::summary::mean(values)
        }
    };
    let (average_a, average_s) = (average(&averages.0), average(&averages.1));
    table.push_row(vec![
        Cell::text("average"),
        Cell::number(average_a).with_decimals(2),
        Cell::empty(),
        Cell::number(average_s).with_decimals(2),
        Cell::empty(),
        Cell::empty(),
        Cell::text(format!("{wins} wins, {losses} losses")),
        Cell::empty(),
        Cell::empty(),
        Cell::empty(),
        Cell::empty(),
    ]);
    table.push_note(format!(
        "Paired t-test at alpha = {alpha} over the test folds of the test AUC of the \
         sAUC-selected against the AUC-selected model; win/loss is for sAUC. When several learners tie \
         for the best validation AUC (or sAUC), common on small validation folds, the selected \
         model's test AUC is the mean over the tied learners (its expected value when the tie is \
         broken at random), and each tied learner counts as chosen 1/t times. A fold is skipped when no \
         learner has a finite validation AUC (a validation fold with one class)."
    ));
    let paper_text = match paper.2 {
        Some((paper_a, paper_s)) => format!(
            "the paper reports {} wins and {} losses for sAUC, with average test AUCs of \
             {paper_a} vs {paper_s}",
            paper.0, paper.1
        ),
        None => format!(
            "the paper reports {} wins and {} losses for sAUC",
            paper.0, paper.1
        ),
    };
    table.push_note(format!(
        "Ours: {wins} wins and {losses} losses; {paper_text}."
    ));
    let stem = if sampled {
        "wu_flach_selection_samples"
    } else {
        "wu_flach_selection"
    };
    write_table(&folder.join("tables"), stem, &table)?;
    let reading = format!(
        "On every test fold, the learner with the highest AUC on the validation fold and the one \
         with the highest sAUC are selected, and their test AUCs compared over {} datasets. \
         sAUC-selection wins on {wins} and loses on {losses} (paired t-test, alpha = {alpha}); \
         average test AUC {average_a:.2} (AUC-selected) against {average_s:.2} (sAUC-selected); \
         {paper_text}.{}",
        plan.datasets.len(),
        if skipped_total > 0 {
            format!(" {skipped_total} folds were skipped (see the table note).")
        } else {
            String::new()
        }
    );
    Ok(vec![Section {
        title: "Wu & Flach (2005): model selection by AUC and by sAUC".into(),
        reading,
        tables: vec![table],
        figures: Vec::new(),
        links: Vec::new(),
    }])
}
