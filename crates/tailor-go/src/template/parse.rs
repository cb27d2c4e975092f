//! A port of `text/template/parse/parse.go`, including its three-token
//! lookahead, so that error messages and their line numbers match Go.

use std::collections::BTreeMap;

use super::fmt::q;
use super::lexer::{Item, ItemType, Lexer};
use super::node::{is_empty_tree, Arg, Branch, Command, List, Node, Number, Pipe, Var};
use crate::strconv::{parse_float, parse_int0, parse_uint0, unquote, unquote_char};

const BUILTINS: &[&str] = &[
    "and", "call", "html", "index", "slice", "js", "len", "not", "or", "print", "printf",
    "println", "urlquery", "eq", "ge", "gt", "le", "lt", "ne",
];

pub(crate) type Trees = BTreeMap<String, List>;

type PResult<T> = Result<T, String>;

/// What `textOrAction` yields: a node, or the `{{end}}`/`{{else}}` markers
/// that close a list.
enum Parsed {
    Node(Node),
    End,
    Else,
}

/// Per-tree parsing state (Go's `Tree` minus the shared lexer).
struct TreeState {
    token: [Item; 3],
    peek_count: usize,
    vars: Vec<String>,
    action_line: usize,
    range_depth: usize,
}

impl TreeState {
    fn new() -> Self {
        let blank = Item {
            typ: ItemType::Eof,
            pos: 0,
            val: String::new(),
            line: 0,
        };
        TreeState {
            token: [blank.clone(), blank.clone(), blank],
            peek_count: 0,
            vars: vec!["$".to_string()],
            action_line: 0,
            range_depth: 0,
        }
    }
}

pub(crate) struct Parser<'t> {
    lex: Lexer<'t>,
    syntax: &'t super::Syntax,
    t: TreeState,
    parse_name: String,
    trees: Trees,
    depth: usize,
    max_depth: usize,
}

/// Parse `text` as template `name`, returning every tree it defines.
pub(crate) fn parse<'t>(
    name: &str,
    text: &'t str,
    max_depth: usize,
    syntax: &'t super::Syntax,
) -> Result<Trees, String> {
    let mut p = Parser {
        lex: Lexer::with_delims(text, &syntax.left_delim, &syntax.right_delim),
        syntax,
        t: TreeState::new(),
        parse_name: name.to_string(),
        trees: Trees::new(),
        depth: 0,
        max_depth,
    };
    let root = p.parse_top()?;
    p.add(name, root)?;
    Ok(p.trees)
}

impl<'t> Parser<'t> {
    fn next(&mut self) -> Item {
        if self.t.peek_count > 0 {
            self.t.peek_count -= 1;
        } else {
            self.t.token[0] = self.lex.next_item();
        }
        self.t.token[self.t.peek_count].clone()
    }

    fn backup(&mut self) {
        self.t.peek_count += 1;
    }

    fn backup2(&mut self, t1: Item) {
        self.t.token[1] = t1;
        self.t.peek_count = 2;
    }

    fn backup3(&mut self, t2: Item, t1: Item) {
        self.t.token[1] = t1;
        self.t.token[2] = t2;
        self.t.peek_count = 3;
    }

    fn peek(&mut self) -> Item {
        if self.t.peek_count > 0 {
            return self.t.token[self.t.peek_count - 1].clone();
        }
        self.t.peek_count = 1;
        self.t.token[0] = self.lex.next_item();
        self.t.token[0].clone()
    }

    fn next_non_space(&mut self) -> Item {
        loop {
            let t = self.next();
            if t.typ != ItemType::Space {
                return t;
            }
        }
    }

    fn peek_non_space(&mut self) -> Item {
        let t = self.next_non_space();
        self.backup();
        t
    }

    fn errorf<T>(&self, msg: impl AsRef<str>) -> PResult<T> {
        Err(format!(
            "template: {}:{}: {}",
            self.parse_name,
            self.t.token[0].line,
            msg.as_ref()
        ))
    }

    fn expect(&mut self, expected: ItemType, context: &str) -> PResult<Item> {
        let token = self.next_non_space();
        if token.typ != expected {
            return self.unexpected(&token, context);
        }
        Ok(token)
    }

    fn unexpected<T>(&self, token: &Item, context: &str) -> PResult<T> {
        if token.typ == ItemType::Error {
            let mut extra = String::new();
            if self.t.action_line != 0 && self.t.action_line != token.line {
                extra = format!(
                    " in action started at {}:{}",
                    self.parse_name, self.t.action_line
                );
                if token.val.ends_with(" action") {
                    extra = extra[" in action".len()..].to_string();
                }
            }
            return self.errorf(format!("{}{}", token.describe(), extra));
        }
        self.errorf(format!("unexpected {} in {}", token.describe(), context))
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return self.errorf("max expression depth exceeded");
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Go's `Tree.add` for a finished tree named `name`.
    fn add(&mut self, name: &str, root: List) -> PResult<()> {
        match self.trees.get(name) {
            Some(existing) if !is_empty_tree(existing) => {
                if !is_empty_tree(&root) {
                    return self.errorf(format!(
                        "template: multiple definition of template {}",
                        q(name.as_bytes())
                    ));
                }
                Ok(())
            }
            _ => {
                self.trees.insert(name.to_string(), root);
                Ok(())
            }
        }
    }

    fn parse_top(&mut self) -> PResult<List> {
        let mut root = List { nodes: Vec::new() };
        while self.peek().typ != ItemType::Eof {
            if self.peek().typ == ItemType::LeftDelim {
                let delim = self.next();
                if self.next_non_space().typ == ItemType::Define {
                    let saved = std::mem::replace(&mut self.t, TreeState::new());
                    let r = self.parse_definition();
                    self.t = saved;
                    r?;
                    continue;
                }
                self.backup2(delim);
            }
            match self.text_or_action()? {
                Parsed::Node(n) => root.nodes.push(n),
                Parsed::End => return self.errorf("unexpected {{end}}"),
                Parsed::Else => return self.errorf("unexpected {{else}}"),
            }
        }
        Ok(root)
    }

    fn parse_definition(&mut self) -> PResult<()> {
        let context = "define clause";
        let token = self.next_non_space();
        if token.typ != ItemType::String && token.typ != ItemType::RawString {
            return self.unexpected(&token, context);
        }
        let name = match unquote(&token.val) {
            Ok(n) => String::from_utf8_lossy(&n).into_owned(),
            Err(e) => return self.errorf(e),
        };
        self.expect(ItemType::RightDelim, context)?;
        self.enter()?;
        let (root, end) = self.item_list()?;
        self.leave();
        if !matches!(end, Parsed::End) {
            return self.errorf(format!("unexpected {} in {}", marker(&end), context));
        }
        self.add(&name, root)
    }

    fn item_list(&mut self) -> PResult<(List, Parsed)> {
        let mut list = List { nodes: Vec::new() };
        while self.peek_non_space().typ != ItemType::Eof {
            match self.text_or_action()? {
                Parsed::Node(n) => list.nodes.push(n),
                other => return Ok((list, other)),
            }
        }
        self.errorf("unexpected EOF")
    }

    fn text_or_action(&mut self) -> PResult<Parsed> {
        let token = self.next_non_space();
        match token.typ {
            ItemType::Text => Ok(Parsed::Node(Node::Text(token.val))),
            ItemType::LeftDelim => {
                self.t.action_line = token.line;
                let r = self.action();
                self.t.action_line = 0;
                r
            }
            _ => self.unexpected(&token, "input"),
        }
    }

    fn action(&mut self) -> PResult<Parsed> {
        let token = self.next_non_space();
        match token.typ {
            ItemType::Block => return self.block_control().map(Parsed::Node),
            ItemType::Break | ItemType::Continue => {
                let is_break = token.typ == ItemType::Break;
                let word = if is_break {
                    "{{break}}"
                } else {
                    "{{continue}}"
                };
                let t2 = self.next_non_space();
                if t2.typ != ItemType::RightDelim {
                    return self.unexpected(&t2, word);
                }
                if self.t.range_depth == 0 {
                    return self.errorf(format!("{word} outside {{{{range}}}}"));
                }
                return Ok(Parsed::Node(if is_break {
                    Node::Break
                } else {
                    Node::Continue
                }));
            }
            ItemType::Else => {
                let peek = self.peek_non_space();
                if peek.typ != ItemType::If {
                    self.expect(ItemType::RightDelim, "else")?;
                }
                return Ok(Parsed::Else);
            }
            ItemType::End => {
                self.expect(ItemType::RightDelim, "end")?;
                return Ok(Parsed::End);
            }
            ItemType::If => return self.if_control().map(Parsed::Node),
            ItemType::Range => {
                let b = self.parse_control(false, "range")?;
                return Ok(Parsed::Node(Node::Range(b)));
            }
            ItemType::Template => return self.template_control().map(Parsed::Node),
            ItemType::With => {
                let b = self.parse_control(false, "with")?;
                return Ok(Parsed::Node(Node::With(b)));
            }
            _ => {}
        }
        self.backup();
        let pipe = self.pipeline("command", ItemType::RightDelim)?;
        Ok(Parsed::Node(Node::Action(pipe)))
    }

    fn if_control(&mut self) -> PResult<Node> {
        Ok(Node::If(self.parse_control(true, "if")?))
    }

    fn parse_control(&mut self, allow_else_if: bool, context: &str) -> PResult<Branch> {
        self.enter()?;
        let nvars = self.t.vars.len();
        let r = self.parse_control_inner(allow_else_if, context);
        self.t.vars.truncate(nvars);
        self.leave();
        r
    }

    fn parse_control_inner(&mut self, allow_else_if: bool, context: &str) -> PResult<Branch> {
        let pipe = self.pipeline(context, ItemType::RightDelim)?;
        if context == "range" {
            self.t.range_depth += 1;
        }
        let r = self.item_list();
        if context == "range" {
            self.t.range_depth -= 1;
        }
        let (list, next) = r?;
        let mut else_list = None;
        if let Parsed::Else = next {
            if allow_else_if && self.peek().typ == ItemType::If {
                self.next();
                let inner = self.if_control()?;
                else_list = Some(List { nodes: vec![inner] });
            } else {
                let (l, next) = self.item_list()?;
                if !matches!(next, Parsed::End) {
                    return self.errorf(format!("expected end; found {}", marker(&next)));
                }
                else_list = Some(l);
            }
        }
        Ok(Branch {
            pos: pipe.pos,
            pipe,
            list,
            else_list,
        })
    }

    fn block_control(&mut self) -> PResult<Node> {
        let context = "block clause";
        let token = self.next_non_space();
        let name = self.parse_template_name(&token, context)?;
        let pipe = self.pipeline(context, ItemType::RightDelim)?;
        let saved = std::mem::replace(&mut self.t, TreeState::new());
        self.enter()?;
        let r = self.item_list();
        self.leave();
        let (root, end) = match r {
            Ok(v) => v,
            Err(e) => {
                self.t = saved;
                return Err(e);
            }
        };
        let block_state = std::mem::replace(&mut self.t, saved);
        if !matches!(end, Parsed::End) {
            return self.errorf(format!("unexpected {} in {}", marker(&end), context));
        }
        let outer = std::mem::replace(&mut self.t, block_state);
        let r = self.add(&name, root);
        self.t = outer;
        r?;
        Ok(Node::Template {
            pos: token.pos,
            name,
            pipe: Some(pipe),
        })
    }

    fn template_control(&mut self) -> PResult<Node> {
        let context = "template clause";
        let token = self.next_non_space();
        let name = self.parse_template_name(&token, context)?;
        let mut pipe = None;
        if self.next_non_space().typ != ItemType::RightDelim {
            self.backup();
            pipe = Some(self.pipeline(context, ItemType::RightDelim)?);
        }
        Ok(Node::Template {
            pos: token.pos,
            name,
            pipe,
        })
    }

    fn parse_template_name(&mut self, token: &Item, context: &str) -> PResult<String> {
        match token.typ {
            ItemType::String | ItemType::RawString => match unquote(&token.val) {
                Ok(s) => Ok(String::from_utf8_lossy(&s).into_owned()),
                Err(e) => self.errorf(e),
            },
            _ => self.unexpected(token, context),
        }
    }

    fn pipeline(&mut self, context: &str, end: ItemType) -> PResult<Pipe> {
        let token = self.peek_non_space();
        let mut pipe = Pipe {
            pos: token.pos,
            is_assign: false,
            decl: Vec::new(),
            cmds: Vec::new(),
        };
        loop {
            let v = self.peek_non_space();
            if v.typ != ItemType::Variable {
                break;
            }
            self.next();
            let token_after = self.peek();
            let next = self.peek_non_space();
            if next.typ == ItemType::Assign || next.typ == ItemType::Declare {
                pipe.is_assign = next.typ == ItemType::Assign;
                self.next_non_space();
                pipe.decl.push(new_var(v.pos, &v.val));
                self.t.vars.push(v.val.clone());
                break;
            } else if next.typ == ItemType::Char && next.val == "," {
                self.next_non_space();
                pipe.decl.push(new_var(v.pos, &v.val));
                self.t.vars.push(v.val.clone());
                if context == "range" && pipe.decl.len() < 2 {
                    match self.peek_non_space().typ {
                        ItemType::Variable | ItemType::RightDelim | ItemType::RightParen => {
                            continue
                        }
                        _ => return self.errorf("range can only initialize variables"),
                    }
                }
                return self.errorf(format!("too many declarations in {context}"));
            } else if token_after.typ == ItemType::Space {
                self.backup3(v, token_after);
                break;
            } else {
                self.backup2(v);
                break;
            }
        }
        loop {
            let token = self.next_non_space();
            match token.typ {
                t if t == end => {
                    self.check_pipeline(&pipe, context)?;
                    return Ok(pipe);
                }
                ItemType::Bool
                | ItemType::CharConstant
                | ItemType::Complex
                | ItemType::Dot
                | ItemType::Field
                | ItemType::Identifier
                | ItemType::Number
                | ItemType::Nil
                | ItemType::RawString
                | ItemType::String
                | ItemType::Variable
                | ItemType::LeftParen => {
                    self.backup();
                    let cmd = self.command()?;
                    pipe.cmds.push(cmd);
                }
                _ => return self.unexpected(&token, context),
            }
        }
    }

    fn check_pipeline(&self, pipe: &Pipe, context: &str) -> PResult<()> {
        if pipe.cmds.is_empty() {
            return self.errorf(format!("missing value for {context}"));
        }
        for (i, c) in pipe.cmds.iter().enumerate().skip(1) {
            if matches!(
                c.args.first(),
                Some(
                    Arg::Bool { .. }
                        | Arg::Dot { .. }
                        | Arg::Nil { .. }
                        | Arg::Number(_)
                        | Arg::String { .. }
                )
            ) {
                return self.errorf(format!(
                    "non executable command in pipeline stage {}",
                    i + 1
                ));
            }
        }
        Ok(())
    }

    fn command(&mut self) -> PResult<Command> {
        let pos = self.peek_non_space().pos;
        let mut cmd = Command {
            pos,
            args: Vec::new(),
        };
        loop {
            self.peek_non_space();
            if let Some(op) = self.operand()? {
                cmd.args.push(op);
            }
            let token = self.next();
            match token.typ {
                ItemType::Space => continue,
                ItemType::RightDelim | ItemType::RightParen => self.backup(),
                ItemType::Pipe => {}
                _ => return self.unexpected(&token, "operand"),
            }
            break;
        }
        if cmd.args.is_empty() {
            return self.errorf("empty command");
        }
        Ok(cmd)
    }

    fn operand(&mut self) -> PResult<Option<Arg>> {
        let Some(node) = self.term()? else {
            return Ok(None);
        };
        if self.peek().typ != ItemType::Field {
            return Ok(Some(node));
        }
        let pos = self.peek().pos;
        let mut fields = Vec::new();
        while self.peek().typ == ItemType::Field {
            let f = self.next().val;
            fields.push(f.get(1..).unwrap_or("").to_string());
        }
        Ok(Some(match node {
            Arg::Field { ident, .. } => {
                let mut ident = ident;
                ident.extend(fields);
                Arg::Field { pos, ident }
            }
            Arg::Variable(v) => {
                let mut ident = v.ident;
                ident.extend(fields);
                Arg::Variable(Var { pos, ident })
            }
            Arg::Bool { .. }
            | Arg::String { .. }
            | Arg::Number(_)
            | Arg::Nil { .. }
            | Arg::Dot { .. } => {
                return self.errorf(format!(
                    "unexpected . after term {}",
                    q(node.to_go_string().as_bytes())
                ))
            }
            other => Arg::Chain {
                pos,
                node: Box::new(other),
                fields,
            },
        }))
    }

    fn term(&mut self) -> PResult<Option<Arg>> {
        let token = self.next_non_space();
        let pos = token.pos;
        Ok(Some(match token.typ {
            ItemType::Identifier => {
                if !BUILTINS.contains(&token.val.as_str()) && !self.syntax.defines(&token.val) {
                    return self
                        .errorf(format!("function {} not defined", q(token.val.as_bytes())));
                }
                Arg::Identifier {
                    pos,
                    name: token.val,
                }
            }
            ItemType::Dot => Arg::Dot { pos },
            ItemType::Nil => Arg::Nil { pos },
            ItemType::Variable => {
                let v = new_var(pos, &token.val);
                if !self.t.vars.iter().any(|n| Some(n) == v.ident.first()) {
                    return self.errorf(format!(
                        "undefined variable {}",
                        q(v.ident.first().map(String::as_bytes).unwrap_or_default())
                    ));
                }
                Arg::Variable(v)
            }
            ItemType::Field => Arg::Field {
                pos,
                ident: token
                    .val
                    .get(1..)
                    .unwrap_or("")
                    .split('.')
                    .map(String::from)
                    .collect(),
            },
            ItemType::Bool => Arg::Bool {
                pos,
                val: token.val == "true",
            },
            ItemType::CharConstant | ItemType::Complex | ItemType::Number => {
                match new_number(pos, &token.val, token.typ) {
                    Ok(n) => Arg::Number(Box::new(n)),
                    Err(e) => return self.errorf(e),
                }
            }
            ItemType::LeftParen => {
                self.enter()?;
                let p = self.pipeline("parenthesized pipeline", ItemType::RightParen);
                self.leave();
                Arg::Pipe(Box::new(p?))
            }
            ItemType::String | ItemType::RawString => match unquote(&token.val) {
                Ok(s) => Arg::String {
                    pos,
                    quoted: token.val,
                    text: s,
                },
                Err(e) => return self.errorf(e),
            },
            _ => {
                self.backup();
                return Ok(None);
            }
        }))
    }
}

fn marker(p: &Parsed) -> &'static str {
    match p {
        Parsed::End => "{{end}}",
        Parsed::Else => "{{else}}",
        Parsed::Node(_) => "",
    }
}

fn new_var(pos: usize, ident: &str) -> Var {
    Var {
        pos,
        ident: ident.split('.').map(String::from).collect(),
    }
}

/// `float64(int64(f)) == f` as Go computes it on amd64, where out-of-range
/// conversions produce values that never compare equal.
fn float_is_int(f: f64) -> bool {
    const TWO_63: f64 = 9_223_372_036_854_775_808u64 as f64;
    f.fract() == 0.0 && (-TWO_63..TWO_63).contains(&f)
}

fn float_is_uint(f: f64) -> bool {
    const TWO_64: f64 = 2.0 * 9_223_372_036_854_775_808u64 as f64;
    f.fract() == 0.0 && f > -1.0 && f < TWO_64
}

fn simplify_complex(n: &mut Number) {
    n.is_float = n.complex.1 == 0.0;
    if n.is_float {
        n.float64 = n.complex.0;
        n.is_int = float_is_int(n.float64);
        if n.is_int {
            n.int64 = n.float64 as i64;
        }
        n.is_uint = float_is_uint(n.float64);
    }
}

/// `parse.newNumber`.
fn new_number(pos: usize, text: &str, typ: ItemType) -> Result<Number, String> {
    let mut n = Number {
        pos,
        is_int: false,
        is_uint: false,
        is_float: false,
        is_complex: false,
        int64: 0,
        float64: 0.0,
        complex: (0.0, 0.0),
        text: text.to_string(),
    };
    match typ {
        ItemType::CharConstant => {
            let b = text.as_bytes();
            let (r, _, w) = unquote_char(b.get(1..).unwrap_or(&[]), b'\'')
                .ok_or_else(|| "invalid syntax".to_string())?;
            if b.get(1 + w..) != Some(b"'") {
                return Err(format!("malformed character constant: {text}"));
            }
            n.int64 = i64::from(r);
            n.is_int = true;
            n.is_uint = true;
            n.float64 = f64::from(r);
            n.is_float = true;
            return Ok(n);
        }
        ItemType::Complex => {
            // The lexer guarantees "<number><sign><number>i".
            let b = text.as_bytes();
            let split = (1..b.len())
                .rev()
                .find(|&i| {
                    (b[i] == b'+' || b[i] == b'-') && !matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')
                })
                .unwrap_or(0);
            let re = parse_float(&text[..split]);
            let im = text[split..].strip_suffix('i').and_then(parse_float);
            match (re, im) {
                (Some(re), Some(im)) => {
                    n.is_complex = true;
                    n.complex = (re, im);
                    simplify_complex(&mut n);
                    return Ok(n);
                }
                _ => return Err("expected integer".to_string()),
            }
        }
        _ => {}
    }
    if let Some(body) = text.strip_suffix('i') {
        if let Some(f) = parse_float(body) {
            n.is_complex = true;
            n.complex = (0.0, f);
            simplify_complex(&mut n);
            return Ok(n);
        }
    }
    let u = parse_uint0(text);
    if u.is_some() {
        n.is_uint = true;
    }
    if let Some(i) = parse_int0(text) {
        n.is_int = true;
        n.int64 = i;
        if i == 0 {
            n.is_uint = true;
        }
    }
    if n.is_int {
        n.is_float = true;
        n.float64 = n.int64 as f64;
    } else if let Some(u) = u {
        n.is_float = true;
        n.float64 = u as f64;
    } else if let Some(f) = parse_float(text) {
        if !text.contains(['.', 'e', 'E', 'p', 'P']) {
            return Err(format!("integer overflow: {}", q(text.as_bytes())));
        }
        n.is_float = true;
        n.float64 = f;
        if !n.is_int && float_is_int(f) {
            n.is_int = true;
            n.int64 = f as i64;
        }
        if !n.is_uint && float_is_uint(f) {
            n.is_uint = true;
        }
    }
    if !n.is_int && !n.is_uint && !n.is_float {
        return Err(format!("illegal number syntax: {}", q(text.as_bytes())));
    }
    Ok(n)
}
