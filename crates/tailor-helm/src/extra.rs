//! The rest of sprig v3.3.0's deterministic functions and Helm's `toYamlPretty`: one
//! registry over the modules that implement them ([`crate::words`], [`crate::decimal`],
//! [`crate::seqs`], [`crate::encode`], [`crate::password`], [`crate::url`],
//! [`crate::aes`]), so `funcs.rs` registers them in one place.

use tailor_go::template::ParamType;
use tailor_go::Value;

const WORDS: &[&str] = &[
    "camelcase",
    "kebabcase",
    "snakecase",
    "swapcase",
    "untitle",
    "initials",
    "abbrev",
    "abbrevboth",
    "wrap",
    "wrapWith",
];

const SECRETS_AND_URLS: &[&str] = &["derivePassword", "decryptAES", "urlParse", "urlJoin"];

pub fn names() -> impl Iterator<Item = &'static &'static str> {
    WORDS
        .iter()
        .chain(crate::decimal::NAMES)
        .chain(crate::seqs::NAMES)
        .chain(crate::encode::NAMES)
        .chain(SECRETS_AND_URLS)
}

pub fn signature(name: &str) -> Option<(&'static [ParamType], bool)> {
    use ParamType::{Any, String as S};
    Some(match name {
        "camelcase" | "kebabcase" | "snakecase" | "swapcase" | "untitle" | "initials"
        | "semver" | "b32enc" | "b32dec" | "osBase" | "osClean" | "osDir" | "osExt" | "osIsAbs" => {
            (&[S], false)
        }
        "abbrev" | "wrap" => (&[Any, S], false),
        "abbrevboth" => (&[Any, Any, S], false),
        "wrapWith" => (&[Any, S, S], false),
        "plural" => (&[S, S, Any], false),
        "hello" => (&[], false),
        "derivePassword" => (&[Any, S, S, S, S], false),
        "urlParse" => (&[S], false),
        "urlJoin" => (&[Any], false),
        "decryptAES" => (&[S, S], false),
        "addf" | "seq" => (&[Any], true),
        "add1f" | "toDecimal" | "toYamlPretty" | "mustToJson" | "mustToPrettyJson"
        | "mustToRawJson" => (&[Any], false),
        "subf" | "mulf" | "divf" | "maxf" | "minf" | "slice" | "mustSlice" => (&[Any, Any], true),
        "untilStep" => (&[Any, Any, Any], false),
        "chunk" | "mustChunk" => (&[Any, Any], false),
        _ => return None,
    })
}

pub fn call(name: &str, args: Vec<Value>) -> Result<Value, String> {
    if crate::decimal::NAMES.contains(&name) {
        return crate::decimal::call(name, args);
    }
    if crate::seqs::NAMES.contains(&name) {
        return crate::seqs::call(name, args);
    }
    if crate::encode::NAMES.contains(&name) {
        return crate::encode::call(name, args);
    }
    if SECRETS_AND_URLS.contains(&name) {
        return secrets_and_urls(name, args);
    }
    words(name, args)
}

fn text(v: Value) -> String {
    match v {
        Value::String(s) => s,
        _ => String::new(),
    }
}

fn secrets_and_urls(name: &str, args: Vec<Value>) -> Result<Value, String> {
    let mut it = args.into_iter();
    let mut next = || it.next().unwrap_or(Value::Nil);
    match name {
        "urlParse" => crate::url::url_parse(&text(next())),
        "urlJoin" => crate::url::url_join(&next()),
        "decryptAES" => {
            let password = text(next());
            crate::aes::decrypt(&password, &text(next())).map(Value::String)
        }
        _ => {
            let counter = crate::seqs::go_int(&next())?;
            let counter = u32::try_from(counter)
                .map_err(|_| format!("{counter} overflows uint32 (derivePassword's counter)"))?;
            let (kind, password) = (text(next()), text(next()));
            let (user, site) = (text(next()), text(next()));
            let derived = crate::password::derive(counter, &kind, &password, &user, &site);
            Ok(Value::String(derived))
        }
    }
}

fn words(name: &str, args: Vec<Value>) -> Result<Value, String> {
    use crate::words as w;
    let mut it = args.into_iter();
    let mut next = || it.next().unwrap_or(Value::Nil);
    let int = |v: Value| crate::seqs::go_int(&v);
    Ok(Value::String(match name {
        "camelcase" => w::camelcase(&text(next())),
        "kebabcase" => w::lower_case_words(&text(next()), '-'),
        "snakecase" => w::lower_case_words(&text(next()), '_'),
        "swapcase" => w::swapcase(&text(next())),
        "untitle" => w::untitle(&text(next())),
        "initials" => w::initials(&text(next())),
        "abbrev" => {
            let width = int(next())?;
            w::abbrev(width, &text(next()))
        }
        "abbrevboth" => {
            let (left, right) = (int(next())?, int(next())?);
            w::abbrevboth(left, right, &text(next()))
        }
        "wrap" => {
            let width = int(next())?;
            w::wrap(&text(next()), width, "", false)
        }
        "wrapWith" => {
            let (width, sep) = (int(next())?, text(next()));
            w::wrap(&text(next()), width, &sep, true)
        }
        _ => return Err(format!("function {name} not defined")),
    }))
}
