import Testing
@testable import Vectors

/// Every number of a scenario input is read through a checked path (SPEC.md §13.1, [R13.1-5]):
/// a status of 2^63 or more once trapped `serve` and the runner in `Scenario.expectation`
/// ("Not enough bits to represent the passed value"); now each is a typed §3 error.
struct ScenarioNumbersTests {
    /// The reader's verdict; a test whose own JSON does not parse fails (the helper throws).
    static func parse(_ json: String) throws -> Result<Scenario, WireError> {
        let v = try JSONValue.parse(json)
        do { return .success(try Scenario.parse(v)) } catch { return .failure(error) }
    }

    static func code(_ json: String) throws -> String? {
        if case .failure(let e) = try parse(json) { return e.code.rawValue }
        return nil
    }

    static let request = #"{"method":"GET","path":"/hello"}"#
    static func expecting(_ status: String) -> String { #"{"steps":[{"name":"s","request":\#(request),"expect":{"status":\#(status)}}]}"# }
    static func racing(_ counts: String, capture: String = "") -> String {
        #"{"steps":[{"name":"r","race":{"vary":"n","values":["1","2"],"request":\#(request),"counts":\#(counts)\#(capture.isEmpty ? "" : #","capture":\#(capture)"#)}}]}"#
    }
    static func timing(status: String, samples: String = "10") -> String {
        #"{"steps":[{"name":"t","timing":{"vary":"n","a":"1","b":"2","samples":\#(samples),"request":\#(request),"status":\#(status)}}]}"#
    }

    /// The issue's own input, byte for byte.
    @Test func theStatusThatTrappedIsABadValue() throws {
        guard case .failure(let e) = try Self.parse(Self.expecting("18446744073709551615")) else { Issue.record("read"); return }
        #expect(e.code == .inputBadValue)
        #expect(e.field == "steps[0].expect.status")
    }

    @Test(arguments: [
        ("9223372036854775807", "input_bad_value"), ("9223372036854775808", "input_bad_value"), ("18446744073709551615", "input_bad_value"),
        ("18446744073709551616", "input_bad_type"), ("\"18446744073709551615\"", "input_bad_value"), ("-1", "input_bad_type"),
        ("200.0", "input_bad_type"), ("2e2", "input_bad_type"), ("\"+200\"", "input_bad_type"), ("true", "input_bad_type"),
        ("99", "input_bad_value"), ("600", "input_bad_value"), ("0", "input_bad_value"),
    ])
    func expectedStatus(_ literal: String, _ want: String) throws {
        #expect(try Self.code(Self.expecting(literal)) == want, "status \(literal)")
    }

    @Test func statusBoundsAreInclusive() throws {
        for ok in ["100", "599", "\"204\""] {
            let s = try Self.parse(Self.expecting(ok)).get()
            guard case .request(let r) = s.steps[0] else { Issue.record("not a request step"); continue }
            #expect(r.expect.status == Int(ok.filter(\.isNumber)))
        }
    }

    @Test func raceNumbers() throws {
        #expect(try Self.code(Self.racing(#"{"200":18446744073709551615}"#)) == "input_bad_value")
        #expect(try Self.code(Self.racing(#"{"200":18446744073709551616}"#)) == "input_bad_type")
        #expect(try Self.code(Self.racing(#"{"200":65}"#)) == "input_bad_value")
        #expect(try Self.code(Self.racing(#"{"200":64}"#)) == nil)
        for key in ["+200", "0200", "２００", "600", "099", "20", "2000", "18446744073709551615", "-200", " 200"] {
            #expect(try Self.code(Self.racing("{\"\(key)\":2}")) == "input_bad_value", "counts key \(key)")
        }
        #expect(try Self.code(Self.racing(#"{"200":2}"#, capture: #"{"x":18446744073709551615}"#)) == "input_bad_value")
        #expect(try Self.code(Self.racing(#"{"200":2}"#, capture: #"{"x":"two hundred"}"#)) == "input_bad_type")
        #expect(try Self.code(Self.racing(#"{"200":2}"#, capture: #"{"x":200}"#)) == nil)
    }

    @Test func timingNumbers() throws {
        #expect(try Self.code(Self.timing(status: "18446744073709551615")) == "input_bad_value")
        #expect(try Self.code(Self.timing(status: "401", samples: "18446744073709551615")) == "input_bad_value")
        #expect(try Self.code(Self.timing(status: "401", samples: "18446744073709551616")) == "input_bad_type")
        #expect(try Self.code(Self.timing(status: "401")) == nil)
    }

    @Test func hexPredicateLength() throws {
        let withHex = { (n: String) in #"{"steps":[{"name":"s","request":\#(Self.request),"expect":{"status":200,"json":{"hex":\#(n)}}}]}"# }
        #expect(try Self.code(withHex("18446744073709551615")) == "input_bad_value")
        #expect(try Self.code(withHex("18446744073709551616")) == "input_bad_type")
        #expect(try Self.code(withHex("64")) == nil)
    }

    @Test func scenarioExcludesNamesMustBeBound() throws {
        let base = #"{"values":{"t":"x"},"excludes":EX,"steps":[{"name":"s","request":\#(Self.request),"expect":{"status":200},"capture":{"c":"/token"}}]}"#
        #expect(try Self.code(base.replacingOccurrences(of: "EX", with: #"["${t}","${c}","plain"]"#)) == nil)
        #expect(try Self.code(base.replacingOccurrences(of: "EX", with: #"["${nobody}"]"#)) == "input_bad_value")
        #expect(try Self.code(base.replacingOccurrences(of: "EX", with: #"[""]"#)) == "input_bad_value")
        #expect(try Self.code(base.replacingOccurrences(of: "EX", with: #"[1]"#)) == "input_bad_type")
    }

    /// `serve` plays scenarios through the format handlers: the same inputs there are errors, not traps.
    @Test func handlersRefuseTheseInputs() throws {
        let input = try JSONValue.parse(Self.expecting("18446744073709551615"))
        for h in [PairingHandler() as any FormatHandler, RevocationHandler()] {
            #expect(throws: WireError.self) { try h.run(op: "scenario", input: input) }
            do { _ = try h.run(op: "scenario", input: input) } catch { #expect(error.code == .inputBadValue) }
        }
    }

    /// The generated negative vectors (one table for both formats) match what the reader does.
    @Test func inputFaultTableIsNotEmptyAndEachIsRefused() throws {
        let table = ScenarioBuilder.inputFaults(ScenarioBuilder.request("GET", "/hello"), status: 200)
        #expect(table.count >= 15)
        for (name, _, input, code) in table {
            #expect(throws: WireError.self, "\(name)") { try Scenario.parse(input.json) }
            do { _ = try Scenario.parse(input.json) } catch { #expect(error.code == code, "\(name)") }
        }
    }
}
