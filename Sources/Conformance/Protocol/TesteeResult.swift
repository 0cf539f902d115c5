import Vectors

/// One `result` line: the testee's answer to one case.
public struct TesteeResult: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        case ok(JSONValue)
        /// Rejected the input with a code from the error vocabulary.
        case rejected(code: String, message: String?)
        /// The testee opts out of this case.
        case unsupported(reason: String?)
        /// The testee caught an internal failure (a bug, not an answer).
        case error(message: String)
    }

    public var id: String
    public var status: Status

    public init(id: String, status: Status) {
        self.id = id
        self.status = status
    }

    /// Parses a result line and checks it answers `expectedID`. Unknown members are ignored.
    public static func parse(_ line: String, expectedID: String) throws(ProtocolViolation) -> TesteeResult {
        let v: JSONValue
        do { v = try JSONValue.parse(line) } catch { throw ProtocolViolation("not JSON (\(error))", line: line) }
        guard let members = v.objectValue else { throw ProtocolViolation("not a JSON object", line: line) }
        if let twice = TesteeResult.repeatedMember(members) {
            throw ProtocolViolation("member \"\(twice)\" appears twice", line: line)
        }
        guard let type = v["type"]?.stringValue else { throw ProtocolViolation("no string member \"type\"", line: line) }
        guard type == "result" else { throw ProtocolViolation("expected type \"result\", got \"\(type)\"", line: line) }
        guard let id = v["id"]?.stringValue else { throw ProtocolViolation("no string member \"id\"", line: line) }
        guard id == expectedID else { throw ProtocolViolation("answers id \"\(id)\" but the case in flight is \"\(expectedID)\"", line: line) }
        guard let status = v["status"]?.stringValue else { throw ProtocolViolation("no string member \"status\"", line: line) }
        let message = v["message"]?.stringValue
        if let m = v["message"], m.stringValue == nil, m != .null {
            throw ProtocolViolation("\"message\" must be a string", line: line)
        }
        switch status {
        case "ok":
            guard let out = v["output"] else { throw ProtocolViolation("status ok needs \"output\"", line: line) }
            return TesteeResult(id: id, status: .ok(out))
        case "rejected":
            guard let code = v["error"]?.stringValue, !code.isEmpty else {
                throw ProtocolViolation("status rejected needs a string \"error\" code", line: line)
            }
            return TesteeResult(id: id, status: .rejected(code: code, message: message))
        case "unsupported":
            return TesteeResult(id: id, status: .unsupported(reason: message))
        case "error":
            return TesteeResult(id: id, status: .error(message: message ?? "(no message)"))
        default:
            throw ProtocolViolation("unknown status \"\(status)\" (ok, rejected, unsupported, error)", line: line)
        }
    }

    /// The first top-level member name that appears twice (its meaning would depend on the parser).
    static func repeatedMember(_ members: [(String, JSONValue)]) -> String? {
        var seen = Set<[UInt8]>()
        for (k, _) in members where !seen.insert(Array(k.utf8)).inserted { return k }
        return nil
    }
}
