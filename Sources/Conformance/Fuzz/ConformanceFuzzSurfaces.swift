import Vectors

/// Every fuzz surface (issue 27): the wire formats' own (`FuzzSurfaces.all`) and the ones only the
/// runner side has: a runner-protocol line as `conformance serve` reads it, the bytes a client
/// sends the reference HTTP services, and a testee's answer line as the runner reads it. The
/// `Fuzz/` package builds one libFuzzer target per entry; `conformance fuzz-corpus` writes their
/// seeds and dictionaries.
public enum ConformanceFuzzSurfaces {
    public static var all: [FuzzSurface] { [opInput, httpRequest, testeeOutput] + FuzzSurfaces.all }

    public static func named(_ name: String) -> FuzzSurface? { all.first { $0.name == name } }

    /// The op-input layer (§2.2) and every op behind it, as `serve` takes a runner line (§6.3):
    /// whatever the line, the reference's answer is a result line the runner itself accepts for
    /// that id (or no answer, where §6.3 says so). Seeds: every case of every format as its line.
    public static let opInput = FuzzSurface(
        name: "op_input", summary: "a runner case line as serve reads it: every answer is a result line the runner accepts",
        seedFormats: Reference.handlers.map(\.format), seedSyntax: .json,
        seed: { c in
            let line = JSONValue.object([("type", .string("case")), ("id", .string(c.id)), ("format", .string(c.format)),
                                         ("op", .string(c.op)), ("input", c.input.json)])
            return Array(line.compact.utf8)
        },
        check: { bytes in
            var session = ReferenceTestee.Session(ReferenceTestee(), greeted: true)
            guard case .reply(let answer) = session.handle(.line(bytes)) else { return nil }
            guard let id = answer["id"]?.stringValue else { return "serve answered without a string id: \(answer.compact.prefix(200))" }
            do {
                _ = try TesteeResult.parse(answer.compact, expectedID: id)
            } catch {
                return "serve's answer is not a result line the runner accepts (\(error)): \(answer.compact.prefix(200))"
            }
            return nil
        })

    /// The bytes of one client connection to a reference service (the first byte picks pairing
    /// or identity): each request the server's reader takes goes to a fresh service; a refusal
    /// is 400, 413, 431, 501 or 505; a request it accepts is one the runner's client could have sent
    /// (it serializes and reads back the same); every answer the service writes is read back by
    /// the runner's response reader with the same status and body.
    public static let httpRequest = FuzzSurface(
        name: "http_request", summary: "a client's bytes to serve-http: refusals are 400/413/431/501/505, accepted requests and answers read back equal",
        seedFormats: ["pairing", "revocation"], seedOps: ["scenario"], seedSyntax: .bytes,
        seed: { c in
            guard let scenario = try? Scenario.parse(c.input.json) else { return nil }
            var bytes: [UInt8] = [c.format == "pairing" ? 0 : 1]
            for step in scenario.steps {
                let t: Scenario.RequestTemplate
                switch step {
                case .request(let s): t = s.request
                case .race(let s): t = s.request
                case .timing(let s): t = s.request
                case .raw(let s):
                    // Already wire bytes: the framing faults of R13.1-11.
                    switch s.send {
                    case .text(let t): bytes += Array(t.utf8)
                    case .bytes(let b): bytes += b
                    }
                    continue
                }
                var headers = t.headers.map { HTTPField(name: $0.0, value: Array($0.1.utf8)) }
                var body: [UInt8] = []
                switch t.body {
                case .json(let v)?: body = Array(v.compact.utf8); headers.append(HTTPField(name: "Content-Type", value: Array("application/json".utf8)))
                case .text(let s)?: body = Array(s.utf8)
                case nil: break
                }
                guard case .success(let wire) = HTTPWire.serialize(HTTPRequest(method: t.method, target: t.path, headers: headers, body: body), close: false) else { continue }
                bytes += wire
            }
            return bytes.count > 1 ? bytes : nil
        },
        check: { data in
            guard let first = data.first else { return nil }
            let service: any HTTPService = first % 2 == 0 ? PairingService() : IdentityService()
            for outcome in HTTPRequestReader.read(Array(data.dropFirst()), limit: 16) {
                switch outcome {
                case .end: return nil
                case .refused(let r):
                    guard HTTPRequestReader.refusalStatuses.contains(r.status) else { return "the server refused a request with status \(r.status)" }
                    return nil
                case .request(let request, let close):
                    // Framing is the serializer's own: the fields that delimited the body as sent
                    // (a `Content-Length: 08`, a chunked coding) are not copied.
                    var plain = request
                    plain.headers.removeAll { f in ["Content-Length", "Transfer-Encoding", "Connection"].contains { HTTPField.sameName(f.name, $0) } }
                    switch HTTPWire.serialize(plain, close: close) {
                    case .failure(let f):
                        return "the server accepted a request the client could never send (\(f.message)): \(request.method) \(request.target.debugDescription)"
                    case .success(let wire):
                        let back = HTTPRequestReader.read(wire, limit: 1).first
                        // The serializer adds its own framing fields (Content-Length, Connection):
                        // a request at the field or byte cap of the header section can go over it
                        // (found by the long run: 100 fields accepted, 101 written, 431).
                        if case .refused(let r)? = back, r.status == 431,
                           plain.headers.count + 2 > HTTPWire.maxFields || (wire.firstRange(of: [0x0d, 0x0a, 0x0d, 0x0a])?.lowerBound ?? wire.count) + 64 > HTTPWire.maxHeaderBytes {
                            continue
                        }
                        guard case .request(let again, _)? = back,
                              again.method == request.method, again.target == request.target, again.body == request.body else {
                            let how: String
                            switch back {
                            case .request(let again, _)?: how = "reads back as \(again.method) \(again.target.debugDescription) with a \(again.body.count)-byte body"
                            case .refused(let r)?: how = "is refused with \(r.status): \(String(decoding: r.body, as: UTF8.self).prefix(200))"
                            case .end?, nil: how = "reads back as nothing"
                            }
                            return "an accepted request does not read back equal once serialized: \(request.method) \(request.target.debugDescription) with a \(request.body.count)-byte body \(how)"
                        }
                    }
                    let answer = service.handle(request)
                    guard (100...599).contains(answer.status) else { return "the service answered status \(answer.status)" }
                    let written = HTTPWire.serialize(answer, close: close, headOnly: request.method == "HEAD")
                    switch HTTPConnection.readResponse(from: written, method: request.method) {
                    case .failure(let f):
                        return "the runner cannot read the service's \(answer.status) answer to \(request.method) \(request.target.debugDescription): \(f.message)"
                    case .success(let read):
                        guard read.status == answer.status, request.method == "HEAD" || read.body == answer.body else {
                            return "the service's \(answer.status) answer reads back as \(read.status) with a \(read.body.count)-byte body (written: \(answer.body.count))"
                        }
                    }
                }
            }
            return nil
        })

    /// A testee's answer line as the runner reads it (§6.3): parsed as a result for the id it
    /// names, and as a hello. A line is accepted or refused with a protocol violation, never a
    /// trap; an accepted output renders back equal. Seeds: each case's expected answer as a line.
    public static let testeeOutput = FuzzSurface(
        name: "testee_output", summary: "a testee's result or hello line as the runner reads it: accepted or a protocol violation, never a trap",
        seedFormats: Reference.handlers.map(\.format), seedSyntax: .json,
        seed: { c in
            var m: [(String, JSONValue)] = [("type", .string("result")), ("id", .string(c.id))]
            switch c.expected {
            case .output(let o): m += [("status", .string("ok")), ("output", o.json)]
            case .error(let code): m += [("status", .string("rejected")), ("error", .string(code.rawValue)), ("message", .string("seed"))]
            }
            return Array(JSONValue.object(m).compact.utf8)
        },
        check: { bytes in
            guard let line = String(validating: bytes, as: UTF8.self) else { return nil }
            let id = (try? JSONValue.parse(line))?["id"]?.stringValue ?? "fuzz"
            if let r = try? TesteeResult.parse(line, expectedID: id), case .ok(let out) = r.status, let why = FuzzSurface.rendersBack(out) {
                return "an accepted output: \(why)"
            }
            _ = try? TesteeHello.parse(line)
            return nil
        })
}
