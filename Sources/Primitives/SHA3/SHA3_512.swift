/// SHA3-512 (FIPS 202 §6.1): Keccak[1024] with the 01 domain suffix, 64-byte digest.
///
/// A thin wrapper over the allocation-free `KeccakSponge`; only the returned digest allocates.
public struct SHA3_512: Sendable {
    /// Digest length in bytes.
    public static let byteCount = 64
    /// Rate in bytes (block size of the sponge).
    public static let blockByteCount = 72

    var sponge = KeccakSponge(rate: 72, domain: 0x06)

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

    /// Pads and returns the 64-byte digest (the hasher should not be used afterwards).
    public mutating func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 64) { buf, n in
            sponge.squeeze(into: UnsafeMutableRawBufferPointer(buf))
            n = 64
        }
    }

    /// Writes the 64-byte digest to `out` (which must hold at least 64 bytes).
    public mutating func finalize(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= 64, "SHA3_512: output buffer too small")
        sponge.squeeze(into: UnsafeMutableRawBufferPointer(rebasing: out[0..<64]))
    }

    /// One-shot digest.
    public static func hash<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var h = SHA3_512()
        h.update(bytes)
        return h.finalize()
    }
}
