import Conformance
import Foundation
import Vectors

/// `conformance bench fuzz`: cases per second against `serve` (one process, then --jobs 2 and 4)
/// and against the Python example testee. `conformance bench fuzz-mutants`: the mutant catalog
/// proof, `conformance fuzz -- conformance serve --mutant M` for every mutant. `conformance bench
/// fuzz-census`: how the reference answers each generator's inputs (for generator authors).
enum FuzzBench {
    static var exe: String { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path }

    static func value(_ args: [String], _ flag: String) -> String? {
        guard let i = args.firstIndex(of: flag), i + 1 < args.count else { return nil }
        return args[i + 1]
    }

    static func seed(_ args: [String]) -> UInt64 { value(args, "--seed").flatMap(FuzzSeed.parse) ?? 0x5eed }

    /// Speed: a fixed time against each testee; the figure is cases judged per wall second.
    static func speed(_ args: [String]) -> Int32 {
        let seconds = value(args, "--seconds").flatMap(Double.init) ?? 10
        let python = value(args, "--python") ?? "examples/python/testee.py"
        func line(_ label: String, _ command: [String], jobs: Int, formats: [String] = []) {
            var o = FuzzOptions(command: command, seed: seed(args))
            o.budget = .seconds(seconds)
            o.jobs = jobs
            o.selection.formats = formats
            guard let r = try? Fuzzer.run(options: o) else { print("\(label): the testee could not be run"); return }
            let s = Double(r.wallNanos) / 1e9
            let t = r.totals
            print(String(format: "%@: %d cases in %.1f s = %.0f cases/s (%@; %d difference(s))", label, t.cases, s, Double(t.cases) / s, r.summaryLine, r.differences.count))
        }
        print("== fuzz throughput, \(Int(seconds)) s each, seed \(FuzzSeed.text(seed(args)))")
        line("serve, every format, --jobs 1", [exe, "serve"], jobs: 1)
        line("serve, every format, --jobs 2", [exe, "serve"], jobs: 2)
        line("serve, every format, --jobs 4", [exe, "serve"], jobs: 4)
        line("serve, state_digest + reconcile, --jobs 1", [exe, "serve"], jobs: 1, formats: ["state_digest", "reconcile"])
        for (format, service) in [("pairing", "pairing"), ("revocation", "identity")] {
            var o = FuzzOptions(command: [], seed: seed(args))
            o.budget = .seconds(seconds)
            if let r = try? HTTPFuzzer.run(format: format, target: .command([exe, "serve-http", service]), options: o) {
                let s = Double(r.wallNanos) / 1e9
                print(String(format: "serve-http %@ (--http --format %@), --jobs 1: %d scenarios in %.1f s = %.0f scenarios/s (%@)", service, format, r.totals.cases, s, Double(r.totals.cases) / s, r.summaryLine))
            } else {
                print("serve-http \(service): the service could not be run")
            }
        }
        line("python example testee (state_digest + reconcile), --jobs 1", ["python3", python], jobs: 1)
        line("python example testee (state_digest + reconcile), --jobs 2", ["python3", python], jobs: 2)
        return 0
    }

    /// The mutant proof: each mutant served, fuzzed for a fixed time with no vectors; found or not,
    /// and the time to the first difference.
    ///
    /// `--cases N` gives each mutant a budget of N cases instead of a time (deterministic: the
    /// same seed finds the same mutants on any machine); `--require-all` exits 1 when one is
    /// missed, which is how CI asks "does the fuzzer reach every service mutant" (with
    /// `--services`, which keeps the HTTP services' mutants only).
    static func mutants(_ args: [String]) -> Int32 {
        let seconds = value(args, "--seconds").flatMap(Double.init) ?? 30
        let caseBudget = value(args, "--cases").flatMap(Int.init)
        var list = Mutant.allCases
        var chosen: [Mutant] = []
        var i = 0
        while i < args.count {
            if args[i] == "--mutant", i + 1 < args.count, let m = Mutant(rawValue: args[i + 1]) { chosen.append(m) }
            if args[i] == "--format", i + 1 < args.count { chosen += Mutant.allCases.filter { $0.format == args[i + 1] } }
            i += 1
        }
        if !chosen.isEmpty { list = chosen }
        // `--services`: only the HTTP services' mutants (the formats' client ops are stdin/stdout).
        if args.contains("--services") { list = list.filter { httpService($0) != nil } }
        let inProcess = args.contains("--in-process")
        let budget = caseBudget.map { "\($0) case(s)" } ?? "\(Int(seconds)) s"
        print("== fuzz vs the mutant catalog: \(list.count) mutant(s), \(budget) each, seed \(FuzzSeed.text(seed(args)))"
              + (inProcess ? " (in process, the mutant's format only)"
                 : ": conformance fuzz [--http] \(caseBudget.map { "--cases \($0)" } ?? "--seconds \(Int(seconds))") -- conformance serve[-http] --mutant M"))
        let parallel = max(1, value(args, "--parallel").flatMap(Int.init) ?? 1)
        if parallel > 1 { print("(\(parallel) mutants at a time, each with its own serve process)") }
        // One mutant: found (seconds to the first difference, what) or missed (why).
        @Sendable func probe(_ m: Mutant) -> (Double, String)? {
            let service = httpService(m)
            if inProcess {
                let hit = service == nil ? FuzzCensus.firstDifference(mutant: m, seed: seed(args), maxCases: caseBudget ?? Int(seconds * 200))
                    : FuzzCensus.firstHTTPDifference(mutant: m, seed: seed(args), maxCases: caseBudget ?? Int(seconds * 20))
                return hit.map { (0, "\($0.id) after \($0.cases) case(s)") }
            }
            let command = service.map { [exe, "serve-http", $0, "--mutant", m.rawValue] } ?? [exe, "serve", "--mutant", m.rawValue]
            var o = FuzzOptions(command: command, seed: seed(args))
            o.budget = caseBudget.map { .cases($0) } ?? .seconds(seconds)
            o.stopAfter = 1
            o.shrinkSeconds = 0
            // A service's mutant is fuzzed as `conformance fuzz --http --format F -- conformance
            // serve-http S --mutant M`; every other one as `conformance fuzz -- conformance serve --mutant M`.
            let run: FuzzResult?
            if service != nil { run = try? HTTPFuzzer.run(format: m.format, target: .command(command), options: o) } else { run = try? Fuzzer.run(options: o) }
            guard let r = run, let f = r.firstDifferenceNanos else { return nil }
            let what = r.differences.first.map { "\($0.original.id) \($0.failure.kind.rawValue)" } ?? "a failing case"
            return (Double(f) / 1e9, what + " after \(r.totals.cases) case(s)")
        }
        let box = CensusBox()
        let lock = box.lock
        let mutants = list
        DispatchQueue.concurrentPerform(iterations: parallel) { _ in
            while true {
                lock.lock()
                let i = box.next
                box.next += 1
                lock.unlock()
                guard i < mutants.count else { return }
                let m = mutants[i]
                let start = DispatchTime.now().uptimeNanoseconds
                var r = probe(m)
                if inProcess, r != nil { r!.0 = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
                let line = r.map { String(format: "FOUND %6.2f s  %@  (%@)", $0.0, m.rawValue, $0.1) } ?? "MISSED         \(m.rawValue)"
                lock.lock()
                box.results[i] = r
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                lock.unlock()
            }
        }
        var found: [(Mutant, Double, String)] = []
        var missed: [Mutant] = []
        for (i, m) in list.enumerated() {
            if let r = box.results[i] ?? nil { found.append((m, r.0, r.1)) } else { missed.append(m) }
        }
        let times = found.map(\.1).sorted()
        let median = times.isEmpty ? 0 : times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
        print(String(format: "found %d / %d (%.1f%%); median time to first difference %.2f s", found.count, list.count, 100 * Double(found.count) / Double(max(1, list.count)), median))
        if !missed.isEmpty { print("not found: " + missed.map(\.rawValue).joined(separator: ", ")) }
        return args.contains("--require-all") && !missed.isEmpty ? 1 : 0
    }

    /// The HTTP service a mutant lives in (`pairing`, `identity`), or nil for a mutant of an op
    /// (the formats' client decisions are named `client-*`).
    static func httpService(_ m: Mutant) -> String? {
        guard let s = HTTPRunner.services[m.format], !m.rawValue.dropFirst(m.format.count + 1).hasPrefix("client-") else { return nil }
        return s
    }

    static func census(_ args: [String]) -> Int32 {
        let n = value(args, "--cases").flatMap(Int.init) ?? 200
        var sel = CaseSelection()
        var i = 0
        while i < args.count { if args[i] == "--format", i + 1 < args.count { sel.formats.append(args[i + 1]) }; i += 1 }
        if let show = value(args, "--show").flatMap(Int.init) {
            // The first inputs of each pair and the reference's answers, for reading a generator.
            for c in FuzzCensus.samples(seed: seed(args), count: show, selection: sel) {
                let answer: String
                switch c.expected {
                case .output(let x): answer = "ok " + JSONComparison.render(x, max: 200)
                case .error(let e): answer = "rejected " + e
                }
                print("\(c.id)\(c.mutated ? " (mutated)" : ""): \(JSONComparison.render(c.input, max: 400)) -> \(answer)")
            }
            return 0
        }
        let valid = FuzzCensus.census(seed: seed(args), count: n, selection: sel, invalidPercent: 0)
        let mutated = FuzzCensus.census(seed: seed(args), count: n, selection: sel, invalidPercent: 100)
        for (v, m) in zip(valid, mutated) {
            func codes(_ l: FuzzCensus.Line) -> String { l.rejected.prefix(4).map { "\($0.code) \($0.count)" }.joined(separator: ", ") }
            print("\(v.target.name): valid inputs accepted \(v.accepted)/\(n) [\(codes(v))]; mutated accepted \(m.accepted)/\(n) [\(codes(m))]")
        }
        return 0
    }
}

/// The mutant census's shared state (one lock).
final class CensusBox: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var results: [Int: (Double, String)?] = [:]
}
