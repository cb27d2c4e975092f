//! The whole function as the binary runs it (read, configure, tailor, write): never panics,
//! whatever it writes is one ResourceList that reads back, and deferring the items' trees
//! (parsing again what a stage reads) or stripping items as they are read gives the same
//! answer as keeping them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailor::respond;
use tailor_kio::{read_input, InputForm};
use tailor_kio::reading::parse_options;
use tailor_kio::reading::Reading;

fuzz_target!(|data: &[u8]| {
    tailor_fuzz::allow_caught_panics();
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let answer = |reading| {
        let mut out = Vec::new();
        let code = respond(text.to_string(), reading, &mut out).code;
        (code, String::from_utf8(out).expect("UTF-8 output"))
    };
    let (code, out) = answer(Reading::Keep);
    match read_input(&out, &parse_options()) {
        Ok(back) => assert_eq!(back.form, InputForm::ResourceList, "output:\n{out}"),
        Err(e) => panic!(
            "output does not read back: {}\n--- input\n{text}\n--- output\n{out}",
            e.message
        ),
    }
    for reading in [Reading::Defer, Reading::Strip] {
        let other = answer(reading);
        assert_eq!(
            (code, &out),
            (other.0, &other.1),
            "reading with {reading:?} changed the answer\n--- input\n{text}"
        );
    }
});
