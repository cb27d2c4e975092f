//! A fan-out written with `--output-dir` goes to disk one destination at a time (memory holds a
//! few destinations, not all): the files must be the same bytes whatever the number of
//! threads, the objects written once stay once at the root, and a run that fails for one
//! destination leaves DIR as it was, with nothing beside it.

mod common;

use std::path::Path;

use common::{read_tree, run_command, tailor_bin, temp_dir};

const CONFIGMAP: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: web # kept comment
  annotations:
    control.kubestellar.io/expand-templates: "true"
data:
  zone: '{{ .zone }}'
  name: '{{ .clusterName }}'
"#;

const KPTFILE: &str = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n";

/// A package fanned out to `n` clusters; the one at `without_zone` lacks the property the
/// template reads (its destination fails).
fn package(tag: &str, n: usize, without_zone: Option<usize>) -> common::TempDir {
    let dir = temp_dir(tag);
    let mut cfg = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: fan-out\nspec:\n  clusters:\n".to_string();
    for i in 0..n {
        cfg.push_str(&format!("  - name: c{i:03}\n"));
        if without_zone != Some(i) {
            cfg.push_str(&format!("    properties: {{zone: z{}}}\n", i % 3));
        }
    }
    std::fs::write(dir.join("cfg.yaml"), cfg).unwrap();
    std::fs::create_dir_all(dir.join("pkg/app")).unwrap();
    std::fs::write(dir.join("pkg/app/cm.yaml"), CONFIGMAP).unwrap();
    std::fs::write(dir.join("pkg/Kptfile"), KPTFILE).unwrap();
    dir
}

fn render(dir: &Path, out: &str, threads: &str, extra: &[&str]) -> common::Run {
    let mut cmd = std::process::Command::new(tailor_bin());
    cmd.current_dir(dir)
        .env("TAILOR_THREADS", threads)
        .args(["cfg.yaml", "pkg", "--output-dir", out])
        .args(extra);
    run_command(&mut cmd, "")
}

#[test]
fn a_streamed_fan_out_writes_the_same_files_whatever_the_threads() {
    let dir = package("stream-same", 40, None);
    let mut trees = Vec::new();
    for (threads, out) in [("1", "one"), ("2", "two"), ("7", "seven")] {
        let run = render(&dir, out, threads, &[]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        trees.push(read_tree(&dir.join(out)));
    }
    assert_eq!(trees[0], trees[1]);
    assert_eq!(trees[0], trees[2]);
    let tree = &trees[0];
    // One file per destination, and the Kptfile once, at the root.
    assert_eq!(tree.len(), 41, "{:?}", tree.keys().collect::<Vec<_>>());
    assert_eq!(tree["Kptfile"], KPTFILE.as_bytes());
    let c007 = String::from_utf8(tree["c007/app/cm.yaml"].clone()).unwrap();
    assert!(c007.contains("name: web # kept comment\n"), "{c007}");
    assert!(c007.contains("zone: 'z1'\n  name: 'c007'\n"), "{c007}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_destination_that_fails_leaves_the_output_directory_as_it_was() {
    for threads in ["1", "3"] {
        let dir = package(&format!("stream-fail-{threads}"), 30, Some(17));
        std::fs::create_dir(dir.join("out")).unwrap();
        std::fs::write(dir.join("out/old.yaml"), "old: 1\n").unwrap();
        let run = render(&dir, "out", threads, &["--clean"]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("cluster \"c017\"") && run.stderr.contains("\"zone\""),
            "{}",
            run.stderr
        );
        assert_eq!(
            read_tree(&dir.join("out")).keys().collect::<Vec<_>>(),
            ["old.yaml"]
        );
        // Nothing half-written beside it: only what the test made.
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["cfg.yaml", "out", "pkg"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
