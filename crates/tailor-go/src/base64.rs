//! Go's `encoding/base64` standard encoding, as Kubernetes clients decode Secret `data` and
//! ConfigMap `binaryData` (`[]byte` fields): padding required, `\r` and `\n` ignored, and
//! Go's `CorruptInputError` offsets.

use std::fmt;

/// Go's `base64.CorruptInputError`: `illegal base64 data at input byte N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorruptInputError(pub usize);

impl fmt::Display for CorruptInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal base64 data at input byte {}", self.0)
    }
}

impl std::error::Error for CorruptInputError {}

fn b64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// `base64.StdEncoding.DecodeString`, quantum by quantum like Go's `decodeQuantum`, so that
/// error offsets agree.
pub fn decode_std(src: &[u8]) -> Result<Vec<u8>, CorruptInputError> {
    let is_nl = |c: u8| c == b'\n' || c == b'\r';
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0usize;
    loop {
        let mut dbuf = [0u8; 4];
        let mut dlen = 4;
        let mut j = 0usize;
        let mut done = false;
        while j < 4 {
            let Some(&c) = src.get(si) else {
                if j == 0 {
                    return Ok(out);
                }
                return Err(CorruptInputError(si.saturating_sub(j)));
            };
            si += 1;
            if let Some(v) = b64_value(c) {
                dbuf[j] = v;
                j += 1;
                continue;
            }
            if is_nl(c) {
                continue;
            }
            if c != b'=' || j < 2 {
                return Err(CorruptInputError(si - 1));
            }
            if j == 2 {
                while src.get(si).is_some_and(|&c| is_nl(c)) {
                    si += 1;
                }
                match src.get(si) {
                    None => return Err(CorruptInputError(src.len())),
                    Some(&b'=') => si += 1,
                    Some(_) => return Err(CorruptInputError(si - 1)),
                }
            }
            while src.get(si).is_some_and(|&c| is_nl(c)) {
                si += 1;
            }
            if si < src.len() {
                return Err(CorruptInputError(si));
            }
            dlen = j;
            done = true;
            break;
        }
        let val = (u32::from(dbuf[0]) << 18)
            | (u32::from(dbuf[1]) << 12)
            | (u32::from(dbuf[2]) << 6)
            | u32::from(dbuf[3]);
        let bytes = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
        out.extend_from_slice(bytes.get(..dlen.saturating_sub(1)).unwrap_or(&[]));
        if done {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_as_go() {
        assert_eq!(decode_std(b"cHJvZA==").unwrap(), b"prod");
        assert_eq!(decode_std(b"cHJv\nZA==").unwrap(), b"prod");
        assert_eq!(decode_std(b"YWJj").unwrap(), b"abc");
        assert_eq!(decode_std(b"").unwrap(), b"");
        assert_eq!(decode_std(b"YQ==").unwrap(), b"a");
        assert_eq!(decode_std(b"YQ=").unwrap_err(), CorruptInputError(3));
        assert_eq!(decode_std(b"YQ").unwrap_err(), CorruptInputError(0));
        assert_eq!(decode_std(b"Y").unwrap_err(), CorruptInputError(0));
        assert_eq!(decode_std(b"YW!j").unwrap_err(), CorruptInputError(2));
        assert_eq!(decode_std(b"YQ==YQ==").unwrap_err(), CorruptInputError(4));
        assert_eq!(decode_std(b"!!").unwrap_err(), CorruptInputError(0));
        assert_eq!(
            CorruptInputError(4).to_string(),
            "illegal base64 data at input byte 4"
        );
    }
}
