/// SHA3-256 (FIPS 202 §6.1): Keccak[512] with the 01 domain suffix, 32-byte digest.
///
/// A thin wrapper over the allocation-free `KeccakSponge`; only the returned digest allocates.
public struct SHA3_256: Sendable {
    /// Digest length in bytes.
    public static let byteCount = 32
    /// Rate in bytes (block size of the sponge).
    public static let blockByteCount = 136

    var sponge = KeccakSponge(rate: 136, domain: 0x06)

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

    /// Pads and returns the 32-byte digest (the hasher should not be used afterwards).
    public mutating func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { buf, n in
            sponge.squeeze(into: UnsafeMutableRawBufferPointer(buf))
            n = 32
        }
    }

    /// Writes the 32-byte digest to `out` (which must hold at least 32 bytes).
    public mutating func finalize(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= 32, "SHA3_256: output buffer too small")
        sponge.squeeze(into: UnsafeMutableRawBufferPointer(rebasing: out[0..<32]))
    }

    /// One-shot digest.
    public static func hash<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var h = SHA3_256()
        h.update(bytes)
        return h.finalize()
    }
}
