//! `action.yml` (issue 29): its steps run as a GitHub runner runs a composite action, with
//! the environment GitHub gives them (`GITHUB_EVENT_PATH` holding a `pull_request` event,
//! `GITHUB_STEP_SUMMARY`, `GITHUB_OUTPUT`, `GITHUB_PATH`, `GITHUB_BASE_REF`, `RUNNER_TEMP`),
//! each `${{ ... }}` expression filled in as GitHub fills it. `tailor diff --base` is played
//! by a fake `tailor` on PATH that records its arguments and prints a canned review, so these
//! tests pin the action's side of the interface; the pull-request comment goes to a fake
//! GitHub API on a local port that records each request. The GitLab CI job of `docs/ci.md`
//! runs here too, its script under `sh` with a merge request's variables.

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use common::{repo_root, run_ok, temp_dir, tool, Run};
use serde_json::{json, Value};

const REVIEW: &str = "## tailor: 2 of 3 clusters change\n\n<details><summary>prod</summary>\n\n```diff\n-replicas: 1\n+replicas: 3\n```\n</details>\n";

fn action() -> Value {
    let text = std::fs::read_to_string(repo_root().join("action.yml")).expect("action.yml");
    let doc = tailor_yaml::parse_stream(&text)
        .expect("yaml")
        .remove(0)
        .root;
    doc.to_json().expect("json")
}

/// A git repository with two commits (base, head) of a small fleet: (dir, base sha).
fn git_workspace(dir: &Path) -> String {
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    std::fs::create_dir_all(dir.join("manifests")).unwrap();
    git(&["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("tailor.yaml"), "kind: Tailor\n").unwrap();
    std::fs::write(dir.join("manifests/web.yaml"), "replicas: 1\n").unwrap();
    git(&["add", "."]);
    git(&["commit", "-qm", "base"]);
    let base = git(&["rev-parse", "HEAD"]);
    std::fs::write(dir.join("manifests/web.yaml"), "replicas: 3\n").unwrap();
    git(&["commit", "-qam", "head"]);
    base
}

/// One recorded request to the fake API.
#[derive(Debug, Clone)]
struct Request {
    method: String,
    path: String,
    authorization: String,
    body: String,
}

/// A GitHub REST API stand-in: lists `existing` as the pull request's comments (page 1; page 2
/// is empty) and accepts a POST or PATCH of a comment. Returns its URL and the request log.
fn fake_api(existing: Value) -> (String, Arc<Mutex<Vec<Request>>>) {
    fake_api_posting(existing, "201 Created")
}

/// [`fake_api`] answering a new comment's POST with `post_status`.
fn fake_api_posting(
    existing: Value,
    post_status: &'static str,
) -> (String, Arc<Mutex<Vec<Request>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&log);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let request = read_request(&mut stream);
            let (status, body) = match request.method.as_str() {
                "GET" if request.path.ends_with("&page=1") => ("200 OK", existing.to_string()),
                "GET" => ("200 OK", "[]".to_string()),
                "POST" if post_status.starts_with("201") => {
                    (post_status, json!({"id": 7001}).to_string())
                }
                "POST" => (
                    post_status,
                    json!({"message": "Resource not accessible by integration"}).to_string(),
                ),
                "PATCH" => ("200 OK", json!({"id": 42}).to_string()),
                _ => ("405 Method Not Allowed", "{}".to_string()),
            };
            seen.lock().unwrap().push(request);
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, log)
}

fn read_request(stream: &mut std::net::TcpStream) -> Request {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).expect("request line");
    let mut words = line.split_whitespace();
    let method = words.next().unwrap_or_default().to_string();
    let path = words.next().unwrap_or_default().to_string();
    let (mut length, mut authorization) = (0, String::new());
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).expect("header");
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "authorization" => authorization = value.trim().to_string(),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("body");
    Request {
        method,
        path,
        authorization,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// PATH without any directory that holds a `tailor`, with `first` in front.
fn search_path(first: &Path) -> String {
    let rest = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(&rest).filter(|d| !d.join("tailor").exists());
    std::env::join_paths(std::iter::once(first.to_path_buf()).chain(dirs))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// A `tailor` standing in for `tailor diff --base`: records its arguments one per line,
/// prints `REVIEW` and exits with `exit`.
fn fake_tailor(bin: &Path, exit: i32) -> PathBuf {
    std::fs::create_dir_all(bin).unwrap();
    let argv = bin.join("argv");
    let script = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{argv}'\n[ \"$1\" = --version ] && {{ echo 'tailor 0.0.0-fake'; exit 0; }}\ncat <<'REVIEW'\n{REVIEW}REVIEW\n[ {exit} = 1 ] && echo 'tailor: [error] tailor.yaml:3 spec.clusters: not a list' >&2\nexit {exit}\n",
        argv = argv.display()
    );
    let path = bin.join("tailor");
    std::fs::write(&path, script).unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    argv
}

/// A run of the action's steps, as a runner runs them.
struct Runner {
    root: PathBuf,
    env: BTreeMap<String, String>,
    inputs: BTreeMap<String, String>,
    outputs: BTreeMap<String, BTreeMap<String, String>>,
    stdout: String,
}

impl Runner {
    /// A pull_request event for PR 17 of octo/fleet whose base commit is `base`.
    fn new(root: &Path, workspace: &Path, base: &str, path: &str) -> Runner {
        let event = root.join("event.json");
        let payload = json!({
            "action": "synchronize",
            "number": 17,
            "pull_request": {
                "number": 17,
                "base": {"ref": "main", "sha": base},
                "head": {"ref": "feature", "sha": "0000000000000000000000000000000000000000"},
            },
            "repository": {"full_name": "octo/fleet"},
        });
        std::fs::write(&event, payload.to_string()).unwrap();
        let temp = root.join("runner-temp");
        std::fs::create_dir_all(&temp).unwrap();
        let file = |name: &str| {
            let p = root.join(name);
            std::fs::write(&p, "").unwrap();
            p.to_string_lossy().into_owned()
        };
        let s = |p: &Path| p.to_string_lossy().into_owned();
        let env = BTreeMap::from([
            ("CI".into(), "true".into()),
            ("HOME".into(), s(root)),
            ("PATH".into(), path.to_string()),
            ("GITHUB_ACTIONS".into(), "true".into()),
            ("GITHUB_EVENT_NAME".into(), "pull_request".into()),
            ("GITHUB_EVENT_PATH".into(), s(&event)),
            ("GITHUB_BASE_REF".into(), "main".into()),
            ("GITHUB_HEAD_REF".into(), "feature".into()),
            ("GITHUB_REPOSITORY".into(), "octo/fleet".into()),
            ("GITHUB_WORKSPACE".into(), s(workspace)),
            ("GITHUB_STEP_SUMMARY".into(), file("step-summary.md")),
            ("GITHUB_PATH".into(), file("github-path")),
            ("GITHUB_API_URL".into(), "http://127.0.0.1:9".into()),
            ("RUNNER_TEMP".into(), s(&temp)),
            ("RUNNER_OS".into(), "Linux".into()),
            ("RUNNER_ARCH".into(), "X64".into()),
        ]);
        Runner {
            root: root.to_path_buf(),
            env,
            inputs: BTreeMap::new(),
            outputs: BTreeMap::new(),
            stdout: String::new(),
        }
    }

    fn input(mut self, name: &str, value: &str) -> Runner {
        self.inputs.insert(name.into(), value.into());
        self
    }

    fn set(mut self, name: &str, value: &str) -> Runner {
        self.env.insert(name.into(), value.into());
        self
    }

    fn summary(&self) -> String {
        std::fs::read_to_string(&self.env["GITHUB_STEP_SUMMARY"]).unwrap()
    }

    /// What `${{ expr }}` is in this run; an expression the test does not know fails.
    fn value(&self, expr: &str, spec: &Value) -> String {
        let expr = expr.trim();
        if let Some(name) = expr.strip_prefix("inputs.") {
            let input = &spec["inputs"][name];
            assert!(
                input.is_object(),
                "action.yml uses an undeclared input {name}"
            );
            return match self.inputs.get(name) {
                Some(v) => v.clone(),
                None => self.expand(input["default"].as_str().unwrap_or(""), spec),
            };
        }
        if let Some(rest) = expr.strip_prefix("steps.") {
            let (id, name) = rest.split_once(".outputs.").expect("steps.ID.outputs.NAME");
            return self
                .outputs
                .get(id)
                .and_then(|o| o.get(name))
                .cloned()
                .unwrap_or_default();
        }
        match expr {
            "github.action_path" => self.root_action_path(),
            "github.action_ref" => "v0.1.0".into(),
            "github.token" => "ghs_fake_token".into(),
            other => panic!("action.yml uses ${{{{ {other} }}}}, which this runner does not know"),
        }
    }

    fn root_action_path(&self) -> String {
        repo_root().to_string_lossy().into_owned()
    }

    fn expand(&self, text: &str, spec: &Value) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("${{") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find("}}").expect("closing }}") + start;
            out.push_str(&self.value(&rest[start + 3..end], spec));
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        out
    }

    /// Runs every step in order; the exit code of the first that fails, or 0.
    fn run(&mut self) -> i32 {
        self.run_first(usize::MAX)
    }

    /// Runs the first `n` steps.
    fn run_first(&mut self, n: usize) -> i32 {
        let spec = action();
        assert_eq!(spec["runs"]["using"], "composite");
        for step in spec["runs"]["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .take(n)
        {
            assert_eq!(step["shell"], "bash", "{step}");
            let script = self.expand(step["run"].as_str().expect("run"), &spec);
            let output = self.root.join("github-output");
            std::fs::write(&output, "").unwrap();
            let mut env = self.env.clone();
            env.insert(
                "GITHUB_OUTPUT".into(),
                output.to_string_lossy().into_owned(),
            );
            for (k, v) in step["env"].as_object().into_iter().flatten() {
                env.insert(
                    k.clone(),
                    self.expand(v.as_str().expect("env value"), &spec),
                );
            }
            // How a runner runs `shell: bash`.
            let out = Command::new("bash")
                .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
                .env_clear()
                .envs(&env)
                .current_dir(&self.env["GITHUB_WORKSPACE"])
                .output()
                .expect("bash");
            self.stdout.push_str(&String::from_utf8_lossy(&out.stdout));
            self.stdout.push_str(&String::from_utf8_lossy(&out.stderr));
            if let Some(id) = step["id"].as_str() {
                let text = std::fs::read_to_string(&output).unwrap();
                let values = text
                    .lines()
                    .filter_map(|l| l.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()));
                self.outputs.insert(id.into(), values.collect());
            }
            self.add_path();
            if !out.status.success() {
                return out.status.code().unwrap_or(-1);
            }
        }
        0
    }

    /// What a step appended to GITHUB_PATH comes first on PATH in the later steps.
    fn add_path(&mut self) {
        let added = std::fs::read_to_string(&self.env["GITHUB_PATH"]).unwrap();
        std::fs::write(&self.env["GITHUB_PATH"], "").unwrap();
        for dir in added.lines().filter(|l| !l.is_empty()) {
            let path = format!("{dir}:{}", self.env["PATH"]);
            self.env.insert("PATH".into(), path);
        }
    }
}

/// jq, curl and git, as GitHub's runners have them; jq is installed (apt) when missing, and
/// a tool still missing skips the test with a loud line.
fn have_tools() -> bool {
    if tool("jq").is_none() {
        common::install_python_tools();
    }
    ["jq", "curl", "git"].iter().all(|t| tool(t).is_some())
}

/// Each setup holds a git workspace and copies of the binary (about 300 MB with the release
/// assets) in `root`: removed when the test ends, passed or failed, so runs do not fill the
/// disk.
struct Setup {
    root: common::TempDir,
    workspace: PathBuf,
    base: String,
    argv: PathBuf,
    bin: PathBuf,
}

fn setup(tag: &str, exit: i32) -> Setup {
    let root = temp_dir(tag);
    let workspace = root.join("workspace");
    std::fs::create_dir_all(&workspace).unwrap();
    let base = git_workspace(&workspace);
    let bin = root.join("bin");
    let argv = fake_tailor(&bin, exit);
    Setup {
        root,
        workspace,
        base,
        argv,
        bin,
    }
}

impl Setup {
    fn runner(&self) -> Runner {
        Runner::new(
            &self.root,
            &self.workspace,
            &self.base,
            &search_path(&self.bin),
        )
        .input("config", "tailor.yaml")
        .input("inputs", "manifests")
    }

    fn argv(&self) -> Vec<String> {
        let text = std::fs::read_to_string(&self.argv).expect("tailor was run");
        text.lines().map(str::to_string).collect()
    }
}

#[test]
fn a_pull_request_review_goes_to_the_summary_and_a_new_comment() {
    if !have_tools() {
        return;
    }
    let s = setup("action-new", 2);
    let (api, log) = fake_api(json!([{"id": 5, "body": "LGTM"}]));
    let mut runner = s
        .runner()
        .input("comment", "true")
        .set("GITHUB_API_URL", &api);
    assert_eq!(runner.run(), 0, "{}", runner.stdout);
    assert_eq!(
        s.argv(),
        [
            "diff",
            "--base",
            &s.base,
            "--format",
            "markdown",
            "--exit-code",
            "tailor.yaml",
            "manifests"
        ]
    );
    assert!(runner.summary().contains(REVIEW), "{}", runner.summary());
    assert_eq!(runner.outputs["review"]["changed"], "true");
    let log = log.lock().unwrap().clone();
    let methods: Vec<&str> = log.iter().map(|r| r.method.as_str()).collect();
    assert_eq!(methods, ["GET", "GET", "POST"], "{log:?}");
    assert_eq!(
        log[0].path,
        "/repos/octo/fleet/issues/17/comments?per_page=100&page=1"
    );
    let post = &log[2];
    assert_eq!(post.path, "/repos/octo/fleet/issues/17/comments");
    assert_eq!(post.authorization, "Bearer ghs_fake_token");
    let body: Value = serde_json::from_str(&post.body).expect("json body");
    assert_eq!(body["body"], format!("<!-- tailor-review -->\n{REVIEW}"));
}

#[test]
fn a_later_push_updates_the_comment_it_posted() {
    if !have_tools() {
        return;
    }
    let s = setup("action-update", 2);
    let existing = json!([
        {"id": 5, "body": "LGTM"},
        {"id": 42, "body": "<!-- tailor-review -->\nan older review"},
    ]);
    let (api, log) = fake_api(existing);
    let mut runner = s
        .runner()
        .input("comment", "true")
        .set("GITHUB_API_URL", &api);
    assert_eq!(runner.run(), 0, "{}", runner.stdout);
    let log = log.lock().unwrap().clone();
    let last = log.last().expect("requests");
    assert_eq!(
        (last.method.as_str(), last.path.as_str()),
        ("PATCH", "/repos/octo/fleet/issues/comments/42")
    );
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(
        last.body.contains("2 of 3 clusters change"),
        "{}",
        last.body
    );
}

#[test]
fn dry_run_prints_the_comment_and_sends_nothing() {
    if !have_tools() {
        return;
    }
    let s = setup("action-dry", 2);
    let (api, log) = fake_api(json!([]));
    let mut runner = s
        .runner()
        .input("comment", "dry-run")
        .set("GITHUB_API_URL", &api);
    assert_eq!(runner.run(), 0, "{}", runner.stdout);
    assert!(log.lock().unwrap().is_empty());
    assert!(
        runner.stdout.contains("dry-run: would update"),
        "{}",
        runner.stdout
    );
    assert!(
        runner.stdout.contains("2 of 3 clusters change"),
        "{}",
        runner.stdout
    );
}

#[test]
fn no_change_and_fail_on_change() {
    if !have_tools() {
        return;
    }
    // Nothing changes: the job passes even with fail-on-change.
    let s = setup("action-same", 0);
    let mut runner = s.runner().input("fail-on-change", "true");
    assert_eq!(runner.run(), 0, "{}", runner.stdout);
    assert_eq!(runner.outputs["review"]["changed"], "false");
    // Something changes: the summary is written, then the job fails.
    let s = setup("action-changed", 2);
    let mut runner = s.runner().input("fail-on-change", "true");
    assert_eq!(runner.run(), 1, "{}", runner.stdout);
    assert!(runner.summary().contains(REVIEW));
    assert!(
        runner.stdout.contains("fail-on-change: true"),
        "{}",
        runner.stdout
    );
}

#[test]
fn an_error_fails_the_job_with_tailors_messages_in_the_summary() {
    if !have_tools() {
        return;
    }
    let s = setup("action-error", 1);
    let (api, log) = fake_api(json!([]));
    let mut runner = s
        .runner()
        .input("comment", "true")
        .set("GITHUB_API_URL", &api);
    assert_eq!(runner.run(), 1, "{}", runner.stdout);
    let summary = runner.summary();
    assert!(
        summary.contains("could not review this change (exit code 1)"),
        "{summary}"
    );
    assert!(summary.contains("spec.clusters: not a list"), "{summary}");
    assert!(!summary.contains(REVIEW), "{summary}");
    assert!(log.lock().unwrap().is_empty(), "no comment after an error");
}

/// actions/checkout fetches one commit: the base commit is fetched from origin first.
#[test]
fn a_shallow_checkout_fetches_the_base_commit() {
    if !have_tools() {
        return;
    }
    let s = setup("action-shallow", 2);
    let clone = s.root.join("clone");
    let origin = format!("file://{}", s.workspace.display());
    let out = Command::new("git")
        .args(["clone", "-q", "--depth", "1", &origin])
        .arg(&clone)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let has_base = || {
        Command::new("git")
            .args(["cat-file", "-e", &format!("{}^{{commit}}", s.base)])
            .current_dir(&clone)
            .status()
            .unwrap()
            .success()
    };
    assert!(!has_base());
    let mut runner = s.runner().set("GITHUB_WORKSPACE", &clone.to_string_lossy());
    assert_eq!(runner.run(), 0, "{}", runner.stdout);
    assert!(has_base(), "the base commit was fetched");
    assert_eq!(s.argv()[2], s.base);
}

/// With no tailor on PATH the release binary of the action's tag is downloaded, checked
/// against SHA256SUMS and put on PATH; a binary that does not match is refused.
#[test]
fn the_release_binary_is_installed_and_checked() {
    if !have_tools() {
        return;
    }
    let s = setup("action-install", 2);
    let releases = s.root.join("releases");
    let dir = releases.join("v0.1.0");
    std::fs::create_dir_all(&dir).unwrap();
    let asset = dir.join("tailor-x86_64-unknown-linux-musl");
    std::fs::copy(common::tailor_bin(), &asset).unwrap();
    let sum = Command::new("sha256sum").arg(&asset).output().unwrap();
    let sum = String::from_utf8_lossy(&sum.stdout);
    let sum = sum.split_whitespace().next().unwrap();
    std::fs::write(
        dir.join("SHA256SUMS"),
        format!("{sum}  tailor-x86_64-unknown-linux-musl\n"),
    )
    .unwrap();
    // PATH without the fake tailor: the install step must bring one.
    let empty = s.root.join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let url = format!("file://{}", releases.display());
    let mut runner = Runner::new(&s.root, &s.workspace, &s.base, &search_path(&empty))
        .input("config", "tailor.yaml")
        .set("TAILOR_RELEASE_URL", &url);
    assert_eq!(runner.run_first(1), 0, "{}", runner.stdout);
    assert!(
        runner
            .stdout
            .contains("installed release v0.1.0 (x86_64-unknown-linux-musl)"),
        "{}",
        runner.stdout
    );
    // The later steps find the installed binary first on PATH.
    let version = Command::new("tailor")
        .arg("--version")
        .env("PATH", &runner.env["PATH"])
        .output()
        .expect("the installed tailor runs");
    let want = run_ok(Command::new(common::tailor_bin()).arg("--version"));
    assert_eq!(String::from_utf8_lossy(&version.stdout), want);
    // A binary that does not match its checksum is refused and not installed.
    std::fs::write(
        dir.join("SHA256SUMS"),
        format!("{}  tailor-x86_64-unknown-linux-musl\n", "0".repeat(64)),
    )
    .unwrap();
    let root2 = s.root.join("second");
    std::fs::create_dir_all(&root2).unwrap();
    let mut runner = Runner::new(&root2, &s.workspace, &s.base, &search_path(&empty))
        .input("config", "tailor.yaml")
        .set("TAILOR_RELEASE_URL", &url);
    assert_eq!(runner.run_first(1), 1, "{}", runner.stdout);
    assert!(
        runner
            .stdout
            .contains("does not match its SHA256SUMS entry"),
        "{}",
        runner.stdout
    );
    assert!(!root2.join("runner-temp/tailor-0.1.0/tailor").exists());
}

/// The GitLab CI job of `docs/ci.md`: its `script` lines, run by `sh` as a GitLab runner
/// runs them with a merge request's variables, with the fake tailor and a fake GitLab API.
fn gitlab_job(exit: i32, token: &str) -> (Run, Option<Request>, Setup) {
    let docs = std::fs::read_to_string(repo_root().join("docs/ci.md")).unwrap();
    let start = docs
        .find("```yaml\ntailor-review:")
        .expect("the GitLab job in docs/ci.md")
        + 8;
    let end = docs[start..].find("```").unwrap() + start;
    let job = tailor_yaml::parse_stream(&docs[start..end])
        .expect("yaml")
        .remove(0)
        .root;
    let job = job.to_json().unwrap();
    let script: Vec<String> = job["tailor-review"]["script"]
        .as_array()
        .expect("script")
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    let s = setup("gitlab", exit);
    let (api, log) = fake_api(json!([]));
    let mut cmd = Command::new("sh");
    cmd.args(["-e", "-c", &script.join("\n")])
        .current_dir(&s.workspace)
        .env_clear()
        .env("PATH", search_path(&s.bin))
        .env("CI_PIPELINE_SOURCE", "merge_request_event")
        .env("CI_MERGE_REQUEST_DIFF_BASE_SHA", &s.base)
        .env("CI_MERGE_REQUEST_IID", "7")
        .env("CI_PROJECT_ID", "42")
        .env("CI_API_V4_URL", format!("{api}/api/v4"))
        .env("TAILOR_REVIEW_TOKEN", token);
    let run = common::run_command(&mut cmd, "");
    let request = log.lock().unwrap().first().cloned();
    (run, request, s)
}

#[test]
fn the_gitlab_job_reviews_a_merge_request() {
    if !have_tools() {
        return;
    }
    // A change: the job passes, review.md holds the review, the note is posted.
    let (run, request, s) = gitlab_job(2, "glpat-fake");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        s.argv(),
        [
            "diff",
            "--base",
            &s.base,
            "--format",
            "markdown",
            "--exit-code",
            "tailor.yaml",
            "manifests"
        ]
    );
    let review = std::fs::read_to_string(s.workspace.join("review.md")).unwrap();
    assert!(review.contains(REVIEW), "{review}");
    let request = request.expect("a note was posted");
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/api/v4/projects/42/merge_requests/7/notes");
    assert!(
        request.body.starts_with("body=") && request.body.contains("clusters"),
        "{}",
        request.body
    );
    // No token: no note, the job still passes.
    let (run, request, _) = gitlab_job(2, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(request.is_none());
    // An error fails the job and posts nothing.
    let (run, request, _) = gitlab_job(1, "glpat-fake");
    assert_ne!(run.code, 0);
    assert!(request.is_none());
}

/// A pull request from a fork gets a read-only token: the refused comment is a warning, the
/// job passes with the review in its summary.
#[test]
fn a_comment_the_token_may_not_post_is_a_warning() {
    if !have_tools() {
        return;
    }
    let s = setup("action-forbidden", 2);
    let (api, log) = fake_api_posting(json!([]), "403 Forbidden");
    let mut runner = s
        .runner()
        .input("comment", "true")
        .set("GITHUB_API_URL", &api);
    assert_eq!(runner.run(), 0, "{}", runner.stdout);
    assert!(runner.summary().contains(REVIEW));
    assert!(
        runner
            .stdout
            .contains("::warning title=tailor::could not post the review as a comment")
            && runner
                .stdout
                .contains("Resource not accessible by integration"),
        "{}",
        runner.stdout
    );
    assert_eq!(log.lock().unwrap().last().unwrap().method, "POST");
}
