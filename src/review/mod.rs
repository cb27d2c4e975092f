//! `tailor diff --base BASE CONFIG [DIR...]`: what a change does to each destination. Both
//! versions are rendered, compared object by object (`model`), secrets masked (`mask`), and
//! written for where the review is read: a terminal (`text`), a pull-request comment
//! (`markdown`), a bot (`json`) or a browser (`html`). docs/review.md describes the output.

mod base;
pub mod html;
pub mod json;
pub mod markdown;
mod mask;
pub mod model;
pub mod text;

use tailor_kio::Resource;

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Json,
    Html,
}

/// The review's own options, taken from the `tailor diff` command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub base: String,
    pub format: Format,
    pub exit_code: bool,
    pub show_secrets: bool,
}

/// With `--exit-code`: what a CI job branches on, as `git diff --exit-code` (0 nothing
/// changes, 1 an error, 2 something changes).
pub const EXIT_CHANGES: i32 = 2;

/// Takes the review's flags out of a `tailor diff` command line: the options when `--base`
/// is given (`None` otherwise) and the words left for the standalone parser.
pub fn split_options(argv: &[String]) -> Result<(Option<Options>, Vec<String>), String> {
    let mut base = None;
    let mut format = None;
    let (mut exit_code, mut show_secrets) = (false, false);
    let mut rest = Vec::new();
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (word.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| words.next().cloned())
                .ok_or(format!("{flag} needs a value"))
        };
        match flag {
            "--base" => base = Some(value()?),
            "--format" => format = Some(parse_format(&value()?)?),
            "--exit-code" => exit_code = true,
            "--show-secrets" => show_secrets = true,
            _ => rest.push(word.clone()),
        }
    }
    let options = match base {
        Some(base) if base.is_empty() => {
            return Err("--base needs a directory or a git revision, not an empty string".into())
        }
        Some(base) => Some(Options {
            base,
            format: format.unwrap_or(Format::Text),
            exit_code,
            show_secrets,
        }),
        None if format.is_some() || exit_code || show_secrets => {
            return Err(
                "--format, --exit-code and --show-secrets review a change: give --base BASE".into(),
            )
        }
        None => None,
    };
    Ok((options, rest))
}

fn parse_format(text: &str) -> Result<Format, String> {
    match text {
        "text" => Ok(Format::Text),
        "markdown" | "md" => Ok(Format::Markdown),
        "json" => Ok(Format::Json),
        "html" => Ok(Format::Html),
        other => Err(format!(
            "--format must be text, markdown, json or html, not {other:?}"
        )),
    }
}

/// One side as the standalone run rendered it: the destinations (skipped ones included),
/// whether it fanned out, and the objects. `Ok(None)`: the run failed and reported why.
pub type Rendered = Option<(Vec<String>, bool, Vec<Resource>)>;

/// The standalone run, given a CONFIG and inputs; `Err` is the exit code of a bad command
/// line.
pub type Render<'a> = dyn FnMut(&str, &[String]) -> Result<Rendered, i32> + 'a;

/// The review of `config` and `inputs` against the same paths in `options.base`, rendered by
/// `render`, as the text of `options.format`; `Err` is the message of what went wrong.
pub fn review(
    options: &Options,
    config: &str,
    inputs: &[String],
    render: &mut Render<'_>,
) -> Result<Result<model::Review, String>, i32> {
    if config == "-" || inputs.iter().any(|i| i == "-") {
        return Ok(Err(
            "--base renders two versions of the files: give CONFIG and the inputs as paths, not stdin (-)".into(),
        ));
    }
    let base = match base::locate(&options.base, config, inputs) {
        Ok(b) => b,
        Err(msg) => return Ok(Err(msg)),
    };
    let after = match render(config, inputs)? {
        Some((d, f, items)) => model::side(d, f, items, options.show_secrets),
        None => {
            return Ok(Err(
                "the change does not render (see the errors above)".into()
            ))
        }
    };
    let before = match (&base.config, base.inputs.is_empty()) {
        (Some(c), false) => match render(c, &base.inputs)? {
            Some((d, f, items)) => model::side(d, f, items, options.show_secrets),
            None => {
                return Ok(Err(format!(
                    "the base ({}) does not render (see the errors above)",
                    options.base
                )))
            }
        },
        // The change adds the CONFIG or every input: nothing was deployed before.
        _ => model::Side::default(),
    };
    Ok(Ok(model::compare(&before, &after)))
}

/// The review written in `format`; `color` for a terminal (text only).
pub fn write(review: &model::Review, format: Format, color: bool) -> String {
    match format {
        Format::Text => text::write(review, color),
        Format::Markdown => markdown::write(review, markdown::LIMIT),
        Format::Json => json::write(review),
        Format::Html => html::write(review),
    }
}

/// The exit code of a review that ran: 0, or [`EXIT_CHANGES`] with `--exit-code` when
/// something changes.
pub fn exit_code(options: &Options, review: &model::Review) -> i32 {
    if options.exit_code && review.changes() {
        EXIT_CHANGES
    } else {
        0
    }
}

/// The heading of a group: its cluster, or "the same change on 9 clusters: dev-1 … dev-9".
pub fn group_heading(group: &model::Group) -> String {
    match group.clusters.as_slice() {
        [one] => one.clone(),
        many => format!(
            "the same change on {} clusters: {}",
            many.len(),
            model::short_list(many)
        ),
    }
}

/// What happens to a group's destinations as a whole, when the bundle starts or stops
/// reaching them.
pub fn receiving_note(change: &model::Change) -> Option<&'static str> {
    use model::Presence::*;
    match (change.receiving()?, change.before, change.after) {
        (true, Absent, _) => Some("a new destination: starts receiving the bundle"),
        (true, _, _) => Some("starts receiving the bundle"),
        (false, _, Absent) => Some("no longer a destination: stops receiving the bundle"),
        (false, _, _) => Some("stops receiving the bundle (doNotDeploy or no object left)"),
    }
}

/// "2 changed, 1 added": a group's object counts.
pub fn counts(change: &model::Change) -> String {
    use model::ChangeKind::*;
    let parts: Vec<String> = [Changed, Added, Removed]
        .into_iter()
        .map(|k| (change.count(k), k.word()))
        .filter(|(n, _)| *n > 0)
        .map(|(n, w)| format!("{n} {w}"))
        .collect();
    if parts.is_empty() {
        "no object differs".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn review_flags_are_taken_out_of_the_diff_command_line() {
        let (options, rest) = split_options(&words(&[
            "--base=main",
            "cfg.yaml",
            "--format",
            "json",
            "dir",
            "--exit-code",
            "--cluster",
            "dev",
        ]))
        .unwrap();
        let options = options.unwrap();
        assert_eq!(options.base, "main");
        assert_eq!(options.format, Format::Json);
        assert!(options.exit_code && !options.show_secrets);
        assert_eq!(rest, words(&["cfg.yaml", "dir", "--cluster", "dev"]));
        assert_eq!(split_options(&words(&["c", "d"])).unwrap().0, None);
        assert!(split_options(&words(&["--exit-code", "c"])).is_err());
        assert!(split_options(&words(&["--base", "x", "--format", "pdf"])).is_err());
        assert!(split_options(&words(&["--base="])).is_err());
        assert!(split_options(&words(&["--base"])).is_err());
    }
}
