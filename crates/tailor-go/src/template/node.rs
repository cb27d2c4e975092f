//! The parse tree (`text/template/parse/node.go`). The `write_*` functions
//! reproduce Go's `Node.String()`, which execution errors quote as context.

use crate::strconv::quote;

#[derive(Clone, Debug)]
pub(crate) struct List {
    pub nodes: Vec<Node>,
}

#[derive(Clone, Debug)]
pub(crate) struct Branch {
    pub pos: usize,
    pub pipe: Pipe,
    pub list: List,
    pub else_list: Option<List>,
}

#[derive(Clone, Debug)]
pub(crate) enum Node {
    Text(String),
    Action(Pipe),
    If(Branch),
    Range(Branch),
    With(Branch),
    Template {
        pos: usize,
        name: String,
        pipe: Option<Pipe>,
    },
    Break,
    Continue,
}

#[derive(Clone, Debug)]
pub(crate) struct Pipe {
    pub pos: usize,
    pub is_assign: bool,
    pub decl: Vec<Var>,
    pub cmds: Vec<Command>,
}

#[derive(Clone, Debug)]
pub(crate) struct Var {
    pub pos: usize,
    pub ident: Vec<String>,
}

#[derive(Clone, Debug)]
pub(crate) struct Command {
    pub pos: usize,
    pub args: Vec<Arg>,
}

#[derive(Clone, Debug)]
pub(crate) struct Number {
    pub pos: usize,
    pub is_int: bool,
    pub is_uint: bool,
    pub is_float: bool,
    pub is_complex: bool,
    pub int64: i64,
    pub float64: f64,
    pub complex: (f64, f64),
    pub text: String,
}

#[derive(Clone, Debug)]
pub(crate) enum Arg {
    Field {
        pos: usize,
        ident: Vec<String>,
    },
    Variable(Var),
    Dot {
        pos: usize,
    },
    Nil {
        pos: usize,
    },
    Bool {
        pos: usize,
        val: bool,
    },
    Number(Box<Number>),
    String {
        pos: usize,
        quoted: String,
        text: Vec<u8>,
    },
    Identifier {
        pos: usize,
        name: String,
    },
    Chain {
        pos: usize,
        node: Box<Arg>,
        fields: Vec<String>,
    },
    Pipe(Box<Pipe>),
}

impl Arg {
    pub(crate) fn pos(&self) -> usize {
        match self {
            Arg::Field { pos, .. }
            | Arg::Dot { pos }
            | Arg::Nil { pos }
            | Arg::Bool { pos, .. }
            | Arg::String { pos, .. }
            | Arg::Identifier { pos, .. }
            | Arg::Chain { pos, .. } => *pos,
            Arg::Variable(v) => v.pos,
            Arg::Number(n) => n.pos,
            Arg::Pipe(p) => p.pos,
        }
    }

    pub(crate) fn to_go_string(&self) -> String {
        let mut s = String::new();
        write_arg(&mut s, self);
        s
    }
}

pub(crate) fn write_arg(sb: &mut String, a: &Arg) {
    match a {
        Arg::Field { ident, .. } => {
            for id in ident {
                sb.push('.');
                sb.push_str(id);
            }
        }
        Arg::Variable(v) => sb.push_str(&v.ident.join(".")),
        Arg::Dot { .. } => sb.push('.'),
        Arg::Nil { .. } => sb.push_str("nil"),
        Arg::Bool { val, .. } => sb.push_str(if *val { "true" } else { "false" }),
        Arg::Number(n) => sb.push_str(&n.text),
        Arg::String { quoted, .. } => sb.push_str(quoted),
        Arg::Identifier { name, .. } => sb.push_str(name),
        Arg::Chain { node, fields, .. } => {
            if let Arg::Pipe(p) = node.as_ref() {
                sb.push('(');
                write_pipe(sb, p);
                sb.push(')');
            } else {
                write_arg(sb, node);
            }
            for f in fields {
                sb.push('.');
                sb.push_str(f);
            }
        }
        Arg::Pipe(p) => write_pipe(sb, p),
    }
}

pub(crate) fn write_command(sb: &mut String, c: &Command) {
    for (i, arg) in c.args.iter().enumerate() {
        if i > 0 {
            sb.push(' ');
        }
        if let Arg::Pipe(p) = arg {
            sb.push('(');
            write_pipe(sb, p);
            sb.push(')');
            continue;
        }
        write_arg(sb, arg);
    }
}

pub(crate) fn write_pipe(sb: &mut String, p: &Pipe) {
    if !p.decl.is_empty() {
        for (i, v) in p.decl.iter().enumerate() {
            if i > 0 {
                sb.push_str(", ");
            }
            sb.push_str(&v.ident.join("."));
        }
        sb.push_str(" := ");
    }
    for (i, c) in p.cmds.iter().enumerate() {
        if i > 0 {
            sb.push_str(" | ");
        }
        write_command(sb, c);
    }
}

pub(crate) fn write_list(sb: &mut String, l: &List) {
    for n in &l.nodes {
        write_node(sb, n);
    }
}

fn write_branch(sb: &mut String, name: &str, b: &Branch) {
    sb.push_str("{{");
    sb.push_str(name);
    sb.push(' ');
    write_pipe(sb, &b.pipe);
    sb.push_str("}}");
    write_list(sb, &b.list);
    if let Some(e) = &b.else_list {
        sb.push_str("{{else}}");
        write_list(sb, e);
    }
    sb.push_str("{{end}}");
}

pub(crate) fn write_node(sb: &mut String, n: &Node) {
    match n {
        Node::Text(t) => sb.push_str(t),
        Node::Action(p) => {
            sb.push_str("{{");
            write_pipe(sb, p);
            sb.push_str("}}");
        }
        Node::If(b) => write_branch(sb, "if", b),
        Node::Range(b) => write_branch(sb, "range", b),
        Node::With(b) => write_branch(sb, "with", b),
        Node::Template { name, pipe, .. } => {
            sb.push_str("{{template ");
            sb.push_str(&quote(name));
            if let Some(p) = pipe {
                sb.push(' ');
                write_pipe(sb, p);
            }
            sb.push_str("}}");
        }
        Node::Break => sb.push_str("{{break}}"),
        Node::Continue => sb.push_str("{{continue}}"),
    }
}

/// `parse.IsEmptyTree`: only whitespace text (and nothing else) is empty.
pub(crate) fn is_empty_tree(l: &List) -> bool {
    l.nodes.iter().all(|n| match n {
        Node::Text(t) => t.trim_matches(|c: char| c.is_whitespace()).is_empty(),
        _ => false,
    })
}
