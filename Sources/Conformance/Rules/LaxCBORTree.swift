import Vectors

/// A CBOR item read as written, for the two-fault audit's `Difference`: map entries in their
/// written order, repeats kept, text kept as its raw bytes (invalid UTF-8 included), so that a
/// structural fault (an unknown member, a member out of order, a wrong type) is one place the
/// audit can put back while the other fault stays. The bytes come back by writing the tree with
/// shortest heads in the same order; `tree` is nil unless that gives exactly the bytes it read,
/// so an encoding-level fault (a long head, an indefinite length, a truncation) leaves the value
/// to the byte-by-byte comparison.
///
/// The tree is a `CBOR` value whose maps and texts are under private tags: a map is its keys and
/// values in one flat array (`[k1, v1, k2, v2, …]`), a text its bytes, a float its head and bytes.
enum LaxCBORTree {
    static let mapTag: UInt64 = 0x6c61_786d  // "laxm"
    static let textTag: UInt64 = 0x6c61_7874  // "laxt"
    static let rawTag: UInt64 = 0x6c61_7872  // "laxr": a float, written back byte for byte
    /// Deeper trees are left to the byte comparison (the depth cases nest 33 or more).
    static let maxDepth = 64

    static func tree(_ bytes: [UInt8]) -> CBOR? {
        var p = 0
        guard let t = item(bytes, &p, depth: 0), p == bytes.count, self.bytes(t) == bytes else { return nil }
        return t
    }

    static func bytes(_ t: CBOR) -> [UInt8] {
        var out: [UInt8] = []
        write(t, &out)
        return out
    }

    /// A head in its shortest form (RFC 8949 §4.2.1 rule 1).
    private static func head(_ major: UInt8, _ v: UInt64, _ out: inout [UInt8]) {
        var w = CBORWriter()
        w.writeHead(major: major, v)
        out += w.bytes
    }

    private static func write(_ t: CBOR, _ out: inout [UInt8]) {
        switch t {
        case .tagged(mapTag, .array(let flat)):
            head(5, UInt64(flat.count / 2), &out)
            for x in flat { write(x, &out) }
        case .tagged(textTag, .bytes(let raw)):
            head(3, UInt64(raw.count), &out)
            out += raw
        case .tagged(rawTag, .bytes(let raw)):
            out += raw
        case .tagged(let tag, let inner):
            head(6, tag, &out)
            write(inner, &out)
        case .array(let items):
            head(4, UInt64(items.count), &out)
            for x in items { write(x, &out) }
        default:
            out += CBORWriter.encode(t)
        }
    }

    private static func item(_ b: [UInt8], _ p: inout Int, depth: Int) -> CBOR? {
        guard depth <= maxDepth, p < b.count else { return nil }
        let start = p
        let initial = b[p]
        p += 1
        let major = initial >> 5, ai = initial & 0x1f
        var v: UInt64
        switch ai {
        case 0..<24: v = UInt64(ai)
        case 24...27:
            let n = 1 << Int(ai - 24)
            guard n <= b.count - p else { return nil }
            v = 0
            for x in b[p..<p + n] { v = v << 8 | UInt64(x) }
            p += n
        default: return nil
        }
        func take(_ n: UInt64) -> [UInt8]? {
            guard n <= UInt64(b.count - p) else { return nil }
            defer { p += Int(n) }
            return Array(b[p..<p + Int(n)])
        }
        switch major {
        case 0: return .unsigned(v)
        case 1: return .negative(v)
        case 2: return take(v).map(CBOR.bytes)
        case 3: return take(v).map { .tagged(textTag, .bytes($0)) }
        case 4:
            guard v <= UInt64(b.count - p) else { return nil }
            var items: [CBOR] = []
            for _ in 0..<v { guard let x = item(b, &p, depth: depth + 1) else { return nil }; items.append(x) }
            return .array(items)
        case 5:
            guard v <= UInt64(b.count - p) / 2 else { return nil }
            var flat: [CBOR] = []
            for _ in 0..<(2 * v) { guard let x = item(b, &p, depth: depth + 1) else { return nil }; flat.append(x) }
            return .tagged(mapTag, .array(flat))
        case 6:
            guard v != mapTag, v != textTag, v != rawTag, let x = item(b, &p, depth: depth + 1) else { return nil }
            return .tagged(v, x)
        default:
            if ai >= 25 { return .tagged(rawTag, .bytes(Array(b[start..<p]))) }
            switch v {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            default: return .simple(UInt8(v))
            }
        }
    }
}
