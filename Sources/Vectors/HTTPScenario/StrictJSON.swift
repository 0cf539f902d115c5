/// The one way every JSON body in the HTTP formats is read (SPEC.md §13.1): the bytes are UTF-8,
/// one JSON text (RFC 8259), and no object at any depth repeats a member name. Stock parsers keep
/// the first or the last of two equal names, and two readers of one body then disagree about what
/// it says; so a repeated name makes the body unreadable, never "the first" or "the last".
public enum StrictJSON {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidUTF8
        case invalidJSON(String)
        case duplicateMember(String)

        public var description: String {
            switch self {
            case .invalidUTF8: return "not valid UTF-8"
            case .invalidJSON(let why): return why
            case .duplicateMember(let path): return "member name repeated: \(path)"
            }
        }
    }

    public static func parse(_ bytes: [UInt8]) -> Result<JSONValue, Failure> {
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.invalidUTF8) }
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { return .failure(.invalidJSON(error.description)) }
        if let path = firstDuplicate(value, path: "") { return .failure(.duplicateMember(path)) }
        return .success(value)
    }

    /// Parses, then requires an object.
    public static func object(_ bytes: [UInt8]) -> Result<JSONValue, Failure> {
        switch parse(bytes) {
        case .success(let v) where v.objectValue != nil: return .success(v)
        case .success: return .failure(.invalidJSON("not a JSON object"))
        case .failure(let f): return .failure(f)
        }
    }

    /// The path of the first object member whose name (compared by UTF-8 bytes) appears twice.
    static func firstDuplicate(_ v: JSONValue, path: String) -> String? {
        switch v {
        case .object(let members):
            var seen = Set<[UInt8]>()
            for (k, _) in members where !seen.insert(Array(k.utf8)).inserted { return path.isEmpty ? k : "\(path).\(k)" }
            for (k, m) in members {
                if let d = firstDuplicate(m, path: path.isEmpty ? k : "\(path).\(k)") { return d }
            }
            return nil
        case .array(let items):
            for (i, m) in items.enumerated() {
                if let d = firstDuplicate(m, path: "\(path)[\(i)]") { return d }
            }
            return nil
        default:
            return nil
        }
    }

    /// True when the value is a JSON number written as an integer (no fraction, no exponent).
    public static func isIntegerNumber(_ v: JSONValue) -> Bool {
        guard case .number(let n) = v else { return false }
        return !n.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}
