//! tailor-kubestellar (strip) removal paths: KubeStellar's JSONPath subset, the JS string-literal decoder,
//! RFC 9535 paths (Extended syntax) and applying them with the built-in strip to fixed
//! objects never panic; stripping twice changes nothing more (idempotence) unless a path selects
//! by position (an index or slice, e.g. `$..[::2]`): removing "every other element" again
//! rightly removes more, in KubeStellar as here.
//!
//! Input: first byte picks the syntax and target resource; each following line is one
//! `remove` path.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::json;
use tailor_fuzz::fixture_nodes;
use tailor_kubestellar::strip::{
    decode_js_string_literal, parse_custom_transform_with, parse_kubestellar_query, strip_object,
    PathSyntax, ResourceMapper, StripOptions,
};

fuzz_target!(|data: &[u8]| {
    tailor_fuzz::allow_caught_panics();
    let Some((flags, text)) = tailor_fuzz::flags_and_text(data) else {
        return;
    };
    let paths: Vec<&str> = text.split('\n').take(16).collect();
    for p in &paths {
        let _ = parse_kubestellar_query(p);
        let _ = decode_js_string_literal(p);
    }
    let syntax = if flags & 1 == 0 {
        PathSyntax::Extended
    } else {
        PathSyntax::KubeStellar
    };
    let targets = [
        ("apps", "deployments"),
        ("", "services"),
        ("", "configmaps"),
        ("example.com", "widgets"),
    ];
    let (group, resource) = targets[usize::from(flags >> 1) & 3];
    let spec = json!({"apiGroup": group, "resource": resource, "remove": paths});
    let node = tailor_yaml::from_json(&spec);
    let Ok(transform) = parse_custom_transform_with(&node, "fuzz", syntax) else {
        return;
    };
    let mut mapper = ResourceMapper::builtin();
    mapper.add("example.com", "Widget", "widgets");
    let opts = StripOptions {
        builtin: flags & 8 != 0,
    };
    let transforms = [transform];
    let idempotent = !paths.iter().any(|p| selects_by_position(p));
    for mut obj in fixture_nodes() {
        let _ = strip_object(&mut obj, opts, &transforms, &mapper);
        let once = obj.clone();
        let _ = strip_object(&mut obj, opts, &transforms, &mapper);
        assert!(
            !idempotent || obj == once,
            "strip is not idempotent for paths {paths:?}:\n{}\n---\n{}",
            tailor_yaml::emit_node(&once, Default::default()),
            tailor_yaml::emit_node(&obj, Default::default())
        );
    }
});

/// Whether a bracket outside quotes holds an index or a slice (a digit, `-` or `:`), or the
/// path uses a filter: such paths select by position or by value, and applying them again
/// may select what the first removal shifted into place.
fn selects_by_position(path: &str) -> bool {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in path.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '?' if depth > 0 => return true,
            c if depth > 0 && (c.is_ascii_digit() || c == '-' || c == ':') => return true,
            _ => {}
        }
    }
    false
}
