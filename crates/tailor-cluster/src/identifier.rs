//! `go/token.IsIdentifier`: KubeStellar only turns a label, annotation or ConfigMap key into a
//! template property when this is true, because Go templates can only say `{{.key}}` for
//! identifiers (`location-group`, `kubernetes.io/x` and `type` are skipped).

/// The 25 Go keywords; predeclared names (`true`, `nil`, `int`) are identifiers.
const GO_KEYWORDS: [&str; 25] = [
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// First code points of the Unicode 15.0 decimal-digit (`Nd`) runs, each ten long — the table
/// Go 1.25's `unicode.IsDigit` uses. Rust has no stable general-category query, and
/// `char::is_numeric` also accepts `Nl`/`No` (`Ⅳ`, `²`), which Go rejects.
const ND_STARTS: &[u32] = &[
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
    0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x11F50, 0x16A60,
    0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E4F0,
    0x1E950, 0x1FBF0,
];

/// `unicode.IsDigit`: a decimal digit (`Nd`).
fn is_go_digit(c: char) -> bool {
    let cp = u32::from(c);
    if cp < 0x80 {
        return c.is_ascii_digit();
    }
    ND_STARTS
        .iter()
        .any(|&start| cp >= start && cp < start + 10)
}

/// `unicode.IsLetter` (categories `L*`), approximated as Unicode `Alphabetic` minus numbers.
/// Exact for ASCII and for ordinary letters in every script; it differs from Go only on the
/// `Other_Alphabetic` marks and symbols (combining vowel signs, circled letters), which Go rejects.
fn is_go_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    c.is_alphabetic() && !c.is_numeric()
}

/// `go/token.IsIdentifier(name)`: non-empty, not a keyword, a letter or `_` first, then letters,
/// `_` or decimal digits.
pub fn is_go_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if GO_KEYWORDS.contains(&name) {
        return false;
    }
    (first == '_' || is_go_letter(first))
        && chars.all(|c| c == '_' || is_go_letter(c) || is_go_digit(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_examples() {
        // docs/semantics/kubestellar.md §3.5, checked against Go.
        for ok in [
            "region",
            "_",
            "a1",
            "x_y",
            "Ä",
            "clusterName",
            "true",
            "nil",
            "int",
            "Type",
            "日本",
        ] {
            assert!(is_go_identifier(ok), "{ok}");
        }
        for bad in [
            "1a",
            "location-group",
            "foo.bar",
            "kubernetes.io/x",
            "type",
            "func",
            "",
            " a",
            "a b",
            "$x",
        ] {
            assert!(!is_go_identifier(bad), "{bad}");
        }
    }

    #[test]
    fn every_keyword_is_rejected() {
        for k in GO_KEYWORDS {
            assert!(!is_go_identifier(k), "{k}");
            assert!(is_go_identifier(&format!("{k}_")), "{k}_");
        }
    }

    #[test]
    fn digits_only_after_the_first_rune() {
        assert!(is_go_identifier("a٣")); // ARABIC-INDIC DIGIT THREE is Nd
        assert!(!is_go_identifier("٣a"));
        assert!(is_go_identifier("x𝟘")); // MATHEMATICAL DOUBLE-STRUCK DIGIT ZERO
        assert!(!is_go_identifier("a²")); // superscript two is No, not Nd
        assert!(!is_go_identifier("aⅣ")); // Roman numeral four is Nl, not a letter in Go
        assert!(!is_go_identifier("Ⅳ"));
    }

    #[test]
    fn digit_table_is_consistent() {
        for start in ND_STARTS {
            for cp in *start..start + 10 {
                let c = char::from_u32(cp).unwrap();
                assert!(c.is_numeric(), "{cp:#x}");
                assert!(!c.is_alphabetic(), "{cp:#x}");
            }
        }
    }
}
