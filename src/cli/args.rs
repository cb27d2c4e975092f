//! The standalone command line: `tailor CONFIG [FILE|DIR|-]... [options]`.

use std::path::PathBuf;

/// Where standalone mode writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A multi-document YAML stream on stdout.
    Stream,
    /// A ResourceList on stdout (paths recorded as `kpt fn source` does).
    ResourceList,
    /// Each object back to its file under a directory.
    Dir(PathBuf),
}

/// The standalone command line, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    /// The functionConfig file (`-`: stdin).
    pub config: String,
    /// Files, directories, or `-` for stdin (the default).
    pub inputs: Vec<String>,
    pub output: Output,
    /// `--clean`: empty the output directory first.
    pub clean: bool,
    /// `--cluster NAME`: render only this destination of `spec.clusters`.
    pub cluster: Option<String>,
    /// `--strict`: warnings are errors.
    pub strict: bool,
    /// `--shard K/N`: render shard K (1-based) of N of the destinations (`env:VAR/N` read).
    pub shard: Option<(usize, usize)>,
    /// `--explain`: print what happens per destination instead of the objects.
    pub explain: bool,
    /// `--chart-dir DIR`: where a Fleet Helm bundle's downloaded charts are read from, as
    /// `helm pull --untar --untardir DIR` leaves them.
    pub chart_dir: Option<String>,
}

/// A flag as written: `--name` or `-n`, and the value given inline as `--name=value`.
pub struct Flag {
    pub name: String,
    inline: Option<String>,
}

/// Walks a command line word by word, handing each flag the value it takes: inline, or the
/// next word.
pub struct Words<'a> {
    args: &'a [String],
    next: usize,
}

impl<'a> Words<'a> {
    pub fn new(args: &'a [String]) -> Words<'a> {
        Words { args, next: 0 }
    }

    /// The next word, and it read as a flag.
    pub fn next_word(&mut self) -> Option<(String, Flag)> {
        let word = self.args.get(self.next)?.clone();
        self.next += 1;
        let flag = match word.split_once('=') {
            Some((f, v)) if f.starts_with("--") => Flag {
                name: f.to_string(),
                inline: Some(v.to_string()),
            },
            _ => Flag {
                name: word.clone(),
                inline: None,
            },
        };
        Some((word, flag))
    }

    /// The value of `flag`: given inline, or the next word.
    pub fn value(&mut self, flag: &Flag) -> Result<String, String> {
        if let Some(v) = &flag.inline {
            return Ok(v.clone());
        }
        let v = self
            .args
            .get(self.next)
            .cloned()
            .ok_or_else(|| format!("{} needs a value", flag.name))?;
        self.next += 1;
        Ok(v)
    }
}

/// `K/N` with 1 <= K <= N, or `env:VAR/N`: the shard whose 0-based index the environment
/// variable VAR holds, for engines that number their workers from 0 and run no shell to add
/// one (a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, an Argo Workflows `withSequence`
/// item, GitHub's `strategy.job-index`).
fn shard(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<(usize, usize), String> {
    if let Some(rest) = text.strip_prefix("env:") {
        return shard_from_env(text, rest, env);
    }
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if k >= 1 && k <= n => Ok((k, n)),
        _ => Err(format!(
            "--shard wants K/N with 1 <= K <= N (shard 2 of 4: --shard 2/4), or env:VAR/N with VAR holding a 0-based index, not {text:?}"
        )),
    }
}

/// `--shard env:VAR/N`: VAR's value, an index from 0 to N-1, is shard index+1 of N.
fn shard_from_env(
    text: &str,
    rest: &str,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(usize, usize), String> {
    let (var, n) = rest
        .split_once('/')
        .and_then(|(var, n)| Some((var, n.trim().parse::<usize>().ok()?)))
        .filter(|(var, n)| !var.is_empty() && *n >= 1)
        .ok_or_else(|| {
            format!("--shard env:VAR/N wants a variable name and N >= 1 (--shard env:JOB_COMPLETION_INDEX/4), not {text:?}")
        })?;
    let value = env(var)
        .ok_or_else(|| format!("--shard {text}: the environment variable {var} is not set"))?;
    match value.trim().parse::<usize>() {
        Ok(index) if index < n => Ok((index + 1, n)),
        _ => Err(format!(
            "--shard {text}: {var}={value:?} is not a 0-based index from 0 to {}",
            n - 1
        )),
    }
}

/// Parses standalone arguments; an error is a usage error (exit 2).
pub fn parse(args: &[String]) -> Result<Args, String> {
    let mut output: Option<Output> = None;
    let mut set_output = |o: Output, flag: &str| -> Result<(), String> {
        match &output {
            Some(prev) if *prev != o => Err(format!(
                "{flag} conflicts with an earlier output option: choose one of -o stream, -o resource-list, --output-dir DIR"
            )),
            _ => {
                output = Some(o);
                Ok(())
            }
        }
    };
    let mut parsed = Args {
        config: String::new(),
        inputs: Vec::new(),
        output: Output::Stream,
        clean: false,
        cluster: None,
        strict: false,
        shard: None,
        explain: false,
        chart_dir: None,
    };
    let mut positional = Vec::new();
    let mut words = Words::new(args);
    while let Some((arg, flag)) = words.next_word() {
        let mut value = || words.value(&flag);
        match flag.name.as_str() {
            "--output" | "-o" => {
                let o = match value()?.as_str() {
                    "stream" | "yaml" => Output::Stream,
                    "resource-list" => Output::ResourceList,
                    other => {
                        return Err(format!(
                            "--output must be stream or resource-list, not {other:?}"
                        ))
                    }
                };
                set_output(o, &flag.name)?;
            }
            "--output-dir" => {
                let dir = value()?;
                if dir.is_empty() {
                    // What `--output-dir "$OUT"` gives with OUT unset: never the current
                    // directory.
                    return Err("--output-dir needs a directory, not an empty string (is its variable unset?)".into());
                }
                set_output(Output::Dir(PathBuf::from(dir)), &flag.name)?
            }
            "--clean" => parsed.clean = true,
            "--cluster" => parsed.cluster = Some(value()?),
            "--strict" => parsed.strict = true,
            "--explain" => parsed.explain = true,
            "--chart-dir" => parsed.chart_dir = Some(value()?),
            "--shard" => parsed.shard = Some(shard(&value()?, |v| std::env::var(v).ok())?),
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown flag {s:?}")),
            _ => positional.push(arg),
        }
    }
    parsed.output = output.unwrap_or(Output::Stream);
    if parsed.clean && !matches!(parsed.output, Output::Dir(_)) {
        return Err("--clean empties the --output-dir: give one".into());
    }
    let mut it = positional.into_iter();
    parsed.config = it.next().ok_or("missing CONFIG file")?;
    parsed.inputs = it.collect();
    if parsed.inputs.is_empty() {
        parsed.inputs.push("-".into());
    }
    if parsed.config == "-" && parsed.inputs.iter().any(|i| i == "-") {
        return Err(
            "the CONFIG is read from stdin (-): give the manifests as files or directories".into(),
        );
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Args, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn reads_flags_anywhere() {
        let a = p(&[
            "cfg.yaml",
            "dir",
            "--output-dir=out",
            "--clean",
            "--cluster",
            "dev",
            "--strict",
        ])
        .unwrap();
        assert_eq!(a.config, "cfg.yaml");
        assert_eq!(a.inputs, ["dir"]);
        assert_eq!(a.output, Output::Dir("out".into()));
        assert!(a.clean && a.strict);
        assert_eq!(a.cluster.as_deref(), Some("dev"));
        assert_eq!(p(&["cfg.yaml"]).unwrap().inputs, ["-"]);
    }

    #[test]
    fn conflicts_are_usage_errors() {
        assert!(p(&["c", "d", "--output-dir", "o", "-o", "resource-list"])
            .unwrap_err()
            .contains("conflicts"));
        assert!(p(&["c", "d", "--clean"]).is_err());
        assert!(p(&["c", "d", "--output-dir", ""])
            .unwrap_err()
            .contains("not an empty string"));
        assert!(p(&["c", "d", "--output-dir="]).is_err());
        assert!(p(&["-", "-"]).is_err());
        assert!(p(&["c", "--bogus"]).unwrap_err().contains("unknown flag"));
        assert!(p(&[]).unwrap_err().contains("missing CONFIG"));
    }

    #[test]
    fn shard_from_the_environment_is_zero_based() {
        let env = |v: &str| match v {
            "JOB_COMPLETION_INDEX" => Some("0".to_string()),
            "LAST" => Some("3".to_string()),
            "BAD" => Some("x".to_string()),
            _ => None,
        };
        assert_eq!(shard("env:JOB_COMPLETION_INDEX/4", env), Ok((1, 4)));
        assert_eq!(shard("env:LAST/4", env), Ok((4, 4)));
        assert_eq!(shard("2/4", env), Ok((2, 4)));
        let err = |t| shard(t, env).unwrap_err();
        assert!(err("env:LAST/3").contains("LAST=\"3\" is not a 0-based index from 0 to 2"));
        assert!(err("env:BAD/4").contains("BAD=\"x\""));
        assert!(err("env:UNSET/4").contains("UNSET is not set"));
        assert!(err("env:/4").contains("wants a variable name"));
        assert!(err("env:LAST/0").contains("N >= 1"));
        assert!(err("env:LAST").contains("wants a variable name"));
        assert!(err("0/4").contains("1 <= K <= N"));
    }
}
