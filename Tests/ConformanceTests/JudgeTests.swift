import Conformance
import Testing
import Vectors

@Suite struct JudgeTests {
    func json(_ s: String) throws -> JSONValue { try JSONValue.parse(s) }
    func toyCase(expected: SuiteCase.Expected) -> SuiteCase {
        SuiteCase(id: "toy/echo/a/x", format: "toy", op: "echo", input: .object([]), expected: expected)
    }

    @Test func memberOrderIsIgnored() throws {
        #expect(JSONComparison.equal(try json(#"{"a":1,"b":[1,{"c":"x","d":true}]}"#), try json(#"{"b":[1,{"d":true,"c":"x"}],"a":1}"#)))
    }

    @Test func numbersAreIntegersComparedByValueAndNeverStrings() throws {
        #expect(JSONComparison.equal(try json("0"), try json("-0")))
        #expect(JSONComparison.differences(expected: try json(#"{"n":5}"#), actual: try json(#"{"n":"5"}"#)).map(\.description)
            == [#"output.n: expected a number 5, got a string "5""#])
        #expect(JSONComparison.differences(expected: try json(#"{"n":1}"#), actual: try json(#"{"n":1.0}"#)).map(\.description)
            == ["output.n: expected 1, got 1.0 (numbers must be integers)"])
    }

    @Test func uppercaseHexIsItsOwnExplainedDifference() throws {
        let d = JSONComparison.differences(expected: try json(#"{"leaf":"3fab"}"#), actual: try json(#"{"leaf":"3FAB"}"#))
        #expect(d.map(\.description) == [#"output.leaf: expected "3fab", got "3FAB": uppercase hex; bytes are written in lowercase hex (SPEC.md conventions)"#])
    }

    @Test func missingExtraAndDuplicateMembersAreNamed() throws {
        #expect(JSONComparison.differences(expected: try json(#"{"a":1,"b":2}"#), actual: try json(#"{"a":1,"c":3}"#)).map(\.description)
            == ["output.b: missing (expected 2)", "output.c: unexpected member (got 3)"])
        #expect(JSONComparison.differences(expected: try json(#"{"a":1}"#), actual: try json(#"{"a":1,"a":1}"#)).map(\.description)
            == [#"output: member "a" appears twice in the testee's object"#])
    }

    @Test func statusesMapToFailureKinds() throws {
        let out = toyCase(expected: .output(.object([("v", .int(1))])))
        let err = toyCase(expected: .error("input_bad_value"))
        func kind(_ c: SuiteCase, _ s: TesteeResult.Status) -> String {
            switch Judge.judge(c, .result(TesteeResult(id: c.id, status: s))) {
            case .pass: return "pass"
            case .skipped: return "skipped"
            case .fail(let f): return f.kind.rawValue
            }
        }
        #expect(kind(out, .ok(.object([("v", .int(1))]))) == "pass")
        #expect(kind(out, .ok(.object([("v", .int(2))]))) == "wrong_output")
        #expect(kind(out, .rejected(code: "input_bad_value", message: nil)) == "unexpected_rejection")
        #expect(kind(err, .rejected(code: "input_bad_value", message: nil)) == "pass")
        #expect(kind(err, .rejected(code: "input_bad_type", message: nil)) == "wrong_error")
        #expect(kind(err, .ok(.object([]))) == "unexpected_acceptance")
        #expect(kind(err, .unsupported(reason: nil)) == "skipped")
        #expect(kind(out, .error(message: "boom")) == "error")
        #expect(Judge.judge(out, .crash(.exited(3))).failure?.kind == .crash)
        #expect(Judge.judge(out, .timeout(seconds: 1)).failure?.kind == .timeout)
        #expect(Judge.judge(out, .protocolError(ProtocolViolation("x", line: "y"))).failure?.kind == .protocolError)
    }

    @Test func wrongErrorNamesCodesOutsideTheVocabulary() {
        let c = toyCase(expected: .error("input_bad_value"))
        let v = Judge.judge(c, .result(TesteeResult(id: c.id, status: .rejected(code: "bad", message: "nope"))))
        #expect(v.failure == Failure(.wrongError, "expected error input_bad_value, got bad (not a code of the error vocabulary, SPEC.md §3)", details: ["testee message: nope"]))
    }
}

@Suite struct LeafDiagnosisTests {
    func preimage(_ row: String) throws -> String {
        let out = try StateDigestHandler().run(op: "leaf", input: try JSONValue.parse(#"{"namespace":"messages","row":\#(row)}"#))
        return try #require(out["preimage"]?.stringValue)
    }

    let base = #""messageID":"6213de27882dc9bc27709f9700c2efe3","conversationID":"8ba0a60741525ff7ba4770f68f8e82a5","isOutgoing":true,"body":"hi""#

    @Test func namesTheFirstDifferingCommittedField() throws {
        let e = try preimage("{\(base),\"sentAt\":1767225600123}")
        let a = try preimage("{\(base),\"sentAt\":1767225601123}")
        #expect(LeafDiagnosis.firstDifference(namespace: "messages", expected: e, actual: a) == "first differing leaf field: sentAt (expected 1767225600, got 1767225601)")
    }

    @Test func presenceMarkersAreReadAsAbsentOrPresent() throws {
        let e = try preimage("{\(base),\"sentAt\":0}")
        let a = try preimage("{\(base),\"senderName\":\"Ada\",\"sentAt\":0}")
        #expect(LeafDiagnosis.firstDifference(namespace: "messages", expected: e, actual: a) == #"first differing leaf field: senderName (expected absent (marker 0), got "Ada")"#)
    }

    @Test func extraElementsAndBadCBORAreNamed() throws {
        let e = try preimage("{\(base),\"sentAt\":0}")
        // One more element in the array: header 0x8b (11 committed fields, no optional present) → 0x8c, then an extra 0x00.
        #expect(e.hasPrefix("8b"))
        let extra = "8c" + e.dropFirst(2) + "00"
        #expect(LeafDiagnosis.firstDifference(namespace: "messages", expected: e, actual: extra)
            == "the testee's preimage has 1 element(s) after the last committed field (editedAt); excluded fields must not be hashed")
        #expect(LeafDiagnosis.firstDifference(namespace: "messages", expected: e, actual: "8a")?.hasPrefix("the testee's preimage is not deterministic CBOR: cbor_truncated") == true)
        #expect(LeafDiagnosis.firstDifference(namespace: "messages", expected: e, actual: e) == nil)
    }
}
