//! A port of `text/template/exec.go`. Go unwinds errors with panics; here
//! they travel as `Err` and `break`/`continue` as [`Flow`].

use std::borrow::Cow;

use super::fmt::{q, sprint1};
use super::funcs::{call_builtin, signature, ParamType, Signature};
use super::node::{write_command, write_node, write_pipe, Arg, Branch, Command, Node, Pipe, Var};
use super::value::{is_true, Conc, Val, Value};
use super::{Error, ErrorKind, ExecOptions, Funcs, Host, MissingKey, Template};
use typed_arena::Arena;

type R<T> = Result<T, Error>;

/// How a walk ended: normally, or by `{{break}}`/`{{continue}}` that the
/// enclosing range must handle.
enum Flow {
    Normal,
    Break,
    Continue,
}

/// The node errors are reported at (Go's `state.node`).
#[derive(Clone, Copy)]
enum At<'a> {
    None,
    Arg(&'a Arg),
    Cmd(&'a Command),
    Pipe(&'a Pipe),
    Range(&'a Branch),
    Template(usize, &'a Node),
}

pub(crate) struct State<'a, 'o> {
    t: &'a Template,
    name: &'a str,
    out: &'o mut Vec<u8>,
    at: At<'a>,
    vars: Vec<(&'a str, Val<'a>)>,
    depth: usize,
    opts: &'o ExecOptions,
    funcs: Option<&'o dyn Funcs>,
    /// Values host functions return, kept for the rest of the execution.
    arena: &'a Arena<Value>,
    iterations: usize,
    generated: usize,
    nesting: usize,
    max_nesting: usize,
    /// Spent but not yet charged to the run's budget, which is shared between threads and so
    /// charged in chunks.
    pending_bytes: u64,
    pending_steps: u64,
}

/// How much is spent locally before it is charged to the run's budget.
const CHUNK_BYTES: u64 = 64 << 10;
const CHUNK_STEPS: u64 = 4096;

pub(crate) fn execute_with(
    t: &Template,
    data: &Value,
    opts: &ExecOptions,
    funcs: Option<&dyn Funcs>,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let arena = Arena::new();
    run(t, &t.name, data, opts, funcs, &arena, 0, out)
}

/// Executes template `name` of `t`'s set with `data` as dot, `depth` templates deep.
#[allow(clippy::too_many_arguments)]
fn run<'a>(
    t: &'a Template,
    name: &'a str,
    data: &'a Value,
    opts: &ExecOptions,
    funcs: Option<&dyn Funcs>,
    arena: &'a Arena<Value>,
    depth: usize,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let dot = Val::of(data);
    let mut s = State {
        t,
        name,
        out,
        at: At::None,
        vars: vec![("$", dot.clone())],
        depth,
        opts,
        funcs,
        arena,
        iterations: 0,
        generated: 0,
        nesting: 0,
        max_nesting: opts.max_depth.saturating_mul(4),
        pending_bytes: 0,
        pending_steps: 0,
    };
    let Some(root) = t.trees.get(name) else {
        return Err(s.err(format!(
            "{} is an incomplete or empty template",
            q(name.as_bytes())
        )));
    };
    let walked = root
        .list
        .nodes
        .iter()
        .try_for_each(|n| s.walk(&dot, n).map(drop));
    // What a failed execution spent counts too (up to a chunk of steps and bytes); its own
    // error comes first.
    let settled = s.settle();
    walked.and(settled)
}

impl Host for State<'_, '_> {
    fn execute_template(&mut self, name: &str, data: Value) -> Result<Vec<u8>, Error> {
        if self.depth >= self.opts.max_depth {
            return Err(self.err(format!(
                "exceeded maximum template depth ({})",
                self.opts.max_depth
            )));
        }
        let mut buf = Vec::new();
        let data = self.arena.alloc(data);
        let Some((name, _)) = self.t.trees.get_key_value(name) else {
            return Err(Error {
                kind: ErrorKind::Exec,
                message: format!(
                    "template: no template {} associated with template {}",
                    q(name.as_bytes()),
                    q(self.t.name.as_bytes())
                ),
            });
        };
        let (t, opts, funcs, arena) = (self.t, self.opts, self.funcs, self.arena);
        run(t, name, data, opts, funcs, arena, self.depth + 1, &mut buf)?;
        Ok(buf)
    }

    fn execute_text(&mut self, name: &str, text: &str, data: Value) -> Result<Vec<u8>, Error> {
        if self.depth >= self.opts.max_depth {
            return Err(self.err(format!(
                "exceeded maximum template depth ({})",
                self.opts.max_depth
            )));
        }
        let mut t = self.t.clone();
        t.name = name.to_string();
        t.add(name, text)?;
        let arena = Arena::new();
        let mut buf = Vec::new();
        run(
            &t,
            &t.name,
            &data,
            self.opts,
            self.funcs,
            &arena,
            self.depth + 1,
            &mut buf,
        )?;
        Ok(buf)
    }

    fn budget(&self) -> &crate::Budget {
        &self.opts.budget
    }
}

impl<'a, 'o> State<'a, 'o> {
    fn err(&self, msg: String) -> Error {
        let name = self.name;
        let (pos, context) = match self.at {
            At::None => {
                return Error {
                    kind: ErrorKind::Exec,
                    message: format!("template: {name}: {msg}"),
                }
            }
            At::Arg(a) => (a.pos(), a.to_go_string()),
            At::Cmd(c) => {
                let mut s = String::new();
                write_command(&mut s, c);
                (c.pos, s)
            }
            At::Pipe(p) => {
                let mut s = String::new();
                write_pipe(&mut s, p);
                (p.pos, s)
            }
            At::Range(b) => {
                let mut s = String::new();
                write_node(&mut s, &Node::Range(b.clone()));
                (b.pos, s)
            }
            At::Template(pos, n) => {
                let mut s = String::new();
                write_node(&mut s, n);
                (pos, s)
            }
        };
        let (file, text) = match self.t.trees.get(name) {
            Some(tree) => (tree.source.name.as_str(), tree.source.text.as_bytes()),
            None => (self.t.name.as_str(), &b""[..]),
        };
        let before = text.get(..pos).unwrap_or(text);
        let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
        let col = match before.iter().rposition(|&c| c == b'\n') {
            Some(i) => pos - (i + 1),
            None => pos,
        };
        Error {
            kind: ErrorKind::Exec,
            message: format!(
                "template: {}:{}:{}: executing {} at <{}>: {}",
                file,
                line,
                col,
                q(name.as_bytes()),
                context,
                msg
            ),
        }
    }

    fn errorf<T>(&self, msg: String) -> R<T> {
        Err(self.err(msg))
    }

    fn limit<T>(&self, msg: String) -> R<T> {
        let mut e = self.err(msg);
        e.kind = ErrorKind::Limit;
        Err(e)
    }

    /// Charges what was spent locally to the run's budget.
    fn settle(&mut self) -> R<()> {
        let (bytes, steps) = (self.pending_bytes, self.pending_steps);
        self.pending_bytes = 0;
        self.pending_steps = 0;
        let budget = &self.opts.budget;
        match budget.charge_output(bytes).and(budget.charge_steps(steps)) {
            Ok(()) => Ok(()),
            Err(e) => self.limit(e.to_string()),
        }
    }

    fn spend_bytes(&mut self, n: usize) -> R<()> {
        self.pending_bytes = self.pending_bytes.saturating_add(n as u64);
        if self.pending_bytes >= CHUNK_BYTES {
            return self.settle();
        }
        Ok(())
    }

    fn step(&mut self) -> R<()> {
        self.pending_steps += 1;
        if self.pending_steps >= CHUNK_STEPS {
            return self.settle();
        }
        Ok(())
    }

    /// The bytes a piece of generated text may still take, within this execution's limit
    /// and the run's budget: a builtin refuses a larger one before building it.
    pub(crate) fn room(&self) -> usize {
        let own = self.opts.max_output_bytes.saturating_sub(self.generated);
        let run = self
            .opts
            .budget
            .remaining_output()
            .saturating_sub(self.pending_bytes);
        own.min(usize::try_from(run).unwrap_or(usize::MAX))
    }

    fn write(&mut self, b: &[u8]) -> R<()> {
        self.spend_bytes(b.len())?;
        if self.out.len().saturating_add(b.len()) > self.opts.max_output_bytes {
            let room = self.opts.max_output_bytes.saturating_sub(self.out.len());
            self.out.extend_from_slice(b.get(..room).unwrap_or(b));
            return self.limit(format!(
                "output exceeds the limit of {} bytes",
                self.opts.max_output_bytes
            ));
        }
        self.out.extend_from_slice(b);
        Ok(())
    }

    /// Strings built by print-like builtins count against the same budget
    /// as output, so a loop cannot burn time building discarded text.
    pub(crate) fn charge(&mut self, n: usize) -> R<()> {
        if let Err(e) = self
            .opts
            .budget
            .check_output(self.pending_bytes.saturating_add(n as u64))
        {
            return self.limit(e.to_string());
        }
        self.spend_bytes(n)?;
        self.generated = self.generated.saturating_add(n);
        if self.generated > self.opts.max_output_bytes {
            return self.limit(format!(
                "generated text exceeds the limit of {} bytes",
                self.opts.max_output_bytes
            ));
        }
        Ok(())
    }

    fn var_value(&self, name: &str) -> R<Val<'a>> {
        match self.vars.iter().rev().find(|(n, _)| *n == name) {
            Some((_, v)) => Ok(v.clone()),
            None => self.errorf(format!("undefined variable: {name}")),
        }
    }

    fn set_var(&mut self, name: &str, value: Val<'a>) -> R<()> {
        match self.vars.iter_mut().rev().find(|(n, _)| *n == name) {
            Some(slot) => {
                slot.1 = value;
                Ok(())
            }
            None => self.errorf(format!("undefined variable: {name}")),
        }
    }

    fn set_top_var(&mut self, n: usize, value: Val<'a>) {
        let len = self.vars.len();
        if let Some(slot) = len.checked_sub(n).and_then(|i| self.vars.get_mut(i)) {
            slot.1 = value;
        }
    }

    fn walk_list(&mut self, dot: &Val<'a>, nodes: &'a [Node]) -> R<Flow> {
        for n in nodes {
            match self.walk(dot, n)? {
                Flow::Normal => {}
                f => return Ok(f),
            }
        }
        Ok(Flow::Normal)
    }

    fn walk(&mut self, dot: &Val<'a>, node: &'a Node) -> R<Flow> {
        if matches!(
            node,
            Node::If(_) | Node::With(_) | Node::Range(_) | Node::Template { .. }
        ) {
            self.nesting += 1;
            if self.nesting > self.max_nesting {
                return self.limit(format!(
                    "exceeded maximum execution nesting ({})",
                    self.max_nesting
                ));
            }
            let r = self.walk_node(dot, node);
            self.nesting -= 1;
            return r;
        }
        self.walk_node(dot, node)
    }

    fn walk_node(&mut self, dot: &Val<'a>, node: &'a Node) -> R<Flow> {
        self.step()?;
        match node {
            Node::Action(pipe) => {
                let val = self.eval_pipeline(dot, Some(pipe))?;
                if pipe.decl.is_empty() {
                    self.print_value(&val)?;
                }
            }
            Node::Break => return Ok(Flow::Break),
            Node::Continue => return Ok(Flow::Continue),
            Node::If(b) => return self.walk_if_or_with(false, dot, b),
            Node::With(b) => return self.walk_if_or_with(true, dot, b),
            Node::Range(b) => self.walk_range(dot, b)?,
            Node::Template { pos, name, pipe } => {
                self.walk_template(dot, *pos, node, name, pipe.as_ref())?
            }
            Node::Text(t) => self.write(t.as_bytes())?,
        }
        Ok(Flow::Normal)
    }

    fn walk_if_or_with(&mut self, with: bool, dot: &Val<'a>, b: &'a Branch) -> R<Flow> {
        let mark = self.vars.len();
        let val = self.eval_pipeline(dot, Some(&b.pipe))?;
        let truth = is_true(&val.clone().indirect_interface());
        let flow = if truth {
            if with {
                self.walk_list(&val, &b.list.nodes)?
            } else {
                self.walk_list(dot, &b.list.nodes)?
            }
        } else if let Some(e) = &b.else_list {
            self.walk_list(dot, &e.nodes)?
        } else {
            Flow::Normal
        };
        self.vars.truncate(mark);
        Ok(flow)
    }

    /// One range iteration; returns false when the loop must stop.
    fn one_iteration(
        &mut self,
        r: &'a Branch,
        mark: usize,
        index: Val<'a>,
        elem: Val<'a>,
    ) -> R<bool> {
        self.iterations += 1;
        self.step()?;
        if self.iterations > self.opts.max_range_iterations {
            self.at = At::Range(r);
            return self.limit(format!(
                "exceeded maximum range iterations ({})",
                self.opts.max_range_iterations
            ));
        }
        if !r.pipe.decl.is_empty() {
            self.set_top_var(1, elem.clone());
        }
        if r.pipe.decl.len() > 1 {
            self.set_top_var(2, index);
        }
        let flow = self.walk_list(&elem, &r.list.nodes)?;
        self.vars.truncate(mark);
        Ok(!matches!(flow, Flow::Break))
    }

    /// Keeps `v` for the rest of the execution (an entry read out of a shared dict).
    pub(crate) fn keep(&self, v: Value) -> &'a Value {
        self.arena.alloc(v)
    }

    fn walk_range(&mut self, dot: &Val<'a>, r: &'a Branch) -> R<()> {
        self.at = At::Range(r);
        let mark0 = self.vars.len();
        let val = self.eval_pipeline(dot, Some(&r.pipe))?;
        let val = match val {
            Val::Iface(Some(c)) => Val::C(c),
            v => v,
        };
        let mark = self.vars.len();
        let mut ran = false;
        match &val {
            Val::C(Conc::List(l)) if !l.is_empty() => {
                ran = true;
                for (i, e) in l.iter().enumerate() {
                    let elem = Val::Iface(Conc::from_elem(e));
                    if !self.one_iteration(r, mark, Val::C(Conc::Int(i as i64)), elem)? {
                        break;
                    }
                }
            }
            Val::C(Conc::Dict(d)) if !d.is_empty() => {
                // Go's range over a map the body changes is unspecified; a snapshot is one
                // of its answers and keeps no lock while the body runs.
                ran = true;
                let snapshot = self.arena.alloc(Value::Map(d.snapshot()));
                let Value::Map(m) = &*snapshot else {
                    return Ok(());
                };
                for (k, v) in m.iter() {
                    let elem = Val::Iface(Conc::from_elem(v));
                    if !self.one_iteration(r, mark, Val::C(Conc::str(k)), elem)? {
                        break;
                    }
                }
            }
            Val::C(Conc::Map(m)) if !m.is_empty() => {
                ran = true;
                for (k, v) in m.iter() {
                    let elem = Val::Iface(Conc::from_elem(v));
                    if !self.one_iteration(r, mark, Val::C(Conc::str(k)), elem)? {
                        break;
                    }
                }
            }
            Val::C(Conc::StrMap(m)) if !m.is_empty() => {
                ran = true;
                for (k, v) in m.iter() {
                    let elem = Val::C(Conc::str(v));
                    if !self.one_iteration(r, mark, Val::C(Conc::str(k)), elem)? {
                        break;
                    }
                }
            }
            Val::C(Conc::List(_) | Conc::Map(_) | Conc::StrMap(_) | Conc::Dict(_))
            | Val::Invalid => {}
            other => {
                let shown = sprint1(other.clone().into_any().as_ref());
                return self.errorf(format!(
                    "range can't iterate over {}",
                    String::from_utf8_lossy(&shown)
                ));
            }
        }
        if !ran {
            if let Some(e) = &r.else_list {
                self.walk_list(dot, &e.nodes)?;
            }
        }
        self.vars.truncate(mark0);
        Ok(())
    }

    fn walk_template(
        &mut self,
        dot: &Val<'a>,
        pos: usize,
        node: &'a Node,
        name: &'a str,
        pipe: Option<&'a Pipe>,
    ) -> R<()> {
        self.at = At::Template(pos, node);
        let Some(tree) = self.t.trees.get(name) else {
            return self.errorf(format!("template {} not defined", q(name.as_bytes())));
        };
        if self.depth >= self.opts.max_depth {
            return self.limit(format!(
                "exceeded maximum template depth ({})",
                self.opts.max_depth
            ));
        }
        let new_dot = self.eval_pipeline(dot, pipe)?;
        let saved_vars = std::mem::replace(&mut self.vars, vec![("$", new_dot.clone())]);
        let saved_name = std::mem::replace(&mut self.name, name);
        self.depth += 1;
        let r = self.walk_list(&new_dot, &tree.list.nodes);
        self.depth -= 1;
        self.name = saved_name;
        self.vars = saved_vars;
        r.map(|_| ())
    }

    fn eval_pipeline(&mut self, dot: &Val<'a>, pipe: Option<&'a Pipe>) -> R<Val<'a>> {
        let Some(pipe) = pipe else {
            return Ok(Val::Invalid);
        };
        self.at = At::Pipe(pipe);
        let mut value: Option<Val<'a>> = None;
        for cmd in &pipe.cmds {
            let v = self.eval_command(dot, cmd, value.take())?;
            // Go digs out the dynamic value of an empty interface here.
            value = Some(match v {
                Val::Iface(None) => Val::Invalid,
                Val::Iface(Some(c)) => Val::C(c),
                v => v,
            });
        }
        let value = value.unwrap_or(Val::Invalid);
        for var in &pipe.decl {
            let name = var.ident.first().map(String::as_str).unwrap_or("$");
            if pipe.is_assign {
                self.set_var(name, value.clone())?;
            } else {
                self.vars.push((name, value.clone()));
            }
        }
        Ok(value)
    }

    fn not_a_function(&self, args: &'a [Arg], has_final: bool) -> R<()> {
        if args.len() > 1 || has_final {
            let first = args.first().map(Arg::to_go_string).unwrap_or_default();
            return self.errorf(format!("can't give argument to non-function {first}"));
        }
        Ok(())
    }

    fn eval_command(
        &mut self,
        dot: &Val<'a>,
        cmd: &'a Command,
        fin: Option<Val<'a>>,
    ) -> R<Val<'a>> {
        let Some(first) = cmd.args.first() else {
            return Ok(Val::Invalid);
        };
        match first {
            Arg::Field { ident, .. } => {
                self.at = At::Arg(first);
                return self.eval_field_chain(dot, dot.clone(), first, ident, &cmd.args, fin);
            }
            Arg::Chain { .. } => return self.eval_chain_node(dot, first, &cmd.args, fin),
            Arg::Identifier { name, .. } => {
                self.at = At::Arg(first);
                return self.eval_call(dot, At::Cmd(cmd), name, &cmd.args[1..], fin);
            }
            Arg::Pipe(p) => {
                self.not_a_function(&cmd.args, fin.is_some())?;
                return self.eval_pipeline(dot, Some(p));
            }
            Arg::Variable(v) => return self.eval_variable_node(dot, first, v, &cmd.args, fin),
            _ => {}
        }
        self.at = At::Arg(first);
        self.not_a_function(&cmd.args, fin.is_some())?;
        match first {
            Arg::Bool { val, .. } => Ok(Val::C(Conc::Bool(*val))),
            Arg::Dot { .. } => Ok(dot.clone()),
            Arg::Nil { .. } => self.errorf("nil is not a command".into()),
            Arg::Number(_) => self.ideal_constant(first),
            Arg::String { text, .. } => Ok(Val::C(Conc::Str(Cow::Borrowed(text)))),
            _ => self.errorf(format!(
                "can't evaluate command {}",
                q(first.to_go_string().as_bytes())
            )),
        }
    }

    fn ideal_constant(&mut self, n: &'a Arg) -> R<Val<'a>> {
        self.at = At::Arg(n);
        let Arg::Number(c) = n else {
            return Ok(Val::Invalid);
        };
        let t = &c.text;
        let is_hex_int = t.len() > 2
            && t.starts_with('0')
            && matches!(t.as_bytes().get(1), Some(b'x' | b'X'))
            && !t.contains(['p', 'P']);
        let is_rune = t.starts_with('\'');
        if c.is_complex {
            return Ok(Val::C(Conc::Complex(c.complex.0, c.complex.1)));
        }
        if c.is_float && !is_hex_int && !is_rune && t.contains(['.', 'e', 'E', 'p', 'P']) {
            return Ok(Val::C(Conc::Float(c.float64)));
        }
        if c.is_int {
            return Ok(Val::C(Conc::Int(c.int64)));
        }
        if c.is_uint {
            return self.errorf(format!("{t} overflows int"));
        }
        Ok(Val::Invalid)
    }

    fn eval_chain_node(
        &mut self,
        dot: &Val<'a>,
        chain: &'a Arg,
        args: &'a [Arg],
        fin: Option<Val<'a>>,
    ) -> R<Val<'a>> {
        self.at = At::Arg(chain);
        let Arg::Chain { node, fields, .. } = chain else {
            return Ok(Val::Invalid);
        };
        if fields.is_empty() {
            return self.errorf("internal error: no fields in evalChainNode".into());
        }
        if let Arg::Nil { .. } = node.as_ref() {
            return self.errorf(format!(
                "indirection through explicit nil in {}",
                chain.to_go_string()
            ));
        }
        let pipe = self.eval_arg(dot, None, node)?;
        self.eval_field_chain(dot, pipe, chain, fields, args, fin)
    }

    fn eval_variable_node(
        &mut self,
        dot: &Val<'a>,
        node: &'a Arg,
        v: &'a Var,
        args: &'a [Arg],
        fin: Option<Val<'a>>,
    ) -> R<Val<'a>> {
        self.at = At::Arg(node);
        let name = v.ident.first().map(String::as_str).unwrap_or("$");
        let value = self.var_value(name)?;
        if v.ident.len() == 1 {
            self.not_a_function(args, fin.is_some())?;
            return Ok(value);
        }
        self.eval_field_chain(dot, value, node, &v.ident[1..], args, fin)
    }

    fn eval_field_chain(
        &mut self,
        dot: &Val<'a>,
        mut receiver: Val<'a>,
        node: &'a Arg,
        ident: &'a [String],
        args: &'a [Arg],
        fin: Option<Val<'a>>,
    ) -> R<Val<'a>> {
        let Some((last, init)) = ident.split_last() else {
            return Ok(receiver);
        };
        for name in init {
            receiver = self.eval_field(dot, name, node, &[], None, receiver)?;
        }
        self.eval_field(dot, last, node, args, fin, receiver)
    }

    /// The host type of a map that has one, and its method `field`'s signature.
    fn method_of(&self, receiver: &Conc<'a>, field: &str) -> Option<(String, Signature)> {
        let Conc::Map(m) = receiver else { return None };
        let Some(Value::String(typ)) = m.get(super::METHOD_TYPE_KEY) else {
            return None;
        };
        let (params, variadic) = self.funcs?.method_signature(typ, field)?;
        Some((typ.clone(), Signature { params, variadic }))
    }

    #[allow(clippy::too_many_arguments)]
    fn eval_method(
        &mut self,
        dot: &Val<'a>,
        node: &'a Arg,
        name: &str,
        receiver: Conc<'a>,
        (typ, sig): (String, Signature),
        args: &'a [Arg],
        fin: Option<Val<'a>>,
    ) -> R<Val<'a>> {
        let num_in = args.len() + usize::from(fin.is_some());
        let n = sig.params.len();
        if (!sig.variadic && num_in != n) || (sig.variadic && num_in + 1 < n) {
            let want = if sig.variadic {
                format!("at least {}", n - 1)
            } else {
                n.to_string()
            };
            return self.errorf(format!(
                "wrong number of args for {name}: want {want} got {num_in}"
            ));
        }
        let param = |i: usize| sig.params.get(i.min(n.saturating_sub(1))).copied();
        let mut argv = Vec::with_capacity(num_in);
        for (i, a) in args.iter().enumerate() {
            argv.push(self.eval_arg(dot, param(i), a)?.to_value());
        }
        if let Some(f) = fin {
            argv.push(self.validate_type(f, param(num_in - 1))?.to_value());
        }
        let Some(funcs) = self.funcs else {
            return self.errorf(format!("can't evaluate field {name} in type {typ}"));
        };
        let recv = Val::C(receiver).to_value();
        match funcs.call_method(self, &typ, name, recv, argv) {
            Ok(Value::Nil) => Ok(Val::Iface(None)),
            Ok(v) => Ok(Val::of(self.arena.alloc(v))),
            Err(m) => {
                self.at = At::Arg(node);
                self.errorf(format!("error calling {name}: {m}"))
            }
        }
    }

    fn eval_field(
        &mut self,
        dot: &Val<'a>,
        field: &str,
        node: &'a Arg,
        args: &'a [Arg],
        fin: Option<Val<'a>>,
        receiver: Val<'a>,
    ) -> R<Val<'a>> {
        if !receiver.is_valid() {
            if self.opts.missing_key == MissingKey::Error {
                return self.errorf(format!(
                    "nil data; no entry for key {}",
                    q(field.as_bytes())
                ));
            }
            return Ok(Val::Invalid);
        }
        let typ = receiver.type_name();
        let receiver = match receiver {
            Val::Iface(None) => {
                return self.errorf(format!("nil pointer evaluating {typ}.{field}"));
            }
            Val::Iface(Some(c)) | Val::C(c) => c,
            Val::Invalid => return Ok(Val::Invalid),
        };
        if let Some(sig) = self.method_of(&receiver, field) {
            let call_args = args.get(1..).unwrap_or(&[]);
            return self.eval_method(dot, node, field, receiver, sig, call_args, fin);
        }
        let has_args = args.len() > 1 || fin.is_some();
        let arena = self.arena;
        let found = match &receiver {
            Conc::Map(m) => Some(m.get(field).map(|v| Val::Iface(Conc::from_elem(v)))),
            Conc::Dict(d) => Some(
                d.get(field)
                    .map(|v| Val::Iface(Conc::from_elem(arena.alloc(v)))),
            ),
            Conc::StrMap(m) => Some(m.get(field).map(|v| Val::C(Conc::str(v)))),
            _ => None,
        };
        match found {
            Some(result) => {
                if has_args {
                    return self.errorf(format!("{field} is not a method but has arguments"));
                }
                match result {
                    Some(v) => Ok(v),
                    None => match self.opts.missing_key {
                        MissingKey::Default => Ok(Val::Invalid),
                        MissingKey::Zero => Ok(match receiver {
                            Conc::StrMap(_) => Val::C(Conc::Str(Cow::Borrowed(b""))),
                            _ => Val::Iface(None),
                        }),
                        MissingKey::Error => {
                            self.errorf(format!("map has no entry for key {}", q(field.as_bytes())))
                        }
                    },
                }
            }
            None => self.errorf(format!("can't evaluate field {field} in type {typ}")),
        }
    }

    fn eval_call(
        &mut self,
        dot: &Val<'a>,
        call_node: At<'a>,
        name: &'a str,
        args: &'a [Arg],
        fin: Option<Val<'a>>,
    ) -> R<Val<'a>> {
        let host = self.host_signature(name);
        let is_host = host.is_some();
        let sprig = !is_host && self.t.syntax.defines(name);
        let sig = if let Some(sig) = host {
            sig
        } else if sprig {
            super::sprig::signature(name)
        } else {
            signature(name)
        };
        let num_in = args.len() + usize::from(fin.is_some());
        let n_params = sig.params.len();
        let num_fixed = if sig.variadic {
            let fixed = n_params - 1;
            if num_in < fixed {
                return self.errorf(format!(
                    "wrong number of args for {name}: want at least {fixed} got {}",
                    args.len()
                ));
            }
            fixed
        } else {
            if num_in != n_params {
                return self.errorf(format!(
                    "wrong number of args for {name}: want {n_params} got {num_in}"
                ));
            }
            args.len()
        };
        if name == "and" || name == "or" {
            let want = name == "or";
            let mut v = Val::Invalid;
            for arg in args {
                v = self.eval_arg(dot, Some(ParamType::Value), arg)?;
                if is_true(&v.clone().indirect_interface()) == want {
                    return Ok(v);
                }
            }
            if let Some(f) = fin {
                v = self.validate_type(f, Some(ParamType::Value))?;
            }
            return Ok(v);
        }
        let param = |i: usize| sig.params.get(i).copied().unwrap_or(ParamType::Any);
        let mut argv: Vec<Val<'a>> = Vec::with_capacity(num_in);
        let mut i = 0;
        while i < num_fixed && i < args.len() {
            argv.push(self.eval_arg(dot, Some(param(i)), &args[i])?);
            i += 1;
        }
        if sig.variadic {
            let elem = param(n_params - 1);
            while i < args.len() {
                argv.push(self.eval_arg(dot, Some(elem), &args[i])?);
                i += 1;
            }
        }
        if let Some(f) = fin {
            let t = if sig.variadic && num_in - 1 < num_fixed {
                param(num_in - 1)
            } else {
                param(n_params - 1)
            };
            argv.push(self.validate_type(f, Some(t))?);
        }
        let called = if is_host {
            self.call_host(name, argv)
        } else if sprig {
            super::sprig::call(self, name, argv)
        } else {
            call_builtin(self, name, argv)
        };
        match called {
            Ok(v) => Ok(v),
            Err(CallError::Msg(m)) => {
                self.at = call_node;
                self.errorf(format!("error calling {name}: {m}"))
            }
            Err(CallError::Fatal(e)) => Err(e),
        }
    }

    /// The signature of a host function `name`, when the syntax names it and the host has it.
    fn host_signature(&self, name: &str) -> Option<super::funcs::Signature> {
        if !self.t.syntax.host.iter().any(|h| h == name) {
            return None;
        }
        let (params, variadic) = self.funcs?.signature(name)?;
        Some(super::funcs::Signature { params, variadic })
    }

    fn call_host(&mut self, name: &str, argv: Vec<Val<'a>>) -> Result<Val<'a>, CallError> {
        let Some(funcs) = self.funcs else {
            return Err(CallError::Msg(format!("function {name} not defined")));
        };
        let args: Vec<Value> = argv.iter().map(Val::to_value).collect();
        // The text a host function reads (`tpl` parses it, `fromYaml` decodes it) and the
        // text it returns spend the run's budget, as the builtins' text does: a loop cannot
        // repeat that work for free. Not the template's own limit: one `toYaml` of large values
        // is no more than the values.
        self.spend_bytes(text_len(&args))
            .map_err(CallError::Fatal)?;
        let v = funcs.call(self, name, args).map_err(CallError::Msg)?;
        if let Value::String(s) = &v {
            self.spend_bytes(s.len()).map_err(CallError::Fatal)?;
        }
        if v == Value::Nil {
            return Ok(Val::Iface(None));
        }
        Ok(Val::of(self.arena.alloc(v)))
    }

    fn validate_type(&mut self, value: Val<'a>, typ: Option<ParamType>) -> R<Val<'a>> {
        if !value.is_valid() {
            return match typ {
                None | Some(ParamType::Value) | Some(ParamType::Any) => Ok(Val::Invalid),
                Some(ParamType::String) => {
                    self.errorf("invalid value; expected string".to_string())
                }
            };
        }
        match typ {
            None | Some(ParamType::Value) => Ok(value),
            Some(ParamType::Any) => Ok(match value.into_any() {
                Some(c) => Val::C(c),
                None => Val::Invalid,
            }),
            Some(ParamType::String) => match value {
                Val::C(Conc::Str(s)) | Val::Iface(Some(Conc::Str(s))) => Ok(Val::C(Conc::Str(s))),
                Val::Iface(Some(c)) | Val::C(c) => self.errorf(format!(
                    "wrong type for value; expected string; got {}",
                    c.type_name()
                )),
                v => self.errorf(format!(
                    "wrong type for value; expected string; got {}",
                    v.type_name()
                )),
            },
        }
    }

    fn eval_arg(&mut self, dot: &Val<'a>, typ: Option<ParamType>, n: &'a Arg) -> R<Val<'a>> {
        self.at = At::Arg(n);
        match n {
            Arg::Dot { .. } => return self.validate_type(dot.clone(), typ),
            Arg::Nil { .. } => {
                return match typ {
                    Some(ParamType::String) => {
                        self.errorf("cannot assign nil to string".to_string())
                    }
                    _ => Ok(Val::Invalid),
                }
            }
            Arg::Field { ident, .. } => {
                let v = self.eval_field_chain(
                    dot,
                    dot.clone(),
                    n,
                    ident,
                    std::slice::from_ref(n),
                    None,
                )?;
                return self.validate_type(v, typ);
            }
            Arg::Variable(v) => {
                let v = self.eval_variable_node(dot, n, v, &[], None)?;
                return self.validate_type(v, typ);
            }
            Arg::Pipe(p) => {
                let v = self.eval_pipeline(dot, Some(p))?;
                return self.validate_type(v, typ);
            }
            Arg::Identifier { name, .. } => {
                let v = self.eval_call(dot, At::Arg(n), name, &[], None)?;
                return self.validate_type(v, typ);
            }
            Arg::Chain { .. } => {
                let v = self.eval_chain_node(dot, n, &[], None)?;
                return self.validate_type(v, typ);
            }
            _ => {}
        }
        match typ {
            Some(ParamType::String) => match n {
                Arg::String { text, .. } => Ok(Val::C(Conc::Str(Cow::Borrowed(text)))),
                _ => self.errorf(format!("expected string; found {}", n.to_go_string())),
            },
            _ => match n {
                Arg::Bool { val, .. } => Ok(Val::C(Conc::Bool(*val))),
                Arg::Number(_) => self.ideal_constant(n),
                Arg::String { text, .. } => Ok(Val::C(Conc::Str(Cow::Borrowed(text)))),
                _ => self.errorf(format!(
                    "can't handle assignment of {} to empty interface argument",
                    n.to_go_string()
                )),
            },
        }
    }

    fn print_value(&mut self, v: &Val<'a>) -> R<()> {
        if !v.is_valid() {
            return self.write(b"<no value>");
        }
        let b = sprint1(v.clone().into_any().as_ref());
        self.write(&b)
    }
}

/// Why a builtin failed: an ordinary error Go reports as
/// `error calling NAME: ...`, or a limit that aborts execution as is.
pub(crate) enum CallError {
    Msg(String),
    Fatal(Error),
}

impl From<Error> for CallError {
    fn from(e: Error) -> Self {
        CallError::Fatal(e)
    }
}

/// The bytes of the string arguments of a call.
fn text_len(args: &[Value]) -> usize {
    args.iter()
        .map(|a| match a {
            Value::String(s) => s.len(),
            _ => 0,
        })
        .sum()
}
