import Conformance
import Foundation
import Vectors

/// Temp-dir fixtures: a tiny `toy` vector file, a scriptable toy testee, a mutant proxy, and the
/// paths of the package and the built `conformance` executable.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let vectors = packageRoot.appendingPathComponent("vectors")
    static let pythonTestee = packageRoot.appendingPathComponent("examples/python/testee.py").path

    /// The `conformance` executable next to the test bundle (same configuration), else under .build.
    static let executable: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("conformance").path,
            Bundle.main.bundleURL.appendingPathComponent("conformance").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("conformance").path,
            packageRoot.appendingPathComponent(".build/debug/conformance").path,
            packageRoot.appendingPathComponent(".build/release/conformance").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[3]
    }()

    static var serve: [String] { [executable, "serve"] }

    /// The committed cases of `formats` only: a test that runs one format reads one file (parsing
    /// all 24 MB in a debug build takes seconds, and the whole suite against every testee is
    /// `.ci/run`'s, on the release build).
    static func suite(_ formats: Set<String>) throws -> [SuiteCase] {
        try SuiteLoader.load(directory: vectors, formats: formats)
    }

    /// The formats the tests run through a debug `serve` end to end: quick in a debug build (no
    /// 65,536-row buckets, no ML-DSA signing), and between them every §6 message shape.
    static let serveFormats: Set<String> = ["state_digest", "settle"]
    /// The last line of a clean `conformance run --format …` of `serveFormats` against `serve`.
    static var serveFormatsPassLine: String {
        let n = manifestCounts.filter { serveFormats.contains($0.key) }.values.reduce(0, +)
        return "\(n) passed, 0 failed, 0 skipped"
    }

    /// The whole suite against the debug `serve` under a parallel test load: the slowest case
    /// (reconcile/bucketize/index/n65536) takes about 7 s of the 10 s deadline in a debug build.
    static var serveOptions: RunOptions {
        var o = RunOptions(command: serve)
        o.timeoutMultiplier = 4
        return o
    }

    /// Case counts per format as MANIFEST.json states them (read independently of SuiteLoader).
    static let manifestCounts: [String: Int] = {
        guard let data = try? Data(contentsOf: vectors.appendingPathComponent("MANIFEST.json")),
              let m = try? JSONValue.parse(String(decoding: data, as: UTF8.self)), let files = m["files"]?.arrayValue else { return [:] }
        var out: [String: Int] = [:]
        for f in files where f["file"]?.stringValue?.hasSuffix(".json") == true {
            if let format = f["format"]?.stringValue, let n = f["cases"]?.int64Value { out[format] = Int(n) }
        }
        return out
    }()
    static var totalCases: Int { manifestCounts.values.reduce(0, +) }
    static var stateDigestCases: Int { manifestCounts["state_digest"] ?? 0 }
    /// The last line of a clean run of every vector.
    static var allPassLine: String { "\(totalCases) passed, 0 failed, 0 skipped" }

    /// The formats the Python example testee implements (SPEC.md alone, issue 4): every case of
    /// these passes, every other case is skipped as unsupported.
    static let pythonFormats: Set<String> = ["state_digest", "reconcile"]
    static var pythonLine: String {
        let passed = manifestCounts.filter { pythonFormats.contains($0.key) }.values.reduce(0, +)
        return "\(passed) passed, 0 failed, \(totalCases - passed) skipped"
    }

    /// The toy suite: ids name what a misbehaving toy testee does on them.
    static let toyVectors = """
    {"format": "toy", "cases": [
      {"id": "toy/echo/a/one", "op": "echo", "comment": "a number", "flags": [], "input": {"value": 1}, "expected": {"output": {"value": 1}}},
      {"id": "toy/echo/a/two", "op": "echo", "comment": "a string", "flags": [], "input": {"value": "two"}, "expected": {"output": {"value": "two"}}},
      {"id": "toy/echo/b/crash", "op": "echo", "comment": "the crash mode dies here", "flags": [], "input": {"value": 3}, "expected": {"output": {"value": 3}}},
      {"id": "toy/echo/b/hang", "op": "echo", "comment": "the hang mode sleeps here", "flags": [], "input": {"value": 4}, "expected": {"output": {"value": 4}}},
      {"id": "toy/echo/b/garbage", "op": "echo", "comment": "the garbage mode prints non-JSON here", "flags": [], "input": {"value": 5}, "expected": {"output": {"value": 5}}},
      {"id": "toy/echo/b/wrongid", "op": "echo", "comment": "the wrongid mode answers another id here", "flags": [], "input": {"value": 6}, "expected": {"output": {"value": 6}}},
      {"id": "toy/echo/c/reject", "op": "echo", "comment": "must be rejected", "flags": [], "input": {"reject": "input_bad_value"}, "expected": {"error": "input_bad_value"}},
      {"id": "toy/echo/c/last", "op": "echo", "comment": "an array", "flags": ["rule:R2.2-1", "rule:R2.2-5"], "input": {"value": [1, 2]}, "expected": {"output": {"value": [1, 2]}}},
      {"id": "toy/other/x/one", "op": "other", "comment": "an op the toy testee does not advertise", "flags": [], "input": {}, "expected": {"output": {}}}
    ]}
    """

    static let toyTestee = #"""
    import json, os, signal, sys, time
    mode = sys.argv[1]
    pidfile = sys.argv[2] if len(sys.argv) > 2 else None
    if pidfile:
        open(pidfile, "w").write(str(os.getpid()))
    if mode == "early":
        sys.stderr.write("toy: cannot start: missing library libtoy.so\n"); sys.stderr.flush()
        sys.exit(5)
    def send(m):
        sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
    def result(cid, output):
        return ('{"type":"result","id":"%s","status":"ok","output":%s}' % (cid, output)).encode()
    # Answers to the /garbage case that the runner must read as protocol errors (or, crlf, accept).
    RAW = {
        "surrogate": lambda cid: result(cid, '{"value":"\\ud800"}') + b"\n",
        "deep": lambda cid: result(cid, "[" * 200 + "]" * 200) + b"\n",
        "long": lambda cid: result(cid, '"' + "x" * (16 * 1024 * 1024) + '"') + b"\n",
        "badutf8": lambda cid: result(cid, '{"value":"a') + b'\xff"}}\n',
        "dupmember": lambda cid: result(cid, '{"value":5},"status":"rejected","error":"input_bad_value"') + b"\n",
        "crlf": lambda cid: result(cid, '{"value":5}') + b"\r\n",
    }
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            caps = {"toy": ["echo", "echoo"], "toyy": ["echo"]} if mode == "typo" else {"toy": ["echo"]}
            send({"type": "hello", "protocol_version": 2 if mode == "badversion" else 1, "name": "toy", "version": "1",
                  "language": "python", "capabilities": caps})
            continue
        if msg["type"] == "shutdown":
            break
        cid, inp = msg["id"], msg["input"]
        if mode == "unsupported":
            send({"type": "result", "id": cid, "status": "unsupported"}); continue
        if mode == "flood":
            sys.stderr.write(("flood " + cid + " ") * 40000 + "\n"); sys.stderr.flush()
        if mode == "crashall" or (mode == "crash" and cid.endswith("/crash")):
            sys.stderr.write("toy: about to crash on " + cid + "\n"); sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "hang" and cid.endswith("/hang"):
            time.sleep(3600)
        if mode == "garbage" and cid.endswith("/garbage"):
            sys.stdout.write("this is not json\n"); sys.stdout.flush(); continue
        if mode in RAW and cid.endswith("/garbage"):
            sys.stdout.buffer.write(RAW[mode](cid)); sys.stdout.buffer.flush(); continue
        if mode == "wrongid" and cid.endswith("/wrongid"):
            send({"type": "result", "id": "toy/echo/a/one", "status": "ok", "output": {"value": 1}}); continue
        if mode == "wrong" and cid.endswith("/last"):
            send({"type": "result", "id": cid, "status": "ok", "output": {"value": [2, 1]}}); continue
        if "reject" in inp:
            send({"type": "result", "id": cid, "status": "rejected", "error": inp["reject"]})
        else:
            send({"type": "result", "id": cid, "status": "ok", "output": {"value": inp["value"]}})
    """#

    /// A proxy in front of `conformance serve` with one rule flipped: messages' `sentAt` is
    /// committed in milliseconds (the input is scaled by 1000 before the reference sees it), and
    /// the leaf of `state_digest/leaf/memory/typical` comes back in uppercase hex.
    static let mutantProxy = #"""
    import json, subprocess, sys
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def fix(row):
        if isinstance(row, dict) and isinstance(row.get("sentAt"), int):
            row["sentAt"] = row["sentAt"] * 1000
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "case":
            inp = msg.get("input") or {}
            if inp.get("namespace") == "messages":
                fix(inp.get("row"))
                for r in inp.get("rows") or []: fix(r)
            for r in (inp.get("namespaces") or {}).get("messages", []): fix(r)
        child.stdin.write(json.dumps(msg) + "\n"); child.stdin.flush()
        if msg.get("type") == "shutdown": break
        out = child.stdout.readline()
        if msg.get("id") == "state_digest/leaf/memory/typical":
            r = json.loads(out); r["output"]["leaf"] = r["output"]["leaf"].upper(); out = json.dumps(r) + "\n"
        sys.stdout.write(out); sys.stdout.flush()
    """#

    /// A fresh temp directory holding `toy/toy.json`, `toy.py` and `mutant.py`.
    static func makeDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("toy"), withIntermediateDirectories: true)
        try Data(toyVectors.utf8).write(to: dir.appendingPathComponent("toy/toy.json"))
        try Data(toyTestee.utf8).write(to: dir.appendingPathComponent("toy.py"))
        try Data(mutantProxy.utf8).write(to: dir.appendingPathComponent("mutant.py"))
        return dir
    }

    static func toySuite() throws -> [SuiteCase] { try SuiteLoader.parse(toyVectors, file: "toy.json") }

    static func toyCommand(_ dir: URL, _ mode: String, pidFile: String? = nil) -> [String] {
        ["python3", dir.appendingPathComponent("toy.py").path, mode] + (pidFile.map { [$0] } ?? [])
    }

    /// Fast deadlines for misbehaving testees: 1 s per case. The handshake gets 10 s: starting
    /// python3 on a loaded 2-core machine (the test suite runs many testees in parallel) has
    /// taken more than 3 s, and no test waits for a handshake to time out.
    static func toyOptions(_ command: [String]) -> RunOptions {
        var o = RunOptions(command: command)
        o.timeoutMultiplier = 0.1
        o.handshakeTimeout = 100
        return o
    }
}

/// Runs the `conformance` executable (or another program), draining stdout and stderr while it
/// runs, then waiting.
struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String

    var lastLine: String { stdout.split(separator: "\n").last.map(String.init) ?? "" }

    init(_ args: [String], executable: String = Fixtures.executable, cwd: URL = Fixtures.packageRoot) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        p.currentDirectoryURL = cwd
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let errBox = DataBox()
        let t = Thread { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); errBox.done.signal() }
        t.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        errBox.done.wait()
        p.waitUntilExit()
        status = p.terminationStatus
        stdout = String(decoding: o, as: UTF8.self)
        stderr = String(decoding: errBox.data, as: UTF8.self)
    }
}

final class DataBox: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
