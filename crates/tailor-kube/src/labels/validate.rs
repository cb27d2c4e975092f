//! Label key and value syntax, as apimachinery's `validation.IsQualifiedName` and
//! `IsValidLabelValue`. Hand-written matchers instead of regexes keep the crate dependency-free;
//! the regexes they implement are quoted in the messages, exactly as apimachinery words them.

const QUALIFIED_NAME_MAX: usize = 63;
const LABEL_VALUE_MAX: usize = 63;
const DNS1123_SUBDOMAIN_MAX: usize = 253;

const QUALIFIED_NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const DNS1123_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, anchored; ASCII only, like Go's regexp classes.
fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_alphanumeric()
                && l.is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// One DNS-1123 label: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn is_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    let lower_alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            lower_alnum(f) && lower_alnum(l) && b.iter().all(|c| lower_alnum(c) || *c == b'-')
        }
        _ => false,
    }
}

fn dns1123_subdomain_errors(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(format!(
            "must be no more than {DNS1123_SUBDOMAIN_MAX} characters"
        ));
    }
    if !s.split('.').all(is_dns1123_label) {
        errs.push(DNS1123_MSG.to_string());
    }
    errs
}

/// The messages `IsQualifiedName` would return; empty when `key` is a valid label key.
pub(crate) fn label_key_errors(key: &str) -> Vec<String> {
    let parts: Vec<&str> = key.split('/').collect();
    let mut errs = Vec::new();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    dns1123_subdomain_errors(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name {QUALIFIED_NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > QUALIFIED_NAME_MAX {
        errs.push(format!(
            "name part must be no more than {QUALIFIED_NAME_MAX} characters"
        ));
    }
    if !is_qualified_name_part(name) {
        errs.push(format!("name part {QUALIFIED_NAME_MSG}"));
    }
    errs
}

/// The messages `IsValidLabelValue` would return; empty when `value` is valid ("" is valid).
pub(crate) fn label_value_errors(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX {
        errs.push(format!("must be no more than {LABEL_VALUE_MAX} characters"));
    }
    if !value.is_empty() && !is_qualified_name_part(value) {
        errs.push(LABEL_VALUE_MSG.to_string());
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_keys() {
        for k in [
            "a",
            "A1",
            "app.kubernetes.io/name",
            "management.cattle.io/cluster-display-name",
            "x_y.z-w",
            "example.com/MyName",
            &"a".repeat(63),
        ] {
            assert!(label_key_errors(k).is_empty(), "{k}");
        }
    }

    #[test]
    fn invalid_keys() {
        assert_eq!(label_key_errors("/a"), ["prefix part must be non-empty"]);
        assert_eq!(
            label_key_errors("a/"),
            [
                "name part must be non-empty",
                &format!("name part {QUALIFIED_NAME_MSG}")
            ]
        );
        assert!(label_key_errors("")[0].starts_with("name part must be non-empty"));
        assert!(label_key_errors("a/b/c")[0].starts_with("a qualified name"));
        assert!(label_key_errors("-a")[0].starts_with("name part must consist"));
        assert!(label_key_errors("a-")[0].starts_with("name part must consist"));
        assert!(label_key_errors("a b")[0].starts_with("name part must consist"));
        assert!(
            label_key_errors("Example.com/x")[0].starts_with("prefix part a lowercase RFC 1123")
        );
        assert!(label_key_errors("ex..com/x")[0].starts_with("prefix part a lowercase RFC 1123"));
        assert_eq!(
            label_key_errors(&"a".repeat(64)),
            ["name part must be no more than 63 characters"]
        );
        let long_prefix = format!("{}/x", "a".repeat(254));
        assert_eq!(
            label_key_errors(&long_prefix),
            ["prefix part must be no more than 253 characters"]
        );
        assert!(!label_key_errors("ä").is_empty());
    }

    #[test]
    fn values() {
        for v in ["", "a", "1001-dead-beef", "a.b_c-d", &"v".repeat(63)] {
            assert!(label_value_errors(v).is_empty(), "{v}");
        }
        assert_eq!(
            label_value_errors(&"v".repeat(64)),
            ["must be no more than 63 characters"]
        );
        for v in ["-a", "a-", "a b", "a/b", "é", "_a"] {
            assert_eq!(label_value_errors(v), [LABEL_VALUE_MSG], "{v}");
        }
    }
}
