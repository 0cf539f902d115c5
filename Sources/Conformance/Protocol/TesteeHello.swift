import Vectors

/// The testee's answer to the runner's hello: which protocol version it speaks, who it is, and
/// which ops of which formats it implements (cases outside its capabilities are skipped, not sent).
public struct TesteeHello: Sendable, Equatable {
    public var protocolVersion: Int
    public var name: String
    public var version: String
    public var language: String
    /// format → ops.
    public var capabilities: [String: [String]]
    /// The line as received, for reports.
    public var raw: JSONValue

    public func supports(format: String, op: String) -> Bool {
        capabilities[format]?.contains(op) ?? false
    }

    /// Parses and checks a hello line. Unknown members are ignored (forward compatibility).
    public static func parse(_ line: String) throws(ProtocolViolation) -> TesteeHello {
        let v: JSONValue
        do { v = try JSONValue.parse(line) } catch { throw ProtocolViolation("hello is not JSON (\(error))", line: line) }
        guard v.objectValue != nil else { throw ProtocolViolation("hello is not a JSON object", line: line) }
        guard v["type"]?.stringValue == "hello" else { throw ProtocolViolation("expected a message of type \"hello\"", line: line) }
        guard let pv = v["protocol_version"]?.int64Value, case .number = v["protocol_version"]! else {
            throw ProtocolViolation("hello needs an integer protocol_version", line: line)
        }
        var caps: [String: [String]] = [:]
        guard let capMembers = v["capabilities"]?.objectValue else {
            throw ProtocolViolation("hello needs a capabilities object (format → array of ops)", line: line)
        }
        for (format, ops) in capMembers {
            guard let list = ops.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw ProtocolViolation("capabilities.\(format) must be an array of op names", line: line)
            }
            caps[format] = list.compactMap(\.stringValue)
        }
        func text(_ key: String) throws(ProtocolViolation) -> String {
            guard let s = v[key]?.stringValue else { throw ProtocolViolation("hello needs a string \(key)", line: line) }
            return s
        }
        return TesteeHello(protocolVersion: Int(pv), name: try text("name"), version: try text("version"),
                           language: try text("language"), capabilities: caps, raw: v)
    }
}
