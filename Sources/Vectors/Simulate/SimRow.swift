import Primitives

/// What the simulator remembers of one row: enough to rebuild the real §4.4 row (and so its real
/// leaf and its bytes in a response) and to merge it. Content is a pure function of these fields.
public struct SimRow: Sendable, Hashable {
    /// The row's content identity, fixed when it is created.
    public var seed: UInt64
    /// Edits so far; the merge keeps the higher (version, writer).
    public var version: UInt32
    /// The device that made the last edit (breaks version ties).
    public var writer: UInt8
    /// A reaction: a committed field that one side can hold before the other, merged by union.
    public var reacted: Bool
    /// A committed field the merge never converges (0 = none): a device-local view hashed into
    /// the leaf, the storm seed 002 §3 and §9 describe.
    public var view: UInt8

    public init(seed: UInt64, version: UInt32 = 0, writer: UInt8 = 0, reacted: Bool = false, view: UInt8 = 0) {
        self.seed = seed
        self.version = version
        self.writer = writer
        self.reacted = reacted
        self.view = view
    }

    /// The merge the simulated devices run: commutative, idempotent and convergent for every field
    /// but `view`, which each device keeps as its own (the bug the storm scenario plants).
    /// Returns the merged row and whether anything changed.
    public static func merge(local: SimRow, incoming: SimRow) -> (SimRow, Bool) {
        var out = local
        if (incoming.version, incoming.writer) > (local.version, local.writer) {
            out.seed = incoming.seed
            out.version = incoming.version
            out.writer = incoming.writer
        }
        out.reacted = local.reacted || incoming.reacted
        return (out, out != local)
    }

    /// The namespaces the simulator writes rows in, in the order scenarios use them (the last
    /// one takes the background writes).
    public static let namespaces: [Namespace] = [.messages, .notebook, .memory, .posts, .saga, .fileIndex, .agentConversations, .blocks, .plans]

    /// The byte length of a namespace's sort key (§4.4).
    public static func keyLength(_ ns: Namespace) -> Int { ns == .blocks ? 32 : 16 }

    /// The real §4.4 row. Text lengths vary with the seed (a message body of 40–400 characters).
    public func row(_ ns: Namespace, key: [UInt8]) -> Row {
        var g = SeededGenerator(seed: seed)
        let created = Int64(1_767_225_600_000) - Int64(g.next() % 31_536_000_000)
        let edited = created + Int64(version) * 1000 + Int64(writer)
        func text(_ prefix: String, _ minimum: Int, _ spread: UInt64) -> String {
            let n = minimum + Int(g.next() % spread)
            var s = "\(prefix) \(seed % 1_000_000) v\(version) "
            let filler = "lorem ipsum dolor sit amet consectetur "
            while s.utf8.count < n { s += filler }
            return String(s.prefix(n))
        }
        switch ns {
        case .messages:
            var pairs: [(String, FieldValue)] = [
                ("messageID", .bytes(key)), ("conversationID", .bytes(g.bytes(16))), ("peerUserIDHash", .bytes(g.bytes(32))),
                ("isOutgoing", .bool(g.next() & 1 == 0)), ("body", .text(text("message", 40, 360))), ("sentAt", .date(created)),
            ]
            if view != 0 { pairs.append(("senderName", .text("as seen on device \(view)"))) }
            if reacted { pairs.append(("mediaJSON", .text("{\"reactions\":[\"\u{1F44D}\"]}"))) }
            if version > 0 { pairs.append(("editedAt", .date(edited))) }
            return Row(.messages, pairs)
        case .notebook:
            return Row(.notebook, [("noteID", .bytes(key)), ("title", .text(text("note", 10, 40))), ("tags", .textSet(["sim", "tag\(g.next() % 7)"])),
                                   ("body", .text(text("body", 200, 1800))), ("createdAt", .date(created)), ("updatedAt", .date(edited))])
        case .memory:
            return Row(.memory, [("eventID", .bytes(key)), ("kind", .text("observation")), ("summary", .text(text("memory", 40, 200))),
                                 ("occurredAt", .date(edited)), ("source", .text("manual"))])
        case .posts:
            return Row(.posts, [("postID", .bytes(key)), ("authorUserIDHash", .bytes(g.bytes(32))), ("body", .text(text("post", 40, 400))),
                                ("tags", .textSet([])), ("visibility", .text("circle")), ("publishedAt", .date(created))]
                       + (version > 0 ? [("editedAt", FieldValue.date(edited))] : []))
        case .saga:
            return Row(.saga, [("sagaID", .bytes(key)), ("title", .text(text("saga", 10, 40))), ("chapter", .uint(UInt64(version))),
                               ("status", .text("active")), ("updatedAt", .date(edited))])
        case .fileIndex:
            return Row(.fileIndex, [("fileID", .bytes(key)), ("path", .text("/sim/\(seed % 100_000)/file-v\(version)")), ("sha256", .bytes(g.bytes(32))),
                                    ("sizeBytes", .uint(g.next() % 10_000_000)), ("modifiedAt", .date(edited))])
        case .agentConversations:
            return Row(.agentConversations, [("conversationID", .bytes(key)), ("title", .text(text("chat", 10, 40))), ("model", .text("sim-1")),
                                             ("turnCount", .uint(UInt64(version))), ("archived", .bool(false)), ("updatedAt", .date(edited))])
        case .blocks:
            return Row(.blocks, [("blockedUserIDHash", .bytes(key)), ("reason", .text(text("reason", 5, 30))), ("blockedAt", .date(edited))])
        default:
            return Row(.plans, [("planID", .bytes(key)), ("title", .text(text("plan", 10, 40))), ("stepsJSON", .text("[]")), ("status", .text("open")),
                                ("priority", .int(Int64(g.next() % 5))), ("updatedAt", .date(edited))])
        }
    }

    /// The row's real leaf (§4.3).
    public func leaf(_ ns: Namespace, key: [UInt8], encoder: inout LeafEncoder) -> SHA256Digest {
        // Every row this type builds is well formed, so the encoder cannot reject it.
        (try? encoder.leaf(row(ns, key: key))) ?? SHA256Digest(0, 0, 0, 0)
    }
}
