//! tailor-yaml: a faithful YAML layer for Kubernetes manifests, in the spirit of kyaml.
//!
//! Parse with [`parse_stream`], edit the [`Node`] tree, write with [`emit_document`]. Nodes keep
//! their scalar style, flow/block style, tags, anchors, comments and source spans, so a file
//! that is read and written without edits keeps its meaning and presentation, and callers can
//! copy the source text of untouched documents verbatim. [`parse_stream_handing_items`] hands
//! over the items of a ResourceList one at a time as they are parsed ([`parse_stream_handing`]
//! a `Tailor`'s `spec.clusters`), and [`reparse_item`]
//! builds one again later, so a reader need not hold every item's tree at once.
//!
//! ```
//! use tailor_yaml::{emit_document, parse_stream, EmitOptions, Node};
//!
//! let src = "\
//! apiVersion: v1
//! kind: ConfigMap
//! metadata:
//!   name: app # set by the generator
//! data:
//!   mode: 'fast'
//!   ports:
//!   - 80
//! ";
//! let mut docs = parse_stream(src)?;
//! let doc = &mut docs[0];
//! doc.root.get_path_mut(&["data", "mode"]).unwrap().set_string("safe");
//! doc.root.get_mut("data").unwrap().set("replicas", Node::string("3"));
//! let opts = EmitOptions { wide_sequences: doc.wide_sequences };
//! // Comments, quoting and sequence indentation stay as they were; the new string is quoted
//! // because plain `3` would read back as a number.
//! assert_eq!(
//!     emit_document(doc, opts),
//!     "\
//! apiVersion: v1
//! kind: ConfigMap
//! metadata:
//!   name: app # set by the generator
//! data:
//!   mode: 'safe'
//!   ports:
//!   - 80
//!   replicas: \"3\"
//! "
//! );
//! # Ok::<(), tailor_yaml::Error>(())
//! ```

pub mod alias;
mod emit;
mod error;
mod json;
mod node;
mod parse;
mod reparse;
pub mod resolve;
pub mod scalar_style;
mod seqindent;
pub mod sigs;

pub use emit::{
    emit_document, emit_mapping_entry, emit_node, emit_node_into, emit_sequence_items, EmitOptions,
};
pub use error::{Error, Stage};
pub use json::{from_json, to_json, to_json_with, JsonLimits};
pub use node::{short_tag, Comments, Extra, Node, Pair, Span, Style, Text, Value};
pub use parse::{
    parse_stream, parse_stream_handing, parse_stream_handing_items, parse_stream_with,
    reparse_item, Document, Handed, Handoff, ParseOptions, Resume,
};
pub use reparse::reparse_document;
pub use resolve::ScalarKind;
pub use seqindent::derive_wide_sequences;
