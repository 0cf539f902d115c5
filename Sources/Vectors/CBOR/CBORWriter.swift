/// Writes RFC 8949 §4.2.1 core deterministic CBOR: shortest heads, definite lengths, map keys
/// sorted by the bytewise order of their encodings, floats in their shortest exact form.
///
/// A value type owning its buffer; leaf encoders reuse one writer (`reset()`) so hashing a
/// million rows does not allocate a buffer per row.
public struct CBORWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// A head: major type (0...7) and argument, in the shortest form (§4.2.1 rule 1).
    public mutating func writeHead(major: UInt8, _ argument: UInt64) {
        let m = major << 5
        switch argument {
        case 0..<24:
            bytes.append(m | UInt8(argument))
        case 24...0xff:
            bytes.append(m | 24)
            bytes.append(UInt8(argument))
        case 0x100...0xffff:
            bytes.append(m | 25)
            bytes.append(UInt8(argument >> 8))
            bytes.append(UInt8(truncatingIfNeeded: argument))
        case 0x1_0000...0xffff_ffff:
            bytes.append(m | 26)
            for s in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: argument >> UInt64(s))) }
        default:
            bytes.append(m | 27)
            for s in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: argument >> UInt64(s))) }
        }
    }

    public mutating func writeUnsigned(_ v: UInt64) { writeHead(major: 0, v) }
    public mutating func writeInt(_ v: Int64) {
        if v >= 0 { writeHead(major: 0, UInt64(v)) } else { writeHead(major: 1, UInt64(-(v + 1))) }
    }
    public mutating func writeBytes<C: Collection>(_ b: C) where C.Element == UInt8 {
        writeHead(major: 2, UInt64(b.count))
        bytes.append(contentsOf: b)
    }
    public mutating func writeText(_ s: String) {
        var s = s
        s.withUTF8 { u in
            writeHead(major: 3, UInt64(u.count))
            bytes.append(contentsOf: u)
        }
    }
    public mutating func writeArrayHeader(_ count: Int) { writeHead(major: 4, UInt64(count)) }
    public mutating func writeMapHeader(_ count: Int) { writeHead(major: 5, UInt64(count)) }
    public mutating func writeTag(_ tag: UInt64) { writeHead(major: 6, tag) }
    public mutating func writeBool(_ b: Bool) { bytes.append(b ? 0xf5 : 0xf4) }
    public mutating func writeNull() { bytes.append(0xf6) }

    /// A float in preferred serialization (§4.2.1, §3.3): the shortest of half, single and double
    /// that represents the value exactly; every NaN is written as the half-precision quiet NaN f97e00.
    public mutating func writeFloat(_ d: Double) {
        if d.isNaN {
            bytes.append(contentsOf: [0xf9, 0x7e, 0x00])
            return
        }
        if let half = CBORFloat.exactHalf(d) {
            bytes.append(0xf9)
            bytes.append(UInt8(half >> 8))
            bytes.append(UInt8(truncatingIfNeeded: half))
            return
        }
        let f = Float(d)
        if Double(f) == d {
            bytes.append(0xfa)
            let bits = f.bitPattern
            for s in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(s))) }
            return
        }
        bytes.append(0xfb)
        let bits = d.bitPattern
        for s in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(s))) }
    }

    /// Writes a whole data item, sorting map keys by their encoded bytes.
    public mutating func write(_ item: CBOR) {
        switch item {
        case .unsigned(let v): writeHead(major: 0, v)
        case .negative(let v): writeHead(major: 1, v)
        case .bytes(let b): writeBytes(b)
        case .text(let s): writeText(s)
        case .array(let items):
            writeArrayHeader(items.count)
            for i in items { write(i) }
        case .map(let entries):
            let encoded = entries.map { (CBORWriter.encode($0.key), $0.value) }
                .sorted { $0.0.lexicographicallyPrecedes($1.0) }
            writeMapHeader(encoded.count)
            for (k, v) in encoded {
                bytes.append(contentsOf: k)
                write(v)
            }
        case .tagged(let tag, let inner):
            writeTag(tag)
            write(inner)
        case .simple(let v):
            if v < 24 { bytes.append(0xe0 | v) } else { bytes.append(0xf8); bytes.append(v) }
        case .bool(let b): writeBool(b)
        case .null: writeNull()
        case .undefined: bytes.append(0xf7)
        case .float(let d): writeFloat(d)
        }
    }

    /// The deterministic encoding of one item.
    public static func encode(_ item: CBOR) -> [UInt8] {
        var w = CBORWriter()
        w.write(item)
        return w.bytes
    }
}

/// IEEE 754 half-precision helpers for preferred float serialization.
enum CBORFloat {
    /// The binary16 bits of `d` when `d` converts to half precision without loss, else nil.
    static func exactHalf(_ d: Double) -> UInt16? {
        if d.isInfinite { return d < 0 ? 0xfc00 : 0x7c00 }
        if d == 0 { return d.sign == .minus ? 0x8000 : 0x0000 }
        let sign: UInt16 = d.sign == .minus ? 0x8000 : 0
        let a = abs(d)
        let exp = a.exponent  // unbiased, a = significand * 2^exp, 1 <= significand < 2
        if exp > 15 { return nil }
        if exp >= -14 {
            // Normal half: 10 fraction bits.
            let scaled = a / Double(sign: .plus, exponent: exp, significand: 1) * 1024  // in [1024, 2048)
            guard scaled == Double(Int64(scaled)) else { return nil }
            let frac = UInt16(scaled) - 1024
            return sign | UInt16(exp + 15) << 10 | frac
        }
        // Subnormal half: value = frac * 2^-24, frac in 1..<1024.
        let frac = a * 16_777_216  // 2^24
        guard frac >= 1, frac < 1024, frac == Double(Int64(frac)) else { return nil }
        return sign | UInt16(frac)
    }

    static func halfToDouble(_ h: UInt16) -> Double {
        let sign: Double = h & 0x8000 != 0 ? -1 : 1
        let exp = Int((h >> 10) & 0x1f)
        let frac = Double(h & 0x3ff)
        switch exp {
        case 0: return sign * frac * 0x1p-24
        case 31: return frac == 0 ? sign * .infinity : .nan
        default: return sign * (1 + frac / 1024) * Double(sign: .plus, exponent: exp - 15, significand: 1)
        }
    }
}
