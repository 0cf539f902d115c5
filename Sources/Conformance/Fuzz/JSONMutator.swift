import Primitives
import Vectors

/// Makes invalid inputs from valid ones, for every format alike: members dropped, nulled, added
/// or reordered; values of another JSON type; integers at their limits and in the spellings
/// SPEC §2.2 refuses (`"05"`, `"+5"`, `1.0`, `1e0`) or accepts (`"-0"`, big decimal strings);
/// hex flipped, cut, lengthened, cased or broken; text from the adversarial classes; arrays
/// emptied, repeated, reordered. A hex member holding deterministic CBOR is handed to
/// `CBORMutator`; a string holding a JSON object (a frame) is mutated inside.
public enum JSONMutator {
    /// A step of a path into a JSON tree.
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// `mutations` mutations (at least one) at random places.
    public static func mutate(_ v: JSONValue, count mutations: Int, rng: inout FuzzRNG) -> JSONValue {
        var out = v
        for _ in 0..<max(1, mutations) { out = mutateOnce(out, rng: &rng) }
        return out
    }

    /// Every node of the tree with its path, the root first.
    static func nodes(_ v: JSONValue, path: [Step] = [], into out: inout [([Step], JSONValue)]) {
        out.append((path, v))
        switch v {
        case .object(let m): for (k, x) in m { nodes(x, path: path + [.key(k)], into: &out) }
        case .array(let a): for (i, x) in a.enumerated() { nodes(x, path: path + [.index(i)], into: &out) }
        default: break
        }
    }

    /// The tree with the node at `path` replaced (nil removes it from its object or array).
    static func replacing(_ v: JSONValue, at path: ArraySlice<Step>, with new: JSONValue?) -> JSONValue? {
        guard let first = path.first else { return new }
        switch (v, first) {
        case (.object(var m), .key(let k)):
            guard let i = m.firstIndex(where: { $0.0.utf8.elementsEqual(k.utf8) }) else { return v }
            if let r = replacing(m[i].1, at: path.dropFirst(), with: new) { m[i].1 = r } else { m.remove(at: i) }
            return .object(m)
        case (.array(var a), .index(let i)) where i < a.count:
            if let r = replacing(a[i], at: path.dropFirst(), with: new) { a[i] = r } else { a.remove(at: i) }
            return .array(a)
        default:
            return v
        }
    }

    static func mutateOnce(_ v: JSONValue, rng: inout FuzzRNG) -> JSONValue {
        var all: [([Step], JSONValue)] = []
        nodes(v, into: &all)
        // Leaves and members near the top are where inputs are read first: weight toward them.
        let (path, node) = all.count > 1 && !rng.oneIn(8) ? all[1 + rng.below(all.count - 1)] : all[0]
        let replaced = mutated(node, isRoot: path.isEmpty, rng: &rng)
        return replacing(v, at: path[...], with: replaced) ?? v
    }

    /// A new value for `node`, or nil to remove it.
    static func mutated(_ node: JSONValue, isRoot: Bool, rng: inout FuzzRNG) -> JSONValue? {
        if !isRoot && rng.oneIn(6) {
            switch rng.below(3) {
            case 0: return nil
            case 1: return .null
            default: return rng.pick(typeSwaps)
            }
        }
        switch node {
        case .object(let m): return mutatedObject(m, rng: &rng)
        case .array(let a): return mutatedArray(a, rng: &rng)
        case .number(let n): return mutatedNumber(n, rng: &rng)
        case .string(let s): return mutatedString(s, rng: &rng)
        case .bool(let b): return rng.pick([.bool(!b), .number(b ? "1" : "0"), .string(b ? "true" : "false")])
        case .null: return rng.pick([.bool(false), .string(""), .number("0"), .object([]), .array([])])
        }
    }

    static let typeSwaps: [JSONValue] = [.bool(true), .bool(false), .number("0"), .number("1"), .string(""), .string("0"),
                                         .array([]), .object([]), .number("1.5")]

    static func mutatedObject(_ m: [(String, JSONValue)], rng: inout FuzzRNG) -> JSONValue {
        var m = m
        switch rng.below(4) {
        case 0:
            // An unknown member: ignored by op inputs (§2.2 rule 2), refused inside rows and wire data.
            let name = rng.pick(["x_fuzz", "extra", "\u{1F600}", "", "_", "Type", m.first.map { $0.0.uppercased() } ?? "X"])
            if !m.contains(where: { $0.0.utf8.elementsEqual(name.utf8) }) {
                m.insert((name, rng.pick(typeSwaps + [.null])), at: rng.below(m.count + 1))
            }
        case 1:
            m = rng.shuffled(m)
        case 2:
            if !m.isEmpty { m.remove(at: rng.below(m.count)) }
        default:
            if !m.isEmpty { let i = rng.below(m.count); m[i].1 = .null }
        }
        return .object(m)
    }

    static func mutatedArray(_ a: [JSONValue], rng: inout FuzzRNG) -> JSONValue {
        var a = a
        switch rng.below(7) {
        case 0: a = []
        case 1: if !a.isEmpty { a.remove(at: rng.below(a.count)) }
        case 2: if !a.isEmpty { a.insert(a[rng.below(a.count)], at: rng.below(a.count + 1)) }
        case 3: a.reverse()
        case 4: a = rng.shuffled(a)
        case 5:
            // Grow to a size at a limit, repeating the elements.
            if !a.isEmpty {
                let target = rng.pick([255, 256, 257, 1000])
                var i = 0
                while a.count < target { a.append(a[i % a.count]); i += 1 }
            }
        default:
            if a.count >= 2 { a.swapAt(rng.below(a.count), rng.below(a.count)) }
        }
        return .array(a)
    }

    static func mutatedNumber(_ n: String, rng: inout FuzzRNG) -> JSONValue {
        let v = Int64(n)
        switch rng.below(8) {
        case 0: return .number(String(rng.pick(AdversarialValues.unsignedEdges)))
        case 1: return .string(String(rng.pick(AdversarialValues.unsignedEdges)))
        case 2: return .number(String(rng.pick(AdversarialValues.signedEdges)))
        case 3:
            // Spellings §2.2 refuses (and two it accepts: "-0" and the decimal string).
            let d = v.map { String($0.magnitude) } ?? "5"
            return rng.pick([.string("0" + d), .string("+" + d), .string(" " + d), .string(d + " "), .number(d + ".0"), .number(d + "e0"),
                             .number(d + "E0"), .number("-0"), .string("-0"), .string(d), .string(""), .string("1_000"), .bool(true)])
        case 4: return .number("9007199254740993")
        default:
            guard let v else { return .number("0") }
            let delta = Int64(rng.pick([1, -1, 1000, -1000, 2, 60, -60, 120, -120, 121, -121]))
            let (r, o) = v.addingReportingOverflow(delta)
            return .number(String(o ? v : r))
        }
    }

    static func mutatedString(_ s: String, rng: inout FuzzRNG) -> JSONValue {
        if let bytes = Hex.decode(s), !s.isEmpty {
            if bytes.count >= 2, rng.percent(45), let c = CBORMutator.mutate(bytes, rng: &rng) { return .string(Hex.encode(c)) }
            return .string(mutatedHex(s, bytes, rng: &rng))
        }
        if let first = s.utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "["), rng.percent(70),
           let inner = try? JSONValue.parse(s) {
            return .string(mutateOnce(inner, rng: &rng).compact)
        }
        if JSONValue.isCanonicalDecimal(s), rng.bool() { return mutatedNumber(s, rng: &rng) }
        switch rng.below(7) {
        case 0: return .string(s.uppercased())
        case 1: return .string(s.precomposedForFuzz)
        case 2: return .string(s.decomposedForFuzz)
        case 3: return .string(s + AdversarialValues.text(&rng))
        case 4: return .string(s.isEmpty ? "" : String(s.dropLast()))
        default: return .string(AdversarialValues.text(&rng))
        }
    }

    static func mutatedHex(_ s: String, _ bytes: [UInt8], rng: inout FuzzRNG) -> String {
        var b = bytes
        switch rng.below(11) {
        case 0, 1:
            let i = rng.below(b.count)
            b[i] ^= UInt8(1) << UInt8(rng.below(8))
        case 2: b.removeLast()
        case 3: b.append(UInt8(truncatingIfNeeded: rng.next()))
        case 4: b.removeFirst()
        case 5: return s.uppercased()
        case 6: return String(s.dropLast())
        case 7: return rng.pick(["zz", "0x", " ", "g", "-"]) + String(s.dropFirst(2))
        case 8: b = rng.oneIn(2) ? [] : [UInt8](repeating: rng.pick([0, 0xff]), count: b.count)
        case 9: b = Array(b.prefix(rng.below(b.count)))
        default:
            let i = rng.below(b.count)
            b[i] = rng.pick([0x00, 0xff, 0x80, 0x7f])
        }
        return Hex.encode(b)
    }
}

extension String {
    /// The text in NFC and in NFD.
    var precomposedForFuzz: String { FuzzUnicode.nfc(self) }
    var decomposedForFuzz: String { FuzzUnicode.nfd(self) }
}
