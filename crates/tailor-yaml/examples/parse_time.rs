//! Parse throughput of one file, best of N runs, so a parser change can be measured without
//! the full criterion suite: `cargo run --release -p tailor-yaml --example parse_time -- FILE [N]`.
//! With `--handoff` the items of a ResourceList are handed over and dropped one at a time, as
//! tailor's pass that changes nothing reads them.
use std::time::Instant;

use tailor_yaml::{parse_stream, parse_stream_handing_items, Document, Error, ParseOptions};

fn parse(src: &str, handoff: bool) -> Result<Vec<Document>, Error> {
    if handoff {
        parse_stream_handing_items(src, &ParseOptions::default(), &mut |_| None)
    } else {
        parse_stream(src)
    }
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let handoff = args.next_if(|a| a == "--handoff").is_some();
    let Some(path) = args.next() else {
        eprintln!("usage: parse_time [--handoff] FILE [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut best = f64::MAX;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let docs = match parse(&src, handoff) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        best = best.min(t.elapsed().as_secs_f64());
        drop(docs);
    }
    let mb = src.len() as f64 / 1e6;
    println!(
        "{mb:.1} MB, best of {runs}: {:.1} ms, {:.0} MB/s",
        best * 1e3,
        mb / best
    );
}
