/// A strict reader for RFC 8949 §4.2.1 core deterministic CBOR.
///
/// Strict by default because a leaf or frame that decodes in two ways can hash in two ways: it
/// rejects non-shortest heads and floats, indefinite lengths, duplicate or unsorted map keys,
/// invalid UTF-8, reserved additional-info values, trailing bytes and nesting deeper than
/// `maxDepth`. Every rejection is a `WireError` naming the byte offset; nothing here traps.
public struct CBORReader {
    public static let defaultMaxDepth = 32

    private let input: [UInt8]
    private var position: Int = 0
    private let maxDepth: Int

    public init(_ bytes: [UInt8], maxDepth: Int = CBORReader.defaultMaxDepth) {
        input = bytes
        self.maxDepth = maxDepth
    }

    /// Decodes exactly one item that spans all of `bytes`.
    public static func decode(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(WireError) -> CBOR {
        var r = CBORReader(bytes, maxDepth: maxDepth)
        let item = try r.readItem(depth: 0)
        guard r.position == bytes.count else {
            throw WireError(.cborTrailingBytes, "\(bytes.count - r.position) byte(s) after the top-level item", offset: r.position)
        }
        return item
    }

    private mutating func byte() throws(WireError) -> UInt8 {
        guard position < input.count else { throw WireError(.cborTruncated, "input ends inside an item", offset: position) }
        defer { position += 1 }
        return input[position]
    }

    private mutating func take(_ n: Int, at start: Int) throws(WireError) -> ArraySlice<UInt8> {
        guard n >= 0, n <= input.count - position else {
            throw WireError(.cborTruncated, "needs \(n) byte(s), \(input.count - position) remain", offset: start)
        }
        defer { position += n }
        return input[position..<position + n]
    }

    /// Reads the argument that follows an initial byte with additional info `ai`, enforcing the
    /// shortest form (§4.2.1 rule 1).
    private mutating func argument(_ ai: UInt8, start: Int) throws(WireError) -> UInt64 {
        switch ai {
        case 0..<24: return UInt64(ai)
        case 24...27:
            let n = 1 << Int(ai - 24)
            var v: UInt64 = 0
            for b in try take(n, at: start) { v = v << 8 | UInt64(b) }
            let minimum: UInt64 = [24, 0x100, 0x1_0000, 0x1_0000_0000][Int(ai - 24)]
            guard v >= minimum else {
                throw WireError(.cborNonCanonical, "argument \(v) is not in its shortest form", offset: start)
            }
            return v
        case 31:
            throw WireError(.cborIndefiniteLength, "indefinite length or break code", offset: start)
        default:
            throw WireError(.cborReservedInfo, "reserved additional information \(ai)", offset: start)
        }
    }

    private func length(_ v: UInt64, start: Int) throws(WireError) -> Int {
        guard v <= UInt64(input.count - position) else {
            throw WireError(.cborTruncated, "declared length \(v) exceeds the \(input.count - position) byte(s) left", offset: start)
        }
        return Int(v)
    }

    public mutating func readItem(depth: Int) throws(WireError) -> CBOR {
        let start = position
        guard depth < maxDepth else {
            throw WireError(.cborDepthExceeded, "nesting deeper than \(maxDepth)", offset: start)
        }
        let initial = try byte()
        let major = initial >> 5
        let ai = initial & 0x1f
        switch major {
        case 0:
            return .unsigned(try argument(ai, start: start))
        case 1:
            return .negative(try argument(ai, start: start))
        case 2:
            let n = try length(try argument(ai, start: start), start: start)
            return .bytes(Array(try take(n, at: start)))
        case 3:
            let n = try length(try argument(ai, start: start), start: start)
            let raw = try take(n, at: start)
            guard let s = String(validating: raw, as: UTF8.self) else {
                throw WireError(.cborInvalidUTF8, "text string is not valid UTF-8", offset: start)
            }
            return .text(s)
        case 4:
            let n = try length(try argument(ai, start: start), start: start)
            var items: [CBOR] = []
            items.reserveCapacity(n)
            for _ in 0..<n { items.append(try readItem(depth: depth + 1)) }
            return .array(items)
        case 5:
            // Each entry needs at least two bytes.
            let declared = try argument(ai, start: start)
            guard declared <= UInt64(input.count - position) / 2 else {
                throw WireError(.cborTruncated, "map of \(declared) entries cannot fit in the bytes left", offset: start)
            }
            var entries: [CBORMapEntry] = []
            var previousKey: ArraySlice<UInt8>? = nil
            for _ in 0..<Int(declared) {
                let keyStart = position
                let key = try readItem(depth: depth + 1)
                let keyBytes = input[keyStart..<position]
                if let prev = previousKey {
                    if prev.elementsEqual(keyBytes) {
                        throw WireError(.cborDuplicateMapKey, "map key repeated", offset: keyStart)
                    }
                    if !prev.lexicographicallyPrecedes(keyBytes) {
                        throw WireError(.cborUnsortedMapKeys, "map keys not in bytewise order of their encodings", offset: keyStart)
                    }
                }
                previousKey = keyBytes
                let value = try readItem(depth: depth + 1)
                entries.append(CBORMapEntry(key: key, value: value))
            }
            return .map(entries)
        case 6:
            let tag = try argument(ai, start: start)
            let inner = try readItem(depth: depth + 1)
            if tag == 2 || tag == 3 {
                // Preferred serialization of bignums (§3.4.3): no leading zero bytes, and a value that
                // fits major type 0/1 must use it.
                guard case .bytes(let b) = inner else {
                    throw WireError(.cborNonCanonical, "bignum tag \(tag) must enclose a byte string", offset: start)
                }
                guard b.count > 8, b.first != 0 else {
                    throw WireError(.cborNonCanonical, "bignum is not in its shortest form", offset: start)
                }
            }
            return .tagged(tag, inner)
        default:
            return try simpleOrFloat(ai, start: start)
        }
    }

    private mutating func simpleOrFloat(_ ai: UInt8, start: Int) throws(WireError) -> CBOR {
        switch ai {
        case 0..<20: return .simple(ai)
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            let v = try byte()
            guard v >= 32 else {
                throw WireError(.cborInvalidSimple, "simple value \(v) must use the one-byte form", offset: start)
            }
            return .simple(v)
        case 25:
            let b = try take(2, at: start)
            let h = UInt16(b[b.startIndex]) << 8 | UInt16(b[b.startIndex + 1])
            let d = CBORFloat.halfToDouble(h)
            if d.isNaN && h != 0x7e00 {
                throw WireError(.cborNonCanonical, "NaN must be encoded as f97e00", offset: start)
            }
            return .float(d)
        case 26:
            var bits: UInt32 = 0
            for x in try take(4, at: start) { bits = bits << 8 | UInt32(x) }
            let d = Double(Float(bitPattern: bits))
            guard !d.isNaN, CBORFloat.exactHalf(d) == nil else {
                throw WireError(.cborNonCanonical, "float has a shorter exact encoding", offset: start)
            }
            return .float(d)
        case 27:
            var bits: UInt64 = 0
            for x in try take(8, at: start) { bits = bits << 8 | UInt64(x) }
            let d = Double(bitPattern: bits)
            guard !d.isNaN, CBORFloat.exactHalf(d) == nil, Double(Float(d)) != d else {
                throw WireError(.cborNonCanonical, "float has a shorter exact encoding", offset: start)
            }
            return .float(d)
        case 31:
            throw WireError(.cborReservedInfo, "break code outside an indefinite-length item", offset: start)
        default:
            throw WireError(.cborReservedInfo, "reserved additional information \(ai) in major type 7", offset: start)
        }
    }
}
