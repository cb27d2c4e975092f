//! `reparse_document` builds each document of a stream again from its text alone: the node
//! the plain parse built, spans and comments included.

use std::path::{Path, PathBuf};

use tailor_yaml::{parse_stream_with, reparse_document, ParseOptions};

#[path = "support/files.rs"]
mod files;

/// YAML and JSON files, and every seed of the `yaml_roundtrip` fuzz target (they have no
/// extension).
fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    files::files_under(
        dir,
        &|p, dir| {
            p.extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
                || dir.ends_with("yaml_roundtrip")
        },
        out,
    );
}

/// Every document of every file that parses: the fuzz seeds, the repository's fixtures and
/// examples, and the real-world corpus when `../shared` is beside the repository.
#[test]
fn every_document_of_the_corpus_and_seeds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in [
        "../shared/corpus",
        "fuzz/seeds/yaml_roundtrip",
        "tests/fixtures",
        "tests/hostile",
        "examples",
    ] {
        yaml_files(&root.join(dir), &mut files);
    }
    let opts = ParseOptions::default();
    let mut documents = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(docs) = parse_stream_with(&text, &opts) else {
            continue;
        };
        for doc in docs.iter().filter(|d| !d.empty) {
            let again = reparse_document(&text, doc.span, &opts);
            assert_eq!(
                again.as_ref().ok().and_then(Option::as_ref),
                Some(&doc.root),
                "{}: the document at {:?}",
                f.display(),
                doc.span
            );
            documents += 1;
        }
    }
    assert!(documents > 100, "only {documents} documents checked");
}
