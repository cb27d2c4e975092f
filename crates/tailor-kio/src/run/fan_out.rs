//! Tailoring a copy of the items for each of several destinations, on one thread per core.
//!
//! A fan-out must leave a package that works again: the Kptfile, tailor's configuration and
//! local-config objects are not copied (kpt would find no Kptfile at the root, and kustomize
//! drops local-config objects anyway); they stay once, where they were. Every copy carries the
//! `# tailor.dev/cluster: NAME` comment, so a run over the output of an in-place fan-out (a
//! second `kpt fn render`) recognises tailored copies instead of tailoring them again.

use std::collections::{BTreeSet, HashMap, HashSet};

use tailor_cluster::Cluster;

use super::alike::{Alike, Rendering};
use super::{Destinations, Run};
use crate::job::{shared_stages, Job};
use crate::pipeline::{run_all, Destination, Forked, Log, Seed};
use crate::{annotations, KrmResult, Resource};

/// A sink to hand each destination's copies to, with the inputs that come back once (their
/// files must not fall among a destination's).
pub(super) struct Stream<'s> {
    pub sink: &'s mut dyn super::sink::FanOutSink,
    pub returned: Vec<&'s Resource>,
}

/// What to say when sources and tailored copies cannot be kept apart in place.
const KEEP_APART: &str = "tailor the sources into another place: kpt fn source SRC | tailor ... | kpt fn sink OUT, or tailor CONFIG SRC --output-dir OUT";

/// Tailors `work` for each of `clusters`; `None` when it failed (the errors are in `results`).
/// Stages that give every destination the same answer run once, before the copies are made
/// (their warnings then appear once too); the others run per copy, and what they report names
/// the destination.
pub(super) fn tailor_each<'p, J: Job>(
    run: &Run<'p, J>,
    forked: Vec<Forked<'p, J::Options>>,
    work: Vec<Resource>,
    clusters: &Destinations<'_>,
    results: &mut Vec<KrmResult>,
    stream: Stream<'_>,
) -> Option<Vec<Resource>> {
    // Each copy goes under `<cluster>/`: checked before any object is tailored or written.
    if let Err(msg) = crate::safe_paths::check_directory_names(clusters.names()) {
        results.push(KrmResult::error(msg));
        return None;
    }
    if let Some(items) = already_fanned_out(work.as_slice(), clusters, results) {
        return items.then_some(work);
    }
    let kept: Vec<Resource> = work
        .iter()
        .filter(|r| r.is_meta_or_local())
        .cloned()
        .collect();
    let (before, after): (Vec<_>, Vec<_>) = forked
        .into_iter()
        .zip(shared_stages(run.job))
        .partition(|(_, shared)| *shared);
    let mut before: Vec<Forked<'_, J::Options>> = before.into_iter().map(|(s, _)| s).collect();
    let after: Vec<Seed<'_, J::Options>> = after.into_iter().map(|(s, _)| s.seed()).collect();
    let mut work = work;
    let options = run.job.shared_options();
    let mut log = Log::new(results, None);
    run_all(&mut before, &mut work, None, &options, &mut log);
    if results.iter().any(KrmResult::is_error) {
        return None;
    }
    let alike = match Alike::plan(run.job, clusters, &work) {
        Ok(alike) => alike,
        Err(message) => {
            results.push(KrmResult::error(message));
            return None;
        }
    };
    let staying: Vec<&Resource> = kept.iter().chain(stream.returned.iter().copied()).collect();
    let names: Vec<&str> = clusters.names().collect();
    match stream.sink.begin(&names, &staying) {
        Err(message) => {
            results.push(KrmResult::error(message));
            return None;
        }
        Ok(true) => {
            let streamed =
                super::streamed::stream_copies(run, &after, &work, clusters, &alike, stream.sink);
            results.extend(streamed);
            return Some(kept);
        }
        Ok(false) => {}
    }
    let (copies, cluster_results) = copies(run, &after, &work, clusters, &alike);
    results.extend(cluster_results);
    let mut out = kept;
    out.extend(copies);
    Some(out)
}

/// Whether `work` is the output of an earlier fan-out: `Some(true)` when every object is a
/// tailored copy (they pass through as they are, with a warning that the configuration was not
/// applied to them), `Some(false)` when copies and sources are mixed (an error: tailoring again
/// would tailor copies), `None` when there are no copies.
fn already_fanned_out(
    work: &[Resource],
    clusters: &Destinations<'_>,
    results: &mut Vec<KrmResult>,
) -> Option<bool> {
    let objects: Vec<&Resource> = work.iter().filter(|r| !r.is_left_alone()).collect();
    let marked: Vec<&Resource> = objects
        .iter()
        .copied()
        .filter(|r| r.fanned_out_for().is_some())
        .collect();
    let first = marked.first()?;
    if marked.len() < objects.len() {
        let source = objects
            .iter()
            .find(|r| r.fanned_out_for().is_none())
            .map_or_else(String::new, |r| describe(r));
        results.push(KrmResult::error(format!(
            "{} carries the `{}{}` comment of an earlier fan-out but {source} does not: fanning out again in place would tailor copies that are already tailored; {KEEP_APART}",
            describe(first),
            annotations::CLUSTER_MARK,
            first.fanned_out_for().unwrap_or_default(),
        )));
        return Some(false);
    }
    let destinations: BTreeSet<&str> = clusters.names().collect();
    let seen: BTreeSet<&str> = marked.iter().filter_map(|r| r.fanned_out_for()).collect();
    let gone: Vec<&str> = seen.difference(&destinations).copied().collect();
    let mut message = format!(
        "all {} objects are copies an earlier fan-out tailored (the `{}NAME` comment): they pass through unchanged and this configuration is not applied to them; {KEEP_APART}",
        marked.len(),
        annotations::CLUSTER_MARK,
    );
    if !gone.is_empty() {
        message.push_str(&format!(
            " (copies for {} are not a destination any more)",
            gone.iter()
                .map(|c| format!("{c:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    results.push(KrmResult::warning(message));
    Some(true)
}

fn describe(r: &Resource) -> String {
    let id = match r.path() {
        Some(path) => format!("{} in {path}", r.display_id()),
        None => r.display_id(),
    };
    match r.place() {
        Some(place) => format!("{place} ({id})"),
        None => id,
    }
}

/// Tailors a copy of `work` for each destination with `stages`. Destinations are independent,
/// so they are split into contiguous runs, one per available core; the copies and results are
/// joined in destination order, so the output is the same bytes however many threads ran.
/// Each destination's results are its own: one that fails does not hide another's.
fn copies<J: Job>(
    run: &Run<'_, J>,
    stages: &[Seed<'_, J::Options>],
    work: &[Resource],
    clusters: &Destinations<'_>,
    alike: &Alike,
) -> (Vec<Resource>, Vec<KrmResult>) {
    let threads = match crate::env::threads() {
        Ok(n) => n.clamp(1, clusters.len().max(1)),
        Err(e) => return (Vec::new(), vec![KrmResult::error(e)]),
    };
    let (items, results) = tailor_all(run, stages, work, clusters, alike, threads);
    // A thread that could not start or ended outside any destination: no cluster to name.
    let (unnamed, mut named): (Vec<_>, Vec<_>) =
        results.into_iter().partition(|(c, _)| c.is_empty());
    super::budget_stops::report_once(&mut named);
    let mut results = name_clusters(named);
    results.extend(unnamed.into_iter().map(|(_, r)| r));
    (items, results)
}

/// The copies, and each destination's results with its name.
fn tailor_all<'c, J: Job>(
    run: &Run<'_, J>,
    stages: &[Seed<'_, J::Options>],
    work: &[Resource],
    clusters: &Destinations<'c>,
    alike: &Alike,
    threads: usize,
) -> (Vec<Resource>, Vec<(&'c str, KrmResult)>) {
    let per_thread = clusters.len().div_ceil(threads);
    // The destinations `range` of one thread.
    let tailor_chunk = |range: std::ops::Range<usize>| {
        // This thread's workers of the stages (their inputs were checked before the copies).
        let mut forked: Vec<Forked<'_, J::Options>> = stages
            .iter()
            .map(|&seed| Forked::new(seed, &mut Vec::new()))
            .collect();
        let mut out = Vec::with_capacity(work.len() * range.len());
        let mut results = Vec::new();
        let end = range.end;
        for at in range {
            let more = at + 1 < end;
            let (items, own) = tailor_one(run, &mut forked, work, clusters, at, alike, more);
            results.extend(own.into_iter().map(|r| (clusters.name(at), r)));
            out.extend(items);
        }
        (out, results)
    };
    if threads == 1 {
        return tailor_chunk(0..clusters.len());
    }
    std::thread::scope(|scope| {
        let spawned: Result<Vec<_>, _> = (0..clusters.len())
            .step_by(per_thread.max(1))
            .map(|start| {
                let range = start..(start + per_thread).min(clusters.len());
                let thread = std::thread::Builder::new();
                thread.spawn_scoped(scope, move || tailor_chunk(range))
            })
            .collect();
        let mut out = Vec::with_capacity(work.len() * clusters.len());
        let mut results = Vec::new();
        // Threads already started finish (the scope joins them); the run fails with the reason,
        // which `copies` reports without a cluster name (the empty one).
        let handles = match spawned {
            Ok(handles) => handles,
            Err(e) => {
                let message = format!("could not start a fan-out thread ({threads} asked): {e}; set TAILOR_THREADS lower");
                return (Vec::new(), vec![("", KrmResult::error(message))]);
            }
        };
        for handle in handles {
            match handle.join() {
                Ok((items, r)) => {
                    out.extend(items);
                    results.extend(r);
                }
                // Each destination's panic is caught on its thread; this is what escaped that.
                Err(panic) => results.push(("", super::contained::panicked(panic.as_ref()))),
            }
        }
        (out, results)
    })
}

/// The copies of `work` tailored for destination `at` with this thread's `forked` stages,
/// each under the cluster's directory, and the destination's results; `more` when the thread
/// tailors another destination after it. Destinations that render alike share one rendering
/// (`alike`); choosing the options and the cluster's directory are each destination's own.
/// The cluster is resolved here and dropped when the destination is done.
pub(super) fn tailor_one<J: Job>(
    run: &Run<'_, J>,
    forked: &mut [Forked<'_, J::Options>],
    work: &[Resource],
    clusters: &Destinations<'_>,
    at: usize,
    alike: &Alike,
    more: bool,
) -> (Vec<Resource>, Vec<KrmResult>) {
    let cluster = clusters.cluster(at);
    let cluster = &cluster;
    let mut own = Vec::new();
    let mut options = None;
    let chosen = super::contained::contained(|| {
        options = run.job.options_for(Some(cluster), &mut own);
    });
    if let Err(error) = chosen {
        own.push(error);
        return (Vec::new(), own);
    }
    let mut items = match options {
        // Nothing is deployed there.
        None => Vec::new(),
        // The run fails: the copies are not tailored, and are never written.
        Some(_) if own.iter().any(KrmResult::is_error) => work
            .iter()
            .filter(|r| !r.is_meta_or_local())
            .cloned()
            .collect(),
        Some(options) => {
            let render = || render::<J>(forked, work, cluster, &options, more);
            let (items, results) = alike.rendering(at, render);
            own.extend(results);
            items
        }
    };
    for item in &mut items {
        prefix_path(item, &cluster.name);
    }
    (items, own)
}

/// The objects of `work` tailored for `cluster` with `options` (not yet under its directory),
/// and what the stages reported.
fn render<J: Job>(
    forked: &mut [Forked<'_, J::Options>],
    work: &[Resource],
    cluster: &Cluster,
    options: &J::Options,
    more: bool,
) -> Rendering {
    let destination = Destination { cluster, more };
    let mut items = work.to_vec();
    let mut own = Vec::new();
    let tailored = super::contained::contained(|| {
        let mut log = Log::new(&mut own, None);
        run_all(forked, &mut items, Some(destination), options, &mut log);
    });
    if let Err(error) = tailored {
        own.push(error);
        items.clear();
    }
    items.retain(|item| !item.is_meta_or_local());
    (items, own)
}

/// A result produced while tailoring one destination names it (`cluster "dev": ...`); the
/// same result for several destinations (a postBuild error in a shared object) is reported
/// once, naming them in destination order (`clusters "dev", "prod": ...`): all of them up to
/// [`NAMED_IN_FULL`], past that the first [`NAMED_FIRST`] and how many more, so a result shared
/// by 20,000 destinations stays one short line. Linear in the number of results.
pub(super) fn name_clusters(results: Vec<(&str, KrmResult)>) -> Vec<KrmResult> {
    let mut merged: Vec<(Vec<&str>, KrmResult)> = Vec::new();
    let mut seen: HashMap<KrmResult, usize> = HashMap::new();
    // (result, cluster) pairs already counted: a destination that reports a result twice is
    // named once.
    let mut named: HashSet<(usize, &str)> = HashSet::new();
    for (cluster, result) in results {
        let k = match seen.get(&result) {
            Some(&k) => k,
            None => {
                seen.insert(result.clone(), merged.len());
                merged.push((Vec::new(), result));
                merged.len() - 1
            }
        };
        if named.insert((k, cluster)) {
            merged[k].0.push(cluster);
        }
    }
    merged
        .into_iter()
        .map(|(clusters, mut result)| {
            // Messages that already start by naming their cluster keep their own words.
            if clusters.len() == 1
                && result
                    .message
                    .starts_with(&format!("cluster {:?}", clusters[0]))
            {
                return result;
            }
            result.message.insert_str(0, &cluster_prefix(&clusters));
            result
        })
        .collect()
}

/// Results shared by at most this many destinations name every one of them.
const NAMED_IN_FULL: usize = 10;
/// How many destinations a result shared by more than [`NAMED_IN_FULL`] names before the count.
const NAMED_FIRST: usize = 5;

/// `cluster "dev": `, `clusters "dev", "prod": `, or for many
/// `clusters "c1", "c2", "c3", "c4", "c5" and 19,995 more: `.
fn cluster_prefix(clusters: &[&str]) -> String {
    let quoted = |names: &[&str]| {
        let names: Vec<String> = names.iter().map(|c| format!("{c:?}")).collect();
        names.join(", ")
    };
    match clusters {
        [one] => format!("cluster {one:?}: "),
        few if few.len() <= NAMED_IN_FULL => format!("clusters {}: ", quoted(few)),
        many => format!(
            "clusters {} and {} more: ",
            quoted(&many[..NAMED_FIRST]),
            thousands(many.len() - NAMED_FIRST)
        ),
    }
}

/// `19995` as `19,995`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Each copy lives under `<cluster>/` so kpt and `--output-dir` keep them apart. A path kpt
/// recorded is prefixed where it is; otherwise the copy's cluster says it
/// ([`Resource::output_path`]), and a ResourceList records it when written.
fn prefix_path(item: &mut Resource, cluster: &str) {
    item.set_cluster(cluster);
    if item.is_list_member() || item.source_file().is_some() {
        // Written inside its List's copy, which gets the prefix; or read from a file, whose
        // path (not a stale annotation in it) the copy's cluster prefixes.
        return;
    }
    for key in [annotations::PATH, annotations::LEGACY_PATH] {
        if let Some(p) = item.annotation(key).map(str::to_string) {
            item.set_annotation(key, &format!("{cluster}/{p}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(results: &[(&'static str, &str)]) -> Vec<String> {
        let results = results
            .iter()
            .map(|&(c, m)| (c, KrmResult::warning(m.to_string())))
            .collect();
        name_clusters(results)
            .into_iter()
            .map(|r| r.message)
            .collect()
    }

    #[test]
    fn a_shared_result_names_its_destinations_once_in_order() {
        let got = named(&[("dev", "x"), ("dev", "x"), ("prod", "y"), ("prod", "x")]);
        assert_eq!(
            got,
            ["clusters \"dev\", \"prod\": x", "cluster \"prod\": y"]
        );
        assert_eq!(
            named(&[("dev", "cluster \"dev\" is odd")]),
            ["cluster \"dev\" is odd"]
        );
    }

    #[test]
    fn many_destinations_are_named_by_the_first_few_and_a_count() {
        let names: Vec<&'static str> = (0..20_000)
            .map(|i| &*Box::leak(format!("c{i}").into_boxed_str()))
            .collect();
        let all: Vec<(&str, &str)> = names.iter().map(|&c| (c, "same")).collect();
        assert_eq!(
            named(&all),
            ["clusters \"c0\", \"c1\", \"c2\", \"c3\", \"c4\" and 19,995 more: same"]
        );
        let ten: Vec<(&str, &str)> = all[..NAMED_IN_FULL].to_vec();
        assert!(named(&ten)[0].starts_with("clusters \"c0\", \"c1\""));
        assert!(named(&ten)[0].contains("\"c9\": same"));
        let eleven: Vec<(&str, &str)> = all[..NAMED_IN_FULL + 1].to_vec();
        assert!(named(&eleven)[0].ends_with("\"c4\" and 6 more: same"));
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(19_995), "19,995");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
