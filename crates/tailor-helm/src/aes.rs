//! sprig's `decryptAES` (v3.3.0 `crypto.go`): AES-256 in CBC mode (FIPS-197 decryption, as
//! Go's `crypto/aes` and `crypto/cipher` compute it) over base64 text whose first block is
//! the IV, the password zero-padded or cut to 32 bytes as the key, the last byte's count
//! of padding removed. Go's panics on short or malformed input become the same texts as
//! errors. (`encryptAES` stays refused: it draws a random IV.)

/// The AES S-box and its inverse, computed from their definition (the multiplicative
/// inverse in GF(2^8) followed by the affine map) rather than typed in.
fn sboxes() -> ([u8; 256], [u8; 256]) {
    let mut sbox = [0u8; 256];
    let mut inv = [0u8; 256];
    for x in 0..=255u8 {
        let mut p = if x == 0 { 0 } else { 1u8 };
        for _ in 0..254 {
            if x != 0 {
                p = gmul(p, x);
            }
        }
        let s =
            p ^ p.rotate_left(1) ^ p.rotate_left(2) ^ p.rotate_left(3) ^ p.rotate_left(4) ^ 0x63;
        sbox[usize::from(x)] = s;
        inv[usize::from(s)] = x;
    }
    (sbox, inv)
}

fn gmul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        let hi = a & 0x80;
        a <<= 1;
        if hi != 0 {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    p
}

/// The 15 round keys of AES-256, each 16 bytes in state order.
fn expand_key(key: &[u8; 32], sbox: &[u8; 256]) -> Vec<[u8; 16]> {
    let mut w: Vec<[u8; 4]> = key.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    let mut rcon = 1u8;
    for i in 8..60 {
        let mut t = w[i - 1];
        if i % 8 == 0 {
            t = [t[1], t[2], t[3], t[0]].map(|b| sbox[usize::from(b)]);
            t[0] ^= rcon;
            rcon = gmul(rcon, 2);
        } else if i % 8 == 4 {
            t = t.map(|b| sbox[usize::from(b)]);
        }
        let prev = w[i - 8];
        w.push([
            prev[0] ^ t[0],
            prev[1] ^ t[1],
            prev[2] ^ t[2],
            prev[3] ^ t[3],
        ]);
    }
    w.chunks(4)
        .map(|ws| {
            let mut k = [0u8; 16];
            for (j, word) in ws.iter().enumerate() {
                k[4 * j..4 * j + 4].copy_from_slice(word);
            }
            k
        })
        .collect()
}

fn add_round_key(s: &mut [u8; 16], k: &[u8; 16]) {
    for (b, k) in s.iter_mut().zip(k) {
        *b ^= k;
    }
}

/// InvShiftRows then InvSubBytes (state byte `r + 4c` is row `r`, column `c`).
fn inv_shift_sub(s: &mut [u8; 16], inv: &[u8; 256]) {
    let old = *s;
    for r in 0..4 {
        for c in 0..4 {
            s[r + 4 * ((c + r) % 4)] = inv[usize::from(old[r + 4 * c])];
        }
    }
}

fn inv_mix_columns(s: &mut [u8; 16]) {
    for c in 0..4 {
        let a = [s[4 * c], s[4 * c + 1], s[4 * c + 2], s[4 * c + 3]];
        for r in 0..4 {
            s[4 * c + r] = gmul(a[r], 14)
                ^ gmul(a[(r + 1) % 4], 11)
                ^ gmul(a[(r + 2) % 4], 13)
                ^ gmul(a[(r + 3) % 4], 9);
        }
    }
}

fn decrypt_block(block: &[u8], keys: &[[u8; 16]], inv: &[u8; 256]) -> [u8; 16] {
    let mut s = [0u8; 16];
    s.copy_from_slice(block);
    add_round_key(&mut s, &keys[14]);
    for round in (1..14).rev() {
        inv_shift_sub(&mut s, inv);
        add_round_key(&mut s, &keys[round]);
        inv_mix_columns(&mut s);
    }
    inv_shift_sub(&mut s, inv);
    add_round_key(&mut s, &keys[0]);
    s
}

/// `decryptAES PASSWORD CRYPT64`.
pub fn decrypt(password: &str, crypt64: &str) -> Result<String, String> {
    if crypt64.is_empty() {
        return Ok(String::new());
    }
    let mut key = [0u8; 32];
    let n = password.len().min(32);
    key[..n].copy_from_slice(&password.as_bytes()[..n]);
    let crypt = tailor_go::base64::decode_std(crypt64.as_bytes()).map_err(|e| e.to_string())?;
    if crypt.len() < 16 {
        return Err(format!(
            "runtime error: slice bounds out of range [:16] with capacity {}",
            crypt.len()
        ));
    }
    let (iv, body) = crypt.split_at(16);
    if body.len() % 16 != 0 {
        return Err("crypto/cipher: input not full blocks".into());
    }
    let (sbox, inv) = sboxes();
    let keys = expand_key(&key, &sbox);
    let mut out = Vec::with_capacity(body.len());
    let mut prev = iv;
    for block in body.chunks(16) {
        let plain = decrypt_block(block, &keys, &inv);
        out.extend(plain.iter().zip(prev).map(|(p, c)| p ^ c));
        prev = block;
    }
    let pad = out.last().map_or(0, |&b| usize::from(b));
    let Some(end) = out.len().checked_sub(pad) else {
        return Err(format!(
            "runtime error: slice bounds out of range [:{}]",
            out.len() as i64 - pad as i64
        ));
    };
    Ok(String::from_utf8_lossy(&out[..end]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;

    /// FIPS-197 appendix C.3 (AES-256): key 00..1f, plaintext 00112233..ff.
    #[test]
    fn fips197_aes256_vector() {
        let (sbox, inv) = sboxes();
        let key: [u8; 32] = std::array::from_fn(|i| i as u8);
        let keys = expand_key(&key, &sbox);
        let ct = [
            0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf, 0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49,
            0x60, 0x89,
        ];
        let want: [u8; 16] = std::array::from_fn(|i| (i as u8) * 0x11);
        assert_eq!(decrypt_block(&ct, &keys, &inv), want);
    }

    /// Go 1.19's crypto/aes and crypto/cipher through sprig's encryptAES/decryptAES,
    /// recorded in tests/data/sprig/aes_go119.json (plaintexts, errors and panics).
    #[test]
    fn same_as_go() {
        let table: Json =
            serde_json::from_str(include_str!("../tests/data/sprig/aes_go119.json")).unwrap();
        for case in table["cases"].as_array().unwrap() {
            let (pw, crypt) = (
                case["password"].as_str().unwrap(),
                case["crypt"].as_str().unwrap(),
            );
            let want = match case.get("error") {
                Some(e) => Err(e.as_str().unwrap().to_string()),
                None => Ok(case["out"].as_str().unwrap().to_string()),
            };
            assert_eq!(decrypt(pw, crypt), want, "{pw} {crypt}");
        }
    }
}
