//! `tailor completion bash|zsh|fish`: shell completion scripts, each written from the one
//! table of subcommands and flags below.

/// The subcommands, as the first argument.
pub const SUBCOMMANDS: &[(&str, &str)] = &[
    (
        "diff",
        "a diff from the input to each destination's output, or (--base) a change review",
    ),
    ("envsubst", "Flux's envsubst on stdin"),
    ("expand", "KubeStellar's template expansion of stdin"),
    (
        "fleet-values",
        "the Helm values Fleet would pass per destination",
    ),
    (
        "helm",
        "helm template: a local chart rendered as Helm v3 does",
    ),
    ("schema", "the JSON Schema of a functionConfig kind"),
    ("completion", "a shell completion script"),
    ("version", "the version"),
    ("help", "the usage"),
];

/// What a flag takes after it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    None,
    Directory,
    Choice(&'static str),
    Text,
}

/// The standalone flags: long name, short name, value, description.
pub const FLAGS: &[(&str, Option<char>, Takes, &str)] = &[
    (
        "output",
        Some('o'),
        Takes::Choice("stream resource-list"),
        "output form",
    ),
    (
        "output-dir",
        None,
        Takes::Directory,
        "write each object to its file under DIR",
    ),
    (
        "clean",
        None,
        Takes::None,
        "replace the output directory (only files tailor writes)",
    ),
    ("cluster", None, Takes::Text, "render only this destination"),
    (
        "shard",
        None,
        Takes::Text,
        "render shard K/N of the destinations",
    ),
    (
        "explain",
        None,
        Takes::None,
        "say what happens per destination instead of writing it",
    ),
    ("strict", None, Takes::None, "warnings are errors"),
    (
        "chart-dir",
        None,
        Takes::Directory,
        "where a Fleet Helm bundle's downloaded charts are read from",
    ),
    ("help", Some('h'), Takes::None, "the usage"),
    ("version", Some('V'), Takes::None, "the version"),
];

/// Prints the script for `shell`; exit code 2 for an unknown or missing shell.
pub fn print(shell: Option<&str>) -> i32 {
    let script = match shell {
        Some("bash") => bash(),
        Some("zsh") => zsh(),
        Some("fish") => fish(),
        _ => return super::usage_error("completion needs a shell: bash, zsh or fish"),
    };
    super::emit(&script)
}

fn subcommand_words() -> String {
    SUBCOMMANDS
        .iter()
        .map(|(s, _)| *s)
        .collect::<Vec<_>>()
        .join(" ")
}

fn bash() -> String {
    let flags: Vec<String> = FLAGS.iter().map(|(l, ..)| format!("--{l}")).collect();
    let mut values = String::new();
    for (long, short, value, _) in FLAGS {
        let names = match short {
            Some(c) => format!("-{c}|--{long}"),
            None => format!("--{long}"),
        };
        match value {
            Takes::Choice(words) => values.push_str(&format!(
                "        {names}) COMPREPLY=($(compgen -W \"{words}\" -- \"$cur\")); return ;;\n"
            )),
            Takes::Directory => values.push_str(&format!(
                "        {names}) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
            )),
            Takes::Text => values.push_str(&format!("        {names}) return ;;\n")),
            Takes::None => {}
        }
    }
    format!(
        r#"# tailor completion for bash: source <(tailor completion bash)
_tailor() {{
    local cur prev
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    case "$prev" in
{values}        completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
        schema) COMPREPLY=($(compgen -W "Tailor ApplyReplacements CustomTransform Kustomization" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "{flags}" -- "$cur"))
    elif [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "{subs}" -- "$cur") $(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -F _tailor tailor
"#,
        flags = flags.join(" "),
        subs = subcommand_words(),
    )
}

fn zsh() -> String {
    let mut specs = String::new();
    for (long, short, value, desc) in FLAGS {
        let names = match short {
            Some(c) => format!("'(-{c} --{long})'{{-{c},--{long}}}"),
            None => format!("'--{long}"),
        };
        let open = if short.is_some() { "'" } else { "" };
        let arg = match value {
            Takes::None => String::new(),
            Takes::Directory => ":directory:_files -/".into(),
            Takes::Choice(words) => format!(":value:({words})"),
            Takes::Text => ":value:".into(),
        };
        specs.push_str(&format!("        {names}{open}[{desc}]{arg}' \\\n"));
    }
    format!(
        r#"#compdef tailor
# tailor completion for zsh: source <(tailor completion zsh)
_tailor() {{
    _arguments \
{specs}        '1:config or subcommand:({subs} $(print -l *.y*ml(N)))' \
        '*:input:_files'
}}
compdef _tailor tailor
"#,
        subs = subcommand_words(),
    )
}

fn fish() -> String {
    let mut s = String::from("# tailor completion for fish: tailor completion fish | source\n");
    for (sub, desc) in SUBCOMMANDS {
        s.push_str(&format!(
            "complete -c tailor -n '__fish_use_subcommand' -a {sub} -d '{desc}'\n"
        ));
    }
    for (long, short, value, desc) in FLAGS {
        let short = short.map(|c| format!(" -s {c}")).unwrap_or_default();
        let arg = match value {
            Takes::None => String::new(),
            Takes::Directory => " -r".into(),
            Takes::Choice(words) => format!(" -x -a '{words}'"),
            Takes::Text => " -x".into(),
        };
        s.push_str(&format!(
            "complete -c tailor{short} -l {long}{arg} -d '{desc}'\n"
        ));
    }
    s.push_str(
        "complete -c tailor -n '__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flag the table offers is one the command line takes (with a value when it needs
    /// one), so completion cannot offer what tailor refuses.
    #[test]
    fn every_offered_flag_parses() {
        for (long, _, value, _) in FLAGS {
            if matches!(*long, "help" | "version") {
                continue;
            }
            let mut argv = vec!["tailor.yaml".to_string(), "dir".into(), format!("--{long}")];
            match value {
                Takes::None => {}
                Takes::Choice(words) => argv.push(words.split(' ').next().unwrap_or("").into()),
                Takes::Directory => argv.push("out".into()),
                Takes::Text if *long == "shard" => argv.push("1/2".into()),
                Takes::Text => argv.push("x".into()),
            }
            if *long == "clean" {
                argv.extend(["--output-dir".into(), "out".into()]);
            }
            assert!(super::super::args::parse(&argv).is_ok(), "--{long}");
        }
    }
}
