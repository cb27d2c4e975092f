//! Shared by the benches: running tailor in-process the way the binary does, and finding the
//! real-world corpus.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use std::io::Write;

use tailor::item_reading;
use tailor::respond;

/// A writer that only counts, standing in for stdout.
struct Count(usize);

impl Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// stdin text → stdout, as `tailor` with no arguments does it (minus the process: the text
/// is copied once, as reading stdin would); returns the number of bytes written.
pub fn run_function(text: &str) -> usize {
    let mut out = Count(0);
    let answer = respond(text.to_string(), item_reading(text), &mut out);
    assert_eq!(answer.code, 0, "bench run failed: {:?}", answer.results);
    out.0
}

/// Object counts for the scaling groups: 100 to 100,000, capped by `TAILOR_BENCH_MAX_N`.
pub fn sizes() -> Vec<usize> {
    let cap = max_n();
    [100, 1_000, 10_000, 100_000]
        .into_iter()
        .filter(|&n| n <= cap)
        .collect()
}

/// `TAILOR_BENCH_MAX_N`: the largest object count a group runs (no cap without it).
pub fn max_n() -> usize {
    std::env::var("TAILOR_BENCH_MAX_N")
        .ok()
        .and_then(|s| s.replace('_', "").parse().ok())
        .unwrap_or(usize::MAX)
}

/// The corpus directory (`TAILOR_CORPUS`, else `/work/shared/corpus/roundtrip`), or `None`
/// with a message saying why those benches are skipped.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("TAILOR_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/corpus/roundtrip"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: corpus benches: {} is not a directory (set TAILOR_CORPUS to the roundtrip corpus)",
            dir.display()
        );
        None
    }
}

/// Every `.yaml`/`.yml` file under `dir`, sorted, with its text.
pub fn yaml_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                if let Ok(text) = std::fs::read_to_string(&p) {
                    out.push((p, text));
                }
            }
        }
    }
    out.sort();
    out
}

/// The corpus projects (subdirectories) with all their YAML joined into one stream of
/// documents, skipping files tailor's parser rejects (none today).
pub fn corpus_streams(dir: &Path) -> Vec<(String, String)> {
    let mut projects = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return projects;
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        let mut text = String::new();
        for (_, file) in yaml_files(&d) {
            if tailor_yaml::parse_stream(&file).is_err() {
                continue;
            }
            if !text.is_empty() {
                text.push_str("\n---\n");
            }
            text.push_str(&file);
        }
        let name = d
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        projects.push((name, text));
    }
    projects
}
