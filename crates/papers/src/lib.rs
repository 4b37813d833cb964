//! The papers this workspace reproduces, each one [`engine::Analysis`]: Aslan, Yildiz &
//! Alpaydin (2009), Provost, Fawcett & Kohavi (1998), Wu & Flach (2005), and Huang & Ling's
//! consistency and discriminancy. Each paper's published numbers are data files in `data/`
//! beside this crate's sources, read when its report is written.

pub mod aslan;
pub mod aslan_intervals;
pub mod aslan_normality;
pub mod envelope;
pub mod error;
pub mod huang_ling;
pub mod provost;
mod provost_ranges;
pub mod provost_resampling;
pub mod published;
pub mod wu_flach;

use engine::Analyses;

pub use error::{Error, Result};

/// Every paper analysis, by the names configs use in `analyses`.
pub fn analyses() -> Analyses {
    let mut analyses = Analyses::none();
    let papers: [Box<dyn engine::Analysis>; 5] = [
        Box::new(aslan::Agreement),
        Box::new(aslan_intervals::Intervals),
        Box::new(provost::ProvostRoc),
        Box::new(wu_flach::Selection),
        Box::new(huang_ling::HuangLing),
    ];
    for analysis in papers {
        analyses
            .register(analysis)
            .expect("the papers' analyses declare their options validly");
    }
    analyses
}
