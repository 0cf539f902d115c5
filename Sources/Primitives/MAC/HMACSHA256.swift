/// HMAC-SHA-256 (RFC 2104, FIPS 198-1), incremental, built on the project's `SHA256`.
///
/// Why it looks like this: HKDF (RFC 5869) keys one HMAC with the PRK and then MACs up to 255
/// short blocks, so the keyed state is a plain value that can be copied: `init(key:)` absorbs
/// `K ⊕ ipad` into the inner hasher and `K ⊕ opad` into the outer one once (RFC 2104 §2, steps
/// 1–2 and 5), and each copy only hashes the message. The padded key lives in a tuple on the
/// stack, never in an `Array`.
public struct HMACSHA256: Sendable {
    /// Output length of HMAC-SHA-256 in bytes (L in RFC 2104).
    public static let byteCount = 32
    /// Block length of SHA-256 in bytes (B in RFC 2104).
    public static let blockByteCount = 64

    private var inner: SHA256
    private var outer: SHA256

    /// Keys the MAC. A key longer than the 64-byte block is first hashed (RFC 2104 §3); a shorter
    /// one is zero-padded to the block (RFC 2104 §2, step 1). Any key length, including zero, is
    /// allowed by the RFC, so this initializer cannot fail.
    public init<K: Collection>(key: K) where K.Element == UInt8 {
        var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        var inner = SHA256()
        var outer = SHA256()
        withUnsafeMutableBytes(of: &block) { buf in
            let keyCount = key.count
            if keyCount > HMACSHA256.blockByteCount {
                SHA256.hash(key).write(to: buf.baseAddress!)
            } else {
                var i = 0
                for b in key { buf[i] = b; i += 1 }
            }
            for i in 0..<64 { buf[i] ^= 0x36 }
            inner.update(UnsafeRawBufferPointer(buf))
            // (K ⊕ ipad) ⊕ (ipad ⊕ opad) = K ⊕ opad
            for i in 0..<64 { buf[i] ^= 0x36 ^ 0x5c }
            outer.update(UnsafeRawBufferPointer(buf))
            // Best-effort wipe of the padded key copy on the stack.
            for i in 0..<64 { buf[i] = 0 }
        }
        self.inner = inner
        self.outer = outer
    }

    /// Absorbs message bytes.
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        inner.update(bytes)
    }

    /// Absorbs raw message bytes.
    public mutating func update(_ raw: UnsafeRawBufferPointer) {
        inner.update(raw)
    }

    /// Finishes the MAC: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ text)) (RFC 2104 §2). Returns 32 bytes.
    /// The value should not be used afterwards.
    public mutating func finalize() -> [UInt8] {
        let innerDigest = inner.finalize()
        var digestBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digestBytes) { buf in
            innerDigest.write(to: buf.baseAddress!)
            outer.update(UnsafeRawBufferPointer(buf))
        }
        return outer.finalize().bytes
    }

    /// One-shot HMAC-SHA-256 of `message` under `key`.
    public static func authenticationCode<M: Collection, K: Collection>(for message: M, key: K) -> [UInt8]
    where M.Element == UInt8, K.Element == UInt8 {
        var mac = HMACSHA256(key: key)
        mac.update(message)
        return mac.finalize()
    }

    /// True when `mac` is the full 32-byte HMAC-SHA-256 of `message` under `key`.
    ///
    /// The comparison runs in time independent of where the bytes differ (`ConstantTime.equal`),
    /// so a forger cannot learn a correct prefix byte by byte. Truncated MACs (RFC 2104 §5) are
    /// rejected here on purpose: a caller that wants truncation must compare the prefix it chose.
    public static func isValidAuthenticationCode(_ mac: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        ConstantTime.equal(authenticationCode(for: message, key: key), mac)
    }
}
