//! What `experiments slurm` writes into a job script is checked first ([`check_directives`],
//! [`check_text`]): a value that is not what sbatch expects, or that holds a line break or
//! another control character, is refused with the flag and what is allowed, so that nothing a
//! user types becomes a line of the script (paths in shell lines are also quoted).

/// A value that cannot go into a job script.
#[derive(Debug, thiserror::Error)]
#[error("{flag} '{value}' is not allowed: {allowed}")]
pub struct JobError {
    /// The flag (or what the value is).
    pub flag: String,
    /// The value, with control characters escaped.
    pub value: String,
    /// What is allowed.
    pub allowed: &'static str,
}

fn refuse(flag: &str, value: &str, allowed: &'static str) -> JobError {
    JobError {
        flag: flag.to_string(),
        value: value.escape_debug().to_string(),
        allowed,
    }
}

/// Digits only, at least one.
fn digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

/// A Slurm partition list: names of letters, digits, `_`, `-` and `.`, separated by commas.
fn partition_ok(text: &str) -> bool {
    let name = |part: &str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || b"_-.".contains(&byte))
    };
    text.split(',').all(name)
}

/// A Slurm time limit: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S`, or `UNLIMITED` /
/// `INFINITE`.
fn time_ok(text: &str) -> bool {
    if ["unlimited", "infinite"].contains(&text.to_ascii_lowercase().as_str()) {
        return true;
    }
    let (days, clock) = match text.split_once('-') {
        Some((days, clock)) => (Some(days), clock),
        None => (None, text),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    days.is_none_or(digits) && parts.len() <= 3 && parts.iter().all(|part| digits(part))
}

/// A Slurm memory size: a whole number, optionally followed by K, M, G or T.
fn mem_ok(text: &str) -> bool {
    let number = text.strip_suffix(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't']);
    digits(number.unwrap_or(text))
}

/// Checks `--partition`, `--time` and `--mem` before they become `#SBATCH` lines.
pub fn check_directives(
    partition: Option<&str>,
    time: Option<&str>,
    mem: Option<&str>,
) -> Result<(), JobError> {
    type Rule = (&'static str, fn(&str) -> bool, &'static str);
    let rules: [(Option<&str>, Rule); 3] = [
        (
            partition,
            (
                "--partition",
                partition_ok,
                "partition names of letters, digits, '_', '-' and '.', separated by commas",
            ),
        ),
        (
            time,
            (
                "--time",
                time_ok,
                "a Slurm time: MINUTES, M:S, H:M:S, DAYS-H, D-H:M, D-H:M:S or UNLIMITED",
            ),
        ),
        (
            mem,
            (
                "--mem",
                mem_ok,
                "a whole number of megabytes, or one with the unit K, M, G or T (e.g. 4G)",
            ),
        ),
    ];
    for (value, (flag, ok, allowed)) in rules {
        if let Some(value) = value.filter(|value| !ok(value)) {
            return Err(refuse(flag, value, allowed));
        }
    }
    Ok(())
}

/// Checks a name or path written into a script (a comment, a directive, a shell line): no
/// line break or other control character.
pub fn check_text(what: &str, text: &str) -> Result<(), JobError> {
    if text.chars().any(char::is_control) {
        return Err(refuse(
            what,
            text,
            "no line break, tab or other control character (it would end a line of the job \
             script)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_values_are_recognised() {
        for time in [
            "30",
            "30:00",
            "2:00:00",
            "1-0",
            "1-12:00",
            "2-00:00:00",
            "UNLIMITED",
        ] {
            assert!(time_ok(time), "{time}");
        }
        for time in [
            "",
            "2h",
            "1:2:3:4",
            "1-",
            "-1",
            "1:00\n#SBATCH --x",
            "1 day",
        ] {
            assert!(!time_ok(time), "{time}");
        }
        for mem in ["4000", "4G", "512m", "0"] {
            assert!(mem_ok(mem), "{mem}");
        }
        for mem in ["", "G", "4GB", "-1", "4 G", "1.5G"] {
            assert!(!mem_ok(mem), "{mem}");
        }
        assert!(partition_ok("gpu,long-2.a_b"));
        for partition in ["", "a,", "gpu\n#SBATCH --wrap=rm", "a b", "a;b"] {
            assert!(!partition_ok(partition), "{partition}");
        }
    }
}
