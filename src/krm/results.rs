//! Structured results, as the KRM functions spec defines them.

use tailor_yaml::{Node, Pair};

use super::resource::Resource;

pub use tailor_kube::Severity;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceRef {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub namespace: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KrmResult {
    pub message: String,
    pub severity: Severity,
    pub resource_ref: Option<Box<ResourceRef>>,
    pub field_path: Option<String>,
    pub file: Option<(String, usize)>,
}

impl From<tailor_kube::Diagnostic> for KrmResult {
    fn from(d: tailor_kube::Diagnostic) -> KrmResult {
        KrmResult::from_diagnostic(d)
    }
}

impl KrmResult {
    pub fn new(severity: Severity, message: impl Into<String>) -> KrmResult {
        KrmResult {
            message: message.into(),
            severity,
            resource_ref: None,
            field_path: None,
            file: None,
        }
    }

    pub fn error(message: impl Into<String>) -> KrmResult {
        KrmResult::new(Severity::Error, message)
    }

    pub fn warning(message: impl Into<String>) -> KrmResult {
        KrmResult::new(Severity::Warning, message)
    }

    pub fn info(message: impl Into<String>) -> KrmResult {
        KrmResult::new(Severity::Info, message)
    }

    /// Points the result at a resource: its reference and the file it lives in.
    pub fn about(mut self, res: &Resource) -> KrmResult {
        self.resource_ref = Some(Box::new(res.resource_ref()));
        if let Some(path) = res.path() {
            self.file = Some((path.to_string(), res.index().unwrap_or(0)));
        }
        self
    }

    pub fn at_field(mut self, path: impl Into<String>) -> KrmResult {
        let p = path.into();
        if !p.is_empty() {
            self.field_path = Some(p);
        }
        self
    }

    /// A diagnostic of a crate as a result: its message, severity and field.
    pub fn from_diagnostic(d: tailor_kube::Diagnostic) -> KrmResult {
        KrmResult::new(d.severity, d.message).at_field(d.field)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// One line for stderr, in kpt's `[error] apps/v1/Deployment/web spec.x: message` form.
    pub fn summary_line(&self) -> String {
        let mut s = format!("[{}]", self.severity.as_str());
        if let Some(r) = &self.resource_ref {
            s.push(' ');
            s.push_str(&r.api_version);
            s.push('/');
            s.push_str(&r.kind);
            if let Some(ns) = &r.namespace {
                s.push('/');
                s.push_str(ns);
            }
            s.push('/');
            s.push_str(&r.name);
        }
        if let Some(f) = &self.field_path {
            s.push(' ');
            s.push_str(f);
        }
        if self.resource_ref.is_some() || self.field_path.is_some() {
            s.push(':');
        }
        s.push(' ');
        s.push_str(&self.message);
        s
    }

    pub fn to_node(&self) -> Node {
        let mut n = Node::mapping();
        n.set("message", Node::string(&self.message));
        n.set("severity", Node::string(self.severity.as_str()));
        if let Some(r) = &self.resource_ref {
            let mut rr = Node::mapping();
            rr.set("apiVersion", Node::string(&r.api_version));
            rr.set("kind", Node::string(&r.kind));
            rr.set("name", Node::string(&r.name));
            if let Some(ns) = &r.namespace {
                rr.set("namespace", Node::string(ns));
            }
            n.set("resourceRef", rr);
        }
        if let Some(f) = &self.field_path {
            n.set(
                "field",
                Node::from_pairs(vec![Pair {
                    key: Node::string("path"),
                    value: Node::string(f),
                }]),
            );
        }
        if let Some((path, index)) = &self.file {
            let mut file = Node::mapping();
            file.set("path", Node::string(path));
            if *index != 0 {
                file.set("index", Node::plain(index.to_string()));
            }
            n.set("file", file);
        }
        n
    }
}
