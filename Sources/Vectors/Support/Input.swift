import Primitives

/// Readers for op inputs (the `input` object of a case), one per value kind, each enforcing
/// SPEC.md §2.2 and failing with a typed error that names the member's path. Every format reads
/// its inputs through these, so "what an op input may look like" is decided in one place. Each
/// reader tells an installed `InputRecorder` what it read (nothing happens when none is).
public enum Input {
    /// `path.name`, or `name` at the top level.
    public static func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    /// A required member ([R2.2-1]): absent is `input_missing_field`; `null` is a value like any
    /// other and is rejected by the kind reader that follows (null never means absent).
    public static func member(_ v: JSONValue, _ name: String, path: String) throws(WireError) -> JSONValue {
        guard v.objectValue != nil else { throw WireError(.inputBadType, "expected an object", field: path) }
        guard let m = v[name] else { throw WireError(.inputMissingField, "missing \(name)", field: join(path, name)) }
        return m
    }

    /// An optional member (`name?` in an op table): nil when absent. Present means it must be a
    /// valid value; `null` is not absence.
    public static func optionalMember(_ v: JSONValue, _ name: String, path: String) throws(WireError) -> JSONValue? {
        guard v.objectValue != nil else { throw WireError(.inputBadType, "expected an object", field: path) }
        InputRecorder.noteOptional(join(path, name))
        return v[name]
    }

    /// A nullable member (`or null` in an op table): it must be present; nil when it is `null`.
    public static func nullableMember(_ v: JSONValue, _ name: String, path: String) throws(WireError) -> JSONValue? {
        let m = try member(v, name, path: path)
        InputRecorder.noteNullable(join(path, name))
        return m == .null ? nil : m
    }

    /// Hex in either case ([R2.2-4]): not a string is `input_bad_type`; an odd number of digits or
    /// a non-hex character is `input_bad_value`; then, for a fixed-size member, a wrong byte count
    /// is `input_bad_length`.
    public static func bytes(_ v: JSONValue, path: String, length: Int? = nil) throws(WireError) -> [UInt8] {
        InputRecorder.note(path, .hex, v, length: length)
        guard let s = v.stringValue else { throw WireError(.inputBadType, "expected a hex string", field: path) }
        guard let b = Hex.decode(s) else { throw WireError(.inputBadValue, "not valid hex (odd length or a non-hex character)", field: path) }
        if let length, b.count != length {
            throw WireError(.inputBadLength, "expected \(length) bytes, got \(b.count)", field: path)
        }
        return b
    }

    /// Text exactly as given ([R2.2-5]): no normalisation, trimming or case folding.
    public static func text(_ v: JSONValue, path: String) throws(WireError) -> String {
        InputRecorder.note(path, .text, v)
        guard let s = v.stringValue else { throw WireError(.inputBadType, "expected a string", field: path) }
        return s
    }

    /// An unsigned 64-bit integer ([R2.2-3]): an integer JSON number or a canonical decimal
    /// string; anything else, or a value outside 0…2^64−1, is `input_bad_type`.
    public static func uint64(_ v: JSONValue, path: String) throws(WireError) -> UInt64 {
        InputRecorder.note(path, .uint64, v)
        guard let n = v.uint64Value else {
            throw WireError(.inputBadType, "expected an unsigned 64-bit integer (a JSON integer or a canonical decimal string)", field: path)
        }
        return n
    }

    /// A signed 64-bit integer ([R2.2-3]), as `uint64` with the range −2^63…2^63−1.
    public static func int64(_ v: JSONValue, path: String) throws(WireError) -> Int64 {
        InputRecorder.note(path, .int64, v)
        guard let n = v.int64Value else {
            throw WireError(.inputBadType, "expected a signed 64-bit integer (a JSON integer or a canonical decimal string)", field: path)
        }
        return n
    }

    /// `true` or `false` only ([R2.2-6]).
    public static func bool(_ v: JSONValue, path: String) throws(WireError) -> Bool {
        InputRecorder.note(path, .bool, v)
        guard let b = v.boolValue else { throw WireError(.inputBadType, "expected true or false", field: path) }
        return b
    }

    public static func array(_ v: JSONValue, path: String) throws(WireError) -> [JSONValue] {
        InputRecorder.note(path, .array, v)
        guard let a = v.arrayValue else { throw WireError(.inputBadType, "expected an array", field: path) }
        return a
    }

    public static func object(_ v: JSONValue, path: String) throws(WireError) -> [(String, JSONValue)] {
        InputRecorder.note(path, .object, v)
        guard let o = v.objectValue else { throw WireError(.inputBadType, "expected an object", field: path) }
        return o
    }
}
