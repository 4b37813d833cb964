//! Bayesian comparisons of two learners (Benavoli et al. 2017: the correlated t-test, the
//! signed-rank test, the hierarchical correlated t-test over data sets) and their sampler.

pub mod bayesian;
pub mod hierarchical;
pub mod mcmc;
