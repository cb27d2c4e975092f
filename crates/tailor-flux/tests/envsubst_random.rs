//! Randomized robustness: no input may panic, hang, or blow past the output limit.
//!
//! A fixed-seed xorshift generator (tailor-testkit) keeps runs reproducible without a property-testing crate;
//! set `ENVSUBST_FUZZ_ITERS` for a longer run.

use tailor_flux::envsubst::{substitute, substitute_bytes, Error, Options};
use tailor_testkit::Rng;

const PIECES: &[&str] = &[
    "$", "{", "}", ":", "=", "-", "+", "?", "#", "%", "/", "\\", ",", "^", "*", "[", "]", "!",
    "${", "$$", "${a", "${b", "${n", "${#", "}", "a", "b", "n", "_", "1", "-2", "0", " ", "\n",
    "é", "日", "😀", "ǆ", "İ", "ß", "\u{0}", "٣", "Ⅻ", "${a:=", "${a//", "${a:", "${a#", "${a%%",
];

fn random_text(rng: &mut Rng) -> String {
    let len = rng.below(24);
    let mut text = String::new();
    for _ in 0..len {
        // Mostly syntax-heavy pieces, sometimes any scalar value at all.
        if rng.below(10) == 0 {
            let c = char::from_u32((rng.next_u64() % 0x11_0000) as u32).unwrap_or('\u{FFFD}');
            text.push(c);
        } else {
            text.push_str(PIECES[rng.below(PIECES.len())]);
        }
    }
    text
}

#[test]
fn random_inputs_never_panic() {
    let iters: usize = std::env::var("ENVSUBST_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let mut rng = Rng::xorshift64(0x9E37_79B9_7F4A_7C15);
    let values = [
        "",
        "abc",
        "-2",
        "héllo",
        "日本語",
        "${x}",
        "a/b/c",
        "1",
        "ǆemal",
        "$$",
    ];
    let mut outcomes = [0usize; 2];
    for _ in 0..iters {
        let text = random_text(&mut rng);
        let (a, b, n) = (
            values[rng.below(values.len())],
            values[rng.below(values.len())],
            values[rng.below(values.len())],
        );
        let lookup = move |name: &str| match name {
            "a" => Some(a.to_string()),
            "b" => Some(b.to_string()),
            "n" => Some(n.to_string()),
            _ => None,
        };
        let opts = Options {
            strict: rng.below(2) == 0,
            max_output_bytes: 4096,
            ..Options::default()
        };
        let result = substitute_bytes(&text, &lookup, &opts);
        if let Ok(out) = &result {
            assert!(out.len() <= 4096, "{text:?}");
        }
        // The String form must agree with the byte form.
        match (substitute(&text, &lookup, &opts), &result) {
            (Ok(s), Ok(bytes)) => assert_eq!(s.as_bytes(), bytes.as_slice()),
            (Err(Error::InvalidUtf8 { .. }), Ok(bytes)) => {
                assert!(std::str::from_utf8(bytes).is_err())
            }
            (Err(e), Err(f)) => assert_eq!(&e, f),
            (s, b) => panic!("{text:?}: {s:?} vs {b:?}"),
        }
        outcomes[usize::from(result.is_ok())] += 1;
    }
    println!(
        "{iters} random inputs: {} ok, {} errors",
        outcomes[1], outcomes[0]
    );
}

#[test]
fn large_inputs_stay_linear_and_bounded() {
    let many_escapes = "$$".repeat(200_000);
    let lookup = |_: &str| None;
    let lax = Options {
        strict: false,
        ..Options::default()
    };
    let out = substitute(&many_escapes, &lookup, &lax).unwrap();
    assert_eq!(out.len(), 200_000);

    let bomb = |name: &str| match name {
        "v" => Some("x".repeat(100_000)),
        "r" => Some("y".repeat(100_000)),
        _ => Some(String::new()),
    };
    let err = substitute("${v//${e}/${r}}", &bomb, &lax).unwrap_err();
    assert!(matches!(err, Error::OutputTooLarge { .. }));

    let deep = "${a:=".repeat(100_000);
    assert!(substitute(&deep, &lookup, &lax).is_err());
}
