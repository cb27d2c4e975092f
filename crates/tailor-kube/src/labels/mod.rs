//! Kubernetes label selectors with apimachinery's semantics.
//!
//! Two input forms build the same [`LabelSelector`]:
//! - the object form `metav1.LabelSelector` (`matchLabels` + `matchExpressions`), converted the way
//!   `metav1.LabelSelectorAsSelector` does ([`from_json`]);
//! - the string form `a=b,c in (x,y),!d`, parsed the way `labels.Parse` does ([`LabelSelector::parse`]).
//!
//! A selector is a list of requirements, ANDed. No requirements means "everything". The caller
//! keeps the difference between an absent selector (no criterion; Go's nil) and `{}` (everything):
//! see [`optional_from_json`].

mod parse;
mod validate;

use std::fmt;

use serde_json::Value;

use crate::diag::FieldError as SelectorError;
use crate::json;
use crate::StringMap;

pub(crate) use validate::{label_key_errors, label_value_errors};

/// A requirement's operator. The object form allows only `In`, `NotIn`, `Exists`, `DoesNotExist`;
/// matchLabels entries become `Equals`; the string form also has `==`, `!=`, `>` and `<`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    /// `key in (a,b)`: the label exists and its value is one of the values.
    In,
    /// `key notin (a,b)`: the label is missing, or its value is none of the values.
    NotIn,
    /// `key`: the label exists (any value).
    Exists,
    /// `!key`: the label is missing.
    DoesNotExist,
    /// `key=v` (and every matchLabels entry).
    Equals,
    /// `key==v`, same as `Equals`.
    DoubleEquals,
    /// `key!=v`: missing, or a different value.
    NotEquals,
    /// `key>n`: the label's value parses as an int64 greater than n.
    GreaterThan,
    /// `key<n`: the label's value parses as an int64 less than n.
    LessThan,
}

impl Operator {
    /// The metav1 spelling accepted in `matchExpressions[].operator`.
    fn from_expression(s: &str) -> Option<Operator> {
        match s {
            "In" => Some(Operator::In),
            "NotIn" => Some(Operator::NotIn),
            "Exists" => Some(Operator::Exists),
            "DoesNotExist" => Some(Operator::DoesNotExist),
            _ => None,
        }
    }
}

/// One validated requirement: key, operator and values (sorted, without duplicates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    key: String,
    operator: Operator,
    values: Vec<String>,
}

/// Where a requirement's parts came from, for error messages.
pub(crate) struct ReqPaths<'a> {
    pub key: &'a str,
    pub values: &'a str,
    /// true for the object form, where values are reported as `values[i]`.
    pub indexed_values: bool,
}

impl Requirement {
    /// Builds a requirement with `labels.NewRequirement`'s validation, reporting errors at `path`.
    pub fn new(
        key: &str,
        operator: Operator,
        values: Vec<String>,
        path: &str,
    ) -> Result<Requirement, SelectorError> {
        Self::with_paths(
            key,
            operator,
            values,
            &ReqPaths {
                key: path,
                values: path,
                indexed_values: false,
            },
        )
    }

    pub(crate) fn with_paths(
        key: &str,
        operator: Operator,
        mut values: Vec<String>,
        paths: &ReqPaths<'_>,
    ) -> Result<Requirement, SelectorError> {
        let errs = label_key_errors(key);
        if !errs.is_empty() {
            return Err(SelectorError::new(
                paths.key,
                format!("invalid label key {key:?}: {}", errs.join("; ")),
            ));
        }
        let count_error = match operator {
            Operator::In | Operator::NotIn if values.is_empty() => {
                Some("for 'in', 'notin' operators, values set can't be empty")
            }
            Operator::Equals | Operator::DoubleEquals | Operator::NotEquals
                if values.len() != 1 =>
            {
                Some("exact-match compatibility requires one single value")
            }
            Operator::Exists | Operator::DoesNotExist if !values.is_empty() => {
                Some("values set must be empty for exists and does not exist")
            }
            Operator::GreaterThan | Operator::LessThan if values.len() != 1 => {
                Some("for 'Gt', 'Lt' operators, exactly one value is required")
            }
            _ => None,
        };
        if let Some(msg) = count_error {
            return Err(SelectorError::new(paths.values, msg));
        }
        for (i, v) in values.iter().enumerate() {
            let at = if paths.indexed_values {
                json::index(paths.values, i)
            } else {
                paths.values.to_string()
            };
            if matches!(operator, Operator::GreaterThan | Operator::LessThan)
                && v.parse::<i64>().is_err()
            {
                return Err(SelectorError::new(
                    at,
                    format!("invalid value {v:?}: for 'Gt', 'Lt' operators, the value must be an integer"),
                ));
            }
            let errs = label_value_errors(v);
            if !errs.is_empty() {
                return Err(SelectorError::new(
                    at,
                    format!("invalid label value {v:?}: {}", errs.join("; ")),
                ));
            }
        }
        // A set, as in apimachinery: order and duplicates never matter for matching.
        values.sort();
        values.dedup();
        Ok(Requirement {
            key: key.to_string(),
            operator,
            values,
        })
    }

    /// The label key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The operator.
    pub fn operator(&self) -> Operator {
        self.operator
    }

    /// The values, sorted.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// `Requirement.Matches` from apimachinery.
    pub fn matches(&self, labels: &StringMap) -> bool {
        let got = labels.get(&self.key);
        let has_value = |v: &String| self.values.iter().any(|x| x == v);
        match self.operator {
            Operator::In | Operator::Equals | Operator::DoubleEquals => got.is_some_and(has_value),
            Operator::NotIn | Operator::NotEquals => !got.is_some_and(has_value),
            Operator::Exists => got.is_some(),
            Operator::DoesNotExist => got.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                // Go: ParseInt(label, 10, 64); a non-integer label never matches.
                let (Some(Ok(have)), [want]) =
                    (got.map(|v| v.parse::<i64>()), self.values.as_slice())
                else {
                    return false;
                };
                let Ok(want) = want.parse::<i64>() else {
                    return false;
                };
                if self.operator == Operator::GreaterThan {
                    have > want
                } else {
                    have < want
                }
            }
        }
    }
}

impl fmt::Display for Requirement {
    /// The string form `labels.Parse` reads back (`Requirement.String()`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = self.values.first().map(String::as_str).unwrap_or("");
        match self.operator {
            Operator::Exists => write!(f, "{}", self.key),
            Operator::DoesNotExist => write!(f, "!{}", self.key),
            Operator::Equals => write!(f, "{}={one}", self.key),
            Operator::DoubleEquals => write!(f, "{}=={one}", self.key),
            Operator::NotEquals => write!(f, "{}!={one}", self.key),
            Operator::GreaterThan => write!(f, "{}>{one}", self.key),
            Operator::LessThan => write!(f, "{}<{one}", self.key),
            Operator::In => write!(f, "{} in ({})", self.key, self.values.join(",")),
            Operator::NotIn => write!(f, "{} notin ({})", self.key, self.values.join(",")),
        }
    }
}

/// A validated label selector: requirements ANDed, sorted by key (as apimachinery sorts them).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector {
    requirements: Vec<Requirement>,
}

impl LabelSelector {
    /// The selector that matches every label set (`labels.Everything()`, `{}`).
    pub fn everything() -> LabelSelector {
        LabelSelector::default()
    }

    /// Builds a selector from requirements (sorted by key, stably).
    pub fn from_requirements(mut requirements: Vec<Requirement>) -> LabelSelector {
        requirements.sort_by(|a, b| a.key.cmp(&b.key));
        LabelSelector { requirements }
    }

    /// An equality selector from a `matchLabels` map; keys and values are validated, errors are
    /// reported at `path.<key>`.
    pub fn from_match_labels(
        labels: &StringMap,
        path: &str,
    ) -> Result<LabelSelector, SelectorError> {
        let mut reqs = Vec::with_capacity(labels.len());
        for (k, v) in labels {
            let at = json::join(path, k);
            let paths = ReqPaths {
                key: path,
                values: &at,
                indexed_values: false,
            };
            reqs.push(Requirement::with_paths(
                k,
                Operator::Equals,
                vec![v.clone()],
                &paths,
            )?);
        }
        Ok(LabelSelector::from_requirements(reqs))
    }

    /// Parses the string form like `labels.Parse` (`a=b,c!=d,e in (x,y),f notin (z),g,!h`).
    /// The empty string selects everything.
    pub fn parse(input: &str) -> Result<LabelSelector, SelectorError> {
        Self::parse_at(input, "")
    }

    /// [`LabelSelector::parse`], reporting errors at `path`.
    pub fn parse_at(input: &str, path: &str) -> Result<LabelSelector, SelectorError> {
        parse::parse(input, path).map(LabelSelector::from_requirements)
    }

    /// True when the selector has no requirements and so matches everything.
    pub fn is_everything(&self) -> bool {
        self.requirements.is_empty()
    }

    /// The requirements, sorted by key.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }

    /// True when every requirement matches `labels`.
    pub fn matches(&self, labels: &StringMap) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }
}

impl fmt::Display for LabelSelector {
    /// The canonical string form (`Selector.String()`): requirements joined by `,`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

const SELECTOR_FIELDS: &[&str] = &["matchLabels", "matchExpressions"];
const EXPRESSION_FIELDS: &[&str] = &["key", "operator", "values"];

/// Converts a `metav1.LabelSelector` object like `metav1.LabelSelectorAsSelector`. `{}` selects
/// everything. `null` is an error here: use [`optional_from_json`] where null means "no criterion".
/// Unknown fields are rejected (strict decoding), so a typo like `matchLabel` cannot silently
/// turn a selector into "everything".
pub fn from_json(value: &Value, field_path: &str) -> Result<LabelSelector, SelectorError> {
    let map = json::as_object(value, field_path)?;
    json::check_fields(map, field_path, SELECTOR_FIELDS)?;
    let labels_path = json::join(field_path, "matchLabels");
    let labels = json::string_map(json::field(map, "matchLabels"), &labels_path)?;
    let mut reqs = LabelSelector::from_match_labels(&labels, &labels_path)?.requirements;

    let exprs_path = json::join(field_path, "matchExpressions");
    for (i, expr) in json::list(map.get("matchExpressions"), &exprs_path)?
        .iter()
        .enumerate()
    {
        reqs.push(expression_from_json(expr, &json::index(&exprs_path, i))?);
    }
    Ok(LabelSelector::from_requirements(reqs))
}

/// `null` or absent → `Ok(None)` (no criterion); otherwise [`from_json`].
pub fn optional_from_json(
    value: Option<&Value>,
    field_path: &str,
) -> Result<Option<LabelSelector>, SelectorError> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => from_json(v, field_path).map(Some),
    }
}

fn expression_from_json(expr: &Value, path: &str) -> Result<Requirement, SelectorError> {
    let map = json::as_object(expr, path)?;
    json::check_fields(map, path, EXPRESSION_FIELDS)?;
    let key = json::string(map.get("key"), &json::join(path, "key"))?.unwrap_or("");
    let op_path = json::join(path, "operator");
    let op_text = json::string(map.get("operator"), &json::join(path, "operator"))?.unwrap_or("");
    let operator = Operator::from_expression(op_text).ok_or_else(|| {
        SelectorError::new(
            &op_path,
            format!(
                "unsupported operator {op_text:?} (expected In, NotIn, Exists or DoesNotExist)"
            ),
        )
    })?;
    let values_path = json::join(path, "values");
    let mut values = Vec::new();
    for (i, v) in json::list(map.get("values"), &values_path)?
        .iter()
        .enumerate()
    {
        values.push(json::string_item(v, &json::index(&values_path, i))?.to_string());
    }
    let key_path = json::join(path, "key");
    Requirement::with_paths(
        key,
        operator,
        values,
        &ReqPaths {
            key: &key_path,
            values: &values_path,
            indexed_values: true,
        },
    )
}

#[cfg(test)]
mod tests;
