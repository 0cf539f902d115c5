import Primitives

/// The notebook body's contribution to its leaf: content, never residency (seed 002 §7).
///
/// A resident body contributes `noteBodyDigest(body)`; an offloaded one contributes the
/// `contentHash` stamped from that same digest before the body was cleared. So offloading,
/// un-offloading and naming another holder never move the leaf.
public enum NotebookBody {
    public static let separator = "pixie.notebook.body"

    /// SHA-256("pixie.notebook.body" || 0x00 || UTF-8 body).
    public static func digest(_ body: String) -> SHA256Digest {
        var h = SHA256()
        h.update(Array(separator.utf8))
        h.update(CollectionOfOne(UInt8(0)))
        var b = body
        b.withUTF8 { h.update(UnsafeRawBufferPointer($0)) }
        return h.finalize()
    }

    /// The 32 bytes the leaf commits for this row's body.
    static func contribution(_ row: Row) throws(WireError) -> SHA256Digest {
        if case .bool(true)? = row["bodyOffloaded"], !Mutant.on(.offloadedBodyHashedAsText) {
            guard case .bytes(let h)? = row["contentHash"], let d = SHA256Digest(bytes: h) else {
                throw WireError(.notebookOffloadedWithoutHash, "an offloaded note must carry its 32-byte contentHash", field: "contentHash")
            }
            return d
        }
        guard case .text(let body)? = row["body"] else { return digest("") }
        return digest(body)
    }

    /// `markOffloaded` (SPEC §4.6, R4.6-3): an offloaded row is refused, then a contentHash that is
    /// not 32 bytes, then one that is not noteBodyDigest(body); otherwise the hash is stamped, the
    /// body cleared and the holder set (a stale holder removed when none is given). `updatedAt` is
    /// untouched: residency is not an edit.
    public static func markOffloaded(_ row: Row, contentHash: [UInt8], holder: [UInt8]?) throws(WireError) -> Row {
        guard row.namespace == .notebook else {
            throw WireError(.unknownNamespace, "markOffloaded applies to notebook rows", field: "row")
        }
        func checkLength() throws(WireError) {
            guard contentHash.count == 32 else {
                throw WireError(.inputBadLength, "contentHash must be 32 bytes, got \(contentHash.count)", field: "contentHash")
            }
        }
        if Mutant.on(.markOffloadedLengthFirst) { try checkLength() }
        if case .bool(true)? = row["bodyOffloaded"] {
            throw WireError(.inputBadValue, "the note is already offloaded", field: "row.bodyOffloaded")
        }
        try checkLength()
        guard case .text(let body)? = row["body"], digest(body).bytes == contentHash || Mutant.on(.markOffloadedSkipsHashCheck) else {
            throw WireError(.notebookOffloadHashMismatch, "contentHash does not equal noteBodyDigest(body)", field: "contentHash")
        }
        var out = row
        out["contentHash"] = .bytes(contentHash)
        out["bodyOffloaded"] = .bool(true)
        if holder != nil || !Mutant.on(.markOffloadedKeepsStaleHolder) { out["offloadHolderPubkey"] = holder.map { .bytes($0) } }
        out["body"] = .text("")
        if Mutant.on(.markOffloadedBumpsUpdatedAt), case .date(let t)? = out["updatedAt"] { out["updatedAt"] = .date(t &+ 1000) }  // wrapping: a mutant must not trap on the battery's extremes
        return out
    }
}
