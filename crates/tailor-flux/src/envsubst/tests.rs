//! End-to-end cases from `docs/semantics/flux.md` §1 and §4 (outputs recorded from the Go code).

use super::*;

fn vars<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

fn lax(input: &str, pairs: &[(&str, &str)]) -> Result<String, Error> {
    let opts = Options {
        strict: false,
        ..Options::default()
    };
    substitute(input, &vars(pairs), &opts)
}

fn strict(input: &str, pairs: &[(&str, &str)]) -> Result<String, Error> {
    substitute(input, &vars(pairs), &Options::default())
}

fn ok(input: &str, pairs: &[(&str, &str)]) -> String {
    lax(input, pairs).unwrap_or_else(|e| panic!("{input}: {e}"))
}

#[test]
fn dollar_escapes_at_top_level() {
    assert_eq!(ok("$${x}", &[("x", "X")]), "${x}");
    assert_eq!(ok("$$var", &[]), "$var");
    assert_eq!(ok("$$", &[]), "$");
    assert_eq!(ok("$$$", &[]), "$$");
    assert_eq!(ok("$$$$", &[]), "$$");
    assert_eq!(ok("$$${x}", &[("x", "X")]), "$X");
    assert_eq!(ok("a$", &[]), "a$");
    assert_eq!(ok("$ {x}", &[]), "$ {x}");
    assert_eq!(ok("$var", &[("var", "V")]), "$var");
    assert_eq!(ok("\\${x}", &[("x", "X")]), "\\X");
    assert_eq!(ok("\\$${x}", &[]), "\\${x}");
    assert_eq!(ok("${a}}", &[("a", "A")]), "A}");
    assert_eq!(ok("{", &[]), "{");
}

#[test]
fn values_are_not_rescanned() {
    assert_eq!(ok("${v}", &[("v", "${w}")]), "${w}");
    assert_eq!(ok("${v}", &[("v", "$$")]), "$$");
}

#[test]
fn names_are_unicode_letters_and_digits() {
    assert_eq!(ok("${1abc}", &[("1abc", "x")]), "x");
    assert_eq!(ok("${über}", &[("über", "x")]), "x");
    assert_eq!(ok("${a٣}", &[("a٣", "x")]), "x");
    assert_eq!(lax("${a.b}", &[]), Err(Error::MissingClosingBrace));
    assert_eq!(lax("${a-b}", &[]), Err(Error::MissingClosingBrace));
}

#[test]
fn default_operators() {
    for op in [":=", ":-", ":?", ":+", "="] {
        let input = format!("${{v{op}d}}");
        assert_eq!(ok(&input, &[]), "d", "{input}");
        assert_eq!(ok(&input, &[("v", "")]), "d", "{input}");
        assert_eq!(ok(&input, &[("v", "x")]), "x", "{input}");
        assert_eq!(strict(&input, &[]).unwrap(), "d", "{input}");
    }
    assert_eq!(ok("${a:=x}y}", &[]), "xy}");
    assert_eq!(ok("${a:=}", &[]), "");
    assert_eq!(ok("${a:=a b:c\nd}", &[]), "a b:c\nd");
    assert_eq!(
        ok("${a:=pre${b}mid${c}post}", &[("b", "B"), ("c", "C")]),
        "preBmidCpost"
    );
    assert_eq!(ok("${a:=$${b}}", &[("b", "B")]), "$B");
    assert_eq!(ok("${a:=$$}", &[]), "$$");
    assert_eq!(ok("${a:=\\/}", &[]), "\\/");
    assert_eq!(ok("${a==x}", &[]), "=x");
    // Nothing is assigned.
    assert_eq!(ok("${a:=x}${a}", &[]), "x");
    assert_eq!(
        strict("${a:=x}${a}", &[]),
        Err(Error::VariableNotSet("a".into()))
    );
}

#[test]
fn defaults_are_evaluated_eagerly() {
    assert_eq!(
        strict("${a:=${b}}", &[("a", "x")]),
        Err(Error::VariableNotSet("b".into()))
    );
    assert_eq!(ok("${a:=${b}}", &[("a", "x")]), "x");
}

#[test]
fn unsupported_bash_forms() {
    for input in ["${var-default}", "${v+d}", "${v?d}", "${v-}"] {
        assert_eq!(lax(input, &[]), Err(Error::MissingClosingBrace), "{input}");
    }
}

#[test]
fn substring_forms() {
    let s = [("s", "abcdef"), ("n", "-2")];
    assert_eq!(ok("${s:-2}", &s), "abcdef");
    assert_eq!(ok("${s:${n}}", &s), "ef");
    assert_eq!(ok("${s:1:2:3}", &s), "abcdef");
    assert_eq!(
        lax("${s:1:${n}}", &s),
        Err(Error::SliceOutOfRange {
            low: None,
            high: -1
        })
    );
    assert_eq!(
        lax("${s:4:${n}}", &s),
        Err(Error::SliceOutOfRange {
            low: Some(4),
            high: 2
        })
    );
    assert_eq!(lax("${s:}", &s), Err(Error::ParseFuncSubstitution));
    assert_eq!(lax("${s::2}", &s), Err(Error::ParseFuncSubstitution));
    let opts = Options {
        strict: false,
        ..Options::default()
    };
    let u = vars(&[("u", "héllo")]);
    assert_eq!(
        substitute_bytes("${u:0:2}", &u, &opts).unwrap(),
        vec![0x68, 0xC3]
    );
    assert_eq!(
        substitute("${u:0:2}", &u, &opts),
        Err(Error::InvalidUtf8 { valid_up_to: 1 })
    );
}

#[test]
fn length_and_casing() {
    assert_eq!(ok("${#u}", &[("u", "héllo")]), "6");
    assert_eq!(ok("${#u}", &[]), "0");
    assert_eq!(ok("${v^}", &[("v", "ǆemal")]), "Ǆemal");
    assert_eq!(ok("${v^^}", &[("v", "ß")]), "ß");
    assert_eq!(ok("${v,,}", &[("v", "İSTANBUL")]), "istanbul");
    assert_eq!(ok("${v,^}", &[("v", "aB")]), "aB");
    assert_eq!(
        strict("${v,^}", &[]),
        Err(Error::VariableNotSet("v".into()))
    );
    for input in ["${#v:1}", "${##v}", "${#}", "${v^^^}", "${v,,,}"] {
        assert_eq!(lax(input, &[]), Err(Error::BadSubstitution), "{input}");
    }
}

#[test]
fn replace_forms() {
    let v = [("v", "abcabc"), ("e", "")];
    assert_eq!(ok("${v/a*/X}", &v), "abcabc");
    assert_eq!(ok("${v/#abc/}", &v), "abcabc");
    assert_eq!(ok("${v/b/X}", &v), "aXcabc");
    assert_eq!(ok("${v//b/X}", &v), "aXcaXc");
    assert_eq!(ok("${v//b/}", &v), "acac");
    assert_eq!(lax("${v//b}", &v), Err(Error::BadSubstitution));
    assert_eq!(ok("${v/%bc/X}", &v), "abcaX");
    assert_eq!(ok("${v/#ab/X}", &v), "Xcabc");
    assert_eq!(ok("${s//${e}/x}", &[("s", "abc")]), "xaxbxcx");
    assert_eq!(ok(r"${s/\\/x}", &[("s", r"a\b")]), "axb");
    assert_eq!(ok(r"${s//\//-}", &[("s", "a/b/c")]), "a-b-c");
    // `$${x}` in a replacement is the escape `$$` then `{x`; the brace after closes.
    assert_eq!(ok("${v/b/$${x}}", &v), "a${xcabc}");
    assert_eq!(lax("${v/abc}", &v), Err(Error::BadSubstitution));
}

#[test]
fn trim_forms() {
    let v = [("v", "abcabc"), ("n", "1abc"), ("z", "日本語")];
    assert_eq!(ok("${v#*}", &v), "bcabc");
    assert_eq!(ok("${v%*}", &v), "abcab");
    assert_eq!(ok("${v##*}", &v), "");
    assert_eq!(ok("${v%%c*}", &v), "ab");
    assert_eq!(ok("${n#[!0-9]}", &v), "abc");
    assert_eq!(ok("${n#[^0-9]}", &v), "1abc");
    assert_eq!(ok("${v%[a-c]}", &v), "abcabc");
    assert_eq!(ok("${v%%\\c}", &v), "abcabc");
    assert_eq!(ok("${v#[}", &v), "abcabc");
    assert_eq!(ok("${z%?}", &v), "日本\u{FFFD}\u{FFFD}");
    assert_eq!(lax("${v#}", &v), Err(Error::ParseFuncSubstitution));
}

#[test]
fn strict_mode_covers_transformations() {
    for input in [
        "${m}",
        "${#m}",
        "${m^}",
        "${m^^}",
        "${m,}",
        "${m,,}",
        "${m:0}",
        "${m:0:1}",
        "${m/a/b}",
        "${m//a/b}",
        "${m/#a/b}",
        "${m/%a/b}",
        "${m#a}",
        "${m##a}",
        "${m%a}",
        "${m%%a}",
    ] {
        assert_eq!(
            strict(input, &[]),
            Err(Error::VariableNotSet("m".into())),
            "{input}"
        );
        assert!(lax(input, &[]).is_ok(), "{input}");
    }
    assert_eq!(strict("${m}", &[("m", "")]).unwrap(), "");
}

#[test]
fn parse_errors_win_over_evaluation() {
    assert_eq!(strict("${missing} ${", &[]), Err(Error::ParseVariableName));
    assert_eq!(lax("abc${", &[]), Err(Error::ParseVariableName));
    assert_eq!(lax("${}", &[]), Err(Error::ParseVariableName));
    assert_eq!(lax("${var }", &[]), Err(Error::MissingClosingBrace));
    assert_eq!(lax("${a:=${b}", &[]), Err(Error::ParseFuncSubstitution));
}

#[test]
fn output_limit() {
    let opts = Options {
        strict: false,
        max_output_bytes: 10,
        ..Options::default()
    };
    let big = vars(&[("v", "0123456789abc")]);
    assert_eq!(
        substitute("${v}", &big, &opts),
        Err(Error::OutputTooLarge { limit: 10 })
    );
    assert_eq!(
        substitute("0123456789a", &big, &opts),
        Err(Error::OutputTooLarge { limit: 10 })
    );
    assert_eq!(substitute("${v:0:10}", &big, &opts).unwrap(), "0123456789");
    assert_eq!(
        Error::OutputTooLarge { limit: 10 }.to_string(),
        "substitution output exceeds the limit of 10 bytes"
    );
}

#[test]
fn argument_scanning_rules() {
    let v = [("v", "abcdef"), ("w", "a}b"), ("x", "1")];
    // Substring: a run of colons separates; text mixed with an expression is rejected.
    assert_eq!(ok("${v:1::2}", &v), "bc");
    assert_eq!(lax("${v:1:}", &v), Err(Error::ParseFuncSubstitution));
    assert_eq!(lax("${v:a${x}}", &v), Err(Error::BadSubstitution));
    assert_eq!(lax("${v:${x}a}", &v), Err(Error::BadSubstitution));
    assert_eq!(ok("${v:${x}:${x}}", &v), "b");
    // Trim: the pattern runs to `}`; an empty one is an error.
    assert_eq!(ok("${v###}", &[("v", "#a")]), "a");
    assert_eq!(lax("${v%%}", &v), Err(Error::ParseFuncSubstitution));
    // Replace: the pattern may contain `}`, the replacement `/`.
    assert_eq!(ok("${w/}/x}", &v), "axb");
    assert_eq!(ok("${v/b/x/y}", &v), "ax/ycdef");
    assert_eq!(ok("${v/c/}", &v), "abdef");
    assert_eq!(ok("${v/\\a/x}", &[("v", "\\ab")]), "xb");
    // A literal empty pattern cannot be written (envsubst v1.7.0).
    assert_eq!(lax("${v///x}", &v), Err(Error::ParseFuncSubstitution));
    assert_eq!(lax("${v/#/x}", &v), Err(Error::ParseFuncSubstitution));
    assert_eq!(lax("${v//c}", &v), Err(Error::BadSubstitution));
}

#[test]
fn text_without_dollar_comes_back_verbatim() {
    let v = vars(&[("a", "x")]);
    for text in [
        "",
        "plain",
        "a: {b}\n  c: ä \\ } {\n",
        "# ${ in a comment? no: no dollar",
    ] {
        let text = text.replace('$', "");
        assert_eq!(lax(&text, &[("a", "x")]), Ok(text.clone()));
        assert_eq!(substitute(&text, &v, &Options::default()).unwrap(), text);
    }
}

#[test]
fn substituted_values_spend_the_run_budget() {
    let opts = Options {
        strict: false,
        budget: tailor_go::Budget::new(20, 1),
        ..Options::default()
    };
    let v = vars(&[("v", "0123456789")]);
    // The text around the values is free; the values count, across calls.
    assert!(substitute("a long literal prefix ${v}", &v, &opts).is_ok());
    assert!(substitute("${v}", &v, &opts).is_ok());
    let e = substitute("${v}", &v, &opts).unwrap_err();
    assert!(matches!(e, Error::RunBudget(_)), "{e:?}");
    assert!(
        e.to_string().contains("spec.limits.maxRunOutputBytes"),
        "{e}"
    );
}

#[test]
fn variable_names_are_every_name_an_expression_looks_up() {
    let names = |text: &str| variable_names(text).map(|n| n.into_iter().collect::<Vec<_>>());
    assert_eq!(
        names("a: ${region}\nb: ${tier:=gold}\nc: ${x:-${y}}\nd: ${#len}\ne: $$literal $bare"),
        Some(
            ["len", "region", "tier", "x", "y"]
                .map(String::from)
                .to_vec()
        )
    );
    assert_eq!(names("no dollar"), Some(vec![]));
    assert_eq!(names("${bad"), None);
}
