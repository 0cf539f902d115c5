import Primitives

/// `sync_offer` (SPEC.md §7.2): the sibling's answer, naming a sealed snapshot on blob-svc and the
/// secrets to open it.
///
/// The offer travels inside the end-to-end sealed, MAC'd envelope; the blob travels over an
/// unauthenticated GET. `sha256` is therefore the one thing an operator who can rewrite the blob
/// cannot rewrite, and the receiver checks it before it decrypts anything.
public struct SyncOffer: Sendable, Hashable {
    public static let blobIDByteCount = 32

    /// blob-svc's name for the blob, which is also the capability to fetch it.
    public var blobID: [UInt8]
    public var key: [UInt8]
    public var nonce: [UInt8]
    /// SHA-256 of the blob exactly as stored (ciphertext || tag).
    public var sha256: [UInt8]
    /// The blob's length in bytes (ciphertext || tag).
    public var sizeBytes: UInt64

    public init(blobID: [UInt8], key: [UInt8], nonce: [UInt8], sha256: [UInt8], sizeBytes: UInt64) {
        self.blobID = blobID
        self.key = key
        self.nonce = nonce
        self.sha256 = sha256
        self.sizeBytes = sizeBytes
    }

    /// The members in table order (SPEC.md §7.2), `type` aside; the encoding order differs.
    static let fields: [(String, PayloadShape)] = [("blob_id", .bytes(blobIDByteCount)), ("key", .bytes(AES256GCM.keyByteCount)),
                                                   ("nonce", .bytes(AES256GCM.nonceByteCount)), ("sha256", .bytes(SHA256.byteCount)), ("size_bytes", .uint)]

    public var tree: CBOR {
        .object([("type", .text(SyncPayloadType.syncOffer.rawValue)), ("blob_id", .bytes(blobID)), ("key", .bytes(key)),
                 ("nonce", .bytes(nonce)), ("sha256", .bytes(sha256)), ("size_bytes", .unsigned(sizeBytes))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SyncOffer {
        let r = try SyncMapReader(bytes, tag: .syncOffer, fields: fields)
        return SyncOffer(blobID: r.bytes("blob_id"), key: r.bytes("key"), nonce: r.bytes("nonce"), sha256: r.bytes("sha256"), sizeBytes: r.unsigned("size_bytes"))
    }
}
