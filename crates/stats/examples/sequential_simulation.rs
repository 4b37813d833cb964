//! The sequential rules' error rate under the null and their repetitions under alternatives
//! (issue 44), by simulation: `scripts/sequential_simulation.sh` runs it and docs/sequential.md
//! holds its output.
//!
//! Each run draws per-repetition scores of two learners (a measure near 0.8, spread 0.01) for
//! at most `MAX` repetitions and applies, in repetition order: the e-value rule, the
//! confidence-sequence rule (rope 0, so every decision under the null is false), and the
//! plain paired t-test stopped at its first p < alpha (from 3 repetitions on), beside the
//! fixed-design t-test at `MAX`. Seeded: run i of a case uses ChaCha8 seeded with
//! SEED + i, so the output is the same on every machine.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{StandardNormal, StudentT};
use stats::{
    paired_t_test, sequential_decision, Decision, SequentialRule, SequentialSettings,
    StitchingOptions,
};

const SEED: u64 = 44;
const MAX: usize = 30;
const ALPHA: f64 = 0.05;
const RUNS: usize = 4000;
const SPREAD: f64 = 0.01;

/// How one run's per-repetition differences are drawn.
#[derive(Clone, Copy)]
enum Case {
    /// Independent normal scores for each learner.
    Normal,
    /// Scores with Student t(3) noise (heavy tails), scaled to the same spread.
    HeavyTailed,
    /// The two learners' scores correlated 0.9 within each repetition.
    Correlated,
    /// The differences follow an AR(1) process with coefficient 0.3 across repetitions (the
    /// rules assume independent repetitions: a deliberate violation).
    Autoregressive,
}

impl Case {
    fn name(self) -> &'static str {
        match self {
            Case::Normal => "normal",
            Case::HeavyTailed => "heavy-tailed t(3)",
            Case::Correlated => "correlated learners (0.9)",
            Case::Autoregressive => "AR(1) 0.3 across repetitions",
        }
    }

    /// The differences a - b of one run, with mean difference `shift` (in units of SPREAD).
    fn differences(self, generator: &mut ChaCha8Rng, shift: f64) -> Vec<f64> {
        let mut previous = 0.0;
        (0..MAX)
            .map(|_| {
                let noise = |g: &mut ChaCha8Rng| -> f64 { g.sample(StandardNormal) };
                let (a, b) = match self {
                    Case::Normal | Case::Autoregressive => (noise(generator), noise(generator)),
                    Case::HeavyTailed => {
                        let t3 = StudentT::new(3.0).expect("3 degrees of freedom");
                        let scale = 1.0 / 3.0f64.sqrt();
                        (generator.sample(t3) * scale, generator.sample(t3) * scale)
                    }
                    Case::Correlated => {
                        let shared = noise(generator) * 0.9f64.sqrt();
                        let own = 0.1f64.sqrt();
                        (
                            shared + own * noise(generator),
                            shared + own * noise(generator),
                        )
                    }
                };
                let mut difference = (a - b) * SPREAD;
                if let Case::Autoregressive = self {
                    difference += 0.3 * previous;
                    previous = difference;
                }
                (0.8 + shift * SPREAD + difference).clamp(-1.0, 1.0) - 0.8
            })
            .collect()
    }
}

/// What one run gave under each rule: (decision, repetitions used).
struct Outcome {
    e_value: (Decision, usize),
    sequence: (Decision, usize),
    naive: (bool, usize),
    fixed: bool,
}

fn settings(rule: SequentialRule) -> SequentialSettings {
    SequentialSettings {
        rule,
        alpha: ALPHA,
        min_repetitions: 3,
        max_repetitions: MAX,
    }
}

fn run(differences: &[f64], delta_min: f64) -> Outcome {
    let decide = |rule| {
        let decided = sequential_decision(differences, &settings(rule)).expect("valid settings");
        (decided.decision, decided.repetitions)
    };
    let zeros = vec![0.0; differences.len()];
    let p = |n: usize| {
        paired_t_test(&differences[..n], &zeros[..n], ALPHA)
            .map(|r| r.pvalue)
            .unwrap_or(1.0)
    };
    let naive = (3..=MAX).find(|&n| p(n) < ALPHA);
    Outcome {
        e_value: decide(SequentialRule::EValue { delta_min }),
        sequence: decide(SequentialRule::ConfidenceSequence {
            rope: 0.0,
            range: (-1.0, 1.0),
            stitching: StitchingOptions::default(),
        }),
        naive: (naive.is_some(), naive.unwrap_or(MAX)),
        fixed: p(MAX) < ALPHA,
    }
}

/// The rate of `hits` in RUNS and its Monte Carlo standard error, as "0.0123 (0.0017)".
fn rate(hits: usize) -> String {
    let p = hits as f64 / RUNS as f64;
    format!("{p:.4} ({:.4})", (p * (1.0 - p) / RUNS as f64).sqrt())
}

fn outcomes(case: Case, shift: f64, delta_min: f64, stream: u64) -> Vec<Outcome> {
    (0..RUNS)
        .map(|index| {
            let mut generator = ChaCha8Rng::seed_from_u64(SEED + stream * 1_000_000 + index as u64);
            run(&case.differences(&mut generator, shift), delta_min)
        })
        .collect()
}

fn null_table() {
    println!(
        "### Under the null ({RUNS} runs per case, at most {MAX} repetitions, alpha = {ALPHA})\n"
    );
    println!("Rate of false decisions (Monte Carlo standard error):\n");
    println!(
        "| case | e-value, delta_min 0.5 | e-value, delta_min 1 | confidence sequence | \
         t-test stopped at first p < alpha | fixed t-test at {MAX} |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    let cases = [
        Case::Normal,
        Case::HeavyTailed,
        Case::Correlated,
        Case::Autoregressive,
    ];
    for (stream, case) in cases.into_iter().enumerate() {
        let half = outcomes(case, 0.0, 0.5, stream as u64);
        let one = outcomes(case, 0.0, 1.0, stream as u64);
        let count = |o: &[Outcome], f: &dyn Fn(&Outcome) -> bool| o.iter().filter(|x| f(x)).count();
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            case.name(),
            rate(count(&half, &|o| o.e_value.0 != Decision::Undecided)),
            rate(count(&one, &|o| o.e_value.0 != Decision::Undecided)),
            rate(count(&half, &|o| o.sequence.0 != Decision::Undecided)),
            rate(count(&half, &|o| o.naive.0)),
            rate(count(&half, &|o| o.fixed)),
        );
    }
}

fn alternatives_table() {
    println!("\n### Under alternatives ({RUNS} normal runs each, at most {MAX} repetitions)\n");
    println!(
        "Mean repetitions used (fixed design: {MAX}) and the share decided for the better \
         learner:\n"
    );
    println!(
        "| true mean difference / sd of a difference | e-value, delta_min 0.5 | e-value, \
         delta_min 1 | confidence sequence | fixed t-test at {MAX}: share significant |"
    );
    println!("| --- | --- | --- | --- | --- |");
    // A difference's sd is SPREAD sqrt(2): shift s in SPREAD units is s / sqrt 2 standardised.
    for (stream, effect) in [0.25f64, 0.5, 1.0, 2.0].into_iter().enumerate() {
        let shift = effect * 2.0f64.sqrt();
        let stream = 100 + stream as u64;
        let half = outcomes(Case::Normal, shift, 0.5, stream);
        let one = outcomes(Case::Normal, shift, 1.0, stream);
        let summary = |o: &[Outcome], pick: &dyn Fn(&Outcome) -> (Decision, usize)| {
            let used: usize = o.iter().map(|x| pick(x).1).sum();
            let right = o.iter().filter(|x| pick(x).0 == Decision::ABetter).count();
            format!(
                "{:.1}; {:.3}",
                used as f64 / RUNS as f64,
                right as f64 / RUNS as f64
            )
        };
        let fixed = one.iter().filter(|o| o.fixed).count() as f64 / RUNS as f64;
        println!(
            "| {effect} | {} | {} | {} | {fixed:.3} |",
            summary(&half, &|o| o.e_value),
            summary(&one, &|o| o.e_value),
            summary(&half, &|o| o.sequence),
        );
    }
}

fn main() {
    null_table();
    alternatives_table();
}
