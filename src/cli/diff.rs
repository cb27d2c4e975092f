//! `tailor diff CONFIG [FILE|DIR|-]... [--cluster NAME] [--shard K/N]`: a unified diff from
//! the input files to what each destination gets, the preview Fleet, Flux and KubeStellar
//! users cannot have without a live cluster. A destination that gets nothing (doNotDeploy)
//! shows every file removed. With `--base BASE` it reviews a change instead: both versions
//! rendered and compared per destination (`crate::review`).

use std::collections::{BTreeMap, BTreeSet};

use similar::TextDiff;

use super::args::{self, Output};
use super::standalone::{render, report_all};
use super::{emit, stdout, usage_error};
use crate::review::{self, Options};
use tailor_kio::{files, KrmResult, Resource};

pub(crate) fn run(argv: &[String]) -> i32 {
    let (review, argv) = match review::split_options(argv) {
        Ok(split) => split,
        Err(msg) => {
            let code = usage_error(&format!("diff: {msg}"));
            return if argv.iter().any(|a| a == "--exit-code") {
                1
            } else {
                code
            };
        }
    };
    if let Some(options) = review {
        return run_review(&options, &argv);
    }
    let args = match args::parse(&argv) {
        Ok(a) => a,
        Err(msg) => return usage_error(&format!("diff: {msg}")),
    };
    if args.output != Output::Stream || args.explain {
        return usage_error(
            "diff writes a diff: --output, --output-dir and --explain do not apply (tailor diff CONFIG [FILE|DIR|-]... [--cluster NAME] [--shard K/N])",
        );
    }
    let rendered = match render(&args, true) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let outcome = rendered.outcome;
    if outcome.failed {
        return 1;
    }
    let originals = rendered.originals.unwrap_or_default();
    match diff(
        &originals,
        &outcome.items,
        &outcome.destinations,
        outcome.fanned_out,
    ) {
        Ok(text) => emit(&text),
        Err(msg) => {
            report_all(&[KrmResult::error(msg)]);
            1
        }
    }
}

/// `tailor diff --base BASE ...`: the review of a change, written in the format asked for.
/// With `--exit-code` every failure, a bad command line included, exits 1.
fn run_review(options: &Options, argv: &[String]) -> i32 {
    let failed = |code: i32| if options.exit_code { 1 } else { code };
    let args = match args::parse(argv) {
        Ok(a) => a,
        Err(msg) => return failed(usage_error(&format!("diff: {msg}"))),
    };
    if args.output != Output::Stream || args.explain {
        return failed(usage_error(
            "diff --base writes a review: --output, --output-dir and --explain do not apply",
        ));
    }
    let mut render_side = |config: &str, inputs: &[String]| -> Result<review::Rendered, i32> {
        let side = args::Args {
            config: config.to_string(),
            inputs: inputs.to_vec(),
            ..args.clone()
        };
        let outcome = render(&side, false)?.outcome;
        Ok((!outcome.failed).then_some((outcome.destinations, outcome.fanned_out, outcome.items)))
    };
    match review::review(options, &args.config, &args.inputs, &mut render_side) {
        Err(code) => failed(code),
        Ok(Err(msg)) => {
            report_all(&[KrmResult::error(msg)]);
            1
        }
        Ok(Ok(reviewed)) => {
            let color = options.format == review::Format::Text && stdout_is_colour_terminal();
            let text = review::write(&reviewed, options.format, color);
            stdout::emit(&text, review::exit_code(options, &reviewed))
        }
    }
}

/// Colour only on a terminal, and not when `NO_COLOR` is set (no-color.org).
fn stdout_is_colour_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The diff of every destination's files against the input's. In a fan-out each copy lives
/// under `<cluster>/`; the Kptfile and local-config objects, kept once, are not a
/// destination's.
fn diff(
    originals: &[Resource],
    tailored: &[Resource],
    destinations: &[String],
    fanned_out: bool,
) -> Result<String, String> {
    let base_items: Vec<Resource> = originals
        .iter()
        .filter(|r| !(fanned_out && r.is_meta_or_local()))
        .cloned()
        .collect();
    let base = files::output_files(&base_items)?;
    let mut out = String::new();
    if !fanned_out {
        let after = files::output_files(tailored)?;
        push_diffs(&mut out, &base, &after, "");
        return Ok(out);
    }
    for name in destinations {
        let mine: Vec<Resource> = tailored
            .iter()
            .filter(|r| r.cluster() == Some(name.as_str()))
            .cloned()
            .collect();
        let prefix = format!("{name}/");
        let after: BTreeMap<String, String> = files::output_files(&mine)?
            .into_iter()
            .map(|(path, text)| {
                (
                    path.strip_prefix(&prefix).unwrap_or(&path).to_string(),
                    text,
                )
            })
            .collect();
        push_diffs(&mut out, &base, &after, &prefix);
    }
    Ok(out)
}

/// `git diff`-style unified diffs of the files that differ, in path order.
fn push_diffs(
    out: &mut String,
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
    prefix: &str,
) {
    let paths: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for path in paths {
        let old = before.get(path).map_or("", String::as_str);
        let new = after.get(path).map_or("", String::as_str);
        if old == new {
            continue;
        }
        let a = if before.contains_key(path) {
            format!("a/{path}")
        } else {
            "/dev/null".into()
        };
        let b = if after.contains_key(path) {
            format!("b/{prefix}{path}")
        } else {
            "/dev/null".into()
        };
        out.push_str(&format!("diff --tailor a/{path} b/{prefix}{path}\n"));
        let text = TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(3)
            .header(&a, &b)
            .to_string();
        out.push_str(&text);
        if !text.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}
