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
    one_file_twice(requests, problems);
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
    if alike(first, second) {
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

/// The file a request reads, as one path for every spelling of it (`x`, `./x`, a symbolic
/// link); a shipped name as given.
fn canonical(source: &str) -> std::path::PathBuf {
    let path = std::path::Path::new(source);
    match path.is_file() {
        true => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        false => path.to_path_buf(),
    }
}

/// True when two requests read one file (by its canonical path) with the same settings.
fn alike(first: &DatasetRequest, second: &DatasetRequest) -> bool {
    (first.source == second.source || canonical(&first.source) == canonical(&second.source))
        && first.transforms == second.transforms
        && first.options == second.options
}

/// Two requests of different names that read one file with the same settings (`x.csv` and a
/// link to it, unlabelled, or labelled apart): added to `problems`.
fn one_file_twice(requests: &[DatasetRequest], problems: &mut Vec<String>) {
    for (position, request) in requests.iter().enumerate() {
        let earlier = requests[..position]
            .iter()
            .find(|other| other.name != request.name && alike(other, request));
        if let Some(other) = earlier {
            problems.push(format!(
                "key 'datasets': entries {} ('{}') and {} ('{}') are one file ({}) with the \
                 same settings; list it once (a copy would count twice in the tests across \
                 datasets)",
                other.entry,
                data::shown(&other.source),
                request.entry,
                data::shown(&request.source),
                canonical(&request.source).display()
            ));
        }
    }
}

/// Two prepared datasets holding the same data (one file's copies, by their content hash after
/// the transforms): each a problem naming both, as a copy would count twice in the tests
/// across datasets.
pub fn same_content(datasets: &[crate::plan::units::PreparedDataset]) -> Vec<String> {
    let mut problems = Vec::new();
    for (position, dataset) in datasets.iter().enumerate() {
        let earlier = datasets[..position]
            .iter()
            .find(|other| other.content_hash == dataset.content_hash);
        if let Some(other) = earlier {
            problems.push(format!(
                "key 'datasets': '{}' and '{}' hold the same data (the same content after \
                 their transforms, content hash {}); list it once (a copy would count twice in \
                 the tests across datasets)",
                other.name,
                dataset.name,
                &dataset.content_hash[..dataset.content_hash.len().min(16)]
            ));
        }
    }
    problems
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
