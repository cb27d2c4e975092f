//! Writing a standalone run's output as its sink asks: a stream, a ResourceList (the objects
//! as read when the run failed), or the files under `--output-dir`.

use std::path::Path;

use super::stream_sink::{Out, StreamSink};
use super::{Attempt, Opened, Plugin, Rendered, Sink};
use crate::files::{self, KeptFile};
use crate::output_dir::{self, durable, DirSink};
use crate::package::Passed;
use crate::run::Tailored;
use crate::write::{write_owned_resource_list_to, write_stream_docs_to, ListSyntax};
use crate::{KrmResult, Resource};

/// Writes what the run produced the way the session asks (stdout to `out`, whose write errors
/// its owner reports; after the destinations a fan-out `streamed` there); the exit code.
pub(super) fn write<P: Plugin>(
    opened: &mut Opened<'_, P>,
    rendered: Rendered,
    streamed: Option<StreamSink<'_, '_>>,
    out: &Out<'_>,
) -> i32 {
    let (session, plugin) = (opened.session, opened.plugin);
    let Rendered {
        originals,
        outcome,
        kept,
        passed,
        sink,
    } = rendered;
    if let Some(report) = &outcome.report {
        let _ = out.borrow_mut().write_all(report.as_bytes());
        return i32::from(outcome.failed);
    }
    match &session.sink {
        Sink::Stream => {
            let streamed = streamed.filter(StreamSink::streamed);
            if outcome.failed {
                // The destinations before the one that failed are written (a pipe cannot
                // take them back).
                return streamed.map_or(1, |s| s.finish(std::iter::empty(), 1));
            }
            // kustomize drops local-config objects from what it builds, and kubectl cannot
            // apply a Kptfile: a stream for kubectl has neither.
            let objects: Vec<Resource> = outcome
                .items
                .into_iter()
                .filter(|i| !i.is_meta_or_local())
                .collect();
            match streamed {
                Some(s) => s.finish(passed.stream(&objects), 0),
                None => {
                    let _ = write_stream_docs_to(&mut **out.borrow_mut(), passed.stream(&objects));
                    0
                }
            }
        }
        Sink::ResourceList => {
            let list = match (outcome.failed, originals) {
                (false, _) => outcome.items,
                (true, Some(originals)) => originals,
                (true, None) => {
                    let again = Attempt {
                        keep_originals: true,
                        pass_through: false,
                        per_item: true,
                    };
                    match opened.render(again) {
                        Ok(again) => again.originals.unwrap_or_default(),
                        Err(code) => return code,
                    }
                }
            };
            let fc = match opened.config_tree() {
                Ok(fc) => fc,
                Err(code) => return code,
            };
            // Annotated as each is written: recording its path builds a deferred object's
            // tree, which goes with the object once written.
            let _ = write_owned_resource_list_to(
                &mut **out.borrow_mut(),
                list,
                annotate_path,
                Some(&fc),
                &outcome.results,
                ListSyntax::Yaml,
            );
            i32::from(outcome.failed)
        }
        Sink::Dir { dir, .. } => {
            if outcome.failed {
                return 1;
            }
            match write_dir::<P>(dir, &outcome, &kept, &passed, sink) {
                Ok(()) => 0,
                Err(msg) => {
                    plugin.report(&[KrmResult::error(msg)]);
                    1
                }
            }
        }
    }
}

/// Writes the files of a run that succeeded under `--output-dir dir`: replaced whole, or left
/// as it was (checked before reading: [`output_dir::check`]).
fn write_dir<P: Plugin>(
    dir: &Path,
    outcome: &Tailored,
    kept: &[KeptFile],
    passed: &Passed,
    sink: Option<DirSink>,
) -> Result<(), String> {
    let named = |msg: String| format!("--output-dir {}: {msg}", dir.display());
    if outcome.fanned_out {
        let names = outcome.destinations.iter().map(String::as_str);
        crate::safe_paths::check_case_distinct(names).map_err(named)?;
    }
    let files = files::output_dir_files(&outcome.items, kept, passed.files()).map_err(named)?;
    if let Some(sink) = sink.filter(DirSink::streamed) {
        // The destinations are written already: the rest joins them.
        return sink.finish(files);
    }
    output_dir::replace(dir, P::say, |staging| durable::write_files(staging, files))
        .map_err(|e| output_dir::not_written(dir, &e))
}

/// Records the file path, index and sequence indentation as `kpt fn source` does, for
/// ResourceList output (`kpt fn sink` writes wide sequences compact without the last).
pub(super) fn annotate_path(item: &mut Resource) {
    use crate::annotations::*;
    // A path kpt recorded (objects from stdin) is kept; one inside a file is replaced by the
    // file's, as `kpt fn source` replaces it.
    if item.annotation(PATH).is_some() && item.source_file().is_none() {
        return;
    }
    if item.path().is_none() {
        return;
    }
    let path = item.output_path();
    let index = item.index().unwrap_or(0).to_string();
    let wide = matches!(
        item.origin(),
        crate::Origin::Document {
            wide_sequences: true,
            ..
        }
    );
    let annotations = [
        (LEGACY_INDEX, index.as_str()),
        (LEGACY_PATH, path.as_str()),
        (INDEX, index.as_str()),
        (PATH, path.as_str()),
        (SEQ_INDENT, if wide { "wide" } else { "compact" }),
    ];
    // A fan-out's copy held as its text was annotated before it was rendered: setting them
    // again would build its tree back for nothing.
    let rendered = item.rendered().is_some();
    if rendered
        && annotations
            .iter()
            .all(|(k, v)| item.annotation(k) == Some(v))
    {
        return;
    }
    for (key, value) in annotations {
        item.set_annotation(key, value);
    }
}
