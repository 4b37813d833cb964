//! The summary screen atop a run's `index.html`, as data picked from the report's sections:
//! the leaderboard ([`crate::report::leaderboard_section`]'s table), the verdict and the figure
//! of the first headline in page order that speaks of the run as a whole (a paper's) or of the
//! leaderboard's measure (the `across_datasets` analysis's, with its CD diagram), else the
//! leaderboard's own verdict and the heat map; and a paper's table beside ours when its
//! headline names one.

use report::Table;

use crate::report::leaderboard_section::STEM;
use crate::report::section::{Figure, Headline, Section};

/// What the summary screen shows.
#[derive(Clone, Copy, Debug)]
pub struct Summary<'a> {
    /// One sentence of the verdict.
    pub verdict: &'a str,
    /// The leaderboard.
    pub leaderboard: &'a Table,
    /// The table beside it (a paper's numbers beside ours), if a headline names one.
    pub side_table: Option<&'a Table>,
    /// The figure that carries the result.
    pub figure: Option<&'a Figure>,
}

/// The summary of a report's sections, or `None` when none has a leaderboard (a run without
/// datasets, or with no dataset where every learner has a result).
pub fn summary(sections: &[Section]) -> Option<Summary<'_>> {
    let own = sections
        .iter()
        .find(|s| s.tables.iter().any(|t| t.file.as_deref() == Some(STEM)))?;
    let leaderboard = &own
        .tables
        .iter()
        .find(|t| t.file.as_deref() == Some(STEM))?
        .table;
    let own_headline = own.headline.as_ref()?;
    let measure = own_headline.measure.as_deref();
    let offered = |section: &&Section| {
        !std::ptr::eq(*section, own)
            && section
                .headline
                .as_ref()
                .is_some_and(|h| h.measure.is_none() || h.measure.as_deref() == measure)
    };
    let chosen = sections.iter().find(offered).unwrap_or(own);
    let headline: &Headline = chosen.headline.as_ref().unwrap_or(own_headline);
    let chosen_figure = figure(chosen, headline);
    let side_table = headline.table.as_ref();
    Some(Summary {
        verdict: &headline.verdict,
        leaderboard,
        side_table,
        figure: chosen_figure.or_else(|| figure(own, own_headline)),
    })
}

/// The figure a headline names in its section.
fn figure<'a>(section: &'a Section, headline: &Headline) -> Option<&'a Figure> {
    headline.figure.and_then(|i| section.figures.get(i))
}
