import Conformance
import Testing
import Vectors

/// The runner reads the same scenario files `serve` does (SPEC [R13.1-5]): a number out of range
/// is the case's error, never a trap of the runner, and a negative scenario case is judged by the
/// runner's own reading, with no service asked (the port below has nothing listening).
struct HTTPScenarioInputTests {
    static let input = try! JSONValue.parse(#"{"steps":[{"name":"s","request":{"method":"GET","path":"/hello"},"expect":{"status":18446744073709551615}}]}"#)

    @Test func aCaseWithAHugeStatusIsUnusableNotATrap() {
        let c = SuiteCase(id: "pairing/scenario/x/huge", format: "pairing", op: "scenario", input: Self.input, expected: .output(.object([("steps", .int(1))])))
        let (verdict, figures) = HTTPRunner.judge(c, host: "127.0.0.1", port: 1, timeout: 0.5)
        #expect(figures.isEmpty)
        #expect(verdict.failure?.kind == .error)
        #expect(verdict.failure?.summary.hasPrefix("the case's scenario is unusable: ") == true)
        #expect(verdict.failure?.summary.contains("input_bad_value") == true, "\(verdict)")
    }

    @Test func aNegativeScenarioCaseIsJudgedWithoutTheService() {
        let ok = SuiteCase(id: "pairing/scenario/input/x", format: "pairing", op: "scenario", input: Self.input, expected: .error("input_bad_value"))
        #expect(HTTPRunner.judge(ok, host: "127.0.0.1", port: 1, timeout: 0.5).0 == .pass)
        let wrongCode = SuiteCase(id: "pairing/scenario/input/y", format: "pairing", op: "scenario", input: Self.input, expected: .error("input_bad_type"))
        let f = HTTPRunner.judge(wrongCode, host: "127.0.0.1", port: 1, timeout: 0.5).0.failure
        #expect(f?.kind == .wrongOutput)
        #expect(f?.summary.hasPrefix("the scenario input was refused with input_bad_value, expected input_bad_type") == true)
        let readable = SuiteCase(id: "pairing/scenario/input/z", format: "pairing", op: "scenario",
                                 input: try! JSONValue.parse(#"{"steps":[{"name":"s","request":{"method":"GET","path":"/hello"},"expect":{"status":200}}]}"#),
                                 expected: .error("input_bad_value"))
        #expect(HTTPRunner.judge(readable, host: "127.0.0.1", port: 1, timeout: 0.5).0.failure?.summary == "the scenario input was read; expected it to be refused with input_bad_value")
    }
}
