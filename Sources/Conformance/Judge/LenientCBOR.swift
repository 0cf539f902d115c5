import Vectors

/// Reads any well-formed CBOR (RFC 8949 §3), deterministic or not: non-shortest heads,
/// indefinite lengths, unsorted or repeated map keys are all accepted, so a testee's bytes can be
/// diffed by path even when the strict reader refuses them. Only for judging, never for vectors.
enum LenientCBOR {
    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        let offset: Int
        var description: String { "\(reason) (at byte \(offset))" }
    }

    static let maxDepth = 64

    /// IEEE 754 binary16 to Double (RFC 8949 Appendix D).
    static func half(_ h: UInt16) -> Double {
        let exp = Int(h >> 10) & 0x1f, mant = Double(h & 0x3ff)
        let v: Double
        if exp == 0 { v = mant * 0x1p-24 } else if exp != 31 { v = (mant + 1024) * Double(sign: .plus, exponent: exp - 25, significand: 1) } else { v = mant == 0 ? .infinity : .nan }
        return h & 0x8000 != 0 ? -v : v
    }

    static func decode(_ bytes: [UInt8]) throws(Malformed) -> CBOR {
        var r = Reader(input: bytes)
        let item = try r.item(depth: 0)
        guard r.pos == bytes.count else { throw Malformed(reason: "\(bytes.count - r.pos) byte(s) after the top-level item", offset: r.pos) }
        return item
    }

    struct Reader {
        let input: [UInt8]
        var pos = 0

        mutating func byte() throws(Malformed) -> UInt8 {
            guard pos < input.count else { throw Malformed(reason: "input ends inside an item", offset: pos) }
            pos += 1
            return input[pos - 1]
        }

        mutating func take(_ n: UInt64) throws(Malformed) -> [UInt8] {
            guard n <= UInt64(input.count - pos) else { throw Malformed(reason: "a length of \(n) exceeds the \(input.count - pos) byte(s) left", offset: pos) }
            defer { pos += Int(n) }
            return Array(input[pos..<pos + Int(n)])
        }

        /// The argument of `ai`, or nil for indefinite length (31).
        mutating func argument(_ ai: UInt8) throws(Malformed) -> UInt64? {
            switch ai {
            case 0..<24: return UInt64(ai)
            case 24...27:
                var v: UInt64 = 0
                for b in try take(UInt64(1 << Int(ai - 24))) { v = v << 8 | UInt64(b) }
                return v
            case 31: return nil
            default: throw Malformed(reason: "reserved additional information \(ai)", offset: pos - 1)
            }
        }

        mutating func isBreak() -> Bool {
            guard pos < input.count, input[pos] == 0xff else { return false }
            pos += 1
            return true
        }

        mutating func item(depth: Int) throws(Malformed) -> CBOR {
            guard depth <= LenientCBOR.maxDepth else { throw Malformed(reason: "nested deeper than \(LenientCBOR.maxDepth)", offset: pos) }
            let start = pos
            let ib = try byte()
            let major = ib >> 5, ai = ib & 0x1f
            switch major {
            case 0:
                guard let v = try argument(ai) else { throw Malformed(reason: "indefinite length on an integer", offset: start) }
                return .unsigned(v)
            case 1:
                guard let v = try argument(ai) else { throw Malformed(reason: "indefinite length on an integer", offset: start) }
                return .negative(v)
            case 2, 3:
                var bytes: [UInt8]
                if let n = try argument(ai) {
                    bytes = try take(n)
                } else {
                    bytes = []
                    while !isBreak() {
                        let chunkStart = pos
                        let cb = try byte()
                        guard cb >> 5 == major, let n = try argument(cb & 0x1f) else {
                            throw Malformed(reason: "an indefinite-length string chunk of another type", offset: chunkStart)
                        }
                        bytes += try take(n)
                    }
                }
                guard major == 3 else { return .bytes(bytes) }
                guard let s = String(validating: bytes, as: UTF8.self) else { throw Malformed(reason: "a text string that is not UTF-8", offset: start) }
                return .text(s)
            case 4:
                var items: [CBOR] = []
                if let n = try argument(ai) {
                    guard n <= UInt64(input.count - pos) else { throw Malformed(reason: "an array of \(n) items in \(input.count - pos) byte(s)", offset: start) }
                    for _ in 0..<n { items.append(try item(depth: depth + 1)) }
                } else {
                    while !isBreak() { items.append(try item(depth: depth + 1)) }
                }
                return .array(items)
            case 5:
                var entries: [CBORMapEntry] = []
                if let n = try argument(ai) {
                    guard n <= UInt64(input.count - pos) else { throw Malformed(reason: "a map of \(n) entries in \(input.count - pos) byte(s)", offset: start) }
                    for _ in 0..<n { entries.append(CBORMapEntry(key: try item(depth: depth + 1), value: try item(depth: depth + 1))) }
                } else {
                    while !isBreak() { entries.append(CBORMapEntry(key: try item(depth: depth + 1), value: try item(depth: depth + 1))) }
                }
                return .map(entries)
            case 6:
                guard let t = try argument(ai) else { throw Malformed(reason: "indefinite length on a tag", offset: start) }
                return .tagged(t, try item(depth: depth + 1))
            default:
                switch ai {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                case 23: return .undefined
                case 24: return .simple(try byte())
                case 25: return .float(LenientCBOR.half(UInt16(try bigEndian(2))))
                case 26: return .float(Double(Float(bitPattern: UInt32(try bigEndian(4)))))
                case 27: return .float(Double(bitPattern: try bigEndian(8)))
                case 31: throw Malformed(reason: "a break outside an indefinite-length item", offset: start)
                case 0..<20: return .simple(ai)
                default: throw Malformed(reason: "reserved additional information \(ai)", offset: start)
                }
            }
        }

        mutating func bigEndian(_ n: UInt64) throws(Malformed) -> UInt64 {
            var v: UInt64 = 0
            for b in try take(n) { v = v << 8 | UInt64(b) }
            return v
        }
    }
}
