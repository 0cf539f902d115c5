import Conformance
import Foundation
import Testing
import Vectors

@Suite struct ProtocolTests {
    @Test func runnerHelloAndCaseLinesCarryNoExpectation() throws {
        #expect(RunnerProtocol.runnerHello().compact == #"{"type":"hello","protocol_versions":[1],"suite_version":"0.1.0"}"#)
        let c = try #require(try Fixtures.suite(["state_digest"]).first { $0.id == "state_digest/digest_decode/decode/length-1" })
        #expect(c.message.compact == #"{"type":"case","id":"state_digest/digest_decode/decode/length-1","format":"state_digest","op":"digest_decode","input":{"encoded":"06"}}"#)
    }

    @Test func resultLinesAreParsedStrictly() throws {
        let id = "a/b/c/d"
        #expect(try TesteeResult.parse(#"{"type":"result","id":"a/b/c/d","status":"ok","output":{"x":1},"extra":true}"#, expectedID: id).status == .ok(.object([("x", .int(1))])))
        #expect(try TesteeResult.parse(#"{"type":"result","id":"a/b/c/d","status":"rejected","error":"input_bad_value","message":"m"}"#, expectedID: id).status
            == .rejected(code: "input_bad_value", message: "m"))
        #expect(try TesteeResult.parse(#"{"type":"result","id":"a/b/c/d","status":"unsupported"}"#, expectedID: id).status == .unsupported(reason: nil))
        #expect(try TesteeResult.parse(#"{"type":"result","id":"a/b/c/d","status":"error","message":"boom"}"#, expectedID: id).status == .error(message: "boom"))
        func reason(_ line: String) -> String? {
            do { _ = try TesteeResult.parse(line, expectedID: id); return nil } catch { return error.reason }
        }
        #expect(reason("[1]") == "not a JSON object")
        #expect(reason(#"{"id":"a/b/c/d"}"#) == #"no string member "type""#)
        #expect(reason(#"{"type":"hello","id":"a/b/c/d"}"#) == #"expected type "result", got "hello""#)
        #expect(reason(#"{"type":"result","id":"x","status":"ok","output":1}"#) == #"answers id "x" but the case in flight is "a/b/c/d""#)
        #expect(reason(#"{"type":"result","id":"a/b/c/d","status":"ok"}"#) == #"status ok needs "output""#)
        #expect(reason(#"{"type":"result","id":"a/b/c/d","status":"rejected"}"#) == #"status rejected needs a string "error" code"#)
        #expect(reason(#"{"type":"result","id":"a/b/c/d","status":"fine"}"#) == #"unknown status "fine" (ok, rejected, unsupported, error)"#)
    }

    @Test func testeeHelloNeedsVersionAndCapabilities() throws {
        let h = try TesteeHello.parse(#"{"type":"hello","protocol_version":1,"name":"n","version":"v","language":"l","capabilities":{"state_digest":["leaf","root"]}}"#)
        #expect(h.supports(format: "state_digest", op: "leaf") && !h.supports(format: "state_digest", op: "fold") && !h.supports(format: "x", op: "leaf"))
        #expect(throws: ProtocolViolation.self) { try TesteeHello.parse(#"{"type":"hello","protocol_version":"1","name":"n","version":"v","language":"l","capabilities":{}}"#) }
        #expect(throws: ProtocolViolation.self) { try TesteeHello.parse(#"{"type":"hello","protocol_version":1,"name":"n","version":"v","language":"l"}"#) }
    }

    @Test func referenceTesteeAnswersEveryMessage() throws {
        let t = ReferenceTestee()
        var session = ReferenceTestee.Session(t)
        guard case .reply(let hello) = session.handle(.line(Array(RunnerProtocol.runnerHello().compact.utf8))) else { Issue.record("no hello"); return }
        #expect(hello["capabilities"]?["state_digest"]?.arrayValue?.count == 8)
        #expect(t.respond(to: #"{"type":"case","id":"i","format":"state_digest","op":"digest_decode","input":{"encoded":"06"}}"#)
            == .reply(try JSONValue.parse(#"{"type":"result","id":"i","status":"rejected","error":"digest_wrong_length","message":"digest_wrong_length: a StateDigest is 417 bytes, got 1 (at byte 1)"}"#)))
        #expect(t.respond(to: #"{"type":"shutdown"}"#) == .shutdown)
        #expect(t.respond(to: "garbage") == .ignore("the line cannot be decoded: invalid JSON at byte 0: unexpected character; no readable id, so no answer"))
    }

    func reply(_ r: ReferenceTestee.Response) -> [String?] {
        guard case .reply(let v) = r else { return [] }
        return [v["id"]?.stringValue, v["status"]?.stringValue, v["error"]?.stringValue]
    }

    /// Each deviation issue 15 found in the old `serve`, one by one (SPEC.md §6.2, §6.3).
    @Test func serveSessionFollowsSection6() throws {
        let t = ReferenceTestee()
        func first(_ line: String) -> ReferenceTestee.Response {
            var s = ReferenceTestee.Session(t)
            return s.handle(.line(Array(line.utf8)))
        }
        // A case before the hello is not answered: the testee refuses and exits (R6.2-1).
        #expect(first(#"{"type":"case","id":"i","format":"state_digest","op":"leaf","input":{}}"#)
            == .refuse(#"the first line is a message of type "case"; expected the runner's hello"#))
        // Only an offered version is answered (R6.2-2, R6.2-3).
        #expect(first(#"{"type":"hello","protocol_versions":[2]}"#) == .refuse("the runner offers protocol version(s) 2; this testee speaks 1"))
        #expect(first(#"{"type":"hello","protocol_versions":[]}"#) == .refuse("the runner's hello has no protocol_versions array of integers"))
        #expect(first(#"{"type":"hello"}"#) == .refuse("the runner's hello has no protocol_versions array of integers"))
        #expect(first(#"{"type":"hello","protocol_versions":["1"]}"#) == .refuse("the runner's hello has no protocol_versions array of integers"))
        guard case .reply(let h) = first(#"{"type":"hello","protocol_versions":[7,1,3]}"#) else { Issue.record("no hello"); return }
        #expect(h["protocol_version"] == .int(1))

        var s = ReferenceTestee.Session(t, greeted: true)
        func send(_ line: String) -> [String?] { reply(s.handle(.line(Array(line.utf8)))) }
        // Unknown format and unknown op are rejected with their §3 codes (R6.3-7, R6.3-8).
        #expect(send(#"{"type":"case","id":"a","format":"nope","op":"leaf","input":{}}"#) == ["a", "rejected", "unknown_format"])
        #expect(send(#"{"type":"case","id":"b","format":"state_digest","op":"nope","input":{}}"#) == ["b", "rejected", "unknown_op"])
        #expect(send(#"{"type":"case","id":"b2","op":"leaf","input":{}}"#) == ["b2", "rejected", "unknown_format"])
        // An undecodable line with a readable id is rejected with an input code, never silence (R6.3-6).
        #expect(send(#"{"type":"case","id":"c","format":"state_digest","op":"leaf","input":{"t":"\ud800x"}}"#) == ["c", "rejected", "input_bad_value"])
        #expect(send(#"{"type":"case","id":"c2","format":"nope","op":"x","input":{"t":"\udc00"}}"#) == ["c2", "rejected", "input_bad_value"])
        let deep = #"{"type":"case","id":"d","format":"nope","op":"x","input":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(send(deep) == ["d", "rejected", "input_bad_value"])
        let sixtyFour = #"{"type":"case","id":"d64","format":"nope","op":"x","input":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
        #expect(send(sixtyFour) == ["d64", "rejected", "unknown_format"])
        #expect(reply(s.handle(.line(Array(#"{"type":"case","id":"u","format":"nope","op":"x","input":"a"#.utf8) + [0xff, 0x22, 0x7d]))) == ["u", "rejected", "input_bad_value"])
        // Over 16 MiB: rejected with input_bad_length under the id read from the kept prefix (R6.3-5).
        #expect(reply(s.handle(.tooLong(prefix: Array(#"{"type":"case","id":"long","format":"state_digest","op":"leaf","input":{"pad":"aaaa"#.utf8)))) == ["long", "rejected", "input_bad_length"])
        // No readable id: no answer, the session goes on (R6.3-9); other types are ignored (R6.1-8).
        guard case .ignore = s.handle(.line(Array(#"{"type":"case","input":{,}}"#.utf8))) else { Issue.record("answered a line without id"); return }
        guard case .ignore = s.handle(.line(Array(#"{"type":"hello","protocol_versions":[1]}"#.utf8))) else { Issue.record("answered a second hello"); return }
        #expect(send(#"{"type":"case","id":"e","format":"nope","op":"x","input":{}}"#) == ["e", "rejected", "unknown_format"])
    }

    @Test func lineSalvageReadsTheTopLevelIDOnly() {
        func id(_ s: String) -> String? { LineSalvage.topLevelString("id", in: Array(s.utf8)[...]) }
        #expect(id(#"{"type":"case","id":"a/b","input":{,}}"#) == "a/b")
        #expect(id(#" { "input" : {"id":"inner","x":[1,{"id":2}]} , "id" : "outer\u0041" }"#) == "outerA")
        #expect(id(#"{"type":"case","input":[[["#) == nil)              // cut before the id
        #expect(id(#"{"type":"case","id":"\ud800"}"#) == nil)           // an id that itself does not decode
        #expect(id(#"{"type":"case","id":7}"#) == nil)
        #expect(id(#"["id","x"]"#) == nil)
        #expect(id(#"{"s":"a\"}\"b","id":"q"}"#) == "q")               // escaped quotes inside a skipped string
    }

    @Test func inputLinesEnforceTheLimitWhileReading() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let limit = 100
        let (r, w) = (fds[0], fds[1])
        let writer = Thread {
            var data = Array("short\r\n".utf8)
            data += [UInt8](repeating: 0x61, count: 100) + [0x0a]                 // exactly at the limit
            data += Array(#"{"id":"x"}"#.utf8) + [UInt8](repeating: 0x62, count: 300_000) + [0x0a]  // over
            data += Array("last".utf8)                                            // no final newline
            data.withUnsafeBytes { b in
                var off = 0
                while off < b.count {
                    let n = write(w, b.baseAddress! + off, b.count - off)
                    if n <= 0 { break }
                    off += n
                }
            }
            close(w)
        }
        writer.start()
        var lines = InputLines(fd: r, maxLineBytes: limit)
        #expect(lines.next() == .line(Array("short".utf8)))
        #expect(lines.next() == .line([UInt8](repeating: 0x61, count: 100)))
        guard case .tooLong(let prefix) = lines.next() else { Issue.record("not too long"); return }
        #expect(prefix.count == InputLines.keptPrefix && prefix.starts(with: Array(#"{"id":"x"}"#.utf8)))
        #expect(lines.next() == .line(Array("last".utf8)))
        #expect(lines.next() == nil)
        close(r)
    }
}

/// The schemas in `schemas/` and the messages the runner and the reference write agree on the
/// required members and the `type` constant (no JSON Schema validator is available here, so
/// this checks the two parts of each schema that a drift would break first).
@Suite struct SchemaTests {
    func schema(_ name: String) throws -> JSONValue {
        let url = Fixtures.packageRoot.appendingPathComponent("schemas/\(name).schema.json")
        return try JSONValue.parse(String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }

    func check(_ message: JSONValue, against name: String) throws {
        let s = try schema(name)
        let list = s["required"]?.arrayValue ?? []
        let required = list.compactMap { $0.stringValue }
        #expect(!required.isEmpty)
        for key in required { #expect(message[key] != nil, "\(name): missing \(key)") }
        #expect(message["type"]?.stringValue == s["properties"]?["type"]?["const"]?.stringValue)
    }

    @Test func messagesCarryTheirSchemasRequiredMembers() throws {
        try check(RunnerProtocol.runnerHello(), against: "hello-runner")
        try check(ReferenceTestee().hello, against: "hello-testee")
        try check(RunnerProtocol.caseMessage(id: "a/b/c", format: "a", op: "b", input: .null), against: "case")
        try check(ReferenceTestee().answer(id: "i", format: "state_digest", op: "digest_decode", input: .object([("encoded", .string("06"))])), against: "result")
        try check(ReferenceTestee().answer(id: "i", format: "nope", op: "x", input: .null), against: "result")
        try check(RunnerProtocol.shutdown, against: "shutdown")
    }
}
