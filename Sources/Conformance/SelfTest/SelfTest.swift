import Foundation
import Vectors

/// `conformance selftest -- CMD` (SPEC.md §6.11): the runner protocol's rules checked against a
/// testee apart from any vector, each check on a fresh process, so protocol mistakes show up
/// first and separately.
public enum SelfTest {
    /// A format no testee implements: the checks that need an answer without running an op use it.
    static let unknownFormat = "selftest_unknown_format"
    static let unknownOp = "selftest_unknown_op"

    /// A case line with members in the runner's order (type, id, format, op, input); `input` and
    /// `extra` are JSON text written as they are.
    static func caseLine(_ id: String, format: String = unknownFormat, op: String = unknownOp, input: String = "{}", extra: String = "") -> String {
        let (idText, f, o) = (JSONValue.string(id).compact, JSONValue.string(format).compact, JSONValue.string(op).compact)
        return "{\"type\":\"case\",\"id\":\(idText),\"format\":\(f),\"op\":\(o),\(extra)\"input\":\(input)}"
    }

    /// A case line of exactly `length` bytes (the `\n` not counted), padded inside its input.
    static func paddedCaseLine(_ id: String, length: Int) -> [UInt8] {
        let head = Array(caseLine(id, input: "{\"pad\":\"").utf8.dropLast())  // drop the closing brace
        let tail = Array("\"}}".utf8)
        let pad = length - head.count - tail.count
        return head + [UInt8](repeating: UInt8(ascii: "a"), count: max(0, pad)) + tail
    }

    /// A case whose message nests `levels` deep (the message object is level 1, its input 2).
    static func nestedCaseLine(_ id: String, levels: Int) -> [UInt8] {
        let n = levels - 1
        let head = Array(caseLine(id, input: "").utf8.dropLast())
        return head + [UInt8](repeating: UInt8(ascii: "["), count: n) + [UInt8](repeating: UInt8(ascii: "]"), count: n) + [UInt8(ascii: "}")]
    }

    /// Every check, in the order they run. Ids and rules are stable; the coverage gate counts them.
    public static let checks: [SelfTestCheck] = [
        SelfTestCheck("hello", rules: ["R6.1-1", "R6.1-5", "R6.1-7", "R6.2-2", "R6.2-4"],
                      "a hello with an extra member, stdin left open, gets a valid hello choosing version 1 and naming at least one format") { p, ctx throws(SelfTestFailure) in
            try p.hello(offering: [1], extra: [("selftest_extra_member", .object([("ignore", .array([.int(1)]))]))])
            let h: TesteeHello
            do throws(SelfTestFailure) { h = try p.expectHello() } catch {
                // A hello that only comes once stdin closes sat in a buffer (R6.1-5).
                p.process.closeStdin()
                if let l = try? p.line(within: 2 * p.multiplier, waitingFor: "hello", "R6.1-5"), (try? TesteeHello.parse(l)) != nil {
                    throw SelfTestFailure("the hello arrived only after stdin was closed: stdout is buffered; flush after every line (R6.1-5)")
                }
                throw error
            }
            guard h.protocolVersion == 1 else { throw SelfTestFailure("the hello chose protocol_version \(h.protocolVersion); the runner offered [1] (R6.2-2)") }
            ctx.hello = h
            guard !h.capabilities.isEmpty else { throw SelfTestFailure("the hello advertises no format: a run would test nothing (R6.2-4)") }
            for (format, ops) in h.capabilities {
                if ops.isEmpty { throw SelfTestFailure("capabilities.\(format) lists no op (R6.2-4)") }
                var seen = Set<[UInt8]>()
                for op in ops where !seen.insert(Array(op.utf8)).inserted {
                    throw SelfTestFailure("capabilities.\(format) lists \(op) twice (R6.2-4)")
                }
            }
        },
        SelfTestCheck("quiet-before-hello", rules: ["R6.1-6"],
                      "nothing is written to stdout before the runner's hello is sent") { p, _ throws(SelfTestFailure) in
            try p.expectNothing(for: p.quiet, after: "starting, before any hello was sent", "R6.1-6")
            try p.hello(offering: [1])
            // A line written before the hello may still be in flight: the first line must be the hello.
            guard let l = try p.line(within: p.handshakeTimeout, waitingFor: "hello", "R6.2-4") else {
                throw SelfTestFailure("the testee \(p.exitNote()) without answering the hello (R6.2-4)")
            }
            guard (try? TesteeHello.parse(l)) != nil else {
                throw SelfTestFailure("the first line on stdout is not a hello: \(ProtocolViolation("", line: l).line); nothing may be written before the runner's hello (R6.1-6)")
            }
        },
        SelfTestCheck("version-choice", rules: ["R6.2-2"],
                      "a hello offering [99, 1] gets a hello choosing 1") { p, _ throws(SelfTestFailure) in
            try p.hello(offering: [99, 1])
            let h = try p.expectHello("R6.2-2")
            guard h.protocolVersion == 1 else {
                throw SelfTestFailure("offered [99, 1], the testee chose \(h.protocolVersion); it must choose an offered version it speaks (R6.2-2)")
            }
        },
        SelfTestCheck("version-refused", rules: ["R6.2-3"],
                      "a hello offering only [99] gets no hello, a line on stderr and a non-zero exit") { p, _ throws(SelfTestFailure) in
            try p.hello(offering: [99])
            try p.expectRefusal(after: "a hello offering only version 99", "R6.2-3") { "offered only [99], the testee answered \($0); it must write nothing and exit non-zero (R6.2-3)" }
        },
        SelfTestCheck("case-before-hello", rules: ["R6.2-1", "R6.1-6"],
                      "a case (offering protocol_versions [1] too) as the first line gets nothing on stdout, a line on stderr and a non-zero exit") { p, _ throws(SelfTestFailure) in
            // The offer too: a testee that looks only for protocol_versions, or compares the
            // type with hello by order ("case" sorts below it), would open the session (a
            // cosmic-ray survivor of pixie's runner, issue 25).
            try p.send(caseLine("selftest/case-before-hello", extra: "\"protocol_versions\":[1],"), "R6.2-1")
            try p.expectRefusal(after: "a case as the first line", "R6.2-1") { "a case sent before the hello was answered with \($0); nothing may be written before the hello (R6.2-1)" }
        },
        SelfTestCheck("garbage-before-hello", rules: ["R6.2-1"],
                      "a first line that is not JSON gets nothing on stdout, a line on stderr and a non-zero exit") { p, _ throws(SelfTestFailure) in
            try p.send("hello, testee", "R6.2-1")
            try p.expectRefusal(after: "a first line that is not JSON", "R6.2-1") { "a first line that is not JSON was answered with \($0) (R6.2-1)" }
        },
        // The runner's hello followed by spaces up to 16 MiB + 1 bytes: a testee that reads its
        // first line without the limit, or acts on the kept prefix, opens the session (a
        // cosmic-ray survivor of pixie's runner, issue 25).
        SelfTestCheck("hello-over-limit", rules: ["R6.2-1", "R6.1-4"],
                      "a hello padded with spaces to 16 MiB + 1 bytes gets nothing on stdout, a line on stderr and a non-zero exit") { p, _ throws(SelfTestFailure) in
            let hello = Array("{\"type\":\"hello\",\"protocol_versions\":[1]}".utf8)
            try p.sendBytes(hello + [UInt8](repeating: 0x20, count: RunnerProtocol.maxLineBytes + 1 - hello.count) + [0x0a], "R6.1-4")
            try p.expectRefusal(after: "a first line of 16 MiB + 1 bytes", "R6.2-1") { "a hello padded to 16 MiB + 1 bytes was answered with \($0); a line over 16 MiB is never acted on (R6.1-4, R6.2-1)" }
        },
        // A first line that offers a version but whose type only begins with "hello" (and sorts
        // above it): a testee that looks only for protocol_versions, or compares the type by
        // prefix or order, answers it (cosmic-ray survivors of pixie's runner, issue 25).
        SelfTestCheck("not-hello-first", rules: ["R6.2-1", "R6.1-6"],
                      "a first line {\"type\":\"hello2\",\"protocol_versions\":[1]} gets nothing on stdout, a line on stderr and a non-zero exit") { p, _ throws(SelfTestFailure) in
            try p.send("{\"type\":\"hello2\",\"protocol_versions\":[1]}", "R6.2-1")
            try p.expectRefusal(after: "a first line of type hello2", "R6.2-1") { "a first line of type hello2 offering protocol_versions [1] was answered with \($0); only a message of type hello opens the session (R6.2-1)" }
        },
        // R6.2-1's "array of integers", item by item: a reader that checks only that the array
        // holds the version it speaks, or takes true for an integer as Python's isinstance
        // does, opens the session (a cosmic-ray survivor of pixie's runner, issue 25).
        SelfTestCheck("versions-not-integers", rules: ["R6.2-1"],
                      "a hello offering [1, true] gets nothing on stdout, a line on stderr and a non-zero exit") { p, _ throws(SelfTestFailure) in
            try p.send("{\"type\":\"hello\",\"protocol_versions\":[1,true]}", "R6.2-1")
            try p.expectRefusal(after: "a hello offering [1, true]", "R6.2-1") { "a hello offering [1, true] was answered with \($0); protocol_versions must be an array of integers (R6.2-1)" }
        },
        SelfTestCheck("unknown-format", rules: ["R6.3-1", "R6.3-2", "R6.3-4", "R6.3-7"], twoFaults: true,
                      "a case of an unknown format and an unknown op is rejected with unknown_format, once") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send(caseLine("selftest/unknown-format"), "R6.3-1")
            try p.expectResult("selftest/unknown-format", .rejected("unknown_format"), "R6.3-7")
            try p.expectNothing(for: p.quiet, after: "the result (one result per case)", "R6.3-1")
        },
        SelfTestCheck("unknown-op", rules: ["R6.3-1", "R6.3-2", "R6.3-8"], needsFormat: true,
                      "a case of an advertised format with an unknown op is rejected with unknown_op") { p, ctx throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send(caseLine("selftest/unknown-op", format: ctx.format ?? "", op: unknownOp), "R6.3-1")
            try p.expectResult("selftest/unknown-op", .rejected("unknown_op"), "R6.3-8")
        },
        SelfTestCheck("diagnostic-id", rules: ["R6.3-3"],
                      "a case whose id holds '#' is answered under that id") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send(caseLine("selftest/diagnostic-id#leaf/0"), "R6.3-3")
            try p.expectResult("selftest/diagnostic-id#leaf/0", .rejected("unknown_format"), "R6.3-3")
        },
        SelfTestCheck("extra-members", rules: ["R6.1-7"],
                      "a case with a member the protocol does not define is answered as if it were absent") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send(caseLine("selftest/extra-members", extra: "\"selftest_extra\":{\"a\":[1,null,\"x\"]},"), "R6.1-7")
            try p.expectResult("selftest/extra-members", .rejected("unknown_format"), "R6.1-7")
        },
        SelfTestCheck("crlf", rules: ["R6.1-2"],
                      "a case line ending in \\r\\n is answered like any other") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.sendBytes(Array(caseLine("selftest/crlf").utf8) + [0x0d, 0x0a], "R6.1-2")
            try p.expectResult("selftest/crlf", .rejected("unknown_format"), "R6.1-2")
        },
        SelfTestCheck("unknown-type", rules: ["R6.1-8"],
                      "messages of three unknown types (shutdown_soon, beginning with shutdown, and cancel, sorting below case) are ignored without an answer; the next case is answered") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send("{\"type\":\"selftest_unknown_type\",\"id\":\"selftest/unknown-type#message\"}", "R6.1-8")
            // Sorts above "shutdown" and begins with it: a type compared by prefix or by order
            // ends the session here (a cosmic-ray survivor of pixie's runner, issue 25).
            try p.send("{\"type\":\"shutdown_soon\",\"id\":\"selftest/unknown-type#shutdown-soon\"}", "R6.1-8")
            // Sorts below "case": a type compared by order is taken for a case here.
            try p.send("{\"type\":\"cancel\",\"id\":\"selftest/unknown-type#cancel\"}", "R6.1-8")
            try p.send(caseLine("selftest/unknown-type"), "R6.1-8")
            try p.expectResult("selftest/unknown-type", .rejected("unknown_format"), "R6.1-8")
        },
        SelfTestCheck("second-hello", rules: ["R6.1-8"],
                      "a second hello after the handshake is ignored; the next case is answered") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.hello(offering: [1])
            try p.send(caseLine("selftest/second-hello"), "R6.1-8")
            try p.expectResult("selftest/second-hello", .rejected("unknown_format"), "R6.1-8")
        },
        // Beside a missing value, the texts a reader's off-by-one or loose comparison lets
        // through (cosmic-ray survivors of pixie's JSON reader, issue 25), derived from RFC 8259's
        // number grammar: after each part of a number (sign, digit, point, fraction digit, e,
        // exponent sign, exponent digit), the bytes just below and above 0-9 ('/' and ':'), and
        // the line cut right there past byte 256 (CPython caches the ints up to 256: a reader
        // that compares its position with the length by identity reads past the end); then a +
        // sign, an object cut after a comma, and a member name opened by a byte below '"'.
        SelfTestCheck("invalid-json", rules: ["R6.3-6", "R6.3-4"], twoFaults: true,
                      "case lines that are not JSON, their ids readable ({\"a\":,}; after each part of a number a '/', a ':', or the line's end; true, false and null with their last byte one off; escapes JSON lacks (\\e \\a \\v \\x41 \\' \\0), \\u12g4, \\u12 and a line cut after a backslash; NaN, Infinity, -Infinity; +1; an input cut after a comma; a name opened by !; a raw U+001F in a string; bytes or a second object after the message), are each rejected with input_bad_value") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send(caseLine("selftest/invalid-json", input: "{\"a\":,}"), "R6.3-6")
            try p.expectResult("selftest/invalid-json", .rejected("input_bad_value"), "R6.3-6")
            let pad = "{\"pad\":\"" + String(repeating: "x", count: 300) + "\",\"a\":"
            var probes: [(name: String, input: String, cut: Bool)] = []
            for (part, prefix) in [("minus", "-"), ("digit", "1"), ("point", "1."), ("fraction", "1.5"), ("e", "1e"), ("e-sign", "1e+"), ("exponent", "1e5")] {
                probes.append(("\(part)-slash", "{\"a\":\(prefix)/}", false))
                probes.append(("\(part)-colon", "{\"a\":\(prefix):}", false))
                probes.append(("cut-after-\(part)", pad + prefix, true))
            }
            // Each literal with its last byte one below and one above (a reader that compares
            // the word by order, not equality, takes one of them for it).
            for word in ["true", "false", "null"] {
                let last = word.unicodeScalars.last!.value
                for (side, byte) in [("below", last - 1), ("above", last + 1)] {
                    let near = String(word.dropLast()) + String(Unicode.Scalar(UInt8(byte)))
                    probes.append(("\(word)-\(side)", "{\"a\":\(near)}", false))
                }
            }
            // Escapes other languages have and JSON does not (a reader that takes \e for \f
            // was a survivor too).
            for (name, escape) in [("e", "\\e"), ("a", "\\a"), ("v", "\\v"), ("x41", "\\x41"), ("quote", "\\'"), ("digit", "\\0")] {
                probes.append(("escape-\(name)", "{\"a\":\"\(escape)\"}", false))
            }
            // A \u escape with a non-hex digit, one with two digits before the quote, and a line
            // cut right after a backslash past byte 256.
            probes += [("escape-u-not-hex", "{\"a\":\"\\u12g4\"}", false), ("escape-u-short", "{\"a\":\"\\u12\"}", false),
                       ("cut-after-backslash", pad + "\"x\\", true)]
            // NaN and the infinities, which stock readers (Python's json among them) accept by
            // default; U+001F unescaped, the last control character a string may not hold as itself.
            probes += [("nan", "{\"a\":NaN}", false), ("infinity", "{\"a\":Infinity}", false), ("minus-infinity", "{\"a\":-Infinity}", false),
                       ("plus-sign", "{\"a\":+1}", false), ("cut-after-comma", "{\"a\":1,", true), ("name-opened-by-bang", "{!b\":1}", false),
                       ("raw-control-1f", "{\"a\":\"x\u{1f}y\"}", false)]
            for probe in probes {
                let id = "selftest/invalid-json/" + probe.name
                // A cut input leaves the line cut too: it ends where the input does.
                let line = caseLine(id, input: probe.input)
                try p.send(probe.cut ? String(line.dropLast()) : line, "R6.3-6")
                try p.expectResult(id, .rejected("input_bad_value"), "R6.3-6")
            }
            // Bytes after the message: a reader that decodes the first value of a stream (Go's
            // json.Decoder, Python's raw_decode) and leaves the rest takes the line as the case.
            for (name, suffix) in [("bytes-after", " x"), ("second-object", "{}")] {
                let id = "selftest/invalid-json/" + name
                try p.send(caseLine(id) + suffix, "R6.3-6")
                try p.expectResult(id, .rejected("input_bad_value"), "R6.3-6")
            }
        },
        SelfTestCheck("invalid-utf8", rules: ["R6.3-6", "R6.3-4"], twoFaults: true,
                      "a case line holding the byte 0xff is rejected with input_bad_value") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            let line = Array(caseLine("selftest/invalid-utf8", input: "{\"text\":\"a\u{1}b\"}").utf8).map { $0 == 0x01 ? 0xff : $0 }
            try p.sendBytes(line + [0x0a], "R6.3-6")
            try p.expectResult("selftest/invalid-utf8", .rejected("input_bad_value"), "R6.3-6")
        },
        SelfTestCheck("unpaired-surrogate", rules: ["R6.3-6", "R6.3-4"], twoFaults: true,
                      "case lines holding \"\\ud800x\", \"\\udc00\", \"\\ud800\\\\dc00\", \"\\ud800xxdc00\" and \"\\ud83d\\u0041\" are each rejected with input_bad_value") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            // The third is a high surrogate, an escaped backslash, then "dc00": a reader that
            // looks for a backslash after the high half, not for `\u`, reads a pair there (a
            // cosmic-ray survivor of pixie's JSON reader, issue 25).
            // The fourth has two bytes above "\u" where the low half's escape belongs (a reader
            // that compares them by order with "\u" takes either for it).
            let probes = [("high", "\\ud800x"), ("low", "\\udc00"), ("high-then-backslash", "\\ud800\\\\dc00"),
                          ("high-then-letters", "\\ud800xxdc00"), ("high-then-not-low", "\\ud83d\\u0041")]
            for (name, text) in probes {
                let id = "selftest/unpaired-surrogate/" + name
                try p.send(caseLine(id, input: "{\"text\":\"\(text)\"}"), "R6.3-6")
                try p.expectResult(id, .rejected("input_bad_value"), "R6.3-6")
            }
        },
        // RFC 8259 in full (§6.1 item 1): each line's id is written with escapes and must be
        // answered under the string they spell. A surrogate pair whose high half is \ud840 or
        // above (U+20000 and up) tells a reader that joins the halves with | or ^ from one that
        // adds them; below it (U+1F600) the two agree (a cosmic-ray survivor of pixie's JSON
        // reader, issue 25).
        SelfTestCheck("json-escapes", rules: ["R6.1-1", "R6.3-2"],
                      "case lines whose ids are written with \\/, \\u escapes in either case, surrogate pairs (U+10000, U+1F600, U+20000, U+10FFFF), \\\" \\\\ and \\b \\f \\n \\r \\t are answered under the ids those escapes spell") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            let probes: [(text: String, id: String)] = [
                ("selftest\\/json-escapes\\/solidus", "selftest/json-escapes/solidus"),
                ("selftest/json-escapes/\\u0041\\u00e9\\u00C9", "selftest/json-escapes/A\u{e9}\u{c9}"),
                ("selftest/json-escapes/\\ud800\\udc00", "selftest/json-escapes/\u{10000}"),
                ("selftest/json-escapes/\\ud83d\\ude00", "selftest/json-escapes/\u{1f600}"),
                ("selftest/json-escapes/\\ud840\\udc00", "selftest/json-escapes/\u{20000}"),
                ("selftest/json-escapes/\\uDBFF\\uDFFF", "selftest/json-escapes/\u{10ffff}"),
                ("selftest/json-escapes/q\\\"b\\\\", "selftest/json-escapes/q\"b\\"),
                ("selftest/json-escapes/\\b\\f\\n\\r\\t", "selftest/json-escapes/\u{8}\u{c}\n\r\t"),
            ]
            for probe in probes {
                try p.send("{\"type\":\"case\",\"id\":\"\(probe.text)\",\"format\":\"\(unknownFormat)\",\"op\":\"\(unknownOp)\",\"input\":{}}", "R6.1-1")
                try p.expectResult(probe.id, .rejected("unknown_format"), "R6.1-1: the id is the string its escapes spell")
            }
        },
        // Every RFC 8259 number form, decoded (a reader that skips the exponent's sign without
        // reading past it refuses 1e+5: a cosmic-ray survivor of pixie's JSON reader, issue 25).
        SelfTestCheck("json-numbers", rules: ["R6.1-1", "R6.3-6"],
                      "a case whose input holds 1e+5, 1E-5, -0.5e10, 0, -0, 1.25, 10 and 2e0 is decoded (rejected with unknown_format, not input_bad_value)") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send(caseLine("selftest/json-numbers", input: "{\"n\":[1e+5,1E-5,-0.5e10,0,-0,1.25,10,2e0]}"), "R6.1-1")
            try p.expectResult("selftest/json-numbers", .rejected("unknown_format"), "R6.1-1: every RFC 8259 number decodes")
        },
        SelfTestCheck("nesting-64", rules: ["R6.3-6"],
                      "a case nested 64 levels deep is decoded (rejected with unknown_format, not input_bad_value)") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.sendBytes(nestedCaseLine("selftest/nesting-64", levels: 64) + [0x0a], "R6.3-6")
            try p.expectResult("selftest/nesting-64", .rejected("unknown_format"), "R6.3-6: every testee decodes 64 levels")
        },
        // One level past R6.3-6's bound: a limit compared with <= 10,001, or set one too high,
        // decodes it (a cosmic-ray survivor of pixie's runner, issue 25).
        SelfTestCheck("nesting-10001", rules: ["R6.3-6"],
                      "a case nested 10,001 levels deep, one past the bound, is rejected with input_bad_value") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.sendBytes(nestedCaseLine("selftest/nesting-10001", levels: 10_001) + [0x0a], "R6.3-6")
            try p.expectResult("selftest/nesting-10001", .rejected("input_bad_value"), "R6.3-6: nesting deeper than 10,000 levels does not decode")
        },
        SelfTestCheck("nesting-deep", rules: ["R6.3-6", "R6.3-4"], twoFaults: true,
                      "a case nested 100,000 levels deep is rejected with input_bad_value") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.sendBytes(nestedCaseLine("selftest/nesting-deep", levels: 100_000) + [0x0a], "R6.3-6")
            try p.expectResult("selftest/nesting-deep", .rejected("input_bad_value"), "R6.3-6")
        },
        SelfTestCheck("line-at-limit", rules: ["R6.1-3"],
                      "a case line of exactly 16 MiB is read and answered") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.sendBytes(paddedCaseLine("selftest/line-at-limit", length: RunnerProtocol.maxLineBytes) + [0x0a], "R6.1-3")
            try p.expectResult("selftest/line-at-limit", .rejected("unknown_format"), "R6.1-3")
        },
        SelfTestCheck("line-over-limit", rules: ["R6.1-4", "R6.3-5", "R6.3-4"], twoFaults: true,
                      "a case line of 16 MiB + 1 byte is rejected with input_bad_length; the next case is answered") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.sendBytes(paddedCaseLine("selftest/line-over-limit", length: RunnerProtocol.maxLineBytes + 1) + [0x0a], "R6.1-4")
            try p.expectResult("selftest/line-over-limit", .rejected("input_bad_length"), "R6.3-5")
            try p.send(caseLine("selftest/line-over-limit/next"), "R6.1-4")
            try p.expectResult("selftest/line-over-limit/next", .rejected("unknown_format"), "R6.1-4")
        },
        // The bytes past the limit are 2 MiB of spaces and a whole case message: a reader that
        // stops at 16 MiB + 1, or reads on for a chunk or two and takes the rest as the next
        // line, answers it, since JSON allows the spaces before it wherever the cut falls
        // (cosmic-ray survivors of pixie's runner, issue 25; the +1 line above leaves only its
        // \n behind, which shows nothing).
        SelfTestCheck("line-over-limit-tail", rules: ["R6.1-4", "R6.3-5"],
                      "a case line of 16 MiB + 1 byte that goes on with 2 MiB of spaces and a whole case message before its \\n is rejected with input_bad_length; the message inside it gets no answer; the next case is answered") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            let inside = [UInt8](repeating: 0x20, count: 2 << 20) + Array(caseLine("selftest/line-over-limit-tail/inside").utf8)
            try p.sendBytes(paddedCaseLine("selftest/line-over-limit-tail", length: RunnerProtocol.maxLineBytes + 1) + inside + [0x0a], "R6.1-4")
            try p.expectResult("selftest/line-over-limit-tail", .rejected("input_bad_length"), "R6.3-5")
            try p.send(caseLine("selftest/line-over-limit-tail/next"), "R6.1-4")
            try p.expectResult("selftest/line-over-limit-tail/next", .rejected("unknown_format"), "R6.1-4: nothing past the limit is acted on")
        },
        SelfTestCheck("crlf-at-limit", rules: ["R6.1-3", "R6.1-2"],
                      "a case line of 16 MiB − 1 byte then \\r\\n is within the limit (the \\r counts)") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.sendBytes(paddedCaseLine("selftest/crlf-at-limit", length: RunnerProtocol.maxLineBytes - 1) + [0x0d, 0x0a], "R6.1-3")
            try p.expectResult("selftest/crlf-at-limit", .rejected("unknown_format"), "R6.1-3")
        },
        SelfTestCheck("crlf-over-limit", rules: ["R6.1-3", "R6.1-4", "R6.3-5"],
                      "a case line of 16 MiB then \\r\\n is one byte over: input_bad_length; the next case is answered") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.sendBytes(paddedCaseLine("selftest/crlf-over-limit", length: RunnerProtocol.maxLineBytes) + [0x0d, 0x0a], "R6.1-3")
            try p.expectResult("selftest/crlf-over-limit", .rejected("input_bad_length"), "R6.1-3: the \\r before the \\n counts toward 16 MiB")
            try p.send(caseLine("selftest/crlf-over-limit/next"), "R6.1-4")
            try p.expectResult("selftest/crlf-over-limit/next", .rejected("unknown_format"), "R6.1-4")
        },
        SelfTestCheck("no-id", rules: ["R6.3-9"],
                      "an undecodable line with no readable id (none at all; 300 bytes cut right after \"id\":; 300 spaces) gets no answer; the next case is answered") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send("{\"type\":\"case\",\"format\":\"\(unknownFormat)\",\"input\":{\"a\":,}}", "R6.3-9")
            // The id's value would start at the line's end, past the small integers a runtime
            // caches (256 in CPython): a scanner that compares its position with the length by
            // identity reads past the end there (a cosmic-ray survivor of pixie's runner, issue 25).
            let cut = "{\"type\":\"case\",\"format\":\"\(unknownFormat)\",\"pad\":\"\(String(repeating: "x", count: 240))\",\"id\":"
            try p.send(cut, "R6.3-9")
            // Spaces only, past the cached small ints: a scanner that compares its position with
            // the length by identity indexes past the end (a cosmic-ray survivor, issue 25).
            try p.send(String(repeating: " ", count: 300), "R6.3-9")
            try p.send(caseLine("selftest/no-id"), "R6.3-9")
            try p.expectResult("selftest/no-id", .rejected("unknown_format"), "R6.3-9")
        },
        // R6.3-9's scan, line by line: an id after nested values, brackets and escapes inside
        // strings, scalars and spaces is read; an id that is nested, not a string, or in a line
        // that is not an object is not, and neither is anything past the line's end (each a
        // cosmic-ray survivor of pixie's scanner, issue 25).
        SelfTestCheck("id-salvage", rules: ["R6.3-9"],
                      "undecodable lines whose top-level id is found past nested values, strings with brackets and escapes, scalars, an empty string, a string opening with an escape and spaces (between a scalar and its comma too) are rejected under it; a nested id, a number id, an id string with an escape JSON lacks, an id followed by a comma or = instead of a colon, a line that is not an object, a member followed by no comma, by a ; or by a byte after its closing bracket or closing quote, a name opened by a byte other than a quote, a line cut inside a name, a string (right after a backslash too) or a nested value, or right after a value or a comma, get no answer") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            let bad = ",\"input\":{\"a\":,}}"
            let probes: [(line: String, id: String?)] = [
                ("{\"type\":\"case\",\"a\":{\"b\":[1,{\"c\":\"}]\"}],\"d\":\"][\"},\"id\":\"selftest/id-salvage/after-nested\"" + bad, "selftest/id-salvage/after-nested"),
                ("{\"type\":\"case\",\"s\":\"a\\\"b\\\\\",\"id\":\"selftest/id-salvage/after-escapes\"" + bad, "selftest/id-salvage/after-escapes"),
                // An empty string and one that opens with an escape: a scanner that steps two
                // bytes past the opening quote ends both in the wrong place.
                ("{\"type\":\"case\",\"e\":\"\",\"s\":\"\\\"x\",\"id\":\"selftest/id-salvage/after-empty-and-escape-first\"" + bad,
                 "selftest/id-salvage/after-empty-and-escape-first"),
                ("{\"n\":-1.5e3,\"p\":1e+3,\"t\":true,\"z\":null,\"e\":[],\"o\":{},\"id\":\"selftest/id-salvage/after-scalars\"" + bad, "selftest/id-salvage/after-scalars"),
                ("{ \"type\" :\t\"case\" , \"id\" : \"selftest/id-salvage/spaces\" " + bad, "selftest/id-salvage/spaces"),
                ("{\"type\":\"case\",\"id\":\"selftest\\/id-salvage\\u002fescaped\"" + bad, "selftest/id-salvage/escaped"),
                ("[\"id\":\"selftest/id-salvage/array\"" + bad, nil),
                ("~\"id\":\"selftest/id-salvage/not-object\"" + bad, nil),
                ("{\"type\":\"case\",\"input\":{\"id\":\"selftest/id-salvage/nested\"},\"x\":,}", nil),
                ("{\"type\":\"case\",\"id\":7" + bad, nil),
                ("{\"type\":\"case\",\"id\":\"selftest/id-salvage/bad-escape\\q\"" + bad, nil),
                ("{\"type\":\"case\",\"id\",\"selftest/id-salvage/no-colon\"" + bad, nil),
                ("{\"type\":\"case\",\"id\"=\"selftest/id-salvage/equals\"" + bad, nil),
                ("{\"type\":\"case\",\"pad\":\"" + String(repeating: "x", count: 300) + "\",\"id\"", nil),
                ("{\"type\":\"case\",\"pad\":\"" + String(repeating: "x", count: 300), nil),
                ("{\"type\":\"case\",\"pad\":\"" + String(repeating: "x", count: 300) + "\"", nil),
                ("{\"type\":\"case\",\"pad\":\"" + String(repeating: "x", count: 300) + "\\", nil),
                ("{\"type\":\"case\",\"pad\":\"" + String(repeating: "x", count: 300) + "\",", nil),
                ("{\"type\":\"case\",\"pad\":[\"" + String(repeating: "x", count: 300) + "\",[1,2", nil),
                ("{\"type\":\"case\",\"a\":\"v\"!\"id\":\"selftest/id-salvage/after-bang\"" + bad, nil),
                ("{\"type\":\"case\",\"a\":1}{,\"id\":\"selftest/id-salvage/after-close\"" + bad, nil),
                ("{\"type\":\"case\",\"a\":[1]x,\"id\":\"selftest/id-salvage/after-bracket-junk\"" + bad, nil),
                // A byte either side of the quote where a name must open, a byte past the comma
                // where a member must end, and a stray byte after a string value before its comma.
                ("{\"type\":\"case\",!a\":1,\"id\":\"selftest/id-salvage/name-after-bang\"" + bad, nil),
                ("{\"type\":\"case\",x\":1,\"id\":\"selftest/id-salvage/name-unquoted\"" + bad, nil),
                ("{\"type\":\"case\",\"a\":\"v\";\"id\":\"selftest/id-salvage/after-semicolon\"" + bad, nil),
                ("{\"type\":\"case\",\"a\":\"v\"x,\"id\":\"selftest/id-salvage/string-then-junk\"" + bad, nil),
                // A space between a scalar and its comma is JSON's: the id after it is read.
                ("{\"type\":\"case\",\"t\":true ,\"id\":\"selftest/id-salvage/scalar-then-space\"" + bad, "selftest/id-salvage/scalar-then-space"),
                ("{\"type\":\"case\",\"s\":\"a b!#\",\"id\":\"selftest/id-salvage/space-in-string\"" + bad, "selftest/id-salvage/space-in-string"),
            ]
            for probe in probes {
                try p.send(probe.line, "R6.3-9")
                if let id = probe.id { try p.expectResult(id, .rejected("input_bad_value"), "R6.3-9") }
            }
            try p.send(caseLine("selftest/id-salvage"), "R6.3-9")
            try p.expectResult("selftest/id-salvage", .rejected("unknown_format"), "R6.3-9: the lines with no readable id get no answer")
        },
        SelfTestCheck("shutdown", rules: ["R6.4-1"],
                      "shutdown after a case: nothing more on stdout, exit 0 within 2 s") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send(caseLine("selftest/shutdown"), "R6.4-1")
            try p.expectResult("selftest/shutdown", .anyResult, "R6.3-1")
            try p.send(RunnerProtocol.shutdown.compact, "R6.4-1")
            try p.expectExit(zero: true, within: p.exitGrace, after: "shutdown", "R6.4-1")
        },
        SelfTestCheck("eof", rules: ["R6.4-2"],
                      "EOF on stdin after a case: nothing more on stdout, exit 0 within 2 s") { p, _ throws(SelfTestFailure) in
            _ = try p.handshake()
            try p.send(caseLine("selftest/eof"), "R6.4-2")
            try p.expectResult("selftest/eof", .anyResult, "R6.3-1")
            p.process.closeStdin()
            try p.expectExit(zero: true, within: p.exitGrace, after: "EOF on stdin", "R6.4-2")
        },
    ]

    /// Runs every check (or those `only` names, and `selftest/hello`, whose hello the others
    /// need) against `command`. Throws when the testee cannot be started at all.
    public static func run(command: [String], timeoutMultiplier: Double = 1, scope: SuiteScope? = nil,
                           only: [String] = [], progress: (@Sendable (SelfTestResult.Entry) -> Void)? = nil) throws(SpawnError) -> SelfTestResult {
        var result = SelfTestResult(entries: [], hello: nil, unknownCapabilities: [])
        let ctx = SelfTestContext()
        for check in checks where only.isEmpty || only.contains(check.id) || check.id == "selftest/hello" {
            let start = DispatchTime.now().uptimeNanoseconds
            var failure: SelfTestFailure?
            if check.needsFormat && ctx.format == nil {
                failure = SelfTestFailure("cannot check: no format advertised by a valid hello (see selftest/hello)")
            } else {
                let probe = try SelfTestProbe(command: command, multiplier: timeoutMultiplier)
                do { try check.body(probe, ctx) } catch { failure = error }
                probe.close()
            }
            if check.id == "selftest/hello", let h = ctx.hello {
                result.hello = h
                if let scope { result.unknownCapabilities = scope.unknownCapabilities(h) }
            }
            let entry = SelfTestResult.Entry(check: check, failure: failure, nanos: DispatchTime.now().uptimeNanoseconds - start)
            result.entries.append(entry)
            progress?(entry)
        }
        return result
    }
}

/// The outcome of `conformance selftest`.
public struct SelfTestResult: Sendable {
    public struct Entry: Sendable {
        public let check: SelfTestCheck
        public let failure: SelfTestFailure?
        public let nanos: UInt64
        public var passed: Bool { failure == nil }

        /// `PASS selftest/hello [R6.1-1, …]` or `FAIL selftest/x [rules]: what was seen`.
        public var line: String {
            let head = "\(passed ? "PASS" : "FAIL") \(check.id) [\(check.rules.joined(separator: ", "))] (\(Report.seconds(Double(nanos) / 1e9)))"
            return failure.map { "\(head)\n    \($0.message)" } ?? head
        }
    }

    public var entries: [Entry]
    public var hello: TesteeHello?
    public var unknownCapabilities: [String]

    public var passed: Int { entries.filter(\.passed).count }
    public var failed: Int { entries.count - passed }
    public var summaryLine: String { "\(passed) passed, \(failed) failed" }
    public var exitCode: Int32 { failed == 0 && !entries.isEmpty ? 0 : 1 }
}
