import Conformance
import Foundation
import Testing
import Vectors

/// `conformance selftest` (SPEC.md §6.11): the shipped testees pass every check; a testee with one
/// protocol mistake fails exactly the check meant for it, with a sentence naming the rule.
@Suite(.serialized) struct SelfTestTests {
    /// A small correct testee (format `toy`, op `echo`) with one mistake switched on by its mode.
    static let protoTestee = #"""
    import json, os, re, sys, time
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    MAX = 16 * 1024 * 1024
    SUR = re.compile("[\ud800-\udfff]")
    # A block-buffered stdout, as C stdio gives a pipe (PYTHONUNBUFFERED does not reach it).
    out = open(1, "wb", buffering=1 << 16, closefd=False) if mode == "buffered" else sys.stdout.buffer
    def send(m):
        out.write((json.dumps(m) + "\n").encode())
        if mode != "buffered": out.flush()
    STR = re.compile(rb'"(?:[^"\\]|\\.)*"')
    def salvage(b):
        # R6.3-9: the top-level members scanned, values skipped (brackets counted outside
        # strings); mode salvage-anywhere takes the first "id" member at any depth instead.
        if mode == "salvage-anywhere":
            m = re.search(rb'"id"\s*:\s*("(?:[^"\\]|\\.)*")', b)
            return json.loads(m.group(1)) if m else None
        i, n = 0, len(b)
        def ws(i):
            while i < n and b[i] in b" \t\r\n": i += 1
            return i
        i = ws(i)
        if i >= n or b[i] != 0x7B: return None
        i += 1
        while True:
            i = ws(i)
            m = STR.match(b, i)
            if not m: return None
            name, i = m.group(0), ws(m.end())
            if i >= n or b[i] != 0x3A: return None
            i = ws(i + 1)
            if name == b'"id"':
                m = STR.match(b, i)
                try:
                    v = json.loads(m.group(0)) if m else None
                except ValueError:
                    return None
                return v if isinstance(v, str) and not SUR.search(v) else None
            depth = 0
            while i < n:
                c = b[i]
                if c == 0x22:
                    m = STR.match(b, i)
                    if not m: return None
                    i = m.end()
                    if depth == 0: break
                    continue
                if c in b"[{": depth += 1
                elif c in b"]}":
                    if depth == 0: break
                    depth -= 1
                    if depth == 0: i += 1; break
                elif c == 0x2C and depth == 0: break
                i += 1
            i = ws(i)
            if i < n and b[i] == 0x2C: i += 1; continue
            return None
    def no_constant(name):
        raise ValueError(name + " is not JSON")
    def decode(b):
        if b.endswith(b"\r"):
            if mode == "crlf-strict": raise ValueError("a carriage return")
            b = b[:-1]
        # mode nesting-10001: a reader whose bound is one level too deep (10,001), shown by
        # decoding what only CPython's own recursion limit would refuse.
        if mode == "nesting-10001" and 990 < b.count(b"[") <= 10_000: b = re.sub(rb"\[{2,}\]{2,}", b"[]", b)
        # mode pairs-bmp: a reader that turns every escaped surrogate pair into U+FFFD.
        if mode == "pairs-bmp": b = re.sub(rb'\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}', rb'\\ufffd', b)
        # NaN and the infinities are not JSON; mode nan reads them as Python's json does by default.
        m = json.loads(b.decode("utf-8"), **({} if mode == "nan" else {"parse_constant": no_constant}))
        if mode != "lenient-surrogate" and SUR.search(json.dumps(m, ensure_ascii=False)): raise ValueError("surrogate")
        return m
    def reject(cid, code):
        send({"type": "result", "id": cid, "status": "rejected", "error": code})
    if mode == "chatty":
        send({"type": "log", "text": "starting"})
    stdin = sys.stdin.buffer
    # mode hello-no-limit: the first line is read whole, whatever its length.
    first = stdin.readline() if mode == "hello-no-limit" else stdin.readline(MAX + 1)
    if len(first) > MAX and not first.endswith(b"\n"):
        sys.stderr.write("the first line is longer than 16 MiB\n"); sys.exit(2)
    try:
        hello = decode(first.rstrip(b"\n"))
    except (ValueError, RecursionError):
        hello = None
    if mode == "answers-before-hello" and isinstance(hello, dict) and hello.get("type") == "case":
        reject(hello["id"], "unknown_format"); hello = {"type": "hello", "protocol_versions": [1]}
    # mode versions-any-type: any first object that offers protocol_versions opens the session.
    if mode == "versions-any-type" and isinstance(hello, dict) and "protocol_versions" in hello: hello["type"] = "hello"
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        sys.stderr.write("not a hello\n"); sys.exit(2)
    offered = hello.get("protocol_versions")
    # mode versions-loose: any array holding 1 will do (true, a string beside it).
    if not isinstance(offered, list) or (mode != "versions-loose" and not all(type(v) is int for v in offered)):
        sys.stderr.write("protocol_versions is not an array of integers\n"); sys.exit(2)
    if 1 not in offered and mode != "always-v1":
        sys.stderr.write("offered %s, I speak 1\n" % offered); sys.exit(2)
    caps = {"toy": ["echo", "echo"] if mode == "duplicate-op" else ["echo"]}
    send({"type": "hello", "protocol_version": 1, "name": "proto", "version": "1", "language": "python", "capabilities": caps})
    while True:
        line = stdin.readline(MAX + 1 + (10 if mode == "no-limit" else 1 if mode == "crlf-uncounted" else 0))
        if mode == "crlf-uncounted" and line.endswith(b"\r\n"): line = line[:-2] + b"\n"
        if not line: sys.exit(3 if mode == "exit-nonzero-on-eof" else 0)
        if not line.endswith(b"\n") and len(line) > MAX and mode != "no-limit":
            # mode tail-as-line: what follows the first 16 MiB + 1 bytes is read as the next line.
            while mode != "tail-as-line":
                rest = stdin.readline(1 << 20)
                if not rest or rest.endswith(b"\n"): break
            cid = salvage(line[:4096])
            if cid is not None: reject(cid, "input_bad_length")
            continue
        raw = line.rstrip(b"\n")
        try:
            msg = decode(raw)
            if mode == "extra-strict" and set(msg) - {"type", "id", "format", "op", "input"}: raise ValueError("extra")
        except (ValueError, RecursionError):
            if mode == "silent-undecodable": continue
            cid = salvage(raw)
            if cid is not None: reject(cid, "input_bad_value")
            elif mode == "id-null": reject(None, "input_bad_value")
            continue
        t = msg.get("type")
        # mode shutdown-prefix: any type beginning with shutdown ends the session.
        if t == "shutdown" or (mode == "shutdown-prefix" and str(t).startswith("shutdown")):
            if mode == "linger": time.sleep(30)
            sys.exit(0)
        if t != "case":
            if mode == "answers-unknown-type": reject(msg.get("id"), "unknown_op")
            continue
        cid = msg["id"]
        if mode == "diagnostic-strip" and "#" in cid: cid = cid.split("#")[0]
        if msg.get("format") != "toy":
            if mode == "unsupported-unknown": send({"type": "result", "id": cid, "status": "unsupported"})
            else: reject(cid, "unknown_format")
        elif msg.get("op") != "echo":
            if mode == "unsupported-unknown": send({"type": "result", "id": cid, "status": "unsupported"})
            else: reject(cid, "unknown_op")
        else:
            send({"type": "result", "id": cid, "status": "ok", "output": msg.get("input")})
        if mode == "double-answer": reject(cid, "unknown_format")
    """#

    static func command(_ mode: String) throws -> [String] {
        let dir = try Fixtures.makeDirectory()
        let url = dir.appendingPathComponent("proto.py")
        try Data(protoTestee.utf8).write(to: url)
        return ["python3", url.path, mode]
    }

    /// Fast waits for misbehaving testees (a 30 s hello wait becomes 6 s).
    static let multiplier = 0.2

    @Test func referenceServePassesEveryCheck() throws {
        let r = try SelfTest.run(command: Fixtures.serve)
        #expect(r.entries.map(\.check.id) == SelfTest.checks.map(\.id))
        #expect(r.entries.filter { !$0.passed }.map(\.line) == [])
        #expect(r.summaryLine == "\(SelfTest.checks.count) passed, 0 failed")
        #expect(r.exitCode == 0)
        #expect(r.hello?.name == "pixie-reference")
    }

    @Test func pythonExampleTesteePassesEveryCheck() throws {
        let r = try SelfTest.run(command: ["python3", Fixtures.pythonTestee])
        #expect(r.entries.filter { !$0.passed }.map(\.line) == [])
        #expect(r.exitCode == 0)
        #expect(r.hello?.language == "python")
    }

    @Test func correctToyTesteePassesAndNamesNoUnknownCapability() throws {
        let r = try SelfTest.run(command: try Self.command("good"), timeoutMultiplier: 1, scope: SuiteScope(suite: try Fixtures.toySuite()))
        #expect(r.entries.filter { !$0.passed }.map(\.line) == [])
        #expect(r.unknownCapabilities == [])
    }

    /// mode → (the check that must fail, a phrase its sentence must hold). Every other check of
    /// the run passes.
    static let mistakes: [(mode: String, check: String, phrase: String)] = [
        ("chatty", "selftest/quiet-before-hello", "(R6.1-6)"),  // seen in the quiet wait or as the first line, by timing
        ("buffered", "selftest/hello", "stdout is buffered; flush after every line (R6.1-5)"),
        ("duplicate-op", "selftest/hello", "capabilities.toy lists echo twice (R6.2-4)"),
        ("always-v1", "selftest/version-refused", "offered only [99], the testee answered"),
        ("answers-before-hello", "selftest/case-before-hello", "a case sent before the hello was answered"),
        ("unsupported-unknown", "selftest/unknown-format", "expected rejected with unknown_format for selftest/unknown-format, got unsupported (R6.3-7)"),
        ("unsupported-unknown", "selftest/unknown-op", "expected rejected with unknown_op for selftest/unknown-op, got unsupported (R6.3-8)"),
        ("double-answer", "selftest/unknown-format", "after the result (one result per case); it must write nothing (R6.3-1)"),
        ("diagnostic-strip", "selftest/diagnostic-id", #"answers id "selftest/diagnostic-id" but the case in flight is "selftest/diagnostic-id#leaf/0""#),
        ("extra-strict", "selftest/extra-members", "expected rejected with unknown_format for selftest/extra-members, got rejected with input_bad_value (R6.1-7)"),
        ("crlf-strict", "selftest/crlf", "got rejected with input_bad_value (R6.1-2)"),
        ("answers-unknown-type", "selftest/unknown-type", #"answers id "selftest/unknown-type#message""#),
        ("silent-undecodable", "selftest/invalid-json", "no result for selftest/invalid-json within"),
        ("silent-undecodable", "selftest/invalid-utf8", "no result for selftest/invalid-utf8 within"),
        ("lenient-surrogate", "selftest/unpaired-surrogate", "expected rejected with input_bad_value for selftest/unpaired-surrogate/high, got rejected with unknown_format (R6.3-6)"),
        ("versions-any-type", "selftest/not-hello-first", "a first line of type hello2 offering protocol_versions [1] was answered with"),
        ("hello-no-limit", "selftest/hello-over-limit", "a hello padded to 16 MiB + 1 bytes was answered with"),
        ("versions-loose", "selftest/versions-not-integers", "a hello offering [1, true] was answered with"),
        ("shutdown-prefix", "selftest/unknown-type", "instead of answering selftest/unknown-type (R6.1-8)"),
        ("nesting-10001", "selftest/nesting-10001", "expected rejected with input_bad_value for selftest/nesting-10001, got rejected with unknown_format (R6.3-6"),
        ("tail-as-line", "selftest/line-over-limit-tail", #"answers id "selftest/line-over-limit-tail/inside""#),
        ("no-limit", "selftest/line-over-limit", "expected rejected with input_bad_length for selftest/line-over-limit, got rejected with unknown_format (R6.3-5)"),
        ("crlf-uncounted", "selftest/crlf-over-limit", "expected rejected with input_bad_length for selftest/crlf-over-limit, got rejected with unknown_format"),
        ("id-null", "selftest/no-id", #"no string member "id""#),
        ("salvage-anywhere", "selftest/id-salvage", #"answers id "selftest/id-salvage/array""#),
        ("nan", "selftest/invalid-json", "expected rejected with input_bad_value for selftest/invalid-json/nan, got rejected with unknown_format (R6.3-6)"),
        ("pairs-bmp", "selftest/json-escapes", "answers id \"selftest/json-escapes/\u{fffd}\" but the case in flight is \"selftest/json-escapes/\u{10000}\""),
        ("linger", "selftest/shutdown", "still running 400 ms after shutdown (R6.4-1)"),
        ("exit-nonzero-on-eof", "selftest/eof", "exited with status 3 after EOF on stdin; expected status 0 (R6.4-2)"),
    ]

    @Test(arguments: mistakes.indices)
    func eachProtocolMistakeFailsItsCheck(_ i: Int) throws {
        let m = Self.mistakes[i]
        let multiplier = m.check.hasPrefix("selftest/line-") || m.check.hasPrefix("selftest/crlf-") || m.check.hasSuffix("-over-limit") ? 1 : Self.multiplier
        let r = try SelfTest.run(command: try Self.command(m.mode), timeoutMultiplier: multiplier, only: [m.check])
        let entry = try #require(r.entries.first { $0.check.id == m.check })
        #expect(!entry.passed, "\(m.mode): \(m.check) passed")
        #expect(entry.failure?.message.contains(m.phrase) == true, "\(m.mode): \(entry.failure?.message ?? "")")
        #expect(r.exitCode == 1)
    }

    @Test func aTesteeThatCannotStartIsASpawnError() {
        #expect(throws: SpawnError.self) { try SelfTest.run(command: ["/nonexistent/testee"]) }
    }

    /// SPEC §2.3: every §6 rule is pinned by some check, an order rule by a two-fault check, and
    /// every rule a check names is stated in §6.
    @Test func checksPinEverySection6Rule() throws {
        let index = try RuleIndex.load(specAt: Fixtures.packageRoot.appendingPathComponent("SPEC.md"))
        let section6 = index.rules.filter { $0.section == "6" || $0.section.hasPrefix("6.") }
        #expect(section6.count >= 20)
        let named = Set(SelfTest.checks.flatMap(\.rules))
        for rule in section6 {
            #expect(named.contains(rule.id), "\(rule.id) is pinned by no selftest check")
            if rule.isOrder {
                #expect(SelfTest.checks.contains { $0.twoFaults && $0.rules.contains(rule.id) }, "\(rule.id): no two-fault check")
            }
        }
        #expect(named.subtracting(section6.map(\.id)).isEmpty)
        let ids = SelfTest.checks.map(\.id)
        #expect(Set(ids).count == ids.count && ids.allSatisfy { $0.hasPrefix("selftest/") })
        #expect(SelfTestWitnesses.all.count == SelfTest.checks.count)
    }
}
