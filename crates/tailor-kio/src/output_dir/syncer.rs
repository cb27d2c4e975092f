//! Syncing the files and directories of `--output-dir` on a few threads at once.
//!
//! Synced one after the other, each `fsync` waits for its own journal commit: 10,000 files in
//! 10,000 directories took a minute or more where writing them took a second. Issued from
//! several threads, the file system commits the syncs that arrive together at once, and the
//! writer goes on writing while they run.
//!
//! Why the guarantee still holds (a crash never leaves a half-written output; the previous
//! output stays until the new one is complete): everything is written into a new directory
//! that nothing names yet, and it is renamed into place only after [`Syncer::finish`] returned
//! without error, that is after every file's `fsync` (its data and size) and every
//! directory's (the names in it) returned. The order in which those reached the disk does not
//! matter, since none of them is visible before the rename; a failed sync fails the run, and
//! the new directory is removed instead of renamed.

use std::fs::File;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use anyhow::{anyhow, Result};

use super::durable::sync_dir;

/// Syncing threads: enough for the file system to batch their syncs, few enough to be cheap
/// (they sleep in `fsync`).
const THREADS: usize = 8;
/// Files written but not yet synced, each holding a descriptor: bounded well under the usual
/// limit of 1,024 open files.
const QUEUED: usize = 64;

enum Job {
    /// A file written through this handle; `rel` names it in an error.
    File(File, String),
    /// A directory whose entries are all created.
    Dir(PathBuf, String),
}

impl Job {
    fn run(self) -> std::result::Result<(), String> {
        match self {
            Job::File(file, rel) => file.sync_all().map_err(|e| format!("writing {rel}: {e}")),
            Job::Dir(path, rel) => sync_dir(&path).map_err(|e| format!("syncing {rel}: {e}")),
        }
    }
}

/// Takes files and directories to sync and syncs them on its threads; [`Syncer::finish`]
/// waits for all of them and reports the first failure.
pub struct Syncer {
    queue: Option<SyncSender<Job>>,
    threads: Vec<JoinHandle<()>>,
    failure: Arc<Mutex<Option<String>>>,
}

impl Default for Syncer {
    fn default() -> Syncer {
        Syncer::new()
    }
}

impl Syncer {
    pub fn new() -> Syncer {
        let (queue, jobs) = sync_channel::<Job>(QUEUED);
        let jobs = Arc::new(Mutex::new(jobs));
        let failure = Arc::new(Mutex::new(None));
        let threads = (0..THREADS)
            .map_while(|_| {
                let (jobs, failure) = (jobs.clone(), failure.clone());
                std::thread::Builder::new()
                    .name("tailor-sync".into())
                    .spawn(move || work(&jobs, &failure))
                    .ok()
            })
            .collect::<Vec<_>>();
        Syncer {
            // No thread could start: sync on the caller's thread.
            queue: (!threads.is_empty()).then_some(queue),
            threads,
            failure,
        }
    }

    /// Syncs `file` (just written, as `rel`), now or on a syncing thread.
    pub fn file(&self, file: File, rel: String) -> Result<()> {
        self.add(Job::File(file, rel))
    }

    /// Syncs the directory `path` (`rel` in an error), whose entries are all created.
    pub fn dir(&self, path: PathBuf, rel: String) -> Result<()> {
        self.add(Job::Dir(path, rel))
    }

    fn add(&self, job: Job) -> Result<()> {
        if let Some(failed) = lock(&self.failure).clone() {
            return Err(anyhow!(failed));
        }
        let job = match &self.queue {
            Some(queue) => match queue.send(job) {
                Ok(()) => return Ok(()),
                // Every thread is gone (it cannot be, they end with the queue): sync here.
                Err(e) => e.0,
            },
            None => job,
        };
        job.run().map_err(|e| anyhow!(e))
    }

    /// Waits until everything given is synced; the first failure, if any.
    pub fn finish(mut self) -> Result<()> {
        self.wait();
        match lock(&self.failure).take() {
            Some(failed) => Err(anyhow!(failed)),
            None => Ok(()),
        }
    }

    fn wait(&mut self) {
        self.queue = None;
        for t in std::mem::take(&mut self.threads) {
            let _ = t.join();
        }
    }
}

/// A run that failed before [`Syncer::finish`] still waits for its threads, so none outlives
/// the directory it syncs.
impl Drop for Syncer {
    fn drop(&mut self) {
        self.wait();
    }
}

fn work(jobs: &Mutex<Receiver<Job>>, failure: &Mutex<Option<String>>) {
    loop {
        let job = match lock(jobs).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        if let Err(e) = job.run() {
            lock(failure).get_or_insert(e);
        }
    }
}

/// A poisoned lock still holds a usable value here (a job never panics while holding it).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_directories_are_synced_and_a_failure_is_named() {
        let d = std::env::temp_dir().join(format!("tailor-syncer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let syncer = Syncer::new();
        for i in 0..200 {
            let path = d.join(format!("f{i}"));
            std::fs::write(&path, "x").unwrap();
            syncer
                .file(File::open(&path).unwrap(), format!("f{i}"))
                .unwrap();
        }
        syncer.dir(d.clone(), ".".into()).unwrap();
        syncer.finish().unwrap();
        let syncer = Syncer::new();
        syncer.dir(d.join("missing"), "missing".into()).unwrap();
        let err = syncer.finish().unwrap_err().to_string();
        assert!(err.starts_with("syncing missing: "), "{err}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
