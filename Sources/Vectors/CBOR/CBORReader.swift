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
    /// The strictness rules, read once per reader: all strict unless a mutant is switched on.
    private let rules: CBORReadRules

    public init(_ bytes: [UInt8], maxDepth: Int = CBORReader.defaultMaxDepth) {
        input = bytes
        self.maxDepth = maxDepth
        rules = CBORReadRules.current
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

    /// Reads the argument that follows an initial byte of major type `major` with additional info
    /// `ai`, enforcing the shortest form (§4.2.1 rule 1). Additional information 31 is an
    /// indefinite length only in major types 2–5; in 0, 1 and 6 it is reserved (SPEC.md §1).
    private mutating func argument(_ ai: UInt8, major: UInt8, start: Int) throws(WireError) -> UInt64 {
        switch ai {
        case 0..<24: return UInt64(ai)
        case 24...27:
            let n = 1 << Int(ai - 24)
            var v: UInt64 = 0
            for b in try take(n, at: start) { v = v << 8 | UInt64(b) }
            let minimum: UInt64 = [24, 0x100, 0x1_0000, 0x1_0000_0000][Int(ai - 24)]
            guard v >= minimum || !rules.shortestHeads else {
                throw WireError(.cborNonCanonical, "argument \(v) is not in its shortest form", offset: start)
            }
            return v
        case 31 where (2...5).contains(major):
            throw WireError(.cborIndefiniteLength, "indefinite length", offset: start)
        default:
            throw WireError(.cborReservedInfo, "reserved additional information \(ai) in major type \(major)", offset: start)
        }
    }

    /// A count or length checked at its head, before any enclosed byte is read (SPEC.md §1 [R1-18]).
    private func length(_ v: UInt64, start: Int) throws(WireError) -> Int {
        guard v <= UInt64(input.count - position) || (!rules.countsAtHead && v <= UInt64(Int.max / 2)) else {
            throw WireError(.cborTruncated, "declared length \(v) exceeds the \(input.count - position) byte(s) left", offset: start)
        }
        return Int(v)
    }

    public mutating func readItem(depth: Int) throws(WireError) -> CBOR {
        let start = position
        // Depth is checked on reaching an item, before its first byte (SPEC.md §1 [R1-15], [R1-19]).
        guard depth < maxDepth || !rules.depthOfEveryItem else {
            throw WireError(.cborDepthExceeded, "nesting deeper than \(maxDepth)", offset: start)
        }
        let initial = try byte()
        let major = initial >> 5
        let ai = initial & 0x1f
        if !rules.depthOfEveryItem, depth >= maxDepth, (4...6).contains(major) {
            throw WireError(.cborDepthExceeded, "nesting deeper than \(maxDepth)", offset: start)
        }
        if ai == 31, (2...5).contains(major), !rules.definiteOnly {
            return try readIndefinite(major: major, depth: depth, start: start)
        }
        switch major {
        case 0:
            return .unsigned(try argument(ai, major: major, start: start))
        case 1:
            return .negative(try argument(ai, major: major, start: start))
        case 2:
            let n = try length(try argument(ai, major: major, start: start), start: start)
            return .bytes(Array(try take(n, at: start)))
        case 3:
            let n = try length(try argument(ai, major: major, start: start), start: start)
            return .text(try text(try take(n, at: start), start: start))
        case 4:
            let n = try length(try argument(ai, major: major, start: start), start: start)
            var items: [CBOR] = []
            items.reserveCapacity(min(n, input.count))
            for _ in 0..<n { items.append(try readItem(depth: depth + 1)) }
            return .array(items)
        case 5:
            // Each entry needs at least two bytes; the count is checked at the head ([R1-18]).
            let declared = try argument(ai, major: major, start: start)
            guard declared <= UInt64(input.count - position) / 2 || (!rules.countsAtHead && declared <= UInt64(Int.max / 2)) else {
                throw WireError(.cborTruncated, "map of \(declared) entries cannot fit in the bytes left", offset: start)
            }
            var entries: [CBORMapEntry] = []
            var keys = MapKeyChecker(rules: rules)
            for _ in 0..<Int(declared) {
                let keyStart = position
                let key = try readItem(depth: depth + 1)
                try keys.check(input[keyStart..<position], offset: keyStart)
                let value = try readItem(depth: depth + 1)
                entries.append(CBORMapEntry(key: key, value: value))
            }
            return .map(entries)
        case 6:
            let tag = try argument(ai, major: major, start: start)
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

    /// UTF-8 checked strictly (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
    private func text(_ raw: ArraySlice<UInt8>, start: Int) throws(WireError) -> String {
        if let s = String(validating: raw, as: UTF8.self) { return s }
        if !rules.strictUTF8 { return String(decoding: raw, as: UTF8.self) }
        throw WireError(.cborInvalidUTF8, "text string is not valid UTF-8", offset: start)
    }

    /// Only reachable when a mutant accepts indefinite lengths (a stock decoder's default): chunks
    /// or items until the break byte.
    private mutating func readIndefinite(major: UInt8, depth: Int, start: Int) throws(WireError) -> CBOR {
        var bytes: [UInt8] = []
        var items: [CBOR] = []
        var entries: [CBORMapEntry] = []
        var keys = MapKeyChecker(rules: rules)
        while true {
            guard position < input.count else { throw WireError(.cborTruncated, "input ends inside an indefinite-length item", offset: start) }
            if input[position] == 0xff { position += 1; break }
            switch major {
            case 2, 3:
                let chunkStart = position
                let chunk = try readItem(depth: depth + 1)
                switch (major, chunk) {
                case (2, .bytes(let b)): bytes += b
                case (3, .text(let t)): bytes += Array(t.utf8)
                default: throw WireError(.cborNonCanonical, "an indefinite string chunk of another type", offset: chunkStart)
                }
            case 4:
                items.append(try readItem(depth: depth + 1))
            default:
                let keyStart = position
                let key = try readItem(depth: depth + 1)
                try keys.check(input[keyStart..<position], offset: keyStart)
                entries.append(CBORMapEntry(key: key, value: try readItem(depth: depth + 1)))
            }
        }
        switch major {
        case 2: return .bytes(bytes)
        case 3: return .text(try text(bytes[...], start: start))
        case 4: return .array(items)
        default: return .map(entries)
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

/// Map keys compared with the key just before them only (SPEC.md §1 [R1-11], [R1-12], [R1-20]):
/// equal is a duplicate, smaller is out of order, so a non-adjacent repeat is reported unsorted.
struct MapKeyChecker {
    let rules: CBORReadRules
    private var previous: ArraySlice<UInt8>? = nil
    private var seen: Set<ArraySlice<UInt8>> = []

    init(rules: CBORReadRules) { self.rules = rules }

    mutating func check(_ key: ArraySlice<UInt8>, offset: Int) throws(WireError) {
        defer { previous = key }
        if rules.repeatsAgainstAllKeys {
            guard seen.insert(key).inserted else { throw WireError(.cborDuplicateMapKey, "map key repeated", offset: offset) }
        }
        guard let prev = previous else { return }
        if prev.elementsEqual(key) {
            if rules.rejectDuplicateKeys { throw WireError(.cborDuplicateMapKey, "map key repeated", offset: offset) }
            return
        }
        if rules.sortedKeys, !prev.lexicographicallyPrecedes(key) {
            throw WireError(.cborUnsortedMapKeys, "map keys not in bytewise order of their encodings", offset: offset)
        }
    }
}

/// What the reader enforces. Every rule is on; a mutant switches one off to model a stock CBOR
/// library's default (SPEC.md §1 is stricter than RFC 8949's generic decoders on each point).
struct CBORReadRules: Sendable {
    var shortestHeads = true
    var definiteOnly = true
    var sortedKeys = true
    var rejectDuplicateKeys = true
    var repeatsAgainstAllKeys = false
    var depthOfEveryItem = true
    var countsAtHead = true
    var strictUTF8 = true

    static var current: CBORReadRules {
        var r = CBORReadRules()
        switch Mutant.active {
        case .cborNonShortestAccepted?: r.shortestHeads = false
        case .cborIndefiniteAccepted?: r.definiteOnly = false
        case .cborUnsortedKeysAccepted?: r.sortedKeys = false
        case .cborDuplicateKeysLastWins?: r.rejectDuplicateKeys = false
        case .cborRepeatAgainstAllKeys?: r.repeatsAgainstAllKeys = true
        case .cborDepthContainersOnly?: r.depthOfEveryItem = false
        case .cborCountsReadLazily?: r.countsAtHead = false
        case .cborLossyUTF8?: r.strictUTF8 = false
        default: break
        }
        return r
    }
}
