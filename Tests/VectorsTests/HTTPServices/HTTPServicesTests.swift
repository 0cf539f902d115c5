import Foundation
import Testing
@testable import Vectors

/// The pieces of the HTTP formats the vectors exercise only indirectly: the strict JSON reader,
/// the token rule against the seed's own check, substitution, and SPEC §13 listing the ops.
struct HTTPServicesTests {
    @Test func strictJSONRefusesRepeatedNamesAtAnyDepth() {
        #expect(StrictJSON.parse(Array(#"{"a":1,"b":{"c":1,"c":2}}"#.utf8)) == .failure(.duplicateMember("b.c")))
        #expect(StrictJSON.parse(Array(#"[{"x":1},{"x":1,"x":1}]"#.utf8)) == .failure(.duplicateMember("[1].x")))
        #expect(StrictJSON.parse([0x7b, 0xff, 0x7d]) == .failure(.invalidUTF8))
        // "é" spelled NFC and NFD are two names, not one (compared by bytes).
        #expect((try? StrictJSON.parse(Array("{\"\u{e9}\":1,\"e\u{301}\":2}".utf8)).get()) != nil)
        #expect((try? StrictJSON.object(Array("[]".utf8)).get()) == nil)
    }

    @Test func tokenRuleAgainstTheSeedsOwnCheck() {
        let t = String(repeating: "0a", count: 32)
        let fullwidth = String(String.UnicodeScalarView(t.unicodeScalars.map { Unicode.Scalar($0.value <= 0x39 ? $0.value - 0x30 + 0xFF10 : $0.value - 0x61 + 0xFF41)! }))
        #expect(PairingService.isWellFormed(t, mutant: nil))
        #expect(!PairingService.isWellFormed(t.uppercased(), mutant: nil))
        #expect(!PairingService.isWellFormed(fullwidth, mutant: nil))
        // The seed's check (Character.isHexDigit, Characters counted) accepts both.
        #expect(PairingService.isWellFormed(t.uppercased(), mutant: .pairFullwidthAccepted))
        #expect(PairingService.isWellFormed(fullwidth, mutant: .pairFullwidthAccepted))
        #expect(fullwidth.utf8.count == 192 && fullwidth.count == 64)
        #expect(!PairingService.isWellFormed(t + "\n", mutant: nil))
        #expect(PairingService.isWellFormed(t + "\n", mutant: .pairTrailingNewlineAccepted))
    }

    @Test func substitutionNamesUnknownValues() throws {
        #expect(try ScenarioInterpreter.substitute("Bearer ${t}", [("t", "x"), ("t", "y")]) == "Bearer y")
        #expect(try ScenarioInterpreter.substitute("no $ {t} here ${", []) == "no $ {t} here ${")
        #expect(throws: WireError.self) { try ScenarioInterpreter.substitute("${missing}", []) }
    }

    @Test func pointerIndicesAreRFC6901() {
        let v = JSONValue.array([.string("a"), .string("b")])
        #expect(ScenarioInterpreter.resolve("/1", in: v) == .string("b"))
        #expect(ScenarioInterpreter.resolve("/0", in: v) == .string("a"))
        for bad in ["/+1", "/01", "/-1", "/ 1", "/2", "/", "/18446744073709551615", "/99999999999999999999"] {
            #expect(ScenarioInterpreter.resolve(bad, in: v) == nil, "\(bad)")
        }
    }

    @Test func welchFormatNeverTraps() {
        #expect(WelchTest.format(1e300, 2) == String(1e300))
        #expect(WelchTest.format(-9.3e18, 0) == String(-9.3e18))
        #expect(WelchTest.format(.infinity, 2) == "inf")
        #expect(WelchTest.format(123.456, 1) == "123.5")
    }

    @Test func unknownHookAndResetOptions() {
        let s = PairingService()
        #expect(s.handle(HTTPRequest(method: "POST", target: "/conformance/reset", body: Array(#"{"fail_saves":"1"}"#.utf8))).status == 400)
        #expect(s.handle(HTTPRequest(method: "POST", target: "/conformance/reset", body: Array(#"{"fail_saves":1}"#.utf8))).status == 204)
        #expect(s.handle(HTTPRequest(method: "GET", target: "/conformance/reset")).status == 404)
        let i = IdentityService()
        #expect(i.handle(HTTPRequest(method: "POST", target: "/conformance/session", body: Array(#"{"user_id":"a b"}"#.utf8))).status == 400)
    }

    @Test func specSection13ListsTheOpsAndRules() throws {
        let spec = try Fixtures.repoFile("SPEC.md")
        let start = try #require(spec.range(of: "### 13.6 Ops"))
        let section = spec[start.upperBound...].prefix(3000)
        for h in [PairingHandler() as any FormatHandler, RevocationHandler()] {
            for op in h.ops { #expect(section.contains("| `\(h.format)` | `\(op)` |"), "\(h.format)/\(op) missing from §13.6") }
        }
        #expect(spec.contains("<!-- SECTION:http ") && spec.contains("<!-- END:http -->"))
        #expect(spec.contains("### 6.13 HTTP mode"))
    }
}
