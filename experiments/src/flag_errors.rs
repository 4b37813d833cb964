//! The argument parser's refusal of a number flag's value that is not a whole number of its type
//! (`-1`, `2.5`, `abc`, or beyond 2^64), told with what the flag allows: its help sentence,
//! which states the flag's range (issue 28). Clap alone says "invalid digit found in string" or
//! "number too large to fit in target type".

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::Command;

/// `error` with the allowed values of its flag, when it is a number flag's unparsable value;
/// otherwise `error` as it is. `command` is the whole program's command and `args` its
/// arguments, which say which subcommand's flag it was.
pub fn with_allowed(error: clap::Error, command: &Command, args: &[String]) -> clap::Error {
    if !matches!(
        error.kind(),
        ErrorKind::ValueValidation | ErrorKind::InvalidValue
    ) {
        return error;
    }
    let Some(parse) = std::error::Error::source(&error)
        .and_then(|source| source.downcast_ref::<std::num::ParseIntError>())
    else {
        return error;
    };
    let text = |kind: ContextKind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.clone()),
        _ => None,
    };
    let (Some(flag), Some(value)) = (
        text(ContextKind::InvalidArg),
        text(ContextKind::InvalidValue),
    ) else {
        return error;
    };
    let long = flag.split_whitespace().next().unwrap_or(&flag).to_string();
    let Some(help) = help_of(command, args, long.trim_start_matches('-')) else {
        return error;
    };
    let problem = match parse.kind() {
        std::num::IntErrorKind::PosOverflow => "is too large",
        _ => "is not a whole number",
    };
    // A help sentence without a range is of a count or a seed: any whole number from 0.
    let range = if help.chars().any(|c| c.is_ascii_digit()) {
        ""
    } else {
        " (a whole number, at least 0)"
    };
    let message = format!(
        "invalid value '{value}' for '{flag}': '{value}' {problem}; {long}: {}{range}\n\n\
         For more information, try '--help'.\n",
        help.trim_end_matches('.')
    );
    clap::Error::raw(ErrorKind::ValueValidation, message)
}

/// The help sentence of flag `--long` of the subcommand `args` name (or of the program).
fn help_of(command: &Command, args: &[String], long: &str) -> Option<String> {
    let mut current = command;
    for arg in args.iter().skip(1) {
        if let Some(sub) = current.find_subcommand(arg) {
            current = sub;
        }
    }
    let flag = current
        .get_arguments()
        .find(|candidate| candidate.get_long() == Some(long))?;
    let help = flag.get_long_help().or_else(|| flag.get_help())?;
    Some(
        help.to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}
