//! Standalone mode, for shell pipes and directories: `tailor CONFIG [FILE|DIR|-]...` reads
//! plain YAML (a directory with a fleet.yaml is a Fleet bundle), runs the function CONFIG
//! configures, and writes a stream, a ResourceList, or the files under `--output-dir`.

use std::path::Path;

use super::{emit, read_stdin, report, Output};
use crate::config::TargetFields;
use crate::krm::files;
use crate::krm::write::{write_resource_list, write_stream};
use crate::krm::{KrmResult, Resource};
use crate::run::{self, parse_options, FleetBundle};

pub(crate) fn run(config: &str, inputs: &[String], output: Output) -> i32 {
    let opts = parse_options();
    let fail = |r: KrmResult| {
        report(std::slice::from_ref(&r));
        1
    };
    let fc = match read_config(config, &opts) {
        Ok(fc) => fc,
        Err(r) => return fail(r),
    };
    let mut items: Vec<Resource> = Vec::new();
    let mut bundle: Option<run::FleetBundle> = None;
    for input in inputs {
        let path = Path::new(input);
        if input != "-" && tailor_fleet::bundle::is_bundle(path) {
            if bundle.is_some() {
                return fail(KrmResult::error(format!(
                    "{input}: only one Fleet bundle directory (with a fleet.yaml) per run"
                )));
            }
            match read_bundle(path, &opts) {
                Ok((b, mut more)) => {
                    bundle = Some(b);
                    items.append(&mut more);
                }
                Err(results) => {
                    report(&results);
                    return 1;
                }
            }
            continue;
        }
        let read = if input == "-" {
            read_stdin()
                .map_err(KrmResult::error)
                .and_then(|t| files::read_stdin_text(&t, &opts))
        } else {
            read_path(path, &opts)
        };
        match read {
            Ok(mut more) => items.append(&mut more),
            Err(r) => return fail(r),
        }
    }
    let originals = if output == Output::ResourceList {
        Some(items.clone())
    } else {
        None
    };
    let outcome = match crate::config::parse(Some(&fc)) {
        Ok(plan) => run::process(items, plan, bundle),
        Err(results) => run::Outcome {
            items: Vec::new(),
            results,
            failed: true,
        },
    };
    report(&outcome.results);
    match output {
        Output::Stream => {
            if outcome.failed {
                return 1;
            }
            emit(&write_stream(&outcome.items));
            0
        }
        Output::ResourceList => {
            let mut list = if outcome.failed {
                originals.unwrap_or_default()
            } else {
                outcome.items
            };
            for item in &mut list {
                annotate_path(item);
            }
            emit(&write_resource_list(&list, Some(&fc), &outcome.results));
            i32::from(outcome.failed)
        }
        Output::Dir(dir) => {
            if outcome.failed {
                return 1;
            }
            match files::write_output_dir(&dir, &outcome.items) {
                Ok(_) => 0,
                Err(msg) => fail(KrmResult::error(msg)),
            }
        }
    }
}

/// The functionConfig in the CONFIG file (exactly one object).
pub(crate) fn read_config(
    config: &str,
    opts: &tailor_yaml::ParseOptions,
) -> Result<tailor_yaml::Node, KrmResult> {
    let config_text = crate::input::read_file(Path::new(config)).map_err(KrmResult::error)?;
    match files::read_file_text(config_text, config, opts)? {
        mut docs if docs.len() == 1 => Ok(docs.remove(0).into_node()),
        docs => Err(KrmResult::error(format!(
            "{config}: the config file must hold exactly one object, found {}",
            docs.len()
        ))),
    }
}

/// Records the file path and index as `kpt fn source` does, for ResourceList output.
fn annotate_path(item: &mut Resource) {
    use crate::krm::annotations::*;
    if item.annotation(PATH).is_some() {
        return;
    }
    if item.path().is_none() {
        return;
    }
    let path = item.output_path();
    let index = item.index().unwrap_or(0).to_string();
    item.set_annotation(LEGACY_INDEX, &index);
    item.set_annotation(INDEX, &index);
    item.set_annotation(LEGACY_PATH, &path);
    item.set_annotation(PATH, &path);
}

pub(crate) fn read_path(
    path: &Path,
    opts: &tailor_yaml::ParseOptions,
) -> Result<Vec<Resource>, KrmResult> {
    if path.is_dir() && path.join("Chart.yaml").is_file() {
        // Its templates are not YAML until Helm renders them, and Chart.yaml and values.yaml
        // are no objects: reading it as plain YAML would hand over raw chart files.
        let dir = path.display();
        return Err(KrmResult::error(format!(
            "{dir}: a Helm chart (it has a Chart.yaml), which tailor does not render: render it and tailor the output: `helm template RELEASE {dir} -f values.yaml | tailor CONFIG -`"
        ))
        .at_field("Chart.yaml"));
    }
    if path.is_dir() {
        let found = files::yaml_files(path)
            .map_err(|e| KrmResult::error(format!("{}: {e}", path.display())))?;
        let mut out = Vec::new();
        for (file, rel) in found {
            let text = crate::input::read_file(&file).map_err(KrmResult::error)?;
            out.extend(files::read_file_text(text, &rel, opts)?);
        }
        Ok(out)
    } else {
        let text = crate::input::read_file(path).map_err(KrmResult::error)?;
        files::read_file_text(text, &path.to_string_lossy(), opts)
    }
}

/// A Fleet bundle directory: its fleet.yaml and overlays for the run, its manifests as
/// objects that remember their files (the objects Fleet deploys: `tailor_fleet::bundle`).
fn read_bundle(
    dir: &Path,
    opts: &tailor_yaml::ParseOptions,
) -> Result<(FleetBundle, Vec<Resource>), Vec<KrmResult>> {
    let bundle = tailor_fleet::bundle::read_dir::<TargetFields>(dir, opts)
        .map_err(|errors| errors.into_iter().map(KrmResult::from).collect::<Vec<_>>())?;
    let mut notes = bundle.notes;
    let mut items = Vec::new();
    for (rel, text) in bundle.manifests {
        for item in files::read_file_text(text, &rel, opts).map_err(|r| vec![r])? {
            if tailor_fleet::bundle::deployable(item.api_version(), item.kind()) {
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
