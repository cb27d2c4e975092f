//! Standalone mode, for shell pipes and directories: `tailor CONFIG [FILE|DIR|-]...` reads
//! plain YAML (a directory with a fleet.yaml is a Fleet bundle), runs the function CONFIG
//! configures, and writes a stream, a ResourceList, or the files under `--output-dir`.

use std::path::Path;

use super::args::{Args, Output};
use super::dir_sink::DirSink;
use super::stream_sink::{self, StdoutSink};
use super::{durable, output_dir, read_stdin, stdin_is_terminal, stdout, usage_error};
use crate::config::TargetFields;
use crate::config::{Choices, FleetBundle, Refused};
use tailor_kio::files;
use tailor_kio::host::Guest;
use tailor_kio::package::{PackageOptions, PackageReading, Passed, Select, Texts};
use tailor_kio::reading::{self, parse_options, FileOutput};
use tailor_kio::run::{self, Tailored};
use tailor_kio::write::{
    write_owned_resource_list_to, write_stream_docs_to, ListSyntax, Rendering,
};
use tailor_kio::{KrmResult, Resource};

pub(crate) fn run(args: Args) -> i32 {
    // A failed resource-list run answers with the objects as read. Kept from the first
    // reading only when stdin is among the inputs (it cannot be read twice): otherwise the
    // objects may be stripped and their trees dropped as they are read, and a failed run reads
    // its inputs again for the answer.
    let keep_originals = args.output == Output::ResourceList && reads_stdin(&args);
    let mut session = match Session::open(&args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    session.streams = true;
    let mut rendered = match session.render(keep_originals, true, true) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if rendered.passed.clashes(&rendered.outcome.items) {
        // An object goes to a file passed through as it was read (a path annotation names
        // it): read everything again as objects, to write that file from all of them.
        rendered = match session.render(keep_originals, false, true) {
            Ok(r) => r,
            Err(code) => return code,
        };
    }
    stream_sink::drop_write_error(&mut rendered);
    report_all(&rendered.outcome.results);
    write_output(&mut session, rendered)
}

/// A standalone run's command line, its CONFIG (read and parsed once) and the texts of the
/// files it read: each file is read from disk once, however many times the run reads its
/// objects (an input of the run among them, a file an object is written back to, the objects
/// as read for a failed run's answer).
pub(crate) struct Session<'a> {
    args: &'a Args,
    config: (tailor_yaml::Node, std::sync::Arc<String>),
    texts: Texts,
    /// A fan-out's stream output goes to stdout as each destination is finished
    /// ([`StdoutSink`]); not for `tailor diff`, which compares what it renders.
    streams: bool,
}

impl<'a> Session<'a> {
    /// Reads the CONFIG argument; `Err` is the exit code when that fails.
    pub(crate) fn open(args: &'a Args) -> Result<Session<'a>, i32> {
        let config = read_config_argument(args, &parse_options())?;
        Ok(Session {
            args,
            config,
            texts: Texts::default(),
            streams: false,
        })
    }

    fn render(
        &mut self,
        keep_originals: bool,
        pass_through: bool,
        per_item: bool,
    ) -> Result<Rendered, i32> {
        render_with(
            self.args,
            &self.config,
            &mut self.texts,
            keep_originals,
            pass_through,
            per_item,
            self.streams,
        )
    }
}

/// Writes what the run produced the way `args` asks: a stream, a ResourceList (the objects as
/// read when the run failed), or the files under `--output-dir`; the exit code.
fn write_output(session: &mut Session<'_>, rendered: Rendered) -> i32 {
    let args = session.args;
    let Rendered {
        fc,
        originals,
        outcome,
        kept,
        passed,
        sink,
        stdout: streamed,
    } = rendered;
    let fail = |r: KrmResult| {
        report_all(std::slice::from_ref(&r));
        1
    };
    if let Some(report) = &outcome.report {
        return stdout::emit(report, i32::from(outcome.failed));
    }
    match &args.output {
        Output::Stream => {
            let streamed = streamed.filter(StdoutSink::streamed);
            if outcome.failed {
                // The destinations before the one that failed are written (a pipe cannot
                // take them back).
                return streamed.map_or(1, |s| s.finish(std::iter::empty(), 1));
            }
            // kustomize drops local-config objects from what it builds, and kubectl cannot
            // apply a Kptfile: a stream for kubectl has neither.
            let objects: Vec<Resource> = outcome
                .items
                .into_iter()
                .filter(|i| !i.is_meta_or_local())
                .collect();
            match streamed {
                Some(s) => s.finish(passed.stream(&objects), 0),
                None => {
                    stdout::emit_with(0, |out| write_stream_docs_to(out, passed.stream(&objects)))
                }
            }
        }
        Output::ResourceList => {
            let list = match (outcome.failed, originals) {
                (false, _) => outcome.items,
                (true, Some(originals)) => originals,
                (true, None) => match session.render(true, false, true) {
                    Ok(again) => again.originals.unwrap_or_default(),
                    Err(code) => return code,
                },
            };
            // Annotated as each is written: recording its path builds a deferred object's
            // tree, which goes with the object once written.
            stdout::emit_with(i32::from(outcome.failed), |out| {
                write_owned_resource_list_to(
                    out,
                    list,
                    annotate_path,
                    Some(&fc),
                    &outcome.results,
                    ListSyntax::Yaml,
                )
            })
        }
        Output::Dir(dir) => {
            if outcome.failed {
                return 1;
            }
            match write_dir(dir, &outcome, &kept, &passed, sink) {
                Ok(()) => 0,
                Err(msg) => fail(KrmResult::error(msg)),
            }
        }
    }
}

/// Writes the files of a run that succeeded under `--output-dir dir`: replaced whole, or left
/// as it was (checked before reading: `output_dir::check`).
fn write_dir(
    dir: &Path,
    outcome: &Tailored,
    kept: &[files::KeptFile],
    passed: &Passed,
    sink: Option<DirSink>,
) -> Result<(), String> {
    let named = |msg: String| format!("--output-dir {}: {msg}", dir.display());
    if outcome.fanned_out {
        let names = outcome.destinations.iter().map(String::as_str);
        tailor_kio::safe_paths::check_case_distinct(names).map_err(named)?;
    }
    let files = files::output_dir_files(&outcome.items, kept, passed.files()).map_err(named)?;
    if let Some(sink) = sink.filter(DirSink::streamed) {
        // The destinations are written already: the rest joins them.
        return sink.finish(files);
    }
    output_dir::replace(dir, |staging| durable::write_files(staging, files))
        .map_err(|e| output_dir::not_written(dir, &e))
}

/// A standalone run, read and tailored: what the output modes (and `tailor diff`) write from.
pub(crate) struct Rendered {
    pub fc: tailor_yaml::Node,
    /// The objects as read, when asked for (a failed run returns them; `tailor diff` compares
    /// with them).
    pub originals: Option<Vec<Resource>>,
    pub outcome: Tailored,
    /// Files that hold no object, for `--output-dir` to copy as they are.
    pub kept: Vec<files::KeptFile>,
    /// Files passed through as their text (see [`Passed`]).
    pub passed: Passed,
    /// Where a fan-out for `--output-dir` wrote its destinations as they were finished.
    pub sink: Option<DirSink>,
    /// Where a fan-out for stream output wrote its destinations as they were finished.
    pub stdout: Option<StdoutSink>,
}

/// Reads the CONFIG and the inputs of `args`, runs the plan, and reports its results on
/// stderr; `Err` is the exit code when it could not get that far.
pub(crate) fn render(args: &Args, keep_originals: bool) -> Result<Rendered, i32> {
    let rendered = Session::open(args)?.render(keep_originals, false, true)?;
    report_all(&rendered.outcome.results);
    Ok(rendered)
}

/// Reads the inputs of `args` (files from `texts` once read) and runs the CONFIG's plan over
/// them, without reporting the results. With `pass_through`, files no stage can touch may be
/// held as their text alone (only for stream and --output-dir output, which write them as they
/// are); with `per_item`, the stages may run on each object as it is read. When an input of
/// the run turns up among the objects, they are read again without either.
fn render_with(
    args: &Args,
    config: &(tailor_yaml::Node, std::sync::Arc<String>),
    texts: &mut Texts,
    keep_originals: bool,
    pass_through: bool,
    per_item: bool,
    streams: bool,
) -> Result<Rendered, i32> {
    let (fc, config_source) = config;
    let opts = parse_options();
    let plan = crate::config::parse(Some(fc));
    let output = FileOutput {
        renders: per_item && renders_as_read(args, keep_originals),
        passes_through: pass_through && passes_through(args, keep_originals),
        keeps_originals: keep_originals,
    };
    // As for a ResourceList: trees dropped when no stage reads every object, stages run as
    // objects are read when they allow it. A Fleet bundle brings its own targets and stages:
    // its objects keep their trees.
    let policy = match &plan {
        Ok(plan) if !bundled(args) => reading::file_reading(plan, output),
        _ => None,
    };
    let options = PackageOptions {
        keep_other_files: matches!(args.output, Output::Dir(_)),
        one_input: args.inputs.len() == 1,
        select: plan
            .as_ref()
            .is_ok_and(|p| p.source == "Kustomization")
            .then_some(super::flux_source::flux_files as Select),
        render: Some(match args.output {
            Output::Dir(_) => Rendering::File,
            _ => Rendering::Stream,
        }),
    };
    let mut reading = PackageReading::new(options, policy, Some(texts));
    let (items, bundle) = read_inputs(args, &mut reading, &opts)?;
    if plan
        .as_ref()
        .is_ok_and(|p| reading.must_read_again(&items, p))
    {
        drop(reading);
        drop(items);
        return render_with(args, config, texts, keep_originals, false, false, streams);
    }
    let kept = std::mem::take(&mut reading.kept);
    let passed = std::mem::take(&mut reading.passed);
    // The hooks borrow the plan, which the run takes.
    drop(reading);
    let originals = keep_originals.then(|| items.clone());
    let mut sink = match &args.output {
        Output::Dir(dir) => {
            let once = kept.iter().map(|k| k.rel.as_str());
            Some(DirSink::new(
                dir,
                once.chain(passed.files().iter().map(|f| f.rel.as_str())),
            ))
        }
        _ => None,
    };
    let strict = args.strict || plan.as_ref().is_ok_and(|p| p.strict);
    let mut stdout = (streams && args.output == Output::Stream && !strict)
        .then(|| stream_sink::for_stream(&passed))
        .flatten();
    let stream = match (&mut sink, &mut stdout) {
        (Some(s), _) => Some(s as &mut dyn run::FanOutSink),
        (None, s) => s.as_mut().map(|s| s as &mut dyn run::FanOutSink),
    };
    let outcome = tailor(args, plan, items, bundle, fc, config_source, stream)?;
    Ok(Rendered {
        fc: fc.clone(),
        originals,
        outcome,
        kept,
        passed,
        sink,
        stdout,
    })
}

/// Whether an input is a Fleet bundle (a directory with a fleet.yaml).
fn bundled(args: &Args) -> bool {
    args.inputs
        .iter()
        .any(|i| i != "-" && tailor_fleet::bundle::is_bundle(Path::new(i)))
}

/// Whether files none of whose objects a stage can touch are held as their text alone: when
/// the output writes them as they are and no run option looks at every object. Not when stdin
/// is read (the config or manifests): a run that must read everything again as objects
/// (`Passed::clashes`) could not read it twice.
fn passes_through(args: &Args, keep_originals: bool) -> bool {
    !reads_stdin(args)
        && !keep_originals
        && !args.explain
        && args.cluster.is_none()
        && args.shard.is_none()
        && matches!(args.output, Output::Stream | Output::Dir(_))
}

/// Runs the plan, with the command line's choices and the bundle built into it, over `items`;
/// the results name the lines of the CONFIG file. `Err` is the exit code of a bad command line.
fn tailor(
    args: &Args,
    plan: Result<crate::config::Plan, Vec<KrmResult>>,
    items: Vec<Resource>,
    bundle: Option<FleetBundle>,
    fc: &tailor_yaml::Node,
    config_source: &str,
    sink: Option<&mut dyn run::FanOutSink>,
) -> Result<Tailored, i32> {
    let choices = Choices {
        strict: args.strict,
        explain: args.explain,
        cluster: args.cluster.clone(),
        shard: args.shard,
        bundle,
    };
    let mut outcome = match plan.map_err(Refused::Results).and_then(|p| p.with(choices)) {
        Ok(plan) => run::process_into(items, &plan, &Guest::default(), sink),
        Err(Refused::Usage(msg)) => return Err(usage_error(&msg)),
        Err(Refused::Results(results)) => Tailored::new(Vec::new(), results, true),
    };
    let config_name = if args.config == "-" {
        "<stdin>"
    } else {
        &args.config
    };
    tailor_kio::results::locate(&mut outcome.results, fc, config_source, config_name);
    Ok(outcome)
}

/// The CONFIG argument, read and parsed (with its text, for results to name lines), once the
/// command line is known to make sense: CONFIG is a file, stdin is piped in when read, and
/// `--output-dir` may be written.
fn read_config_argument(
    args: &Args,
    opts: &tailor_yaml::ParseOptions,
) -> Result<(tailor_yaml::Node, std::sync::Arc<String>), i32> {
    let fail = |r: KrmResult| {
        report_all(std::slice::from_ref(&r));
        1
    };
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
    let config_text = if args.config == "-" {
        read_stdin()
    } else {
        tailor_kio::input::read_file(Path::new(&args.config))
    };
    let config_text = config_text.map_err(|e| fail(KrmResult::error(e)))?;
    let (fc, config_source) =
        files::read_config_text(config_text, &args.config, opts).map_err(fail)?;
    if let Output::Dir(dir) = &args.output {
        output_dir::check(dir, &args.inputs, &args.config, args.clean)
            .map_err(|msg| fail(KrmResult::error(msg)))?;
    }
    Ok((fc, config_source))
}

/// The objects of every input of `args`, read with `reading`, and the Fleet bundle directory
/// among them (at most one).
fn read_inputs(
    args: &Args,
    reading: &mut PackageReading<'_>,
    opts: &tailor_yaml::ParseOptions,
) -> Result<(Vec<Resource>, Option<FleetBundle>), i32> {
    let fail = |r: KrmResult| {
        report_all(std::slice::from_ref(&r));
        1
    };
    let mut bundle: Option<FleetBundle> = None;
    let mut items: Vec<Resource> = Vec::new();
    let config_file = (args.config != "-")
        .then(|| Path::new(&args.config).canonicalize().ok())
        .flatten();
    for input in &args.inputs {
        let path = Path::new(input);
        if input != "-" && tailor_fleet::bundle::is_bundle(path) {
            if bundle.is_some() {
                return Err(fail(KrmResult::error(format!(
                    "{input}: only one Fleet bundle directory (with a fleet.yaml) per run"
                ))));
            }
            let chart_dir = crate::stages::fleet_helm::chart_dir(args.chart_dir.as_deref());
            let (b, mut more) = read_bundle(path, opts, chart_dir).map_err(|results| {
                report_all(&results);
                1
            })?;
            bundle = Some(b);
            items.append(&mut more);
            continue;
        }
        if input == "-" {
            let mut more = read_stdin()
                .map_err(KrmResult::error)
                .and_then(|t| files::read_stdin_text(t, opts, reading.deferral().as_mut()))
                .map_err(fail)?;
            if let Some(first) = more.first() {
                reading.passed.read_as_objects(first);
            }
            items.append(&mut more);
        } else {
            refuse_chart(path).map_err(fail)?;
            let named = file_argument_path(path);
            reading
                .read_path(path, &named, config_file.as_deref(), opts, &mut items)
                .map_err(fail)?;
        }
    }
    Ok((items, bundle))
}

/// Whether the stages that treat objects one by one may run as the objects are read, what
/// they finish held as the text the output writes for it (`tailor_kio::reading::file_reading`): when the
/// output is written from the objects' texts (a stream, --output-dir; not the originals a
/// failed run answers with), and no option changes the plan after reading. Not when stdin is
/// read: an input of the run among the items (a CustomTransform, an inventory object) has
/// every input read again without that, which stdin cannot be.
fn renders_as_read(args: &Args, keep_originals: bool) -> bool {
    matches!(args.output, Output::Stream | Output::Dir(_))
        && !keep_originals
        && !reads_stdin(args)
        && !args.explain
        && args.cluster.is_none()
        && args.shard.is_none()
}

/// Whether the run reads stdin (the CONFIG or manifests): its inputs cannot be read twice.
fn reads_stdin(args: &Args) -> bool {
    args.config == "-" || args.inputs.iter().any(|i| i == "-")
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

/// Records the file path, index and sequence indentation as `kpt fn source` does, for
/// ResourceList output (`kpt fn sink` writes wide sequences compact without the last).
fn annotate_path(item: &mut Resource) {
    use tailor_kio::annotations::*;
    // A path kpt recorded (objects from stdin) is kept; one inside a file is replaced by the
    // file's, as `kpt fn source` replaces it.
    if item.annotation(PATH).is_some() && item.source_file().is_none() {
        return;
    }
    if item.path().is_none() {
        return;
    }
    let path = item.output_path();
    let index = item.index().unwrap_or(0).to_string();
    let wide = matches!(
        item.origin(),
        tailor_kio::Origin::Document {
            wide_sequences: true,
            ..
        }
    );
    item.set_annotation(LEGACY_INDEX, &index);
    item.set_annotation(LEGACY_PATH, &path);
    item.set_annotation(INDEX, &index);
    item.set_annotation(PATH, &path);
    item.set_annotation(SEQ_INDENT, if wide { "wide" } else { "compact" });
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

    /// A stream or --output-dir run of `args`, with the stages run as objects are read or not.
    fn render_at(args: &Args, per_item: bool) -> Rendered {
        Session::open(args)
            .and_then(|mut s| s.render(false, true, per_item))
            .unwrap_or_else(|code| panic!("exit {code}"))
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
        let mut session = Session::open(&args).unwrap_or_else(|c| panic!("exit {c}"));
        let first = session
            .render(false, false, false)
            .unwrap_or_else(|c| panic!("exit {c}"));
        std::fs::write(
            &a,
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: changed\n",
        )
        .unwrap();
        let again = session
            .render(false, false, true)
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
        let mut fresh = Session::open(&args).unwrap_or_else(|c| panic!("exit {c}"));
        let now = fresh
            .render(false, false, false)
            .unwrap_or_else(|c| panic!("exit {c}"));
        assert_eq!(names(&now), ["changed"]);
        let _ = std::fs::remove_dir_all(&work);
    }
}
