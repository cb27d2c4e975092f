//! Standard base64 decoding for ConfigMap `binaryData`, as Go's `encoding/json` decodes `[]byte`
//! (`base64.StdEncoding`: padding required, `\r` and `\n` ignored). Hand-written to stay
//! dependency-free; it is twenty lines.

fn sextet(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

/// Decodes `input`, or says why it is not standard padded base64.
pub(crate) fn decode(input: &str) -> Result<Vec<u8>, String> {
    let bytes: Vec<u8> = input
        .bytes()
        .filter(|b| *b != b'\r' && *b != b'\n')
        .collect();
    if bytes.len() % 4 != 0 {
        return Err("illegal base64 data: length is not a multiple of 4".to_string());
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let chunks = bytes.len() / 4;
    for (i, chunk) in bytes.chunks(4).enumerate() {
        let pad = chunk.iter().rev().take_while(|b| **b == b'=').count();
        if pad > 2 || (pad > 0 && i + 1 != chunks) {
            return Err(format!("illegal base64 data at input byte {}", i * 4));
        }
        let mut acc: u32 = 0;
        for (j, b) in chunk.iter().enumerate() {
            let v = if j >= 4 - pad {
                0
            } else {
                sextet(*b)
                    .ok_or_else(|| format!("illegal base64 data at input byte {}", i * 4 + j))?
            };
            acc = (acc << 6) | v;
        }
        let [_, b0, b1, b2] = acc.to_be_bytes();
        out.extend_from_slice(&[b0, b1, b2][..3 - pad]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn decodes_padded_input() {
        assert_eq!(decode("").unwrap(), b"");
        assert_eq!(decode("Zg==").unwrap(), b"f");
        assert_eq!(decode("Zm8=").unwrap(), b"fo");
        assert_eq!(decode("Zm9v").unwrap(), b"foo");
        assert_eq!(decode("MTAwMS1kZWFkLWJlZWY=").unwrap(), b"1001-dead-beef");
        assert_eq!(decode("Zm9v\nYmFy\r\n").unwrap(), b"foobar");
        assert_eq!(decode("//79").unwrap(), [0xff, 0xfe, 0xfd]);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(decode("Zg").is_err()); // missing padding
        assert!(decode("Zg=a").is_err());
        assert!(decode("Z===").is_err());
        assert!(decode("Zg==Zg==").is_err()); // padding in the middle
        assert!(decode("Zm9*").is_err());
        assert!(decode("Zm9v YmFy").is_err());
    }
}
