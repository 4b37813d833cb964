//! The decision on one pair of learners from their per-repetition differences, in repetition
//! order: after each repetition from `min_repetitions` on, the rule is applied to the
//! repetitions so far, and the first decision is final (the later repetitions are not looked
//! at: a runner stops there). The differences are a - b oriented so that a positive one
//! favours learner a (the caller negates a measure where lower is better).

use crate::error::{check_alpha, check_finite, StatsError};
use crate::sequential::confidence_sequence::{
    empirical_bernstein_sequence, SequenceBounds, StitchingOptions,
};
use crate::sequential::safe_t::{check_delta_min, safe_t_log_e_value_from_ratio};

/// The anytime-valid rule a pair is decided by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SequentialRule {
    /// The two-sided safe t-test: decided when e >= 1/alpha, for the learner with the better
    /// mean; never decides equivalence.
    EValue {
        /// The standardised effect size of the alternative (mean / sd of the differences).
        delta_min: f64,
    },
    /// The empirical-Bernstein confidence sequence, intersected over time and with the range
    /// of the differences: decided better when
    /// it excludes the rope on one side, equivalent when it lies inside the rope.
    ConfidenceSequence {
        /// The half-width of the region of practical equivalence (0: test against zero only).
        rope: f64,
        /// The range [low, high] holding every difference (-1, 1 for a measure in [0, 1]).
        range: (f64, f64),
        /// The stitched boundary's options.
        stitching: StitchingOptions,
    },
}

/// The settings of a sequential decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SequentialSettings {
    /// The rule.
    pub rule: SequentialRule,
    /// The error rate, in (0, 1): the e-value threshold is 1 / alpha.
    pub alpha: f64,
    /// No decision before this many repetitions (at least 1; the e-value needs 2).
    pub min_repetitions: usize,
    /// No repetition past this many is looked at.
    pub max_repetitions: usize,
}

/// What was decided about a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Learner a is better.
    ABetter,
    /// Learner b is better.
    BBetter,
    /// The two are equivalent within the rope.
    Equivalent,
    /// Not decided (yet).
    Undecided,
}

impl Decision {
    /// The name written in tables: `a_better`, `b_better`, `equivalent`, `undecided`.
    pub fn name(self) -> &'static str {
        match self {
            Decision::ABetter => "a_better",
            Decision::BBetter => "b_better",
            Decision::Equivalent => "equivalent",
            Decision::Undecided => "undecided",
        }
    }
}

/// The state after one repetition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SequentialStep {
    /// The number of repetitions seen, from 1.
    pub repetitions: usize,
    /// The e-value (the e-value rule from 2 repetitions on).
    pub e_value: Option<f64>,
    /// The confidence sequence, intersected over time and with the range (the
    /// confidence-sequence rule).
    pub bounds: Option<SequenceBounds>,
}

/// The decision on a pair, with the path that led to it.
#[derive(Clone, Debug, PartialEq)]
pub struct PairDecision {
    /// The decision.
    pub decision: Decision,
    /// The repetitions used: where it was decided, else all those looked at.
    pub repetitions: usize,
    /// The e-value or bounds after each repetition used, in order.
    pub path: Vec<SequentialStep>,
}

impl PairDecision {
    /// The e-value at the last repetition used (none for the confidence-sequence rule or before
    /// 2 repetitions).
    pub fn e_value(&self) -> Option<f64> {
        self.path.last().and_then(|step| step.e_value)
    }
}

/// Decides one pair from its per-repetition `differences` (a - b, positive favouring a) in
/// repetition order, looking at most at `max_repetitions` of them.
pub fn sequential_decision(
    differences: &[f64],
    settings: &SequentialSettings,
) -> Result<PairDecision, StatsError> {
    check_settings(settings)?;
    let seen = &differences[..differences.len().min(settings.max_repetitions)];
    check_finite("differences", seen)?;
    let sequence = match settings.rule {
        SequentialRule::ConfidenceSequence {
            range, stitching, ..
        } => Some(empirical_bernstein_sequence(
            seen,
            settings.alpha,
            range,
            stitching,
        )?),
        SequentialRule::EValue { .. } => None,
    };
    let mut path = Vec::with_capacity(seen.len());
    let mut bounds: Option<SequenceBounds> = None;
    let mut moments = Moments::default();
    for n in 1..=seen.len() {
        moments.push(seen[n - 1]);
        let step = match (&settings.rule, &sequence) {
            (SequentialRule::EValue { delta_min }, _) => e_value_step(&moments, *delta_min),
            (SequentialRule::ConfidenceSequence { range, .. }, Some(sequence)) => {
                // The range itself is a (trivial) bound on the mean: the first interval is cut
                // to it.
                let known = bounds.unwrap_or(SequenceBounds {
                    lower: range.0,
                    upper: range.1,
                });
                bounds = Some(intersect(Some(known), sequence[n - 1]));
                SequentialStep {
                    repetitions: n,
                    e_value: None,
                    bounds,
                }
            }
            _ => unreachable!("the confidence sequence is computed for its rule"),
        };
        path.push(step);
        if n >= settings.min_repetitions {
            let decision = decide(&step, &seen[..n], settings);
            if decision != Decision::Undecided {
                return Ok(PairDecision {
                    decision,
                    repetitions: n,
                    path,
                });
            }
        }
    }
    Ok(PairDecision {
        decision: Decision::Undecided,
        repetitions: seen.len(),
        path,
    })
}

/// The running mean and sum of squared deviations of the differences so far (Welford), so
/// that each repetition's e-value costs no pass over the earlier ones.
#[derive(Default)]
struct Moments {
    n: usize,
    mean: f64,
    squares: f64,
}

impl Moments {
    fn push(&mut self, value: f64) {
        self.n += 1;
        let delta = value - self.mean;
        self.mean += delta / self.n as f64;
        self.squares += delta * (value - self.mean);
    }

    /// t^2 / (n - 1 + t^2) of the one-sample t statistic, as n mean^2 / (n mean^2 + SS): 0
    /// when every value is 0, 1 when they are equal but not 0.
    fn t_ratio(&self) -> f64 {
        let numerator = self.n as f64 * self.mean * self.mean;
        if numerator == 0.0 {
            0.0
        } else {
            numerator / (numerator + self.squares)
        }
    }
}

/// The e-value after the repetitions so far (none before 2).
fn e_value_step(moments: &Moments, delta_min: f64) -> SequentialStep {
    let n = moments.n;
    let e_value =
        (n >= 2).then(|| safe_t_log_e_value_from_ratio(moments.t_ratio(), n, delta_min).exp());
    SequentialStep {
        repetitions: n,
        e_value,
        bounds: None,
    }
}

/// The intersection of the running interval with the next one (kept non-empty: an empty
/// intersection, which the sequence's error allows, keeps the next interval's nearest point).
fn intersect(running: Option<SequenceBounds>, next: SequenceBounds) -> SequenceBounds {
    let Some(running) = running else {
        return next;
    };
    let lower = running.lower.max(next.lower);
    let upper = running.upper.min(next.upper);
    if lower <= upper {
        SequenceBounds { lower, upper }
    } else {
        let point = if running.upper < next.lower {
            next.lower
        } else {
            next.upper
        };
        SequenceBounds {
            lower: point,
            upper: point,
        }
    }
}

/// The decision a step allows.
fn decide(step: &SequentialStep, seen: &[f64], settings: &SequentialSettings) -> Decision {
    match settings.rule {
        SequentialRule::EValue { .. } => match step.e_value {
            Some(e) if e >= 1.0 / settings.alpha => {
                if seen.iter().sum::<f64>() > 0.0 {
                    Decision::ABetter
                } else {
                    Decision::BBetter
                }
            }
            _ => Decision::Undecided,
        },
        SequentialRule::ConfidenceSequence { rope, .. } => {
            let Some(bounds) = step.bounds else {
                return Decision::Undecided;
            };
            if bounds.lower > rope {
                Decision::ABetter
            } else if bounds.upper < -rope {
                Decision::BBetter
            } else if rope > 0.0 && bounds.lower >= -rope && bounds.upper <= rope {
                Decision::Equivalent
            } else {
                Decision::Undecided
            }
        }
    }
}

/// Checks the settings' ranges.
fn check_settings(settings: &SequentialSettings) -> Result<(), StatsError> {
    check_alpha(settings.alpha)?;
    if settings.min_repetitions == 0 || settings.min_repetitions > settings.max_repetitions {
        return Err(StatsError::OutOfRange {
            name: "min_repetitions",
            value: settings.min_repetitions as f64,
            allowed: "at least 1 and at most max_repetitions",
        });
    }
    match settings.rule {
        SequentialRule::EValue { delta_min } => check_delta_min(delta_min),
        SequentialRule::ConfidenceSequence { rope, .. } if !(rope >= 0.0 && rope.is_finite()) => {
            Err(StatsError::OutOfRange {
                name: "rope",
                value: rope,
                allowed: "a finite number at least 0",
            })
        }
        SequentialRule::ConfidenceSequence { .. } => Ok(()),
    }
}
