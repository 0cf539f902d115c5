/// A namespace's leaf schema: its stable cross-device sort key, its fields in fixed order, and the
/// fields it deliberately leaves out.
///
/// The governing rule (seed 002 §3): a field may be hashed only if the merge converges it. Every
/// excluded field below names the reason; SPEC.md prints this table.
public struct LeafSchema: Sendable {
    /// Rows a namespace never hashes at all.
    public enum DropRule: Sendable, Hashable {
        case none
        /// memory: rows whose `source` is exactly "calendar" are re-derived from EventKit on every
        /// device and minted with fresh ids each pass, so they are dropped from the leaf set (and on
        /// apply). SPEC §4.5.
        case calendarSource
        /// settings: a key with `tombstoned: true` is deleted and is not in the dictionary.
        case tombstoned
    }

    public var namespace: Namespace
    /// The field whose bytes order the leaves (a text key orders by its UTF-8 bytes).
    public var keyField: String
    public var fields: [FieldSpec]
    public var dropRule: DropRule

    public var committed: [FieldSpec] { fields.filter(\.isCommitted) }
    public var excluded: [FieldSpec] { fields.filter { !$0.isCommitted } }

    public func index(of name: String) -> Int? { fields.firstIndex { $0.name == name } }

    /// The byte length of every key of this namespace (SPEC §4.4), nil for settings (text keys).
    /// Tombstones and `vectors` keys of a response are checked against it (§5.3).
    public var keyLength: Int? {
        guard case .bytes(let n)? = fields.first(where: { $0.name == keyField })?.kind else { return nil }
        return n
    }

    /// Index of `keyField` in `fields`, per namespace, computed once.
    static let keyIndices: [Int] = all.map { $0.index(of: $0.keyField)! }

    public static func schema(for ns: Namespace) -> LeafSchema { all[ns.rawValueIndex] }

    // Shorthands for the table below.
    private static func c(_ name: String, _ kind: FieldKind, optional: Bool = false) -> FieldSpec {
        FieldSpec(name: name, kind: kind, optional: optional, role: .committed)
    }
    private static func x(_ name: String, _ kind: FieldKind, _ reason: String, optional: Bool = true) -> FieldSpec {
        FieldSpec(name: name, kind: kind, optional: optional, role: .excluded(reason: reason))
    }
    private static let id16 = FieldKind.bytes(length: 16)
    private static let h32 = FieldKind.bytes(length: 32)
    private static let localRowID = x("localRowID", .int, "a per-device database row id; the stable key identifies the row across devices")

    /// The thirteen schemas, in `Namespace.allCases` order.
    public static let all: [LeafSchema] = [
        LeafSchema(namespace: .settings, keyField: "key", fields: [
            c("key", .text),
            c("value", .text),
            x("versionVector", .versionVector, "per-key version vectors are merge metadata: two devices holding the same value may carry different vectors"),
            x("tombstoned", .bool, "a tombstoned key is deleted: it is left out of the dictionary, not hashed as a flag"),
        ], dropRule: .tombstoned),
        LeafSchema(namespace: .messages, keyField: "messageID", fields: [
            c("messageID", id16),
            c("conversationID", id16),
            c("peerUserIDHash", .normalizedHash),
            c("isOutgoing", .bool),
            c("senderName", .text, optional: true),
            c("body", .text),
            c("mediaJSON", .text, optional: true),
            c("reactions", .reactionSet),
            c("replyToID", id16, optional: true),
            c("sentAt", .date),
            c("editedAt", .date, optional: true),
            x("observedAt", .date, "when this device first saw the message: per-device by design"),
            x("peerPubkey", .bytes(length: nil), "rewritten per device to the locally pinned contact key (canonicalPeerPubkey); applyMessage never merges it, so hashing it diverges the digest forever"),
            localRowID,
            x("outboxState", .text, "the outbox is per-device delivery state"),
        ], dropRule: .none),
        LeafSchema(namespace: .memory, keyField: "eventID", fields: [
            c("eventID", id16),
            c("kind", .text),
            c("summary", .text),
            c("occurredAt", .date),
            c("source", .text),
            localRowID,
        ], dropRule: .calendarSource),
        LeafSchema(namespace: .notebook, keyField: "noteID", fields: [
            c("noteID", id16),
            c("title", .text),
            c("tags", .textSet),
            c("body", .noteBody),
            c("createdAt", .date),
            c("updatedAt", .date),
            x("bodyOffloaded", .bool, "residency, not content: whether this device holds the body bytes"),
            x("offloadHolderPubkey", .bytes(length: nil), "residency: which Homebase holds an offloaded body; two devices may name different holders"),
            x("contentHash", h32, "read only when bodyOffloaded is true, as the body's committed digest; never hashed as a field of its own"),
            localRowID,
        ], dropRule: .none),
        LeafSchema(namespace: .saga, keyField: "sagaID", fields: [
            c("sagaID", id16),
            c("title", .text),
            c("chapter", .uint),
            c("status", .text),
            c("summary", .text, optional: true),
            c("updatedAt", .date),
            localRowID,
        ], dropRule: .none),
        LeafSchema(namespace: .contacts, keyField: "userIDHash", fields: [
            c("userIDHash", h32),
            c("displayName", .text),
            c("handle", .text, optional: true),
            c("verified", .bool),
            c("blocked", .bool),
            c("addedAt", .date),
            x("systemContactIdentifier", .text, "an address-book identifier local to one device's Contacts database"),
            x("mlsCursor", .uint, "a per-device MLS cursor (epoch/generation this device has processed)"),
            localRowID,
        ], dropRule: .none),
        LeafSchema(namespace: .plans, keyField: "planID", fields: [
            c("planID", id16),
            c("title", .text),
            c("stepsJSON", .text),
            c("status", .text),
            c("priority", .int),
            c("dueAt", .date, optional: true),
            c("updatedAt", .date),
            localRowID,
        ], dropRule: .none),
        LeafSchema(namespace: .peerDevices, keyField: "deviceID", fields: [
            c("deviceID", h32),
            c("name", .text),
            c("family", .text),
            c("addedAt", .date),
            c("revoked", .bool),
            x("lastSeenAt", .date, "when this device last heard from the peer: a per-device observation"),
            x("mlsEpochCursor", .uint, "a per-device MLS cursor"),
        ], dropRule: .none),
        LeafSchema(namespace: .fileIndex, keyField: "fileID", fields: [
            c("fileID", id16),
            c("path", .text),
            c("sha256", h32),
            c("sizeBytes", .uint),
            c("modifiedAt", .date),
            x("localCachePath", .text, "where this device caches the file: residency, not content"),
            localRowID,
        ], dropRule: .none),
        LeafSchema(namespace: .ktIdentityLedger, keyField: "entryHash", fields: [
            c("entryHash", h32),
            c("userIDHash", h32),
            c("epoch", .uint),
            c("publicKeyHash", h32),
            c("loggedAt", .date),
            x("verifiedAt", .date, "when this device checked the inclusion proof: per-device"),
        ], dropRule: .none),
        LeafSchema(namespace: .blocks, keyField: "blockedUserIDHash", fields: [
            c("blockedUserIDHash", h32),
            c("reason", .text, optional: true),
            c("blockedAt", .date),
            localRowID,
        ], dropRule: .none),
        LeafSchema(namespace: .posts, keyField: "postID", fields: [
            c("postID", id16),
            c("authorUserIDHash", h32),
            c("body", .text),
            c("tags", .textSet),
            c("visibility", .text),
            c("publishedAt", .date),
            c("editedAt", .date, optional: true),
            x("observedAt", .date, "when this device first saw the post: per-device"),
            localRowID,
        ], dropRule: .none),
        LeafSchema(namespace: .agentConversations, keyField: "conversationID", fields: [
            c("conversationID", id16),
            c("title", .text),
            c("model", .text),
            c("turnCount", .uint),
            c("archived", .bool),
            c("updatedAt", .date),
            x("draftText", .text, "an unsent draft typed on one device"),
            localRowID,
        ], dropRule: .none),
    ]
}

extension Namespace {
    /// Position in digest order (0...12).
    public var rawValueIndex: Int {
        // A switch, not `allCases.firstIndex`: this sits on the per-row path of every digest.
        switch self {
        case .settings: return 0
        case .messages: return 1
        case .memory: return 2
        case .notebook: return 3
        case .saga: return 4
        case .contacts: return 5
        case .plans: return 6
        case .peerDevices: return 7
        case .fileIndex: return 8
        case .ktIdentityLedger: return 9
        case .blocks: return 10
        case .posts: return 11
        case .agentConversations: return 12
        }
    }
}
