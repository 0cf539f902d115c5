//! The three things Haven's selfsync.rs takes from the rest of its crate, written for this
//! harness: an `OsRng` that hands out queued bytes (so a seal is reproducible), `CoreError` /
//! `Result`, and `crypto::seal` / `crypto::open` with Haven's layout, nonce(12) ‖ ct ‖ tag(16),
//! AES-256-GCM with empty AAD, `open` refusing fewer than 28 bytes.
use std::cell::RefCell;
use std::collections::VecDeque;

thread_local! {
    static QUEUE: RefCell<VecDeque<u8>> = RefCell::new(VecDeque::new());
}

/// Queue the bytes the next `OsRng` draws return (a seal draws the salt, then the nonce).
pub fn push_random(bytes: &[u8]) {
    QUEUE.with(|q| q.borrow_mut().extend(bytes.iter().copied()));
}

pub fn queued() -> usize {
    QUEUE.with(|q| q.borrow().len())
}

pub struct OsRng;

impl rand::RngCore for OsRng {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        QUEUE.with(|q| {
            let mut q = q.borrow_mut();
            assert!(q.len() >= dest.len(), "harness: random bytes requested but not queued");
            for d in dest.iter_mut() {
                *d = q.pop_front().unwrap();
            }
        })
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> std::result::Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[derive(Debug)]
pub enum CoreError {
    Encoding(&'static str),
    Crypto(&'static str),
}

impl std::fmt::Display for CoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

pub type Result<T> = std::result::Result<T, CoreError>;

pub fn seal(key: &[u8; 32], plaintext: &[u8]) -> Vec<u8> {
    use rand::RngCore;
    let mut nonce = [0u8; 12];
    OsRng.fill_bytes(&mut nonce);
    let mut tag = [0u8; 16];
    let ct = openssl::symm::encrypt_aead(openssl::symm::Cipher::aes_256_gcm(), key, Some(&nonce), &[], plaintext, &mut tag)
        .expect("AES-256-GCM");
    let mut out = nonce.to_vec();
    out.extend_from_slice(&ct);
    out.extend_from_slice(&tag);
    out
}

pub fn open(key: &[u8; 32], sealed: &[u8]) -> Result<Vec<u8>> {
    if sealed.len() < 12 + 16 {
        return Err(CoreError::Crypto("sealed payload too short"));
    }
    let (nonce, rest) = sealed.split_at(12);
    let (ct, tag) = rest.split_at(rest.len() - 16);
    openssl::symm::decrypt_aead(openssl::symm::Cipher::aes_256_gcm(), key, Some(nonce), &[], ct, tag)
        .map_err(|_| CoreError::Crypto("AEAD open failed (tampered or wrong key)"))
}
