//! sprig's `derivePassword` (v3.3.0 `crypto.go`): Master Password's algorithm. The user's
//! name salts scrypt (golang.org/x/crypto/scrypt, N=32768, r=8, p=2, 64 bytes) over the
//! master password; HMAC-SHA256 of the site and counter under that key picks a template of
//! the password type and each of its characters. Deterministic: the same inputs give the
//! same password on every run.

use crate::hashes::hmac_sha256;
use std::cell::RefCell;

const SEED: &[u8] = b"com.lyndir.masterpassword";

fn templates(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "maximum" => &["anoxxxxxxxxxxxxxxxxx", "axxxxxxxxxxxxxxxxxno"],
        "long" => &[
            "CvcvnoCvcvCvcv",
            "CvcvCvcvnoCvcv",
            "CvcvCvcvCvcvno",
            "CvccnoCvcvCvcv",
            "CvccCvcvnoCvcv",
            "CvccCvcvCvcvno",
            "CvcvnoCvccCvcv",
            "CvcvCvccnoCvcv",
            "CvcvCvccCvcvno",
            "CvcvnoCvcvCvcc",
            "CvcvCvcvnoCvcc",
            "CvcvCvcvCvccno",
            "CvccnoCvccCvcv",
            "CvccCvccnoCvcv",
            "CvccCvccCvcvno",
            "CvcvnoCvccCvcc",
            "CvcvCvccnoCvcc",
            "CvcvCvccCvccno",
            "CvccnoCvcvCvcc",
            "CvccCvcvnoCvcc",
            "CvccCvcvCvccno",
        ],
        "medium" => &["CvcnoCvc", "CvcCvcno"],
        "short" => &["Cvcn"],
        "basic" => &["aaanaaan", "aannaaan", "aaannaaa"],
        "pin" => &["nnnn"],
        _ => return None,
    })
}

fn characters(class: u8) -> &'static [u8] {
    match class {
        b'V' => b"AEIOU",
        b'C' => b"BCDFGHJKLMNPQRSTVWXYZ",
        b'v' => b"aeiou",
        b'c' => b"bcdfghjklmnpqrstvwxyz",
        b'A' => b"AEIOUBCDFGHJKLMNPQRSTVWXYZ",
        b'a' => b"AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz",
        b'n' => b"0123456789",
        b'o' => b"@&%?,=[]_:-+*$#!'^~;()/.",
        _ => b"AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()",
    }
}

/// `SEED`, the length of `part` as a big-endian uint32, then `part`.
fn seeded(part: &str) -> Vec<u8> {
    let mut b = SEED.to_vec();
    b.extend_from_slice(&(part.len() as u32).to_be_bytes());
    b.extend_from_slice(part.as_bytes());
    b
}

/// The scrypt key of a master password and user. Charts derive several site passwords from
/// one master password, and each scrypt costs 32 MB and tens of milliseconds, so the last
/// key is kept (per thread, as renders run on their own threads).
fn master_key(password: &str, user: &str) -> Vec<u8> {
    thread_local! {
        static LAST: RefCell<Option<(String, String, Vec<u8>)>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((p, u, key)) = last.as_ref() {
            if p == password && u == user {
                return key.clone();
            }
        }
        let key = crate::scrypt::key(password.as_bytes(), &seeded(user), 32768, 8, 2, 64);
        *last = Some((password.to_string(), user.to_string(), key.clone()));
        key
    })
}

/// `derivePassword COUNTER TYPE PASSWORD USER SITE`.
pub fn derive(counter: u32, kind: &str, password: &str, user: &str, site: &str) -> String {
    let Some(templates) = templates(kind) else {
        return format!("cannot find password template {kind}");
    };
    let key = master_key(password, user);
    let mut msg = seeded(site);
    msg.extend_from_slice(&counter.to_be_bytes());
    let seed = hmac_sha256(&key, &msg);
    let template = templates[usize::from(seed[0]) % templates.len()];
    template
        .bytes()
        .enumerate()
        .map(|(i, class)| {
            let chars = characters(class);
            char::from(chars[usize::from(seed[i + 1]) % chars.len()])
        })
        .collect()
}
