//! Structured results, as the KRM functions spec defines them.

use tailor_yaml::{Node, Pair};

use super::resource::Resource;

pub use tailor_kube::Severity;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResourceRef {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub namespace: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KrmResult {
    pub message: String,
    pub severity: Severity,
    pub resource_ref: Option<Box<ResourceRef>>,
    pub field_path: Option<String>,
    pub file: Option<(String, usize)>,
    /// The line of the field in the configuration file, when the result is about the
    /// configuration and it was read from a file.
    pub line: Option<usize>,
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
            line: None,
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

    /// One line for stderr, in kpt's `[error] apps/v1/Deployment/web spec.x: message` form;
    /// a result about the configuration file starts with its place, `[error] tailor.yaml:7
    /// spec.x: message`.
    pub fn summary_line(&self) -> String {
        let mut s = format!("[{}]", self.severity.as_str());
        if let (Some((path, _)), Some(line)) = (&self.file, self.line) {
            s.push_str(&format!(" {path}:{line}"));
        }
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
        // A message that already starts with its field does not get it twice.
        let field = self
            .field_path
            .as_deref()
            .filter(|f| !self.message.starts_with(&format!("{f}: ")));
        if let Some(f) = field {
            s.push(' ');
            s.push_str(f);
        }
        if self.resource_ref.is_some() || field.is_some() || self.line.is_some() {
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

/// Gives each result about the configuration (a field path, no resource) the file `path` and
/// the line of the field in `text`, the source `config` was parsed from (`spec.replacments` is
/// on the line of `replacments:`). A field the file does not have (one a Fleet bundle's
/// fleet.yaml brought) gets no line.
pub fn locate(results: &mut [KrmResult], config: &Node, text: &str, path: &str) {
    for r in results.iter_mut() {
        let Some(field) = config_field(r) else {
            continue;
        };
        let Some(offset) = offset_of(config, field) else {
            continue;
        };
        let Some(before) = text.get(..offset) else {
            continue;
        };
        r.line = Some(before.bytes().filter(|&b| b == b'\n').count() + 1);
        r.file = Some((path.to_string(), 0));
    }
}

/// The field of the configuration a result [`locate`] would give a line to (its field path,
/// without a leading `functionConfig.`): one about no resource, with no line yet.
pub fn config_field(r: &KrmResult) -> Option<&str> {
    if r.resource_ref.is_some() || r.line.is_some() {
        return None;
    }
    let field = r.field_path.as_deref()?;
    Some(field.strip_prefix("functionConfig.").unwrap_or(field))
}

/// Where in the source the node at `field` (`spec.replacements[1].targets[0]`) starts, when
/// the tree has it. Keys may hold dots (`metadata.annotations.a.b/c`): the longest key that
/// exists wins.
fn offset_of(node: &Node, field: &str) -> Option<usize> {
    let parts: Vec<&str> = field.split('.').collect();
    let mut at = node;
    let mut found: Option<usize> = None;
    let mut i = 0;
    while i < parts.len() {
        let pairs = at.pairs()?;
        let mut stepped = false;
        for j in (i + 1..=parts.len()).rev() {
            let joined = parts[i..j].join(".");
            let (key, indices) = split_indices(&joined);
            let Some(pair) = pairs.iter().find(|p| p.key.as_scalar() == Some(key)) else {
                continue;
            };
            let mut here = &pair.value;
            let mut start = pair.key.span;
            for index in indices {
                let item = here.items().and_then(|items| items.get(index))?;
                here = item;
                start = item.span;
            }
            if start.end > start.start {
                found = Some(start.start as usize);
            }
            at = here;
            i = j;
            stepped = true;
            break;
        }
        if !stepped {
            return None;
        }
    }
    found
}

/// `targets[0][2]` → (`targets`, [0, 2]); a part with anything else after its key's first
/// `[` is taken as a whole key.
fn split_indices(part: &str) -> (&str, Vec<usize>) {
    let Some(open) = part.find('[') else {
        return (part, Vec::new());
    };
    let mut indices = Vec::new();
    let mut rest = &part[open..];
    while let Some(inner) = rest.strip_prefix('[') {
        let Some((n, after)) = inner.split_once(']') else {
            return (part, Vec::new());
        };
        match n.parse() {
            Ok(i) => indices.push(i),
            Err(_) => return (part, Vec::new()),
        }
        rest = after;
    }
    if rest.is_empty() {
        (&part[..open], indices)
    } else {
        (part, Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_found_on_its_line() {
        let text = "spec:\n  replacements:\n  - source: {}\n    targets:\n    - select: {kind: A}\n  metadata.annotations:\n    a.b/c: x\n";
        let node = tailor_yaml::parse_stream(text).unwrap().remove(0).root;
        let line = |field: &str| {
            let mut r = [KrmResult::warning("w").at_field(field)];
            locate(&mut r, &node, text, "t.yaml");
            r[0].line
        };
        assert_eq!(line("spec.replacements[0].targets[0].select"), Some(5));
        assert_eq!(line("spec.replacements[0]"), Some(3));
        assert_eq!(line("spec.replacements[0].nope"), None);
        assert_eq!(line("spec.replacements[1]"), None);
        assert_eq!(line("spec.metadata.annotations.a.b/c"), Some(7));
        assert_eq!(line("status"), None);
    }
}
