//! Standalone mode, for shell pipes and directories: `tailor CONFIG [FILE|DIR|-]...` reads
//! plain YAML (a directory with a fleet.yaml is a Fleet bundle), runs the function CONFIG
//! configures, and writes a stream, a ResourceList, or the files under `--output-dir`. The
//! command line becomes a [`Session`], run by one call into the pipeline
//! ([`tailor_kio::standalone::run`]); what only tailor's binary knows (the plan of a
//! functionConfig, Fleet bundles, Flux sources, Helm charts) plugs in as [`Tailor`].

use std::path::Path;

use super::args::{Args, Output};
use super::{stdin_is_terminal, stdout, usage_error};
use crate::config::{Choices, FleetBundle, Plan, TargetFields};
use tailor_kio::files;
use tailor_kio::package::{PackageReading, Select};
use tailor_kio::standalone::{self, Overrides, Plugin, Refused, Rendered, Session, Sink};
use tailor_kio::{KrmResult, Resource};

pub(crate) fn run(args: Args) -> i32 {
    if let Err(code) = check_command_line(&args) {
        return code;
    }
    let mut out = stdout::Stdout::new();
    let code = standalone::run(&session(&args), &Tailor::of(&args), &mut out);
    out.finish(code)
}

/// Reads the CONFIG and the inputs of `args`, runs the plan, and reports its results on
/// stderr; `Err` is the exit code when it could not get that far.
pub(crate) fn render(args: &Args, keep_originals: bool) -> Result<Rendered, i32> {
    check_command_line(args)?;
    standalone::render(&session(args), &Tailor::of(args), keep_originals)
}

/// The session `args` ask for.
fn session(args: &Args) -> Session {
    Session {
        config: args.config.clone(),
        inputs: args.inputs.clone(),
        sink: match &args.output {
            Output::Stream => Sink::Stream,
            Output::ResourceList => Sink::ResourceList,
            Output::Dir(dir) => Sink::Dir {
                dir: dir.clone(),
                clean: args.clean,
            },
        },
        overrides: Overrides {
            strict: args.strict,
            explain: args.explain,
            cluster: args.cluster.clone(),
            shard: args.shard,
        },
    }
}

/// Whether the command line makes sense before anything is read: CONFIG is a file, and stdin
/// is piped in when read. `Err` is the exit code of a bad one.
fn check_command_line(args: &Args) -> Result<(), i32> {
    if args.config != "-" && Path::new(&args.config).is_dir() {
        return Err(usage_error(&format!(
            "{} is a directory: the first argument is the CONFIG file (tailor CONFIG [FILE|DIR|-]...)",
            args.config
        )));
    }
    if args.inputs.iter().any(|i| i == "-") && stdin_is_terminal() {
        return Err(usage_error(
            "tailor CONFIG reads manifests from stdin: give files or directories (tailor CONFIG DIR), or pipe them in",
        ));
    }
    Ok(())
}

/// What tailor's binary plugs into a standalone run: the plan of a functionConfig, with the
/// command line's choices and a Fleet bundle built in; Fleet bundle directories (rendered with
/// `--chart-dir` for remote charts); a Flux Kustomization's source read as Flux selects its
/// files; a Helm chart refused.
pub(crate) struct Tailor {
    chart_dir: Option<String>,
}

impl Tailor {
    fn of(args: &Args) -> Tailor {
        Tailor {
            chart_dir: args.chart_dir.clone(),
        }
    }
}

impl Plugin for Tailor {
    type Job = Plan;
    type Bundle = FleetBundle;
    const BUNDLE: &'static str = "Fleet bundle directory (with a fleet.yaml)";

    fn parse(
        &self,
        config: &str,
        name: &str,
        opts: &tailor_yaml::ParseOptions,
    ) -> Result<Result<Plan, Vec<KrmResult>>, KrmResult> {
        crate::config::parse_text(config, name, opts)
    }

    fn build(
        &self,
        plan: Plan,
        overrides: &Overrides,
        bundle: Option<FleetBundle>,
    ) -> Result<Plan, Refused> {
        plan.with(Choices {
            strict: overrides.strict,
            explain: overrides.explain,
            cluster: overrides.cluster.clone(),
            shard: overrides.shard,
            bundle,
        })
    }

    fn select(&self, plan: &Plan) -> Option<Select> {
        (plan.source == "Kustomization").then_some(super::flux_source::flux_files as Select)
    }

    fn is_bundle(&self, path: &Path) -> bool {
        tailor_fleet::bundle::is_bundle(path)
    }

    fn read_bundle(
        &self,
        path: &Path,
        opts: &tailor_yaml::ParseOptions,
    ) -> Result<(FleetBundle, Vec<Resource>), Vec<KrmResult>> {
        let chart_dir = crate::stages::fleet_helm::chart_dir(self.chart_dir.as_deref());
        read_bundle(path, opts, chart_dir)
    }

    fn refuse(&self, path: &Path) -> Result<(), KrmResult> {
        refuse_chart(path)
    }

    fn named(&self, path: &Path) -> String {
        file_argument_path(path)
    }

    fn report(&self, results: &[KrmResult]) {
        report_all(results);
    }

    fn usage(&self, message: &str) -> i32 {
        usage_error(message)
    }

    fn say(line: &str) {
        super::say(line);
    }
}

/// Standalone mode shows every kind of result on stderr, a few lines of them, errors first
/// (a stable sort: otherwise in the order they arose).
pub(crate) fn report_all(results: &[KrmResult]) {
    const SHOWN: usize = 5;
    let mut ordered: Vec<&KrmResult> = results.iter().collect();
    ordered.sort_by_key(|r| r.severity);
    for r in ordered.iter().take(SHOWN) {
        super::say(&r.summary_line());
    }
    if results.len() > SHOWN {
        super::say(&format!(
            "... and {} more results: run with -o resource-list to see them all",
            results.len() - SHOWN
        ));
    }
}

/// The functionConfig in the CONFIG file (exactly one object).
pub(crate) fn read_config(
    config: &str,
    opts: &tailor_yaml::ParseOptions,
) -> Result<tailor_yaml::Node, KrmResult> {
    let text = tailor_kio::input::read_file(Path::new(config)).map_err(KrmResult::error)?;
    files::read_config_text(text, config, opts).map(|(fc, _)| fc)
}

/// The objects of a file or directory, refusing a file that holds none (`tailor fleet-values`).
pub(crate) fn read_path(
    path: &Path,
    config: Option<&Path>,
    opts: &tailor_yaml::ParseOptions,
) -> Result<Vec<Resource>, KrmResult> {
    refuse_chart(path)?;
    let mut out = Vec::new();
    PackageReading::default().read_path(path, &file_argument_path(path), config, opts, &mut out)?;
    Ok(out)
}

/// A Helm chart directory is refused: its templates are not YAML until Helm renders them, and
/// Chart.yaml and values.yaml are no objects: reading it as plain YAML would hand over raw
/// chart files.
fn refuse_chart(path: &Path) -> Result<(), KrmResult> {
    if !(path.is_dir() && path.join("Chart.yaml").is_file()) {
        return Ok(());
    }
    let dir = path.display();
    Err(KrmResult::error(format!(
        "{dir}: a Helm chart (it has a Chart.yaml), which tailor does not render: render it and tailor the output: `helm template RELEASE {dir} -f values.yaml | tailor CONFIG -`"
    ))
    .at_field("Chart.yaml"))
}

/// The path a file given on the command line is known by (in kpt's path annotation and under
/// `--output-dir`): as given when it is relative and stays below the working directory, its
/// file name otherwise.
fn file_argument_path(path: &Path) -> String {
    let given = tailor_go::path::clean(&path.to_string_lossy().replace('\\', "/"));
    if path.is_relative() && !given.split('/').any(|seg| seg == "..") {
        return given;
    }
    path.file_name()
        .map_or(given, |n| n.to_string_lossy().into_owned())
}

/// A Fleet bundle directory: its fleet.yaml and overlays for the run, its manifests as
/// objects that remember their files (the objects Fleet deploys: `tailor_fleet::bundle`).
fn read_bundle(
    dir: &Path,
    opts: &tailor_yaml::ParseOptions,
    chart_dir: Option<String>,
) -> Result<(FleetBundle, Vec<Resource>), Vec<KrmResult>> {
    let mut bundle = tailor_fleet::bundle::read_dir::<TargetFields>(dir, opts)
        .map_err(|errors| errors.into_iter().map(KrmResult::from).collect::<Vec<_>>())?;
    crate::stages::fleet_helm::render_charts(&mut bundle.config, chart_dir);
    let mut notes = bundle.notes;
    let mut items = Vec::new();
    for (rel, text) in bundle.manifests {
        for item in files::read_documents(text, &rel, opts).map_err(|r| vec![r])? {
            if tailor_fleet::bundle::deployable(item.api_version(), item.kind()) {
                files::check_object(&item).map_err(|r| vec![r])?;
                items.push(item);
            } else if item.node().pairs().is_some_and(|p| !p.is_empty()) {
                notes.push(tailor_kube::Diagnostic::warning(format!(
                    "{rel}: an object without {} is not deployed by Fleet",
                    if item.api_version().is_empty() {
                        "apiVersion"
                    } else {
                        "kind"
                    }
                )));
            }
        }
    }
    Ok((
        FleetBundle {
            config: bundle.config,
            overlays: bundle.overlays,
            notes,
        },
        items,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    use tailor_kio::standalone::{Attempt, Opened};
    use tailor_kio::write::Rendering;

    /// A stream or --output-dir run of `args`, with the stages run as objects are read or not.
    fn render_at(args: &Args, per_item: bool) -> Rendered {
        let (session, plugin) = (session(args), Tailor::of(args));
        let attempt = Attempt {
            keep_originals: false,
            pass_through: true,
            per_item,
        };
        Opened::open(&session, &plugin)
            .and_then(|mut s| s.render(attempt))
            .unwrap_or_else(|code| panic!("exit {code}"))
    }

    /// A reading that keeps nothing as read and passes no file through.
    fn attempt(per_item: bool) -> Attempt {
        Attempt {
            keep_originals: false,
            pass_through: false,
            per_item,
        }
    }

    /// Under commonMetadata, the objects are finished as their files are read: a file of them
    /// is held as its output alone, a stream's documents or the file as written back; with a
    /// destination (no file is passed through then), each object is held as its output text.
    /// A run told not to stream holds them as trees. (`tests/standalone_reading.rs` compares
    /// what both write.)
    #[test]
    fn finished_objects_are_held_as_their_output() {
        let work = std::env::temp_dir().join(format!("tailor-held-{}", std::process::id()));
        let pkg = work.join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        let object = "# head\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";
        std::fs::write(pkg.join("a.yaml"), object).unwrap();
        let spec = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: m}\nspec:\n  commonMetadata: {labels: {team: a}}\n";
        let config = work.join("config.yaml");
        let args = |output: Output, spec: &str| {
            std::fs::write(&config, spec).unwrap();
            Args {
                config: config.to_string_lossy().into_owned(),
                inputs: vec![pkg.to_string_lossy().into_owned()],
                output,
                clean: false,
                cluster: None,
                strict: false,
                shard: None,
                explain: false,
                chart_dir: None,
            }
        };
        let labelled = "# head\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    team: a\n";
        for output in [Output::Stream, Output::Dir(work.join("out"))] {
            let r = render_at(&args(output.clone(), spec), true);
            assert!(r.outcome.items.is_empty());
            let files = r.passed.files();
            assert_eq!(files.len(), 1);
            assert_eq!(files[0].text.as_str(), labelled);
            let r = render_at(&args(output.clone(), spec), false);
            assert!(r.passed.files().is_empty());
            assert!(r.outcome.items.iter().all(|i| i.rendered().is_none()));
        }
        let one = spec.replace("spec:\n", "spec:\n  cluster: {name: dev}\n");
        let r = render_at(&args(Output::Stream, &one), true);
        assert!(r.passed.files().is_empty());
        let held: Vec<_> = r
            .outcome
            .items
            .iter()
            .filter_map(Resource::rendered)
            .collect();
        assert_eq!(held, [(Rendering::Stream, labelled)]);
        let _ = std::fs::remove_dir_all(&work);
    }

    /// Each file is read from disk once in a run, however many times its objects are read:
    /// an inventory object among the files (read as the stages run on each object) has them
    /// read again from the texts already read, so a file changed in between does not show.
    #[test]
    fn a_run_reads_each_file_once() {
        let work = std::env::temp_dir().join(format!("tailor-once-{}", std::process::id()));
        let pkg = work.join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        let a = pkg.join("a.yaml");
        std::fs::write(
            &a,
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        )
        .unwrap();
        let config = work.join("config.yaml");
        std::fs::write(&config, "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: m}\nspec:\n  commonMetadata: {labels: {team: a}}\n").unwrap();
        let args = Args {
            config: config.to_string_lossy().into_owned(),
            inputs: vec![pkg.to_string_lossy().into_owned()],
            output: Output::Stream,
            clean: false,
            cluster: None,
            strict: false,
            shard: None,
            explain: false,
            chart_dir: None,
        };
        let (run, plugin) = (session(&args), Tailor::of(&args));
        let mut session = Opened::open(&run, &plugin).unwrap_or_else(|c| panic!("exit {c}"));
        let first = session
            .render(attempt(false))
            .unwrap_or_else(|c| panic!("exit {c}"));
        std::fs::write(
            &a,
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: changed\n",
        )
        .unwrap();
        let again = session
            .render(attempt(true))
            .unwrap_or_else(|c| panic!("exit {c}"));
        let names = |r: &Rendered| {
            r.outcome
                .items
                .iter()
                .map(|i| i.name().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&first), ["a"]);
        assert_eq!(names(&again), ["a"]);
        // A new session reads the file as it is now.
        let mut fresh = Opened::open(&run, &plugin).unwrap_or_else(|c| panic!("exit {c}"));
        let now = fresh
            .render(attempt(false))
            .unwrap_or_else(|c| panic!("exit {c}"));
        assert_eq!(names(&now), ["changed"]);
        let _ = std::fs::remove_dir_all(&work);
    }
}
