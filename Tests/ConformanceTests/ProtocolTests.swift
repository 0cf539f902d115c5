import Conformance
import Foundation
import Testing
import Vectors

@Suite struct ProtocolTests {
    @Test func runnerHelloAndCaseLinesCarryNoExpectation() throws {
        #expect(RunnerProtocol.runnerHello().compact == #"{"type":"hello","protocol_versions":[1],"suite_version":"0.1.0"}"#)
        let c = try #require(try SuiteLoader.load(directory: Fixtures.vectors).first { $0.id == "state_digest/digest_decode/decode/length-1" })
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
        guard case .reply(let hello) = t.respond(to: RunnerProtocol.runnerHello().compact) else { Issue.record("no hello"); return }
        #expect(hello["capabilities"]?["state_digest"]?.arrayValue?.count == 8)
        #expect(t.respond(to: #"{"type":"case","id":"i","format":"state_digest","op":"digest_decode","input":{"encoded":"06"}}"#)
            == .reply(try JSONValue.parse(#"{"type":"result","id":"i","status":"rejected","error":"digest_wrong_length","message":"digest_wrong_length: a StateDigest is 417 bytes, got 1 (at byte 1)"}"#)))
        #expect(t.respond(to: #"{"type":"case","id":"i","format":"nope","op":"x","input":{}}"#)
            == .reply(try JSONValue.parse(#"{"type":"result","id":"i","status":"unsupported","message":"no op nope/x"}"#)))
        #expect(t.respond(to: #"{"type":"shutdown"}"#) == .shutdown)
        #expect(t.respond(to: "garbage") != .shutdown)
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
        try check(RunnerProtocol.shutdown, against: "shutdown")
    }
}
