import Vectors

/// Turns a draft into a §13.1 scenario case: resets a fresh reference service in process, sends
/// each step exactly as the interpreter will send it to the testee, and writes the step's
/// expectation from the reference's answer through the generator's `expectation` (what SPEC pins
/// of that answer). A race's `counts` are the statuses the reference gave; its captures take the
/// first value answered with the status, as the interpreter does.
///
/// A draft the reference cannot play (a capture with nothing to capture, a `${name}` no step
/// defines: shrinking removes steps) records as nil, and is not a case.
enum HTTPFuzzRecorder {
    static func record(_ draft: HTTPFuzzDraft, generator g: any HTTPFuzzGenerator) -> JSONValue? {
        let service = g.makeService()
        let transport = InProcessTransport(service)
        let interpreter = ScenarioInterpreter(transport: transport)
        let reset = HTTPRequest(method: "POST", target: ScenarioInterpreter.resetPath,
                                headers: [HTTPField("Host", interpreter.host), HTTPField("Content-Type", "application/json")],
                                body: Array(draft.setup.compact.utf8))
        guard service.handle(reset).status == 204 else { return nil }
        var vars = draft.values.map { ($0.name, $0.text) }
        var notes: [String: String] = [:]
        var steps: [JSONValue] = []
        for (i, step) in draft.steps.enumerated() {
            guard let template = try? Scenario.request(step.request, path: "steps[\(i)].request") else { return nil }
            switch step.kind {
            case .request(let capture):
                guard let req = try? interpreter.build(template, vars).onTheWire else { return nil }
                let answer = service.handle(req)
                let expect = g.expectation(step: step, request: req, answer: answer, notes: &notes)
                var m: [(String, JSONValue)] = [("name", .string(step.name)), ("request", step.request), ("expect", expect)]
                if !capture.isEmpty {
                    guard let body = HTTPExpect.body(answer) else { return nil }
                    for c in capture {
                        guard let v = ScenarioInterpreter.resolve(c.pointer, in: body)?.stringValue else { return nil }
                        vars.append((c.name, v))
                    }
                    m.append(("capture", .object(capture.map { ($0.name, .string($0.pointer)) })))
                }
                steps.append(.object(m))
            case .race(let vary, let values, let capture):
                var requests: [HTTPRequest] = []
                for v in values {
                    guard let r = try? interpreter.build(template, vars + [(vary, v)]) else { return nil }
                    requests.append(r.onTheWire)
                }
                var statuses: [Int] = []
                for a in transport.sendConcurrently(requests) {
                    guard case .success(let r) = a else { return nil }
                    statuses.append(r.status)
                }
                var counts: [Int: Int] = [:]
                for s in statuses { counts[s, default: 0] += 1 }
                var r: [(String, JSONValue)] = [("vary", .string(vary)), ("values", .array(values.map { .string($0) })), ("request", step.request),
                                                ("counts", .object(counts.keys.sorted().map { (String($0), .int(counts[$0]!)) }))]
                var kept: [(String, JSONValue)] = []
                for c in capture {
                    guard let k = statuses.firstIndex(of: c.status) else { continue }
                    vars.append((c.name, values[k]))
                    notes["race:\(c.status)"] = "${\(c.name)}"
                    kept.append((c.name, .int(c.status)))
                }
                if !kept.isEmpty { r.append(("capture", .object(kept))) }
                steps.append(.object([("name", .string(step.name)), ("race", .object(r))]))
            }
        }
        var m: [(String, JSONValue)] = []
        if !draft.values.isEmpty { m.append(("values", .object(draft.values.map { ($0.name, .string($0.text)) }))) }
        if draft.setup != .object([]) { m.append(("setup", draft.setup)) }
        m.append(("steps", .array(steps)))
        return .object(m)
    }
}

extension HTTPRequest {
    /// The request as a service reads it off the wire: a field value loses the spaces and tabs
    /// around it (RFC 9110 §5.5), which an in-process call would otherwise keep.
    var onTheWire: HTTPRequest {
        var r = self
        let ows: Set<UInt8> = [0x20, 0x09]
        r.headers = headers.map { f in
            var v = f.value[...]
            while let c = v.first, ows.contains(c) { v = v.dropFirst() }
            while let c = v.last, ows.contains(c) { v = v.dropLast() }
            return HTTPField(name: f.name, value: Array(v))
        }
        return r
    }
}
