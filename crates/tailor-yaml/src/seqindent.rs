//! kyaml's `DeriveSeqIndentStyle`: a text heuristic over the first sequence element whose
//! key line can be found. kpt stores its answer in `internal.config.kubernetes.io/seqindent`
//! and writes files back with it, so tailor decides exactly the same way.

/// True for "wide" (`- ` indented two past its key), false for "compact".
pub fn derive_wide_sequences(text: &str) -> bool {
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let Some((prefix, _)) = line.split_once("- ") else {
            continue;
        };
        if !prefix.trim_matches(' ').is_empty() {
            continue;
        }
        let seq_spaces = prefix.len();
        let Some(key_line) = key_line_before(&lines, i) else {
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

fn key_line_before<'a>(lines: &[&'a str], idx: usize) -> Option<&'a str> {
    for line in lines[..idx].iter().rev() {
        if line.trim_matches(' ').starts_with('#') {
            continue;
        }
        return Some(line.split('#').next().unwrap_or(""));
    }
    None
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
    }
}
