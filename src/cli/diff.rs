//! `tailor diff CONFIG [FILE|DIR|-]... [--cluster NAME] [--shard K/N]`: a unified diff from
//! the input files to what each destination gets, the preview Fleet, Flux and KubeStellar
//! users cannot have without a live cluster. A destination that gets nothing (doNotDeploy)
//! shows every file removed.

use std::collections::{BTreeMap, BTreeSet};

use similar::TextDiff;

use super::args::{self, Output};
use super::standalone::{render, report_all};
use super::{emit, usage_error};
use tailor_kio::{files, KrmResult, Resource};

pub(crate) fn run(argv: &[String]) -> i32 {
    let args = match args::parse(argv) {
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
