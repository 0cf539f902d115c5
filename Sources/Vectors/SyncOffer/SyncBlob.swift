import Primitives

/// The sealed snapshot blob (SPEC.md §7.5): `AES-256-GCM(key, nonce, plaintext, aad = "")`, stored
/// as `ciphertext || tag` with the 16-byte tag last.
///
/// Why a fresh key per blob and not the device's BackupKey: the BackupKey reaches other devices
/// only through iCloud Keychain, and the sibling this path serves may not share that custody. The
/// key rides inside the sealed offer instead; nothing else needs to be bound, so the AAD is empty.
public enum SyncBlob {
    /// The receiver's ceiling for a blob (ciphertext || tag): 256 MiB.
    public static let syncMaxBlobBytes: UInt64 = 268_435_456

    /// Seals a snapshot's encoding. `key` and `nonce` MUST be fresh random values for every blob
    /// (a repeated nonce under one key leaks the XOR of plaintexts and the GHASH key); vectors pass
    /// fixed ones drawn from a seeded generator.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(WireError) -> [UInt8] {
        guard key.count == AES256GCM.keyByteCount else { throw WireError(.inputBadLength, "key must be 32 bytes", field: "key") }
        guard nonce.count == AES256GCM.nonceByteCount else { throw WireError(.inputBadLength, "nonce must be 12 bytes", field: "nonce") }
        do {
            let sealed = try AES256GCM.seal(plaintext, key: key, nonce: nonce)
            return sealed.ciphertext + sealed.tag
        } catch {
            throw WireError(.inputBadValue, "AES-256-GCM refused: \(error)", field: "plaintext")
        }
    }

    /// Splits `ciphertext || tag` and opens it. Nil when the tag does not verify (no plaintext is
    /// released) or the blob is shorter than a tag.
    public static func open(_ blob: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard blob.count >= AES256GCM.tagByteCount else { return nil }
        let split = blob.count - AES256GCM.tagByteCount
        return try? AES256GCM.open(ciphertext: Array(blob[..<split]), tag: Array(blob[split...]), key: key, nonce: nonce)
    }

    /// The offer a sibling sends for a blob it uploaded as `blobID`.
    public static func offer(for blob: [UInt8], blobID: [UInt8], key: [UInt8], nonce: [UInt8]) -> SyncOffer {
        SyncOffer(blobID: blobID, key: key, nonce: nonce, sha256: SHA256.hash(blob).bytes, sizeBytes: UInt64(blob.count))
    }
}
