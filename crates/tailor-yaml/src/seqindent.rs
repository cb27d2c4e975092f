//! kyaml's `DeriveSeqIndentStyle`: a text heuristic over the first sequence element whose
//! key line can be found. kpt stores its answer in `internal.config.kubernetes.io/seqindent`
//! and writes files back with it, so tailor decides exactly the same way. kyaml's reader
//! turns CRLF line breaks into LF before it looks (`kio.ByteReader`), so a `\r` before a line
//! break is not part of the line here either.

/// True for "wide" (`- ` indented two past its key), false for "compact".
///
/// Lines are visited as they come, not collected first: the answer is nearly always found at
/// the first sequence, and a ResourceList's own document is the whole input.
pub fn derive_wide_sequences(text: &str) -> bool {
    let mut line_start = 0;
    for line in text.split('\n') {
        let at = line_start;
        line_start += line.len() + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        let Some((prefix, _)) = line.split_once("- ") else {
            continue;
        };
        if !prefix.trim_matches(' ').is_empty() {
            continue;
        }
        let seq_spaces = prefix.len();
        let Some(key_line) = key_line_before(&text[..at]) else {
            continue;
        };
        let key_spaces = key_line.len() - key_line.trim_start_matches(' ').len();
        let trimmed = key_line.trim_matches(' ');
        if trimmed.matches(':').count() != 1 || !trimmed.ends_with(':') {
            continue;
        }
        if seq_spaces == key_spaces {
            return false;
        }
        if seq_spaces.checked_sub(key_spaces) == Some(2) {
            return true;
        }
    }
    false
}

/// The last line of `before` (the text up to the start of a line) that is not a comment, cut
/// at its first `#`. Each line it skips is a comment, so the walks back stay within the
/// comment lines right above a sequence line.
fn key_line_before(before: &str) -> Option<&str> {
    // `before` ends with the line break of the line above, unless it is empty.
    let mut rest = before.strip_suffix('\n')?;
    loop {
        let (head, line) = match rest.rfind('\n') {
            Some(i) => (Some(&rest[..i]), &rest[i + 1..]),
            None => (None, rest),
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if !line.trim_matches(' ').starts_with('#') {
            return Some(line.split('#').next().unwrap_or(""));
        }
        rest = head?;
    }
}

#[cfg(test)]
mod tests {
    use super::derive_wide_sequences;

    #[test]
    fn kyaml_heuristic() {
        assert!(derive_wide_sequences("a:\n  - x\n"));
        assert!(!derive_wide_sequences("a:\n- x\n"));
        assert!(!derive_wide_sequences("a:\n - x\n"));
        assert!(derive_wide_sequences("a:\n # c\n  - x\n"));
        assert!(!derive_wide_sequences("x: y\n"));
        // A line like `k: - v` is not a key line: keep looking.
        assert!(derive_wide_sequences("a: |\n  - x\nb:\n  - y\n"));
        // Comments above the first line, and a sequence on the first line.
        assert!(!derive_wide_sequences("# c\n# d\n- x\n"));
        assert!(derive_wide_sequences("# c\na:\n# d\n  # e\n  - x\n"));
    }

    /// kpt answers `wide` for a CRLF file indented so (corpus: kyverno's and argo-cd's
    /// testdata written on Windows); its reader turns CRLF into LF first.
    #[test]
    fn crlf_line_breaks_are_line_breaks() {
        assert!(derive_wide_sequences("a:\r\n  - x\r\n"));
        assert!(derive_wide_sequences(
            "spec:\r\n  containers:\r\n    # c\r\n    - name: x\r\n      image: y"
        ));
        assert!(!derive_wide_sequences("a:\r\n- x\r\n"));
    }
}
