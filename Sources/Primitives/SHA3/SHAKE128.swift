/// SHAKE128 (FIPS 202 §6.2): the extendable-output function Keccak[256] with the 1111 suffix.
///
/// Incremental in both directions: absorb with `update`, then read as much output as needed with
/// repeated `squeeze` calls (ML-DSA and ML-KEM sample matrices straight from this stream).
public struct SHAKE128: Sendable {
    /// Rate in bytes (block size of the sponge).
    public static let blockByteCount = 168

    var sponge = KeccakSponge(rate: 168, domain: 0x1F)

    public init() {}

    /// Absorbs bytes.
    public mutating func update(_ raw: UnsafeRawBufferPointer) {
        sponge.absorb(raw)
    }

    /// Absorbs any byte collection (contiguous storage is used directly when available).
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ sponge.absorb(UnsafeRawBufferPointer($0)) }) != nil { return }
        Array(bytes).withUnsafeBytes { sponge.absorb($0) }
    }

    /// Returns the next `count` bytes of the output stream. Calls continue the same stream, so
    /// squeezing 10 then 20 bytes equals squeezing 30 once. Updating after the first squeeze is a
    /// programming error (precondition).
    public mutating func squeeze(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SHAKE128: negative output length")
        return [UInt8](unsafeUninitializedCapacity: count) { buf, n in
            sponge.squeeze(into: UnsafeMutableRawBufferPointer(buf))
            n = count
        }
    }

    /// Fills `out` with the next `out.count` bytes of the output stream.
    public mutating func squeeze(into out: UnsafeMutableRawBufferPointer) {
        sponge.squeeze(into: out)
    }

    /// One-shot: the first `outputByteCount` bytes of SHAKE128(bytes).
    public static func hash<C: Collection>(_ bytes: C, outputByteCount: Int) -> [UInt8] where C.Element == UInt8 {
        var x = SHAKE128()
        x.update(bytes)
        return x.squeeze(outputByteCount)
    }
}
