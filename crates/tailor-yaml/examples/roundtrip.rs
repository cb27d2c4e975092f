//! Reads YAML on stdin (or a file) and writes it back through the tree, as kyaml would:
//! `cargo run -p tailor-yaml --example roundtrip -- FILE`.
use std::io::Read;

fn main() {
    let mut src = String::new();
    match std::env::args().nth(1) {
        Some(path) => src = std::fs::read_to_string(path).expect("read file"),
        None => {
            std::io::stdin()
                .read_to_string(&mut src)
                .expect("read stdin");
        }
    }
    let docs = match tailor_yaml::parse_stream(&src) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut out = String::new();
    for (i, d) in docs.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        let opts = tailor_yaml::EmitOptions {
            wide_sequences: d.wide_sequences,
        };
        out.push_str(&tailor_yaml::emit_document(d, opts));
    }
    print!("{out}");
}
