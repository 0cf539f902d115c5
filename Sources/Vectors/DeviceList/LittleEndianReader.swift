/// A cursor over the raw (non-CBOR) device-list layouts of SPEC.md §10: little-endian integers,
/// fixed 32-byte ids, u32-length-prefixed fields. Every read checks the length once and then
/// reads, so bad input becomes `device_list_truncated` with the field and offset, never a trap.
struct LittleEndianReader {
    let bytes: [UInt8]
    /// Where the readable region ends: a list's `HVNLEAF1` suffix is cut off before parsing.
    let end: Int
    private(set) var offset = 0

    init(_ bytes: [UInt8], end: Int? = nil) {
        self.bytes = bytes
        self.end = end ?? bytes.count
    }

    var remaining: Int { end - offset }

    mutating func take(_ n: Int, field: String) throws(WireError) -> [UInt8] {
        guard n >= 0, n <= remaining else {
            throw WireError(.deviceListTruncated, "\(field) needs \(n) bytes, \(remaining) left", offset: offset, field: field)
        }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    mutating func u32(field: String) throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: DeviceListSeams.unsigned(try take(4, field: field)))
    }

    mutating func u64(field: String) throws(WireError) -> UInt64 {
        DeviceListSeams.unsigned(try take(8, field: field))
    }

    mutating func id(field: String) throws(WireError) -> DeviceID {
        DeviceID(unchecked: try take(32, field: field))
    }

    /// A u32 count of 32-byte ids, bounded by the bytes left **before** anything is reserved: a
    /// count of 2^32 − 1 is malformed by definition and must not ask the allocator for 128 GiB.
    mutating func idList(field: String) throws(WireError) -> [DeviceID] {
        let countOffset = offset
        let n = DeviceListSeams.count(try u32(field: "\(field) count"))
        guard n <= remaining / 32 else {
            throw WireError(.deviceListTruncated, "\(field) count \(n) needs \(n * 32) bytes, \(remaining) left",
                            offset: countOffset, field: "\(field) count")
        }
        var out: [DeviceID] = []
        out.reserveCapacity(n)
        for i in 0..<n { out.append(try id(field: "\(field)[\(i)]")) }
        return out
    }

    /// Everything up to `end`.
    mutating func rest() -> [UInt8] {
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// Little-endian appends for the encoders.
extension Array where Element == UInt8 {
    mutating func appendLE(_ v: UInt32) { for i in 0..<4 { append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
    mutating func appendLE(_ v: UInt64) { for i in 0..<8 { append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
}
