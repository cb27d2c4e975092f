//! The limits at their boundaries, through the public API: exactly at a limit works, one past
//! it gives the documented error.

use tailor_flux::envsubst::{substitute, Error, Options, MAX_NESTING};

fn lookup(name: &str) -> Option<String> {
    match name {
        "v" => Some("abcde".to_string()),
        "a" => Some("aaaa".to_string()),
        _ => None,
    }
}

fn opts(max: usize) -> Options {
    Options {
        max_output_bytes: max,
        ..Options::default()
    }
}

#[test]
fn nesting_boundary() {
    let nested = |k: usize| "${x:=".repeat(k) + "d" + &"}".repeat(k);
    assert_eq!(
        substitute(&nested(MAX_NESTING), &lookup, &Options::default()).unwrap(),
        "d"
    );
    let e = substitute(&nested(MAX_NESTING + 1), &lookup, &Options::default()).unwrap_err();
    assert_eq!(e, Error::NestingTooDeep { limit: MAX_NESTING });
    assert_eq!(e.to_string(), "expressions nested deeper than 256 levels");
}

#[test]
fn output_boundary() {
    // Ten expansions of a five-byte value: 50 bytes.
    let text = "${v}".repeat(10);
    assert_eq!(substitute(&text, &lookup, &opts(50)).unwrap().len(), 50);
    let e = substitute(&(text.clone() + "z"), &lookup, &opts(50)).unwrap_err();
    assert_eq!(e, Error::OutputTooLarge { limit: 50 });
    assert_eq!(
        e.to_string(),
        "substitution output exceeds the limit of 50 bytes"
    );
    // Literal text counts as well.
    assert!(substitute(&"x".repeat(50), &lookup, &opts(50)).is_ok());
    assert_eq!(
        substitute(&"x".repeat(51), &lookup, &opts(50)).unwrap_err(),
        Error::OutputTooLarge { limit: 50 }
    );
}

#[test]
fn intermediate_value_boundary() {
    // `${a//a/bbbbb}` turns 4 bytes into 20: the value itself is held to the limit, even
    // before it reaches the output.
    assert_eq!(
        substitute("${a//a/bbbbb}", &lookup, &opts(20)).unwrap(),
        "b".repeat(20)
    );
    assert_eq!(
        substitute("${a//a/bbbbb}", &lookup, &opts(19)).unwrap_err(),
        Error::OutputTooLarge { limit: 19 }
    );
    // A default value nested in another expression's argument is held to it too.
    let long_default = format!("${{x:=${{y:={}}}}}", "d".repeat(30));
    assert_eq!(
        substitute(&long_default, &lookup, &opts(30)).unwrap().len(),
        30
    );
    assert_eq!(
        substitute(&long_default, &lookup, &opts(29)).unwrap_err(),
        Error::OutputTooLarge { limit: 29 }
    );
}
