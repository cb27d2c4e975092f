//! Standalone mode's package: the objects of files and directories as `kpt fn source` reads
//! them (or a narrower selection, such as the files a Flux source builds), each file read from
//! disk once however many times its objects are read, and the files no stage can touch passed
//! through as their text, for the output to write where they were read.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tailor_yaml::ParseOptions;

use crate::files::Deferral;
use crate::job::{may_consume, Job};
use crate::read::Prepared;
use crate::reading::FileReading;
use crate::write::{Rendering, StreamDoc};
use crate::{KrmResult, Resource};

/// Which files of a directory to read, from those `kpt fn source` reads (relative paths).
pub type Select = fn(&Path, Vec<(PathBuf, String)>) -> Result<Vec<(PathBuf, String)>, String>;

/// How a package is read, as the command line asks.
#[derive(Clone, Copy, Default)]
pub struct PackageOptions {
    /// Files that hold no object are kept (for `--output-dir`) rather than refused.
    pub keep_other_files: bool,
    /// The run reads one input.
    pub one_input: bool,
    /// Which files of a directory are read, when not every file `kpt fn source` reads (a
    /// source read as Flux reads it): the directory and its files, relative to it.
    pub select: Option<Select>,
    /// How an object the stages finish as it is read is held (the output it is written for).
    pub render: Option<Rendering>,
}

/// What standalone mode read from files and directories.
#[derive(Default)]
pub struct PackageReading<'h> {
    options: PackageOptions,
    /// The job's reading policy ([`file_reading`]): `None` keeps every tree.
    policy: Option<FileReading<'h>>,
    /// The texts of the files read before.
    texts: Option<&'h mut Texts>,
    /// Files that hold no object, kept for `--output-dir`.
    pub kept: Vec<crate::files::KeptFile>,
    /// Each path read, relative as it is written back, with the input it came from: two
    /// inputs may not share one.
    paths: BTreeMap<String, String>,
    pub passed: Passed,
}

/// The texts of the files a run read: each file is read from disk once, however many times
/// its objects are read. The objects hold the same texts while they are deferred.
#[derive(Default)]
pub struct Texts(HashMap<PathBuf, Arc<String>>);

impl Texts {
    /// The text of `file`, read from disk the first time.
    pub fn read(&mut self, file: &Path) -> Result<Arc<String>, KrmResult> {
        if let Some(text) = self.0.get(file) {
            return Ok(text.clone());
        }
        let text = read_text(file)?;
        self.0.insert(file.to_path_buf(), text.clone());
        Ok(text)
    }
}

/// A file's text, shared by the objects read from it.
fn read_text(file: &Path) -> Result<Arc<String>, KrmResult> {
    crate::input::read_file(file)
        .map(Arc::new)
        .map_err(KrmResult::error)
}

impl<'h> PackageReading<'h> {
    /// A reader of files as `options` ask, under the job's reading `policy`, with the texts
    /// of files read before (`texts`).
    pub fn new(
        options: PackageOptions,
        policy: Option<FileReading<'h>>,
        texts: Option<&'h mut Texts>,
    ) -> PackageReading<'h> {
        PackageReading {
            options,
            policy,
            texts,
            ..PackageReading::default()
        }
    }

    /// How objects are read: their trees dropped, and what runs on each ([`Deferral`]);
    /// `None` keeps every tree.
    pub fn deferral(&mut self) -> Option<Deferral<'_>> {
        let render = self.options.render.filter(|_| self.renders());
        self.policy.as_mut().map(|p| Deferral {
            keys: p.keys.clone(),
            hook: p
                .hook
                .as_mut()
                .map(|h| &mut **h as &mut dyn FnMut(&mut Resource) -> Prepared),
            render,
        })
    }

    /// Whether an input of `job`'s run (an inventory object, a CustomTransform...) arrived
    /// among `items` read with stages run or files passed through as they were read: it may
    /// concern every object and change what the stages do to it, so every file's objects must
    /// be read again from its text, for the stages to run in the run.
    pub fn must_read_again<J: Job>(&self, items: &[Resource], job: &J) -> bool {
        (self.renders() || !self.passed.is_empty())
            && items.iter().any(|i| may_consume(job, None, i))
    }

    /// Whether the stages run as objects are read and finish objects as their output text.
    pub fn renders(&self) -> bool {
        self.policy.as_ref().is_some_and(|p| p.renders)
    }

    /// The objects of a file, or of every file under a directory that `kpt fn source` reads
    /// (the CONFIG file itself is not among them). A kustomization is not a manifest: it is
    /// built first. The objects are added to `out`.
    /// A file given itself is known as `named` (in kpt's path annotation, under
    /// `--output-dir`).
    pub fn read_path(
        &mut self,
        path: &Path,
        named: &str,
        config: Option<&Path>,
        opts: &ParseOptions,
        out: &mut Vec<Resource>,
    ) -> Result<(), KrmResult> {
        let files_to_read = if path.is_dir() {
            let all = crate::files::package_files(path)
                .map_err(|e| KrmResult::error(format!("{}: {e}", path.display())))?;
            match self.options.select {
                Some(select) => select(path, all).map_err(KrmResult::error)?,
                None => all,
            }
        } else {
            vec![(path.to_path_buf(), named.to_string())]
        };
        for (file, rel) in files_to_read {
            if config.is_some_and(|c| file.canonicalize().is_ok_and(|f| f == c)) {
                continue;
            }
            if crate::files::is_kustomization_file(&file) {
                let dir = file
                    .parent()
                    .map_or_else(|| ".".into(), |d| d.display().to_string());
                return Err(KrmResult::error(format!(
                    "{}: a kustomization is not a manifest; build it and pipe the result in: kustomize build {} | tailor CONFIG -",
                    file.display(),
                    if dir.is_empty() { "." } else { &dir }
                )));
            }
            // One input cannot read two files as one path (a directory's paths differ): the
            // map of every path, as large as a package's file list, is kept only for several.
            if !self.options.one_input {
                let input = file.display().to_string();
                if let Some(other) = self.paths.insert(rel.clone(), input.clone()) {
                    return Err(KrmResult::error(format!(
                        "{other} and {input} are both read as {rel:?}: give them in separate runs (their objects would share one file)"
                    )));
                }
            }
            let text = match self.texts.as_deref_mut() {
                Some(texts) => texts.read(&file)?,
                None => read_text(&file)?,
            };
            let contents =
                crate::files::read_manifest_file(text, &rel, opts, self.deferral().as_mut())?;
            self.take(contents, rel, out)?;
        }
        Ok(())
    }

    /// What one file (known as `rel`) held: its objects to `out`, or passed through as its
    /// text when no stage can touch them; a file of no object kept for `--output-dir`.
    fn take(
        &mut self,
        contents: crate::files::FileContents,
        rel: String,
        out: &mut Vec<Resource>,
    ) -> Result<(), KrmResult> {
        let render = self.options.render.filter(|_| self.renders());
        let inert = self.policy.as_mut().and_then(|p| p.inert.as_mut());
        match contents {
            crate::files::FileContents::Objects(objects) => {
                let passed = inert.and_then(|inert| {
                    crate::files::PassThrough::of(rel, &objects, &mut **inert, render)
                });
                match passed {
                    Some(file) => self.passed.pass(file),
                    None => {
                        if let Some(first) = objects.first() {
                            self.passed.read_as_objects(first);
                        }
                        out.extend(objects);
                    }
                }
            }
            crate::files::FileContents::Other { text, problem } => match problem {
                Some(error) if !self.options.keep_other_files => return Err(error),
                _ => self.kept.push(crate::files::KeptFile { rel, text }),
            },
        }
        Ok(())
    }
}

/// The files passed through as their text ([`crate::files::PassThrough`]), in the order the inputs
/// were read among the files read as objects: stream output puts each file's documents where
/// its objects would have been.
#[derive(Default)]
pub struct Passed {
    files: Vec<crate::files::PassThrough>,
    /// For each file passed through, how many files had been read as objects before it, and
    /// where its documents end in `documents`.
    after: Vec<(usize, usize)>,
    /// Where the documents of each file passed through lie in its text, file after file. One
    /// list rather than a small allocation per file: made after the file's trees and freed
    /// objects, each such allocation (16 bytes for two documents) was held among their freed
    /// chunks, and glibc's heap could not merge them again for the next file's text (a
    /// directory of 16,000 two-object files: peak RSS 25 -> 31 MB).
    documents: Vec<(u32, u32)>,
    /// The files read as objects, by their text's address: their order (from 1).
    read: HashMap<usize, usize>,
}

impl Passed {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn pass(&mut self, mut file: crate::files::PassThrough) {
        self.documents
            .extend_from_slice(&std::mem::take(&mut file.documents));
        self.after.push((self.read.len(), self.documents.len()));
        self.files.push(file);
    }

    /// Records the text (a file, or stdin) `first`, its first object, was read from.
    pub fn read_as_objects(&mut self, first: &Resource) {
        if let Some(source) = source_of(first) {
            let n = self.read.len();
            self.read.entry(source).or_insert(n + 1);
        }
    }

    /// The order among the files read as objects of the one `item` came from.
    fn place_of(&self, item: &Resource) -> Option<usize> {
        source_of(item).and_then(|s| self.read.get(&s).copied())
    }

    /// Whether some object is written to a file passed through.
    pub fn clashes(&self, items: &[Resource]) -> bool {
        if self.files.is_empty() {
            return false;
        }
        let rels: HashSet<&str> = self.files.iter().map(|f| f.rel.as_str()).collect();
        items
            .iter()
            .any(|i| rels.contains(i.output_path().as_str()))
    }

    /// The documents of a stream: `objects` with the files passed through where they were
    /// read among them.
    pub fn stream<'a>(
        &'a self,
        objects: &'a [Resource],
    ) -> impl Iterator<Item = StreamDoc<'a>> + 'a {
        let mut files = self.after.iter().zip(&self.files).peekable();
        let mut objects = objects.iter().peekable();
        let mut documents_from = 0;
        std::iter::from_fn(move || {
            let file_first = match (files.peek(), objects.peek()) {
                (None, _) => false,
                (Some(_), None) => true,
                // An object of no file read (one a stage made) stays where it is.
                (Some(((after, _), _)), Some(o)) => self.place_of(o).is_some_and(|at| *after < at),
            };
            if file_first {
                let (&(_, documents_to), file) = files.next()?;
                let documents = self
                    .documents
                    .get(documents_from..documents_to)
                    .unwrap_or_default();
                documents_from = documents_to;
                return Some(Chunk::Texts(file.stream_documents(documents)));
            }
            objects
                .next()
                .map(|o| Chunk::Object(Some(StreamDoc::Object(o))))
        })
        .flatten()
    }

    pub fn files(&self) -> &[crate::files::PassThrough] {
        &self.files
    }
}

/// What [`Passed::stream`] yields at each step: one object, or a file's documents.
enum Chunk<'a, T: Iterator<Item = &'a str>> {
    Object(Option<StreamDoc<'a>>),
    Texts(T),
}

impl<'a, T: Iterator<Item = &'a str>> Iterator for Chunk<'a, T> {
    type Item = StreamDoc<'a>;

    fn next(&mut self) -> Option<StreamDoc<'a>> {
        match self {
            Chunk::Object(o) => o.take(),
            Chunk::Texts(t) => t.next().map(StreamDoc::Text),
        }
    }
}

/// The address of the text an object was read from, to tell its file.
fn source_of(item: &Resource) -> Option<usize> {
    match item.origin() {
        crate::Origin::Document { source, .. } | crate::Origin::SeqItem { source, .. } => {
            Some(Arc::as_ptr(source) as usize)
        }
        crate::Origin::None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::PassThrough;

    fn file(rel: &str, text: &str, documents: &[(u32, u32)]) -> PassThrough {
        PassThrough {
            rel: rel.to_string(),
            text: Arc::new(text.to_string()),
            documents: documents.into(),
        }
    }

    /// Each file's documents come from its own text, though all files' places are in one list.
    #[test]
    fn a_stream_writes_each_file_passed_through_with_its_own_documents() {
        let mut passed = Passed::default();
        passed.pass(file("a.yaml", "a: 1\n---\nb: 2\n", &[(0, 5), (9, 14)]));
        passed.pass(file("none.yaml", "", &[]));
        passed.pass(file("c.yaml", "c: 3\n", &[(0, 5)]));
        let texts: Vec<&str> = passed
            .stream(&[])
            .map(|doc| match doc {
                StreamDoc::Text(text) => text,
                StreamDoc::Object(_) => "an object",
            })
            .collect();
        assert_eq!(texts, ["a: 1\n", "b: 2\n", "c: 3\n"]);
        assert!(passed.files().iter().all(|f| f.documents.is_empty()));
    }
}
