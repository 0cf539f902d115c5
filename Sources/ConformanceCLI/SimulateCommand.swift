import Conformance
import Foundation
import Vectors

/// `conformance simulate`: the settle loop on N simulated devices (SPEC.md §12.8, README
/// "Measuring convergence"). Argument parsing and printing only; the simulation is
/// `Vectors.Simulation`, the testee driver `Conformance.TesteeStepper`.
enum SimulateCommand {
    static let help = """
    OVERVIEW: Simulate one account's devices over a relay, each running the settle loop (SPEC §12)
              with the real digest (§4) and reconcile (§5) and merges that converge; report
              rounds, relay bytes and time to converge. Deterministic: same options, same numbers.

    USAGE: conformance simulate [SCENARIO] [options] [-- TESTEE-CMD ...]

    SCENARIOS:
      reconnect (default)  a sibling returns after writes on both sides while it was offline
      reaction             one device holds a reaction the other lacks; its advertisement was lost
      storm                a field hashed but not mergeable: the storm guard must trip (exit 0 if it does)
      one-row              one row differs among --rows: the bytes one edit costs
      measure              the measurement tables (debounce, bytes per bucket rule, over-shipping)

    OPTIONS:
      --devices N          devices of the account, 2–64 (default 2)
      --rows N             message rows each device holds (default 10000)
      --writes N           writes on each side while apart, reconnect (default 20)
      --namespaces K       namespaces those writes touch, 1–9 (default 1)
      --seed S             the one seed of every random choice (default 1)
      --rules NAME         reference (default) or legacy: the loop before seed 002 §8's fix
                           (3 s debounce, re-advertisement only through the debounce, only when
                           a round applied something)
      --debounce MS        override the debounce of the chosen rules
      --buckets RULE       v6 (default, SPEC §5.2), K (at most K buckets), or two-round
      --latency MS         one-way relay latency (default 30)
      --jitter MS          uniform extra latency 0..MS (default 10)
      --bandwidth BYTES/S  link throughput (default 2500000)
      --cpu NS             device time per row of a full namespace pass (default 400)
      --limit MS           simulated time after the start before giving up (default 120000)
      --background MS      an unrelated write every MS on a rotating device (default 0: none)
      --testee-devices L   with a testee: the devices it drives, e.g. 0 or 0,1 (default all)
      --trace              print every scheduler step with its actions (times in ms after the start)
      --json PATH          also write the report as JSON ('-' for stdout)
      -- CMD ...           drive this testee's settle/step (runner protocol, SPEC §6) in place of
                           the reference scheduler; every step is also run on the reference and
                           disagreements are reported

    EXIT CODES:
      0 converged (storm: the guard tripped), 1 did not converge (storm: the guard never tripped)
      or the testee disagreed with the reference, 2 usage error, 3 the testee could not be run.
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(help); return 0 }
        var testee: [String] = []
        if let dash = args.firstIndex(of: "--") {
            testee = Array(args[(dash + 1)...])
            args = Array(args[..<dash])
            if testee.isEmpty { return CLI.fail("-- needs a testee command") }
        }
        var p = SimParameters()
        var measure = false
        var jsonPath: String?
        var testeeDevices: Set<Int>?
        var debounce: UInt64?
        var i = 0
        func value() -> String? {
            guard i + 1 < args.count else { return nil }
            i += 1
            return args[i]
        }
        while i < args.count {
            let a = args[i]
            func number<T: FixedWidthInteger>(_: T.Type) -> T? { value().flatMap { T($0) } }
            switch a {
            case "measure": measure = true
            case "--devices": guard let v = number(Int.self) else { return CLI.fail("--devices needs a number") }; p.devices = v
            case "--rows": guard let v = number(Int.self) else { return CLI.fail("--rows needs a number") }; p.rows = v
            case "--writes": guard let v = number(Int.self) else { return CLI.fail("--writes needs a number") }; p.writes = v
            case "--namespaces": guard let v = number(Int.self), (1...9).contains(v) else { return CLI.fail("--namespaces needs 1–9") }; p.namespaces = v
            case "--seed": guard let v = number(UInt64.self) else { return CLI.fail("--seed needs a number") }; p.seed = v
            case "--rules":
                switch value() {
                case "reference": p.rules = .reference
                case "legacy": p.rules = .legacy
                default: return CLI.fail("--rules is reference or legacy")
                }
            case "--debounce": guard let v = number(UInt64.self) else { return CLI.fail("--debounce needs ms") }; debounce = v
            case "--buckets":
                switch value() {
                case "v6": p.bucketRule = .v6
                case "two-round": p.bucketRule = .twoRound
                case let s? where Int(s).map({ $0 >= 1 }) == true: p.bucketRule = .buckets(Int(s)!)
                default: return CLI.fail("--buckets is v6, a bucket count, or two-round")
                }
            case "--latency": guard let v = number(UInt64.self) else { return CLI.fail("--latency needs ms") }; p.latencyMicros = v * 1000
            case "--jitter": guard let v = number(UInt64.self) else { return CLI.fail("--jitter needs ms") }; p.jitterMicros = v * 1000
            case "--bandwidth": guard let v = number(UInt64.self), v > 0 else { return CLI.fail("--bandwidth needs bytes per second") }; p.bytesPerSecond = v
            case "--cpu": guard let v = number(UInt64.self) else { return CLI.fail("--cpu needs ns per row") }; p.cpuNanosPerRow = v
            case "--limit": guard let v = number(UInt64.self) else { return CLI.fail("--limit needs ms") }; p.limitMillis = v
            case "--background": guard let v = number(UInt64.self) else { return CLI.fail("--background needs ms") }; p.backgroundEveryMillis = v
            case "--trace": p.trace = true
            case "--json": guard let v = value() else { return CLI.fail("--json needs a path") }; jsonPath = v
            case "--testee-devices":
                guard let v = value() else { return CLI.fail("--testee-devices needs a list") }
                let list = v.split(separator: ",").compactMap { Int($0) }
                guard !list.isEmpty else { return CLI.fail("--testee-devices needs device numbers") }
                testeeDevices = Set(list)
            default:
                if let s = SimParameters.Scenario(rawValue: a) { p.scenario = s } else { return CLI.fail("unknown argument '\(a)'") }
            }
            i += 1
        }
        if let debounce { p.rules.debounceMs = debounce }
        if measure {
            guard testee.isEmpty else { return CLI.fail("measure runs the reference only") }
            print(SimMeasurements.tables(rows: p.rows, seed: p.seed))
            return 0
        }
        var session: TesteeStepper?
        if !testee.isEmpty {
            do { session = try TesteeStepper(command: testee) } catch {
                return CLI.fail("\(error)", code: 3)
            }
        }
        defer { session?.close() }
        let reference = ReferenceStepper(rules: p.rules)
        let report = Simulation.run(p, stepper: session.map { s in
            { (device: Int) -> SettleStepper in testeeDevices == nil || testeeDevices!.contains(device) ? s : reference }
        })
        if p.trace { for line in report.trace { print(line) } }
        print(report.text)
        if let jsonPath {
            let text = report.tree.json.pretty + "\n"
            if jsonPath == "-" { print(text, terminator: "") } else {
                do { try Data(text.utf8).write(to: URL(fileURLWithPath: jsonPath)) } catch { return CLI.fail("cannot write \(jsonPath): \(error)") }
            }
        }
        if report.error != nil { return 1 }
        if let s = session, s.disagreements > 0 { return 1 }
        if p.scenario == .storm { return report.storms.isEmpty ? 1 : 0 }
        return report.converged ? 0 : 1
    }
}
