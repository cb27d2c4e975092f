//! Command-line entry: the KRM function (no arguments), standalone mode, help and version.
//! Exit codes: 0 success, 1 error results, 2 bad command line.

use std::io::Write;

mod args;
mod completion;
mod diff;
mod dir_sink;
mod durable;
mod fleet_values;
mod flux_source;
mod helm;
mod output_dir;
mod standalone;
pub(crate) mod stdout;
mod stream_sink;
pub mod terminal;
mod tools;

use tailor_kio::write::write_resource_list;
use tailor_kio::KrmResult;

pub const HELP: &str = include_str!("help.txt");

pub fn run() -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            if stdin_is_terminal() {
                say_fixed("tailor: waiting for a ResourceList on stdin; pipe one in (kpt fn source DIR | tailor), or run `tailor CONFIG DIR` (see tailor --help)");
                return 2;
            }
            krm_function()
        }
        Some("--help") | Some("-h") | Some("help") => emit(HELP),
        Some("envsubst") => tools::envsubst(&args[1..]),
        Some("expand") => tools::expand(&args[1..]),
        Some("fleet-values") => fleet_values::run(&args[1..]),
        Some("helm") => helm::run(&args[1..]),
        Some("--version") | Some("-V") | Some("version") => {
            emit(&format!("tailor {}\n", env!("CARGO_PKG_VERSION")))
        }
        Some("completion") => completion::print(args.get(1).map(String::as_str)),
        Some("schema") => schema(args.get(1).map(String::as_str)),
        Some("diff") => diff::run(&args[1..]),
        Some(_) => match args::parse(&args) {
            Ok(parsed) => standalone::run(parsed),
            Err(msg) => usage_error(&msg),
        },
    }
}

/// `tailor schema [KIND]`: the JSON Schema of a functionConfig kind (default `Tailor`), for
/// yaml-language-server and CI validation.
fn schema(kind: Option<&str>) -> i32 {
    let kind = kind.unwrap_or("Tailor");
    match crate::config::schema::for_kind(kind) {
        Some(schema) => {
            let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
            emit(&format!("{text}\n"))
        }
        None => usage_error(&format!(
            "no schema for {kind:?}; kinds: {}",
            crate::config::schema::KINDS.join(", ")
        )),
    }
}

/// One line on stderr, escaped ([`terminal::escape`]): it may hold text from the input. A
/// write error on stderr has nowhere to be reported.
pub(crate) fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", terminal::escape(line));
}

/// tailor's own text on stderr (usage), as it is: a `'static` text holds nothing from the
/// input.
pub(crate) fn say_fixed(text: &'static str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// A bad command line: the message, how to get help, exit code 2.
pub(crate) fn usage_error(msg: &str) -> i32 {
    say(&format!("tailor: {msg}"));
    say_fixed("Run `tailor --help` for usage.");
    2
}

/// Whether stdin is a terminal: nothing is piped in, and reading it would wait silently.
pub(crate) fn stdin_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal()
}

pub(crate) fn read_stdin() -> Result<String, String> {
    tailor_kio::input::read_stdin()
}

/// kpt and kustomize cut stderr short: at most four lines, errors first.
pub(crate) fn report(results: &[KrmResult]) {
    let mut notable: Vec<&KrmResult> = results
        .iter()
        .filter(|r| r.severity != tailor_kio::Severity::Info)
        .collect();
    notable.sort_by_key(|r| !r.is_error());
    if notable.is_empty() {
        return;
    }
    let mut lines: Vec<String> = notable.iter().take(3).map(|r| r.summary_line()).collect();
    if notable.len() > 3 {
        lines.push(format!("... and {} more (see results)", notable.len() - 3));
    }
    for l in lines {
        say(&l);
    }
}

/// Writes `text` to stdout: exit code 0, or the write error's ([`stdout::Stdout::finish`]).
pub(crate) fn emit(text: &str) -> i32 {
    stdout::emit(text, 0)
}

fn krm_function() -> i32 {
    let text = match read_stdin() {
        Ok(t) => t,
        Err(msg) => {
            let r = vec![KrmResult::error(msg)];
            report(&r);
            return stdout::emit(&write_resource_list(&[], None, &r), 1);
        }
    };
    let mut out = stdout::Stdout::new();
    let answer = tailor_kio::run::answer(text, crate::config::parse, &mut out);
    report(&answer.results);
    // The process is about to exit: freeing every tree would only cost time (a quarter of a
    // no-op pass over a large list).
    let code = out.finish(answer.code);
    std::mem::forget(answer);
    code
}
