//! The data model callers pass in, and the reflect-like view the executor
//! uses internally. Go's error messages and fmt output depend on static
//! types (`interface {}` versus the concrete type inside it), so the internal
//! view keeps that distinction explicit.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Data handed to a template. Each variant stands for one Go type:
/// `Map` is `map[string]interface{}` (what `encoding/json` decodes to),
/// `StringMap` is `map[string]string` (what KubeStellar passes), `List` is
/// `[]interface{}`, `Int` is `int`, `Float` is `float64`, and `Nil` is a nil
/// `interface{}`. `Map` is a map held by value (each copy its own); `Dict` is the same Go
/// type shared by reference, as Go shares every map: what Helm's `dict` builds and what
/// Helm's values are, so that `set $d "k" v` changes `$d` for every holder.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
    StringMap(BTreeMap<String, String>),
    Dict(Dict),
}

/// A `map[string]interface{}` shared by reference: clones of a `Dict` are one map. It never
/// holds itself ([`Dict::contains_in`] lets writers refuse a cycle), and no lock is held while
/// a template runs: readers take an entry or a snapshot.
#[derive(Clone, Default)]
pub struct Dict(Arc<Mutex<BTreeMap<String, Value>>>);

impl Dict {
    pub fn new(m: BTreeMap<String, Value>) -> Dict {
        Dict(Arc::new(Mutex::new(m)))
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, Value>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn get(&self, key: &str) -> Option<Value> {
        self.lock().get(key).cloned()
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.lock().contains_key(key)
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    pub fn insert(&self, key: String, v: Value) -> Option<Value> {
        self.lock().insert(key, v)
    }

    pub fn remove(&self, key: &str) -> Option<Value> {
        self.lock().remove(key)
    }

    /// The entries as they are now (nested dicts stay shared).
    pub fn snapshot(&self) -> BTreeMap<String, Value> {
        self.lock().clone()
    }

    /// Whether both are the same map.
    pub fn same(&self, other: &Dict) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Whether `v` holds this very map at any depth: storing `v` in it would make a cycle.
    pub fn contains_in(&self, v: &Value) -> bool {
        match v {
            Value::Dict(d) => self.same(d) || d.snapshot().values().any(|e| self.contains_in(e)),
            Value::List(l) => l.iter().any(|e| self.contains_in(e)),
            Value::Map(m) => m.values().any(|e| self.contains_in(e)),
            _ => false,
        }
    }
}

impl PartialEq for Dict {
    fn eq(&self, other: &Dict) -> bool {
        self.same(other) || self.snapshot() == other.snapshot()
    }
}

impl std::fmt::Debug for Dict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Dict{:?}", self.snapshot())
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Int(n)
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Self {
        Value::Float(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<BTreeMap<String, String>> for Value {
    fn from(m: BTreeMap<String, String>) -> Self {
        Value::StringMap(m)
    }
}

/// A concrete (non-interface) Go value.
#[derive(Clone, Debug)]
pub(crate) enum Conc<'a> {
    Bool(bool),
    Int(i64),
    /// `uint8`: what `index` yields for a string element.
    Uint8(u8),
    Float(f64),
    Complex(f64, f64),
    Str(Cow<'a, [u8]>),
    List(&'a [Value]),
    Map(&'a BTreeMap<String, Value>),
    StrMap(&'a BTreeMap<String, String>),
    Dict(&'a Dict),
}

/// A `reflect.Value`.
#[derive(Clone, Debug)]
pub(crate) enum Val<'a> {
    /// The zero `reflect.Value` (a missing key, untyped nil).
    Invalid,
    /// A value whose static type is `interface{}`; `None` is a nil interface.
    Iface(Option<Conc<'a>>),
    C(Conc<'a>),
}

impl<'a> Conc<'a> {
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Conc::Bool(_) => "bool",
            Conc::Int(_) => "int",
            Conc::Uint8(_) => "uint8",
            Conc::Float(_) => "float64",
            Conc::Complex(..) => "complex128",
            Conc::Str(_) => "string",
            Conc::List(_) => "[]interface {}",
            Conc::Map(_) | Conc::Dict(_) => "map[string]interface {}",
            Conc::StrMap(_) => "map[string]string",
        }
    }

    /// The value stored in a `[]interface{}` or `map[string]interface{}`
    /// slot; `None` is a nil interface.
    pub(crate) fn from_elem(v: &'a Value) -> Option<Conc<'a>> {
        Some(match v {
            Value::Nil => return None,
            Value::Bool(b) => Conc::Bool(*b),
            Value::Int(n) => Conc::Int(*n),
            Value::Float(f) => Conc::Float(*f),
            Value::String(s) => Conc::Str(Cow::Borrowed(s.as_bytes())),
            Value::List(l) => Conc::List(l),
            Value::Map(m) => Conc::Map(m),
            Value::StringMap(m) => Conc::StrMap(m),
            Value::Dict(d) => Conc::Dict(d),
        })
    }

    pub(crate) fn str(s: &'a str) -> Conc<'a> {
        Conc::Str(Cow::Borrowed(s.as_bytes()))
    }

    pub(crate) fn owned_str(s: Vec<u8>) -> Conc<'a> {
        Conc::Str(Cow::Owned(s))
    }
}

impl<'a> Val<'a> {
    /// `reflect.ValueOf(data)`: the dynamic type, never an interface.
    pub(crate) fn of(v: &'a Value) -> Val<'a> {
        match Conc::from_elem(v) {
            Some(c) => Val::C(c),
            None => Val::Invalid,
        }
    }

    pub(crate) fn is_valid(&self) -> bool {
        !matches!(self, Val::Invalid)
    }

    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Val::Invalid => "<invalid>",
            Val::Iface(_) => "interface {}",
            Val::C(c) => c.type_name(),
        }
    }

    /// The value as the owned data model (what a host function receives).
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Val::Invalid | Val::Iface(None) => Value::Nil,
            Val::Iface(Some(c)) | Val::C(c) => match c {
                Conc::Bool(b) => Value::Bool(*b),
                Conc::Int(n) => Value::Int(*n),
                Conc::Uint8(n) => Value::Int(i64::from(*n)),
                Conc::Float(f) | Conc::Complex(f, _) => Value::Float(*f),
                Conc::Str(s) => Value::String(String::from_utf8_lossy(s).into_owned()),
                Conc::List(l) => Value::List(l.to_vec()),
                Conc::Map(m) => Value::Map((*m).clone()),
                Conc::StrMap(m) => Value::StringMap((*m).clone()),
                Conc::Dict(d) => Value::Dict((*d).clone()),
            },
        }
    }

    /// Go's `indirectInterface`.
    pub(crate) fn indirect_interface(self) -> Val<'a> {
        match self {
            Val::Iface(None) => Val::Invalid,
            Val::Iface(Some(c)) => Val::C(c),
            v => v,
        }
    }

    /// The value as an `interface{}` argument (what `v.Interface()` hands to
    /// fmt): `None` is nil.
    pub(crate) fn into_any(self) -> Option<Conc<'a>> {
        match self {
            Val::Invalid | Val::Iface(None) => None,
            Val::Iface(Some(c)) | Val::C(c) => Some(c),
        }
    }
}

/// Go's `isTrue`; every kind this model has is truth-testable.
pub(crate) fn is_true(v: &Val<'_>) -> bool {
    match v {
        Val::Invalid => false,
        Val::Iface(None) => false,
        Val::Iface(Some(_)) => true,
        Val::C(c) => match c {
            Conc::Bool(b) => *b,
            Conc::Int(n) => *n != 0,
            Conc::Uint8(n) => *n != 0,
            Conc::Float(f) => *f != 0.0,
            Conc::Complex(r, i) => *r != 0.0 || *i != 0.0,
            Conc::Str(s) => !s.is_empty(),
            Conc::List(l) => !l.is_empty(),
            Conc::Map(m) => !m.is_empty(),
            Conc::StrMap(m) => !m.is_empty(),
            Conc::Dict(d) => !d.is_empty(),
        },
    }
}
