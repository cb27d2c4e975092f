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

/// A limit set to something that is not a positive number is refused, naming the variable,
/// rather than ignored.
#[test]
fn unparsable_limits_are_refused_with_the_variable_named() {
    for var in ["TAILOR_MAX_INPUT_BYTES", "TAILOR_THREADS"] {
        for bad in ["abc", "0", "-1", "1.5"] {
            let fan_out = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    clusters:\n    - name: one\n    - name: two\n";
            let run = run_tailor_env(&[], &[(var, bad)], fan_out);
            assert_eq!(run.code, 1, "{var}={bad}: {}", run.stderr);
            let want = format!("environment variable {var}={bad:?} is not a positive whole number");
            assert!(run.stderr.contains(&want), "{var}={bad}: {}", run.stderr);
            assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
            assert!(!run.stdout.contains("name: one/"), "{}", run.stdout);
        }
    }
}

/// More threads than the machine can use are capped (at four per core): 300 destinations
/// with `TAILOR_THREADS=99999` render as with one thread.
#[test]
fn thread_count_is_capped() {
    let clusters: String = (0..300).map(|i| format!("    - name: c{i}\n")).collect();
    let input = format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    clusters:\n{clusters}");
    let many = run_tailor_env(&[], &[("TAILOR_THREADS", "99999")], &input);
    let one = run_tailor_env(&[], &[("TAILOR_THREADS", "1")], &input);
    assert_eq!(many.code, 0, "{}", many.stderr);
    assert_eq!(many.stdout, one.stdout);
    assert_eq!(many.stdout.matches("kind: ConfigMap").count(), 300);
}

/// Memory running short while an input below the limit is read is an error result naming the
/// limit, not an out-of-memory abort: under an address-space cap smaller than the file.
#[cfg(target_os = "linux")]
#[test]
fn memory_short_of_the_limit_is_an_error_naming_it() {
    let dir = common::temp_dir("input-limit-memory");
    let big = dir.join("big.yaml");
    let mut text = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n");
    text.push_str(&"  k: v\n".repeat(50_000_000));
    std::fs::write(&big, &text).unwrap(); // about 350 MB
    let config = dir.join("tailor.yaml");
    std::fs::write(
        &config,
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n",
    )
    .unwrap();
    // 256 MiB of address space: the file does not fit, the limit (1 GiB) is above it.
    let script = format!(
        "ulimit -v 262144; exec {} {} {}",
        common::tailor_bin(),
        config.display(),
        big.display()
    );
    let run = common::run_command(
        std::process::Command::new("sh")
            .arg("-c")
            .arg(&script)
            .env("TAILOR_MAX_INPUT_BYTES", "1073741824"),
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("TAILOR_MAX_INPUT_BYTES"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("memory allocation"), "{}", run.stderr);
}
