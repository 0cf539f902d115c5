import Vectors

/// The reference implementation as a testee: `conformance serve` answers the runner protocol with
/// the same `FormatHandler`s that generated the vectors, following SPEC.md §6 to the letter (it
/// passes every `conformance selftest` check).
///
/// It takes its handlers as a list so a variant can be served instead (a mutant with one rule
/// flipped, to check that the suite catches it).
public struct ReferenceTestee: Sendable {
    public var handlers: [any FormatHandler]
    public var name: String
    public var version: String
    /// Protocol versions this testee speaks.
    public static let protocolVersions: [Int] = [1]

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
        /// Nothing to answer; the text goes to stderr and the session goes on.
        case ignore(String)
        /// The handshake cannot happen (SPEC.md §6.2): nothing on stdout, the text on stderr,
        /// exit non-zero.
        case refuse(String)
    }

    /// The answer to a runner hello, speaking `protocolVersion`.
    public func hello(protocolVersion: Int = 1) -> JSONValue {
        .object([
            ("type", .string("hello")),
            ("protocol_version", .int(protocolVersion)),
            ("name", .string(name)),
            ("version", .string(version)),
            ("language", .string("swift")),
            ("capabilities", .object(handlers.map { ($0.format, JSONValue.array($0.ops.map { .string($0) })) })),
        ])
    }

    public var hello: JSONValue { hello() }

    /// One testee's protocol state: before the handshake only a runner hello is acceptable;
    /// after it, each line is taken through the steps of SPEC.md §6.3 in order.
    public struct Session: Sendable {
        public let testee: ReferenceTestee
        public private(set) var greeted: Bool
        /// Answer every case `unsupported` once it is decoded (the runner benchmark's baseline).
        public var echo = false

        public init(_ testee: ReferenceTestee, greeted: Bool = false) {
            self.testee = testee
            self.greeted = greeted
        }

        public mutating func handle(_ input: InputLine) -> Response {
            let bytes: [UInt8]
            switch input {
            case .tooLong(let prefix):
                // §6.3 step 1.
                guard greeted else { return .refuse("the first line is longer than 16 MiB; expected the runner's hello") }
                return rejectOrIgnore(prefix[...], .inputBadLength, "line longer than \(RunnerProtocol.maxLineBytes) bytes (SPEC.md §6.1)")
            case .line(let b):
                bytes = b
            }
            // §6.3 step 2: UTF-8, JSON, surrogates and nesting are all the parser's checks.
            func undecodable(_ why: String) -> Response {
                guard greeted else { return .refuse("the first line is not JSON (\(why)); expected the runner's hello") }
                return rejectOrIgnore(bytes[...], .inputBadValue, "the line cannot be decoded: \(why)")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { return undecodable("not valid UTF-8") }
            let message: JSONValue
            do { message = try JSONValue.parse(text) } catch { return undecodable(error.description) }
            guard message.objectValue != nil else {
                guard greeted else { return .refuse("the first line is not a JSON object; expected the runner's hello") }
                return .ignore("ignored a line that is not a JSON object")
            }
            let type = message["type"]?.stringValue
            guard greeted else { return handshake(message, type: type) }
            // §6.3 step 3.
            switch type {
            case "case": break
            case "shutdown": return .shutdown
            default: return .ignore("ignored a message of type \(type.map { "\"\($0)\"" } ?? "(none)")")
            }
            guard let id = message["id"]?.stringValue else { return .ignore("ignored a case without a string id") }
            if echo {
                return .reply(.object([("type", .string("result")), ("id", .string(id)), ("status", .string("unsupported"))]))
            }
            return .reply(testee.answer(id: id, format: message["format"]?.stringValue, op: message["op"]?.stringValue, input: message["input"] ?? .null))
        }

        /// SPEC.md §6.2: the first line must be a hello offering a version this testee speaks.
        mutating func handshake(_ message: JSONValue, type: String?) -> Response {
            guard type == "hello" else {
                return .refuse("the first line is a message of type \(type.map { "\"\($0)\"" } ?? "(none)"); expected the runner's hello")
            }
            let list = message["protocol_versions"]?.arrayValue ?? []
            let offered = list.compactMap { v -> Int? in if case .number = v { return v.int64Value.map(Int.init) } else { return nil } }
            guard !list.isEmpty, offered.count == list.count else {
                return .refuse("the runner's hello has no protocol_versions array of integers")
            }
            guard let chosen = offered.filter(ReferenceTestee.protocolVersions.contains).max() else {
                return .refuse("the runner offers protocol version(s) \(offered.map(String.init).joined(separator: ", ")); this testee speaks \(ReferenceTestee.protocolVersions.map(String.init).joined(separator: ", "))")
            }
            greeted = true
            return .reply(testee.hello(protocolVersion: chosen))
        }

        /// §6.3: an undecodable or over-long line is rejected under its id when the id is readable.
        func rejectOrIgnore(_ bytes: ArraySlice<UInt8>, _ code: ErrorCode, _ why: String) -> Response {
            guard let id = LineSalvage.topLevelString("id", in: bytes) else { return .ignore("\(why); no readable id, so no answer") }
            return .reply(.object([
                ("type", .string("result")), ("id", .string(id)), ("status", .string("rejected")),
                ("error", .string(code.rawValue)), ("message", .string(why)),
            ]))
        }
    }

    /// The answer to one line after the handshake (tests and tools; `serve` keeps a `Session`).
    public func respond(to line: String) -> Response {
        var s = Session(self, greeted: true)
        return s.handle(.line(Array(line.utf8)))
    }

    /// The result for one decoded case: steps 4–6 of SPEC.md §6.3.
    public func answer(id: String, format: String?, op: String?, input: JSONValue) -> JSONValue {
        var out: [(String, JSONValue)] = [("type", .string("result")), ("id", .string(id))]
        func reject(_ code: ErrorCode, _ message: String) -> JSONValue {
            out += [("status", .string("rejected")), ("error", .string(code.rawValue)), ("message", .string(message))]
            return .object(out)
        }
        guard let format, let handler = handlers.first(where: { $0.format == format }) else {
            return reject(.unknownFormat, "no format \(format.map { "\"\($0)\"" } ?? "(none)")")
        }
        guard let op, handler.ops.contains(op) else {
            return reject(.unknownOp, "\(format) has no op \(op.map { "\"\($0)\"" } ?? "(none)")")
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
