import Primitives
import Vectors

/// `state_digest` (SPEC §4): rows built from each namespace's public `LeafSchema` (so a field added
/// to a schema is fuzzed without a change here), random row stores for roots and digests, leaf
/// lists for folds, digest encodings and their neighbours.
struct StateDigestFuzzGenerator: FuzzGenerator {
    var format: String { "state_digest" }
    var ops: [String] { ["leaf", "root", "fold", "digest", "digest_encode", "digest_decode", "divergence", "mark_offloaded"] }

    static let clock: Int64 = 1_767_225_600_000

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        switch op {
        case "leaf":
            let ns = rng.pick(Namespace.allCases.filter { $0 != .settings })
            return .obj([("namespace", .str(ns.rawValue)), ("row", Self.row(ns, &rng))])
        case "root":
            let ns = rng.pick(Namespace.allCases)
            return .obj([("namespace", .str(ns.rawValue)), ("rows", .array(Self.rows(ns, &rng)))])
        case "fold":
            let ns = rng.pick(Namespace.allCases)
            if rng.oneIn(4) {
                let count = rng.pick([0, 1, 2, 3, 4, 5, 7, 8, 9, 255, 256, 257, 1000])
                return .obj([("namespace", .str(ns.rawValue)), ("generate", .obj([("rule", .str("index")), ("count", .int(count))]))])
            }
            var leaves: [JSONValue] = []
            for _ in 0..<rng.pick([0, 1, 2, 3, 4, 5, 6, 7, 9, 16, 17]) {
                leaves.append(.obj([("key", AdversarialValues.hex(rng.bytes(rng.pick([0, 1, 4, 16, 32])), &rng)),
                                    ("leaf", AdversarialValues.hex(rng.bytes(32), &rng))]))
            }
            return .obj([("namespace", .str(ns.rawValue)), ("leaves", .array(leaves))])
        case "digest":
            return .obj([("namespaces", Self.store(&rng))])
        case "digest_encode":
            return .obj([("roots", .obj(Namespace.allCases.map { ($0.rawValue, AdversarialValues.hex(Self.root(&rng), &rng)) }))])
        case "digest_decode":
            return .obj([("encoded", AdversarialValues.hex(Self.encoding(&rng), &rng))])
        case "divergence":
            let a = Self.encoding(&rng)
            var b = a
            if b.count == StateDigest.encodedByteCount {
                for _ in 0..<rng.below(4) {
                    let i = rng.below(13)
                    for j in 0..<32 where rng.oneIn(2) { b[1 + i * 32 + j] ^= UInt8(truncatingIfNeeded: rng.next() | 1) }
                }
            }
            return .obj([("a", AdversarialValues.hex(a, &rng)), ("b", AdversarialValues.hex(rng.oneIn(8) ? Self.encoding(&rng) : b, &rng))])
        case "mark_offloaded":
            var row = Self.row(.notebook, &rng)
            let body = row["body"]?.stringValue ?? ""
            if rng.percent(70) { row = row.setting("bodyOffloaded", .bool(false)) }
            let hash = rng.percent(80) ? NotebookBody.digest(body).bytes : (rng.bool() ? rng.bytes(32) : rng.bytes(rng.pick([0, 31, 33])))
            var m: [(String, JSONValue)] = [("row", row), ("contentHash", AdversarialValues.hex(hash, &rng))]
            if !rng.oneIn(3) { m.append(("holder", AdversarialValues.hex(rng.bytes(rng.pick([32, 32, 0, 33])), &rng))) }
            return .obj(m)
        default:
            return .obj([])
        }
    }

    /// Rows with two faults whose report order tells a member-order reader from a schema-order
    /// one, or with an integer field spelled as §2.2 refuses (`RowFaults`, SPEC §4.3); else the
    /// generic mutators.
    func invalidInput(op: String, valid: JSONValue, rng: inout FuzzRNG) -> JSONValue? {
        guard rng.percent(40) else { return nil }
        // A quarter of them: an integer field spelled as §2.2 refuses (integral floats, "+5", "05").
        let spelling = rng.oneIn(4)
        func fault(_ row: JSONValue, _ ns: Namespace, _ rng: inout FuzzRNG) -> JSONValue? {
            spelling ? RowFaults.integerSpelling(row, ns, &rng) : RowFaults.twoFaults(row, ns, &rng)
        }
        switch op {
        case "leaf", "mark_offloaded":
            let ns = op == "leaf" ? valid["namespace"]?.stringValue.flatMap(Namespace.init(rawValue:)) ?? .messages : .notebook
            guard let row = valid["row"], let bad = fault(row, ns, &rng) else { return nil }
            return valid.setting("row", bad)
        case "root":
            guard let ns = valid["namespace"]?.stringValue.flatMap(Namespace.init(rawValue:)), var rows = valid["rows"]?.arrayValue else { return nil }
            let i = rng.below(rows.count + 1)
            guard let bad = fault(i < rows.count ? rows[i] : Self.row(ns, &rng), ns, &rng) else { return nil }
            if i < rows.count { rows[i] = bad } else { rows.append(bad) }
            return valid.setting("rows", .array(rows))
        default:
            return nil
        }
    }

    /// A root: random, all zeros, or the empty-namespace pattern of another wire version.
    static func root(_ rng: inout FuzzRNG) -> [UInt8] {
        rng.oneIn(6) ? [UInt8](repeating: rng.pick([0, 0xff]), count: 32) : rng.bytes(32)
    }

    /// A digest encoding: version 6 and 13 roots, or one byte off in version or length.
    static func encoding(_ rng: inout FuzzRNG) -> [UInt8] {
        var b: [UInt8] = [StateDigest.wireVersion]
        for _ in 0..<13 { b += root(&rng) }
        switch rng.below(10) {
        case 0: b[0] = rng.pick([0, 5, 7, 0xff])
        case 1: b.append(0)
        case 2: b.removeLast()
        default: break
        }
        return b
    }

    /// A row store of some namespaces (an object, member order random: the digest does not
    /// depend on it).
    static func store(_ rng: inout FuzzRNG) -> JSONValue {
        var m: [(String, JSONValue)] = []
        for ns in rng.shuffled(Namespace.allCases) where rng.oneIn(3) {
            m.append((ns.rawValue, .array(rows(ns, &rng, max: 4))))
        }
        return .object(m)
    }

    /// Rows of one namespace, in random order, sometimes with a key repeated.
    static func rows(_ ns: Namespace, _ rng: inout FuzzRNG, max: Int = 9) -> [JSONValue] {
        var out: [JSONValue] = []
        var keys: [[UInt8]] = []
        let keyField = LeafSchema.schema(for: ns).keyField
        let n = rng.pick([0, 1, 2, 3, 3, 4, 5, 7, max])
        // Settings keys mostly from the order and equivalence traps (see `settingsKeys`).
        let trap = ns == .settings && rng.percent(60) ? AdversarialValues.trapKeys(&rng, count: min(n, max)) : []
        for i in 0..<min(n, max) {
            if !out.isEmpty && rng.oneIn(12) { out.append(rng.pick(out)); continue }
            var r = row(ns, &rng)
            if i < trap.count { r = r.setting(keyField, .str(trap[i])) }
            // Keys distinct by bytes (hex compared case-blind), so a repeat is the rare case above.
            let key = Array((r[keyField]?.stringValue ?? "").lowercased().utf8)
            if keys.contains(key) && !rng.oneIn(12) { continue }
            keys.append(key)
            out.append(r)
        }
        return out
    }

    /// One row: every schema field, optional ones sometimes absent, values from the adversarial
    /// classes; the namespace's drop rule and the notebook's residency fields exercised.
    static func row(_ ns: Namespace, _ rng: inout FuzzRNG) -> JSONValue {
        let schema = LeafSchema.schema(for: ns)
        var m: [(String, JSONValue)] = []
        for f in schema.fields {
            if f.optional && rng.oneIn(3) { continue }
            if f.kind == .normalizedHash && rng.oneIn(3) { continue }
            m.append((f.name, value(f.kind, &rng)))
        }
        var row = JSONValue.object(rng.oneIn(4) ? rng.shuffled(m) : m)
        switch schema.dropRule {
        case .calendarSource:
            if let i = schema.fields.first(where: { $0.kind == .text && $0.name == "source" }), rng.oneIn(3) {
                row = row.setting(i.name, .str(rng.pick(["calendar", "Calendar", "calendar "])))
            }
        case .tombstoned:
            if let f = schema.fields.first(where: { $0.kind == .bool }), rng.oneIn(3) { row = row.setting(f.name, .bool(true)) }
        case .none:
            break
        }
        if ns == .notebook, rng.oneIn(3) {
            // An offloaded note: its committed body is the stamped content hash.
            let body = rng.pick(["", "Flour, water, salt.", AdversarialValues.text(&rng)])
            row = row.setting("bodyOffloaded", .bool(true)).setting("body", .str(rng.oneIn(3) ? body : ""))
                .setting("contentHash", .hex(rng.oneIn(5) ? rng.bytes(32) : NotebookBody.digest(body).bytes))
        }
        return row
    }

    static func value(_ kind: FieldKind, _ rng: inout FuzzRNG) -> JSONValue {
        switch kind {
        case .bytes(let n):
            return AdversarialValues.hex(rng.bytes(n ?? rng.pick([0, 1, 16, 32, 33])), &rng)
        case .normalizedHash:
            return AdversarialValues.hex(rng.oneIn(4) ? [] : rng.bytes(32), &rng)
        case .text, .noteBody:
            return .str(AdversarialValues.text(&rng))
        case .uint:
            return AdversarialValues.json(AdversarialValues.unsigned(&rng), &rng)
        case .int:
            return AdversarialValues.json(rng.oneIn(3) ? rng.pick(AdversarialValues.signedEdges) : Int64(rng.int(-5...5000)), &rng)
        case .date:
            return AdversarialValues.json(date(&rng), &rng)
        case .bool:
            return .bool(rng.bool())
        case .textSet:
            return .array(AdversarialValues.textSet(&rng).map { .str($0) })
        case .reactionSet:
            // Reactors drawn from a pool of two (so equal reactors sort by emoji), emoji from the
            // adversarial text set (NFC/NFD pairs, UTF-16 order traps), duplicates now and then.
            let reactors = [rng.bytes(32), rng.bytes(32)]
            var out: [JSONValue] = []
            for _ in 0..<rng.length(max: 5) {
                let emoji = rng.pick(["\u{1F389}", "\u{1F44D}", "\u{FF61}", "\u{1F44D}\u{1F3FD}", "e\u{301}", "\u{E9}", ""] + AdversarialValues.textSet(&rng, max: 2))
                out.append(.object([("reactor", AdversarialValues.hex(rng.pick(reactors), &rng)), ("emoji", .str(emoji))]))
                if rng.oneIn(6), let last = out.last { out.append(last) }
            }
            return .array(out)
        case .versionVector:
            var m: [(String, JSONValue)] = []
            // Device names: plain, canonical twins, and pairs whose UTF-16 order is not their byte order.
            for _ in 0..<rng.below(4) {
                let name = rng.percent(60) ? rng.pick(["device-a", "device-b", "é", "e\u{301}", ""]) : rng.pick(AdversarialValues.orderTrapKeys)
                m.append((name, .u(AdversarialValues.unsigned(&rng))))
            }
            var seen: [String] = []
            return .object(m.filter { p in
                if seen.contains(where: { $0.utf8.elementsEqual(p.0.utf8) }) { return false }
                seen.append(p.0)
                return true
            })
        }
    }

    /// Milliseconds: around the suite clock, whole and fractional seconds, before 1970 (where
    /// flooring and truncating differ), and the 64-bit edges.
    static func date(_ rng: inout FuzzRNG) -> Int64 {
        switch rng.below(8) {
        case 0: return rng.pick([0, -1, -999, -1000, -1001, 999, 1000, 1001, -1_500, Int64.min, Int64.max, Int64.min + 1])
        case 1: return clock + Int64(rng.below(1000)) * 1000
        case 2: return -Int64(rng.int(1...100_000_000))
        default: return clock + Int64(rng.int(-86_400_000...86_400_000))
        }
    }
}
