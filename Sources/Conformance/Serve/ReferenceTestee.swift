import Vectors

/// The reference implementation as a testee: `conformance serve` answers the runner protocol with
/// the same `FormatHandler`s that generated the vectors.
///
/// It takes its handlers as a list so a variant can be served instead (a mutant with one rule
/// flipped, to check that the suite catches it).
public struct ReferenceTestee: Sendable {
    public var handlers: [any FormatHandler]
    public var name: String
    public var version: String

    public init(handlers: [any FormatHandler] = Reference.handlers, name: String = "pixie-reference", version: String = SuiteInfo.version) {
        self.handlers = handlers
        self.name = name
        self.version = version
    }

    public enum Response: Sendable, Equatable {
        /// Write this line.
        case reply(JSONValue)
        /// `shutdown`: exit 0.
        case shutdown
        /// Nothing to answer; the text goes to stderr.
        case ignore(String)
    }

    public var hello: JSONValue {
        .object([
            ("type", .string("hello")),
            ("protocol_version", .int(1)),
            ("name", .string(name)),
            ("version", .string(version)),
            ("language", .string("swift")),
            ("capabilities", .object(handlers.map { ($0.format, JSONValue.array($0.ops.map { .string($0) })) })),
        ])
    }

    public func respond(to line: String) -> Response {
        let msg: JSONValue
        do { msg = try JSONValue.parse(line) } catch { return .ignore("ignored a line that is not JSON: \(error)") }
        switch msg["type"]?.stringValue {
        case "hello":
            return .reply(hello)
        case "shutdown":
            return .shutdown
        case "case":
            guard let id = msg["id"]?.stringValue else { return .ignore("ignored a case without an id") }
            return .reply(answer(id: id, format: msg["format"]?.stringValue ?? "", op: msg["op"]?.stringValue ?? "", input: msg["input"] ?? .null))
        default:
            return .ignore("ignored a message of unknown type: \(JSONComparison.render(msg))")
        }
    }

    public func answer(id: String, format: String, op: String, input: JSONValue) -> JSONValue {
        var out: [(String, JSONValue)] = [("type", .string("result")), ("id", .string(id))]
        guard let handler = handlers.first(where: { $0.format == format }), handler.ops.contains(op) else {
            out.append(("status", .string("unsupported")))
            out.append(("message", .string("no op \(format)/\(op)")))
            return .object(out)
        }
        do {
            let output = try handler.run(op: op, input: input)
            out.append(("status", .string("ok")))
            out.append(("output", output))
        } catch {
            out.append(("status", .string("rejected")))
            out.append(("error", .string(error.code.rawValue)))
            out.append(("message", .string(error.description)))
        }
        return .object(out)
    }
}
