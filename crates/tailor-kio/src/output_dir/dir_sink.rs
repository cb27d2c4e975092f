//! `--output-dir` for a fan-out: each destination's files are written into the new directory
//! ([`Staging`]) as soon as the destination is finished, so memory holds a few
//! destinations rather than all of them; the objects written once (the Kptfile, local-config
//! objects, inputs that come back, files kept or passed through) follow at the end, then the
//! directory is put in place of DIR. A failed run drops it: DIR is left as it was, as when
//! the output is written whole.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{durable, Say, Staging};
use crate::run::FanOutSink;
use crate::{files, Resource};

/// Streams a fan-out's destinations into a new directory for `--output-dir`.
pub struct DirSink {
    dir: PathBuf,
    /// The first path components of the files written once (files kept or passed through).
    reserved: BTreeSet<String>,
    staging: Option<Staging>,
    say: Say,
    /// Syncs the destinations' files while the next ones are tailored.
    syncer: Option<durable::Syncer>,
    /// Files a destination wrote outside its own directory (a path annotation leading out of
    /// it): a later file of the same path would otherwise replace it.
    outside: BTreeSet<String>,
}

impl DirSink {
    /// A sink for `--output-dir dir`, given the relative paths of the files written once;
    /// what goes wrong once the output is in place is told with `say`.
    pub fn new<'r>(dir: &Path, say: Say, written_once: impl Iterator<Item = &'r str>) -> DirSink {
        DirSink {
            dir: dir.to_path_buf(),
            reserved: written_once
                .map(|rel| first_component(rel).to_string())
                .collect(),
            staging: None,
            say,
            syncer: None,
            outside: BTreeSet::new(),
        }
    }

    /// The new directory the destinations went to, if the fan-out streamed: the rest of the
    /// output goes there too ([`DirSink::finish`]).
    pub fn streamed(&self) -> bool {
        self.staging.is_some()
    }

    /// Writes `files` (the objects written once) into the new directory and puts it in place.
    pub fn finish(
        mut self,
        files: std::collections::BTreeMap<String, files::OutputFile<'_>>,
    ) -> Result<(), String> {
        let Some(staging) = self.staging.take() else {
            return Err("no fan-out was written".into());
        };
        if let Some(clash) = files.keys().find(|rel| self.outside.contains(*rel)) {
            return Err(self.named(&format!("{clash}: two destinations' objects, or a destination's and one written once, would be written to this file; give them paths of their own")));
        }
        let syncer = self.syncer.take().unwrap_or_default();
        let put = durable::write_files_then_sync(staging.path(), files, syncer)
            .and_then(|()| staging.commit());
        put.map_err(|e| {
            super::not_written(
                &self.dir,
                &e.context(format!("--output-dir {}", self.dir.display())),
            )
        })
    }

    fn named(&self, message: &str) -> String {
        format!(
            "--output-dir {}: {message}; {} is left as it was",
            self.dir.display(),
            self.dir.display()
        )
    }
}

impl FanOutSink for DirSink {
    fn begin(&mut self, destinations: &[&str], staying: &[&Resource]) -> Result<bool, String> {
        crate::safe_paths::check_case_distinct(destinations.iter().copied())
            .map_err(|m| format!("--output-dir {}: {m}", self.dir.display()))?;
        let owned: Vec<Resource> = staying.iter().map(|r| (*r).clone()).collect();
        let staying_files = files::output_files(&owned).unwrap_or_default();
        let mut reserved = self.reserved.clone();
        reserved.extend(
            staying_files
                .keys()
                .map(|rel| first_component(rel).to_string()),
        );
        if destinations.iter().any(|d| reserved.contains(*d)) {
            // A file written once falls in a destination's directory: written whole, as before.
            return Ok(false);
        }
        let staging = Staging::new(&self.dir, self.say).map_err(|e| {
            super::not_written(
                &self.dir,
                &e.context(format!("--output-dir {}", self.dir.display())),
            )
        })?;
        self.staging = Some(staging);
        self.syncer = Some(durable::Syncer::new());
        Ok(true)
    }

    fn destination(&mut self, destination: &str, copies: Vec<Resource>) -> Result<(), String> {
        let (Some(staging), Some(syncer)) = (&self.staging, &self.syncer) else {
            return Err(self.named("a destination came before the fan-out began"));
        };
        let files = files::output_dir_files(&copies, &[], &[]).map_err(|m| self.named(&m))?;
        for rel in files.keys() {
            if first_component(rel) != destination && !self.outside.insert(rel.clone()) {
                return Err(self.named(&format!("{rel}: two destinations' objects would be written to this file; give them paths of their own")));
            }
        }
        durable::write_files_below(staging.path(), files, syncer).map_err(|e| {
            super::not_written(
                &self.dir,
                &e.context(format!("--output-dir {}", self.dir.display())),
            )
        })
    }
}

fn first_component(rel: &str) -> &str {
    rel.split('/').next().unwrap_or(rel)
}
