//! `tailor helm template [NAME] CHART [flags]`: a local chart directory rendered as Helm v3's
//! `helm template` renders it (the engine is the `tailor-helm` crate).

use std::path::Path;
use tailor_helm::chart::{load_dir, merge_value_flags, ValueFlags};
use tailor_helm::Options;

const USAGE: &str = "usage: tailor helm template [NAME] CHART [flags]";

/// `tailor helm --help`.
const HELP: &str = "tailor helm template [NAME] CHART [flags]

Renders the chart directory CHART as `helm template` (Helm v3) prints it, offline.

Flags:
  -f, --values FILE        values file (repeatable)
      --set K=V            --set-string K=V  --set-json K=JSON  --set-file K=PATH
  -n, --namespace NS       .Release.Namespace (default \"default\")
      --release-name       NAME is the release name (accepted, as helm does)
      --name-template T    the release name rendered from template T
      --kube-version V     .Capabilities.KubeVersion (default v1.20.0)
  -a, --api-versions GV    added to .Capabilities.APIVersions (repeatable)
      --include-crds       print the chart's crds/ files first
      --skip-crds          (default: CRDs are not printed)
      --skip-tests         leave out test hooks
      --no-hooks           leave out every hook
      --is-upgrade         .Release.IsUpgrade true, IsInstall false
      --skip-schema-validation  do not check values against values.schema.json
      --debug              when a rendered document is not YAML (or a template fails),
                           print the rendered files before the error (on stderr)
  -s, --show-only PATH     only the documents of these templates (repeatable)

Environment: TAILOR_MAX_RUN_OUTPUT_BYTES (default 256 MiB) and TAILOR_MAX_RUN_STEPS (default
100 million) bound the text all the chart's templates generate and the steps they take.
";

/// Runs `tailor helm ARGS`; the exit code.
pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("template") => match template(&args[1..]) {
            Ok(text) => super::emit(&text),
            Err(Failed { debug, message }) => {
                // What --debug shows goes to stderr with the error (Helm prints it on stdout):
                // a failed run leaves nothing on stdout.
                for line in debug.lines() {
                    super::say(line);
                }
                // Helm's errors may span lines (its usage line); each is escaped on its own.
                for (i, line) in message.split('\n').enumerate() {
                    super::say(&if i == 0 {
                        format!("Error: {line}")
                    } else {
                        line.to_string()
                    });
                }
                1
            }
        },
        Some("--help") | Some("-h") | None => super::emit(HELP),
        Some(other) => {
            super::say(&format!("tailor helm: unknown command {other:?}"));
            super::say_fixed(USAGE);
            2
        }
    }
}

/// The parsed command line of `helm template`.
#[derive(Default)]
struct Cmd {
    positional: Vec<String>,
    values: ValueFlags,
    opts: Options,
    show_only: Vec<String>,
    name_template: Option<String>,
    debug: bool,
}

/// A failed `helm template`: what `--debug` shows before the error (empty without it), and
/// the error.
struct Failed {
    debug: String,
    message: String,
}

impl From<String> for Failed {
    fn from(message: String) -> Failed {
        Failed {
            debug: String::new(),
            message,
        }
    }
}

fn parse(args: &[String]) -> Result<Cmd, String> {
    let mut cmd = Cmd::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it
                    .next()
                    .cloned()
                    .ok_or(format!("flag needs an argument: {flag}")),
            }
        };
        match flag {
            "-f" | "--values" => cmd.values.files.push(value()?),
            "--set" => cmd.values.set.push(value()?),
            "--set-string" => cmd.values.string.push(value()?),
            "--set-json" => cmd.values.json.push(value()?),
            "--set-file" => cmd.values.file.push(value()?),
            "-n" | "--namespace" => cmd.opts.namespace = value()?,
            "--kube-version" => cmd.opts.kube_version = Some(value()?),
            "-a" | "--api-versions" => cmd.opts.api_versions.push(value()?),
            "-s" | "--show-only" => cmd.show_only.push(value()?),
            "--include-crds" => cmd.opts.include_crds = true,
            "--skip-crds" => cmd.opts.include_crds = false,
            "--skip-tests" => cmd.opts.skip_tests = true,
            "--no-hooks" => cmd.opts.no_hooks = true,
            "--is-upgrade" => cmd.opts.is_upgrade = true,
            "--skip-schema-validation" => cmd.opts.skip_schema_validation = true,
            "--release-name" => {}
            "--debug" => cmd.debug = true,
            "--name-template" => cmd.name_template = Some(value()?),
            f if f.starts_with('-') && f.len() > 1 => return Err(format!("unknown flag: {f}")),
            _ => cmd.positional.push(arg.clone()),
        }
    }
    Ok(cmd)
}

fn template(args: &[String]) -> Result<String, Failed> {
    let cmd = parse(args)?;
    let (name, chart) = match cmd.positional.as_slice() {
        [chart] => ("release-name", chart),
        [name, chart] => (name.as_str(), chart),
        [] => {
            return Err(
                "\"helm template\" requires at least 1 argument\n\nUsage:  helm template [NAME] [CHART] [flags]"
                    .to_string()
                    .into(),
            )
        }
        _ => return Err(String::from("\"helm template\" accepts at most 2 arguments").into()),
    };
    let mut opts = cmd.opts;
    opts.release_name = match &cmd.name_template {
        Some(t) if cmd.positional.len() == 1 => {
            tailor_helm::engine::name_from_template(t).map_err(|e| e.0)?
        }
        _ => name.to_string(),
    };
    // The templates of one chart spend the run's budget as a fan-out's would: each within
    // its own limits, together within TAILOR_MAX_RUN_OUTPUT_BYTES and TAILOR_MAX_RUN_STEPS.
    opts.budget = crate::config::budget::env_budget(1).map_err(|d| d.message)?;
    let values = merge_value_flags(&cmd.values)?;
    let chart = load_dir(Path::new(chart))?;
    match tailor_helm::render(chart, &values, &opts) {
        Ok(rendered) => Ok(show_only(rendered, &cmd.show_only)?),
        Err(failure) => Err(failed(failure, cmd.debug, &cmd.show_only)),
    }
}

/// `helm template`'s handling of a failed render (`cmd/helm/template.go`): once the release
/// exists, the error says to use `--debug`, and `--debug` shows the rendered files (only the
/// `--show-only` ones when given; a pattern matching none of them is the error then).
fn failed(failure: tailor_helm::Failure, debug: bool, patterns: &[String]) -> Failed {
    let message = failure.error.0;
    match failure.debug {
        None => message.into(),
        Some(_) if !debug => {
            format!("{message}\n\nUse --debug flag to render out invalid YAML").into()
        }
        Some(text) => match show_only_text(&text, patterns) {
            Ok(debug) => Failed { debug, message },
            Err(missing) => missing.into(),
        },
    }
}

/// `--show-only` over printed text, as `helm template` filters its output: the documents
/// (`SplitManifests`, in order) whose `# Source: CHART/PATH` line's PATH matches a pattern,
/// pattern by pattern, each printed as `---\nDOCUMENT\n`.
fn show_only_text(text: &str, patterns: &[String]) -> Result<String, String> {
    if patterns.is_empty() {
        return Ok(text.to_string());
    }
    let docs = tailor_helm::release::split_manifests(text);
    let mut out = String::new();
    for p in patterns {
        let mut missing = true;
        for doc in &docs {
            let Some(path) = source_path(doc) else {
                continue;
            };
            if tailor_go::path::matches(p, path).unwrap_or(false) {
                out.push_str(&format!("---\n{doc}\n"));
                missing = false;
            }
        }
        if missing {
            return Err(format!("could not find template {p} in chart"));
        }
    }
    Ok(out)
}

/// The first match of Helm's `# Source: [^/]+/(.+)` (`[^/]` crosses lines, `.` does not):
/// the template path after the chart name.
fn source_path(doc: &str) -> Option<&str> {
    const MARK: &str = "# Source: ";
    let mut from = 0;
    while let Some(at) = doc[from..].find(MARK) {
        let start = from + at + MARK.len();
        if let Some(slash) = doc[start..].find('/') {
            let path = doc[start + slash + 1..].split('\n').next().unwrap_or("");
            if slash > 0 && !path.is_empty() {
                return Some(path);
            }
        }
        from += at + 1;
    }
    None
}

/// `--show-only`: documents whose template path (after the chart name) matches one of the
/// patterns (Go's `filepath.Match`); a pattern matching nothing is Helm's error.
fn show_only(rendered: tailor_helm::Rendered, patterns: &[String]) -> Result<String, String> {
    if patterns.is_empty() {
        return Ok(rendered.to_text());
    }
    let mut kept = tailor_helm::Rendered::default();
    for p in patterns {
        let before = kept.documents.len();
        for (source, doc) in &rendered.documents {
            let rel = source.split_once('/').map_or(source.as_str(), |(_, r)| r);
            let hit = tailor_go::path::matches(p, rel).unwrap_or(false);
            if hit && !kept.documents.iter().any(|(s, d)| s == source && d == doc) {
                kept.documents.push((source.clone(), doc.clone()));
            }
        }
        if kept.documents.len() == before {
            return Err(format!("could not find template {p} in chart"));
        }
    }
    Ok(kept.to_text())
}
