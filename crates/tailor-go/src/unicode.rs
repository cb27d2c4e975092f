//! Go's `unicode` predicates and case mappings, and `go/token.IsIdentifier`, from the general
//! category tables in `unicode_tables.rs` (Rust's `char` methods use wider properties, which
//! would accept names and characters Go rejects).

use crate::unicode_tables::{DECIMAL_DIGIT, GRAPHIC, LETTER};

fn in_table(table: &[(u32, u32)], c: u32) -> bool {
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `unicode.IsLetter` (category L).
pub fn is_letter(r: char) -> bool {
    if r.is_ascii() {
        return r.is_ascii_alphabetic();
    }
    in_table(LETTER, r as u32)
}

/// `unicode.IsDigit` (category Nd).
pub fn is_digit(r: char) -> bool {
    if r.is_ascii() {
        return r.is_ascii_digit();
    }
    in_table(DECIMAL_DIGIT, r as u32)
}

/// `unicode.IsPrint`: categories L, M, N, P, S and the ASCII space (no other space).
pub fn is_print(r: u32) -> bool {
    if r < 0x80 {
        return (0x20..0x7F).contains(&r);
    }
    in_table(GRAPHIC, r)
}

/// `unicode.ToUpper`: the simple (one rune to one rune) mapping.
///
/// Rust only exposes the full mapping. The two agree except for the SpecialCasing entries, where
/// the full mapping is several runes; there the simple mapping is the rune itself, apart from the
/// Greek iota-subscript forms handled below.
pub fn to_upper(r: char) -> char {
    let mut it = r.to_uppercase();
    match (it.next(), it.next()) {
        (Some(u), None) => u,
        _ => greek_iota_upper(r).unwrap_or(r),
    }
}

/// `unicode.ToLower`, the simple mapping (`İ` -> `i`, not `i̇`).
pub fn to_lower(r: char) -> char {
    let mut it = r.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        _ if r == '\u{130}' => 'i',
        _ => r,
    }
}

/// Simple uppercase of the lowercase Greek letters with ypogegrammeni (UnicodeData.txt), whose
/// full uppercase is two runes.
fn greek_iota_upper(r: char) -> Option<char> {
    let c = r as u32;
    let mapped = match c {
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => c + 8,
        0x1FB3 => 0x1FBC,
        0x1FC3 => 0x1FCC,
        0x1FF3 => 0x1FFC,
        _ => return None,
    };
    char::from_u32(mapped)
}

/// The 25 Go keywords; predeclared names (`true`, `nil`, `int`) are identifiers.
const KEYWORDS: [&str; 25] = [
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

/// `go/token.IsIdentifier(name)`: non-empty, not a keyword, a letter or `_` first, then letters,
/// `_` or decimal digits. KubeStellar makes a label, annotation or ConfigMap key a template
/// property only when this holds, because a template can only say `{{.key}}` for identifiers.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if KEYWORDS.contains(&name) {
        return false;
    }
    (first == '_' || is_letter(first)) && chars.all(|c| c == '_' || is_letter(c) || is_digit(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_as_go_reads_them() {
        assert!(is_letter('é') && is_letter('ß') && !is_letter('²') && !is_letter('Ⅳ'));
        assert!(is_digit('٣') && !is_digit('²') && !is_digit('Ⅳ'));
        // Go's IsPrint: the ASCII space only; no-break space, controls, format characters and
        // private use are not printable.
        assert!(is_print(' ' as u32) && is_print('é' as u32) && is_print('€' as u32));
        for r in [
            0x7F, 0xA0, 0xAD, 0x200B, 0x2028, 0xFEFF, 0xE000, 0xFFFE, 0x10FFFF,
        ] {
            assert!(!is_print(r), "{r:#x}");
        }
    }

    #[test]
    fn reference_examples() {
        // KubeStellar's property names, checked against Go.
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
            assert!(is_identifier(ok), "{ok}");
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
            assert!(!is_identifier(bad), "{bad}");
        }
    }

    #[test]
    fn every_keyword_is_rejected() {
        for k in KEYWORDS {
            assert!(!is_identifier(k), "{k}");
            assert!(is_identifier(&format!("{k}_")), "{k}_");
        }
    }

    #[test]
    fn digits_only_after_the_first_rune() {
        assert!(is_identifier("a٣")); // ARABIC-INDIC DIGIT THREE is Nd
        assert!(!is_identifier("٣a"));
        assert!(is_identifier("x𝟘")); // MATHEMATICAL DOUBLE-STRUCK DIGIT ZERO
        assert!(!is_identifier("a²")); // superscript two is No, not Nd
        assert!(!is_identifier("aⅣ")); // Roman numeral four is Nl, not a letter in Go
        assert!(!is_identifier("Ⅳ"));
    }

    #[test]
    fn simple_case_mappings() {
        assert_eq!(to_upper('ß'), 'ß');
        assert_eq!(to_upper('\u{1F80}'), '\u{1F88}');
        assert_eq!(to_lower('İ'), 'i');
    }
}
