import Primitives
import Vectors

/// `reconcile` (SPEC §5): leaf counts around the 256-bucket threshold and its multiples, pairs of
/// replicas that share some rows and differ in others (so bucket bounds fall on held keys),
/// tombstones, version vectors, calendar rows, and the frames both sides write, as objects and as
/// JSON text.
struct ReconcileFuzzGenerator: FuzzGenerator {
    var format: String { "reconcile" }
    var ops: [String] { ["bucketize", "respond", "encode_frame", "decode_frame", "receive_digest"] }

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        switch op {
        case "bucketize":
            let ns = rng.pick(Namespace.allCases.filter { $0 != .settings })
            if rng.percent(60) {
                // 65,536 leaves cost both sides tens of milliseconds: rare, so the rest of the run keeps its pace.
                let n = rng.oneIn(40) ? rng.pick([65_536, 65_537]) : rng.pick([0, 1, 2, 3, 255, 256, 257, 258, 511, 512, 513, 767, 768, 769, 1000])
                return .obj([("namespace", .str(ns.rawValue)), ("generate", .obj([("rule", .str("index")), ("count", .int(n))]))])
            }
            var leaves: [JSONValue] = []
            for _ in 0..<rng.pick([0, 1, 2, 3, 5, 8]) {
                leaves.append(.obj([("key", .hex(rng.bytes(rng.pick([1, 4, 16])))), ("leaf", .hex(rng.bytes(32)))]))
            }
            return .obj([("namespace", .str(ns.rawValue)), ("leaves", .array(leaves))])
        case "respond":
            return Self.respondInput(&rng)
        case "encode_frame":
            return .obj([("frame", Self.frame(&rng))])
        case "decode_frame":
            var frame = Self.frame(&rng)
            if rng.oneIn(4), case .object(var m) = frame {
                // Members an older or newer sibling leaves out or adds; rows and tombstones in the
                // order a sender holds them, not key order (the decoder sorts them, SPEC §5.3).
                switch rng.below(4) {
                case 0: m.removeAll { $0.0 == "vectors" || ($0.0 == "tombstones" && rng.bool()) }
                case 1: m.insert((rng.pick(["epoch", "x", "Kind"]), .int(1)), at: rng.below(m.count + 1))
                case 2:
                    for i in m.indices where m[i].0 == "rows" || m[i].0 == "tombstones" {
                        if let a = m[i].1.arrayValue { m[i].1 = .array(rng.bool() ? a.reversed() : rng.shuffled(a)) }
                    }
                default: m = rng.shuffled(m)
                }
                frame = .object(m)
            }
            return .obj([("json", .str(frame.compact))])
        case "receive_digest":
            // A sibling's digest: equal to ours, or some roots changed; the frame as written, with
            // a namespace member or in upper-case hex, or of another kind.
            let local = StateDigestFuzzGenerator.encoding(&rng)
            var theirs = local
            if rng.percent(60), theirs.count > 32 {
                for _ in 0..<rng.int(1...3) {
                    let k = rng.below((theirs.count - 1) / 32)
                    for j in 0..<32 { theirs[1 + 32 * k + j] = rng.oneIn(3) ? 0 : UInt8(truncatingIfNeeded: rng.next()) }
                }
            }
            var frame: [(String, JSONValue)] = [("kind", .str("state_digest")), ("digest", .hex(theirs))]
            switch rng.below(10) {
            case 0: frame.append(("namespace", .str("messages")))
            case 1: frame[1].1 = .str(Hex.encode(theirs).uppercased())
            case 2: frame[0].1 = .str(rng.pick(["reconcile_req", "State_digest", "state_digest "]))
            case 3: frame.removeLast()
            default: break
            }
            return .obj([("local", .hex(local)), ("frame", .object(frame)), ("reconciling", .bool(rng.bool()))])
        default:
            return .obj([])
        }
    }

    /// decode_frame: faults in the JSON **text** that member-level mutation cannot make (§5.3):
    /// a member twice, NaN and Infinity and integral floats for numbers, escapes stock writers
    /// and readers disagree on, lone surrogates, nesting past the depth limit, null members.
    func invalidInput(op: String, valid: JSONValue, rng: inout FuzzRNG) -> JSONValue? {
        switch op {
        case "encode_frame":
            return rng.percent(40) ? Self.faultyFrame(&rng).map { valid.setting("frame", $0) } : nil
        case "decode_frame":
            if rng.percent(30) { return Self.faultyFrame(&rng).map { valid.setting("json", .str($0.compact)) } }
            return Self.textFault(valid, &rng)
        case "respond":
            guard rng.percent(40) else { return nil }
            if rng.oneIn(3), let req = valid["request"], let bad = Self.requestTwoFaults(req, &rng) { return valid.setting("request", bad) }
            if rng.bool(), let skewed = Self.countSkew(valid, &rng) { return valid.setting("request", skewed) }
            guard let ns = valid["request"]?["namespace"]?.stringValue.flatMap(Namespace.init(rawValue:)), let keyLength = LeafSchema.schema(for: ns).keyLength,
                  let replica = valid["replica"] else { return nil }
            return valid.setting("replica", replica.setting("vectors", Self.vectorsTwoFaults(keyLength: keyLength, &rng)))
        default:
            return nil
        }
    }

    static func textFault(_ valid: JSONValue, _ rng: inout FuzzRNG) -> JSONValue? {
        guard let text = valid["json"]?.stringValue, text.hasPrefix("{"), text.count > 2, rng.percent(60) else { return nil }
        var t = text
        let open = t.index(after: t.startIndex)
        switch rng.below(8) {
        case 0:
            // A member written twice: the first copy or the last wins in lenient readers.
            let dup = rng.pick([#""kind":"reconcile_req","#, #""kind":"reconcile_resp","#, #""namespace":"messages","#, #""namespace":"settings","#,
                                #""buckets":[],"#, #""rows":[],"#])
            if rng.bool() { t.insert(contentsOf: dup, at: open) } else { t.insert(contentsOf: "," + dup.dropLast(), at: t.index(before: t.endIndex)) }
        case 1:
            // A number spelled as NaN, Infinity, a float or negative.
            guard let r = t.range(of: #":[0-9]+"#, options: .regularExpression) else { return nil }
            t.replaceSubrange(t.index(after: r.lowerBound)..<r.upperBound, with: rng.pick(["NaN", "Infinity", "-Infinity", "1.0", "1e0", "-1", "01", "-0"]))
        case 2:
            // An escape inside a string value (namespace, kind, a hex key).
            guard let r = t.range(of: #"":""#) else { return nil }
            t.insert(contentsOf: rng.pick([#"\b"#, #"\f"#, #"\u2028"#, #"\u2029"#, #"\ud800"#, #"\udc00"#, #"\/"#, "\u{2028}", #"\u0000"#]), at: r.upperBound)
        case 3:
            // A member nested past the depth limit (32), or just at it.
            let depth = rng.pick([31, 32, 33, 64])
            t.insert(contentsOf: #""x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ",", at: open)
        case 4:
            t.insert(contentsOf: rng.pick([#""namespace":null,"#, #""kind":null,"#, #""tombstones":null,"#, #""vectors":null,"#, #""epoch":null,"#]), at: open)
        case 5:
            // Members in another order than written (a reader that checks in text order).
            guard case .object(let m)? = try? JSONValue.parse(text) else { return nil }
            t = JSONValue.object(m.reversed()).compact
        case 6:
            t = " " + t + rng.pick([" ", "\n", "\r\n", "\t"])
        default:
            // Trailing garbage or a second document.
            t += rng.pick(["x", "{}", ",", "]"])
        }
        return valid.setting("json", .str(t))
    }

    /// A replica and a peer's request: the peer holds a random subset of the replica's rows, some
    /// changed, and rows of its own.
    static func respondInput(_ rng: inout FuzzRNG) -> JSONValue {
        // Settings too: the whole dictionary comes back, its keys and devices sorted as data keys.
        let ns = rng.pick(Namespace.allCases + [.messages, .memory, .notebook])
        var mine: [JSONValue] = []
        var keys = Set<[UInt8]>()
        let n = rng.pick([0, 1, 2, 3, 5, 8, 12])
        let trap = ns == .settings ? AdversarialValues.trapKeys(&rng, count: n) : []
        for i in 0..<n {
            var r = StateDigestFuzzGenerator.row(ns, &rng)
            if i < trap.count { r = r.setting("key", .str(trap[i])) }
            guard let parsed = try? Row.parse(r, namespace: ns, path: ""), keys.insert(parsed.keyBytes).inserted else { continue }
            mine.append(r)
        }
        var theirs: [JSONValue] = []
        for r in mine where !rng.oneIn(3) {
            theirs.append(rng.oneIn(4) ? StateDigestFuzzGenerator.row(ns, &rng).setting(LeafSchema.schema(for: ns).keyField, r[LeafSchema.schema(for: ns).keyField] ?? .null) : r)
        }
        for _ in 0..<rng.below(3) { theirs.append(StateDigestFuzzGenerator.row(ns, &rng)) }
        let peerRows = theirs.compactMap { try? Row.parse($0, namespace: ns, path: "") }
        var seen = Set<[UInt8]>()
        let unique = peerRows.filter { seen.insert($0.keyBytes).inserted }
        let request: JSONValue
        if let req = try? ReplicaNamespace(namespace: ns, rows: unique).request() {
            request = req.tree.json(bigIntegersAsStrings: false)
        } else {
            request = .obj([("kind", .str("reconcile_req")), ("namespace", .str(ns.rawValue)), ("buckets", .array([]))])
        }
        var replica: [(String, JSONValue)] = [("rows", .array(mine))]
        if !rng.oneIn(3) {
            var tombs: [JSONValue] = []
            let keyLength = LeafSchema.schema(for: ns).fields.first { $0.name == LeafSchema.schema(for: ns).keyField }.flatMap { f -> Int? in
                if case .bytes(let n) = f.kind { return n } else { return nil }
            } ?? 16
            for _ in 0..<rng.pick([0, 1, 2, 3]) { tombs.append(.hex(rng.bytes(keyLength))) }
            replica.append(("tombstones", .array(tombs)))
        }
        if rng.bool() {
            var vv: [(String, JSONValue)] = []
            for r in mine.prefix(3) {
                // Devices named so that UTF-16 and byte order disagree now and then.
                let devices = rng.oneIn(3) ? AdversarialValues.trapKeys(&rng, count: rng.int(1...3)) : ["device-a"]
                if let k = r[LeafSchema.schema(for: ns).keyField]?.stringValue {
                    vv.append((k.lowercased(), .object(devices.map { ($0, .u(AdversarialValues.unsigned(&rng))) })))
                }
            }
            replica.append(("vectors", .object(vv)))
        }
        return .obj([("request", request), ("replica", .object(replica))])
    }

    // MARK: - faults placed for check order (SPEC §5.3)

    /// A frame with one of the structural fault classes below, or nil.
    static func faultyFrame(_ rng: inout FuzzRNG) -> JSONValue? {
        if rng.percent(35) {
            guard let req = respondInput(&rng)["request"] else { return nil }
            return requestTwoFaults(req, &rng)
        }
        guard let resp = response(&rng) else { return nil }
        switch rng.below(3) {
        case 0: return repeatedKey(resp, &rng)
        case 1: return badRowAndTombstone(resp, &rng)
        default:
            guard let ns = resp["namespace"]?.stringValue.flatMap(Namespace.init(rawValue:)), let keyLength = LeafSchema.schema(for: ns).keyLength else { return nil }
            return resp.setting("vectors", vectorsTwoFaults(keyLength: keyLength, &rng))
        }
    }

    /// A non-settings response as the reference writes it (rows, vectors, tombstones), or nil.
    static func response(_ rng: inout FuzzRNG) -> JSONValue? {
        for _ in 0..<4 {
            let input = respondInput(&rng)
            guard input["request"]?["namespace"]?.stringValue != Namespace.settings.rawValue,
                  let r = FuzzReference.output("reconcile", "respond", input)?["response"], r != .null else { continue }
            return r
        }
        return nil
    }

    /// A response shipping a key twice: a row repeated, a tombstone repeated, or a key both live
    /// and deleted (settings: an entry also tombstoned). Targets decoders that fill a map as they
    /// go, last write winning (SPEC §5.3 R5.3-17).
    static func repeatedKey(_ resp: JSONValue, _ rng: inout FuzzRNG) -> JSONValue {
        guard let ns = resp["namespace"]?.stringValue.flatMap(Namespace.init(rawValue:)) else { return resp }
        let keyField = LeafSchema.schema(for: ns).keyField
        var rows = resp["rows"]?.arrayValue ?? []
        var tombs = resp["tombstones"]?.arrayValue ?? []
        switch rng.below(3) {
        case 0 where !rows.isEmpty:
            let i = rng.below(rows.count)
            rows.insert(rows[i], at: i + 1)
        case 1 where !tombs.isEmpty:
            let i = rng.below(tombs.count)
            tombs.insert(tombs[i], at: i + 1)
        default:
            if let k = rows.first?[keyField] { tombs.insert(k, at: 0) } else if let t = tombs.first { tombs.append(t) }
        }
        return resp.setting("rows", .array(rows)).setting("tombstones", .array(tombs))
    }

    /// A response with a broken row and a tombstone of the wrong length: a decoder that reads the
    /// tombstones first answers with the tombstone's code (SPEC §5.3: rows, then tombstones).
    static func badRowAndTombstone(_ resp: JSONValue, _ rng: inout FuzzRNG) -> JSONValue {
        guard let ns = resp["namespace"]?.stringValue.flatMap(Namespace.init(rawValue:)) else { return resp }
        var rows = resp["rows"]?.arrayValue ?? []
        let row = rows.isEmpty ? StateDigestFuzzGenerator.row(ns, &rng) : rows[rng.below(rows.count)]
        let bad = RowFaults.twoFaults(row, ns, &rng) ?? row.setting("x_fuzz", .int(1))
        if rows.isEmpty { rows = [bad] } else { rows[rng.below(rows.count)] = bad }
        var tombs = resp["tombstones"]?.arrayValue ?? []
        tombs.insert(.hex(rng.bytes(rng.pick([0, 1, 15, 17, 33]))), at: rng.below(tombs.count + 1))
        return resp.setting("rows", .array(rows)).setting("tombstones", .array(tombs))
    }

    /// `vectors` with two bad entries listed against byte order: a key of the wrong length that
    /// sorts first, written after a key of the right length whose vector is not an object. A reader
    /// that checks entries in the order the text lists them answers with the second one's code
    /// (SPEC §5.3 R5.3-18: data keys checked in byte order).
    static func vectorsTwoFaults(keyLength: Int, _ rng: inout FuzzRNG) -> JSONValue {
        let short = Hex.encode([0x00] + rng.bytes(rng.below(3)))
        let long = Hex.encode([0xff] + rng.bytes(keyLength - 1))
        var m: [(String, JSONValue)] = [(long, rng.pick([.array([]), .str("1"), .int(1)])), (short, .obj([("device-a", .int(1))]))]
        if rng.oneIn(3) { m.insert((Hex.encode([0x80] + rng.bytes(keyLength - 1)), .obj([("device-a", .int(2))])), at: 1) }
        return .object(m)
    }

    /// A request whose bucket counts are off by one while the roots are the peer's own: a sender
    /// that counts dropped rows or tombstones too. A responder that compares roots only ships
    /// nothing for the bucket (SPEC §5.4: a bucket matches when root and count both match).
    static func countSkew(_ input: JSONValue, _ rng: inout FuzzRNG) -> JSONValue? {
        // The peer holds exactly the replica's rows, so every root matches.
        guard let ns = input["request"]?["namespace"]?.stringValue.flatMap(Namespace.init(rawValue:)), ns != .settings,
              let rows = input["replica"]?["rows"]?.arrayValue else { return nil }
        let parsed = rows.compactMap { try? Row.parse($0, namespace: ns, path: "") }
        guard let req = try? ReplicaNamespace(namespace: ns, rows: parsed).request().tree.json(bigIntegersAsStrings: false),
              var buckets = req["buckets"]?.arrayValue, !buckets.isEmpty else { return nil }
        let i = rng.below(buckets.count)
        guard let n = buckets[i]["count"]?.integerText.flatMap(UInt64.init) else { return nil }
        buckets[i] = buckets[i].setting("count", .u(n == 0 || rng.bool() ? n + 1 : n - 1))
        return req.setting("buckets", .array(buckets))
    }

    /// A request with two faults a reader that checks as it goes reports differently: the first
    /// bucket starting above the empty key with a later bucket broken (SPEC §5.3: every bucket is
    /// read before the tiling is checked), or more than 256 buckets one of which is broken (the
    /// count is checked before any bucket is read).
    static func requestTwoFaults(_ req: JSONValue, _ rng: inout FuzzRNG) -> JSONValue? {
        guard var buckets = req["buckets"]?.arrayValue, let first = buckets.first else { return nil }
        func broken(_ b: JSONValue) -> JSONValue {
            switch rng.below(3) {
            case 0: return b.setting("root", .hex(rng.bytes(rng.pick([0, 31, 33]))))
            case 1:
                guard case .object(let m) = b else { return b }
                return .object(m.filter { $0.0 != "count" })
            default: return b.setting("count", .str("x"))
            }
        }
        if rng.bool() {
            buckets[0] = first.setting("lo", .hex([UInt8(rng.int(1...255))]))
            if buckets.count < 2 { buckets.append(first) }
            let i = rng.int(1...(buckets.count - 1))
            buckets[i] = broken(buckets[i])
        } else {
            let target = rng.pick([257, 258, 300])
            var i = 0
            let base = buckets
            while buckets.count < target { buckets.append(base[i % base.count]); i += 1 }
            let j = rng.below(buckets.count)
            buckets[j] = broken(buckets[j])
        }
        return req.setting("buckets", .array(buckets))
    }

    /// A frame: a request a replica would send, or the response a replica would give.
    static func frame(_ rng: inout FuzzRNG) -> JSONValue {
        let input = respondInput(&rng)
        if rng.bool(), let req = input["request"] { return req }
        if let out = FuzzReference.output("reconcile", "respond", input), let resp = out["response"], resp != .null { return resp }
        return input["request"] ?? .obj([])
    }
}
