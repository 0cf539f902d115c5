/// Lowercase hexadecimal, the byte notation of every JSON vector file.
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lowercase hex. Inlinable, so contiguous bytes (arrays, slices) reach the
    /// non-generic loop directly; the unspecialized generic walk was a fifth of a fuzz run.
    @inlinable
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let s = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) { return s }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// The loop behind `encode`.
    public static func encode(buffer: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: buffer.count * 2) { out in
            var j = 0
            for b in buffer {
                out[j] = digits[Int(b >> 4)]
                out[j + 1] = digits[Int(b & 0x0f)]
                j += 2
            }
            return j
        }
    }

    /// Decodes hex (either case accepted; vectors are written lowercase). Returns nil on an odd
    /// length or a non-hex character rather than trapping, so callers can turn it into their own
    /// typed error naming the field.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    @inline(__always)
    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: return nil
        }
    }
}
