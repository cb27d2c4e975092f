//! The two engines as shell tools: `tailor envsubst` (a drop-in for `flux envsubst`) and
//! `tailor expand` (KubeStellar's template expansion of one text), for pipes and for checking
//! a template before committing it.

use std::collections::BTreeMap;

use tailor_go::{ExecOptions, MissingKey, Template, Value as Data};

const ENVSUBST_USAGE: &str =
    "usage: tailor envsubst [--strict]  (text on stdin, variables from the environment)";
const EXPAND_USAGE: &str = "\
usage: tailor expand [--name NAME] [--property K=V]... [--properties FILE] < TEMPLATE

Expands one template text as KubeStellar expands the strings of an object annotated
control.kubestellar.io/expand-templates: \"true\" (Go text/template, missingkey=error, no
extra functions), with the properties of one destination cluster as the data.

  --name NAME         the template's name, as error messages show it (default: stdin)
  --property K=V      one property of the destination cluster; repeat for more. The cluster's
                      name is a property like any other: KubeStellar sets clusterName from the
                      inventory name, here give it yourself (--property clusterName=dev)
  --properties FILE   a YAML or JSON map of properties; options apply in order, a later
                      value wins

On an error nothing is written to stdout (no truncated file behind > out.yaml) and the
exit code is 1.";

fn read_stdin_bytes() -> Result<Vec<u8>, String> {
    tailor_kio::input::read_bytes(std::io::stdin().lock(), "stdin")
}

fn utf8(buf: Vec<u8>) -> Result<String, String> {
    String::from_utf8(buf).map_err(|e| {
        format!(
            "stdin is not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// `flux envsubst [--strict]`: stdin through Flux's envsubst, line by line, with the
/// environment as variables; strict makes an unset variable without a default an error.
pub fn envsubst(args: &[String]) -> i32 {
    let mut strict = false;
    if args.is_empty() && super::stdin_is_terminal() {
        super::say_fixed("tailor envsubst: waiting for text on stdin; pipe it in (tailor envsubst < FILE), variables come from the environment");
        return 2;
    }
    for a in args {
        match a.as_str() {
            "--strict" | "--strict=true" => strict = true,
            "--strict=false" => strict = false,
            "-h" | "--help" => {
                return super::emit(&format!("{ENVSUBST_USAGE}\n"));
            }
            other => {
                super::say(&format!("tailor envsubst: unknown argument {other:?}"));
                super::say_fixed(ENVSUBST_USAGE);
                return 2;
            }
        }
    }
    let text = match read_stdin_bytes().and_then(utf8) {
        Ok(t) => t,
        Err(e) => {
            super::say(&format!("✗ {e}"));
            return 1;
        }
    };
    let lookup = |name: &str| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    let opts = tailor_flux::envsubst::Options {
        strict,
        ..tailor_flux::envsubst::Options::default()
    };
    // `flux envsubst` reads its input line by line (a bufio.Scanner) and writes each line
    // followed by "\n" as soon as it is substituted: a line's trailing "\r" is dropped, an
    // expression cannot span lines, and the lines before a failing one are already out.
    let mut out = Vec::with_capacity(text.len() + 1);
    for line in lines(&text) {
        match tailor_flux::envsubst::substitute_bytes(line, &lookup, &opts) {
            Ok(bytes) => {
                out.extend_from_slice(&bytes);
                out.push(b'\n');
            }
            Err(e) => {
                let code = write_stdout(&out);
                // The flux CLI prints errors with its ✗ marker.
                super::say(&format!("✗ {e}"));
                return if code == 0 { 1 } else { code };
            }
        }
    }
    write_stdout(&out)
}

/// The lines Go's `bufio.ScanLines` yields: split at "\n", each without a trailing "\r"; a last
/// line without "\n" is still a line, and an empty input has none.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut parts = (!text.is_empty()).then(|| body.split('\n'));
    std::iter::from_fn(move || parts.as_mut()?.next()).map(|l| l.strip_suffix('\r').unwrap_or(l))
}

fn write_stdout(bytes: &[u8]) -> i32 {
    super::stdout::emit_with(0, |out| out.write_all(bytes))
}

/// `tailor expand`: Go `text/template` with KubeStellar's settings (`missingkey=error`, no
/// extra functions) over a flat map of properties.
pub fn expand(args: &[String]) -> i32 {
    let (name, props) = match expand_args(args) {
        Ok(Some(v)) => v,
        Ok(None) => {
            return super::emit(&format!("{EXPAND_USAGE}\n"));
        }
        Err(e) => {
            super::say(&format!("tailor expand: {e}"));
            super::say_fixed(EXPAND_USAGE);
            return 2;
        }
    };
    if super::stdin_is_terminal() {
        super::say_fixed("tailor expand: waiting for a template on stdin; pipe it in (tailor expand --property clusterName=dev < FILE), see tailor expand --help");
        return 2;
    }
    let text = match read_stdin_bytes().and_then(utf8) {
        Ok(t) => t,
        Err(e) => {
            super::say(&format!("tailor expand: {e}"));
            return 1;
        }
    };
    let opts = ExecOptions {
        missing_key: MissingKey::Error,
        ..ExecOptions::default()
    };
    let data = Data::StringMap(props);
    let template = match Template::parse(&name, &text) {
        Ok(t) => t,
        Err(e) => {
            super::say(&e.to_string());
            return 1;
        }
    };
    let mut out = Vec::new();
    // Go's Execute writes what it produced before a failure; a deploy tool must not leave
    // half a file behind a redirect, so the output is written only when all of it is there.
    match template.execute_bytes(&data, &opts, &mut out) {
        Ok(()) => write_stdout(&out),
        Err(e) => {
            super::say(&e.to_string());
            1
        }
    }
}

type ExpandArgs = (String, BTreeMap<String, String>);

fn expand_args(args: &[String]) -> Result<Option<ExpandArgs>, String> {
    let mut name = "stdin".to_string();
    let mut props = BTreeMap::new();
    let mut words = super::args::Words::new(args);
    while let Some((_, flag)) = words.next_word() {
        let mut value = || words.value(&flag);
        match flag.name.as_str() {
            "-h" | "--help" => return Ok(None),
            "--name" => name = value()?,
            "--property" | "-p" => {
                let kv = value()?;
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| format!("--property wants K=V, got {kv:?}"))?;
                props.insert(k.to_string(), v.to_string());
            }
            "--properties" => {
                let file = value()?;
                props.extend(properties_file(&file)?);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Some((name, props)))
}

/// A YAML or JSON map of property name to value; scalars are taken as written.
fn properties_file(path: &str) -> Result<BTreeMap<String, String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--properties {path}: {e}"))?;
    let docs = tailor_yaml::parse_stream(&text).map_err(|e| format!("--properties {path}: {e}"))?;
    let mut props = BTreeMap::new();
    let Some(doc) = docs.into_iter().find(|d| !d.empty) else {
        return Ok(props);
    };
    let pairs = doc
        .root
        .pairs()
        .ok_or_else(|| format!("--properties {path}: expected a map of property name to string"))?;
    for pair in pairs {
        let key = pair
            .key
            .as_scalar()
            .ok_or_else(|| format!("--properties {path}: keys must be strings"))?;
        let value = if pair.value.is_null() {
            ""
        } else {
            pair.value.as_scalar().ok_or_else(|| {
                format!("--properties {path}: property {key:?} must be a string, not a map or list")
            })?
        };
        props.insert(key.to_string(), value.to_string());
    }
    Ok(props)
}
