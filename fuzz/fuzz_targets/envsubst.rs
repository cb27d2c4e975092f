//! tailor-flux (envsubst): Flux's `${...}` substitution never panics on any text, strict or not, and
//! the output limit holds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailor_flux::envsubst::{substitute_bytes, Options};

fuzz_target!(|data: &[u8]| {
    let Some((flags, text)) = tailor_fuzz::flags_and_text(data) else {
        return;
    };
    let lookup = |name: &str| match name {
        "env" => Some("prod".to_string()),
        "empty" => Some(String::new()),
        "long" => Some("abcdefghij".repeat(10)),
        "u" => Some("日本語".to_string()),
        _ => None,
    };
    let opts = Options {
        strict: flags & 1 == 0,
        max_output_bytes: 1 << 16,
        ..Options::default()
    };
    if let Ok(out) = substitute_bytes(text, &lookup, &opts) {
        assert!(
            out.len() <= opts.max_output_bytes,
            "output of {} bytes",
            out.len()
        );
    }
});
