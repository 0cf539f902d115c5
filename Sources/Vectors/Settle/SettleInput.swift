import Primitives

/// Readers for `settle` op inputs (SPEC.md §12.2, §12.3, §12.7), all through `Input` (§2.2).
enum SettleInput {
    /// A time in ms: a §2.2 unsigned 64-bit integer (a mutant reads it as signed).
    static func time(_ v: JSONValue, path: String, _ rules: SettleRules) throws(WireError) -> UInt64 {
        if rules.signedTimes {
            let n = try Input.int64(v, path: path)
            guard n >= 0 else { throw WireError(.inputBadType, "a time is not negative", field: path) }
            return UInt64(n)
        }
        return try Input.uint64(v, path: path)
    }

    static func nullableTime(_ v: JSONValue, _ name: String, path: String, _ rules: SettleRules) throws(WireError) -> UInt64? {
        guard let m = try Input.nullableMember(v, name, path: path) else { return nil }
        return try time(m, path: Input.join(path, name), rules)
    }

    /// A digest the device holds: §2.2 hex, then decoded as §4.8 (its codes).
    static func digest(_ v: JSONValue, path: String) throws(WireError) -> StateDigest {
        try StateDigest.decode(try Input.bytes(v, path: path))
    }

    static func siblingID(_ v: JSONValue, path: String) throws(WireError) -> SiblingID {
        let bytes = try Input.bytes(v, path: path, length: SiblingID.byteCount)
        return SiblingID(bytes: bytes, text: v.stringValue ?? "")
    }

    /// STATE: members in table order, each completely; a sibling element is read completely,
    /// then compared with the earlier ones (`duplicate_key`).
    static func state(_ input: JSONValue, _ name: String, _ rules: SettleRules) throws(WireError) -> SettleState {
        let v = try Input.member(input, name, path: "")
        InputRecorder.note(name, .object, v)
        guard v.objectValue != nil else { throw WireError(.inputBadType, "the state is an object", field: name) }
        let now = try time(try Input.member(v, "now", path: name), path: "\(name).now", rules)
        let digest = try digest(try Input.member(v, "digest", path: name), path: "\(name).digest")
        let overlay = try Input.bool(try Input.member(v, "overlay", path: name), path: "\(name).overlay")
        let debounceAt = try nullableTime(v, "debounce_at", path: name, rules)
        let last = try Input.nullableMember(v, "last_broadcast", path: name).map { (j) throws(WireError) in
            try SettleInput.digest(j, path: "\(name).last_broadcast")
        }
        var siblings: [SiblingState] = []
        for (i, item) in try Input.array(try Input.member(v, "siblings", path: name), path: "\(name).siblings").enumerated() {
            let p = "\(name).siblings[\(i)]"
            InputRecorder.note(p, .object, item)
            guard item.objectValue != nil else { throw WireError(.inputBadType, "a sibling is an object", field: p) }
            let id = try siblingID(try Input.member(item, "id", path: p), path: "\(p).id")
            let reconciling = try Input.bool(try Input.member(item, "reconciling", path: p), path: "\(p).reconciling")
            let until = try nullableTime(item, "backoff_until", path: p, rules)
            var rounds: [UInt64] = []
            for (j, r) in try Input.array(try Input.member(item, "rounds", path: p), path: "\(p).rounds").enumerated() {
                let t = try time(r, path: "\(p).rounds[\(j)]", rules)
                guard t <= now else {
                    throw WireError(.inputBadValue, "a round at \(t) ms is after the state's clock \(now) ms", field: "\(p).rounds[\(j)]")
                }
                rounds.append(t)
            }
            guard !siblings.contains(where: { $0.id.same(id, rules) }) else {
                throw WireError(.duplicateKey, "sibling \(Hex.encode(id.bytes)) is listed twice", field: "\(p).id")
            }
            siblings.append(SiblingState(id: id, reconciling: reconciling, backoffUntil: until, rounds: rounds.sorted()))
        }
        return SettleState(now: now, digest: digest, overlay: overlay, debounceAt: debounceAt, lastBroadcast: last, siblings: siblings)
    }

    /// EVENT: `at`, `kind` (one of §12.3, else `settle_unknown_event`), then the kind's members.
    static func event(_ v: JSONValue, path: String, _ rules: SettleRules) throws(WireError) -> SettleEvent {
        InputRecorder.note(path, .object, v)
        guard v.objectValue != nil else { throw WireError(.inputBadType, "an event is an object", field: path) }
        let at = try time(try Input.member(v, "at", path: path), path: Input.join(path, "at"), rules)
        let kind = try Input.text(try Input.member(v, "kind", path: path), path: Input.join(path, "kind"))
        func member(_ name: String) throws(WireError) -> JSONValue { try Input.member(v, name, path: path) }
        func p(_ name: String) -> String { Input.join(path, name) }
        switch kind {
        case "local_write":
            return SettleEvent(at: at, .localWrite(digest: try digest(try member("digest"), path: p("digest"))))
        case "connected":
            return SettleEvent(at: at, .connected)
        case "tick":
            return SettleEvent(at: at, .tick)
        case "digest_received":
            let from = try siblingID(try member("from"), path: p("from"))
            let bytes = try Input.bytes(try member("digest"), path: p("digest"))
            return SettleEvent(at: at, .digestReceived(from: from, digest: bytes))
        case "request_received":
            let from = try siblingID(try member("from"), path: p("from"))
            let ns = try Input.namespace(try member("namespace"), path: p("namespace"))
            let rows = try Input.uint64(try member("rows"), path: p("rows"))
            let tombs = try Input.uint64(try member("tombstones"), path: p("tombstones"))
            return SettleEvent(at: at, .requestReceived(from: from, namespace: ns, rows: rows, tombstones: tombs))
        case "response_applied":
            let from = try siblingID(try member("from"), path: p("from"))
            let ns = try Input.namespace(try member("namespace"), path: p("namespace"))
            let applied = try Input.uint64(try member("applied"), path: p("applied"))
            let d = try digest(try member("digest"), path: p("digest"))
            return SettleEvent(at: at, .responseApplied(from: from, namespace: ns, applied: applied, digest: d))
        default:
            throw WireError(.settleUnknownEvent, "no event kind \(kind.debugDescription)", field: p("kind"))
        }
    }
}

/// Output shapes shared by the handler, the generator and the simulator's testee driver.
public enum SettleOutput {
    public static func state(_ s: SettleState) -> CBOR {
        .object([
            ("now", .unsigned(s.now)),
            ("digest", .bytes(s.digest.encoded())),
            ("overlay", .bool(s.overlay)),
            ("debounce_at", s.debounceAt.map { CBOR.unsigned($0) } ?? .null),
            ("last_broadcast", s.lastBroadcast.map { CBOR.bytes($0.encoded()) } ?? .null),
            ("siblings", .array(s.siblings.map { sib in
                .object([
                    ("id", .bytes(sib.id.bytes)),
                    ("reconciling", .bool(sib.reconciling)),
                    ("backoff_until", sib.backoffUntil.map { CBOR.unsigned($0) } ?? .null),
                    ("rounds", .array(sib.rounds.map { .unsigned($0) })),
                ])
            })),
        ])
    }

    public static func actions(_ a: [SettleAction]) -> CBOR { .array(a.map(\.tree)) }
}
