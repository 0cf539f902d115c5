import Foundation
import Primitives
import Conformance
import Vectors

/// `conformance bench <name>`: throughput figures, never pass/fail. Run with `-c release`.
enum BenchCommand {
    static let help = """
    OVERVIEW: Benchmarks (build with -c release). Figures only; they never fail.

    USAGE: conformance bench <digest|reconcile|crypto|kem> [--rows N]
           conformance bench runner [--vectors DIR] [--repeat N]
           conformance bench fuzz [--seconds T] [--seed S] [--python PATH]
           conformance bench fuzz-mutants [--seconds T | --cases N] [--seed S] [--mutant M]... [--format F]... [--services] [--in-process] [--parallel N] [--require-all]
           conformance bench fuzz-census [--cases N] [--format F]... [--show N]
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.isEmpty || args.contains("-h") || args.contains("--help") { print(help); return args.isEmpty ? 2 : 0 }
        let name = args.removeFirst()
        var rows = 1_000_000
        if let i = args.firstIndex(of: "--rows"), i + 1 < args.count, let n = Int(args[i + 1]) { rows = n }
        switch name {
        case "digest": DigestBench.run(rows: rows)
        case "reconcile": ReconcileBench.run(leaves: rows)
        case "crypto": CryptoBench.run()
        case "kem": KEMBench.run()
        case "fuzz": return FuzzBench.speed(args)
        case "fuzz-mutants": return FuzzBench.mutants(args)
        case "fuzz-census": return FuzzBench.census(args)
        case "runner":
            var repeatCount = 5
            if let i = args.firstIndex(of: "--repeat"), i + 1 < args.count, let n = Int(args[i + 1]) { repeatCount = n }
            return RunnerBench.run(vectors: CLI.vectorsDirectory(&args), repeatCount: repeatCount)
        default: return CLI.fail("unknown benchmark \(name)")
        }
        return 0
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs `body` repeatedly for at least `minSeconds`, returning seconds per call (best of 3 batches).
    static func measure(minSeconds: Double = 0.5, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            var calls = 0
            let start = now()
            var elapsed = 0.0
            repeat {
                body()
                calls += 1
                elapsed = Double(now() - start) / 1e9
            } while elapsed < minSeconds / 3
            best = min(best, elapsed / Double(calls))
        }
        return best
    }

    /// Runs a shell command and returns its stdout, or nil if it could not run.
    static func shell(_ command: String) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return p.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}

enum DigestBench {
    static func run(rows: Int) {
        print("== SHA-256 (pure Swift)")
        for size in [64, 1024, 16384] {
            let msg = [UInt8](repeating: 0x61, count: size)
            var sink: UInt64 = 0
            let t = BenchCommand.measure {
                msg.withUnsafeBytes { sink &+= SHA256.hash($0).w0 }
            }
            print(String(format: "sha256 %6d B: %8.1f MB/s", size, Double(size) / t / 1e6) + (sink == 42 ? " " : ""))
        }
        if let o = BenchCommand.shell("openssl speed -seconds 1 -bytes 16384 -evp sha256 2>/dev/null | tail -n 2") {
            print("openssl speed -evp sha256 (16384 B, same run):\n" + o)
        } else {
            print("openssl: not installed, no side-by-side figure")
        }
        print("== StateDigest over \(rows) message rows")
        var g = SeededGenerator(seed: 1)
        let base = Int64(1_767_225_600_000)
        var start = BenchCommand.now()
        var store: [Row] = []
        store.reserveCapacity(rows)
        for i in 0..<rows {
            store.append(Row(.messages, [
                "messageID": .bytes(g.bytes(16)), "conversationID": .bytes(g.bytes(16)), "peerUserIDHash": .bytes(g.bytes(32)),
                "isOutgoing": .bool(i & 1 == 0), "body": .text("message body number \(i) with some typical length text"),
                "sentAt": .date(base + Int64(i) * 1_337),
            ]))
        }
        print(String(format: "build rows: %.3f s (not part of the digest time)", Double(BenchCommand.now() - start) / 1e9))
        // Where the time goes: leaf hashing, the sort by key, the fold.
        start = BenchCommand.now()
        var enc = LeafEncoder()
        var keyed: [(key: [UInt8], leaf: SHA256Digest)] = []
        keyed.reserveCapacity(rows)
        for row in store { keyed.append((row.keyBytes, try! enc.leaf(row))) }
        let tLeaves = Double(BenchCommand.now() - start) / 1e9
        start = BenchCommand.now()
        keyed.sort { ByteOrder.precedes($0.key, $1.key) }
        let tSort = Double(BenchCommand.now() - start) / 1e9
        start = BenchCommand.now()
        _ = MerkleTree.fold(keyed.map(\.leaf))
        let tFold = Double(BenchCommand.now() - start) / 1e9
        print(String(format: "  parts: leaves %.3f s, sort %.3f s, fold %.3f s", tLeaves, tSort, tFold))
        start = BenchCommand.now()
        let d = try! StateRoots.digest([.messages: store])
        let seconds = Double(BenchCommand.now() - start) / 1e9
        print(String(format: "digest of %d rows: %.3f s (%.0f rows/s), messages root %@", rows, seconds, Double(rows) / seconds, d[.messages].hex))
    }
}
