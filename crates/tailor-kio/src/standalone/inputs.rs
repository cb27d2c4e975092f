//! A session's inputs, in order: files and directories (read as `kpt fn source` reads them,
//! each file from disk once), stdin, and at most one bundle directory the plugin reads.

use std::path::Path;

use super::{Plugin, Session};
use crate::files;
use crate::package::PackageReading;
use crate::reading::parse_options;
use crate::{KrmResult, Resource};

/// Whether an input is a bundle directory ([`Plugin::is_bundle`]).
pub(super) fn bundled<P: Plugin>(session: &Session, plugin: &P) -> bool {
    session
        .inputs
        .iter()
        .any(|i| i != "-" && plugin.is_bundle(Path::new(i)))
}

/// The objects of every input of `session`, read with `reading`, and the bundle among them
/// (at most one). `Err` is the exit code, the error reported.
pub(super) fn read<P: Plugin>(
    session: &Session,
    plugin: &P,
    reading: &mut PackageReading<'_>,
) -> Result<(Vec<Resource>, Option<P::Bundle>), i32> {
    let fail = |r: KrmResult| {
        plugin.report(std::slice::from_ref(&r));
        1
    };
    let opts = parse_options();
    let mut bundle: Option<P::Bundle> = None;
    let mut items: Vec<Resource> = Vec::new();
    let config_file = (session.config != "-")
        .then(|| Path::new(&session.config).canonicalize().ok())
        .flatten();
    for input in &session.inputs {
        let path = Path::new(input);
        if input != "-" && plugin.is_bundle(path) {
            if bundle.is_some() {
                return Err(fail(KrmResult::error(format!(
                    "{input}: only one {} per run",
                    P::BUNDLE
                ))));
            }
            let (b, mut more) = plugin.read_bundle(path, &opts).map_err(|results| {
                plugin.report(&results);
                1
            })?;
            bundle = Some(b);
            items.append(&mut more);
            continue;
        }
        if input == "-" {
            let mut more = crate::input::read_stdin()
                .map_err(KrmResult::error)
                .and_then(|t| files::read_stdin_text(t, &opts, reading.deferral().as_mut()))
                .map_err(fail)?;
            if let Some(first) = more.first() {
                reading.passed.read_as_objects(first);
            }
            items.append(&mut more);
        } else {
            plugin.refuse(path).map_err(fail)?;
            let named = plugin.named(path);
            reading
                .read_path(path, &named, config_file.as_deref(), &opts, &mut items)
                .map_err(fail)?;
        }
    }
    Ok((items, bundle))
}
