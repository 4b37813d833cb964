//! The names of a config's datasets: each must be distinct, in tables and as a file name. The
//! same file (or shipped name) listed twice with different settings (column types, missing
//! markers, transforms) runs as two datasets, each named after its entry unless the entry gives
//! a `label`; listed twice alike, or two labels alike, is refused.

use crate::plan::units::DatasetRequest;

/// Gives every request a distinct name: a name shared by requests with different settings and
/// no label becomes `<name>-entry<N>` (N its position in the config's `datasets`), with a note
/// saying so; requests alike, labels alike, an empty label, and two names that are one file
/// name are added to `problems`.
pub fn distinct_names(requests: &mut [DatasetRequest], problems: &mut Vec<String>) {
    for request in requests.iter() {
        if request.labelled && request.name.trim().is_empty() {
            problems.push(format!(
                "key 'datasets' entry {}: 'label' must be a non-empty name",
                request.entry
            ));
        }
    }
    let mut renamed = Vec::new();
    for (position, request) in requests.iter().enumerate() {
        let earlier = requests[..position]
            .iter()
            .find(|other| other.name == request.name);
        let Some(other) = earlier else { continue };
        if let Some(problem) = shared_name_problem(other, request) {
            problems.push(problem);
            continue;
        }
        for index in [position]
            .into_iter()
            .chain((0..position).filter(|&i| requests[i].name == request.name))
        {
            if !renamed.contains(&index) {
                renamed.push(index);
            }
        }
    }
    for &index in &renamed {
        let request = &mut requests[index];
        let name = format!("{}-entry{}", request.name, request.entry);
        request.notes.push(format!(
            "named after its entry ({}) in 'datasets': '{}' is listed there more than once \
             with different settings (`label = \"...\"` names an entry)",
            request.entry, request.name
        ));
        request.name = name;
    }
    same_file_names(requests, problems);
}

/// Why two requests of one name cannot both run under distinct names, if they cannot: they are
/// alike (the same data twice), or the name is a label given twice.
fn shared_name_problem(first: &DatasetRequest, second: &DatasetRequest) -> Option<String> {
    let name = &second.name;
    let (a, b) = (first.entry, second.entry);
    let entries = if a == b {
        format!("entry {a}")
    } else {
        format!("entries {a} and {b}")
    };
    if first.source == second.source
        && first.transforms == second.transforms
        && first.options == second.options
    {
        return Some(format!(
            "key 'datasets': '{name}' appears twice with the same settings ({entries}); list \
             each dataset once (a copy would count twice in the tests across datasets)"
        ));
    }
    (first.labelled || second.labelled).then(|| {
        format!(
            "key 'datasets': the name '{name}' is used twice ({entries}); give each entry a \
             distinct `label`"
        )
    })
}

/// Two names that become one file name (`a b` and `a_b`) would share their figures and cache
/// folder: added to `problems`.
fn same_file_names(requests: &[DatasetRequest], problems: &mut Vec<String>) {
    for (position, request) in requests.iter().enumerate() {
        let safe = file_safe(&request.name);
        if let Some(other) = requests[..position]
            .iter()
            .find(|other| other.name != request.name && file_safe(&other.name) == safe)
        {
            problems.push(format!(
                "key 'datasets': the names '{}' (entry {}) and '{}' (entry {}) are one file \
                 name ('{safe}'); give one of them a `label` of letters, digits, '-', '_' or '.'",
                other.name, other.entry, request.name, request.entry
            ));
        }
    }
}

/// Makes a name safe as one path component (letters, digits, `-`, `_`, `.`; others become `_`).
pub fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.starts_with('.') {
        format!("_{safe}")
    } else {
        safe
    }
}
