//! The config reader under generated malformed input: shipped configs with characters and
//! lines deleted, duplicated, swapped or replaced, and arbitrary text. The reader and the whole
//! check (datasets, learners, protocol, analyses) must answer with an error, never panic.
//!
//! `cargo test` tries a few hundred inputs; a long run sets the number:
//! `ENGINE_FUZZ_CASES=20000 cargo test --release -p engine --test fuzz_config`
//! (docs/fuzzing.md records the long runs). Inputs that once failed go to
//! tests/data/config-regressions/ and are read by `regressions_do_not_panic`.

use engine::Engine;
use proptest::prelude::*;

/// A small shipped-style config whose datasets load in milliseconds.
const SEED_CONFIG: &str = r#"
name = "fuzz"
seed = 7
datasets = ["sonar", { name = "glass", subsample = 60, two_most_confused = true }]
measures = ["error", "auc", "brier"]
tests = ["paired_t", "wilcoxon"]
alpha = 0.05
[transforms]
positive_class = "minority"
[protocol]
kind = "stratified_kfold"
folds = 3
[[learners]]
kind = "c45"
confidence = 0.2
[[learners]]
name = "knn"
kind = "knn"
candidates = [1, 3, 5]
[[learners]]
kind = "bagging"
iterations = 2
base = { kind = "naive_bayes" }
"#;

fn cases() -> u32 {
    std::env::var("ENGINE_FUZZ_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(200)
}

/// One edit of a config's text.
#[derive(Clone, Debug)]
enum Edit {
    DeleteChar(usize),
    InsertChar(usize, char),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    ReplaceLine(usize, String),
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for edit in edits {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let count = lines.len().max(1);
        match edit {
            Edit::DeleteChar(at) | Edit::InsertChar(at, _) => {
                let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
                if boundaries.is_empty() {
                    continue;
                }
                let at = boundaries[at % boundaries.len()];
                match edit {
                    Edit::DeleteChar(_) => {
                        text.remove(at);
                    }
                    Edit::InsertChar(_, c) => text.insert(at, *c),
                    _ => unreachable!(),
                }
                continue;
            }
            Edit::DeleteLine(at) if !lines.is_empty() => {
                lines.remove(at % count);
            }
            Edit::DuplicateLine(at) if !lines.is_empty() => {
                let line = lines[at % count].clone();
                lines.insert(at % count, line);
            }
            Edit::SwapLines(a, b) if !lines.is_empty() => lines.swap(a % count, b % count),
            Edit::ReplaceLine(at, line) if !lines.is_empty() => lines[at % count] = line.clone(),
            _ => {}
        }
        text = lines.join("\n");
    }
    text
}

fn edit() -> impl Strategy<Value = Edit> {
    let odd_char = prop_oneof![
        any::<char>(),
        Just('"'),
        Just('['),
        Just(']'),
        Just('='),
        Just('{'),
        Just('}'),
        Just(','),
        Just('0'),
        Just('-'),
        Just('\n'),
    ];
    let line = prop_oneof![
        "[a-z_]{1,12} = [-0-9.e]{1,8}",
        "[a-z_]{1,12} = \"[a-z_./]{0,12}\"",
        "\\[\\[?[a-z_]{1,10}\\]\\]?",
        "folds = -?[0-9]{1,20}",
        "repetitions = [0-9]{1,12}",
        "kind = \"[a-z_]{1,14}\"",
        ".{0,30}",
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::DeleteChar),
        (any::<usize>(), odd_char).prop_map(|(at, c)| Edit::InsertChar(at, c)),
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (any::<usize>(), line).prop_map(|(at, line)| Edit::ReplaceLine(at, line)),
    ]
}

fn engine() -> Engine {
    let mut engine = Engine::new().with_threads(1);
    // Keep every accepted plan small, so that a mutated config cannot ask for hours of work.
    engine.limits.units = 2_000;
    engine.limits.split_bytes = 64 << 20;
    engine
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn edited_configs_are_refused_or_accepted_never_a_panic(
        edits in proptest::collection::vec(edit(), 1..6)
    ) {
        let text = apply(SEED_CONFIG, &edits);
        let _ = engine().check_text(&text, "fuzz.toml");
    }

    #[test]
    fn arbitrary_text_is_refused_never_a_panic(text in ".{0,400}") {
        let _ = engine().check_text(&text, "fuzz.toml");
    }
}

#[test]
fn the_seed_config_itself_is_valid() {
    engine().check_text(SEED_CONFIG, "fuzz.toml").unwrap();
}

#[test]
fn regressions_do_not_panic() {
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/config-regressions");
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return;
    };
    for entry in entries.flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let _ = engine().check_text(&text, &entry.path().display().to_string());
    }
}
