//! Command-line entry: the KRM function (no arguments), standalone mode, help and version.
//! Exit codes: 0 success, 1 error results, 2 bad command line.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::krm::write::{write_resource_list, write_stream};
use crate::krm::{standalone, KrmResult, Resource};
use crate::run::{self, parse_options, Reading};

pub const HELP: &str = include_str!("help.txt");

#[derive(Debug, PartialEq, Eq)]
enum Output {
    Stream,
    ResourceList,
    Dir(PathBuf),
}

pub fn run() -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => krm_function(),
        Some("--help") | Some("-h") | Some("help") => {
            print!("{HELP}");
            0
        }
        Some("envsubst") => crate::tools::envsubst(&args[1..]),
        Some("expand") => crate::tools::expand(&args[1..]),
        Some("--version") | Some("-V") => {
            println!("tailor {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some(_) => match parse_standalone_args(&args) {
            Ok((config, inputs, output)) => standalone_mode(&config, &inputs, output),
            Err(msg) => {
                eprintln!("tailor: {msg}\nRun `tailor --help` for usage.");
                2
            }
        },
    }
}

fn parse_standalone_args(args: &[String]) -> Result<(String, Vec<String>, Output), String> {
    let mut output = Output::Stream;
    let mut positional = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let value = |i: usize| {
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--output" | "-o" => {
                output = match value(i)?.as_str() {
                    "stream" | "yaml" => Output::Stream,
                    "resource-list" => Output::ResourceList,
                    other => {
                        return Err(format!(
                            "--output must be stream or resource-list, not {other:?}"
                        ))
                    }
                };
                i += 2;
            }
            "--output-dir" => {
                output = Output::Dir(PathBuf::from(value(i)?));
                i += 2;
            }
            s if s.starts_with("--output=") => {
                output = match &s["--output=".len()..] {
                    "stream" | "yaml" => Output::Stream,
                    "resource-list" => Output::ResourceList,
                    other => {
                        return Err(format!(
                            "--output must be stream or resource-list, not {other:?}"
                        ))
                    }
                };
                i += 1;
            }
            s if s.starts_with("--output-dir=") => {
                output = Output::Dir(PathBuf::from(&s["--output-dir=".len()..]));
                i += 1;
            }
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown flag {s:?}")),
            _ => {
                positional.push(a.clone());
                i += 1;
            }
        }
    }
    let mut it = positional.into_iter();
    let config = it.next().ok_or("missing CONFIG file")?;
    let mut inputs: Vec<String> = it.collect();
    if inputs.is_empty() {
        inputs.push("-".into());
    }
    Ok((config, inputs, output))
}

fn read_stdin() -> Result<String, String> {
    crate::input::read_text(std::io::stdin().lock(), "input")
}

/// kpt and kustomize cut stderr short: at most four lines.
fn report(results: &[KrmResult]) {
    let notable: Vec<&KrmResult> = results
        .iter()
        .filter(|r| r.severity != crate::krm::Severity::Info)
        .collect();
    if notable.is_empty() {
        return;
    }
    let mut lines: Vec<String> = notable.iter().take(3).map(|r| r.summary_line()).collect();
    if notable.len() > 3 {
        lines.push(format!("... and {} more (see results)", notable.len() - 3));
    }
    let mut err = std::io::stderr().lock();
    for l in lines {
        let _ = writeln!(err, "{l}");
    }
}

fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn krm_function() -> i32 {
    let text = match read_stdin() {
        Ok(t) => t,
        Err(msg) => {
            let r = vec![KrmResult::error(msg)];
            emit(&write_resource_list(&[], None, &r));
            report(&r);
            return 1;
        }
    };
    let reading = run::item_reading(&text);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let answer = respond(text, reading, &mut out);
    let _ = out.flush();
    report(&answer.results);
    // The process is about to exit: freeing every tree would only cost time (a quarter of a
    // no-op pass over a large list).
    let code = answer.code;
    std::mem::forget(answer);
    code
}

/// What the KRM function answered: the exit code and the results (also in the output), and
/// what the run leaves behind (the items' trees: drop it, or forget it when the process is
/// about to exit).
pub struct Answer {
    pub code: i32,
    pub results: Vec<KrmResult>,
    _items: Vec<Resource>,
}

/// The KRM function's answer to one input text, its ResourceList streamed to `out`.
/// `reading` says how items are read ([`run::item_reading`] decides for a real run; the
/// answer is the same either way).
pub fn respond(text: String, reading: Reading, out: &mut dyn Write) -> Answer {
    let input = match run::read_items(text, reading) {
        Ok(i) => i,
        Err(r) => {
            let results = vec![r];
            let _ = out.write_all(write_resource_list(&[], None, &results).as_bytes());
            return Answer {
                code: 1,
                results,
                _items: Vec::new(),
            };
        }
    };
    let source = input.source.clone();
    let fc = input.function_config.clone();
    let mut items = input.items;
    if reading == Reading::Strip && !run::may_strip_while_reading(fc.as_ref()) {
        // The functionConfig read ahead was not the one the run got: read the items again,
        // as they were.
        items = run::original_items(&source);
    }
    let outcome = run::process(items, fc.as_ref());
    let items = if outcome.failed {
        run::original_items(&source)
    } else {
        outcome.items
    };
    let _ = crate::krm::write::write_resource_list_to(out, &items, fc.as_ref(), &outcome.results);
    Answer {
        code: i32::from(outcome.failed),
        results: outcome.results,
        _items: items,
    }
}

fn standalone_mode(config: &str, inputs: &[String], output: Output) -> i32 {
    let opts = parse_options();
    let fail = |r: KrmResult| {
        report(std::slice::from_ref(&r));
        1
    };
    let config_text = match crate::input::read_file(Path::new(config)) {
        Ok(t) => t,
        Err(e) => return fail(KrmResult::error(e)),
    };
    let fc = match standalone::read_file_text(config_text, config, &opts) {
        Ok(mut docs) if docs.len() == 1 => docs.remove(0).into_node(),
        Ok(docs) => {
            return fail(KrmResult::error(format!(
                "{config}: the config file must hold exactly one object, found {}",
                docs.len()
            )))
        }
        Err(r) => return fail(r),
    };
    let mut items: Vec<Resource> = Vec::new();
    let mut bundle: Option<run::FleetBundle> = None;
    for input in inputs {
        let path = Path::new(input);
        if input != "-" && path.join("fleet.yaml").is_file() {
            if bundle.is_some() {
                return fail(KrmResult::error(format!(
                    "{input}: only one Fleet bundle directory (with a fleet.yaml) per run"
                )));
            }
            match standalone::read_fleet_bundle(path, &opts) {
                Ok((b, mut more)) => {
                    bundle = Some(b);
                    items.append(&mut more);
                }
                Err(r) => return fail(r),
            }
            continue;
        }
        let read = if input == "-" {
            read_stdin()
                .map_err(KrmResult::error)
                .and_then(|t| standalone::read_stdin_text(&t, &opts))
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
    let outcome = run::process_with_bundle(items, Some(&fc), bundle);
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
            match standalone::write_output_dir(&dir, &outcome.items) {
                Ok(_) => 0,
                Err(msg) => fail(KrmResult::error(msg)),
            }
        }
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

fn read_path(path: &Path, opts: &tailor_yaml::ParseOptions) -> Result<Vec<Resource>, KrmResult> {
    if path.is_dir() {
        let files = standalone::yaml_files(path)
            .map_err(|e| KrmResult::error(format!("{}: {e}", path.display())))?;
        let mut out = Vec::new();
        for (file, rel) in files {
            let text = crate::input::read_file(&file).map_err(KrmResult::error)?;
            out.extend(standalone::read_file_text(text, &rel, opts)?);
        }
        Ok(out)
    } else {
        let text = crate::input::read_file(path).map_err(KrmResult::error)?;
        standalone::read_file_text(text, &path.to_string_lossy(), opts)
    }
}
