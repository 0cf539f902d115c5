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
                // Members an older or newer sibling leaves out or adds.
                switch rng.below(3) {
                case 0: m.removeAll { $0.0 == "vectors" || ($0.0 == "tombstones" && rng.bool()) }
                case 1: m.insert((rng.pick(["epoch", "x", "Kind"]), .int(1)), at: rng.below(m.count + 1))
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
        guard op == "decode_frame", let text = valid["json"]?.stringValue, text.hasPrefix("{"), text.count > 2, rng.percent(60) else { return nil }
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
        let ns = rng.pick(Namespace.allCases.filter { $0 != .settings } + [.messages, .memory, .notebook])
        var mine: [JSONValue] = []
        var keys = Set<[UInt8]>()
        for _ in 0..<rng.pick([0, 1, 2, 3, 5, 8, 12]) {
            let r = StateDigestFuzzGenerator.row(ns, &rng)
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
                if let k = r[LeafSchema.schema(for: ns).keyField]?.stringValue { vv.append((k.lowercased(), .obj([("device-a", .u(AdversarialValues.unsigned(&rng)))]))) }
            }
            replica.append(("vectors", .object(vv)))
        }
        return .obj([("request", request), ("replica", .object(replica))])
    }

    /// A frame: a request a replica would send, or the response a replica would give.
    static func frame(_ rng: inout FuzzRNG) -> JSONValue {
        let input = respondInput(&rng)
        if rng.bool(), let req = input["request"] { return req }
        if let out = FuzzReference.output("reconcile", "respond", input), let resp = out["response"], resp != .null { return resp }
        return input["request"] ?? .obj([])
    }
}
