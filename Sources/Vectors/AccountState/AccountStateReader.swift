/// The AccountState plaintext (SPEC.md §11.2), Haven's `AccountState::to_bytes` layout:
///
///     u32 R, R × (lp(key) ‖ ts u64 ‖ device(32) ‖ presence u8 ‖ [lp(value)]),
///     u32 C, C × (lp(name) ‖ ts u64)
///
/// little-endian, lp(x) = u32 length ‖ bytes. The reader is strict (one state, one byte string):
/// checks run in byte order and the first failure is reported.
struct AccountStateReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func take(_ n: Int, field: String) throws(WireError) -> ArraySlice<UInt8> {
        guard n <= remaining else {
            throw WireError(.accountStateTruncated, "\(field) needs \(n) bytes, \(remaining) left", offset: offset, field: field)
        }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    mutating func u32(field: String) throws(WireError) -> UInt32 {
        try take(4, field: field).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func u64(field: String) throws(WireError) -> UInt64 {
        try take(8, field: field).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A u32 length, then that many bytes. A length beyond the bytes left is truncation, found
    /// before anything is allocated.
    mutating func lengthPrefixed(field: String) throws(WireError) -> [UInt8] {
        let n = Int(try u32(field: "\(field) length"))
        return Array(try take(n, field: field))
    }

    /// A length-prefixed key or name: its bytes are read first (so truncation wins), then checked
    /// as UTF-8 ([R11.2-6]).
    mutating func key(field: String) throws(WireError) -> StateKey {
        let start = offset
        let b = try lengthPrefixed(field: field)
        guard String(validating: b, as: UTF8.self) != nil else {
            throw WireError(.accountStateBadUTF8, "\(field) is not UTF-8", offset: start + 4, field: field)
        }
        return StateKey(validatedUTF8: b)
    }

    /// Keys must be strictly ascending by bytes: a repeat is `duplicate`, a step back `unsorted`.
    static func checkOrder(_ previous: StateKey?, _ key: StateKey, at offset: Int, field: String) throws(WireError) {
        guard let previous else { return }
        if previous.bytes == key.bytes {
            throw WireError(.accountStateDuplicateKey, "\(field) repeats the previous key", offset: offset, field: field)
        }
        guard StateKey.precedes(previous, key) else {
            throw WireError(.accountStateUnsortedKeys, "\(field) sorts before the previous key", offset: offset, field: field)
        }
    }
}

extension AccountState {
    /// The plaintext encoding ([R11.2-1]…[R11.2-4]): records then cursors, each in key order.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        func lp(_ b: [UInt8]) { out.appendLE(UInt32(truncatingIfNeeded: b.count)); out += b }
        out.appendLE(UInt32(truncatingIfNeeded: records.count))
        for r in records {
            lp(r.key.bytes)
            out.appendLE(r.register.stamp.ts)
            out += r.register.stamp.device
            switch r.register.value {
            case .some(let v) where !(v.isEmpty && Mutant.on(.accountEmptyValueIsTombstone)):
                out.append(1)
                lp(v)
            default:
                out.append(0)
            }
        }
        out.appendLE(UInt32(truncatingIfNeeded: cursors.count))
        for c in cursors {
            lp(c.name.bytes)
            out.appendLE(c.ts)
        }
        return out
    }

    /// Decodes a plaintext strictly ([R11.2-5 order]…[R11.2-10]).
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> AccountState {
        var r = AccountStateReader(bytes)
        var state = AccountState()
        let recordCount = try r.u32(field: "record count")
        var previous: StateKey?
        for i in 0..<Int(recordCount) {
            let keyAt = r.offset
            let key = try r.key(field: "records[\(i)].key")
            try AccountStateReader.checkOrder(previous, key, at: keyAt, field: "records[\(i)].key")
            previous = key
            let ts = try r.u64(field: "records[\(i)].ts")
            let device = Array(try r.take(32, field: "records[\(i)].device"))
            let presenceAt = r.offset
            let presence = try r.take(1, field: "records[\(i)].presence").first!
            let value: [UInt8]?
            switch presence {
            case 0: value = nil
            case 1: value = try r.lengthPrefixed(field: "records[\(i)].value")
            default:
                throw WireError(.accountStateBadPresence, "presence byte \(presence) is neither 0 nor 1", offset: presenceAt, field: "records[\(i)].presence")
            }
            state.appendDecoded(Record(key: key, register: Register(stamp: Stamp(ts: ts, device: device), value: value)))
        }
        let cursorCount = try r.u32(field: "cursor count")
        previous = nil
        for i in 0..<Int(cursorCount) {
            let nameAt = r.offset
            let name = try r.key(field: "cursors[\(i)].name")
            try AccountStateReader.checkOrder(previous, name, at: nameAt, field: "cursors[\(i)].name")
            previous = name
            let tsAt = r.offset
            let ts = try r.u64(field: "cursors[\(i)].ts")
            guard ts != 0 else {
                throw WireError(.accountStateZeroCursor, "a cursor at 0 is never written", offset: tsAt, field: "cursors[\(i)].ts")
            }
            state.appendDecoded(Cursor(name: name, ts: ts))
        }
        guard r.remaining == 0 || Mutant.on(.accountDecodeAcceptsTrailingBytes) else {
            throw WireError(.accountStateTrailingBytes, "\(r.remaining) bytes after the last cursor", offset: r.offset, field: "end")
        }
        return state
    }
}
