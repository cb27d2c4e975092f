//! Where users already run tailor (issue 29): the sharded renders of `examples/ci/` on a
//! Kubernetes Indexed Job and an Argo Workflows fan-out, each run as the engine runs it.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{read_tree, repo_root, temp_dir};
use serde_json::Value;

/// The first document of a repository file, as JSON.
fn yaml_file(path: &str) -> Value {
    let text = std::fs::read_to_string(repo_root().join(path)).expect(path);
    let doc = tailor_yaml::parse_stream(&text).expect(path).remove(0).root;
    doc.to_json().expect("json")
}

fn strings(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

/// Runs a container's `args` with this build as its entrypoint and `env` set, the volume
/// `/source` being `examples/ci` and `/rendered` `out`; returns what it wrote under `out`.
fn run_container(args: &[String], env: &[(String, String)], out: &Path) {
    let source = repo_root().join("examples/ci");
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            a.replace("/source", &source.to_string_lossy())
                .replace("/rendered", &out.to_string_lossy())
        })
        .collect();
    let r = Command::new(common::tailor_bin())
        .args(&args)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("spawn");
    assert!(
        r.status.success(),
        "{args:?} {env:?}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
}

/// The unsharded render of `examples/ci`, as path under a cluster directory → bytes.
fn whole_fleet() -> BTreeMap<String, Vec<u8>> {
    let tmp = temp_dir("fleet-whole");
    let out = tmp.join("out");
    let ci = repo_root().join("examples/ci");
    let r = Command::new(common::tailor_bin())
        .arg(ci.join("tailor.yaml"))
        .arg(ci.join("manifests"))
        .arg("--output-dir")
        .arg(&out)
        .output()
        .expect("spawn");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let tree = read_tree(&out);
    assert_eq!(tree.len(), 12, "{:?}", tree.keys());
    tree
}

/// The shard directories under `out`, merged; a cluster in two shards fails.
fn union_of_shards(out: &Path, shards: usize) -> BTreeMap<String, Vec<u8>> {
    let mut union = BTreeMap::new();
    for entry in std::fs::read_dir(out).expect("rendered") {
        let dir = entry.expect("entry").path();
        for (path, bytes) in read_tree(&dir) {
            assert!(union.insert(path.clone(), bytes).is_none(), "{path} twice");
        }
    }
    assert_eq!(std::fs::read_dir(out).unwrap().count(), shards);
    union
}

/// `examples/ci/indexed-job.yaml`: every pod of the Indexed Job, as Kubernetes starts it
/// (`JOB_COMPLETION_INDEX` set, `$(JOB_COMPLETION_INDEX)` expanded in the arguments).
#[test]
fn the_indexed_job_renders_the_whole_fleet() {
    let job = yaml_file("examples/ci/indexed-job.yaml");
    assert_eq!(job["spec"]["completionMode"], "Indexed");
    let completions = job["spec"]["completions"].as_u64().expect("completions");
    let container = &job["spec"]["template"]["spec"]["containers"][0];
    let args = strings(&container["args"]);
    let tmp = temp_dir("indexed-job");
    let out = tmp.join("rendered");
    std::fs::create_dir_all(&out).unwrap();
    for index in 0..completions {
        let index = index.to_string();
        let args: Vec<String> = args
            .iter()
            .map(|a| a.replace("$(JOB_COMPLETION_INDEX)", &index))
            .collect();
        run_container(&args, &[("JOB_COMPLETION_INDEX".into(), index)], &out);
    }
    assert_eq!(union_of_shards(&out, completions as usize), whole_fleet());
}

/// `examples/ci/argo-workflow.yaml`: each step `withSequence` starts, with its item
/// substituted into the render template's env and arguments as Argo does.
#[test]
fn the_argo_workflow_fan_out_renders_the_whole_fleet() {
    let workflow = yaml_file("examples/ci/argo-workflow.yaml");
    let templates = workflow["spec"]["templates"].as_array().expect("templates");
    let step = &templates[0]["steps"][0][0];
    let count: u64 = step["withSequence"]["count"]
        .as_str()
        .expect("count")
        .parse()
        .expect("a number");
    assert_eq!(step["arguments"]["parameters"][0]["value"], "{{item}}");
    let render = templates
        .iter()
        .find(|t| t["name"] == step["template"])
        .expect("the step's template");
    let container = &render["container"];
    let tmp = temp_dir("argo-workflow");
    let out = tmp.join("rendered");
    std::fs::create_dir_all(&out).unwrap();
    for item in 0..count {
        let item = item.to_string();
        let fill = |s: &str| s.replace("{{inputs.parameters.index}}", &item);
        let env: Vec<(String, String)> = container["env"]
            .as_array()
            .expect("env")
            .iter()
            .map(|e| {
                let value = e["value"].as_str().expect("value");
                (e["name"].as_str().expect("name").to_string(), fill(value))
            })
            .collect();
        let args: Vec<String> = strings(&container["args"])
            .iter()
            .map(|a| fill(a))
            .collect();
        run_container(&args, &env, &out);
    }
    assert_eq!(union_of_shards(&out, count as usize), whole_fleet());
}

/// A shard index the engine did not set, or set beyond N, is a usage error naming it.
#[test]
fn a_missing_or_out_of_range_index_is_refused() {
    let ci = repo_root().join("examples/ci");
    let config = ci.join("tailor.yaml");
    let manifests = ci.join("manifests");
    for (env, says) in [
        (None, "JOB_COMPLETION_INDEX is not set"),
        (Some("4"), "not a 0-based index from 0 to 3"),
        (Some("-1"), "not a 0-based index"),
    ] {
        let mut cmd = Command::new(common::tailor_bin());
        cmd.arg(&config)
            .arg(&manifests)
            .args(["--shard", "env:JOB_COMPLETION_INDEX/4"])
            .env_remove("JOB_COMPLETION_INDEX");
        if let Some(v) = env {
            cmd.env("JOB_COMPLETION_INDEX", v);
        }
        let r = cmd.output().expect("spawn");
        assert_eq!(r.status.code(), Some(2), "{env:?}");
        assert!(r.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert!(stderr.contains(says), "{env:?}: {stderr}");
    }
}

/// What the ApplicationSet's cluster generator gives a template for one Argo CD cluster.
struct ArgoCluster {
    name: &'static str,
    labels: BTreeMap<&'static str, &'static str>,
}

fn argo_clusters() -> Vec<ArgoCluster> {
    let labels = |env, region| {
        BTreeMap::from([
            ("argocd.argoproj.io/secret-type", "cluster"),
            ("env", env),
            ("region", region),
            ("tailor.dev/render", "true"),
        ])
    };
    vec![
        ArgoCluster {
            name: "eu-prod-1",
            labels: labels("prod", "eu"),
        },
        ArgoCluster {
            name: "us-dev-1",
            labels: labels("dev", "us"),
        },
    ]
}

/// Runs plugin.yaml's `generate` in `app` as the CMP server does: its command and args,
/// the Application's environment, and each plugin env entry as `ARGOCD_ENV_NAME`.
fn generate(app: &Path, plugin_env: &[(String, String)]) -> common::Run {
    let plugin = yaml_file("plugin.yaml");
    let generate = &plugin["spec"]["generate"];
    let mut argv = strings(&generate["command"]);
    argv.extend(strings(&generate["args"]));
    let bin = Path::new(common::tailor_bin()).parent().unwrap();
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display());
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .current_dir(app)
        .env_clear()
        .env("PATH", path)
        .env("ARGOCD_APP_NAME", "web")
        .env("ARGOCD_APP_NAMESPACE", "web")
        .env(
            "ARGOCD_APP_REVISION",
            "0123456789abcdef0123456789abcdef01234567",
        )
        .env("ARGOCD_APP_SOURCE_PATH", "examples/argocd/app")
        .env(
            "ARGOCD_APP_SOURCE_REPO_URL",
            "https://github.com/example/fleet.git",
        )
        .env("ARGOCD_APP_SOURCE_TARGET_REVISION", "main")
        .env("KUBE_VERSION", "1.31.0")
        .env("KUBE_API_VERSIONS", "v1,apps/v1,batch/v1");
    for (name, value) in plugin_env {
        cmd.env(format!("ARGOCD_ENV_{name}"), value);
    }
    common::run_command(&mut cmd, "")
}

/// `plugin.yaml` with `examples/argocd/`: each Application the ApplicationSet generates gets
/// its cluster's render (`examples/argocd/expected/NAME.yaml`, `TAILOR_UPDATE_EXAMPLES=1`
/// rewrites them), with the labels of Argo CD's cluster secret choosing the customization.
#[test]
fn the_argocd_plugin_renders_each_generated_application() {
    let plugin = yaml_file("plugin.yaml");
    assert_eq!(plugin["apiVersion"], "argoproj.io/v1alpha1");
    assert_eq!(plugin["kind"], "ConfigManagementPlugin");
    let appset = yaml_file("examples/argocd/applicationset.yaml");
    let source = &appset["spec"]["template"]["spec"]["source"];
    // A sidecar plugin is named NAME-VERSION.
    let name = format!(
        "{}-{}",
        plugin["metadata"]["name"].as_str().unwrap(),
        plugin["spec"]["version"].as_str().unwrap()
    );
    assert_eq!(source["plugin"]["name"], name.as_str());
    let app = repo_root().join(source["path"].as_str().expect("path"));
    let discover = plugin["spec"]["discover"]["fileName"].as_str().unwrap();
    assert!(app.join(discover).is_file(), "discover finds {discover}");
    for cluster in argo_clusters() {
        let env: Vec<(String, String)> = source["plugin"]["env"]
            .as_array()
            .expect("plugin env")
            .iter()
            .map(|e| {
                let value = e["value"].as_str().expect("value");
                let filled = value.replace("{{ .name }}", cluster.name).replace(
                    "{{ toJson .metadata.labels }}",
                    &serde_json::to_string(&cluster.labels).unwrap(),
                );
                assert!(!filled.contains("{{"), "unfilled template {value}");
                (e["name"].as_str().unwrap().to_string(), filled)
            })
            .collect();
        let run = generate(&app, &env);
        assert_eq!(run.code, 0, "{}: {}", cluster.name, run.stderr);
        let expected = repo_root()
            .join("examples/argocd/expected")
            .join(format!("{}.yaml", cluster.name));
        if std::env::var_os("TAILOR_UPDATE_EXAMPLES").is_some_and(|v| v == "1") {
            std::fs::write(&expected, &run.stdout).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expected).expect("expected render");
        assert_eq!(run.stdout, want, "{}", cluster.name);
    }
}

/// A cluster the configuration does not name, a missing name or labels that are not a JSON
/// object fail the generate step (Argo CD shows the message) instead of rendering nothing.
#[test]
fn the_argocd_plugin_refuses_what_it_cannot_render() {
    let app = repo_root().join("examples/argocd/app");
    let env = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    for (vars, says) in [
        (env(&[("TAILOR_CLUSTER", "ap-lab-9")]), "ap-lab-9"),
        (env(&[]), "set TAILOR_CLUSTER"),
        (
            env(&[("TAILOR_CLUSTER", "eu-prod-1\"}, \"x\": {\"y")]),
            "is not a cluster name",
        ),
        (
            env(&[
                ("TAILOR_CLUSTER", "eu-prod-1"),
                ("TAILOR_CLUSTER_LABELS", "env=prod"),
            ]),
            "must be a JSON object",
        ),
        (
            env(&[
                ("TAILOR_CLUSTER", "eu-prod-1"),
                ("TAILOR_CLUSTER_LABELS", "{\"env\": 3}"),
            ]),
            "ManagedCluster",
        ),
    ] {
        let run = generate(&app, &vars);
        assert_ne!(run.code, 0, "{vars:?}: {}", run.stdout);
        assert!(run.stdout.is_empty(), "{vars:?}: {}", run.stdout);
        assert!(run.stderr.contains(says), "{vars:?}: {}", run.stderr);
    }
}
