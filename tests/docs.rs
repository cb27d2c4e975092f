//! The user documentation says what the binary does, and points only inside the repository.
//!
//! - Examples in `docs/`: a ```yaml block right after `<!-- check: config -->` is a
//!   functionConfig tailor must accept. When `<!-- check: input -->` and
//!   `<!-- check: output -->` blocks follow it, `tailor CONFIG FILE` (the input written to FILE)
//!   must print exactly that output.
//! - Links in the README, `docs/`, `examples/`, `functions/` and `scripts/README.md`: every
//!   relative link names a file or directory of the repository (and a heading, after `#`), and
//!   no page refers to `../shared`, the developers' notes beside the repository, which users do
//!   not have.

mod common;

use std::path::{Path, PathBuf};

use common::{repo_root, run_tailor, temp_dir};

/// Markdown files under `dir`, recursively, skipping expected outputs.
fn markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            markdown(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
}

fn pages() -> Vec<PathBuf> {
    let root = repo_root();
    let mut out = vec![root.join("README.md"), root.join("scripts/README.md")];
    for dir in ["docs", "examples", "functions"] {
        markdown(&root.join(dir), &mut out);
    }
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(repo_root())
        .unwrap_or(p)
        .display()
        .to_string()
}

/// The checked blocks of a page, in order: (kind, YAML text).
fn checked_blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(kind) = line
            .trim()
            .strip_prefix("<!-- check: ")
            .and_then(|r| r.strip_suffix(" -->"))
        else {
            continue;
        };
        assert_eq!(
            lines.next().map(str::trim),
            Some("```yaml"),
            "<!-- check: {kind} --> must be followed by a ```yaml block"
        );
        let mut body = String::new();
        for l in lines.by_ref() {
            if l.trim() == "```" {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        out.push((kind.to_string(), body));
    }
    out
}

#[test]
fn documented_examples_run_as_shown() {
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut docs = Vec::new();
    markdown(&repo_root().join("docs"), &mut docs);
    for page in docs {
        let text = std::fs::read_to_string(&page).expect("read page");
        let name = rel(&page);
        let blocks = checked_blocks(&text);
        let mut i = 0;
        while i < blocks.len() {
            let (kind, config) = &blocks[i];
            assert_eq!(kind, "config", "{name}: a check block before any config");
            let (input, output) = match (blocks.get(i + 1), blocks.get(i + 2)) {
                (Some((k1, input)), Some((k2, output))) if k1 == "input" && k2 == "output" => {
                    i += 3;
                    (Some(input), Some(output))
                }
                _ => {
                    i += 1;
                    (None, None)
                }
            };
            let dir = temp_dir("docs");
            let config_path = dir.join("config.yaml");
            std::fs::write(&config_path, config).expect("write config");
            let config_arg = config_path.to_string_lossy().into_owned();
            let run = match input {
                Some(input) => {
                    let input_path = dir.join("manifests.yaml");
                    std::fs::write(&input_path, input).expect("write input");
                    run_tailor(&[&config_arg, &input_path.to_string_lossy()], "")
                }
                None => run_tailor(&[&config_arg, "-"], ""),
            };
            checked += 1;
            if run.code != 0 || run.stderr.contains("[error]") {
                problems.push(format!(
                    "{name}: the example functionConfig fails (exit {}):\n{config}{}",
                    run.code, run.stderr
                ));
            } else if let Some(output) = output {
                if &run.stdout != output {
                    problems.push(format!(
                        "{name}: the documented output differs\n--- documented\n{output}--- tailor\n{}",
                        run.stdout
                    ));
                }
            }
        }
    }
    assert!(checked > 0, "no documented example found");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a page, outside code blocks.
fn links(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            match after.find(')') {
                Some(end) => {
                    out.push(after[..end].to_string());
                    rest = &after[end..];
                }
                None => break,
            }
        }
    }
    out
}

#[test]
fn links_stay_inside_the_repository() {
    let root = repo_root().canonicalize().expect("root");
    let mut problems = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        let name = rel(&page);
        if text.contains("../shared") {
            problems.push(format!(
                "{name} refers to ../shared, which users do not have"
            ));
        }
        for link in links(&text) {
            if link.starts_with("http://") || link.starts_with("https://") {
                continue;
            }
            let (path, anchor) = match link.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() {
                page.clone()
            } else {
                page.parent().expect("parent").join(path)
            };
            let Ok(resolved) = target.canonicalize() else {
                problems.push(format!("{name}: link {link} names nothing"));
                continue;
            };
            if !resolved.starts_with(&root) {
                problems.push(format!("{name}: link {link} leaves the repository"));
                continue;
            }
            if let Some(anchor) = anchor {
                let heads = std::fs::read_to_string(&resolved)
                    .map(|t| anchors(&t))
                    .unwrap_or_default();
                if !heads.iter().any(|h| h == anchor) {
                    problems.push(format!("{name}: link {link}: no such heading"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
