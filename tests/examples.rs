//! Every example under `examples/` runs as its README says and gives its committed output.
//!
//! An example is a directory with a README.md whose ```sh blocks hold its commands, each as a
//! user types it from the repository root, followed by `# output: expected/NAME`:
//! - `NAME` a file: the command's stdout, byte for byte;
//! - `NAME/` a directory: what the command writes to `out/` (the test points `out/` at a
//!   fresh temporary directory), file for file.
//!
//! `tailor` is the binary under test, put first on PATH, so the commands (and the Kptfile's
//! `exec: tailor` and the kustomize `exec: {path: tailor}` they run) find it as a user's
//! shell would. A command that only runs tailor must also print exactly
//! `expected/NAME.stderr` (without the `/`) on stderr, or nothing when there is no such file;
//! kpt and kustomize print timings there, so theirs is not compared. A command that needs kpt
//! or kustomize is skipped with a loud line when the tool is not installed.
//!
//! `TAILOR_UPDATE_EXAMPLES=1` writes the outputs instead of comparing them: read every
//! changed file before committing it.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{read_tree, repo_root, temp_dir, tool, Run};

/// One command of an example's README.
struct Example {
    dir: PathBuf,
    name: String,
    commands: Vec<Step>,
}

struct Step {
    line: String,
    /// Relative to the example's directory; ends with `/` for a directory.
    expected: String,
}

impl Step {
    fn is_dir(&self) -> bool {
        self.expected.ends_with('/')
    }

    /// The programs the command line runs (the first word of each part of a pipe).
    fn programs(&self) -> Vec<&str> {
        self.line
            .split('|')
            .filter_map(|part| part.split_whitespace().next())
            .collect()
    }

    fn stderr_file(&self) -> String {
        format!("{}.stderr", self.expected.trim_end_matches('/'))
    }
}

const MARK: &str = "# output: ";

fn examples() -> Vec<Example> {
    let root = repo_root().join("examples");
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("examples/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let readme = std::fs::read_to_string(dir.join("README.md"))
            .unwrap_or_else(|e| panic!("examples/{name}/README.md: {e}"));
        out.push(Example {
            commands: commands(&readme),
            dir,
            name,
        });
    }
    out
}

/// The `... # output: expected/...` lines of the README's ```sh blocks.
fn commands(readme: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some((cmd, expected)) = trimmed.rsplit_once(MARK) {
            steps.push(Step {
                line: cmd.trim().to_string(),
                expected: expected.trim().to_string(),
            });
        }
    }
    steps
}

/// PATH with the binary under test first, then the repository's tools.
fn search_path() -> std::ffi::OsString {
    let bin = Path::new(common::tailor_bin())
        .parent()
        .expect("binary directory")
        .to_path_buf();
    let tools = repo_root().join("target-tools").join("bin");
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths([bin, tools].into_iter().chain(std::env::split_paths(&rest)))
        .expect("PATH")
}

fn run_line(line: &str) -> Run {
    run_line_env(line, &[])
}

/// [`run_line`] with extra environment variables, which reach tailor under kpt too.
fn run_line_env(line: &str, env: &[(&str, &str)]) -> Run {
    common::run_command(
        Command::new("bash")
            .args(["-o", "pipefail", "-c", line])
            .current_dir(repo_root())
            .env("PATH", search_path())
            .envs(env.iter().copied()),
        "",
    )
}

fn update() -> bool {
    std::env::var_os("TAILOR_UPDATE_EXAMPLES").is_some_and(|v| v == "1")
}

/// Runs one command and compares (or writes) its output; returns what differs.
fn check(example: &Example, step: &Step, env: &[(&str, &str)]) -> Vec<String> {
    let what = format!("examples/{}: `{}` {env:?}", example.name, step.line);
    let expected = example.dir.join(&step.expected);
    let tmp = step
        .is_dir()
        .then(|| temp_dir(&format!("example-{}", example.name)));
    let (line, out_dir) = if let Some(tmp) = &tmp {
        assert!(
            step.line.contains(" out/"),
            "{what}: an output directory is compared, so the command must write to out/"
        );
        // Not created: `kpt fn sink` refuses a directory that exists.
        let out = tmp.join("out");
        (
            step.line.replace(" out/", &format!(" {}/", out.display())),
            Some(out),
        )
    } else {
        (step.line.clone(), None)
    };
    let run = run_line_env(&line, env);
    if run.code != 0 {
        return vec![format!(
            "{what}: exit code {}\n{}{}",
            run.code, run.stdout, run.stderr
        )];
    }
    let only_tailor = step.programs().iter().all(|p| *p == "tailor");
    let stderr_path = example.dir.join(step.stderr_file());
    let mut problems = Vec::new();
    if update() && env.is_empty() {
        match &out_dir {
            Some(out) => {
                let _ = std::fs::remove_dir_all(&expected);
                common::copy_dir(out, &expected);
            }
            None => {
                std::fs::create_dir_all(expected.parent().unwrap()).unwrap();
                std::fs::write(&expected, &run.stdout).unwrap();
            }
        }
        if only_tailor {
            if run.stderr.is_empty() {
                let _ = std::fs::remove_file(&stderr_path);
            } else {
                std::fs::write(&stderr_path, &run.stderr).unwrap();
            }
        }
        eprintln!("updated {}", expected.display());
        return problems;
    }
    match &out_dir {
        Some(out) => {
            let got = if out.exists() {
                read_tree(out)
            } else {
                BTreeMap::new()
            };
            let want = if expected.is_dir() {
                read_tree(&expected)
            } else {
                BTreeMap::new()
            };
            for path in want
                .keys()
                .chain(got.keys().filter(|k| !want.contains_key(*k)))
            {
                match (want.get(path), got.get(path)) {
                    (Some(w), Some(g)) if w == g => {}
                    (Some(w), Some(g)) => problems.push(format!(
                        "{what}: {}{path} differs\n--- expected\n{}\n--- got\n{}",
                        step.expected,
                        String::from_utf8_lossy(w),
                        String::from_utf8_lossy(g)
                    )),
                    (Some(_), None) => {
                        problems.push(format!("{what}: {}{path} was not written", step.expected))
                    }
                    (None, _) => problems.push(format!(
                        "{what}: wrote {path}, which {} does not have",
                        step.expected
                    )),
                }
            }
        }
        None => {
            let want = std::fs::read_to_string(&expected)
                .unwrap_or_else(|e| panic!("{what}: {}: {e}", expected.display()));
            if want != run.stdout {
                problems.push(format!(
                    "{what}: stdout differs from {}\n--- expected\n{want}\n--- got\n{}",
                    step.expected, run.stdout
                ));
            }
        }
    }
    if only_tailor {
        let want = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        if want != run.stderr {
            problems.push(format!(
                "{what}: stderr differs from {}\n--- expected\n{want}\n--- got\n{}",
                step.stderr_file(),
                run.stderr
            ));
        }
    }
    problems
}

#[test]
fn every_example_gives_its_expected_output() {
    check_every_example(&[]);
}

/// A fan-out renders once per distinct destination; rendering each on its own gives the same
/// bytes, stdout, stderr and files (`tests/fan_out_dedup.rs` has fan-outs built for it).
#[test]
fn every_example_gives_the_same_output_rendering_each_destination_on_its_own() {
    if update() {
        return;
    }
    check_every_example(&[("TAILOR_FAN_OUT_DEDUP", "0")]);
}

fn check_every_example(env: &[(&str, &str)]) {
    let mut problems = Vec::new();
    let mut ran = 0;
    for example in examples() {
        for step in &example.commands {
            let mut needed = step.programs();
            needed.sort_unstable();
            needed.dedup();
            let missing: Vec<&str> = needed
                .into_iter()
                .filter(|p| *p != "tailor")
                .filter(|p| tool(p).is_none())
                .collect();
            if !missing.is_empty() {
                eprintln!(
                    "!!! SKIPPED examples/{}: `{}` needs {} !!!",
                    example.name,
                    step.line,
                    missing.join(", ")
                );
                continue;
            }
            problems.extend(check(&example, step, env));
            ran += 1;
        }
    }
    assert!(ran > 0, "no example command ran");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The package a `kpt fn render DIR` or `kpt fn eval DIR` command of an example works on, and
/// the command run in place on a copy `{dir}` of it (without `-o unwrap`, so kpt writes the
/// package back).
fn in_place_command(step: &Step) -> Option<(String, String)> {
    let words: Vec<&str> = step.line.split_whitespace().collect();
    if step.line.contains('|') || words.len() < 4 || words[0] != "kpt" || words[1] != "fn" {
        return None;
    }
    if words[2] != "render" && words[2] != "eval" {
        return None;
    }
    let package = words[3].to_string();
    let mut line = Vec::new();
    let mut skip = false;
    for (i, w) in words.iter().enumerate() {
        if std::mem::take(&mut skip) {
            continue;
        }
        match *w {
            "-o" | "--output" => skip = true,
            _ if i == 3 => line.push("{dir}"),
            _ => line.push(w),
        }
    }
    Some((package, line.join(" ")))
}

/// Every example that runs under kpt renders twice in place, and the package after the
/// second render is byte for byte the package after the first, with no file deleted, moved
/// or added (kpt writes back exactly what tailor returns).
#[test]
fn every_kpt_example_renders_twice_in_place_to_the_same_package() {
    if tool("kpt").is_none() {
        eprintln!("!!! SKIPPED rendering the kpt examples twice: kpt is not installed !!!");
        return;
    }
    let mut ran = Vec::new();
    let mut problems = Vec::new();
    for example in examples() {
        for step in &example.commands {
            let Some((package, line)) = in_place_command(step) else {
                continue;
            };
            let tmp = temp_dir(&format!("twice-{}", example.name));
            let dir = tmp.join("package");
            common::copy_dir(&repo_root().join(&package), &dir);
            let line = line.replace("{dir}", &dir.display().to_string());
            let before = read_tree(&dir);
            let mut trees = Vec::new();
            for _ in 0..2 {
                let run = run_line(&line);
                if run.code != 0 {
                    problems.push(format!(
                        "`{line}`: exit code {}
{}",
                        run.code, run.stderr
                    ));
                }
                trees.push(read_tree(&dir));
            }
            let names = |t: &BTreeMap<String, Vec<u8>>| t.keys().cloned().collect::<Vec<_>>();
            if names(&trees[0]) != names(&before) {
                problems.push(format!(
                    "examples/{}: `{}` changed the files: {:?} became {:?}",
                    example.name,
                    step.line,
                    names(&before),
                    names(&trees[0])
                ));
            }
            for (path, bytes) in &trees[0] {
                if trees[1].get(path) != Some(bytes) {
                    problems.push(format!(
                        "examples/{}: `{}`: {path} changed on the second render",
                        example.name, step.line
                    ));
                }
            }
            ran.push(step.line.clone());
            let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
        }
    }
    assert!(ran.len() >= 3, "only {ran:?} ran under kpt");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The examples' shape: each README names at least one command, each command's programs are
/// tailor, kpt or kustomize, every file under `expected/` is some command's output, and the
/// index lists every example with one of its commands.
#[test]
fn every_example_is_complete_and_indexed() {
    let index = std::fs::read_to_string(repo_root().join("examples/README.md")).expect("index");
    let mut problems = Vec::new();
    for example in examples() {
        let name = &example.name;
        if example.commands.is_empty() {
            problems.push(format!(
                "examples/{name}/README.md has no command (a ```sh line ending `{MARK}expected/...`)"
            ));
        }
        for step in &example.commands {
            for p in step.programs() {
                if !["tailor", "kpt", "kustomize"].contains(&p) {
                    problems.push(format!(
                        "examples/{name}: `{}` runs {p}; commands run tailor, kpt or kustomize",
                        step.line
                    ));
                }
            }
            if !step.expected.starts_with("expected/") {
                problems.push(format!(
                    "examples/{name}: `{}`: outputs live under expected/",
                    step.line
                ));
            }
        }
        // Every committed output belongs to a command (a stale file would go unchecked).
        let expected = example.dir.join("expected");
        if expected.is_dir() {
            for file in read_tree(&expected).keys() {
                let path = format!("expected/{file}");
                let owned = example.commands.iter().any(|s| {
                    let output = if s.is_dir() {
                        path.starts_with(&s.expected)
                    } else {
                        path == s.expected
                    };
                    output || path == s.stderr_file()
                });
                if !owned {
                    problems.push(format!(
                        "examples/{name}/{path} is no command's output; remove it"
                    ));
                }
            }
        }
        // The index row: a link to the example and one of its commands, as in its README.
        let row = index
            .lines()
            .find(|l| l.starts_with(&format!("| [`{name}/`]({name}/) |")));
        match row {
            None => problems.push(format!("examples/README.md does not list {name}/")),
            Some(row) => {
                let row = row.replace("\\|", "|");
                if !example
                    .commands
                    .iter()
                    .any(|s| row.contains(&format!("`{}`", s.line)))
                {
                    problems.push(format!(
                        "examples/README.md: the row of {name}/ shows none of its README's commands"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
