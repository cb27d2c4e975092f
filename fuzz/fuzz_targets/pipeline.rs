//! The whole function as the binary runs it (read, configure, tailor, write): never panics,
//! and whatever it writes is one ResourceList that reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailor::krm::write::write_resource_list;
use tailor::krm::{read_input, InputForm};
use tailor::run::{original_items, parse_options, process};

fuzz_target!(|data: &[u8]| {
    tailor_fuzz::allow_caught_panics();
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(input) = read_input(text, &parse_options()) else {
        return;
    };
    let fc = input.function_config.clone();
    let outcome = process(input.items, fc.as_ref());
    let items = if outcome.failed {
        original_items(text)
    } else {
        outcome.items
    };
    let out = write_resource_list(&items, fc.as_ref(), &outcome.results);
    match read_input(&out, &parse_options()) {
        Ok(back) => assert_eq!(back.form, InputForm::ResourceList, "output:\n{out}"),
        Err(e) => panic!(
            "output does not read back: {}\n--- input\n{text}\n--- output\n{out}",
            e.message
        ),
    }
});
