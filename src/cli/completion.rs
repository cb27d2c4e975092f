//! `tailor completion bash|zsh|fish`: shell completion scripts for the subcommands and flags.

const SUBCOMMANDS: &str = "envsubst expand version completion help";
const FLAGS: &str = "--output --output-dir --clean --cluster --strict --help --version";

/// Prints the script for `shell`; exit code 2 for an unknown or missing shell.
pub fn print(shell: Option<&str>) -> i32 {
    let script = match shell {
        Some("bash") => bash(),
        Some("zsh") => zsh(),
        Some("fish") => fish(),
        _ => return super::usage_error("completion needs a shell: bash, zsh or fish"),
    };
    print!("{script}");
    0
}

fn bash() -> String {
    format!(
        r#"# tailor completion for bash: source <(tailor completion bash)
_tailor() {{
    local cur prev
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    case "$prev" in
        -o|--output) COMPREPLY=($(compgen -W "stream resource-list" -- "$cur")); return ;;
        --output-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "{FLAGS}" -- "$cur"))
    elif [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "{SUBCOMMANDS}" -- "$cur") $(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -F _tailor tailor
"#
    )
}

fn zsh() -> String {
    format!(
        r#"#compdef tailor
# tailor completion for zsh: source <(tailor completion zsh)
_tailor() {{
    _arguments \
        '(-o --output)'{{-o,--output}}'[output form]:form:(stream resource-list)' \
        '--output-dir[write each object to its file under DIR]:directory:_files -/' \
        '--clean[empty the output directory first]' \
        '--cluster[render only this destination]:cluster:' \
        '--strict[warnings are errors]' \
        '1:config or subcommand:({SUBCOMMANDS} $(print -l *.y*ml(N)))' \
        '*:input:_files'
}}
compdef _tailor tailor
"#
    )
}

fn fish() -> String {
    let mut s = String::from("# tailor completion for fish: tailor completion fish | source\n");
    for sub in SUBCOMMANDS.split(' ') {
        s.push_str(&format!(
            "complete -c tailor -n '__fish_use_subcommand' -a {sub}\n"
        ));
    }
    s.push_str("complete -c tailor -s o -l output -x -a 'stream resource-list' -d 'output form'\n");
    s.push_str(
        "complete -c tailor -l output-dir -r -d 'write each object to its file under DIR'\n",
    );
    s.push_str("complete -c tailor -l clean -d 'empty the output directory first'\n");
    s.push_str("complete -c tailor -l cluster -x -d 'render only this destination'\n");
    s.push_str("complete -c tailor -l strict -d 'warnings are errors'\n");
    s.push_str(
        "complete -c tailor -n '__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_is_completed_in_every_shell() {
        for flag in FLAGS
            .split(' ')
            .filter(|f| !matches!(*f, "--help" | "--version"))
        {
            assert!(bash().contains(flag), "bash {flag}");
            assert!(zsh().contains(flag), "zsh {flag}");
            assert!(fish().contains(&flag[2..]), "fish {flag}");
        }
    }
}
