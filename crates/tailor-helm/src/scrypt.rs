//! scrypt (RFC 7914), as golang.org/x/crypto/scrypt computes it, for `derivePassword`:
//! PBKDF2-HMAC-SHA256 with one iteration around ROMix of Salsa20/8 BlockMix.

use crate::hashes::hmac_sha256;

/// PBKDF2-HMAC-SHA256 with one iteration (all scrypt needs).
fn pbkdf2_once(password: &[u8], salt: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 32);
    let mut block = 1u32;
    while out.len() < len {
        let mut msg = salt.to_vec();
        msg.extend_from_slice(&block.to_be_bytes());
        out.extend_from_slice(&hmac_sha256(password, &msg));
        block += 1;
    }
    out.truncate(len);
    out
}

fn salsa20_8(b: &mut [u32; 16]) {
    let mut x = *b;
    for _ in 0..4 {
        for &(a, c, d, s) in &[
            (4, 0, 12, 7),
            (8, 4, 0, 9),
            (12, 8, 4, 13),
            (0, 12, 8, 18),
            (9, 5, 1, 7),
            (13, 9, 5, 9),
            (1, 13, 9, 13),
            (5, 1, 13, 18),
            (14, 10, 6, 7),
            (2, 14, 10, 9),
            (6, 2, 14, 13),
            (10, 6, 2, 18),
            (3, 15, 11, 7),
            (7, 3, 15, 9),
            (11, 7, 3, 13),
            (15, 11, 7, 18),
            (1, 0, 3, 7),
            (2, 1, 0, 9),
            (3, 2, 1, 13),
            (0, 3, 2, 18),
            (6, 5, 4, 7),
            (7, 6, 5, 9),
            (4, 7, 6, 13),
            (5, 4, 7, 18),
            (11, 10, 9, 7),
            (8, 11, 10, 9),
            (9, 8, 11, 13),
            (10, 9, 8, 18),
            (12, 15, 14, 7),
            (13, 12, 15, 9),
            (14, 13, 12, 13),
            (15, 14, 13, 18),
        ] {
            x[a] ^= x[c].wrapping_add(x[d]).rotate_left(s);
        }
    }
    for (bi, xi) in b.iter_mut().zip(x) {
        *bi = bi.wrapping_add(xi);
    }
}

/// BlockMix: `b` is 2r blocks of 16 words; the result's even blocks first, then the odd.
fn block_mix(b: &[u32], out: &mut [u32], r: usize) {
    let mut x = [0u32; 16];
    x.copy_from_slice(&b[(2 * r - 1) * 16..]);
    for i in 0..2 * r {
        for (xj, bj) in x.iter_mut().zip(&b[i * 16..(i + 1) * 16]) {
            *xj ^= bj;
        }
        salsa20_8(&mut x);
        let at = (i / 2 + (i % 2) * r) * 16;
        out[at..at + 16].copy_from_slice(&x);
    }
}

fn ro_mix(block: &mut [u8], n: usize, r: usize) {
    let words = 32 * r;
    let mut x: Vec<u32> = block
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut v = vec![0u32; n * words];
    let mut y = vec![0u32; words];
    for i in 0..n {
        v[i * words..(i + 1) * words].copy_from_slice(&x);
        block_mix(&x, &mut y, r);
        std::mem::swap(&mut x, &mut y);
    }
    for _ in 0..n {
        let j = x[(2 * r - 1) * 16] as usize & (n - 1);
        for (xi, vi) in x.iter_mut().zip(&v[j * words..(j + 1) * words]) {
            *xi ^= vi;
        }
        block_mix(&x, &mut y, r);
        std::mem::swap(&mut x, &mut y);
    }
    for (c, w) in block.chunks_mut(4).zip(x) {
        c.copy_from_slice(&w.to_le_bytes());
    }
}

/// `scrypt.Key(password, salt, N, r, p, keyLen)`; `n` a power of two.
pub fn key(password: &[u8], salt: &[u8], n: usize, r: usize, p: usize, len: usize) -> Vec<u8> {
    let mut b = pbkdf2_once(password, salt, p * 128 * r);
    for chunk in b.chunks_mut(128 * r) {
        ro_mix(chunk, n, r);
    }
    pbkdf2_once(password, &b, len)
}

#[cfg(test)]
mod tests {
    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// RFC 7914 §12, the first two test vectors.
    #[test]
    fn rfc7914_vectors() {
        assert_eq!(
            hex(&super::key(b"", b"", 16, 1, 1, 64)),
            "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
        );
        assert_eq!(
            hex(&super::key(b"password", b"NaCl", 1024, 8, 16, 64)),
            "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        );
    }
}
