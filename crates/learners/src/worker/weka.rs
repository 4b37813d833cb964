//! The `weka` learner kind: a Weka 3.6 classifier (`classifier = "weka.classifiers.trees.J48"`,
//! `options = "-C 0.25 -M 2"`) served by `workers/weka/WekaWorker.java` through the worker
//! protocol. Sugar over the `worker` kind: the runner compiles the worker
//! ([`crate::worker::weka_build`]) and starts `java -cp CLASSES:weka.jar WekaWorker`; the
//! worker checks the class and its options with Weka itself at the handshake, so `--check`
//! refuses them with Weka's own message. Its identity (Weka's and Java's versions, the class,
//! the options, the sources' sha256) is in every unit's cache key.

use std::path::PathBuf;

use crate::params::{ParamError, Params};
use crate::spec::{Capabilities, LearnerSpec, ParameterSpec};
use crate::worker::kinds::{beside_config, launch, timeouts};
use crate::worker::learner::WorkerLearner;
use crate::worker::weka_build;

/// Revision of the `weka` kind's runner side (the worker's own code is in its identity).
const WEKA_REVISION: u32 = 1;

/// Where Weka's jar is looked for when neither the `jar` key nor `WEKA_JAR` says.
pub const DEFAULT_JAR: &str = "/usr/share/java/weka.jar";

/// The `weka` learner kind: parameters, capabilities, revision and constructor.
pub fn weka_spec() -> LearnerSpec {
    let mut parameters = vec![
        ParameterSpec::required_text(
            "classifier",
            "the Weka classifier's class, e.g. \"weka.classifiers.trees.J48\"",
        ),
        ParameterSpec::text(
            "options",
            "",
            "the classifier's options as on Weka's command line, e.g. \"-C 0.25 -M 2\" (Weka's defaults when empty); a learner's seed is its own option (-S), as in Weka",
        ),
        ParameterSpec::text(
            "jar",
            DEFAULT_JAR,
            "Weka 3.6's weka.jar: this path when given, else the WEKA_JAR environment variable when set, else /usr/share/java/weka.jar (Debian's weka package)",
        ),
        ParameterSpec::text(
            "java",
            "java",
            "the Java runtime (a name on PATH, or a path); the JDK's javac beside it compiles the worker on first use",
        ),
    ];
    parameters.extend(timeouts());
    LearnerSpec {
        kind: "weka",
        description: "a Weka 3.6 classifier (J48, NaiveBayes, IBk, JRip, Logistic, ...) served by a persistent Java worker (workers/weka/)",
        revision: WEKA_REVISION,
        parameters,
        capabilities: Capabilities::ALL,
        build: |params| build_weka(&params),
    }
}

/// The jar to use: the `jar` key when given, else `WEKA_JAR`, else [`DEFAULT_JAR`].
fn jar_path(params: &Params) -> Result<PathBuf, ParamError> {
    if params.is_given("jar") {
        let jar = params.text("jar")?.unwrap_or_default();
        return Ok(beside_config(params.base_dir(), &jar));
    }
    Ok(std::env::var_os("WEKA_JAR").map_or_else(|| PathBuf::from(DEFAULT_JAR), PathBuf::from))
}

/// True for a dotted Java class name (`weka.classifiers.trees.J48`).
fn is_class_name(text: &str) -> bool {
    !text.is_empty()
        && text.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                && part
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        })
}

fn build_weka(params: &Params) -> Result<Box<dyn crate::Learner>, ParamError> {
    let classifier = params.text("classifier")?.unwrap_or_default();
    if !is_class_name(&classifier) {
        return Err(params.invalid(
            "classifier",
            format!("\"{classifier}\""),
            "a Java class name, e.g. \"weka.classifiers.trees.J48\"",
        ));
    }
    let options = params.text("options")?.unwrap_or_default();
    let java = params.text("java")?.unwrap_or_else(|| "java".into());
    let java = if java.contains(std::path::MAIN_SEPARATOR) {
        beside_config(params.base_dir(), &java)
            .display()
            .to_string()
    } else {
        java
    };
    let jar = jar_path(params)?;
    if !jar.is_file() {
        return Err(params.unusable(
            "jar",
            format!("\"{}\"", jar.display()),
            "no such file: Weka 3.6 is not installed there; install Debian's weka package \
             (apt-get install weka), or give Weka's jar in the jar key or the WEKA_JAR \
             environment variable",
        ));
    }
    let (files, hash) = weka_build::sources(&weka_build::source_dir())
        .map_err(|problem| params.invalid("classifier", format!("\"{classifier}\""), problem))?;
    let classes = weka_build::compiled(&java, &jar, &files, &hash)
        .map_err(|problem| params.unusable("java", format!("\"{java}\""), problem))?;
    let hello = serde_json::json!({
        "classifier": classifier,
        "options": options,
        "source_sha256": hash,
    })
    .to_string();
    let class_path = std::env::join_paths([classes, jar.clone()]).map_err(|error| {
        params.invalid("jar", format!("\"{}\"", jar.display()), error.to_string())
    })?;
    let args = vec![
        "-cp".into(),
        class_path.to_string_lossy().into_owned(),
        "WekaWorker".into(),
    ];
    let mut launch = launch(params, PathBuf::from(&java), args, Vec::new(), hello)?;
    launch.start_hint = Some(format!(
        "the learner's `java` parameter names the Java runtime, here \"{java}\", and its `jar` \
         Weka's jar, here \"{}\"",
        jar.display()
    ));
    let short = classifier.rsplit('.').next().unwrap_or(&classifier);
    let name = if options.trim().is_empty() {
        format!("weka({short})")
    } else {
        format!("weka({short} {})", options.trim())
    };
    Ok(Box::new(WorkerLearner::new(
        "weka",
        WEKA_REVISION,
        name,
        format!("weka classifier={classifier} options={options:?}"),
        launch,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_names_are_dotted_java_names() {
        assert!(is_class_name("weka.classifiers.trees.J48"));
        assert!(is_class_name("Outer$Inner"));
        for bad in ["", "weka..J48", "1a.B", "weka.trees J48", "a-b"] {
            assert!(!is_class_name(bad), "{bad}");
        }
    }
}
