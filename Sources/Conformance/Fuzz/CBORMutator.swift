import Primitives
import Vectors

/// Mutations of an encoded CBOR item (SPEC §1) that keep it readable enough to reach the check
/// they target: heads written longer than needed, indefinite lengths, map keys out of order or
/// repeated (adjacent or not), counts that lie, invalid UTF-8, nesting at the depth limit, trailing
/// bytes, reserved additional information, floats and nulls where integers or members belong, and
/// members added or removed in sorted position (so the map stays canonical and the format's own
/// member checks decide).
public enum CBORMutator {
    /// A node of a CBOR item with how it is to be written.
    struct Node: Sendable {
        indirect enum Kind: Sendable {
            case unsigned(UInt64)
            case negative(UInt64)
            case bytes([UInt8])
            /// Text as raw bytes, so invalid UTF-8 can be written.
            case text([UInt8])
            case array([Node])
            case map([(Node, Node)])
            case tag(UInt64, Node)
            /// Major type 7 with a one-byte value: false/true/null/undefined are 20–23.
            case simple(UInt8)
            case float(Double)
            /// Bytes written as they are.
            case raw([UInt8])
        }
        var kind: Kind
        /// Bytes after the initial byte for the head's argument (0, 1, 2, 4, 8); nil = shortest.
        var width: Int?
        var indefinite = false
        /// Added to the declared count of an array or map (a lie about how many items follow).
        var countDelta = 0

        init(_ kind: Kind) { self.kind = kind }

        init(cbor c: CBOR) {
            switch c {
            case .unsigned(let v): kind = .unsigned(v)
            case .negative(let v): kind = .negative(v)
            case .bytes(let b): kind = .bytes(b)
            case .text(let s): kind = .text(Array(s.utf8))
            case .array(let a): kind = .array(a.map { Node(cbor: $0) })
            case .map(let m): kind = .map(m.map { (Node(cbor: $0.key), Node(cbor: $0.value)) })
            case .tagged(let t, let inner): kind = .tag(t, Node(cbor: inner))
            case .simple(let v): kind = .simple(v)
            case .bool(let b): kind = .simple(b ? 21 : 20)
            case .null: kind = .simple(22)
            case .undefined: kind = .simple(23)
            case .float(let d): kind = .float(d)
            }
        }

        var isContainer: Bool {
            switch kind {
            case .array, .map, .tag: return true
            default: return false
            }
        }
    }

    /// A mutated encoding of `bytes`, or nil when they are not one deterministic CBOR item with an
    /// array, map or tag at the top.
    public static func mutate(_ bytes: [UInt8], rng: inout FuzzRNG) -> [UInt8]? {
        guard let item = try? CBORReader.decode(bytes) else { return nil }
        var root = Node(cbor: item)
        guard root.isContainer else { return nil }
        for _ in 0..<(rng.oneIn(4) ? 2 : 1) { mutate(&root, rng: &rng) }
        var out: [UInt8] = []
        write(root, into: &out)
        switch rng.below(24) {
        case 0: out.append(rng.pick([0x00, 0xf6, 0xff, 0x60]))
        case 1: if out.count > 1 { out.removeLast(1 + rng.below(min(out.count - 1, 4))) }
        default: break
        }
        return out
    }

    // MARK: - fault classes a format generator asks for by name

    /// The item with its top container declaring far more entries than the bytes left can hold,
    /// and a second fault inside it (a head longer than needed). Targets readers that trust the
    /// declared count and read entries until the input runs out instead of checking it at the head
    /// (SPEC §1 [R1-18]): they report the inner fault instead of `cbor_truncated`.
    public static func countBeyondInput(_ bytes: [UInt8], rng: inout FuzzRNG) -> [UInt8]? {
        guard let item = try? CBORReader.decode(bytes) else { return nil }
        var root = Node(cbor: item)
        let children: Int
        switch root.kind {
        case .map(let m): children = 2 * m.count
        case .array(let a): children = a.count
        default: return nil
        }
        guard children > 0 else { return nil }
        root.countDelta = rng.pick([bytes.count, 1000, 65_536])
        update(&root, [rng.below(children)][...]) { n in n.width = 8 }
        return encoded(root)
    }

    /// The top map of `bytes` (a payload or a row), as nodes, for member-level surgery.
    static func topMap(_ bytes: [UInt8]) -> [(Node, Node)]? {
        guard let item = try? CBORReader.decode(bytes), case .map(let m) = Node(cbor: item).kind else { return nil }
        return m
    }

    static func encodedMap(_ m: [(Node, Node)]) -> [UInt8] { encoded(Node(.map(m))) }

    /// The text of a map key node, or nil.
    static func keyText(_ n: Node) -> String? {
        if case .text(let t) = n.kind { return String(decoding: t, as: UTF8.self) }
        return nil
    }

    /// A value of the same meaning as another major type (a byte string as text, an integer as
    /// text, a boolean as an integer).
    static func retyped(_ n: Node) -> Node {
        switch n.kind {
        case .bytes(let b): return Node(.text(Array(Hex.encode(b).utf8)))
        case .text(let t): return Node(.bytes(t))
        case .unsigned(let v): return Node(.text(Array(String(v).utf8)))
        case .simple(let s) where s == 20 || s == 21: return Node(.unsigned(s == 21 ? 1 : 0))
        default: return Node(.bytes([]))
        }
    }

    /// An unsigned integer written as a float of the same value (half, single or double, the
    /// shortest that holds it or a longer one). Targets decoders that read "a number" and accept
    /// an integral float where SPEC §1 and the format's tables want major type 0.
    static func integralFloat(_ n: Node, rng: inout FuzzRNG) -> Node? {
        guard case .unsigned(let v) = n.kind, let d = Double(exactly: v) else { return nil }
        var f = Node(.float(d))
        f.width = rng.pick([2, 4, 8])
        return f
    }

    // MARK: - choosing a node

    /// Paths (child indices) of every node, with its depth (the root has depth 1).
    static func paths(_ n: Node, _ path: [Int], _ depth: Int, into out: inout [([Int], Int)]) {
        out.append((path, depth))
        switch n.kind {
        case .array(let a): for (i, x) in a.enumerated() { paths(x, path + [i], depth + 1, into: &out) }
        case .map(let m):
            for (i, e) in m.enumerated() {
                paths(e.0, path + [2 * i], depth + 1, into: &out)
                paths(e.1, path + [2 * i + 1], depth + 1, into: &out)
            }
        case .tag(_, let x): paths(x, path + [0], depth + 1, into: &out)
        default: break
        }
    }

    static func update(_ n: inout Node, _ path: ArraySlice<Int>, _ f: (inout Node) -> Void) {
        guard let i = path.first else { f(&n); return }
        switch n.kind {
        case .array(var a) where i < a.count:
            update(&a[i], path.dropFirst(), f)
            n.kind = .array(a)
        case .map(var m) where i / 2 < m.count:
            if i % 2 == 0 { update(&m[i / 2].0, path.dropFirst(), f) } else { update(&m[i / 2].1, path.dropFirst(), f) }
            n.kind = .map(m)
        case .tag(let t, var x):
            update(&x, path.dropFirst(), f)
            n.kind = .tag(t, x)
        default: break
        }
    }

    static func mutate(_ root: inout Node, rng: inout FuzzRNG) {
        var all: [([Int], Int)] = []
        paths(root, [], 1, into: &all)
        let (path, depth) = rng.pick(all)
        let choice = rng.below(14)
        update(&root, path[...]) { n in apply(choice, to: &n, depth: depth, rng: &rng) }
    }

    static func apply(_ choice: Int, to n: inout Node, depth: Int, rng: inout FuzzRNG) {
        switch choice {
        case 0:
            // A longer head than needed.
            n.width = rng.pick([1, 2, 4, 8])
        case 1:
            switch n.kind {
            case .bytes, .text, .array, .map: n.indefinite = true
            default: n.width = rng.pick([1, 2])
            }
        case 2:
            guard case .map(var m) = n.kind, m.count >= 2 else { n.countDelta = rng.pick([1, -1]); return }
            let i = rng.below(m.count - 1)
            m.swapAt(i, rng.oneIn(3) && m.count > 2 ? rng.below(m.count) : i + 1)
            n.kind = .map(m)
        case 3:
            // A key repeated: next to itself (a duplicate) or after another key (out of order).
            guard case .map(var m) = n.kind, !m.isEmpty else { return }
            let i = rng.below(m.count)
            let value = rng.bool() ? m[i].1 : Node(.simple(22))
            let at = rng.bool() || m.count < 2 ? i + 1 : min(m.count, i + 2)
            m.insert((m[i].0, value), at: at)
            n.kind = .map(m)
        case 4:
            n.countDelta = rng.pick([1, 1, -1, 2])
        case 5:
            guard case .text(var t) = n.kind else { n.kind = .text(rng.pick([[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]])); return }
            t.insert(contentsOf: rng.pick([[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80]] as [[UInt8]]), at: rng.below(t.count + 1))
            n.kind = .text(t)
        case 6:
            // Nest to the depth limit: the node ends at depth 32, 33 or 34.
            let target = rng.pick([32, 33, 34])
            var x = n
            if target > depth { for _ in 0..<(target - depth) { x = Node(.array([x])) } }
            n = x
        case 7:
            n.kind = rng.pick([.simple(22), .simple(23), .simple(20), .simple(21), .simple(UInt8(rng.below(20))), .raw([0xf8, UInt8(rng.below(32))]),
                               .float(1.0), .float(0), .raw([0xf9, 0x7e, 0x00]), .raw([0xf9, 0x7c, 0x01]), .negative(0), .text([]), .bytes([])])
        case 8:
            if case .unsigned(let v) = n.kind, Double(exactly: v) != nil { n.kind = .float(Double(v)) } else { n.width = rng.pick([2, 4]) }
        case 9:
            let major = UInt8(rng.below(8)) << 5
            n.kind = .raw([major | UInt8(28 + rng.below(4))])
        case 10:
            // A member added in sorted position, so the map stays canonical.
            guard case .map(var m) = n.kind else { n.kind = .tag(UInt64(rng.pick([0, 1, 2, 24, 55799])), n); return }
            let key = Node(.text(Array(rng.pick(["zz", "x", "type2", "a", "version", "extra", "Type"]).utf8)))
            let kb = encoded(key)
            if let at = sortedIndex(m, kb) { m.insert((key, Node(rng.pick([.unsigned(1), .text([]), .simple(22), .bytes([0])]))), at: at) }
            n.kind = .map(m)
        case 11:
            guard case .map(var m) = n.kind, !m.isEmpty else { return }
            m.remove(at: rng.below(m.count))
            n.kind = .map(m)
        case 12:
            switch n.kind {
            case .text(let t):
                let s = String(decoding: t, as: UTF8.self)
                n.kind = .text(Array(rng.pick([s.uppercased(), FuzzUnicode.nfc(s), FuzzUnicode.nfd(s), s + "x", String(s.dropLast()), ""]).utf8))
            case .bytes(var b):
                if b.isEmpty { b = [0] } else if rng.bool() { b[rng.below(b.count)] ^= 1 } else { b.removeLast() }
                n.kind = .bytes(b)
            case .unsigned(let v):
                n.kind = .unsigned(rng.pick([0, 1, v &+ 1, v &- 1, UInt64.max, 1 << 32, 1 << 53 + 1]))
            case .array(var a):
                if !a.isEmpty { a.remove(at: rng.below(a.count)) } else { a = [Node(.unsigned(0))] }
                n.kind = .array(a)
            default:
                n.kind = .unsigned(0)
            }
        default:
            // Type confusion: the same content as another major type.
            switch n.kind {
            case .text(let t): n.kind = .bytes(t)
            case .bytes(let b): n.kind = .text(b)
            case .unsigned(let v): n.kind = rng.bool() ? .negative(v) : .text(Array(String(v).utf8))
            case .simple(let s) where s == 20 || s == 21: n.kind = .unsigned(s == 21 ? 1 : 0)
            default: n.kind = .array([])
            }
        }
    }

    /// Where a key with encoding `kb` goes in a map sorted by encoded keys; nil when it is there.
    static func sortedIndex(_ m: [(Node, Node)], _ kb: [UInt8]) -> Int? {
        for (i, e) in m.enumerated() {
            let eb = encoded(e.0)
            if eb == kb { return nil }
            if kb.lexicographicallyPrecedes(eb) { return i }
        }
        return m.count
    }

    // MARK: - writing

    static func encoded(_ n: Node) -> [UInt8] {
        var out: [UInt8] = []
        write(n, into: &out)
        return out
    }

    static func head(_ major: UInt8, _ arg: UInt64, width: Int?, into out: inout [UInt8]) {
        let m = major << 5
        let natural: Int = arg < 24 ? 0 : arg <= 0xff ? 1 : arg <= 0xffff ? 2 : arg <= 0xffff_ffff ? 4 : 8
        let w = max(natural, width ?? natural)
        switch w {
        case 0: out.append(m | UInt8(arg))
        case 1: out += [m | 24, UInt8(arg)]
        case 2: out += [m | 25, UInt8(arg >> 8), UInt8(truncatingIfNeeded: arg)]
        case 4: out.append(m | 26); for s in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: arg >> UInt64(s))) }
        default: out.append(m | 27); for s in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: arg >> UInt64(s))) }
        }
    }

    static func write(_ n: Node, into out: inout [UInt8]) {
        switch n.kind {
        case .unsigned(let v): head(0, v, width: n.width, into: &out)
        case .negative(let v): head(1, v, width: n.width, into: &out)
        case .bytes(let b), .text(let b):
            let major: UInt8 = { if case .bytes = n.kind { return 2 } else { return 3 } }()
            if n.indefinite {
                out.append(major << 5 | 31)
                if !b.isEmpty { head(major, UInt64(b.count), width: nil, into: &out); out += b }
                out.append(0xff)
            } else {
                head(major, UInt64(b.count), width: n.width, into: &out)
                out += b
            }
        case .array(let a):
            if n.indefinite { out.append(0x9f) } else { head(4, UInt64(max(0, a.count + n.countDelta)), width: n.width, into: &out) }
            for x in a { write(x, into: &out) }
            if n.indefinite { out.append(0xff) }
        case .map(let m):
            if n.indefinite { out.append(0xbf) } else { head(5, UInt64(max(0, m.count + n.countDelta)), width: n.width, into: &out) }
            for (k, v) in m { write(k, into: &out); write(v, into: &out) }
            if n.indefinite { out.append(0xff) }
        case .tag(let t, let x):
            head(6, t, width: n.width, into: &out)
            write(x, into: &out)
        case .simple(let v):
            if v < 24 && n.width == nil { out.append(0xe0 | v) } else { out += [0xf8, v] }
        case .float(let d):
            let w = n.width ?? 2
            if w <= 2, let h = half(d) {
                out += [0xf9, UInt8(h >> 8), UInt8(h & 0xff)]
            } else if w <= 4, Double(Float(d)) == d {
                out.append(0xfa)
                let bits = Float(d).bitPattern
                for s in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: bits >> UInt32(s))) }
            } else {
                out.append(0xfb)
                let bits = d.bitPattern
                for s in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: bits >> UInt64(s))) }
            }
        case .raw(let b): out += b
        }
    }

    /// The IEEE half-precision bits of `d` when it is exactly representable (normal values only).
    static func half(_ d: Double) -> UInt16? {
        if d == 0 { return d.sign == .minus ? 0x8000 : 0 }
        let f = Float(d)
        guard Double(f) == d else { return nil }
        let bits = f.bitPattern
        let sign = UInt16((bits >> 16) & 0x8000)
        let exp = Int((bits >> 23) & 0xff) - 127 + 15
        let mant = bits & 0x7f_ffff
        guard exp > 0, exp < 31, mant & 0x1fff == 0 else { return nil }
        return sign | UInt16(exp) << 10 | UInt16(mant >> 13)
    }
}
