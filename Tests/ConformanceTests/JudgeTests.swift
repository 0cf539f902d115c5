import Conformance
import Primitives
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

/// Diffs that speak the encoding (SPEC.md §6.5): CBOR by path with major types, JSON text by
/// path, hybrid signatures by half, long hex by byte offset, every path counted.
@Suite struct EncodedDiffTests {
    func lines(_ e: JSONValue, _ a: JSONValue) -> [String] { JSONComparison.diff(expected: e, actual: a, limit: 50).shown.map(\.description) }
    func cbor(_ v: CBOR) -> JSONValue { .string(Hex.encode(CBORWriter.encode(v))) }

    /// Issue 15's example: a reconcile frame's `vectors` keys written as byte strings.
    @Test func cborMapKeyOfTheWrongMajorTypeIsNamedByPath() throws {
        let key = "318d2c3e"
        let e = CBOR.map([(.text("kind"), .text("reconcile_resp")), (.text("vectors"), .map([(.text(key), .map([(.text("a"), .unsigned(3))]))]))])
        let a = CBOR.map([(.text("kind"), .text("reconcile_resp")), (.text("vectors"), .map([(.bytes(Hex.decode(key)!), .map([(.text("a"), .unsigned(3))]))]))])
        #expect(lines(.object([("cbor", cbor(e))]), .object([("cbor", cbor(a))])) == [
            #"output.cbor (CBOR).vectors key 0: expected text string "318d2c3e", got byte string of 4 bytes h'318d2c3e'"#,
        ])
    }

    @Test func cborValuesArraysAndMissingKeysAreNamed() throws {
        let e = CBOR.map([(.text("n"), .unsigned(5)), (.text("list"), .array([.unsigned(1), .text("x")])), (.text("gone"), .null)])
        let a = CBOR.map([(.text("n"), .negative(4)), (.text("list"), .array([.unsigned(1), .bytes([0x78])]))])
        #expect(lines(cbor(e), cbor(a)) == [
            "output (CBOR).n: expected unsigned integer 5, got negative integer -5",
            "output (CBOR).list[1]: expected text string \"x\", got byte string of 1 byte h'78'",
            "output (CBOR).gone: missing (expected null null)",
        ])
    }

    @Test func nonDeterministicButWellFormedCBORIsDecodedAndSaidSo() throws {
        // {"b": 1, "a": 2} with keys out of order, and 2 written in a two-byte head.
        let e = CBOR.map([(.text("a"), .unsigned(2)), (.text("b"), .unsigned(1))])
        let actual = JSONValue.string("a2616201616118" + "02")
        let got = lines(cbor(e), actual)
        #expect(got.count == 1)
        #expect(got.first?.hasPrefix("output (CBOR): the testee's bytes are well-formed CBOR but not deterministic (SPEC.md §1): cbor_unsorted_map_keys") == true)
        #expect(lines(cbor(e), .string("a2")) == ["output (CBOR): expected CBOR map of 2 (7 bytes), the testee's 1 bytes are not well-formed CBOR: a map of 2 entries in 0 byte(s) (at byte 0)"])
    }

    @Test func cborInsideAByteStringIsDecodedInTurn() throws {
        let inner = CBOR.array([.unsigned(1), .text("x")])
        let e = CBOR.map([(.text("cert"), .bytes(CBORWriter.encode(inner)))])
        let a = CBOR.map([(.text("cert"), .bytes(CBORWriter.encode(.array([.unsigned(1), .text("y")]))))])
        #expect(lines(cbor(e), cbor(a)) == [#"output (CBOR).cert (CBOR)[1]: text string: expected "x", got "y""#])
    }

    @Test func hybridSignatureDiffNamesTheHalf() throws {
        let sig = (0..<3373).map { UInt8($0 % 251) }
        var ed = sig; ed[10] ^= 1
        var pq = sig; pq[3000] ^= 1
        var both = ed; both[100] ^= 1
        func diff(_ x: [UInt8]) -> [String] { lines(.object([("signature", .string(Hex.encode(sig)))]), .object([("signature", .string(Hex.encode(x)))])) }
        #expect(diff(ed) == ["output.signature: hybrid signature (SPEC.md §9.3): Ed25519 half (bytes 0–63) differs, ML-DSA-65 half (bytes 64–3372) equal"])
        #expect(diff(pq) == ["output.signature: hybrid signature (SPEC.md §9.3): Ed25519 half (bytes 0–63) equal, ML-DSA-65 half (bytes 64–3372) differs"])
        #expect(diff(both) == ["output.signature: hybrid signature (SPEC.md §9.3): Ed25519 half (bytes 0–63) differs, ML-DSA-65 half (bytes 64–3372) differs"])
        #expect(diff(Array(sig.prefix(64))) == ["output.signature: expected a 3373-byte hybrid signature (Ed25519 || ML-DSA-65, SPEC.md §9.3), got 64 bytes"])
        // The signature as the tail of a signed wire value: the body before it is equal.
        let wire = [UInt8](repeating: 7, count: 200) + sig
        let bad = [UInt8](repeating: 7, count: 200) + pq
        #expect(lines(.string(Hex.encode(wire)), .string(Hex.encode(bad)))
            == ["output: the last 3373 bytes (a hybrid signature, SPEC.md §9.3) differ: Ed25519 half (bytes 0–63) equal, ML-DSA-65 half (bytes 64–3372) differs; the 200 bytes before them are equal"])
        // A hybrid signature inside CBOR (a certificate's sig member).
        let cert = CBOR.map([(.text("sig"), .bytes(sig))]), badCert = CBOR.map([(.text("sig"), .bytes(ed))])
        #expect(lines(cbor(cert), cbor(badCert)) == ["output (CBOR).sig: hybrid signature (SPEC.md §9.3): Ed25519 half (bytes 0–63) differs, ML-DSA-65 half (bytes 64–3372) equal"])
    }

    @Test func longHexNamesTheFirstDifferingByte() throws {
        let e = [UInt8](repeating: 0xab, count: 100), a = e.enumerated().map { $0.offset == 70 || $0.offset == 90 ? 0 : $0.element }
        let got = lines(.string(Hex.encode(e)), .string(Hex.encode(a)))
        #expect(got.count == 1)
        #expect(got.first?.hasPrefix("output: 100 bytes expected, 100 got; first difference at byte 70 (2 of the first 100 bytes differ): expected …abababababababab") == true)
    }

    @Test func jsonTextInAStringIsDiffedByPath() throws {
        let e = JSONValue.object([("json", .string(#"{"kind":"reconcile_req","buckets":[{"count":3}]}"#))])
        let a = JSONValue.object([("json", .string(#"{"buckets":[{"count":4}],"kind":"reconcile_req"}"#))])
        #expect(lines(e, a) == ["output.json (JSON).buckets[0].count: expected 3, got 4"])
    }

    @Test func textComparesByUTF8BytesNotCanonicalEquivalence() throws {
        // "é" precomposed (NFC) and decomposed (NFD) are equal to Swift's ==, not to SPEC §2.2.
        let nfc = JSONValue.object([("name", .string("caf\u{e9}"))]), nfd = JSONValue.object([("name", .string("cafe\u{301}"))])
        #expect(!JSONComparison.equal(nfc, nfd))
        #expect(lines(nfc, nfd).count == 1)
    }

    @Test func pathListEndsWithAndNMoreAndLinesAreCutAroundTheDifference() throws {
        let e = JSONValue.object((0..<25).map { ("k\($0)", JSONValue.int($0)) })
        let a = JSONValue.object((0..<25).map { ("k\($0)", JSONValue.int($0 + 1)) })
        let c = SuiteCase(id: "toy/echo/a/x", format: "toy", op: "echo", input: .object([]), expected: .output(e))
        let f = try #require(Judge.judge(c, .result(TesteeResult(id: c.id, status: .ok(a)))).failure)
        #expect(f.summary == "output differs at output.k0, output.k1, output.k2, output.k3, output.k4, output.k5, output.k6, output.k7, output.k8, output.k9 and 15 more")
        #expect(f.details.contains("… and 15 more differences"))
        // A deep difference: the shown lines start near it, not at the start of the value.
        let longE = JSONValue.object([("pad", .string(String(repeating: "p", count: 400))), ("deep", .object([("x", .int(1))]))])
        let longA = JSONValue.object([("pad", .string(String(repeating: "p", count: 400))), ("deep", .object([("x", .int(2))]))])
        let d = JSONComparison.sideBySide(longE, longA)
        #expect(d.expected.hasPrefix("…") && d.expected.contains(#""deep":{"x":1}}"#))
        #expect(d.actual.hasPrefix("…") && d.actual.contains(#""deep":{"x":2}}"#))
    }
}
