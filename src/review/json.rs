//! The review for bots: one JSON document, its schema in docs/review.schema.json
//! (`apiVersion: tailor.dev/review/v1`).

use serde_json::{json, Value};

use super::model::{Group, ObjectChange, Review};

pub const API_VERSION: &str = "tailor.dev/review/v1";

pub fn write(review: &Review) -> String {
    let t = review.totals();
    let doc = json!({
        "apiVersion": API_VERSION,
        "summary": {
            "text": review.summary(),
            "destinations": review.destinations,
            "changed": t.clusters,
            "unchanged": review.unchanged.len(),
            "objects": {"changed": t.changed, "added": t.added, "removed": t.removed},
            "startReceiving": t.start_receiving,
            "stopReceiving": t.stop_receiving,
        },
        "groups": review.groups.iter().map(group).collect::<Vec<_>>(),
        "unchanged": review.unchanged,
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

fn group(g: &Group) -> Value {
    let receiving = match g.change.receiving() {
        Some(true) => Value::from("starts"),
        Some(false) => Value::from("stops"),
        None => Value::Null,
    };
    json!({
        "clusters": g.clusters,
        "before": g.change.before.word(),
        "after": g.change.after.word(),
        "receiving": receiving,
        "objects": g.change.objects.iter().map(object).collect::<Vec<_>>(),
    })
}

fn object(o: &ObjectChange) -> Value {
    json!({
        "apiVersion": o.id.api_version,
        "kind": o.id.kind,
        "namespace": o.id.namespace,
        "name": o.id.name,
        "occurrence": o.id.occurrence,
        "change": o.kind.word(),
        "diff": o.diff,
    })
}
