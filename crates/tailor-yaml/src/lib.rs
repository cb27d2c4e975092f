//! tailor-yaml: a faithful YAML layer for Kubernetes manifests, in the spirit of kyaml.
//!
//! Parse with [`parse_stream`], edit the [`Node`] tree, write with [`emit_document`]. Nodes keep
//! their scalar style, flow/block style, tags, anchors, comments and source spans, so a file
//! that is read and written without edits keeps its meaning and presentation, and callers can
//! copy the source text of untouched documents verbatim. [`parse_stream_handing_items`] hands
//! over the items of a ResourceList one at a time as they are parsed, and [`reparse_item`]
//! builds one again later, so a reader need not hold every item's tree at once.

pub mod alias;
mod emit;
mod error;
mod json;
mod node;
mod parse;
pub mod resolve;
mod seqindent;

pub use emit::{
    emit_document, emit_mapping_entry, emit_node, emit_node_into, emit_sequence_items, EmitOptions,
};
pub use error::Error;
pub use json::{from_json, to_json, to_json_with, JsonLimits};
pub use node::{short_tag, Comments, Extra, Node, Pair, Span, Style, Text, Value};
pub use parse::{
    parse_stream, parse_stream_handing_items, parse_stream_with, reparse_item, Document, Handoff,
    ParseOptions, Resume,
};
pub use resolve::ScalarKind;
pub use seqindent::derive_wide_sequences;
