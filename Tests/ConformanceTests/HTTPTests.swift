import Conformance
import Foundation
import Testing
import Vectors
#if canImport(Glibc)
import Glibc
#endif

/// HTTP mode end to end over real loopback sockets: the reference services pass every scenario,
/// every service mutant fails one, every broken-service kind is reported as its failure kind, and
/// the client reads HTTP/1.1 framing correctly (SPEC.md §6.13, §13).
@Suite(.serialized) struct HTTPTests {
    static let suite: [SuiteCase] = (try? SuiteLoader.load(directory: Fixtures.vectors)) ?? []
    static func scenarios(_ format: String) -> [SuiteCase] { suite.filter { $0.format == format && $0.op == "scenario" } }

    /// A reference (or mutant, or broken) service on an ephemeral port for the body's duration.
    static func withServer<T>(_ behaviour: HTTPServer.Behaviour, _ body: (UInt16) throws -> T) throws -> T {
        let server = HTTPServer(behaviour)
        try server.start(port: 0)
        defer { server.stop() }
        return try body(server.port)
    }

    static func run(_ format: String, port: UInt16, multiplier: Double = 1, skip: [String] = [], only: [String] = []) throws -> HTTPRunResult {
        var o = HTTPRunOptions(target: .url(host: "127.0.0.1", port: port))
        o.selection = CaseSelection(run: only.map(IDPattern.init), skip: skip.map(IDPattern.init), formats: [format])
        o.timeoutMultiplier = multiplier
        return try HTTPRunner.run(suite: suite, options: o)
    }

    static let serviceMutants = Mutant.allCases.filter { ($0.format == "pairing" || $0.format == "revocation") && !$0.rawValue.contains(".client-") }

    @Test func scenarioCasesExist() {
        #expect(Self.scenarios("pairing").count >= 40)
        #expect(Self.scenarios("revocation").count >= 30)
        #expect(Self.serviceMutants.count >= 30)
    }

    @Test(arguments: ["pairing", "revocation"])
    func referenceServicePassesEveryScenario(_ format: String) throws {
        let service: any HTTPService = format == "pairing" ? PairingService() : IdentityService()
        let r = try Self.withServer(.service(service)) { try Self.run(format, port: $0) }
        let failing = r.run.records.filter { $0.outcome != .passed }.map { "\($0.id): \($0.outcome.failure?.summary ?? "\($0.outcome)")" }
        #expect(failing == [])
        #expect(r.run.counts.passed == Self.scenarios(format).count)
        #expect(r.run.exitCode == 0)
        if format == "pairing" {
            // The timing step ran and produced a figure (never a verdict).
            #expect(r.figures.count == 1)
            #expect(r.figures.first?.1.test.countA ?? 0 > 800)
        }
    }

    /// Each service mutant, served over HTTP, fails at least one scenario (the timing scenario is
    /// left out: it only warns, and it is the slowest).
    @Test(arguments: serviceMutants)
    func serviceMutantIsKilledOverHTTP(_ m: Mutant) throws {
        let service: any HTTPService = m.format == "pairing" ? PairingService(mutant: m) : IdentityService(mutant: m)
        let r = try Self.withServer(.service(service)) { try Self.run(m.format, port: $0, skip: ["*/timing/*"]) }
        let killers = r.run.records.filter { $0.outcome.failure?.kind == .wrongOutput }
        #expect(!killers.isEmpty, "\(m.rawValue) passes every scenario over HTTP")
        #expect(r.run.exitCode == 1)
    }

    static let brokenKinds: [(HTTPServer.BrokenKind, FailureKind, String)] = [
        (.garbage, .protocolError, "not an HTTP/1.1 status line"),
        (.close, .crash, "closed before any answer"),
        (.hang, .timeout, "timed out waiting for the status line"),
        (.hugeLength, .protocolError, "Content-Length: 2147483648, above the cap"),
        (.hugeChunked, .protocolError, "chunked body exceeds the cap"),
        (.badChunk, .protocolError, "not a chunk size"),
        (.truncated, .crash, "closed inside the header section"),
    ]

    @Test(arguments: brokenKinds.map(\.0))
    func brokenServiceIsReportedAsAFailure(_ kind: HTTPServer.BrokenKind) throws {
        let (_, want, text) = Self.brokenKinds.first { $0.0 == kind }!
        let r = try Self.withServer(.broken(kind)) { try Self.run("pairing", port: $0, multiplier: 0.05, only: ["pairing/scenario/hello/unpaired"]) }
        #expect(r.run.records.count == 1)
        let f = try #require(r.run.records.first?.outcome.failure)
        #expect(f.kind == want)
        #expect(f.summary.contains(text), "\(f.summary)")
        #expect(f.summary.hasPrefix("before step 1 (the reset hook): POST /conformance/reset: "))
        #expect(r.run.summaryLine == "0 passed, 1 failed, 0 skipped")
    }

    // MARK: - The client's reading of HTTP/1.1

    static func answer(_ raw: String, method: String = "GET") throws -> Result<HTTPResponse, TransportFailure> {
        try withServer(.scripted(Array(raw.utf8))) { port in
            HTTPConnection(host: "127.0.0.1", port: port).send(HTTPRequest(method: method, target: "/x"), deadline: Socket.deadline(after: 2))
        }
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        let r = try Self.answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n4;ext=1\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nX-Trailer: y\r\n\r\n")
        let body = try r.get().body
        #expect(String(decoding: body, as: UTF8.self) == "{\"a\":1}")
    }

    @Test func interimAnswerSkippedAndLengthRead() throws {
        let r = try Self.answer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nokEXTRA")
        let a = try r.get()
        #expect(a.status == 201)
        #expect(a.body == Array("ok".utf8))
    }

    @Test func bodyUntilCloseAndHeadHasNoBody() throws {
        let a = try Self.answer("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it").get()
        #expect(a.body == Array("all of it".utf8))
        let h = try Self.answer("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n", method: "HEAD").get()
        #expect(h.body.isEmpty)
    }

    @Test func badFramingIsAProtocolFailure() throws {
        for (raw, kind) in [
            ("HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nabc", TransportFailure.Kind.malformed),
            ("HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nab", .malformed),
            ("HTTP/1.1 200 OK\r\n folded: header\r\n\r\n", .malformed),
            ("HTTP/1.1 20 OK\r\n\r\n", .malformed),
            ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", .tooLarge),
            ("HTTP/1.1 200 OK\r\nX: \(String(repeating: "a", count: 70_000))\r\n\r\n", .tooLarge),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", .closed),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcdefg\r\n0\r\n\r\n", .malformed),
        ] {
            guard case .failure(let f) = try Self.answer(raw) else { Issue.record("accepted: \(raw.prefix(60))"); continue }
            #expect(f.kind == kind, "\(raw.prefix(60)): \(f)")
        }
    }

    // MARK: - The server's reading of requests

    /// Raw bytes to the reference server; the answer's status line.
    static func rawStatus(_ bytes: [UInt8], port: UInt16) -> String {
        guard case .success(let fd) = Socket.connect(host: "127.0.0.1", port: port, deadline: Socket.deadline(after: 2)) else { return "connect failed" }
        defer { close(fd) }
        _ = Socket.writeAll(fd, bytes, deadline: Socket.deadline(after: 2))
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        let until = Socket.deadline(after: 3)
        while Socket.now() < until, !out.contains(0x0a) {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return String(decoding: out.prefix { $0 != 0x0d && $0 != 0x0a }, as: UTF8.self)
    }

    @Test func serverReadsChunkedRequestsAndEnforcesCaps() throws {
        let t = String(repeating: "ab", count: 32)
        try Self.withServer(.service(PairingService())) { port in
            let body = "{\"token\":\"\(t)\"}"
            let chunked = "POST /pair HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n\(body.prefix(5))\r\n\(String(body.count - 5, radix: 16))\r\n\(body.dropFirst(5))\r\n0\r\n\r\n"
            #expect(Self.rawStatus(Array(chunked.utf8), port: port) == "HTTP/1.1 200 OK")
            #expect(Self.rawStatus(Array("POST /pair HTTP/1.1\r\nContent-Length: 2147483648\r\n\r\n".utf8), port: port) == "HTTP/1.1 413 Content Too Large")
            #expect(Self.rawStatus(Array("GET /hello HTTP/1.1\r\nX: \(String(repeating: "a", count: 70_000))\r\n\r\n".utf8), port: port) == "HTTP/1.1 431 Request Header Fields Too Large")
            #expect(Self.rawStatus(Array("POST /pair HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n".utf8), port: port) == "HTTP/1.1 400 Bad Request")
            #expect(Self.rawStatus(Array("GET /hello HTTP/2.0\r\n\r\n".utf8), port: port) == "HTTP/1.1 505 HTTP Version Not Supported")
            #expect(Self.rawStatus(Array("GET /hello\r\n\r\n".utf8), port: port) == "HTTP/1.1 400 Bad Request")
        }
    }

    // MARK: - The timing statistic (computed, never judged)

    @Test func welchStatisticOnFixedSamples() {
        let w = WelchTest.compute([1, 2, 3, 4, 5], [2, 3, 4, 5, 6], crop: false)
        #expect(w.t == -1)
        #expect(w.meanA == 3 && w.meanB == 4)
        #expect(!w.exceedsThreshold)
        let leak = WelchTest.compute((0..<100).map { 100 + Double($0 % 5) }, (0..<100).map { 110 + Double($0 % 5) })
        #expect(leak.t < -WelchTest.threshold)
        #expect(leak.countA == 100)
        #expect(WelchTest.compute([5, 5], [5, 5], crop: false).t == 0)
        #expect(WelchTest.format(-1.2345, 2) == "-1.23" && WelchTest.format(0.004, 2) == "0.00" && WelchTest.format(12.5, 0) == "13")
    }

    // MARK: - The command line

    /// A vectors directory holding only the two HTTP formats (loading every file is slow in debug).
    static func httpVectors() throws -> String {
        let dir = try Fixtures.makeDirectory()
        for f in ["pairing.json", "revocation.json"] {
            try FileManager.default.copyItem(at: Fixtures.vectors.appendingPathComponent(f), to: dir.appendingPathComponent(f))
        }
        return dir.path
    }

    @Test func commandModeStartsTheServiceOnPORT() throws {
        let v = try Self.httpVectors()
        let ok = try CLIRun(["http", "--vectors", v, "--format", "revocation", "--run", "revocation/scenario/remove/*", "--", Fixtures.executable, "serve-http", "identity"])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        let removes = Self.scenarios("revocation").filter { $0.id.hasPrefix("revocation/scenario/remove/") }.count
        #expect(ok.lastLine == "\(removes) passed, 0 failed, 0 skipped")
        #expect(ok.stdout.contains("testee: identity service started by: "))

        let bad = try CLIRun(["http", "--vectors", v, "--format", "revocation", "--run", "revocation/scenario/remove/*", "--",
                              Fixtures.executable, "serve-http", "identity", "--mutant", "revocation.remove-answers-200"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("""
        FAIL revocation/scenario/remove/answers-204-no-body [wrong_output]
            case: remove_sibling answers 204 with no body, and the device leaves the siblings list
            rules: R13.4-7, R13.4-9
            step 3 of 4 (remove): POST /v1/sync/siblings/remove: expected status 204, got 200
            answer: 200 OK, 13 byte(s): {"removed":1}
            steps 1–2 passed
        """))
    }

    /// A started service that hangs is stopped and started again for the next case, within the
    /// restart budget; past it the rest is not run.
    @Test func hungServiceIsRestartedWithinTheBudget() throws {
        let v = try Self.httpVectors()
        let r = try CLIRun(["http", "--vectors", v, "--format", "pairing", "--run", "pairing/scenario/hello/*", "--timeout-multiplier", "0.05",
                            "--max-restarts", "1", "--", Fixtures.executable, "serve-http", "broken", "--kind", "hang"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("FAIL pairing/scenario/hello/unpaired [timeout]"))
        #expect(r.stdout.contains("the service did not answer in time and was stopped (it is restarted for the next case)"))
        // Two cases time out (the first service, then its one restart); the rest are not run.
        let hello = Self.scenarios("pairing").filter { $0.id.hasPrefix("pairing/scenario/hello/") }.count
        #expect(hello >= 3)
        #expect(r.stdout.contains("NOT RUN \(hello - 2) case(s): the service was stopped after a timeout and the restart budget (--max-restarts 1) is spent"))
        #expect(r.stdout.contains("; 1 restart(s)"))
        #expect(r.lastLine == "0 passed, \(hello) failed, 0 skipped")
    }

    @Test func jsonReportCarriesTheTimingFigure() throws {
        let v = try Self.httpVectors()
        let path = try Fixtures.makeDirectory().appendingPathComponent("http.json").path
        let r = try CLIRun(["http", "--vectors", v, "--format", "pairing", "--run", "pairing/scenario/timing/*", "--report", "json=\(path)", "--",
                            Fixtures.executable, "serve-http", "pairing"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("pairing/scenario/timing/bearer-first-vs-last-byte: timing first-vs-last: t = "))
        let report = try JSONValue.parse(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        let timing = try #require(report["http"]?["timing"]?.arrayValue)
        #expect(timing.count == 1)
        #expect(timing.first?["id"]?.stringValue == "pairing/scenario/timing/bearer-first-vs-last-byte")
        #expect(timing.first?["threshold"] == .number("4.5"))
        #expect((timing.first?["samples_a"]?.int64Value ?? 0) > 800)
        #expect(report["exit_code"] == .number("0"))
    }

    @Test func unreachableOrAmbiguousRunsExitTwoOrThree() throws {
        let port = try Self.withServer(.service(PairingService())) { $0 }  // bound, then released
        let v = try Self.httpVectors()
        let none = try CLIRun(["http", "--vectors", v, "--format", "pairing", "--url", "http://127.0.0.1:\(port)"])
        #expect(none.status == 3)
        #expect(none.stderr.hasPrefix("error: the service could not be run: nothing accepts connections at http://127.0.0.1:\(port)"))
        #expect(try CLIRun(["http", "--vectors", v, "--url", "http://127.0.0.1:\(port)"]).status == 2)
        #expect(try CLIRun(["http", "--vectors", v, "--format", "state_digest", "--url", "http://127.0.0.1:\(port)"]).status == 2)
        #expect(try CLIRun(["http", "--vectors", v, "--format", "pairing"]).status == 2)
        let exits = try CLIRun(["http", "--vectors", v, "--format", "pairing", "--", "/bin/sh", "-c", "echo starting; exit 4"])
        #expect(exits.status == 3)
        #expect(exits.stderr.contains("the service exited with status 4 before accepting connections"))
        #expect(exits.stderr.contains("starting"))
    }

    @Test func listPrintsScenarioIDsOnly() throws {
        let r = try CLIRun(["http", "--list", "--format", "pairing"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").map(String.init) == Self.scenarios("pairing").map(\.id))
    }
}
