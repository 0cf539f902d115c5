/// Deterministic sample rows for the generator: every field present (the "typical" row), built
/// from a fixed seed and the suite's fixed clock.
enum SampleRows {
    /// The suite's fixed clock: 2026-01-01T00:00:00Z in milliseconds, plus offsets.
    static let clock: Int64 = 1_767_225_600_000

    static func typical(_ ns: Namespace, index: Int = 0) -> Row {
        var g = SeededGenerator(seed: 0x57a7e_d16e57 &+ UInt64(ns.rawValueIndex) << 32 &+ UInt64(index))
        let t = clock + Int64(index) * 61_000 + 123
        func id16() -> FieldValue { .bytes(g.bytes(16)) }
        func h32() -> FieldValue { .bytes(g.bytes(32)) }
        switch ns {
        case .settings:
            return Row(.settings, ["key": .text("ui.theme.\(index)"), "value": .text("dark"),
                                   "versionVector": .versionVector(["device-a": 3, "device-b": 1]), "tombstoned": .bool(false)])
        case .messages:
            return Row(.messages, [
                "messageID": id16(), "conversationID": id16(), "peerUserIDHash": h32(), "isOutgoing": .bool(index % 2 == 0),
                "senderName": .text("Ada"), "body": .text("See you at 6 — bring the map \(index)"),
                "mediaJSON": .text("{\"kind\":\"image\",\"w\":640}"), "replyToID": id16(),
                "sentAt": .date(t), "editedAt": .date(t + 5_500), "observedAt": .date(t + 2_250),
                "peerPubkey": .bytes(g.bytes(32)), "localRowID": .int(Int64(1000 + index)), "outboxState": .text("sent"),
            ])
        case .memory:
            return Row(.memory, ["eventID": id16(), "kind": .text("visit"), "summary": .text("Lunch at the harbour \(index)"),
                                 "occurredAt": .date(t), "source": .text("manual"), "localRowID": .int(Int64(7 + index))])
        case .notebook:
            return Row(.notebook, ["noteID": id16(), "title": .text("Recipe \(index)"), "tags": .textSet(["food", "Zest", "bread"]),
                                   "body": .text("Flour, water, salt.\nKnead \(index) minutes."), "createdAt": .date(t), "updatedAt": .date(t + 60_000),
                                   "bodyOffloaded": .bool(false), "localRowID": .int(Int64(40 + index))])
        case .saga:
            return Row(.saga, ["sagaID": id16(), "title": .text("Moving house"), "chapter": .uint(UInt64(3 + index)), "status": .text("active"),
                               "summary": .text("Boxes packed"), "updatedAt": .date(t), "localRowID": .int(Int64(2 + index))])
        case .contacts:
            return Row(.contacts, ["userIDHash": h32(), "displayName": .text("Grace \(index)"), "handle": .text("@grace"), "verified": .bool(true),
                                   "blocked": .bool(false), "addedAt": .date(t), "systemContactIdentifier": .text("ABPerson:\(410 + index)"),
                                   "mlsCursor": .uint(UInt64(17 + index)), "localRowID": .int(Int64(9 + index))])
        case .plans:
            return Row(.plans, ["planID": id16(), "title": .text("Trip \(index)"), "stepsJSON": .text("[\"book\",\"pack\"]"), "status": .text("open"),
                                "priority": .int(-2), "dueAt": .date(t + 86_400_000), "updatedAt": .date(t), "localRowID": .int(Int64(3 + index))])
        case .peerDevices:
            return Row(.peerDevices, ["deviceID": h32(), "name": .text("iPad \(index)"), "family": .text("ipad"), "addedAt": .date(t),
                                      "revoked": .bool(false), "lastSeenAt": .date(t + 999_999), "mlsEpochCursor": .uint(UInt64(88 + index))])
        case .fileIndex:
            return Row(.fileIndex, ["fileID": id16(), "path": .text("Documents/plan-\(index).pdf"), "sha256": h32(), "sizeBytes": .uint(UInt64(48_213 + index)),
                                    "modifiedAt": .date(t), "localCachePath": .text("/var/cache/f\(index)"), "localRowID": .int(Int64(11 + index))])
        case .ktIdentityLedger:
            return Row(.ktIdentityLedger, ["entryHash": h32(), "userIDHash": h32(), "epoch": .uint(UInt64(12 + index)), "publicKeyHash": h32(),
                                           "loggedAt": .date(t), "verifiedAt": .date(t + 4_000)])
        case .blocks:
            return Row(.blocks, ["blockedUserIDHash": h32(), "reason": .text("spam"), "blockedAt": .date(t), "localRowID": .int(Int64(5 + index))])
        case .posts:
            return Row(.posts, ["postID": id16(), "authorUserIDHash": h32(), "body": .text("Sunset over the bay \(index)"), "tags": .textSet(["sky", "bay"]),
                                "visibility": .text("friends"), "publishedAt": .date(t), "editedAt": .date(t + 30_000), "observedAt": .date(t + 1_000),
                                "localRowID": .int(Int64(6 + index))])
        case .agentConversations:
            return Row(.agentConversations, ["conversationID": id16(), "title": .text("Tax questions \(index)"), "model": .text("pixie-large"),
                                             "turnCount": .uint(UInt64(14 + index)), "archived": .bool(false), "updatedAt": .date(t),
                                             "draftText": .text("and what about"), "localRowID": .int(Int64(8 + index))])
        }
    }

    /// The typical row with the fields `typical` leaves out so that other formats' vectors stay
    /// put: for messages, reactions (two reactors, three reactions, given out of leaf order).
    static func full(_ ns: Namespace, index: Int = 0) -> Row {
        var row = typical(ns, index: index)
        if ns == .messages { row["reactions"] = .reactions(sampleReactions(index: index)) }
        return row
    }

    static func reactor(_ i: Int) -> [UInt8] {
        var g = SeededGenerator(seed: 0x4ea_c7 &+ UInt64(i))
        return g.bytes(32)
    }

    static func sampleReactions(index: Int) -> [Reaction] {
        [Reaction(reactor: reactor(2 * index + 1), emoji: "\u{1F44D}"),
         Reaction(reactor: reactor(2 * index), emoji: "\u{2764}\u{FE0F}"),
         Reaction(reactor: reactor(2 * index), emoji: "\u{1F602}")]
    }

    /// A different value of the same kind, for "changing this field changes the leaf" cases.
    static func altered(_ value: FieldValue?, kind: FieldKind) -> FieldValue {
        switch (kind, value) {
        case (.bytes, .bytes(let b)?), (.normalizedHash, .bytes(let b)?):
            var c = b.isEmpty ? [UInt8](repeating: 0, count: 32) : b
            c[c.count - 1] ^= 0x01
            return .bytes(c)
        case (.text, .text(let s)?), (.noteBody, .text(let s)?): return .text(s + ".")
        case (.uint, .uint(let v)?): return .uint(v + 1)
        case (.int, .int(let v)?): return .int(v + 1)
        case (.bool, .bool(let b)?): return .bool(!b)
        case (.date, .date(let ms)?): return .date(ms + 1_000)
        case (.textSet, .textSet(let s)?): return .textSet(s + ["added"])
        case (.reactionSet, .reactions(let r)?): return .reactions(r + [Reaction(reactor: reactor(99), emoji: "\u{1F389}")])
        case (.reactionSet, nil): return .reactions([Reaction(reactor: reactor(99), emoji: "\u{1F389}")])
        case (.versionVector, .versionVector(var vv)?):
            vv["device-a", default: 0] += 1
            return .versionVector(vv)
        case (.bytes(let n), nil): return .bytes([UInt8](repeating: 0xab, count: n ?? 32))
        case (.normalizedHash, nil): return .bytes([UInt8](repeating: 0xab, count: 32))
        case (.text, nil), (.noteBody, nil): return .text("x")
        case (.uint, nil): return .uint(1)
        case (.int, nil): return .int(1)
        case (.bool, nil): return .bool(true)
        case (.date, nil): return .date(clock)
        case (.textSet, nil): return .textSet(["x"])
        case (.versionVector, nil): return .versionVector(["device-c": 1])
        default: preconditionFailure("sample value does not match its kind")
        }
    }
}
