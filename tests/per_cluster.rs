//! What a platform team looks at per cluster without a live one (issue 18): `--explain`,
//! `tailor diff` and `--shard K/N`, on a fan-out to three clusters with a customization that
//! renames and scales, one that labels, and one that is doNotDeploy, in FirstMatch and in
//! AllMatches mode (`tests/fixtures/per-cluster/`).

mod common;

use std::collections::BTreeMap;

use common::{read_tree, repo_root, run_tailor, temp_dir};

fn fixture(name: &str) -> String {
    repo_root()
        .join("tests/fixtures/per-cluster")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs tailor with `args` and returns stdout, failing on a non-zero exit.
fn ok(args: &[&str]) -> String {
    let r = run_tailor(args, "");
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn explain_tells_each_destination_why() {
    let app = fixture("app");
    for mode in ["first-match", "all-matches"] {
        let config = fixture(&format!("{mode}.yaml"));
        let out = ok(&[&config, &app, "--explain"]);
        insta::assert_snapshot!(format!("explain_{mode}"), out);
    }
}

#[test]
fn diff_shows_each_destination_against_the_input() {
    let app = fixture("app");
    for mode in ["first-match", "all-matches"] {
        let config = fixture(&format!("{mode}.yaml"));
        let out = ok(&["diff", &config, &app]);
        insta::assert_snapshot!(format!("diff_{mode}"), out);
    }
    // One destination of the set.
    let config = fixture("first-match.yaml");
    let one = ok(&["diff", &config, &app, "--cluster", "dev"]);
    assert!(
        one.starts_with("diff --tailor a/web.yaml b/dev/web.yaml\n"),
        "{one}"
    );
    assert!(!one.contains("prod-eu/"), "{one}");
    // Output options do not apply.
    let r = run_tailor(&["diff", &config, &app, "-o", "resource-list"], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// `--output-dir` of a shard, as path → bytes.
fn render(config: &str, app: &str, shard: Option<&str>) -> BTreeMap<String, Vec<u8>> {
    let out = temp_dir("shard");
    let dir = out.join("out");
    let mut args = vec![config, app, "--output-dir", dir.to_str().expect("utf-8")];
    if let Some(s) = shard {
        args.extend(["--shard", s]);
    }
    ok(&args);
    let files = if dir.exists() {
        read_tree(&dir)
    } else {
        BTreeMap::new()
    };
    let _ = std::fs::remove_dir_all(&out);
    files
}

/// A config with `n` destinations named `c000`...
fn clusters_config(n: usize) -> String {
    let mut s = String::from(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: many}\nspec:\n  clusters:\n",
    );
    for i in 0..n {
        s.push_str(&format!("  - {{name: c{i:03}}}\n"));
    }
    s
}

#[test]
fn shards_are_disjoint_complete_and_stable() {
    let dir = temp_dir("shards");
    let app = fixture("app");
    let config = dir.join("tailor.yaml");
    std::fs::write(&config, clusters_config(20)).expect("config");
    let config = config.to_string_lossy().into_owned();
    let whole = render(&config, &app, None);
    let mut union = BTreeMap::new();
    let mut owner: BTreeMap<String, usize> = BTreeMap::new();
    for k in 1..=4 {
        for (path, bytes) in render(&config, &app, Some(&format!("{k}/4"))) {
            let cluster = path.split('/').next().unwrap_or_default().to_string();
            if let Some(other) = owner.insert(cluster.clone(), k) {
                assert_eq!(other, k, "{cluster} is in shards {other} and {k}");
            }
            assert!(union.insert(path, bytes).is_none());
        }
    }
    assert_eq!(union, whole, "the shards together are the whole render");
    let sizes: Vec<usize> = (1..=4)
        .map(|k| owner.values().filter(|&&s| s == k).count())
        .collect();
    assert!(sizes.iter().all(|&n| n > 0), "a shard is empty: {sizes:?}");
    // Adding destinations moves none of the existing ones.
    std::fs::write(dir.join("tailor.yaml"), clusters_config(30)).expect("config");
    for k in 1..=4 {
        for path in render(&config, &app, Some(&format!("{k}/4"))).keys() {
            let cluster = path.split('/').next().unwrap_or_default();
            if let Some(&was) = owner.get(cluster) {
                assert_eq!(was, k, "{cluster} moved from shard {was} to {k}");
            }
        }
    }
    // A bad shard is a usage error.
    for bad in ["0/4", "5/4", "x", "1/0"] {
        let r = run_tailor(&[&config, &app, "--shard", bad], "");
        assert_eq!(r.code, 2, "--shard {bad}: {}", r.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `examples/ci/github-workflow.yml` works: each matrix entry's render step, run as written
/// (with this build as `tailor`), renders its shard, and the shards together are the
/// unsharded render.
#[test]
fn the_ci_matrix_example_renders_the_whole_fleet() {
    let root = repo_root();
    let text =
        std::fs::read_to_string(root.join("examples/ci/github-workflow.yml")).expect("workflow");
    let doc = tailor_yaml::parse_stream(&text)
        .expect("yaml")
        .remove(0)
        .root;
    let json = doc.to_json().expect("json");
    let render = &json["jobs"]["render"];
    let shards: Vec<u64> = render["strategy"]["matrix"]["shard"]
        .as_array()
        .expect("matrix.shard")
        .iter()
        .filter_map(serde_json::Value::as_u64)
        .collect();
    assert_eq!(shards, [1, 2, 3, 4]);
    let command = render["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["run"].as_str())
        .find(|r| r.contains("--shard"))
        .expect("a render step");
    let dir = temp_dir("ci-matrix");
    let run = |shard: Option<u64>, out: &std::path::Path| {
        let line = match shard {
            Some(k) => command.replace("${{ matrix.shard }}", &k.to_string()),
            None => command.replace(" --shard ${{ matrix.shard }}/4", ""),
        };
        let mut words = line.split_whitespace();
        assert_eq!(words.next(), Some("tailor"), "{line}");
        let args: Vec<String> = words
            .map(|w| {
                if w == "rendered" {
                    out.to_string_lossy().into_owned()
                } else {
                    w.to_string()
                }
            })
            .collect();
        let r = std::process::Command::new(common::tailor_bin())
            .args(&args)
            .current_dir(&root)
            .output()
            .expect("spawn");
        assert!(
            r.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        if out.exists() {
            read_tree(out)
        } else {
            BTreeMap::new()
        }
    };
    let whole = run(None, &dir.join("whole"));
    assert_eq!(
        whole.keys().filter(|k| k.ends_with("/web.yaml")).count(),
        12,
        "{:?}",
        whole.keys()
    );
    let mut union = BTreeMap::new();
    for k in shards {
        union.extend(run(Some(k), &dir.join(format!("shard-{k}"))));
    }
    assert_eq!(union, whole);
    let _ = std::fs::remove_dir_all(&dir);
}
