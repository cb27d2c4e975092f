//! The input size limit at its boundary, through the binary: an input of exactly
//! `TAILOR_MAX_INPUT_BYTES` bytes is read; one byte more is refused with a clear error result,
//! exit code 1 and a ResourceList that reads back.

mod common;

use common::run_tailor_env;

const INPUT: &str = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n";

fn run(limit: usize, args: &[&str]) -> (Option<i32>, String, String) {
    let limit = limit.to_string();
    let run = run_tailor_env(args, &[("TAILOR_MAX_INPUT_BYTES", &limit)], INPUT);
    (Some(run.code), run.stdout, run.stderr)
}

#[test]
fn input_at_the_limit_is_read_and_one_byte_over_is_refused() {
    let n = INPUT.len();
    let (code, stdout, stderr) = run(n, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("name: a"), "{stdout}");

    let (code, stdout, stderr) = run(n - 1, &[]);
    assert_eq!(code, Some(1), "{stderr}");
    let want = format!(
        "input is larger than {} bytes, the input size limit (set TAILOR_MAX_INPUT_BYTES to change it)",
        n - 1
    );
    assert!(stderr.contains(&want), "{stderr}");
    assert!(stdout.contains(&want), "{stdout}");
    assert!(
        !stdout.contains("name: a"),
        "nothing of the input is written: {stdout}"
    );
    let docs = tailor_yaml::parse_stream(&stdout).expect("the error output reads back");
    assert_eq!(docs[0].root.get_str("kind"), Some("ResourceList"));
}

#[test]
fn files_read_in_standalone_mode_have_the_same_limit() {
    let dir = common::temp_dir("input-limit");
    let config = dir.join("config.yaml");
    std::fs::write(
        &config,
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n",
    )
    .unwrap();
    let manifest = dir.join("cm.yaml");
    std::fs::write(&manifest, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  k: '0123456789012345678901234567890123456789'\n").unwrap();
    let size = std::fs::metadata(&manifest).unwrap().len() as usize;
    let (code, _, stderr) = run(
        size,
        &[config.to_str().unwrap(), manifest.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{stderr}");
    let (code, _, stderr) = run(
        size - 1,
        &[config.to_str().unwrap(), manifest.to_str().unwrap()],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.contains("cm.yaml is larger than"), "{stderr}");
}
